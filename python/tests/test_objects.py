"""Flow fields, crowds and the broad phase."""

import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import tilenav
from conftest import data


def open_map(w=24, h=16):
    cost = np.ones((h, w))
    cost[4:12, 10] = 0
    return tilenav.Map.from_numpy(cost)


def test_flow_field_agrees_with_the_searches():
    m = open_map()
    f = m.flow_field((20, 8))
    d = m.distances((20, 8))
    assert np.allclose(f.distances, d, rtol=1e-6) and np.array_equal(np.isinf(f.distances),
                                                                      np.isinf(d))
    cells = f.path((2, 8))
    assert cells[0].tolist() == [2, 8] and cells[-1].tolist() == [20, 8]
    assert f.reachable_count == m.passable.sum()
    assert f.directions[8, 20] == -1 and f.directions.dtype == np.int8
    assert f.los.dtype == np.bool_ and f.los[8, 20] and not f.los[8, 2]
    assert f.los_count == f.los.sum()
    v = f.vectors
    assert v.shape == (16, 24, 2)
    norms = np.hypot(v[..., 0], v[..., 1])
    reach = np.isfinite(f.distances) & (f.directions >= 0)
    assert np.allclose(norms[reach], 1, atol=1e-5)
    assert f.sample(2 * 32 + 16, 8 * 32 + 16) != (0.0, 0.0)
    off = m.flow_field((20, 8), los=False)
    assert off.los_count == 0 and not off.los.any()


def test_flow_field_errors():
    m = open_map()
    with pytest.raises(tilenav.UnsupportedError, match="unsupported"):
        m.flow_field([(20, 8), (1, 1)], los=True)
    assert m.flow_field([(20, 8), (1, 1)], los=False).distances[1, 1] == 0
    with pytest.raises(tilenav.BlockedError):
        m.flow_field((10, 5))


def test_field_update_follows_its_extra_layer():
    m = open_map()
    extra = np.zeros(m.shape, dtype=np.float32)
    f = m.flow_field((20, 8), extra=extra, los=False)
    before = f.distances.copy()
    held = f.distances
    extra[:, 15] = 50  # a costly column between the start and the goal
    touched = f.update((15, 0, 16, 16))
    assert touched > 0
    assert held[8, 2] > before[8, 2]  # the view follows the update in place
    fresh = m.flow_field((20, 8), extra=extra.copy(), los=False)
    assert np.array_equal(held, fresh.distances)  # the update equals a full build
    assert np.allclose(held, m.distances((20, 8), extra=extra), rtol=1e-6)


def test_crowd_follows_a_flow_field_and_never_enters_walls():
    m = open_map()
    f = m.flow_field((20, 8))
    with tilenav.Crowd(m, capacity=64, seed=3) as crowd:
        crowd.set_flow(0, f)
        ids = [crowd.add((2 * 32 + 16, (4 + i) * 32 + 16), target="flow", flow=0)
               for i in range(8)]
        assert len(crowd) == 8 and crowd.ids.tolist() == sorted(crowd.ids.tolist())
        assert set(crowd.ids.tolist()) == set(ids)
        pos = crowd.positions
        start = pos.copy()
        assert pos.dtype == np.float32 and pos.shape == (8, 2) and not pos.flags.writeable
        crowd.step(240)
        assert crowd.steps == 240
        assert not np.array_equal(pos, start)  # the same array, refreshed in place
        goal = np.array([20 * 32 + 16, 8 * 32 + 16])
        assert np.linalg.norm(pos - goal, axis=1).max() < np.linalg.norm(start - goal, axis=1).min()
        assert crowd.max_wall_overlap == 0
        h = crowd.hash
        crowd.remove(ids[0])
        assert len(crowd.positions) == 7
        with pytest.raises(tilenav.StaleIdError, match="stale handle"):
            crowd.remove(ids[0])
        with pytest.raises(tilenav.InvalidArgumentError):
            crowd.add((10 * 32 + 16, 6 * 32 + 16))  # inside the wall
    # the same run gives the same hash
    with tilenav.Crowd(m, capacity=64, seed=3) as again:
        again.set_flow(0, f)
        for i in range(8):
            again.add((2 * 32 + 16, (4 + i) * 32 + 16), target="flow", flow=0)
        again.step(240)
        assert again.hash == h


CTRL_C = """
import time, numpy as np, tilenav
m = tilenav.Map.from_numpy(np.ones((8, 8)))
crowd = tilenav.Crowd(m)
crowd.add((100.0, 100.0), vel=(30.0, 0.0))
print("stepping", flush=True)
t = time.perf_counter()
try:
    crowd.step(10**9)  # minutes of C
except KeyboardInterrupt:
    print("interrupted", crowd.steps, len(crowd.positions), time.perf_counter() - t, flush=True)
"""


@pytest.mark.parametrize("read_before", [False, True])
def test_a_closed_crowd_raises_on_every_read(read_before):
    """After close(), positions, velocities and ids raise ValueError as every other call
    does; they returned the last arrays when they had been read before the close. Arrays
    taken before stay valid NumPy arrays (the crowd's memory is Python's)."""
    m = open_map()
    crowd = tilenav.Crowd(m)
    crowd.add((16.0, 16.0))
    crowd.step(2)
    taken = crowd.positions if read_before else None
    if read_before:
        crowd.velocities, crowd.ids
    crowd.close()
    assert crowd.closed
    for read in (lambda: crowd.positions, lambda: crowd.velocities, lambda: crowd.ids,
                 lambda: len(crowd), lambda: crowd.steps, lambda: crowd.hash,
                 lambda: crowd.max_wall_overlap, crowd.step, lambda: crowd.add((16.0, 16.0)),
                 lambda: crowd.remove(1), lambda: crowd.set_flow(0, None)):
        with pytest.raises(ValueError, match="the crowd is closed"):
            read()
    if read_before:
        assert taken.shape == (1, 2) and np.isfinite(taken).all()


def test_crowd_step_stops_at_ctrl_c():
    """Crowd.step(10**9) runs minutes of C: Ctrl-C (SIGINT) stops it between two steps, and
    the steps taken so far are the crowd's state."""
    proc = subprocess.Popen([sys.executable, "-c", CTRL_C], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "stepping"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=15)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 0, err
    word, steps, agents, seconds = out.split()
    assert word == "interrupted" and 0 < int(steps) < 10**9 and int(agents) == 1
    assert float(seconds) < 5


def brute_pairs(pos, r):
    n = len(pos)
    i, j = np.triu_indices(n, 1)
    lo, hi = pos - r[:, None], pos + r[:, None]
    keep = ((lo[i] <= hi[j]) & (lo[j] <= hi[i])).all(axis=1)
    return np.stack([i[keep], j[keep]], axis=1)


@pytest.mark.parametrize("kind", ["grid", "hash", "sap", "brute"])
def test_broadphase_equals_brute_force(kind):
    rng = np.random.default_rng(5)
    pos = rng.random((600, 2)) * 500 - 100
    r = rng.random(600) * 12 + 0.5
    r[:5] = 80  # a few big ones: the grid gets levels
    pairs = tilenav.broadphase(pos, r, kind=kind)
    assert pairs.dtype == np.int64 and pairs.shape[1] == 2
    assert np.array_equal(pairs, brute_pairs(pos, r))
    exact = tilenav.broadphase(pos.astype(np.float32), r, kind=kind, exact=True)
    d = np.linalg.norm(pos[exact[:, 0]] - pos[exact[:, 1]], axis=1)
    assert (d <= r[exact[:, 0]] + r[exact[:, 1]] + 1e-4).all() and len(exact) < len(pairs)


def test_broadphase_edge_cases():
    assert tilenav.broadphase(np.zeros((0, 2)), 1.0).shape == (0, 2)
    assert tilenav.broadphase([[0, 0], [2, 0]], 1.0).tolist() == [[0, 1]]  # touching boxes
    assert tilenav.broadphase([[0, 0], [2.01, 0]], 1.0).tolist() == []


@pytest.mark.parametrize("kind", ["grid", "hash", "sap", "brute"])
def test_broadphase_far_and_thin_spreads(kind):
    """Circles spread far (1e300) or in a long thin row (a grid fitted to its area had more
    than TN_MAX_CELLS cells): the grids fit them, with the pairs of brute force; a spread
    past the largest double has no grid, and the error names that limit."""
    rng = np.random.default_rng(8)
    spreads = [np.array([[0, 0], [1e300, 1e300], [1, 1], [1e300 + 1e284, 1e300]]),
               np.array([[0, 0], [1e300, 0], [1, 1]]),
               np.column_stack([np.arange(400) * 1e15, rng.random(400)]),  # a thin row
               np.column_stack([np.arange(50.0) * 2.5, np.zeros(50)])]
    for pos in spreads:
        r = np.full(len(pos), 1.0)
        assert np.array_equal(tilenav.broadphase(pos, r, kind=kind), brute_pairs(pos, r))
    wide = np.array([[-1e308, 0], [1e308, 0], [1e308, 1]])
    if kind in ("grid", "hash"):
        with pytest.raises(tilenav.InvalidArgumentError,
                           match=r"finite doubles \(below about 1.8e308.*kind='sap'") as e:
            tilenav.broadphase(wide, 1.0, kind=kind)
        assert e.value.status_name.startswith("too large")
    else:
        assert tilenav.broadphase(wide, 1.0, kind=kind).tolist() == [[1, 2]]


def test_jps_plus_names_its_side_limit():
    """A JPS+ jump table takes maps up to 32767 cells wide and high: past it the error says
    so (it said only "too large (past a fixed limit of the C library)")."""
    for w in (32767, 32768):
        m = tilenav.Map.from_numpy(np.ones((1, w), np.uint8))
        assert m.path_result((0, 0), (w - 1, 0)).cost == w - 1
        if w == 32767:
            assert m.path_result((0, 0), (w - 1, 0), algo="jps+").cost == w - 1
            continue
        with pytest.raises(tilenav.InvalidArgumentError,
                           match=r"algo='jps\+' takes maps up to 32767 cells wide and high.*"
                                 r"32768 x 1.*algo='jps'") as e:
            m.path((0, 0), (w - 1, 0), algo="jps+")
        assert e.value.status == -3  # TN_E_TOO_LARGE
    assert "32767" in tilenav.Map.path.__doc__


def test_scenarios():
    sc = tilenav.Scenarios(data("tests", "data", "movingai", "tiny.map.scen"))
    assert len(sc) > 0 and sc.start.shape == (len(sc), 2)
    assert sc.matches(0, sc.optimal[0]) and not sc.matches(0, sc.optimal[0] + 1)
    with pytest.raises(tilenav.LoadIOError):
        tilenav.Scenarios("/nonexistent.scen")
