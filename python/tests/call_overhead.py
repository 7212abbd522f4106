"""The Python call overhead of a path query, measured side by side for several installs of the
package in one run (docs/BENCHMARKS.md, "Python"):

    python python/tests/call_overhead.py [--rounds 5] PYTHON [PYTHON ...]

Each PYTHON is an interpreter with tilenav installed (a venv's bin/python, e.g.
build/python/venv/bin/python and one made from an older commit). Each round runs every
interpreter once, in turn, in a subprocess started from outside the source tree (the order
alternates between rounds, so that the machine's load hits each alike), and measures:

- ``path(s, s) 4x4``: ``Map.path(s, s)`` on a 4x4 map, a query whose start is its goal (the
  search itself is nothing), best of 5 repeats of 20,000 calls, in µs per call;
- ``path_result(s, s) 4x4``: the same through ``Map.path_result``;
- ``path(s, s) den520d``: as bench/python_vs_peers.py measures it, each of den520d's 200
  spread scenarios' start timed alone (``time.perf_counter`` around one call), the median;
- ``path jps den520d``: the 200 scenarios' JPS paths, the median of single calls;

and prints, per interpreter and measure, the range over the rounds and the median. Without
the shared maps (../shared/bench/movingai) the den520d measures are left out.
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEN = os.path.join(os.path.dirname(ROOT), "shared", "bench", "movingai", "dao", "den520d.map")


def spread(n, count):
    """The CLI's --spread selection (bench/python_vs_peers.py's): `count` indices over [0, n)."""
    if count <= 0 or count >= n:
        return list(range(n))
    step = (n - 1) / (count - 1) if count > 1 else 0.0
    out = []
    for i in range(count):
        k = int(math.floor(i * step + 0.5))
        if not out or out[-1] != k:
            out.append(k)
    return out


def measure():
    """One interpreter's measures (run in the child)."""
    import numpy as np

    import tilenav

    out = {"package": os.path.dirname(tilenav.__file__), "version": tilenav.__version__}
    m = tilenav.Map.from_numpy(np.ones((4, 4)))
    for name, fn in (("path(s, s) 4x4", lambda: m.path((0, 0), (0, 0))),
                     ("path_result(s, s) 4x4", lambda: m.path_result((0, 0), (0, 0)))):
        for _ in range(2000):
            fn()
        out[name] = min(timeit.repeat(fn, number=20000, repeat=5)) / 20000 * 1e6
    den = os.environ.get("CALL_OVERHEAD_MAP", DEN)
    if os.path.exists(den) and os.path.exists(den + ".scen"):
        dm = tilenav.Map.load(den)
        sc = tilenav.Scenarios(den + ".scen")
        xy = [(tuple(sc.start[i].tolist()), tuple(sc.goal[i].tolist()))
              for i in spread(len(sc), 200)]
        for name, fn in (("path(s, s) den520d", lambda q: dm.path(q[0], q[0])),
                         ("path jps den520d", lambda q: dm.path(q[0], q[1], algo="jps"))):
            for q in xy[:20]:
                fn(q)
            us = []
            for q in xy:
                t0 = time.perf_counter()
                fn(q)
                us.append((time.perf_counter() - t0) * 1e6)
            out[name] = statistics.median(us)
    return out


def main():
    if sys.argv[1:] == ["--child"]:
        print(json.dumps(measure()))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("python", nargs="+", help="interpreters with tilenav installed")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    results = {py: [] for py in args.python}
    with tempfile.TemporaryDirectory() as outside:  # not python/: its tilenav has no module
        for r in range(args.rounds):
            order = args.python if r % 2 == 0 else args.python[::-1]
            for py in order:
                run = subprocess.run([py, os.path.abspath(__file__), "--child"], cwd=outside,
                                     env=env, capture_output=True, text=True, check=True)
                results[py].append(json.loads(run.stdout))
                print(f"round {r + 1} {py}: " + ", ".join(
                    f"{k} {v:.2f}" for k, v in results[py][-1].items()
                    if isinstance(v, float)), flush=True)
    print(f"\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load average {os.getloadavg()[0]:.1f}, {args.rounds} rounds, µs per call "
          f"(range over the rounds; median)")
    names = [k for k, v in results[args.python[0]][0].items() if isinstance(v, float)]
    print("| interpreter (package) | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for py, rows in results.items():
        cells = []
        for n in names:
            vals = [row[n] for row in rows if n in row]
            cells.append(f"{min(vals):.2f}–{max(vals):.2f}; {statistics.median(vals):.2f}"
                         if vals else "")
        print(f"| {py} ({rows[0]['package']}) | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
