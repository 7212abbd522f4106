#include "datadir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef TN_DATA_DIR
#define TN_DATA_DIR "data"
#endif
#ifndef TN_DATA_REL
#define TN_DATA_REL "../share/tilenav"
#endif

/* Append "path" to the comma-separated list in `tried` (truncated silently when full). */
static void note(char *tried, size_t cap, const char *what)
{
    if (!tried || cap == 0)
        return;
    size_t len = strlen(tried);
    snprintf(tried + len, cap - len, "%s%s", len ? ", " : "", what);
}

/* Try DIR/REL: true (and `out` set) when it is a readable file. */
static bool try_dir(const char *dir, const char *rel, char *out, size_t cap, char *tried,
                    size_t tried_cap)
{
    int n = snprintf(out, cap, "%s/%s", dir, rel);
    if (n < 0 || (size_t)n >= cap) {
        note(tried, tried_cap, "(path too long)");
        return false;
    }
    if (access(out, R_OK) == 0)
        return true;
    note(tried, tried_cap, out);
    return false;
}

bool tn_cli_data_file(const char *rel, char *out, size_t cap, char *tried, size_t tried_cap)
{
    if (tried && tried_cap)
        tried[0] = '\0';
    const char *env = getenv("TILENAV_DATA_DIR");
    if (env && env[0]) {
        if (try_dir(env, rel, out, cap, tried, tried_cap))
            return true;
    } else {
        note(tried, tried_cap, "$TILENAV_DATA_DIR (not set)");
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0 && (size_t)n < sizeof exe - 1) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            char dir[4096 + sizeof TN_DATA_REL + 1];
            snprintf(dir, sizeof dir, "%.*s/%s", (int)(slash - exe), exe, TN_DATA_REL);
            if (try_dir(dir, rel, out, cap, tried, tried_cap))
                return true;
        }
    } else {
        note(tried, tried_cap, "(the executable's folder: /proc/self/exe unreadable)");
    }
    return try_dir(TN_DATA_DIR, rel, out, cap, tried, tried_cap);
}
