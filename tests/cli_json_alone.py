#!/usr/bin/env python3
"""ctest `cli_json_alone`: with --json, standard output is one JSON object and nothing else,
whatever other option adds lines of its own (--threads' batch lines, --bench, --sectors,
--bench-towers, --arrivals: those go to standard error); options that cannot go with --json
are refused with status 2.

usage: cli_json_alone.py TILENAV_EXE MAP SCEN GX GY
"""

import json
import subprocess
import sys


def run(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=300)


def main():
    exe, path, scen, gx, gy = sys.argv[1:6]
    runs = [
        ["bench", path, scen, "--algo", "all", "--threads", "2", "--limit", "5"],
        ["field", path, gx, gy, "--bench", "2"],
        ["field", path, gx, gy, "--sectors", "5"],
        ["field", path, gx, gy, "--bench-towers", "2"],
        ["sim", path, gx, gy, "--agents", "10", "--steps", "30", "--arrivals", "2"],
        ["sim", path, gx, gy, "--agents", "10", "--steps", "30", "--sectors"],
        ["info", path],
        ["path", path, "1", "1", gx, gy],
    ]
    bad = 0
    for args in runs:
        p = run([exe] + args + ["--json"])
        try:
            json.loads(p.stdout)
        except json.JSONDecodeError as e:
            print(f"cli_json_alone: FAIL: tilenav {' '.join(args)} --json: stdout is not one "
                  f"JSON object ({e}): {p.stdout[:200]!r}")
            bad += 1
        if p.returncode != 0:
            print(f"cli_json_alone: FAIL: tilenav {' '.join(args)} --json: status "
                  f"{p.returncode}: {p.stderr.strip()}")
            bad += 1
    for args in (["sim", path, gx, gy, "--bench", "--counts", "10"],
                 ["path", path, "1", "1", gx, gy, "--ascii"]):
        p = run([exe] + args + ["--json"])
        if p.returncode != 2 or p.stdout:
            print(f"cli_json_alone: FAIL: tilenav {' '.join(args)} --json: status "
                  f"{p.returncode} (want 2, nothing on stdout)")
            bad += 1
    if bad:
        sys.exit(1)
    print(f"cli_json_alone: ok ({len(runs)} commands, 2 refused)")


main()
