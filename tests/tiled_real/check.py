#!/usr/bin/env python3
"""ctest `tiled_real`: every Tiled map of the given folders, loaded by tilenav_io (through
dump_passable) and read by reference.py, must give the same grid of passable cells, the same
tile-layer gids (a CRC-32 per layer) and, when the loader fills a tn_load_report, the same
per-convention counts. A map saved both as TMX and as JSON (same folder, same stem) must load
to identical output.

Usage: check.py DUMPER [--xfail FILE] DIR_OR_MAP...

Maps: *.tmx, *.tmj, and *.json files whose top-level object is a map (tilesets, templates
and other JSON are skipped). A folder that does not exist is skipped with a note (the shared
bench maps are optional). The xfail file lists maps, by path relative to the folder given
on the command line prefixed by that folder's name ("tiled-real/luphi/assets/example.tmx"),
that are expected to differ in this build, each with a reason; an expected failure that
passes fails the run (XPASS), so the list cannot go stale. Exit status 0 when every map
passed or failed as expected, 1 otherwise.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402


def is_map(path):
    low = path.lower()
    if low.endswith((".tmx", ".tmj")):
        return True
    if not low.endswith(".json"):
        return False
    try:
        with open(path, encoding="utf-8") as f:
            root = json.load(f)
    except (OSError, ValueError):
        return False
    return isinstance(root, dict) and "layers" in root and root.get("type", "map") == "map"


def collect(args):
    """(key, path) pairs; key = folder name / path relative to the folder."""
    out = []
    for a in args:
        if os.path.isfile(a):
            out.append((os.path.basename(a), a))
            continue
        if not os.path.isdir(a):
            print(f"note: {a}: no such folder, skipped")
            continue
        label = os.path.basename(os.path.normpath(a))
        for dirpath, dirnames, files in os.walk(a):
            dirnames.sort()
            for f in sorted(files):
                p = os.path.join(dirpath, f)
                if is_map(p):
                    out.append((label + "/" + os.path.relpath(p, a).replace(os.sep, "/"), p))
    return out


def parse_dump(text):
    lines = text.splitlines()
    w, h = map(int, lines[0].split())
    counts = lines[1].split()[1:]
    n = int(lines[2].split()[1])
    layers = [tuple(l.split(" ", 2)[1:]) for l in lines[3:3 + n]]
    grid = lines[3 + n:3 + n + h]
    return {"w": w, "h": h, "counts": counts, "layers": layers, "grid": grid}


def compare(key, dump, ref_result, ref_text):
    """None when they agree, else a message naming the first difference."""
    ref = parse_dump(ref_text)
    if (dump["w"], dump["h"]) != (ref["w"], ref["h"]):
        return f"size {dump['w']}x{dump['h']}, reference {ref['w']}x{ref['h']}"
    if dump["layers"] != ref["layers"]:
        for i, (a, b) in enumerate(zip(dump["layers"], ref["layers"])):
            if a != b:
                return f"tile layer {i}: loader {a[1]!r} crc {a[0]}, reference {b[1]!r} crc {b[0]}"
        return (f"{len(dump['layers'])} tile layers, reference {len(ref['layers'])}: "
                f"loader {[l[1] for l in dump['layers']]}, reference {[l[1] for l in ref['layers']]}")
    for y in range(ref["h"]):
        a, b = dump["grid"][y], ref["grid"][y]
        if a != b:
            x = next(i for i in range(len(b)) if a[i] != b[i])
            why = ref_result.why(x, y)
            return (f"cell ({x}, {y}): loader {'blocked' if a[x] == '#' else 'passable'}, "
                    f"reference {'blocked by ' + ' + '.join(why) if why else 'passable'}")
    if dump["counts"][0] != "none":
        names = ["cells_blocked", "blocked_by_properties", "blocked_by_tile_shapes",
                 "blocked_by_object_layers", "tiles_with_shapes", "collision_layers",
                 "collision_objects"]
        for i in (0, 1, 2, 3, 5):
            if dump["counts"][i] != ref["counts"][i]:
                return f"report {names[i]} {dump['counts'][i]}, reference {ref['counts'][i]}"
        for i in (4, 6):
            if dump["counts"][i] != ref["counts"][i]:
                print(f"  note: {key}: report {names[i]} {dump['counts'][i]}, "
                      f"reference {ref['counts'][i]} (not compared)")
    elif int(dump["counts"][1]) != int(ref["counts"][0]):
        return f"{dump['counts'][1]} blocked cells, reference {ref['counts'][0]}"
    return None


def main(argv):
    if len(argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    dumper = argv[1]
    rest = argv[2:]
    xfail = {}
    if rest[0] == "--xfail":
        with open(rest[1], encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    words = line.split()
                    n = 3 if len(words) >= 3 and words[1] == "=" else 1
                    xfail[" ".join(words[:n])] = " ".join(words[n:])
        rest = rest[2:]
    try:
        reference.self_test()
    except AssertionError as e:
        print(f"FAIL  reference.py self-test: {e}")
        return 1
    maps = collect(rest)
    passed = failed = skipped = xfailed = 0
    dumps = {}
    for key, path in maps:
        try:
            m = reference.load(path)
        except reference.Unsupported as e:
            print(f"SKIP  {key}: the reference does not read it: {e}")
            skipped += 1
            continue
        r = reference.evaluate(m)
        ref_text = reference.render(r)
        proc = subprocess.run([dumper, path], capture_output=True, text=True)
        if proc.returncode != 0:
            problem = f"loader failed: {proc.stderr.strip()}"
        else:
            dump = parse_dump(proc.stdout)
            dumps[path] = proc.stdout
            problem = compare(key, dump, r, ref_text)
        expected = xfail.pop(key, None)
        if problem is None and expected is None:
            passed += 1
            print(f"ok    {key} ({r.w}x{r.h}, {len(r.blocked())} blocked)")
        elif problem is None:
            failed += 1
            print(f"XPASS {key}: passes now; remove it from the xfail list ({expected})")
        elif expected is not None:
            xfailed += 1
            print(f"xfail {key}: {problem} [expected: {expected}]")
        else:
            failed += 1
            print(f"FAIL  {key}: {problem}")
    # the same map saved as TMX and as JSON
    by_stem = {}
    for key, path in maps:
        stem, ext = os.path.splitext(path)
        by_stem.setdefault(stem, []).append((ext.lower(), key, path))
    for stem, group in sorted(by_stem.items()):
        tmx = [g for g in group if g[0] == ".tmx"]
        js = [g for g in group if g[0] in (".tmj", ".json")]
        for _, tkey, tpath in tmx:
            for _, jkey, jpath in js:
                pair = f"{tkey} = {jkey}"
                a = reference.render(reference.evaluate(reference.load(tpath)))
                b = reference.render(reference.evaluate(reference.load(jpath)))
                if a != b:
                    failed += 1
                    print(f"FAIL  {pair}: the reference reads them differently (bad data)")
                    continue
                da, db = dumps.get(tpath), dumps.get(jpath)
                expected = xfail.pop(pair, None)
                if da is None or db is None or da != db:
                    why = ("one of them did not load" if da is None or db is None
                           else "the loader's output differs")
                    if expected is not None:
                        xfailed += 1
                        print(f"xfail {pair}: {why} [expected: {expected}]")
                    else:
                        failed += 1
                        print(f"FAIL  {pair}: {why}")
                elif expected is not None:
                    failed += 1
                    print(f"XPASS {pair}: identical now; remove it from the xfail list")
                else:
                    passed += 1
                    print(f"ok    {pair}: identical grids and layer gids")
    for k, why in sorted(xfail.items()):
        if any(k.startswith(os.path.basename(os.path.normpath(a)) + "/") for a in rest
               if os.path.isdir(a)):
            failed += 1
            print(f"FAIL  {k}: listed as an expected failure but not found")
    print(f"{passed} passed, {failed} failed, {skipped} skipped, {xfailed} expected failures")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
