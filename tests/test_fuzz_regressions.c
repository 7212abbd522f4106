/* Every input that once crashed a fuzzer (each file under fuzz/regressions/TARGET) is replayed here
 * from a buffer of exactly its size (no terminating NUL, as the fuzzers pass it), so that the
 * ASan+UBSan run of the suite catches any over-read; each must fail cleanly or load. */
#include "support.h"
#include "tilenav/io.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_exact(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char tmp[1 << 16];
    size_t n = fread(tmp, 1, sizeof tmp, f);
    fclose(f);
    char *buf = malloc(n ? n : 1);
    assert_non_null(buf);
    memcpy(buf, tmp, n);
    *len = n;
    return buf;
}

static void replay(const char *target, tn_format format)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/../fuzz/regressions/%s", TN_TEST_DATA, target);
    DIR *d = opendir(dir);
    if (!d)
        return; /* no regressions for this target */
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len;
        char *buf = read_exact(path, &len);
        tn_load_def o = tn_load_def_default();
        o.format = format;
        tn_map *m = NULL;
        tn_diag diag;
        tn_status st = tn_map_parse(buf, len, e->d_name, &o, &m, &diag);
        if (st == TN_OK)
            tn_map_destroy(m);
        else
            assert_true(diag.message[0] != '\0');
        free(buf);
        n++;
    }
    closedir(d);
    assert_true(n > 0);
}

static void test_tiled_regressions(void **state)
{
    (void)state;
    replay("fuzz_tiled", TN_FORMAT_TILED);
}

static void test_empty_inputs(void **state)
{
    (void)state;
    /* a zero-length buffer at the very end of an allocation, for every format */
    tn_format formats[3] = {TN_FORMAT_MOVINGAI, TN_FORMAT_TILED, TN_FORMAT_ASCII};
    for (int i = 0; i < 3; i++) {
        char *buf = malloc(1);
        assert_non_null(buf);
        tn_load_def o = tn_load_def_default();
        o.format = formats[i];
        tn_map *m = NULL;
        tn_diag diag;
        assert_true(tn_map_parse(buf + 1, 0, "empty", &o, &m, &diag) < 0);
        assert_null(m);
        free(buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiled_regressions),
        cmocka_unit_test(test_empty_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
