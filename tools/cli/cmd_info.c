/* tilenav info MAP [--json] [--format FMT] [--collision LIST] [--cover RULE] ...: what a map file
 * holds, as the loaders read it. */
#include "cli.h"
#include "tilenav/io.h"

#include <stdio.h>
#include <string.h>

int tn_cmd_info(int argc, char **argv);
extern const char tn_cmd_info_summary[];
const char tn_cmd_info_summary[] = "describe a map: format, size, layers, objects, passable cells";

static void help(FILE *f)
{
    fprintf(
        f,
        "usage: tilenav info MAP [--json] [--format FMT] [--collision LIST]\n"
        "                        [--collision-layers NAMES] [--cover RULE]\n\n"
        "Load MAP (Moving AI .map, Tiled JSON .tmj/.json or XML .tmx, tilenav ASCII .txt) and\n"
        "print its format, width and height in cells, tile size in pixels, every layer (name,\n"
        "kind, flags, non-empty cells), object and tileset counts, and the number of\n"
        "passable cells under the map's terrain rules (docs/formats.md says which tile\n"
        "properties block or cost). For Tiled maps it then prints how many cells each collision\n"
        "convention blocks (tile properties, tiles' collision shapes, collision object\n"
        "layers; a cell may count under several), the tiles with shapes, the collision\n"
        "layers and objects read, and the blocked cells in all. Last, the clearance: for\n"
        "each unit size n = 1..8 (an n x n square of cells), the cells where such a unit\n"
        "fits with its top-left cell there (clearance.h; \"clearance\" in JSON: cells of\n"
        "clearance exactly 0, 1, ..., 8 or more), and the number of regions (connected\n"
        "areas, regions.h) for each unit size; on maps of more than 2^26 cells (8192 x\n"
        "8192) these two lines say they were skipped (they would take 46 bytes a cell).\n\n"
        "Options:\n"
        "  --json         print one JSON object instead of text\n"
        "  --format FMT   auto (default: from the content, then the extension), movingai,\n"
        "                 tiled (JSON), tmx or ascii\n" TN_CLI_LOAD_OPTIONS_HELP
        "  -h, --help     this text\n\n"
        "Exit status: 0 ok, 2 bad command line, 3 the map cannot be read or parsed (the\n"
        "message names the file, the line/column or JSON field, and the reason), 5 the map\n"
        "is past a documented limit or memory ran out.\n");
}

static void json_str(const char *s)
{
    putchar('"');
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static const char *shape_name(uint32_t s)
{
    static const char *const names[] = {"rectangle", "point",    "ellipse",
                                        "polygon",   "polyline", "text"};
    return s < 6 ? names[s] : "unknown";
}

int tn_cmd_info(int argc, char **argv)
{
    const char *path = NULL;
    bool json = false;
    tn_load_def o = tn_load_def_default();
    tn_load_report rep;
    memset(&rep, 0, sizeof rep);
    o.report = &rep;
    int opt;
    for (int i = 1; i < argc; i++) {
        if (tn_cli_is_help(argv[i])) {
            help(stdout);
            return TN_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--format") == 0) {
            if (i + 1 >= argc)
                return tn_cli_usage_error("info", "--format needs a value");
            const char *f = argv[++i];
            if (strcmp(f, "auto") == 0)
                o.format = TN_FORMAT_AUTO;
            else if (strcmp(f, "movingai") == 0)
                o.format = TN_FORMAT_MOVINGAI;
            else if (strcmp(f, "tiled") == 0)
                o.format = TN_FORMAT_TILED;
            else if (strcmp(f, "ascii") == 0)
                o.format = TN_FORMAT_ASCII;
            else if (strcmp(f, "tmx") == 0)
                o.format = TN_FORMAT_TMX;
            else
                return tn_cli_usage_error("info", "unknown format '%s'", f);
        } else if ((opt = tn_cli_load_option("info", argc, argv, &i, &o)) != 0) {
            if (opt < 0)
                return TN_EXIT_USAGE;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return tn_cli_bad_option("info", argv[i], i + 1 >= argc);
        } else if (path) {
            return tn_cli_usage_error("info", "only one MAP, got '%s' and '%s'", path, argv[i]);
        } else {
            path = argv[i];
        }
    }
    if (!path)
        return tn_cli_usage_error("info", "missing MAP");

    /* Detect the format here too, to report it. */
    tn_format fmt = o.format;
    if (fmt == TN_FORMAT_AUTO) { /* the head of the file decides (the loader says why not) */
        char head[4096];
        size_t n = 0;
        FILE *f = fopen(path, "rb");
        if (f) {
            n = fread(head, 1, sizeof head, f);
            fclose(f);
        }
        fmt = tn_map_detect_format(path, head, n);
    }
    tn_map *m = NULL;
    tn_diag d;
    memset(&d, 0, sizeof d);
    tn_status st = tn_map_load(path, &o, &m, &d);
    if (st != TN_OK) {
        char msg[1024];
        return tn_cli_load_failed("info", &d, st, msg, sizeof msg);
    }
    int32_t w = tn_map_width(m), h = tn_map_height(m), nl = tn_map_layer_count(m);
    int64_t cells = (int64_t)w * h;
    if (json) {
        printf("{\"file\": ");
        json_str(path);
        printf(", \"format\": \"%s\", \"width\": %d, \"height\": %d, \"tile_width\": %d, "
               "\"tile_height\": %d,\n \"layers\": [",
               tn_format_name(fmt), (int)w, (int)h, (int)tn_map_tile_width(m),
               (int)tn_map_tile_height(m));
    } else {
        printf("file: %s\nformat: %s\nwidth: %d\nheight: %d\ntile size: %dx%d\nlayers: %d\n", path,
               tn_format_name(fmt), (int)w, (int)h, (int)tn_map_tile_width(m),
               (int)tn_map_tile_height(m), (int)nl);
    }
    for (int32_t i = 0; i < nl; i++) {
        bool tiles = tn_map_layer_kind(m, i) == TN_LAYER_TILES;
        uint32_t flags = tn_map_layer_flags(m, i);
        int64_t count = 0;
        if (tiles) {
            const uint32_t *g = tn_map_layer_data(m, i);
            for (int64_t k = 0; k < cells; k++)
                count += g[k] != 0;
        } else {
            for (int32_t k = 0; k < tn_map_object_count(m); k++)
                count += tn_map_object_at(m, k)->layer == i;
        }
        if (json) {
            printf("%s\n  {\"index\": %d, \"name\": ", i ? "," : "", (int)i);
            json_str(tn_map_layer_name(m, i));
            printf(", \"kind\": \"%s\", \"terrain\": %s, \"hidden\": %s, \"%s\": %lld}",
                   tiles ? "tiles" : "objects", flags & TN_LAYER_TERRAIN ? "true" : "false",
                   flags & TN_LAYER_HIDDEN ? "true" : "false", tiles ? "non_empty" : "objects",
                   (long long)count);
        } else {
            printf("  layer %d: %s (%s%s%s, %lld %s)\n", (int)i, tn_map_layer_name(m, i),
                   tiles ? "tiles" : "objects", flags & TN_LAYER_TERRAIN ? ", terrain" : "",
                   flags & TN_LAYER_HIDDEN ? ", hidden" : "", (long long)count,
                   tiles ? "non-empty cells" : "objects");
        }
    }
    int32_t no = tn_map_object_count(m), nt = tn_map_tileset_count(m);
    if (json) {
        printf("],\n \"objects\": [");
        for (int32_t k = 0; k < no; k++) {
            const tn_map_object *ob = tn_map_object_at(m, k);
            printf("%s\n  {\"name\": ", k ? "," : "");
            json_str(ob->name);
            printf(", \"type\": ");
            json_str(ob->type);
            printf(", \"layer\": %d, \"shape\": \"%s\", \"x\": %g, \"y\": %g, \"w\": %g, "
                   "\"h\": %g, \"gid\": %u}",
                   (int)ob->layer, shape_name(ob->shape), (double)ob->x, (double)ob->y,
                   (double)ob->w, (double)ob->h, ob->gid);
        }
        printf("],\n \"tilesets\": [");
    } else {
        printf("objects: %d\n", (int)no);
        for (int32_t k = 0; k < no && k < 20; k++) {
            const tn_map_object *ob = tn_map_object_at(m, k);
            printf("  object %d: %s%s%s (%s, layer %d) at %g,%g size %gx%g\n", (int)k,
                   ob->name[0] ? ob->name : "-", ob->type[0] ? " : " : "", ob->type,
                   shape_name(ob->shape), (int)ob->layer, (double)ob->x, (double)ob->y,
                   (double)ob->w, (double)ob->h);
        }
        if (no > 20)
            printf("  ... %d more\n", (int)(no - 20));
        printf("tilesets: %d\n", (int)nt);
    }
    for (int32_t k = 0; k < nt; k++) {
        const tn_tileset *t = tn_map_tileset_at(m, k);
        if (json) {
            printf("%s\n  {\"name\": ", k ? "," : "");
            json_str(t->name);
            printf(", \"first_gid\": %u, \"tile_count\": %d, \"tile_width\": %d, "
                   "\"tile_height\": %d, \"image\": ",
                   t->first_gid, (int)t->tile_count, (int)t->tile_width, (int)t->tile_height);
            json_str(t->image);
            putchar('}');
        } else {
            printf("  tileset %d: %s, first gid %u, %d tiles of %dx%d, image %s\n", (int)k,
                   t->name[0] ? t->name : "-", t->first_gid, (int)t->tile_count, (int)t->tile_width,
                   (int)t->tile_height, t->image[0] ? t->image : "-");
        }
    }
    int32_t pass = tn_map_passable_count(m);
    bool tiled = fmt == TN_FORMAT_TILED || fmt == TN_FORMAT_TMX;
    /* regions per unit size, without corner cutting (the same under NEVER and ONE), and the
     * clearance they keep: how many cells each size of square unit can stand on */
    enum { CLEAR_CAP = 8 };
    int32_t hist[CLEAR_CAP + 1] = {0}, nreg[CLEAR_CAP + 1] = {0};
    tn_regions_def rd = tn_regions_def_default();
    rd.map = m;
    rd.max_size = CLEAR_CAP;
    rd.size_maps = false; /* counts only: no per-size map to search (8 map copies' memory) */
    tn_regions *rg = NULL;
    /* about 46 bytes a cell (a label per size, the clearance, the scratch): not for a map that
     * a few bytes of ASCII or JSON declared at 2^28 cells */
    const bool huge = cells > ((int64_t)1 << 26);
    bool have_reg = !huge && tn_regions_create(&rd, &rg) == TN_OK;
    bool have_clear =
        have_reg && tn_clearance_histogram(tn_regions_clearance(rg), hist, CLEAR_CAP + 1) == TN_OK;
    for (int k = 1; have_reg && k <= CLEAR_CAP; k++)
        nreg[k] = tn_regions_count(rg, k);
    tn_regions_destroy(rg);
    if (json) {
        printf("],\n");
        if (tiled)
            printf(" \"collision\": {\"blocked\": %d, \"by_properties\": %d, \"by_tile_shapes\": "
                   "%d, \"by_object_layers\": %d, \"tiles_with_shapes\": %d, "
                   "\"collision_layers\": %d, \"collision_objects\": %d},\n",
                   (int)rep.cells_blocked, (int)rep.blocked_by_properties,
                   (int)rep.blocked_by_tile_shapes, (int)rep.blocked_by_object_layers,
                   (int)rep.tiles_with_shapes, (int)rep.collision_layers,
                   (int)rep.collision_objects);
        if (have_reg) {
            printf(" \"regions\": [");
            for (int k = 1; k <= CLEAR_CAP; k++)
                printf("%s%d", k > 1 ? ", " : "", (int)nreg[k]);
            printf("],\n");
        }
        if (have_clear) {
            printf(" \"clearance\": [");
            for (int k = 0; k <= CLEAR_CAP; k++)
                printf("%s%d", k ? ", " : "", (int)hist[k]);
            printf("],\n");
        }
        printf(" \"cells\": %lld, \"passable\": %d, \"min_cost\": %g, \"uniform_cost\": %s}\n",
               (long long)cells, (int)pass, (double)tn_map_min_cost(m),
               tn_map_uniform_cost(m) ? "true" : "false");
    } else {
        printf("passable: %d of %lld cells\nmin cost: %g\nuniform cost: %s\n", (int)pass,
               (long long)cells, (double)tn_map_min_cost(m), tn_map_uniform_cost(m) ? "yes" : "no");
        if (tiled)
            printf("blocked by tile properties: %d cells\n"
                   "blocked by tile collision shapes: %d cells (%d tiles with shapes)\n"
                   "blocked by collision object layers: %d cells (%d layers, %d objects)\n"
                   "blocked in all: %d cells\n",
                   (int)rep.blocked_by_properties, (int)rep.blocked_by_tile_shapes,
                   (int)rep.tiles_with_shapes, (int)rep.blocked_by_object_layers,
                   (int)rep.collision_layers, (int)rep.collision_objects, (int)rep.cells_blocked);
        if (have_clear) {
            /* cells where a unit of size k can stand: those of clearance k or more */
            printf("clearance (n x n units by their top-left cell; cells where each size fits):");
            int32_t fits = 0;
            for (int k = CLEAR_CAP; k >= 1; k--) {
                fits += hist[k];
                hist[k] = fits;
            }
            for (int k = 1; k <= CLEAR_CAP; k++)
                printf(" %d:%d", k, (int)hist[k]);
            printf("%s\n", CLEAR_CAP == 8 ? " (8 = 8 or more)" : "");
        }
        if (have_reg) {
            printf("regions (connected areas per unit size, no corner cutting):");
            for (int k = 1; k <= CLEAR_CAP; k++)
                printf(" %d:%d", k, (int)nreg[k]);
            printf("\n");
        }
        if (huge)
            printf("clearance and regions: skipped (more than %lld cells)\n", (long long)1 << 26);
    }
    tn_map_destroy(m);
    return TN_EXIT_OK;
}
