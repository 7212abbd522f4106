/* Moving AI maps and scenarios: every shipped map loads with the right size and passable count
 * (counted independently from the file text), scenarios parse, and malformed files fail with
 * the specific message. */
#include "support.h"
#include "tilenav/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const maps[] = {
    "dao/arena",      "dao/den520d",         "dao/lak303d",           "dao/brc202d",
    "bg512/AR0011SR", "mazes/maze512-1-0",   "random/random512-10-0", "rooms/8room_000",
    "sc1/Aftershock", "cities/Berlin_0_256",
};

/* Independent count: read the file, skip 4 header lines, count passable letters. */
static void count_file(const char *path, int *w, int *h, int *passable)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char line[4096];
    int lines = 0;
    *w = *h = *passable = 0;
    while (fgets(line, sizeof line, f)) {
        lines++;
        if (lines == 2)
            assert_int_equal(sscanf(line, "height %d", h), 1);
        if (lines == 3)
            assert_int_equal(sscanf(line, "width %d", w), 1);
        if (lines <= 4)
            continue;
        for (char *c = line; *c; c++)
            *passable += (*c == '.' || *c == 'G' || *c == 'S');
    }
    fclose(f);
}

/* Load a map and its scenarios; check them against counts read straight from the files. */
static void check_map_files(const char *path, const char *scen, int min_scenarios)
{
    {
        int w, h, pass;
        count_file(path, &w, &h, &pass);
        tn_map *m = NULL;
        tn_diag d;
        tn_status st = tn_map_load(path, NULL, &m, &d);
        if (st != TN_OK) {
            char msg[1024];
            tn_diag_format(&d, msg, sizeof msg);
            fail_msg("%s", msg);
        }
        assert_int_equal(tn_map_width(m), w);
        assert_int_equal(tn_map_height(m), h);
        assert_int_equal(tn_map_passable_count(m), pass);
        assert_true(tn_map_uniform_cost(m));
        tn_map_destroy(m);

        tn_scenarios *sc = NULL;
        assert_int_equal(tn_scenarios_load(scen, NULL, &sc, &d), TN_OK);
        assert_true(tn_scenarios_count(sc) >= min_scenarios);
        const tn_scenario *e = tn_scenarios_at(sc, 0);
        assert_int_equal(e->map_width, w);
        assert_int_equal(e->map_height, h);
        assert_null(tn_scenarios_at(sc, tn_scenarios_count(sc)));
        tn_scenarios_destroy(sc);
    }
}

static void test_all_maps(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        char path[1024], scen[1024], rel[256];
        snprintf(rel, sizeof rel, "bench/movingai/%s.map", maps[i]);
        tn_test_shared(path, sizeof path, rel);
        snprintf(rel, sizeof rel, "bench/movingai/%s.map.scen", maps[i]);
        tn_test_shared(scen, sizeof scen, rel);
        check_map_files(path, scen, 160);
    }
}

static void test_tiny_map(void **state)
{
    (void)state;
    char path[1024], scen[1024];
    check_map_files(tn_test_data(path, sizeof path, "movingai/tiny.map"),
                    tn_test_data(scen, sizeof scen, "movingai/tiny.map.scen"), 120);
}

static void expect_map_error(const char *text, tn_status want, int line, int col,
                             const char *fragment)
{
    tn_map *m = (tn_map *)0x1;
    tn_diag d;
    tn_load_def o = tn_load_def_default();
    o.format = TN_FORMAT_MOVINGAI;
    tn_status st = tn_map_parse(text, strlen(text), "bad.map", &o, &m, &d);
    char msg[1024];
    tn_diag_format(&d, msg, sizeof msg);
    if (st != want || !strstr(d.message, fragment) || d.line != line || d.column != col)
        fail_msg("got %d '%s', want %d line %d col %d '%s'", st, msg, want, line, col, fragment);
    assert_null(m);
}

static void test_bad_maps(void **state)
{
    (void)state;
    expect_map_error("", TN_E_PARSE, 1, 1, "type octile");
    expect_map_error("type hex\n", TN_E_PARSE, 1, 1, "type octile");
    expect_map_error("type octile\nheight 2\n", TN_E_PARSE, 3, 1, "end of file");
    expect_map_error("type octile\nheight x\nwidth 2\nmap\n", TN_E_PARSE, 2, 1, "height");
    expect_map_error("type octile\nheight 2\nwidth 2\nmap\n..\n", TN_E_PARSE, 5, 1, "too short");
    expect_map_error("type octile\nheight 2\nwidth 3\nmap\n...\n..\n...", TN_E_PARSE, 6, 3,
                     "row 1 has 2 cells");
    expect_map_error("type octile\nheight 2\nwidth 2\nmap\n..\n.x\n", TN_E_PARSE, 6, 2,
                     "unknown terrain letter 'x'");
    expect_map_error("type octile\nheight 1\nwidth 2147483648\nmap\n..\n", TN_E_TOO_LARGE, 3, 1,
                     "past the limit");
    expect_map_error("type octile\nheight 70000\nwidth 70000\nmap\n", TN_E_TOO_LARGE, 3, 1,
                     "past the limit");
    /* the number as written, however long (it once printed a number cut at 2^40) */
    expect_map_error("type octile\nheight 99999999999999999999\nwidth 3\nmap\n", TN_E_TOO_LARGE, 3,
                     1, "3 x 99999999999999999999 cells");
    expect_map_error("type octile\nheight 0\nwidth 5\nmap\n", TN_E_PARSE, 3, 1, ">= 1");
    expect_map_error("type octile\nheight 1\nwidth 2\nmap\n..\n..\n", TN_E_PARSE, 6, 1,
                     "after the 1 map rows");
    /* CRLF and a missing final newline are fine */
    tn_map *m = NULL;
    const char *ok = "type octile\r\nheight 2\r\nwidth 2\r\nmap\r\n.@\r\nT.";
    assert_int_equal(tn_map_parse(ok, strlen(ok), "ok.map", NULL, &m, NULL), TN_OK);
    assert_int_equal(tn_map_passable_count(m), 2);
    assert_false(tn_map_passable(m, 1, 0));
    tn_map_destroy(m);
}

static void expect_scen_error(const char *text, int line, const char *fragment)
{
    tn_scenarios *s = (tn_scenarios *)0x1;
    tn_diag d;
    tn_status st = tn_scenarios_parse(text, strlen(text), "bad.scen", NULL, &s, &d);
    if (st != TN_E_PARSE || !strstr(d.message, fragment) || d.line != line)
        fail_msg("got %d line %d '%s', want line %d '%s'", st, d.line, d.message, line, fragment);
    assert_null(s);
}

static void test_scenarios(void **state)
{
    (void)state;
    const char *ok = "version 1\n3\tm.map\t10\t8\t1\t2\t9\t7\t12.41421\n"
                     "0 m.map 10 8 0 0 0 0 0\n";
    tn_scenarios *s = NULL;
    assert_int_equal(tn_scenarios_parse(ok, strlen(ok), "ok.scen", NULL, &s, NULL), TN_OK);
    assert_int_equal(tn_scenarios_count(s), 2);
    const tn_scenario *e = tn_scenarios_at(s, 0);
    assert_int_equal(e->bucket, 3);
    assert_int_equal(e->start.x, 1);
    assert_int_equal(e->goal.y, 7);
    assert_int_equal(e->decimals, 5);
    assert_true(tn_scenario_matches(e, 12.414213));
    assert_false(tn_scenario_matches(e, 12.42));
    tn_scenarios_destroy(s);
    /* the 2-decimal tolerance of the bg512 files */
    tn_scenario two = {0, 10, 10, {0, 0}, {2, 2}, 2.83, 2};
    assert_true(tn_scenario_matches(&two, 2.828427));
    expect_scen_error("version 2\n", 1, "version 1");
    expect_scen_error("version 1\n1 m 10 8 1 2 9 7\n", 2, "expected 9 fields");
    expect_scen_error("version 1\n1 m 10 8 1 2 9 7 1.0 extra\n", 2, "expected 9 fields");
    expect_scen_error("version 1\n1 m 10 8 1 -2 9 7 1.0\n", 2, "start y");
    expect_scen_error("version 1\n1 m 10 8 1 2 10 7 1.0\n", 2, "outside");
    expect_scen_error("version 1\n1 m 10 8 1 2 9 7 abc\n", 2, "optimal length");
    expect_scen_error("version 1\n1 m 10 8 1 2 9 7 nan\n", 2, "optimal length");
}

/* max_file_bytes: a file that tells its size is refused before it is read, naming its size
 * (a 300 MiB sparse file: no read of 256 MiB of zeros first); one at the limit loads. */
static void test_file_limit(void **state)
{
    (void)state;
    char dir[] = "/tmp/tn_movingai_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char small[600], big[600];
    snprintf(small, sizeof small, "%s/small.map", dir);
    snprintf(big, sizeof big, "%s/big.map", dir);
    const char text[] = "type octile\nheight 2\nwidth 3\nmap\n..@\n...\n";
    FILE *f = fopen(small, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, sizeof text - 1, f), sizeof text - 1);
    assert_int_equal(fclose(f), 0);
    f = fopen(big, "wb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 300L << 20, SEEK_SET), 0);
    assert_int_equal(fputc('.', f), '.');
    assert_int_equal(fclose(f), 0);

    tn_load_def o = tn_load_def_default();
    tn_map *m = NULL;
    tn_diag d;
    o.max_file_bytes = sizeof text - 2;
    assert_int_equal(tn_map_load(small, &o, &m, &d), TN_E_TOO_LARGE);
    assert_null(m);
    char want[128];
    snprintf(want, sizeof want, "file is %zu bytes, larger than the limit of %zu bytes",
             sizeof text - 1, sizeof text - 2);
    if (!strstr(d.message, want))
        fail_msg("message \"%s\", expected \"%s\"", d.message, want);
    o.max_file_bytes = sizeof text - 1;
    assert_int_equal(tn_map_load(small, &o, &m, &d), TN_OK);
    assert_int_equal(tn_map_width(m), 3);
    tn_map_destroy(m);
    m = NULL;
    assert_int_equal(tn_map_load(big, NULL, &m, &d), TN_E_TOO_LARGE);
    assert_null(m);
    assert_non_null(strstr(d.message, "file is 314572801 bytes"));
    assert_int_equal(remove(small), 0);
    assert_int_equal(remove(big), 0);
    assert_int_equal(remove(dir), 0);
}

static void test_missing_file(void **state)
{
    (void)state;
    tn_map *m = NULL;
    tn_diag d;
    tn_load_def bad = tn_load_def_default();
    bad.internal_cookie = 0; /* not from tn_load_def_default() */
    assert_int_equal(tn_map_parse("type octile\n", 12, "x.map", &bad, &m, &d), TN_E_INVALID_ARG);
    assert_non_null(strstr(d.message, "tn_load_def_default"));
    assert_int_equal(tn_map_load("x.map", &bad, &m, &d), TN_E_INVALID_ARG);
    assert_null(m);
    assert_int_equal(tn_map_load("/nonexistent/dir/x.map", NULL, &m, &d), TN_E_IO);
    assert_non_null(strstr(d.message, "cannot open"));
    assert_string_equal(d.file, "/nonexistent/dir/x.map");
    char buf[16];
    size_t n = tn_diag_format(&d, buf, sizeof buf);
    assert_true(n > sizeof buf);
    assert_int_equal(strlen(buf), sizeof buf - 1);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest local_tests[] = {
        cmocka_unit_test(test_tiny_map),   cmocka_unit_test(test_bad_maps),
        cmocka_unit_test(test_scenarios),  cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_file_limit),
    };
    const struct CMUnitTest shared_tests[] = {
        cmocka_unit_test(test_all_maps),
    };
    return tn_test_run(argc, argv, local_tests, TN_TEST_COUNT(local_tests), shared_tests,
                       TN_TEST_COUNT(shared_tests), NULL, 0);
}
