"""Paths, Dijkstra maps and the errors they raise."""

import math

import numpy as np
import pytest

import tilenav
from conftest import data

ROOM = np.ones((5, 7))
ROOM[1:4, 3] = 0  # a wall with a way round at the top and the bottom


def room():
    return tilenav.Map.from_numpy(ROOM)


def legal(m, cells, corner="never"):
    """Every step moves to an adjacent passable cell, diagonals without cutting a corner."""
    p = m.passable
    for (x0, y0), (x1, y1) in zip(cells[:-1], cells[1:]):
        dx, dy = x1 - x0, y1 - y0
        assert max(abs(dx), abs(dy)) == 1
        assert p[y1, x1]
        if dx and dy and corner == "never":
            assert p[y0, x0 + dx] and p[y0 + dy, x0]
    return True


def test_path_is_an_int32_array_of_xy_cells():
    cells = room().path((0, 2), (6, 2))
    assert cells.dtype == np.int32 and cells.ndim == 2 and cells.shape[1] == 2
    assert cells[0].tolist() == [0, 2] and cells[-1].tolist() == [6, 2]
    assert legal(room(), cells)


@pytest.mark.parametrize("algo", ["astar", "dijkstra", "jps", "jps+"])
def test_every_algorithm_finds_the_optimal_cost(algo):
    r = room().path_result((0, 2), (6, 2), algo=algo)
    assert r.found and r.cost == pytest.approx(4 + 4 * math.sqrt(2) - 2, rel=1e-12)
    ref = room().path_result((0, 2), (6, 2), algo="dijkstra")
    assert r.cost == pytest.approx(ref.cost, rel=1e-12)
    assert r.algo == algo


def test_jps_runs_on_terrain_costs_and_falls_back_elsewhere():
    cost = ROOM.copy()
    cost[0, 0] = 3  # terrain costs: weighted JPS, A*'s cost
    m = tilenav.Map.from_numpy(cost)
    r = m.path_result((0, 2), (6, 2), algo="jps")
    assert r.algo == "jps" and r.found
    assert r.cost == pytest.approx(m.path_result((0, 2), (6, 2), algo="astar").cost, rel=1e-12)
    r4 = room().path_result((0, 2), (6, 2), moves=4)  # 4 moves: JPS does not apply
    assert r4.algo == "astar" and r4.cost == 10
    assert all(abs(a - b).sum() == 1 for a, b in zip(r4.cells[:-1], r4.cells[1:]))


def test_corner_rules():
    cost = np.ones((2, 2))
    cost[0, 1] = 0
    m = tilenav.Map.from_numpy(cost)
    assert len(m.path((0, 0), (1, 1), corner="never")) == 3
    assert len(m.path((0, 0), (1, 1), corner="one")) == 2
    cost[1, 0] = 0
    m = tilenav.Map.from_numpy(cost)
    assert len(m.path((0, 0), (1, 1), corner="one")) == 0
    assert len(m.path((0, 0), (1, 1), corner="always")) == 2


def test_costs_from_numpy_and_blocked_values():
    cost = np.array([[1, 9, 1], [1, 0, 1], [1, 1, 1]], dtype=np.uint8)
    m = tilenav.Map.from_numpy(cost)
    assert m.passable.tolist() == (cost > 0).tolist()
    assert m.costs[0, 1] == 9 and np.isinf(m.costs[1, 1])
    walk = tilenav.Map.from_numpy(cost > 0)  # python-tcod's "walkable" arrays
    assert walk.costs[0, 1] == 1 and not walk.passable[1, 1]
    inf = tilenav.Map.from_numpy(np.where(cost == 0, np.inf, cost.astype(float)))
    assert np.array_equal(inf.costs, m.costs)
    # entering (1, 0) costs 9: going round below (6) is cheaper
    assert [1, 0] not in m.path((0, 0), (2, 0), algo="astar").tolist()


def test_no_path_is_an_empty_array():
    cost = np.ones((3, 3))
    cost[:, 1] = 0
    r = tilenav.Map.from_numpy(cost).path_result((0, 0), (2, 2))
    assert not r.found and r.cells.shape == (0, 2) and r.cost == 0


def test_errors_carry_the_status_and_its_message():
    m = room()
    with pytest.raises(tilenav.OutOfMapError) as e:
        m.path((0, 0), (70, 0))
    assert e.value.status == -9 and e.value.status_name == "outside the map"
    assert "outside the map" in str(e.value) and isinstance(e.value, IndexError)
    with pytest.raises(tilenav.BlockedError, match="goal cell is blocked"):
        m.path((0, 0), (3, 2))
    with pytest.raises(tilenav.BlockedError, match="start cell is blocked"):
        m.path((3, 2), (0, 0))
    assert tilenav.status_string(-1) == "invalid argument"
    with pytest.raises(ValueError, match="algo must be one of"):
        m.path((0, 0), (1, 1), algo="bfs")
    with pytest.raises(ValueError, match="moves must be 4 or 8"):
        m.path((0, 0), (1, 1), moves=6)
    with pytest.raises(TypeError, match="start must be an"):
        m.path((0.5, 0), (1, 1))


def test_load_errors_name_the_file_and_the_reason(tmp_path):
    bad = tmp_path / "bad.map"
    bad.write_text("type octile\nheight 2\nwidth 2\nmap\n..\n")
    with pytest.raises(tilenav.ParseError) as e:
        tilenav.Map.load(bad)
    assert "bad.map" in str(e.value) and e.value.status == -6
    with pytest.raises(tilenav.LoadIOError) as e:
        tilenav.Map.load(tmp_path / "missing.tmj")
    assert isinstance(e.value, OSError)
    with pytest.raises(tilenav.TilenavError):
        tilenav.Map.load(data("tests", "data", "tmx-bad", "billion-laughs.tmx"))


@pytest.mark.parametrize("name", ["data/maps/td.tmj", "data/maps/td.txt",
                                  "tests/data/tmx/dungeon-zlib.tmx", "data/maps/maze64.map"])
def test_load_every_format(name):
    m = tilenav.Map.load(data(*name.split("/")))
    assert m.passable.sum() > 0 and m.layers
    if name.endswith(".tmx"):  # the same map as JSON and as every TMX encoding
        ref = tilenav.Map.load(data("tests", "data", "tmx", "dungeon.tmj"))
        assert np.array_equal(m.passable, ref.passable)


def test_tiled_and_ascii_demo_maps_agree():
    a = tilenav.Map.load(data("data", "maps", "td.tmj"))
    b = tilenav.Map.load(data("data", "maps", "td.txt"))
    assert np.array_equal(a.costs, b.costs)


def test_distances_are_a_dijkstra_map():
    m = room()
    d = m.distances((6, 2))
    assert d.dtype == np.float64 and d.shape == (5, 7)
    assert d[2, 6] == 0 and np.isinf(d[2, 3])
    for x, y in [(0, 2), (0, 0), (4, 4)]:
        assert d[y, x] == pytest.approx(m.path_result((x, y), (6, 2), algo="astar").cost)
    many = m.distances([(6, 2), (0, 2)])
    assert many[2, 0] == 0 and many[2, 6] == 0
    out = np.empty((5, 7))
    assert m.distances((6, 2), out=out) is out and np.array_equal(out, d)


def test_extra_costs_and_nearest_path():
    m = room()
    extra = np.zeros((5, 7), dtype=np.float32)
    extra[0, :] = 100  # the top row is expensive now: the path goes round the bottom
    cells = m.path((0, 2), (6, 2), extra=extra)
    assert all(y > 0 for _, y in cells.tolist())
    r, which = m.nearest_path((0, 2), [(6, 0), (1, 2), (3, 2)])
    assert which == 1 and r.cells[-1].tolist() == [1, 2]


def test_line_of_sight():
    m = room()
    assert m.line_of_sight((0, 2), (2, 2))
    assert not m.line_of_sight((0, 2), (6, 2))


def test_closed_map_raises_and_views_stay_valid():
    m = room()
    passable = m.passable
    with m:
        assert m.path((0, 0), (1, 0)).shape == (2, 2)
    assert m.closed
    with pytest.raises(ValueError, match="closed"):
        m.path((0, 0), (1, 0))
    assert passable.sum() == ROOM.sum()  # the view kept the C map alive


@pytest.mark.parametrize("algo", ["jps", "astar", "dijkstra"])
def test_batch_equals_single_queries(algo):
    m = tilenav.Map.load(data("data", "maps", "maze64.map"))
    free = np.argwhere(m.passable)[:, ::-1]
    rng = np.random.default_rng(11)
    starts = free[rng.integers(0, len(free), 300)]
    goals = free[rng.integers(0, len(free), 300)]
    batch = m.paths(starts, goals, algo=algo)
    assert len(batch.cells) == 300 and batch.cost.dtype == np.float64
    for i in range(300):
        r = m.path_result(starts[i], goals[i], algo=algo)
        assert batch.cells[i].tolist() == r.cells.tolist()
        assert (batch.cost[i], batch.expanded[i], batch.found[i]) == (r.cost, r.expanded, r.found)
    # a serpentine longer than the batch's buffer (4 * (width + height)): found on its own
    snake = np.ones((21, 21))
    snake[1::2, :] = 0
    snake[1::4, -1] = 1
    snake[3::4, 0] = 1
    sm = tilenav.Map.from_numpy(snake)
    one = sm.path_result((0, 0), (0, 20), algo=algo)
    assert len(one.cells) > 4 * (21 + 21)
    long = sm.paths([(0, 0), (0, 0)], [(0, 20), (3, 0)], algo=algo)
    assert long.cells[0].tolist() == one.cells.tolist() and long.cost[0] == one.cost
    assert long.expanded[0] == one.expanded and long.cells[1].tolist() == [[0, 0], [1, 0],
                                                                             [2, 0], [3, 0]]


def test_batch_broadcasts_one_goal_and_names_the_bad_query():
    m = room()
    b = m.paths([(0, 0), (0, 4), (2, 2)], (6, 2))
    assert [c[-1].tolist() for c in b.cells] == [[6, 2]] * 3
    with pytest.raises(tilenav.BlockedError, match="query 1"):
        m.paths([(0, 0), (3, 2)], (6, 2))
    with pytest.raises(ValueError, match="same length"):
        m.paths([(0, 0), (1, 1)], [(6, 2)] * 3)
    cost = np.ones((3, 3))
    cost[:, 1] = 0
    none = tilenav.Map.from_numpy(cost).paths([(0, 0)], [(2, 2)])
    assert not none.found[0] and none.cells[0].shape == (0, 2) and none.cost[0] == 0


def python_calls(fn):
    """The Python functions a call runs (sys.setprofile 'call' events; builtins and C calls
    are not counted)."""
    import sys

    names = []

    def prof(frame, event, arg):
        if event == "call":
            names.append(frame.f_code.co_name)

    sys.setprofile(prof)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return names[:-1] if names and names[-1] == "python_calls" else names


def test_a_query_runs_few_python_functions():
    """The call overhead of a path query is Python code (7.8 us for a start==goal query,
    2.9 us since its pass; docs/BENCHMARKS.md): a deterministic guard against it growing
    back, counting the Python functions one query runs (a cell check each for start and goal,
    the option cache, the map's read lock) rather than timing them."""
    m = tilenav.Map.from_numpy(np.ones((4, 4)))
    m.path((0, 0), (3, 3))
    m.path_result((0, 0), (3, 3))
    for call in (lambda: m.path((0, 0), (0, 0)), lambda: m.path((0, 0), (3, 3)),
                 lambda: m.path_result((0, 0), (3, 3))):
        names = python_calls(call)[1:]  # the lambda's own call left out
        assert len(names) <= 10, names  # 30 before the pass


def test_the_option_cache_keeps_every_argument_check():
    """Options already used (and cached) still refuse the values equal to them that are not
    valid (True for 1, 0 for no budget, NaN), with the errors a first call gives."""
    m = tilenav.Map.from_numpy(np.ones((6, 6)))
    for _ in range(2):
        m.path((0, 0), (5, 5))
        m.path((0, 0), (5, 5), max_expansions=1)
        m.path((0, 0), (5, 5), weight=2.0, regions=True, closest=True)
    with pytest.raises(TypeError, match="size must be an integer"):
        m.path((0, 0), (5, 5), size=True)
    with pytest.raises(TypeError, match="size must be an integer"):
        m.path((0, 0), (5, 5), size=1.0)
    with pytest.raises(TypeError, match="regions must be True or False"):
        m.path((0, 0), (5, 5), regions=0)
    with pytest.raises(TypeError, match="closest must be True or False"):
        m.path((0, 0), (5, 5), weight=2.0, regions=True, closest=1)
    with pytest.raises(ValueError, match="max_expansions must be an integer"):
        m.path((0, 0), (5, 5), max_expansions=0)
    with pytest.raises(TypeError, match="max_expansions must be an integer"):
        m.path((0, 0), (5, 5), max_expansions=True)
    with pytest.raises(ValueError, match="weight must be a finite number"):
        m.path((0, 0), (5, 5), weight=math.nan)
    with pytest.raises(TypeError, match="weight must be a number"):
        m.path((0, 0), (5, 5), weight=True)
    for name in ("algo", "heuristic", "corner", "step_costs"):
        with pytest.raises(ValueError, match=name):
            m.path((0, 0), (5, 5), **{name: "jps " if name == "algo" else "x"})
    # NumPy scalars equal to valid options work, as before
    assert len(m.path((0, 0), (5, 5), size=np.int64(1), weight=np.float32(1),
                      moves=np.int32(8))) == 6


def test_jps_on_costs_a_double_cannot_tell_apart():
    """A stranger's 20 x 8 map: the start is boxed in by one cell of cost 1e20, so every later
    step of cost 1 vanishes in doubles. JPS's path rebuild looped and crashed there; such a
    query now runs as A* (and says so)."""
    rows = ("#..H####|#.#.####|#.######|#..#####|##.#####|##...###|####...#|######..|#####...|"
            "##......|##.####.|##.####.|...####.|.####...|.####.##|.####.##|.####.##|.###..##|"
            ".....###|####...M").split("|")
    cost = np.array([[{"#": 0, ".": 1, "H": 1e20, "M": 1e6}[ch] for ch in row] for row in rows])
    m = tilenav.Map.from_numpy(cost)
    a = m.path_result((3, 1), (7, 19), algo="astar")
    for algo in ("jps", "jps+"):
        r = m.path_result((3, 1), (7, 19), algo=algo)
        assert r.found and r.cost == pytest.approx(a.cost, rel=1e-9) and r.algo == "astar"
        assert (r.cells[1] == (3, 0)).all()
