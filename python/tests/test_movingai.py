"""The shipped Moving AI scenarios (../shared/bench/movingai) through the Python API: every
path legal and of the optimal length (0 mismatches), and the same counts, expansions and
cells as the C CLI (`tilenav bench`, `tilenav path --json`) on the same selection.

By default JPS and A* run every scenario of every map (at most 2000 spread over the file, which
trims brc202d and maze512) and Dijkstra 200; TILENAV_PY_FULL=1 runs every scenario with every
algorithm (about four minutes)."""

import json
import math
import os
import subprocess

import numpy as np
import pytest

import tilenav
from conftest import MOVINGAI, movingai_maps

MAPS = movingai_maps()
FULL = os.environ.get("TILENAV_PY_FULL") == "1"
SPREAD = {"jps": 0 if FULL else 2000, "astar": 0 if FULL else 2000,
          "dijkstra": 0 if FULL else 200}  # 0: every scenario

pytestmark = pytest.mark.skipif(not MAPS, reason=f"no Moving AI maps in {MOVINGAI} (set "
                                "TILENAV_SHARED_DIR to the shared folder; default ../shared)")


def spread(n, count):
    """The CLI's --spread selection (tools/cli/cmd_bench.c): `count` indices evenly over n."""
    if count <= 0 or count >= n:
        return list(range(n))
    step = (n - 1) / (count - 1) if count > 1 else 0.0
    out = []
    for i in range(count):
        k = int(math.floor(i * step + 0.5))
        if not out or out[-1] != k:
            out.append(k)
    return out


def legal(passable, cells, start, goal):
    """The CLI's check: adjacent steps into passable cells, no corner cutting, ends right."""
    if len(cells) < 1 or tuple(cells[0]) != tuple(start) or tuple(cells[-1]) != tuple(goal):
        return False
    d = np.diff(cells, axis=0)
    if len(d) and (np.abs(d).max() > 1 or (np.abs(d).sum(axis=1) == 0).any()):
        return False
    if not passable[cells[:, 1], cells[:, 0]].all():
        return False
    diag = (d[:, 0] != 0) & (d[:, 1] != 0)
    prev = cells[:-1][diag]
    dd = d[diag]
    return bool(passable[prev[:, 1], prev[:, 0] + dd[:, 0]].all()
                and passable[prev[:, 1] + dd[:, 1], prev[:, 0]].all())


def run(mapfile, algo):
    m = tilenav.Map.load(mapfile)
    sc = tilenav.Scenarios(mapfile + ".scen")
    sel = spread(len(sc), SPREAD[algo])
    passable = m.passable
    mismatches, expanded, bad = 0, 0, []
    for i in sel:
        r = m.path_result(sc.start[i], sc.goal[i], algo=algo)
        expanded += r.expanded
        if not (r.found and legal(passable, r.cells, sc.start[i], sc.goal[i])
                and sc.matches(i, r.cost)):
            mismatches += 1
            bad.append((i, r.cost, sc.optimal[i]))
    return m, sc, sel, mismatches, expanded, bad


@pytest.mark.parametrize("algo", ["jps", "astar", "dijkstra"])
@pytest.mark.parametrize("mapfile", MAPS, ids=[os.path.basename(m) for m in MAPS])
def test_scenarios_match_the_optimum_and_the_cli(mapfile, algo, cli_or_none):
    m, sc, sel, mismatches, expanded, bad = run(mapfile, algo)
    assert mismatches == 0, f"{len(bad)} mismatches, first (index, cost, optimal): {bad[:5]}"
    if cli_or_none is None:
        return
    args = [cli_or_none, "bench", mapfile, mapfile + ".scen", "--algo", algo, "--warmup", "0",
            "--json"]
    if len(sel) < len(sc):
        args += ["--spread", str(SPREAD[algo])]
    out = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    res = out["results"][0]
    assert (res["scenarios"], res["mismatches"]) == (len(sel), 0)
    assert res["expanded_mean"] == pytest.approx(expanded / len(sel), abs=0.051)


@pytest.mark.parametrize("mapfile", MAPS, ids=[os.path.basename(m) for m in MAPS])
def test_paths_equal_the_cli_cell_for_cell(mapfile, cli):
    m = tilenav.Map.load(mapfile)
    sc = tilenav.Scenarios(mapfile + ".scen")
    for i in spread(len(sc), 4):
        s, g = sc.start[i].tolist(), sc.goal[i].tolist()
        for algo in ("astar", "jps", "dijkstra"):
            out = subprocess.run([cli, "path", mapfile, *map(str, s + g), "--algo", algo,
                                  "--json"], check=True, capture_output=True, text=True).stdout
            ref = json.loads(out)
            r = m.path_result(s, g, algo=algo)
            assert r.cells.tolist() == ref["cells"], (algo, i)
            assert r.expanded == ref["expanded"] and r.cost == pytest.approx(ref["cost"], abs=1e-6)


@pytest.fixture
def cli_or_none():
    from conftest import find_cli

    return find_cli()
