#!/usr/bin/env python3
"""ctest `cli_field_json`: `tilenav field MAP X Y --json --los` prints one JSON object whose
keys are unique (a duplicate key loses its first value in every common parser), whose counts
agree with its own per-cell rows, and whose summary line agrees with the plain run.

usage: cli_field_json.py TILENAV_EXE MAP X Y
"""

import json
import subprocess
import sys


def unique(pairs):
    keys = [k for k, _ in pairs]
    dup = {k for k in keys if keys.count(k) > 1}
    if dup:
        sys.exit(f"cli_field_json: FAIL: duplicate keys {sorted(dup)}")
    return dict(pairs)


def main():
    exe, path, x, y = sys.argv[1:5]
    out = subprocess.run([exe, "field", path, x, y, "--json", "--los"], check=True,
                         capture_output=True, text=True).stdout
    o = json.loads(out, object_pairs_hook=unique)
    w, h = o["width"], o["height"]
    for key in ("distance", "dir", "los"):
        rows = o[key]
        if len(rows) != h or any(len(r) != w for r in rows):
            sys.exit(f"cli_field_json: FAIL: {key} is not {h} rows of {w}")
    reach = sum(d is not None for r in o["distance"] for d in r)
    los = sum(v for r in o["los"] for v in r)
    if (reach, los) != (o["reachable"], o["los_count"]):
        sys.exit(f"cli_field_json: FAIL: rows give reachable={reach} los={los}, the object "
                 f"says {o['reachable']} and {o['los_count']}")
    if o["distance"][int(y)][int(x)] != 0 or o["dir"][int(y)][int(x)] != -1:
        sys.exit("cli_field_json: FAIL: the goal has distance 0 and dir -1")
    line = subprocess.run([exe, "field", path, x, y, "--los"], check=True, capture_output=True,
                          text=True).stdout
    if f"reachable={reach} los={los} " not in line:
        sys.exit(f"cli_field_json: FAIL: the summary line {line.strip()!r} disagrees")
    print(f"cli_field_json: ok ({w}x{h}, reachable={reach}, los={los})")


main()
