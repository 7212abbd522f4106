"""Hierarchical paths and sector flow fields against the exact searches of the same map."""

import math

import numpy as np
import pytest

import tilenav


def maze_map(seed=3, w=70, h=50, walls=0.22, mud=True):
    rng = np.random.default_rng(seed)
    cost = np.ones((h, w))
    if mud:
        cost[rng.random((h, w)) < 0.15] = 3.0
    cost[rng.random((h, w)) < walls] = 0
    return tilenav.Map.from_numpy(cost)


def test_hierarchy_paths_against_dijkstra():
    m = maze_map()
    hi = m.hierarchy(sector_size=8)
    assert hi.stats["sectors_x"] == 9 and hi.stats["nodes"] > 0 and hi.memory_bytes > 0
    bound = hi.crossing_bound
    rng = np.random.default_rng(1)
    free = np.argwhere(m.passable)
    checked = 0
    for _ in range(40):
        a = tuple(int(v) for v in free[rng.integers(len(free))][::-1])
        b = tuple(int(v) for v in free[rng.integers(len(free))][::-1])
        opt = m.distances(b)[a[1], a[0]]
        fast = hi.path(a, b)
        exact = hi.path(a, b, exact=True)
        if not math.isfinite(opt):
            assert not fast.found and not exact.found and len(fast.cells) == 0
            continue
        assert fast.found and exact.found and fast.algo == "hpa" and exact.algo == "hpa-exact"
        assert fast.cells[0].tolist() == list(a) and fast.cells[-1].tolist() == list(b)
        steps = np.abs(np.diff(fast.cells, axis=0))
        assert steps.max() <= 1 and (steps.sum(axis=1) > 0).all()
        assert m.passable[fast.cells[:, 1], fast.cells[:, 0]].all()
        assert exact.cost == pytest.approx(opt, rel=1e-9)
        # the documented bound, with K (crossings of an optimal path) at most its steps, which
        # cost at least 1 each: K <= opt
        assert opt - 1e-9 <= fast.cost <= opt + opt * bound + 1e-9
        greedy = hi.path(a, b, weight=1.5)
        assert greedy.found and greedy.cost >= opt - 1e-9
        checked += 1
    assert checked > 20


def test_sector_field_walks_to_the_goal():
    m = maze_map(seed=5)
    hi = m.hierarchy(sector_size=8)
    free = np.argwhere(m.passable)
    goal = tuple(int(v) for v in free[len(free) // 2][::-1])
    f = hi.sector_field(goal, budget=1)  # one sector kept: rebuilt as the walk moves
    d = m.distances(goal)
    for y, x in free[::37]:
        cell = (int(x), int(y))
        direction, cost = f.direction(cell)
        if not math.isfinite(d[y, x]):
            assert direction == -1 and math.isinf(cost)
            continue
        assert cost >= d[y, x] - 1e-4
        cells, walked = f.path(cell)
        assert cells[0].tolist() == list(cell) and cells[-1].tolist() == list(goal)
        assert walked == pytest.approx(cost, rel=1e-5)
        fast = hi.path(cell, goal)
        assert cost == pytest.approx(fast.cost, rel=1e-4)
    assert f.direction(goal) == (-1, 0.0)
    s = f.stats
    assert s["tiles_max"] == 1 and s["tiles_evicted"] > 0 and f.memory_bytes > 0
    f.set_goal([goal, tuple(int(v) for v in free[0][::-1])])
    assert f.direction(goal) == (-1, 0.0)


def test_unreachable_goals_answer_without_a_search():
    m = maze_map(seed=9, walls=0.4, mud=False)
    hi = m.hierarchy(sector_size=8)
    assert hi.stats["parts"] > 1
    rng = np.random.default_rng(4)
    free = np.argwhere(m.passable)
    unreachable = 0
    for _ in range(60):
        a = tuple(int(v) for v in free[rng.integers(len(free))][::-1])
        b = tuple(int(v) for v in free[rng.integers(len(free))][::-1])
        r = hi.path(a, b)
        if math.isfinite(m.distances(b)[a[1], a[0]]):
            assert r.found
        else:
            assert not r.found and r.expanded == 0
            unreachable += 1
    assert unreachable > 10
    row = m.shape[0] // 2  # a wall across the map: a split the labels cannot see
    m.set_cost(np.array([(x, row) for x in range(m.shape[1])]), 0)
    hi.update()
    assert hi.stats["parts"] == -1
    hi.refresh()
    assert hi.stats["parts"] > 1
    top, bottom = (1, 1), (1, m.shape[0] - 2)
    if m.passable[top[1], top[0]] and m.passable[bottom[1], bottom[0]]:
        r = hi.path(top, bottom)
        assert not r.found and r.expanded == 0


def test_hierarchy_errors():
    m = maze_map(mud=False)
    with pytest.raises(tilenav.InvalidArgumentError):
        m.hierarchy(sector_size=3)
    with pytest.raises(ValueError):
        m.hierarchy(moves=6)
    hi = m.hierarchy(sector_size=16)
    wall = tuple(int(v) for v in np.argwhere(~m.passable)[0][::-1])
    free = tuple(int(v) for v in np.argwhere(m.passable)[0][::-1])
    with pytest.raises(tilenav.OutOfMapError):
        hi.path((-1, 0), free)
    with pytest.raises(tilenav.BlockedError):
        hi.path(free, wall)
    with pytest.raises(ValueError):
        hi.path(free, free, weight=0.5)
    with pytest.raises(tilenav.BlockedError):
        hi.sector_field(wall)
    with pytest.raises(tilenav.OutOfMapError):
        hi.sector_field((1000, 0))
    f = hi.sector_field(free)
    with pytest.raises(tilenav.OutOfMapError):
        f.direction((0, 1000))
    assert f.direction(wall) == (-1, math.inf)


def open_cells(m, n, rng):
    """n cells whose 3x3 block is free (an agent's circle there touches no wall)."""
    p = m.passable
    ok = np.zeros_like(p)
    ok[1:-1, 1:-1] = np.logical_and.reduce(
        [p[1 + dy:p.shape[0] - 1 + dy, 1 + dx:p.shape[1] - 1 + dx]
         for dy in (-1, 0, 1) for dx in (-1, 0, 1)])
    cells = np.argwhere(ok)[:, ::-1]
    return cells[rng.choice(len(cells), n, replace=False)]


def test_crowd_follows_a_sector_field():
    m = maze_map(seed=7, w=96, h=64, walls=0.04, mud=False)
    hi = m.hierarchy(sector_size=8)
    rng = np.random.default_rng(2)
    goal, other = (tuple(int(v) for v in c) for c in open_cells(m, 2, rng))
    starts = open_cells(m, 40, rng)
    d = m.distances(goal)
    starts = starts[np.isfinite(d[starts[:, 1], starts[:, 0]])]
    tile = m.tile_size

    def run(field, steps):
        with tilenav.Crowd(m, capacity=64, seed=4) as crowd:
            crowd.set_flow(1, field)
            for x, y in starts:
                crowd.add(((x + 0.5) * tile[0], (y + 0.5) * tile[1]), target="flow", flow=1)
            first = crowd.positions.copy()
            crowd.step(steps)
            assert crowd.max_wall_overlap == 0
            return first, crowd.positions.copy(), crowd.hash

    # 1500 steps of 1/60 s at 120 px/s: 3000 px, more than the longest route here
    f = hi.sector_field(goal, budget=64 << 10)
    first, last, h = run(f, 1500)
    g = np.array([(goal[0] + 0.5) * tile[0], (goal[1] + 0.5) * tile[1]])
    before = np.linalg.norm(first - g, axis=1)
    after = np.linalg.norm(last - g, axis=1)
    assert np.median(after) < 3 * tile[0] < np.median(before)  # most of the crowd got there
    assert f.stats["tiles_built"] > 0
    # the same run, a fresh field: the same hash (sectors built per step, deterministic)
    assert run(hi.sector_field(goal, budget=64 << 10), 1500)[2] == h
    # a goal moved by set_goal is followed from the next step on
    f.set_goal(other)
    g2 = np.array([(other[0] + 0.5) * tile[0], (other[1] + 0.5) * tile[1]])
    _, moved, _ = run(f, 1500)
    assert np.median(np.linalg.norm(moved - g2, axis=1)) < 3 * tile[0]


def test_crowd_sector_field_errors():
    m = maze_map(seed=7, w=96, h=64, walls=0.04, mud=False)
    hi = m.hierarchy(sector_size=8)
    rng = np.random.default_rng(3)
    cells = open_cells(m, 30, rng)
    goal = tuple(int(v) for v in cells[0])
    tile = m.tile_size
    small = hi.sector_field(goal, budget=1)  # one sector: too few for agents spread out
    with tilenav.Crowd(m, capacity=64) as crowd:
        crowd.set_flow(0, small)
        for x, y in cells[1:]:
            crowd.add(((x + 0.5) * tile[0], (y + 0.5) * tile[1]), target="flow", flow=0)
        with pytest.raises(tilenav.StateError):  # TN_E_FULL
            crowd.step()
        crowd.set_flow(0, None)
        crowd.step()  # the slot cleared: nothing to build
    other = maze_map(seed=1, w=40, h=30, walls=0.04, mud=False)
    with tilenav.Crowd(other, capacity=4) as crowd, pytest.raises(ValueError):
        crowd.set_flow(0, small)


def test_hierarchies_sector_fields_regions_and_scenarios_close():
    """docs/python.md "Lifetimes": close() or a with block releases the C object at once, as
    for maps, fields and crowds; a closed object raises ValueError on use; what was built on
    it keeps working."""
    from conftest import data

    m = maze_map(seed=5, w=64, h=48, walls=0.05, mud=False)
    with m.hierarchy(sector_size=8) as hi:
        assert isinstance(hi, tilenav.Hierarchy) and not hi.closed
        a, b = (1, 1), (60, 40)
        for cell in (a, b):
            m.set_cost(cell, 1)
        hi.update()
        expected = hi.path(a, b).cost
        sf = hi.sector_field(b)
        path_before, cost_before = sf.path(a)
    assert hi.closed
    for use in (lambda: hi.path(a, b), hi.update, hi.refresh, lambda: hi.memory_bytes,
                lambda: hi.stats, lambda: hi.crossing_bound, lambda: hi.sector_field(b)):
        with pytest.raises(ValueError, match="the hierarchy is closed"):
            use()
    hi.close()  # again: nothing
    # the sector field made before keeps the graph
    cells, cost = sf.path(a)
    assert cells.tolist() == path_before.tolist() and cost == cost_before
    assert sf.direction(a)[0] >= 0
    with tilenav.Crowd(m, capacity=8) as crowd:
        crowd.set_flow(0, sf)
        crowd.add((1.5 * 32, 1.5 * 32), target="flow", flow=0)
        sf.close()  # the crowd keeps the sectors it follows
        assert sf.closed
        for use in (lambda: sf.path(a), lambda: sf.direction(a), lambda: sf.set_goal(a),
                    lambda: sf.stats, lambda: sf.memory_bytes):
            with pytest.raises(ValueError, match="the sector field is closed"):
                use()
        crowd.step(30)
        assert crowd.max_wall_overlap == 0
        with pytest.raises(ValueError, match="the sector field is closed"):
            crowd.set_flow(1, sf)
    assert expected > 0

    rg = m.regions()
    with rg as same:
        assert same is rg and rg.connected(a, b) and rg.count() >= 1
    assert rg.closed and "closed" in repr(rg)
    for use in (lambda: rg.connected(a, b), lambda: rg.id(a), rg.ids, rg.count):
        with pytest.raises(ValueError, match="the regions object is closed"):
            use()
    assert m.path_result(a, b, regions=True).found  # the map keeps its regions
    assert m.regions().connected(a, b)

    with tilenav.Scenarios(data("tests", "data", "movingai", "tiny.map.scen")) as sc:
        n = len(sc)
        assert sc.matches(0, float(sc.optimal[0]))
    assert sc.closed and len(sc) == n and sc.start.shape == (n, 2)  # the arrays are copies
    with pytest.raises(ValueError, match="the scenarios file is closed"):
        sc.matches(0, 1.0)
