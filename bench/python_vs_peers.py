#!/usr/bin/env python3
"""tilenav's Python API beside the NumPy-grid pathfinders Python users reach for, in one run on
the same map, scenarios and movement rules: scikit-image's graph.MCP_Geometric (distance maps
and paths), SciPy's csgraph.dijkstra and networkx's astar_path.

    build/python/venv/bin/python bench/python_vs_peers.py [MAP] [--spread N] [--nx N] [--cli EXE]

MAP defaults to ../shared/bench/movingai/dao/den520d.map (its .scen beside it). The rule is the
Moving AI benchmark's: 8 neighbours, no corner cutting, steps 1 and sqrt 2, and each path's
length is checked against the scenario's optimum (mismatches column). scikit-image's MCP has no
corner rule (a diagonal step may pass between two walls), so it is compared with tilenav under
that rule as well (corner="always"), and its lengths with tilenav's under the same rule.
python-tcod and the `pathfinding` package are not installable here (no PyPI, not in Debian).

Times are medians of per-query wall time (time.perf_counter around the call), microseconds.
"""

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

import tilenav

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEN = os.path.join(os.path.dirname(ROOT), "shared", "bench", "movingai", "dao", "den520d.map")
SQRT2 = math.sqrt(2.0)


def spread(n, count):
    """The CLI's --spread selection: `count` indices evenly over [0, n)."""
    if count <= 0 or count >= n:
        return list(range(n))
    step = (n - 1) / (count - 1) if count > 1 else 0.0
    out = []
    for i in range(count):
        k = int(math.floor(i * step + 0.5))
        if not out or out[-1] != k:
            out.append(k)
    return out


def path_length(cells):
    """Length of a path of (x, y) or (row, col) cells: straight 1, diagonal sqrt 2."""
    if len(cells) < 2:
        return 0.0
    d = np.abs(np.diff(np.asarray(cells), axis=0)).sum(axis=1)
    return float((d == 1).sum() + SQRT2 * (d == 2).sum())


def timed(fn, queries):
    """Run fn(q) for each query; per-query microseconds and the results."""
    us, out = [], []
    for q in queries:
        t0 = time.perf_counter()
        r = fn(q)
        us.append((time.perf_counter() - t0) * 1e6)
        out.append(r)
    return us, out


def grid_edges(passable, corner_cut):
    """Directed edges (u, v, w) of the 8-connected grid over cell indices y*W + x."""
    h, w = passable.shape
    us, vs, ws = [], [], []
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
        ys, xs = np.nonzero(passable)
        tx, ty = xs + dx, ys + dy
        ok = (tx >= 0) & (tx < w) & (ty >= 0) & (ty < h)
        xs, ys, tx, ty = xs[ok], ys[ok], tx[ok], ty[ok]
        ok = passable[ty, tx]
        if dx and dy and not corner_cut:
            ok &= passable[ys, tx] & passable[ty, xs]
        xs, ys, tx, ty = xs[ok], ys[ok], tx[ok], ty[ok]
        us.append(ys * w + xs)
        vs.append(ty * w + tx)
        ws.append(np.full(len(xs), SQRT2 if dx and dy else 1.0))
    return np.concatenate(us), np.concatenate(vs), np.concatenate(ws)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("map", nargs="?", default=DEN)
    ap.add_argument("--spread", type=int, default=200, help="scenarios spread over the file")
    ap.add_argument("--nx", type=int, default=50, help="scenarios for networkx (slow)")
    ap.add_argument("--scipy", type=int, default=100, help="scenarios for SciPy's dijkstra")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "release", "tilenav"),
                    help="the C tool, for C-only times on the same selection")
    ap.add_argument("--json", help="also write the rows to this file")
    args = ap.parse_args()

    m = tilenav.Map.load(args.map)
    sc = tilenav.Scenarios(args.map + ".scen")
    sel = spread(len(sc), args.spread)
    xy = [(tuple(sc.start[i].tolist()), tuple(sc.goal[i].tolist())) for i in sel]
    passable = m.passable.copy()
    h, w = passable.shape
    rows = []

    def row(name, rule, us, lengths, opt=None, note=""):
        mism = ""
        if opt is not None:
            mism = sum(not sc.matches(i, L) for i, L in zip(opt, lengths))
        rows.append({"library": name, "rule": rule, "queries": len(us),
                     "median_us": statistics.median(us), "mean_us": statistics.fmean(us),
                     "mismatches": mism, "note": note})
        print(f"  {name:44s} {statistics.median(us):12.1f} µs  ({len(us)} queries)", flush=True)

    print(f"{os.path.basename(args.map)}: {w}x{h}, {len(sel)} scenarios spread over {len(sc)}",
          flush=True)

    # ---- tilenav through Python --------------------------------------------------------------
    for algo in ("jps", "astar", "dijkstra"):
        us, res = timed(lambda q: m.path_result(q[0], q[1], algo=algo), xy)
        row(f"tilenav Map.path(algo={algo!r})", "no corner cut", us, [r.cost for r in res], sel)
    starts = np.array([q[0] for q in xy], dtype=np.int32)
    goals = np.array([q[1] for q in xy], dtype=np.int32)
    for algo in ("jps", "astar"):
        t0 = time.perf_counter()
        batch = m.paths(starts, goals, algo=algo)
        per = (time.perf_counter() - t0) * 1e6 / len(xy)
        rows.append({"library": f"tilenav Map.paths(algo={algo!r}) (one batch)",
                     "rule": "no corner cut", "queries": len(xy), "median_us": per,
                     "mean_us": per, "note": "the batch's time / queries",
                     "mismatches": sum(not sc.matches(i, L) for i, L in zip(sel, batch.cost))})
        print(f"  {'tilenav Map.paths, ' + algo:44s} {per:12.1f} µs per query", flush=True)
    us, _ = timed(lambda q: m.path(q[0], q[0]), xy)
    overhead = statistics.median(us)
    row("tilenav Map.path(s, s) (call overhead)", "", us, [])
    us, res = timed(lambda q: m.path_result(q[0], q[1], algo="astar", corner="always"), xy)
    tn_always = [r.cost for r in res]
    row("tilenav Map.path(algo='astar', corner='always')", "corner cut", us, tn_always)
    out = np.empty((h, w))
    us, _ = timed(lambda q: m.distances(q[1], out=out), xy)
    row("tilenav Map.distances(goal) (Dijkstra map)", "no corner cut", us, [])
    us, _ = timed(lambda q: m.distances(q[1], corner="always", out=out), xy)
    row("tilenav Map.distances(goal, corner='always')", "corner cut", us, [])

    # threads: the GIL is released inside the C search, so two threads share the queries
    from concurrent.futures import ThreadPoolExecutor

    threads, busy = {}, {}
    for n_threads in (1, 2):
        with ThreadPoolExecutor(n_threads) as pool:
            t0, c0 = time.perf_counter(), time.process_time()
            list(pool.map(lambda q: m.path(q[0], q[1], algo="astar"), xy * 3))
            threads[n_threads] = time.perf_counter() - t0
            busy[n_threads] = (time.process_time() - c0) / threads[n_threads]
    print(f"  A* over the selection 3 times: 1 thread {threads[1] * 1e3:.0f} ms, 2 threads "
          f"{threads[2] * 1e3:.0f} ms ({threads[1] / threads[2]:.2f}x); CPUs busy "
          f"{busy[1]:.2f} and {busy[2]:.2f}", flush=True)

    c_rows = {}
    if args.cli and os.access(args.cli, os.X_OK):
        out_json = subprocess.run([args.cli, "bench", args.map, args.map + ".scen", "--algo", "all",
                                   "--spread", str(args.spread), "--json"], check=True,
                                  capture_output=True, text=True).stdout
        for r in json.loads(out_json)["results"]:
            c_rows[r["algo"]] = r
            rows.append({"library": f"tilenav C (tilenav bench --algo {r['algo']})",
                         "rule": "no corner cut", "queries": r["scenarios"],
                         "median_us": r["median_us"], "mean_us": r["mean_us"],
                         "mismatches": r["mismatches"], "note": "C only, no Python"})
            print(f"  {'tilenav C, ' + r['algo']:44s} {r['median_us']:12.1f} µs", flush=True)

    # ---- scikit-image: MCP_Geometric ---------------------------------------------------------
    try:
        from skimage.graph import MCP_Geometric
    except ImportError as e:
        print(f"  scikit-image not available: {e}")
    else:
        costs = np.where(passable, 1.0, np.inf)
        t0 = time.perf_counter()
        mcp = MCP_Geometric(costs, fully_connected=True)
        setup_ms = (time.perf_counter() - t0) * 1e3

        def mcp_path(q):
            (sx, sy), (gx, gy) = q
            mcp.find_costs([(sy, sx)], [(gy, gx)])
            return mcp.traceback((gy, gx))

        us, paths = timed(mcp_path, xy)
        lengths = [path_length(p) for p in paths]
        same = sum(abs(a - b) < 1e-6 for a, b in zip(lengths, tn_always))
        row("skimage MCP_Geometric find_costs+traceback", "corner cut", us, lengths,
            note=f"{same}/{len(xy)} lengths equal tilenav corner='always'; "
                 f"constructor {setup_ms:.1f} ms")
        dist = None

        def mcp_map(q):
            nonlocal dist
            (gx, gy) = q[1]
            dist, _ = mcp.find_costs([(gy, gx)])
            return dist

        us, _ = timed(mcp_map, xy)
        ref = m.distances(xy[-1][1], corner="always")
        fin = np.isfinite(ref)
        agree = np.allclose(dist[fin], ref[fin], rtol=1e-9) and np.isinf(dist[~fin]).all()
        row("skimage MCP_Geometric find_costs (distance map)", "corner cut", us, [],
            note=f"equal to tilenav distances: {agree}")

    # ---- SciPy: csgraph.dijkstra on the grid graph --------------------------------------------
    try:
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import dijkstra
    except ImportError as e:
        print(f"  SciPy not available: {e}")
    else:
        t0 = time.perf_counter()
        u, v, wt = grid_edges(passable, corner_cut=False)
        graph = csr_matrix((wt, (u, v)), shape=(w * h, w * h))
        setup_ms = (time.perf_counter() - t0) * 1e3
        sub = [xy[i] for i in spread(len(xy), args.scipy)]
        sub_idx = [sel[i] for i in spread(len(xy), args.scipy)]

        def scipy_path(q):
            (sx, sy), (gx, gy) = q
            dist, pred = dijkstra(graph, indices=sy * w + sx, return_predecessors=True)
            cells, k = [], gy * w + gx
            while k >= 0:
                cells.append((k % w, k // w))
                k = pred[k]
            return dist[gy * w + gx], cells[::-1]

        us, res = timed(scipy_path, sub)
        row("scipy csgraph.dijkstra + predecessors", "no corner cut", us,
            [path_length(c) for _, c in res], sub_idx,
            note=f"a full Dijkstra map per query (no early exit); graph {setup_ms:.0f} ms")

    # ---- networkx: astar_path -----------------------------------------------------------------
    try:
        import networkx as nx
    except ImportError as e:
        print(f"  networkx not available: {e}")
    else:
        t0 = time.perf_counter()
        g = nx.Graph()
        u, v, wt = grid_edges(passable, corner_cut=False)
        g.add_weighted_edges_from(
            ((int(a % w), int(a // w)), (int(b % w), int(b // w)), float(c))
            for a, b, c in zip(u, v, wt))
        setup_ms = (time.perf_counter() - t0) * 1e3

        def octile(a, b):
            dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
            return max(dx, dy) + (SQRT2 - 1) * min(dx, dy)

        idx = spread(len(xy), args.nx)
        sub = [xy[i] for i in idx]
        us, paths = timed(lambda q: nx.astar_path(g, q[0], q[1], heuristic=octile,
                                                  weight="weight"), sub)
        row("networkx astar_path (octile heuristic)", "no corner cut", us,
            [path_length(p) for p in paths], [sel[i] for i in idx],
            note=f"graph {setup_ms:.0f} ms")

    # ---- table ---------------------------------------------------------------------------------
    print()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
          f"{platform.python_version()}, numpy {np.__version__}, load {os.getloadavg()[0]:.2f}")
    print(f"call overhead per query (Map.path(s, s), median): {overhead:.1f} µs")
    print(f"A* from 2 threads: {threads[1] / threads[2]:.2f}x the throughput of 1 thread "
          f"(process CPU time / wall time: {busy[1]:.2f} with 1 thread, {busy[2]:.2f} with 2)")
    for algo, r in c_rows.items():
        py = next(x for x in rows if x["library"] == f"tilenav Map.path(algo={algo!r})")
        print(f"Python minus C, {algo}: {py['median_us'] - r['median_us']:.1f} µs per query "
              f"(median {py['median_us']:.1f} vs {r['median_us']:.1f})")
    print()
    print("| library / call | rule | queries | median µs | mean µs | mismatches | note |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['library']} | {r['rule']} | {r['queries']} | {r['median_us']:.1f} | "
              f"{r['mean_us']:.1f} | {r['mismatches']} | {r['note']} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
