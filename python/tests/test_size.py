"""Units bigger than one cell: clearance, size-aware paths, distances, flow fields and crowds,
against a brute-force reference written here (a unit of size n is the n x n square whose
top-left cell is its position)."""

import heapq
import math

import numpy as np
import pytest

import tilenav

SQRT2 = math.sqrt(2.0)
DIRS8 = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def ref_fits(cost, x, y, n):
    """Does the n x n square at top-left (x, y) lie inside the map on passable cells?"""
    h, w = cost.shape
    if x < 0 or y < 0 or x + n > w or y + n > h:
        return False
    block = cost[y:y + n, x:x + n]
    return bool(np.all((block > 0) & np.isfinite(block)))


def ref_clearance(cost, cap):
    h, w = cost.shape
    out = np.zeros((h, w), dtype=np.int64)
    for y in range(h):
        for x in range(w):
            n = 0
            while n < cap and ref_fits(cost, x, y, n + 1):
                n += 1
            out[y, x] = n
    return out


def ref_step(cost, n, x, y, dx, dy, moves):
    """The cost of moving the unit from (x, y) by (dx, dy), or None when the step is illegal
    (8 moves: no corner cutting, both side positions must fit)."""
    if dx and dy and moves == 4:
        return None
    if not ref_fits(cost, x + dx, y + dy, n):
        return None
    if dx and dy and not (ref_fits(cost, x + dx, y, n) and ref_fits(cost, x, y + dy, n)):
        return None
    enter = float(np.max(cost[y + dy:y + dy + n, x + dx:x + dx + n]))
    return (SQRT2 if dx and dy else 1.0) * enter


def ref_dijkstra(cost, n, src, moves=8, reverse=False):
    """Costs from `src` to every position (reverse: from every position to `src`)."""
    h, w = cost.shape
    dist = np.full((h, w), np.inf)
    if not ref_fits(cost, src[0], src[1], n):
        return dist
    dist[src[1], src[0]] = 0.0
    heap = [(0.0, src[0], src[1])]
    dirs = DIRS8 if moves == 8 else DIRS8[:4]
    while heap:
        d, x, y = heapq.heappop(heap)
        if d > dist[y, x]:
            continue
        for dx, dy in dirs:
            if reverse:  # the step from (x - dx, y - dy) into (x, y)
                px, py = x - dx, y - dy
                if not ref_fits(cost, px, py, n):
                    continue
                c = ref_step(cost, n, px, py, dx, dy, moves)
                nx, ny = px, py
            else:
                c = ref_step(cost, n, x, y, dx, dy, moves)
                nx, ny = x + dx, y + dy
            if c is None:
                continue
            if d + c < dist[ny, nx]:
                dist[ny, nx] = d + c
                heapq.heappush(heap, (d + c, nx, ny))
    return dist


def path_cost(cost, n, cells, moves=8):
    """The cost of a path of top-left cells, asserting that every step is legal."""
    total = 0.0
    for (x0, y0), (x1, y1) in zip(cells[:-1].tolist(), cells[1:].tolist()):
        c = ref_step(cost, n, x0, y0, x1 - x0, y1 - y0, moves)
        assert abs(x1 - x0) <= 1 and abs(y1 - y0) <= 1 and c is not None, \
            f"illegal step {(x0, y0)} -> {(x1, y1)} for size {n}"
        total += c
    return total


def random_map(rng, w=16, h=13):
    cost = np.ones((h, w))
    cost[rng.random((h, w)) < 0.12] = 0.0  # walls
    mud = rng.random((h, w)) < 0.2
    cost[mud & (cost > 0)] = rng.choice([2.0, 3.0, 0.5], size=int((mud & (cost > 0)).sum()))
    return cost


def fit_cells(cost, n):
    h, w = cost.shape
    return [(x, y) for y in range(h) for x in range(w) if ref_fits(cost, x, y, n)]


@pytest.mark.parametrize("seed", range(6))
def test_clearance_and_fits_equal_brute_force(seed):
    rng = np.random.default_rng(seed)
    cost = random_map(rng)
    m = tilenav.Map.from_numpy(cost)
    for cap in (1, 2, 3, 5):
        assert np.array_equal(m.clearance(cap), ref_clearance(cost, cap)), cap
    for n in (1, 2, 3, 4):
        for y in range(-1, cost.shape[0] + 1):
            for x in range(-1, cost.shape[1] + 1):
                assert m.fits((x, y), n) == ref_fits(cost, x, y, n), (x, y, n)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("moves", [8, 4])
def test_size_paths_equal_a_brute_force_dijkstra(seed, moves):
    rng = np.random.default_rng(100 + seed)
    cost = random_map(rng)
    m = tilenav.Map.from_numpy(cost)
    algos = ["astar", "dijkstra", "jps", "jps+"] if moves == 8 else ["astar", "dijkstra"]
    for n in (1, 2, 3, 4):
        cells = fit_cells(cost, n)
        if len(cells) < 2:
            continue
        for _ in range(6):
            s = cells[rng.integers(len(cells))]
            ref = ref_dijkstra(cost, n, s, moves)
            for _ in range(4):
                g = cells[rng.integers(len(cells))]
                want = ref[g[1], g[0]]
                for algo in algos:
                    r = m.path_result(s, g, algo=algo, moves=moves, size=n)
                    assert r.found == bool(np.isfinite(want)), (algo, n, s, g)
                    if not r.found:
                        assert r.cells.shape == (0, 2)
                        continue
                    assert r.cost == pytest.approx(want, rel=1e-9), (algo, n, s, g)
                    assert tuple(r.cells[0]) == s and tuple(r.cells[-1]) == g
                    assert path_cost(cost, n, r.cells, moves) == pytest.approx(want, rel=1e-9)


def test_batches_and_nearest_goal_honour_the_size():
    rng = np.random.default_rng(7)
    cost = random_map(rng, 20, 15)
    m = tilenav.Map.from_numpy(cost)
    cells = fit_cells(cost, 2)
    starts = np.array([cells[i] for i in rng.integers(len(cells), size=12)], dtype=np.int32)
    goals = np.array([cells[i] for i in rng.integers(len(cells), size=12)], dtype=np.int32)
    b = m.paths(starts, goals, algo="jps", size=2)
    for i in range(len(starts)):
        r = m.path_result(tuple(starts[i]), tuple(goals[i]), algo="jps", size=2)
        assert b.found[i] == r.found and b.cost[i] == pytest.approx(r.cost if r.found else 0.0)
        assert np.array_equal(b.cells[i], r.cells)
    s = tuple(starts[0])
    ref = ref_dijkstra(cost, 2, s)
    r, k = m.nearest_path(s, goals, size=2)
    best = min(ref[g[1], g[0]] for g in goals)
    if np.isfinite(best):
        assert r.cost == pytest.approx(best, rel=1e-9) and k >= 0
        assert ref[goals[k][1], goals[k][0]] == pytest.approx(best, rel=1e-9)
    else:
        assert k == -1


@pytest.mark.parametrize("n", [1, 2, 3])
def test_size_distances_and_flow_fields_equal_the_reference(n):
    rng = np.random.default_rng(40 + n)
    cost = random_map(rng, 18, 14)
    m = tilenav.Map.from_numpy(cost)
    cells = fit_cells(cost, n)
    g = cells[len(cells) // 2]
    ref = ref_dijkstra(cost, n, g, reverse=True)
    d = m.distances(g, size=n)
    assert np.array_equal(np.isfinite(d), np.isfinite(ref))
    assert np.allclose(d[np.isfinite(d)], ref[np.isfinite(ref)], rtol=1e-9)
    f = m.flow_field(g, size=n, los=False)
    assert f.size == n
    fd = f.distances
    assert np.array_equal(np.isfinite(fd), np.isfinite(ref))
    assert np.allclose(fd[np.isfinite(fd)], ref[np.isfinite(ref)], rtol=1e-5)
    # walking the directions is legal for the unit and costs what the reference says
    step = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
    dirs = f.directions
    for (x, y) in cells:
        if not np.isfinite(ref[y, x]) or (x, y) == g:
            continue
        total, cx, cy = 0.0, x, y
        for _ in range(cost.size):
            if (cx, cy) == g:
                break
            dx, dy = step[dirs[cy, cx]]
            c = ref_step(cost, n, cx, cy, dx, dy, 8)
            assert c is not None, ((x, y), (cx, cy))
            total += c
            cx, cy = cx + dx, cy + dy
        assert (cx, cy) == g
        assert total == pytest.approx(ref[y, x], rel=1e-5)


def test_a_unit_that_does_not_fit_is_named_in_the_error():
    cost = np.ones((6, 8))
    cost[:, 4] = 0
    cost[2, 4] = 1  # a one-cell gap: size 1 passes, size 2 does not
    m = tilenav.Map.from_numpy(cost)
    assert m.path_result((0, 0), (6, 0), size=1).found
    r = m.path_result((0, 0), (6, 0), size=2)
    assert not r.found and r.cells.shape == (0, 2)
    with pytest.raises(tilenav.BlockedError, match="2x2 unit"):
        m.path((3, 0), (6, 0), size=2)  # its square covers the wall column
    with pytest.raises(tilenav.BlockedError):
        m.path((0, 5), (6, 0), size=2)  # the square leaves the map
    assert np.isinf(m.distances((6, 0), size=2)[0, 0])


@pytest.mark.parametrize("bad", [0, -1, 256])
def test_bad_sizes_are_rejected(bad):
    m = tilenav.Map.from_numpy(np.ones((4, 4)))
    with pytest.raises(ValueError, match="size"):
        m.path((0, 0), (1, 1), size=bad)
    with pytest.raises(ValueError, match="size"):
        m.flow_field((1, 1), size=bad)
    with pytest.raises(ValueError, match="size"):
        m.clearance(bad)


@pytest.mark.parametrize("bad", [1.5, "2", True, None])
def test_sizes_must_be_integers(bad):
    m = tilenav.Map.from_numpy(np.ones((4, 4)))
    with pytest.raises(TypeError, match="size"):
        m.path((0, 0), (1, 1), size=bad)
    with pytest.raises(TypeError, match="size"):
        m.distances((1, 1), size=bad)


def test_a_bigger_unit_rebuilds_the_clearance_and_older_fields_keep_working():
    cost = np.ones((40, 40))
    cost[10:30, 20] = 0
    m = tilenav.Map.from_numpy(cost)
    f2 = m.flow_field((0, 0), size=2)
    r2 = m.path_result((30, 30), (0, 0), size=2, algo="jps+")
    r7 = m.path_result((30, 30), (0, 0), size=7, algo="jps+")  # past the first cap of 4
    assert r2.found and r7.found and r7.cost >= r2.cost
    assert m.path_result((30, 30), (0, 0), size=2, algo="jps+").cost == r2.cost
    ref = ref_dijkstra(cost, 2, (0, 0), reverse=True)
    assert f2.distances[30, 30] == pytest.approx(ref[30, 30], rel=1e-5)
    assert np.array_equal(m.clearance(8), ref_clearance(cost, 8))


def test_crowd_agents_of_a_size_follow_the_field_of_their_size():
    # a room split by a wall with a one-cell gap (near) and a three-cell gap (far): a 2x2
    # unit must take the far gap
    cost = np.ones((16, 24))
    cost[:, 12] = 0
    cost[3, 12] = 1
    cost[11:14, 12] = 1
    m = tilenav.Map.from_numpy(cost, tile_size=32)
    goal = (20, 3)
    f2 = m.flow_field(goal, size=2)
    crowd = tilenav.Crowd(m, capacity=4)
    crowd.set_flow(0, f2)
    a = crowd.add((3 * 32 + 32, 3 * 32 + 32), radius=20.0, target="flow", flow=0, size=2)
    with pytest.raises(ValueError, match="below 16"):
        crowd.add((3 * 32 + 16, 8 * 32 + 16), radius=20.0, size=1)  # too wide for size 1
    xs = []
    for _ in range(120):
        crowd.step(10)
        xs.append(crowd.positions[0].copy())
    assert crowd.ids[0] == a
    path = np.array(xs)
    crossed = path[:, 0] > 12 * 32 + 16
    assert crossed.any(), "the unit never crossed the wall"
    row_at_cross = path[np.argmax(crossed), 1] / 32
    assert row_at_cross > 9, f"a 2x2 unit squeezed through the one-cell gap (row {row_at_cross})"
    top_left = path[-1] / 32 - 0.5
    assert np.hypot(*(top_left - np.array(goal))) < 1.5


def test_crowd_and_size_mistakes_get_named():
    m = tilenav.Map.from_numpy(np.ones((10, 10)), tile_size=32)
    crowd = tilenav.Crowd(m, max_flows=2)
    with pytest.raises(ValueError, match=r"below 16 pixels"):
        crowd.add((80, 80), radius=16.0)
    with pytest.raises(ValueError, match=r"below 32 pixels"):
        crowd.add((80, 80), radius=40.0, size=2)
    with pytest.raises(ValueError, match=r"outside 0..1"):
        crowd.set_flow(2, m.flow_field((5, 5)))
    crowd.set_flow(1, m.flow_field((5, 5), size=2))
    with pytest.raises(ValueError, match="made for size 2"):
        crowd.add((80, 80), radius=10.0, target="flow", flow=1)
    assert crowd.add((80, 80), radius=20.0, target="flow", flow=1, size=2)
    with pytest.raises(tilenav.InvalidArgumentError, match="clear of blocked cells"):
        crowd.add((-50, 80), radius=10.0)
    with pytest.raises(tilenav.BlockedError, match="does not fit there"):
        m.path((0, 0), (9, 9), size=2)
