/* libFuzzer target: the Moving AI map and scenario parsers. The first byte picks the parser.
 * Beyond "no crash", every accepted map is checked against an independent recount of its rows. */
#include "tilenav/io.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_map(const char *text, size_t len, const tn_map *m)
{
    /* Independent recount: the last H lines that hold W cells each. */
    int32_t w = tn_map_width(m), h = tn_map_height(m), pass = 0, rows = 0;
    const char *p = text, *end = text + len;
    int line = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        size_t n = (size_t)(e - p);
        if (n && p[n - 1] == '\r')
            n--;
        if (++line > 4 && rows < h) {
            if (n != (size_t)w)
                abort();
            for (size_t i = 0; i < n; i++)
                pass += p[i] == '.' || p[i] == 'G' || p[i] == 'S';
            rows++;
        }
        p = nl ? nl + 1 : end;
    }
    if (rows != h || pass != tn_map_passable_count(m))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    tn_diag d;
    if (data[0] & 1) {
        tn_scenarios *s = NULL;
        if (tn_scenarios_parse(text, len, "fuzz.scen", NULL, &s, &d) == TN_OK) {
            for (int32_t i = 0; i < tn_scenarios_count(s); i++) {
                const tn_scenario *e = tn_scenarios_at(s, i);
                if (e->start.x >= e->map_width || e->goal.y >= e->map_height || e->optimal < 0)
                    abort();
            }
            tn_scenarios_destroy(s);
        } else if (s != NULL || d.message[0] == '\0') {
            abort();
        }
        return 0;
    }
    tn_load_def o = tn_load_def_default();
    o.format = TN_FORMAT_MOVINGAI;
    tn_map *m = NULL;
    if (tn_map_parse(text, len, "fuzz.map", &o, &m, &d) == TN_OK) {
        check_map(text, len, m);
        tn_map_destroy(m);
    } else if (m != NULL || d.message[0] == '\0') {
        abort();
    }
    return 0;
}
