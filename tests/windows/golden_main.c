/* The pinned hashes of support/golden.h without cmocka, for targets where the test suite does
 * not build: `./build.sh windows` cross-compiles this with MinGW-w64 against the static
 * library and the DLL and runs it under Wine. Exit 0 when every hash matches, 1 otherwise. */
#include "support/golden.h"

#include <stdio.h>

static int check(const char *what, tn_status st, uint64_t got, uint64_t want)
{
    if (st != TN_OK) {
        printf("%s: failed: %s\n", what, tn_status_str(st));
        return 1;
    }
    printf("%s: 0x%016llx %s\n", what, (unsigned long long)got,
           got == want ? "(as pinned)" : "MISMATCH");
    if (got != want)
        printf("  expected 0x%016llx\n", (unsigned long long)want);
    return got != want;
}

int main(void)
{
    uint64_t h = 0;
    int bad = 0;
    tn_status st = tn_golden_paths_fields(&h);
    bad |= check("paths and fields", st, h, TN_GOLDEN_PATHS_FIELDS);
    st = tn_golden_crowd(5, 400, 2, 0.0f, NULL, &h);
    bad |= check("crowd", st, h, TN_GOLDEN_CROWD);
    st = tn_golden_crowd(5, 400, 2, 0.5f, NULL, &h);
    bad |= check("crowd with wander", st, h, TN_GOLDEN_CROWD_WANDER);
    printf("%s\n", bad ? "golden hashes: FAILED" : "golden hashes: ok");
    return bad;
}
