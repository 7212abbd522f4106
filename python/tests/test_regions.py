"""Regions: the connected components per rule and unit size, against a flood fill written
here, and the queries that use them to answer "unreachable" at once."""

from collections import deque

import numpy as np
import pytest

import tilenav


def fits(cost, x, y, n):
    h, w = cost.shape
    if x < 0 or y < 0 or x + n > w or y + n > h:
        return False
    return bool(np.all(cost[y:y + n, x:x + n] > 0))


def flood(cost, n, always):
    """Region ids by breadth-first search in row-major order of first cells; -1 where the
    unit does not fit. Side neighbours join; with `always`, diagonal neighbours too (without
    it a legal diagonal step passes a side position that fits, so it adds nothing)."""
    h, w = cost.shape
    ids = np.full((h, w), -1, dtype=np.int64)
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if always:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    nid = 0
    for y in range(h):
        for x in range(w):
            if ids[y, x] >= 0 or not fits(cost, x, y, n):
                continue
            ids[y, x] = nid
            todo = deque([(x, y)])
            while todo:
                cx, cy = todo.popleft()
                for dx, dy in steps:
                    nx, ny = cx + dx, cy + dy
                    if fits(cost, nx, ny, n) and ids[ny, nx] < 0:
                        ids[ny, nx] = nid
                        todo.append((nx, ny))
            nid += 1
    return ids


def random_map(rng, w=18, h=14, walls=0.3):
    cost = np.ones((h, w))
    cost[rng.random((h, w)) < walls] = 0.0
    cost[(rng.random((h, w)) < 0.2) & (cost > 0)] = 3.0
    return cost


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("corner", ["never", "one", "always"])
def test_regions_equal_a_flood_fill(seed, corner):
    rng = np.random.default_rng(seed)
    cost = random_map(rng, walls=0.25 + 0.05 * (seed % 3))
    m = tilenav.Map.from_numpy(cost)
    rg = m.regions(corner=corner, max_size=3)
    assert rg.max_size >= 3
    for n in (1, 2, 3):
        want = flood(cost, n, corner == "always")
        got = rg.ids(n)
        assert got.dtype == np.int32 and got.shape == cost.shape
        assert np.array_equal(got, want), (n, corner)  # the documented numbering, exactly
        assert rg.count(n) == int(want.max()) + 1
        pts = [(int(rng.integers(-1, 19)), int(rng.integers(-1, 15))) for _ in range(40)]
        for a in pts:
            inside = 0 <= a[0] < 18 and 0 <= a[1] < 14
            assert rg.id(a, n) == (want[a[1], a[0]] if inside else -1)
            for b in pts[:8]:
                inb = 0 <= b[0] < 18 and 0 <= b[1] < 14
                same = inside and inb and want[a[1], a[0]] >= 0 and \
                    want[a[1], a[0]] == want[b[1], b[0]]
                assert rg.connected(a, b, n) == same


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("algo", ["astar", "jps", "dijkstra"])
def test_queries_with_regions_answer_as_without_and_unreachable_at_once(seed, algo):
    rng = np.random.default_rng(50 + seed)
    cost = random_map(rng, 24, 18, walls=0.35)
    m = tilenav.Map.from_numpy(cost)
    for n in (1, 2):
        ids = flood(cost, n, False)
        cells = list(zip(*np.nonzero(ids >= 0)))
        differ = 0
        for _ in range(30):
            sy, sx = cells[rng.integers(len(cells))]
            gy, gx = cells[rng.integers(len(cells))]
            a = m.path_result((sx, sy), (gx, gy), algo=algo, size=n)
            b = m.path_result((sx, sy), (gx, gy), algo=algo, size=n, regions=True)
            assert a.found == b.found == (ids[sy, sx] == ids[gy, gx])
            if a.found:
                assert b.cost == pytest.approx(a.cost, rel=1e-12)
                assert np.array_equal(a.cells, b.cells)
            else:
                differ += 1
                assert b.expanded == 0 and a.expanded > 0
        assert differ > 0  # the maps are cut up enough to test the early answer


def test_batches_and_nearest_goal_take_regions():
    cost = np.ones((10, 21))
    cost[:, 10] = 0  # two halves
    m = tilenav.Map.from_numpy(cost)
    b = m.paths([(1, 1), (1, 1)], [(19, 8), (8, 8)], regions=True)
    assert b.found.tolist() == [False, True] and b.expanded[0] == 0
    r, k = m.nearest_path((1, 1), [(19, 1), (15, 5)], regions=True)
    assert k == -1 and not r.found and r.expanded == 0
    r, k = m.nearest_path((1, 1), [(19, 1), (3, 5)], regions=True)
    assert k == 1 and r.found


def test_bigger_sizes_rebuild_and_older_regions_stay_usable():
    cost = np.ones((30, 30))
    cost[:, 15] = 0
    cost[14, 15] = 1  # a one-cell door: size 1 crosses, size 2 does not
    m = tilenav.Map.from_numpy(cost)
    r1 = m.regions()
    assert r1.count() == 1
    assert m.path_result((0, 0), (29, 29), regions=True).found
    assert not m.path_result((0, 0), (28, 28), size=2, regions=True).found  # grows to 2
    r5 = m.regions(max_size=5)
    assert r5.max_size >= 5 and r5.count(2) == 2 and r5.count(1) == 1
    assert r1.count() == 1 and r1.connected((0, 0), (29, 29))  # the old object still works
    with pytest.raises(ValueError, match="max_size"):
        r1.ids(r1.max_size + 1)


def test_bad_arguments():
    m = tilenav.Map.from_numpy(np.ones((4, 4)))
    with pytest.raises(ValueError, match="corner"):
        m.regions(corner="sometimes")
    with pytest.raises(ValueError, match="max_size"):
        m.regions(max_size=0)
    with pytest.raises(TypeError, match="regions"):
        m.path((0, 0), (3, 3), regions="yes")
    with pytest.raises(TypeError):
        m.regions().id((0.5, 1))
