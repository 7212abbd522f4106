"""What a python-tcod or python-pathfinding user looks for beside plain paths, from the C
API: the path to the closest reachable cell (``closest=True``), an expansion budget
(``max_expansions``), string pulling (``Map.smooth_path``) and turning points
(``compress_path``), each against a brute-force reference written here."""

import math
from fractions import Fraction

import numpy as np
import pytest

import tilenav
from test_size import path_cost, ref_dijkstra, ref_fits

SQRT2 = math.sqrt(2.0)


def closeness(cell, goal, moves):
    """The distance tilenav ranks closest and partial ends by: octile with 8 moves,
    manhattan with 4."""
    dx, dy = abs(cell[0] - goal[0]), abs(cell[1] - goal[1])
    if moves == 4:
        return float(dx + dy)
    return max(dx, dy) + (SQRT2 - 1.0) * min(dx, dy)


def walled_map(rng, w=18, h=14):
    """Walls enough to leave parts of the map unreachable from others."""
    cost = np.ones((h, w))
    cost[rng.random((h, w)) < 0.3] = 0.0
    mud = (rng.random((h, w)) < 0.2) & (cost > 0)
    cost[mud] = rng.choice([2.0, 3.0, 0.5], size=int(mud.sum()))
    return cost


@pytest.mark.parametrize("seed", range(8))
def test_closest_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    cost = walled_map(rng)
    h, w = cost.shape
    m = tilenav.Map.from_numpy(cost)
    unreachable = 0
    for size in (1, 2):
        fit = [(x, y) for y in range(h) for x in range(w) if ref_fits(cost, x, y, size)]
        for _ in range(6):
            s = fit[rng.integers(len(fit))]
            g = (int(rng.integers(w)), int(rng.integers(h)))  # blocked goals too
            for moves in (8, 4):
                dist = ref_dijkstra(cost, size, s, moves)
                reach = np.argwhere(np.isfinite(dist))  # (y, x)
                near = min(closeness((x, y), g, moves) for y, x in reach)
                cheapest = min(dist[y, x] for y, x in reach
                               if closeness((x, y), g, moves) == near)
                for algo in ("astar", "jps", "dijkstra"):
                    for regions in (False, True):
                        r = m.path_result(s, g, algo=algo, moves=moves, size=size,
                                          regions=regions, closest=True)
                        why = (seed, size, s, g, moves, algo, regions)
                        assert r.found and tuple(r.cells[0]) == s, why
                        assert r.end == tuple(r.cells[-1]), why
                        assert path_cost(cost, size, r.cells, moves) == pytest.approx(
                            r.cost, rel=1e-9), why
                        if np.isfinite(dist[g[1], g[0]]):
                            assert r.status == "ok" and r.end == g, why
                            assert r.cost == pytest.approx(dist[g[1], g[0]], rel=1e-9), why
                        else:
                            unreachable += 1
                            assert r.status == "closest", why
                            assert closeness(r.end, g, moves) == pytest.approx(near), why
                            assert r.cost == pytest.approx(cheapest, rel=1e-9), why
                        # path() returns the same cells
                        assert np.array_equal(m.path(s, g, algo=algo, moves=moves, size=size,
                                                     regions=regions, closest=True), r.cells)
    assert unreachable > 0  # the maps have unreachable goals to test


def test_closest_in_nearest_path_and_errors():
    cost = np.ones((8, 12))
    cost[:, 6] = 0  # two halves
    m = tilenav.Map.from_numpy(cost)
    r, i = m.nearest_path((0, 0), [(10, 2), (9, 7)], closest=True)
    assert r.status == "closest" and i == -1 and r.end == (5, 7)  # nearest of any goal
    r, i = m.nearest_path((0, 0), [(10, 2), (3, 3)], closest=True)
    assert r.status == "ok" and i == 1 and r.end == (3, 3)
    assert m.path_result((0, 0), (6, 3), closest=True).end == (5, 3)  # a blocked goal
    with pytest.raises(tilenav.BlockedError):
        m.path((0, 0), (6, 3))  # without closest a blocked goal raises, as before
    # a goal outside the map too (a click past the edge): the nearest cell inside
    assert m.path_result((0, 0), (20, 3), closest=True).end == (5, 3)
    with pytest.raises(tilenav.OutOfMapError):  # the start must still be inside
        m.path((-1, 0), (3, 3), closest=True)
    with pytest.raises(TypeError, match="closest must be True or False"):
        m.path((0, 0), (1, 1), closest="yes")
    for bad in (0, -5):
        with pytest.raises(tilenav.InvalidArgumentError, match="max_expansions"):
            m.path((0, 0), (1, 1), max_expansions=bad)
    with pytest.raises(TypeError, match="max_expansions"):
        m.path((0, 0), (1, 1), max_expansions=2.5)
    r = m.path_result((0, 0), (10, 2))
    assert (r.found, r.status, r.end, len(r.cells)) == (False, "no path", None, 0)


@pytest.mark.parametrize("seed", range(6))
def test_max_expansions_against_brute_force(seed):
    rng = np.random.default_rng(50 + seed)
    cost = walled_map(rng, 24, 18)
    h, w = cost.shape
    m = tilenav.Map.from_numpy(cost)
    fit = [(x, y) for y in range(h) for x in range(w) if cost[y, x] > 0]
    for _ in range(8):
        s = fit[rng.integers(len(fit))]
        g = fit[rng.integers(len(fit))]
        dist = ref_dijkstra(cost, 1, s)
        for algo in ("astar", "jps"):
            full = m.path_result(s, g, algo=algo)
            last = math.inf
            for budget in (1, 2, 3, 5, 8, 13, 40, 200, 10**6):
                r = m.path_result(s, g, algo=algo, max_expansions=budget)
                why = (seed, s, g, algo, budget)
                if full.expanded <= budget:  # enough: the same as without a budget
                    assert (r.found, r.status, r.cost, r.expanded) == \
                        (full.found, full.status, full.cost, full.expanded), why
                    assert np.array_equal(r.cells, full.cells), why
                    continue
                assert r.status == "partial" and r.found, why
                assert r.expanded == budget, why  # every expansion counts, JPS's start too
                assert tuple(r.cells[0]) == s and r.end == tuple(r.cells[-1]), why
                # a legal path, optimal to where it ends, that ends no farther than it starts
                assert path_cost(cost, 1, r.cells) == pytest.approx(r.cost, rel=1e-9), why
                assert r.cost == pytest.approx(dist[r.end[1], r.end[0]], rel=1e-9), why
                near = closeness(r.end, g, 8)
                assert near <= closeness(s, g, 8), why
                # a bigger budget expands a superset: it never ends farther away
                assert near <= last + 1e-12, why
                last = near


def line_clear(passable, a, b):
    """Every cell whose closed square the segment between the centres of a and b touches is
    passable (exact arithmetic: coordinates doubled, Liang-Barsky with fractions)."""
    ax, ay, bx, by = 2 * a[0] + 1, 2 * a[1] + 1, 2 * b[0] + 1, 2 * b[1] + 1
    dx, dy = bx - ax, by - ay
    for cy in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
        for cx in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
            t0, t1 = Fraction(0), Fraction(1)
            touches = True
            for p, q in ((-dx, ax - 2 * cx), (dx, 2 * cx + 2 - ax), (-dy, ay - 2 * cy),
                         (dy, 2 * cy + 2 - ay)):
                if p == 0:
                    touches = touches and q >= 0
                elif p < 0:
                    t0 = max(t0, Fraction(q, p))
                else:
                    t1 = min(t1, Fraction(q, p))
            if touches and t0 <= t1 and not passable[cy, cx]:
                return False
    return True


def ref_smooth(passable, cells):
    """tn_path_smooth's rule: from each waypoint, take the later cells while each is in line
    of sight of it; the last one taken is the next waypoint."""
    cells = [tuple(c) for c in cells.tolist()]
    out = [cells[0]]
    anchor = 0
    while anchor < len(cells) - 1:
        j = anchor + 1
        while j + 1 < len(cells) and line_clear(passable, cells[anchor], cells[j + 1]):
            j += 1
        out.append(cells[j])
        anchor = j
    return out


def ref_compress(cells):
    cells = [tuple(c) for c in cells.tolist()]
    sgn = lambda v: (v > 0) - (v < 0)  # noqa: E731
    out = [cells[0]]
    for i in range(1, len(cells) - 1):
        a = (sgn(cells[i][0] - cells[i - 1][0]), sgn(cells[i][1] - cells[i - 1][1]))
        b = (sgn(cells[i + 1][0] - cells[i][0]), sgn(cells[i + 1][1] - cells[i][1]))
        if a != b:
            out.append(cells[i])
    if len(cells) > 1:
        out.append(cells[-1])
    return out


@pytest.mark.parametrize("seed", range(6))
def test_smooth_and_compress_against_brute_force(seed):
    rng = np.random.default_rng(80 + seed)
    cost = np.ones((20, 26))
    cost[rng.random(cost.shape) < 0.18] = 0.0
    h, w = cost.shape
    m = tilenav.Map.from_numpy(cost)
    checked = 0
    for size in (1, 2):
        fits = np.array([[ref_fits(cost, x, y, size) for x in range(w)] for y in range(h)])
        fit = [(int(x), int(y)) for y, x in np.argwhere(fits)]
        for _ in range(10):
            s = fit[rng.integers(len(fit))]
            g = fit[rng.integers(len(fit))]
            for moves in (8, 4):
                p = m.path(s, g, moves=moves, size=size)
                if len(p) == 0:
                    continue
                checked += 1
                sm = m.smooth_path(p, size=size)
                assert [tuple(c) for c in sm.tolist()] == ref_smooth(fits, p), (seed, s, g)
                assert sm.dtype == np.int32 and sm.shape[1] == 2
                for a, b in zip(sm[:-1].tolist(), sm[1:].tolist()):
                    assert line_clear(fits, a, b)
                assert [tuple(c) for c in tilenav.compress_path(p).tolist()] == ref_compress(p)
    assert checked > 20
    assert m.smooth_path(np.zeros((0, 2), dtype=np.int32)).shape == (0, 2)
    assert tilenav.compress_path([]).shape == (0, 2)
    one = fit[0]
    assert m.smooth_path([one]).tolist() == [list(one)]


def test_smooth_path_refuses_corner_cutting():
    cost = np.ones((4, 4))
    cost[0, 1] = cost[1, 0] = 0  # a diagonal squeeze from (0, 0) to (1, 1)
    m = tilenav.Map.from_numpy(cost)
    p = m.path((0, 0), (3, 3), corner="always")
    assert tuple(p[1]) == (1, 1)
    with pytest.raises(tilenav.InvalidArgumentError, match="without corner cutting"):
        m.smooth_path(p)
    assert m.smooth_path([(2, 2), (3, 3)]).tolist() == [[2, 2], [3, 3]]
