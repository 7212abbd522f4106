"""Maps that change: Map.set_cost / Map.set_tile, and everything built on the map following
the edits (paths of every size, regions, clearance, flow fields, hierarchies), checked after
every edit of random sequences against references written in the tests and fresh objects."""

import math
import threading

import numpy as np
import pytest

import tilenav
from conftest import data
from test_regions import flood
from test_size import path_cost, ref_clearance, ref_dijkstra


def mirror_map(rng, w=20, h=15):
    cost = np.ones((h, w))
    cost[rng.random((h, w)) < 0.15] = 0.0
    cost[(rng.random((h, w)) < 0.2) & (cost > 0)] = 3.0
    return cost


@pytest.mark.parametrize("seed", range(5))
def test_random_edits_keep_every_query_equal_to_the_references(seed):
    rng = np.random.default_rng(seed)
    cost = mirror_map(rng)
    h, w = cost.shape
    gx, gy = w // 2, h // 2
    cost[gy - 1:gy + 3, gx - 1:gx + 3] = 1  # the goal stays open: edits keep away from it
    m = tilenav.Map.from_numpy(cost)
    fields = {n: m.flow_field((gx, gy), size=n, los=False) for n in (1, 2)}
    rg = m.regions(max_size=2)
    rev = m.revision
    for step in range(12):
        # a tower (2x2 block), a door opening, mud, or a cost the map never had
        x, y = gx, gy
        while gx - 2 <= x <= gx + 2 and gy - 2 <= y <= gy + 2:
            x, y = int(rng.integers(w - 1)), int(rng.integers(h - 1))
        kind = step % 4
        if kind == 0:
            cells, value = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)], 0.0
        elif kind == 1:
            cells, value = [(x, y)], 1.0
        elif kind == 2:
            cells, value = [(x, y), (x + 1, y)], 3.0
        else:
            cells, value = [(x, y)], 0.5 + step  # new costs: new gids
        m.set_cost(np.array(cells), value)
        changed = any(cost[cy, cx] != value for cx, cy in cells)
        for cx, cy in cells:
            cost[cy, cx] = value
        assert (m.revision > rev) == changed  # an edit that changes nothing moves nothing
        rev = m.revision
        assert np.array_equal(m.passable, cost > 0)
        assert np.array_equal(m.costs[cost > 0], cost[cost > 0].astype(np.float32))
        assert np.array_equal(m.clearance(3), ref_clearance(cost, 3))
        for n in (1, 2):
            # the same split of the cells as a flood fill, and the same count; after edits the
            # ids need not be in row-major order (regions.h)
            want = flood(cost, n, False)
            assert same_partition(rg.ids(n), want), (step, n)
            assert rg.count(n) == int(want.max()) + 1, (step, n)
        for n in (1, 2):
            f = fields[n]
            f.update()
            g = (gx, gy)
            ref = ref_dijkstra(cost, n, g, reverse=True)
            fresh = m.flow_field(g, size=n, los=False).distances
            assert np.array_equal(np.isfinite(f.distances), np.isfinite(ref)), (step, n)
            fin = np.isfinite(ref)
            assert np.allclose(f.distances[fin], ref[fin], rtol=1e-5)
            assert np.array_equal(f.distances, fresh)
        for n in (1, 2):
            fit = [(cx, cy) for cy in range(h) for cx in range(w)
                   if m.fits((cx, cy), n)]
            for _ in range(4):
                s = fit[rng.integers(len(fit))]
                gl = fit[rng.integers(len(fit))]
                want = ref_dijkstra(cost, n, s)[gl[1], gl[0]]
                for algo in ("astar", "jps", "jps+"):
                    r = m.path_result(s, gl, algo=algo, size=n, regions=True)
                    assert r.found == bool(np.isfinite(want)), (step, algo, n)
                    if r.found:
                        assert r.cost == pytest.approx(want, rel=1e-9)
                        assert path_cost(cost, n, r.cells) == pytest.approx(want, rel=1e-9)


def test_a_tower_and_a_door_change_paths_at_once():
    cost = np.ones((5, 9))
    cost[:, 4] = 0
    cost[2, 4] = 1  # a door in the wall
    m = tilenav.Map.from_numpy(cost)
    assert m.path_result((0, 2), (8, 2)).cost == 8
    m.set_cost((4, 2), math.inf)  # close the door
    r = m.path_result((0, 2), (8, 2), regions=True)
    assert not r.found and r.expanded == 0
    m.set_cost((4, 2), 1)  # open it
    assert m.path_result((0, 2), (8, 2), regions=True).cost == 8
    m.set_cost([(3, 2), (5, 2)], 5)  # mud on both sides
    assert m.path_result((0, 2), (8, 2)).cost == pytest.approx(
        m.distances((8, 2))[2, 0], rel=1e-12)


def test_bad_edits_change_nothing():
    m = tilenav.Map.from_numpy(np.ones((4, 4)))
    rev = m.revision
    with pytest.raises(tilenav.OutOfMapError, match=r"\(4, 0\)"):
        m.set_cost([(0, 0), (4, 0)], 0)
    assert m.revision == rev and m.passable.all()
    for bad in (-1, float("nan")):
        with pytest.raises(ValueError, match="cost"):
            m.set_cost((0, 0), bad)
    with pytest.raises(TypeError, match="cost"):
        m.set_cost((0, 0), "high")
    assert m.revision == rev


def test_tiles_on_a_loaded_tiled_map():
    m = tilenav.Map.load(data("data", "maps", "td.tmj"))
    with pytest.raises(tilenav.UnsupportedError, match="set_tile"):
        m.set_cost((0, 0), 0)
    rev = m.revision
    with pytest.raises(ValueError, match="layer"):
        m.set_tile("no such layer", (0, 0), 1)
    with pytest.raises(ValueError, match="layer"):
        m.set_tile(99, (0, 0), 1)
    with pytest.raises(ValueError, match="gid"):
        m.set_tile(0, (0, 0), -1)
    with pytest.raises(TypeError, match="gid"):
        m.set_tile(0, (0, 0), "1")
    with pytest.raises(ValueError, match="'spawns' is an object layer.*'ground', 'walls'"):
        m.set_tile("spawns", (0, 0), 1)
    with pytest.raises(tilenav.OutOfMapError):
        m.set_tile(0, [(0, 0), (-1, 0)], 1)
    assert m.revision == rev
    before = m.passable.copy()
    h, w = m.shape
    # a gid that blocks: one found in a blocked cell whose other layers are free
    blocking = None
    for layer in range(len(m.layers)):
        for y in range(h):
            for x in range(w):
                g = m.tile(layer, (x, y))
                if g and not before[y, x]:
                    probe = tilenav.Map.load(data("data", "maps", "td.tmj"))
                    free = list(zip(*np.nonzero(before)))[0]
                    probe.set_tile(layer, (int(free[1]), int(free[0])), g)
                    if not probe.passable[free[0], free[1]]:
                        blocking = (layer, g)
                        break
            if blocking:
                break
        if blocking:
            break
    assert blocking is not None
    layer, g = blocking
    ys, xs = np.nonzero(before)
    cell = (int(xs[len(xs) // 2]), int(ys[len(ys) // 2]))
    old = m.tile(layer, cell)
    m.set_tile(m.layers[layer], cell, g)  # by name this time
    assert not m.passable[cell[1], cell[0]]
    with pytest.raises(tilenav.BlockedError):
        m.path(cell, (int(xs[0]), int(ys[0])))
    m.set_tile(layer, cell, old)
    assert np.array_equal(m.passable, before)


def test_hierarchy_follows_edits_after_update():
    rng = np.random.default_rng(3)
    cost = mirror_map(rng, 48, 40)
    m = tilenav.Map.from_numpy(cost)
    hi = m.hierarchy(sector_size=8)
    m.set_cost([(10, 10), (11, 10), (10, 11), (11, 11)], 0)
    cost[10:12, 10:12] = 0
    with pytest.raises(tilenav.StateError):
        hi.path((0, 0), (47, 39))
    assert hi.update() > 0
    fit = list(zip(*np.nonzero(cost > 0)))
    for _ in range(10):
        sy, sx = fit[rng.integers(len(fit))]
        gy, gx = fit[rng.integers(len(fit))]
        want = ref_dijkstra(cost, 1, (int(sx), int(sy)))[gy, gx]
        r = hi.path((int(sx), int(sy)), (int(gx), int(gy)), exact=True)
        assert r.found == bool(np.isfinite(want))
        if r.found:
            assert r.cost == pytest.approx(want, rel=1e-9)


def test_edits_wait_for_queries_on_other_threads():
    rng = np.random.default_rng(9)
    cost = mirror_map(rng, 64, 64)
    cost[0, :] = 1
    cost[:, 0] = 1
    cost[63, :] = 1
    m = tilenav.Map.from_numpy(cost)
    stop = threading.Event()
    errors = []

    def query():
        try:
            while not stop.is_set():
                for algo in ("jps", "jps+", "astar"):
                    r = m.path_result((0, 0), (63, 63), algo=algo, size=1, regions=True)
                    assert r.found  # the border stays open in every state
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=query) for _ in range(3)]
    for t in threads:
        t.start()
    for k in range(60):
        x, y = 5 + k % 50, 5 + (k * 7) % 50
        m.set_cost((x, y), 0 if k % 2 else 2.5)
        cost[y, x] = 0 if k % 2 else 2.5
    stop.set()
    for t in threads:
        t.join()
    assert not errors, errors
    fresh = tilenav.Map.from_numpy(cost)
    for algo in ("jps", "jps+", "astar"):
        assert m.path_result((0, 0), (63, 63), algo=algo).cost == pytest.approx(
            fresh.path_result((0, 0), (63, 63), algo=algo).cost, rel=1e-12)


def test_a_rectangle_is_one_change_and_empty_edits_nothing():
    m = tilenav.Map.from_numpy(np.ones((12, 12)))
    rev = m.revision
    m.set_cost((11, 11), 2.0)  # a cost the map did not have: a new terrain entry, which no
    assert m.revision == rev + 1  # cell holds yet (no change), then the cell's change
    m.set_cost((11, 10), 3.0)
    rev = m.revision
    m.set_cost([(x, y) for y in range(4, 7) for x in range(2, 5)], 0)  # a 3x3 tower
    assert m.revision == rev + 1 and not m.passable[4:7, 2:5].any()
    m.set_cost([(x, y) for y in range(4, 7) for x in range(2, 5)], 0)  # the same again
    assert m.revision == rev + 1
    m.set_cost([(0, 0), (5, 9), (11, 3)], 2.0)  # scattered: one change per cell
    assert m.revision == rev + 4
    m.set_cost([(1, 1), (1, 1), (2, 1)], 3.0)  # a repeat is no rectangle
    assert m.costs[1, 1] == 3 and m.costs[1, 2] == 3
    m.set_cost([], 0)
    m.set_cost(np.empty((0, 2), dtype=np.int32), 0)
    assert m.revision == rev + 6


def test_ever_new_costs_keep_the_terrain_table_small():
    """set_cost with a cost the map never had makes a terrain entry (a gid of the cost layer);
    the entries of costs no cell has any more are reclaimed, so a map edited with ever-new
    costs keeps a table about the size of the costs in use (it grew by one entry per new
    cost before: 36 -> 204 us per call and 18 MB more after 150,000 edits of a 64x64 map),
    and every query answers as on a fresh map of the same costs."""
    from tilenav._tilenav import lib

    rng = np.random.default_rng(21)
    cost = np.ones((8, 8))
    cost[3, 2:6] = 0
    m = tilenav.Map.from_numpy(cost)
    copies = []
    sizes = []
    for k in range(6000):
        x, y = (int(v) for v in rng.integers(0, 8, 2))
        value = 0.0 if k % 97 == 0 else float(np.float32(1.0 + rng.random() * 4))
        m.set_cost((x, y), value)
        cost[y, x] = value
        if k % 1000 == 999:
            copies.append((m.copy(), cost.copy()))
            sizes.append(lib.tn_map_memory_bytes(m._handle()))
            gids = [m.tile("cost", (x, y)) for y in range(8) for x in range(8)]
            assert max(gids) <= 2 * 64 + 64 + 2, max(gids)  # 64 cells: 64 costs at most
            assert np.array_equal(m.costs, np.where(cost == 0, np.inf, cost).astype(np.float32))
            fresh = tilenav.Map.from_numpy(cost)
            for algo in ("jps", "astar", "jps+"):
                a = m.path_result((0, 0), (7, 7), algo=algo)
                b = fresh.path_result((0, 0), (7, 7), algo=algo)
                assert (a.cells.tolist(), a.cost) == (b.cells.tolist(), b.cost)
    assert max(sizes[1:]) == min(sizes[1:]), sizes  # no growth once the table is full
    for other, c in copies:  # copies made between compactions go on from where they were
        other.set_cost((7, 7), 1.2345)
        c[7, 7] = 1.2345
        assert np.array_equal(other.costs, np.where(c == 0, np.inf, c).astype(np.float32))


def test_edit_methods_name_what_to_use_instead():
    m = tilenav.Map.from_numpy(np.ones((16, 16)))
    with pytest.raises(tilenav.UnsupportedError, match="set_cost"):
        m.set_tile("cost", (0, 0), 1)
    hi = m.hierarchy(sector_size=8)
    m.set_cost((5, 5), 0)
    with pytest.raises(tilenav.StateError, match=r"update\(\)"):
        hi.path((0, 0), (15, 15))
    hi.update()
    assert hi.path((0, 0), (15, 15)).found


def test_a_hierarchy_for_a_bigger_unit_follows_edits():
    rng = np.random.default_rng(12)
    cost = mirror_map(rng, 40, 32)
    m = tilenav.Map.from_numpy(cost)
    hi = m.hierarchy(sector_size=8, size=2)
    assert hi.size == 2
    for k in range(3):
        x, y = 6 + 9 * k, 5 + 7 * k
        m.set_cost([(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)], 0)
        cost[y:y + 2, x:x + 2] = 0
        hi.update()
        fit = [(cx, cy) for cy in range(32) for cx in range(40) if m.fits((cx, cy), 2)]
        for _ in range(6):
            s = fit[rng.integers(len(fit))]
            g = fit[rng.integers(len(fit))]
            want = ref_dijkstra(cost, 2, s)[g[1], g[0]]
            r = hi.path(s, g, exact=True)
            assert r.found == bool(np.isfinite(want))
            if r.found:
                assert r.cost == pytest.approx(want, rel=1e-9)
                assert path_cost(cost, 2, r.cells) == pytest.approx(want, rel=1e-9)


def same_partition(a, b):
    """Do two region-id arrays split the cells the same way (ids may differ: an update gives a
    new region the next id and the last id to one given up, a build numbers them in row-major
    order)?"""
    if not np.array_equal(a < 0, b < 0):
        return False
    pairs = np.unique(np.stack([a[a >= 0], b[b >= 0]]), axis=1)
    return len(np.unique(pairs[0])) == len(np.unique(pairs[1])) == pairs.shape[1]


@pytest.mark.parametrize("seed", range(8))
def test_objects_of_every_size_follow_edits_whatever_sizes_come_later(seed):
    """Fields, hierarchies and Regions made for one size stay correct after queries for
    bigger sizes (past the clearance's cap of 4: the map rebuilds its clearance and regions)
    and any edits: random sequences of sizes 1..8, edits and checks against fresh objects on
    a fresh map of the same costs."""
    rng = np.random.default_rng(100 + seed)
    w, h = 36, 28
    cost = np.ones((h, w))
    cost[rng.random((h, w)) < 0.04] = 0.0
    cost[(rng.random((h, w)) < 0.2) & (cost > 0)] = 3.0
    m = tilenav.Map.from_numpy(cost)
    fields, hierarchies, regions = [], [], []
    keep = np.zeros((h, w), dtype=bool)  # the goals' footprints: edits leave them open

    def check():
        fresh = tilenav.Map.from_numpy(cost)
        n = int(rng.integers(1, 5))  # (not past 4: checking must not grow the map's cap)
        assert np.array_equal(m.clearance(n), ref_clearance(cost, n))
        for f in fields:
            f.update()
            ref = fresh.flow_field(f.goal, size=f.size, los=False).distances
            assert np.array_equal(f.distances, ref), ("field", f.size, f.goal)
        for hi in hierarchies:
            hi.update()
            fit = np.argwhere(fresh.clearance(hi.size) >= hi.size)
            for _ in range(3):
                (sy, sx), (gy, gx) = fit[rng.integers(len(fit), size=2)]
                s, g = (int(sx), int(sy)), (int(gx), int(gy))
                want = fresh.path_result(s, g, algo="astar", size=hi.size)
                got = hi.path(s, g, exact=True)
                assert got.found == want.found, ("hierarchy", hi.size, s, g)
                assert got.cost == pytest.approx(want.cost, rel=1e-9)
        for rg in regions:
            ref = fresh.regions(max_size=rg.max_size)
            for n in range(1, rg.max_size + 1):
                assert same_partition(rg.ids(n), ref.ids(n)), ("regions", rg.max_size, n)
                assert rg.count(n) == ref.count(n)

    for step in range(48):
        # first one of each object for sizes the first clearance and regions hold, then
        # anything in any order
        action = (["field", "hierarchy", "regions"][step] if step < 3 else
                  rng.choice(["field", "hierarchy", "regions", "ask", "edit", "edit", "drop"]))
        size = int(rng.integers(2 if step < 3 else 1, 5 if step < 3 else 9))
        if action == "field":
            fit = np.argwhere(m.clearance(size) >= size)
            if len(fit):
                gy, gx = fit[rng.integers(len(fit))]
                fields.append(m.flow_field((int(gx), int(gy)), size=size, los=False))
                keep[gy:gy + size, gx:gx + size] = True
        elif action == "hierarchy":
            hierarchies.append(m.hierarchy(sector_size=8, size=size))
        elif action == "regions":
            regions.append(m.regions(max_size=size))
        elif action == "ask":  # what makes the map grow its clearance and regions
            kind = step % 3
            if kind == 0:
                m.fits((int(rng.integers(w)), int(rng.integers(h))), size)
            elif kind == 1:
                m.clearance(size)
            else:
                try:
                    m.path((0, 0), (w - size, h - size), size=size, regions=True)
                except tilenav.BlockedError:
                    pass
        elif action == "drop":  # objects going let the map forget what they read
            for held in (fields, hierarchies, regions):
                if held:
                    held.pop(int(rng.integers(len(held))))
        else:
            if rng.random() < 0.3:  # a wall across the map, gaps where goals stand
                y = int(rng.integers(h))
                cells = [(x, y) for x in range(w) if not keep[y, x]]
                value = 0.0
            else:
                x, y = int(rng.integers(w - 3)), int(rng.integers(h - 3))
                sw, sh = (int(v) for v in rng.integers(1, 4, size=2))
                cells = [(cx, cy) for cy in range(y, y + sh) for cx in range(x, x + sw)
                         if not keep[cy, cx]]
                value = float(rng.choice([0.0, 1.0, 3.0, 0.0]))
            if cells:
                m.set_cost(cells, value)
                for cx, cy in cells:
                    cost[cy, cx] = value
            check()
    check()


def test_paths_longer_than_the_passable_cells_were_after_edits_open_cells():
    """A search context's path buffer holds as many cells as the map had passable cells when
    it was made; edits that open cells allow longer paths, which used to raise "buffer too
    small" from a context made before them."""
    cost = np.zeros((1, 30))
    cost[0, :2] = 1
    m = tilenav.Map.from_numpy(cost)
    assert len(m.path((0, 0), (1, 0))) == 2  # a context for 2 passable cells
    assert m.nearest_path((0, 0), [(1, 0)])[1] == 0
    m.set_cost([(x, 0) for x in range(2, 30)], 1)
    for algo in ("jps", "astar", "dijkstra", "jps+"):
        r = m.path_result((0, 0), (29, 0), algo=algo)
        assert len(r.cells) == 30 and r.cost == 29
        assert len(m.path((0, 0), (29, 0), algo=algo)) == 30
    r, i = m.nearest_path((0, 0), [(29, 0), (28, 0)])
    assert len(r.cells) == 29 and i == 1
    b = m.paths([(0, 0)], [(29, 0)])
    assert b.found.all() and len(b.cells[0]) == 30


def test_a_field_whose_goal_is_blocked_is_built_again():
    """update() on a field whose goal an edit blocked raises BlockedError and leaves the field
    empty; later calls said only "call out of order", even with the goal open again, and
    Python had no way to build the field again. build() does, towards its goals or others,
    and a crowd following the field follows the new one without another set_flow()."""
    cost = np.ones((6, 12))
    m = tilenav.Map.from_numpy(cost)
    f = m.flow_field((10, 3), los=False)
    cr = tilenav.Crowd(m, capacity=4)
    cr.set_flow(0, f)
    a = cr.add((5 * 32 + 16, 3 * 32 + 16), target="flow", flow=0)
    cr.step(20)
    assert cr.velocities[list(cr.ids).index(a)][0] > 1  # east, to the goal
    m.set_cost([(10, 3)], 0)
    with pytest.raises(tilenav.BlockedError):
        f.update()
    for call in (f.update, lambda: f.path((0, 0))):
        with pytest.raises(tilenav.StateError, match=r"found its goals blocked: call build\(\)"):
            call()
    m.set_cost([(10, 3)], 1)
    with pytest.raises(tilenav.StateError, match="call build"):
        f.update()  # still empty: only build() fills it
    f.build()
    fresh = m.flow_field((10, 3), los=False)
    assert np.array_equal(f.distances, fresh.distances)
    assert np.array_equal(f.directions, fresh.directions)
    assert f.update() == 0 and len(f.path((0, 0))) > 0
    cr.step(600)
    assert cr.arrived.tolist() == [True]
    # towards another goal: the field, its vectors and the crowd follow it, and the agent has
    # not arrived there (it kept `arrived` 800 px away)
    f.build((1, 3))
    cr.step(1)
    assert cr.arrived.tolist() == [False]
    west = m.flow_field((1, 3), los=False)
    assert np.array_equal(f.distances, west.distances) and f.goal == (1, 3)
    assert np.array_equal(f.vectors, west.vectors)
    cr.step(60)
    assert cr.velocities[list(cr.ids).index(a)][0] < -1  # turned west
    m.set_cost([(0, 0)], 0)
    with pytest.raises(tilenav.BlockedError):
        f.build((0, 0))
    with pytest.raises(tilenav.StateError, match="call build"):
        f.path((1, 1))
    with pytest.raises(tilenav.UnsupportedError, match="line of sight takes one goal"):
        m.flow_field((5, 5)).build([(1, 1), (2, 2)])
