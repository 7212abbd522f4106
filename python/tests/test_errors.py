"""Refused values: every error names the argument and the rule it broke, wrong types raise
TypeError and values out of range ValueError (InvalidArgumentError where the C library's
rule is checked), and values that were once accepted without effect are refused."""

import math
import warnings

import numpy as np
import pytest

import tilenav
from conftest import data


@pytest.fixture
def m():
    return tilenav.Map.from_numpy(np.ones((10, 10)))


def test_query_options_name_the_argument_and_the_rule(m):
    for call in (lambda **k: m.path((0, 0), (5, 5), **k),
                 lambda **k: m.paths([(0, 0)], [(5, 5)], **k)):
        with pytest.raises(tilenav.InvalidArgumentError, match=r"weight must be .*>= 1.*0\.5"):
            call(weight=0.5)
        for bad in (math.inf, math.nan):
            with pytest.raises(ValueError, match="weight must be a finite number >= 1"):
                call(weight=bad)
        for bad in ("2", None, True, 1j):
            with pytest.raises(TypeError, match="weight must be a number"):
                call(weight=bad)
        # 4 moves ignore the corner rule, but a name that is no rule is refused
        with pytest.raises(ValueError, match="corner must be one of"):
            call(moves=4, corner="sometimes")
    assert m.path((0, 0), (5, 5), weight=np.float32(1.5)).shape[1] == 2  # NumPy numbers too
    assert m.path((0, 0), (5, 5), weight=2).shape[1] == 2
    with pytest.raises(tilenav.InvalidArgumentError, match="weight must be"):
        m.hierarchy(sector_size=4).path((0, 0), (5, 5), weight=0.5)
    with pytest.raises(TypeError, match="weight must be a number"):
        m.hierarchy(sector_size=4).path((0, 0), (5, 5), weight="2")


@pytest.mark.parametrize("bad, shown", [(-1.0, "-1.0"), (math.nan, "nan"), (math.inf, "inf"),
                                        (2e28, "1.99999[0-9]*e\\+28")])
def test_bad_extra_costs_name_the_layer_and_the_cell(m, bad, shown):
    extra = np.zeros((10, 10), dtype=np.float32)
    extra[3, 2] = bad
    rule = rf"extra must be >= 0 and <= 1e28 .*extra\[3, 2\] \(cell \(2, 3\)\) is {shown}"
    with pytest.raises(tilenav.InvalidArgumentError, match=rule):
        m.path((0, 0), (5, 5), extra=extra)
    with pytest.raises(tilenav.InvalidArgumentError, match=rule):
        m.nearest_path((0, 0), [(5, 5)], extra=extra)
    with pytest.raises(tilenav.InvalidArgumentError, match=rule):
        m.distances((5, 5), extra=extra)
    with pytest.raises(tilenav.InvalidArgumentError, match=rule):
        m.flow_field((5, 5), extra=extra)
    good = np.zeros((10, 10), dtype=np.float32)
    f = m.flow_field((5, 5), extra=good)
    good[3, 2] = bad  # edited in place, then announced
    with pytest.raises(tilenav.InvalidArgumentError, match=rule):
        f.update(extra_changed=(2, 3, 3, 4))


def test_field_update_takes_true_for_an_extra_layer_edited_anywhere(m):
    extra = np.zeros((10, 10), dtype=np.float32)
    f = m.flow_field((9, 9), extra=extra, los=False)
    extra[:, 4] = 50.0
    assert f.update() == 0  # not announced: the field cannot see it
    assert f.update(extra_changed=True) > 0
    assert np.array_equal(f.distances, m.flow_field((9, 9), extra=extra, los=False).distances)
    with pytest.raises(TypeError, match="extra_changed must be"):
        f.update(extra_changed=(0, 0, 1))


def test_map_construction_arguments(tmp_path):
    ones = np.ones((3, 3))
    for bad in (0, -5, (8, 0)):
        with pytest.raises(tilenav.InvalidArgumentError,
                           match=r"tile_size must be an integer in 1\.\.2\*\*31-1"):
            tilenav.Map.from_numpy(ones, tile_size=bad)
    for bad in (2.5, (8,), "8", (8, 8.5)):
        with pytest.raises(TypeError, match=r"tile_size must be an integer in 1\.\.2\*\*31-1"):
            tilenav.Map.from_numpy(ones, tile_size=bad)
    maze = data("data", "maps", "maze64.map")
    assert tilenav.Map.load(maze, tile_size=8).tile_size == (8, 8)  # an int, as from_numpy
    assert tilenav.Map.load(maze, tile_size=(8, 4)).tile_size == (8, 4)
    with pytest.raises(tilenav.InvalidArgumentError, match="tile_size"):
        tilenav.Map.load(maze, tile_size=0)
    with warnings.catch_warnings():  # the ValueError, without a NumPy overflow warning first
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"above 1e28, the largest finite cost .*1e\+300"):
            tilenav.Map.from_numpy([[1, 1e300]])
        with pytest.raises(ValueError, match="float32 cannot represent"):
            tilenav.Map.from_numpy([[1, 1e-300]])
    assert tilenav.Map.from_numpy([[1, 1e28, math.inf]]).costs[0, 1] == np.float32(1e28)


def test_messages_say_the_rule_the_value_broke(m):
    """An error's words agree with the value given (r_messages.py): a value past an upper
    limit names the limit, an odd type is a TypeError, a cell of NumPy integers past int32 is
    outside the map whatever mix of scalars holds it, and a cost float32 cannot hold raises
    without a NumPy warning first."""
    ones = np.ones((2, 2))
    for bad in (2**31, (8, 2**31), 2**40):
        with pytest.raises(tilenav.InvalidArgumentError,
                           match=r"tile_size must be an integer in 1\.\.2\*\*31-1 .*got \d+$"):
            tilenav.Map.from_numpy(ones, tile_size=bad)
    assert tilenav.Map.from_numpy(ones, tile_size=2**31 - 1).tile_size == (2**31 - 1,) * 2
    for bad in (2**63, 2**70):
        with pytest.raises(tilenav.InvalidArgumentError,
                           match=r"max_expansions must be an integer in 1\.\.2\*\*63-1"):
            m.path((0, 0), (4, 4), max_expansions=bad)
    assert m.path_result((0, 0), (4, 4), max_expansions=2**63 - 1).found
    with pytest.raises(tilenav.InvalidArgumentError, match=r"budget must be an integer in 1\.\."):
        m.hierarchy(sector_size=4).sector_field((1, 1), budget=2**63)
    with pytest.raises(tilenav.InvalidArgumentError, match=r"agent must be an integer in 0\.\."):
        tilenav.Crowd(m).remove(2**40)
    with pytest.raises(tilenav.InvalidArgumentError, match=r"steps must be an integer in 0\.\."):
        tilenav.Crowd(m).step(2**31)
    # cells: integer scalars that NumPy cannot give one integer dtype
    for cell in ((np.uint64(2**63), 0), (0, np.uint64(2**63)), [2**70, 0],
                 (np.uint64(2**63), np.int64(1))):
        with pytest.raises(tilenav.OutOfMapError, match="outside any map"):
            m.path((0, 0), cell)
        with pytest.raises(tilenav.OutOfMapError, match=r"goals\[1\] = .* is outside any map"):
            m.distances([(1, 1), cell])
    assert m.path((0, 0), (np.uint64(3), 2)).tolist()[-1] == [3, 2]
    assert m.distances([(np.uint64(3), 2), (1, np.int8(1))])[2, 3] == 0
    with pytest.raises(TypeError, match="floats are refused"):
        m.path((0, 0), (np.uint64(3), 2.0))
    # odd types
    for bad in (None, "abc", [["a"]], object()):
        with pytest.raises(TypeError, match="cost must be a bool, integer or float array"):
            tilenav.Map.from_numpy(bad)
    for bad in ("x", None, 1.5, True):
        with pytest.raises(TypeError, match="status must be an integer"):
            tilenav.status_string(bad)
    assert tilenav.status_string(np.int32(-1)) == tilenav.status_string(-1)
    assert tilenav.status_string(2**40) == tilenav.status_string(-999) == "unknown status"
    with pytest.raises(tilenav.InvalidArgumentError, match=r"max_flows must be an integer in 1"):
        tilenav.Crowd(m, max_flows=0)
    # float32's range, checked before the cast (no RuntimeWarning first)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for bad in (1e39, 3.4028235677973366e38, 1e300, 1.0001e28):
            with pytest.raises(ValueError, match="above 1e28, the largest finite cost"):
                m.set_cost((1, 1), bad)
        with pytest.raises(ValueError, match="not representable as float32"):
            m.set_cost((1, 1), 1e-46)
        m.set_cost((1, 1), 1e28)  # TN_MAX_COST, the largest finite cost
        assert m.costs[1, 1] == np.float32(1e28)
        m.set_cost((1, 1), math.inf)
        assert not m.passable[1, 1]


def test_moves_follows_the_integer_rule(m):
    """moves, like every integer argument, takes an int or a NumPy integer: 8.0 and 4.0 were
    accepted, and "8", None or True raised ValueError instead of TypeError."""
    calls = [lambda **k: m.path((0, 0), (5, 5), **k),
             lambda **k: m.path_result((0, 0), (5, 5), **k),
             lambda **k: m.paths([(0, 0)], [(5, 5)], **k),
             lambda **k: m.nearest_path((0, 0), [(5, 5)], **k),
             lambda **k: m.distances((5, 5), **k),
             lambda **k: m.flow_field((5, 5), **k),
             lambda **k: m.hierarchy(sector_size=4, **k)]
    for call in calls:
        for good in (8, 4, np.int64(8), np.uint8(4)):
            call(moves=good)
        for bad in (8.0, 4.0, np.float64(8), "8", None, True, np.bool_(True), [8]):
            with pytest.raises(TypeError, match="moves must be 4 or 8"):
                call(moves=bad)
        for bad in (6, 0, -8, np.int64(2**40)):
            with pytest.raises(tilenav.InvalidArgumentError, match="moves must be 4 or 8"):
                call(moves=bad)


def test_load_options_of_the_wrong_type_raise_type_errors():
    """collision_layers takes a str of comma-separated names; anything else raised
    AttributeError (from str.encode) before."""
    td = data("data", "maps", "td.tmj")
    for bad in (["walls", "collision"], ("walls",), 42, b"walls", 1.5):
        with pytest.raises(TypeError, match="collision_layers must be a str") as e:
            tilenav.Map.load(td, collision_layers=bad)
        if isinstance(bad, (list, tuple)):
            assert repr(",".join(bad)) in str(e.value)  # what to pass instead
    assert tilenav.Map.load(td, collision_layers="walls,collision").shape == \
        tilenav.Map.load(td).shape


def test_huge_coordinates_are_outside_the_map(m):
    for cell in ((2**40, 0), (0, -(2**40)), (2**31, 0)):
        with pytest.raises(tilenav.OutOfMapError, match="outside"):
            m.path(cell, (5, 5))
        with pytest.raises(tilenav.OutOfMapError, match="outside"):
            m.path((0, 0), cell)
        with pytest.raises(tilenav.OutOfMapError, match="outside"):
            m.distances([(5, 5), cell])
        with pytest.raises(tilenav.OutOfMapError, match="outside"):
            m.set_cost([cell], 0)
    # an int64 array must not wrap around into the map
    wrapped = np.array([[2**32 + 5, 5]], dtype=np.int64)
    with pytest.raises(tilenav.OutOfMapError, match=r"goals\[0\]"):
        m.nearest_path((0, 0), wrapped)
    with pytest.raises(tilenav.OutOfMapError):
        m.paths([(0, 0)], wrapped)
    with pytest.raises(tilenav.OutOfMapError):
        m.flow_field(np.array([2**33, 1], dtype=np.uint64))


def test_goal_errors_speak_of_goals():
    cost = np.ones((10, 10))
    cost[5, 5] = 0
    m = tilenav.Map.from_numpy(cost)
    with pytest.raises(tilenav.BlockedError, match="every goal is blocked") as e:
        m.distances([(5, 5)])
    assert "start" not in str(e.value)
    with pytest.raises(tilenav.BlockedError, match="every goal is blocked"):
        m.distances([(5, 5)], reverse=False)
    with pytest.raises(tilenav.OutOfMapError, match="every goal is outside"):
        m.distances([(50, 50)])
    with pytest.raises(tilenav.BlockedError, match="every goal is blocked"):
        m.nearest_path((0, 0), [(5, 5)])
    with pytest.raises(tilenav.OutOfMapError, match="every goal is outside"):
        m.nearest_path((0, 0), [(50, 50), (-1, 0)])
    r, i = m.nearest_path((0, 0), [(50, 50), (5, 5), (7, 7)])  # skipped while one is left
    assert i == 2 and r.found
    with pytest.raises(tilenav.BlockedError, match="for a 2x2 unit: it does not fit there"):
        m.flow_field((4, 4), size=2)
    with pytest.raises(tilenav.BlockedError, match="2x2 unit fits at none of the goals"):
        m.distances([(4, 4), (5, 4)], size=2)
    with pytest.raises(tilenav.UnsupportedError, match="los=False"):
        m.flow_field([(1, 1), (8, 8)])
    assert m.flow_field([(1, 1), (8, 8)], los=False).reachable_count > 0


def test_hierarchy_arguments(m):
    for kw, rule in ((dict(sector_size=0), r"sector_size must be an integer in 4\.\.256"),
                     (dict(sector_size=1), r"sector_size must be an integer in 4\.\.256"),
                     (dict(sector_size=100000), r"sector_size must be an integer in 4\.\.256"),
                     (dict(landmarks=17), r"landmarks must be an integer in 0\.\.16"),
                     (dict(portal_gap=-3), r"portal_gap must be an integer in 0\.\.sector_size"),
                     (dict(sector_size=8, portal_gap=9), r"portal_gap .*\(8;")):
        with pytest.raises(tilenav.InvalidArgumentError, match=rule):
            m.hierarchy(**kw)
    with pytest.raises(TypeError, match="sector_size must be an integer"):
        m.hierarchy(sector_size=2.5)
    hi = m.hierarchy(sector_size=4)
    with pytest.raises(ValueError, match="at most 64 goals, got 65"):
        hi.sector_field([(i % 10, i // 10) for i in range(65)])
    with pytest.raises(tilenav.InvalidArgumentError, match="budget"):
        hi.sector_field((1, 1), budget=0)


def test_crowd_arguments():
    cost = np.ones((10, 10))
    cost[5, 5] = 0
    m = tilenav.Map.from_numpy(cost)
    for kw, rule in ((dict(capacity=0), r"capacity must be an integer in 1\.\."),
                     (dict(capacity=10**10), r"capacity must be an integer in 1\.\."),
                     (dict(dt=0), "dt must be a finite number > 0"),
                     (dict(dt=math.nan), "dt must be a finite number > 0"),
                     (dict(neighbour_radius=-1), "neighbour_radius must be"),
                     (dict(max_neighbours=65), "max_neighbours"),
                     (dict(max_flows=-1), "max_flows"),
                     (dict(max_flows=0), r"max_flows must be an integer in 1\.\.")):
        with pytest.raises(tilenav.InvalidArgumentError, match=rule):
            tilenav.Crowd(m, **kw)
    with pytest.raises(TypeError, match="capacity must be an integer"):
        tilenav.Crowd(m, capacity=2.5)
    cr = tilenav.Crowd(m, capacity=2)
    for r in (0, -1, math.nan):
        with pytest.raises(ValueError, match="radius must be a finite number > 0"):
            cr.add((16, 16), radius=r)
    with pytest.raises(ValueError, match="max_speed must be"):
        cr.add((16, 16), max_speed=0)
    with pytest.raises(ValueError, match="pos must be finite"):
        cr.add((math.nan, 16))
    with pytest.raises(tilenav.InvalidArgumentError, match=r"clear of blocked cells"):
        cr.add((5.5 * 32, 5.5 * 32))
    with pytest.raises(ValueError, match=r"steps must be an integer in 0\.\.2\*\*31-1, got -1"):
        cr.step(-1)
    with pytest.raises(TypeError, match="steps must be an integer"):
        cr.step(2.5)
    cr.step(0)
    other = tilenav.Map.from_numpy(cost)  # the same shape, another map
    with pytest.raises(ValueError, match="another map"):
        cr.set_flow(0, other.flow_field((1, 1)))
    with pytest.raises(ValueError, match="another map"):
        cr.set_flow(0, other.hierarchy(sector_size=4).sector_field((1, 1)))
    with pytest.raises(TypeError, match="field must be a FlowField"):
        cr.set_flow(0, "x")
    cr.set_flow(0, m.flow_field((1, 1)))
    a = cr.add((16, 16), target="flow", flow=0)
    cr.add((80, 16))
    with pytest.raises(tilenav.StateError, match="capacity 2 reached"):
        cr.add((80, 80))
    with pytest.raises(TypeError, match="agent must be an integer"):
        cr.remove("1")
    cr.remove(a)


def test_edit_values(m):
    for bad in ("2", None, [2.0], np.array([2.0, 3.0])):
        with pytest.raises(TypeError, match="cost must be a number"):
            m.set_cost((0, 0), bad)
    m.set_cost((0, 0), np.float32(2.5))
    assert m.costs[0, 0] == 2.5


def test_pickle_and_copy_a_map():
    import copy
    import pickle

    cost = np.ones((6, 7))
    cost[2, 1:5] = 0
    cost[4, 4] = 2.5
    m = tilenav.Map.from_numpy(cost, tile_size=(8, 16))
    for other in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m), copy.copy(m), m.copy()):
        assert other is not m and other.tile_size == (8, 16)
        assert np.array_equal(other.costs, m.costs) and np.array_equal(other.passable, m.passable)
        assert other.path_result((0, 0), (6, 5)).cost == m.path_result((0, 0), (6, 5)).cost
        other.set_cost((0, 5), 0)  # independent maps
        assert m.passable[5, 0] and not other.passable[5, 0]
    loaded = tilenav.Map.load(data("data", "maps", "td.tmj"))
    with pytest.raises(TypeError, match=r"cannot be pickled.*Map\.load\(\).*Map\.copy\(\)"):
        pickle.dumps(loaded)
    twin = copy.deepcopy(loaded)  # a copy within the process keeps the layers
    assert twin.layers == loaded.layers and np.array_equal(twin.passable, loaded.passable)
    hi = m.hierarchy(sector_size=4)
    for obj, hint in ((m.flow_field((0, 0)), r"Map\.flow_field"), (hi, r"Map\.hierarchy"),
                      (hi.sector_field((0, 0)), r"Hierarchy\.sector_field"),
                      (m.regions(), r"Map\.regions"), (tilenav.Crowd(m), "Crowd")):
        with pytest.raises(TypeError, match=f"cannot be pickled or copied.*{hint}"):
            pickle.dumps(obj)
        with pytest.raises(TypeError, match="cannot be pickled or copied"):
            copy.deepcopy(obj)


def test_objects_built_on_a_map_need_one(m):
    for make, who, what in ((lambda x: tilenav.Crowd(x), "Crowd", "Map"),
                            (lambda x: tilenav.FlowField(x, (0, 0)), "FlowField", "Map"),
                            (lambda x: tilenav.Hierarchy(x), "Hierarchy", "Map"),
                            (lambda x: tilenav.Regions(x, None, "never"), "Regions", "Map"),
                            (lambda x: tilenav.SectorField(x, (0, 0)), "SectorField",
                             "Hierarchy")):
        for bad in (None, "map", m.costs):
            with pytest.raises(TypeError, match=f"^{who} needs a {what}, got "):
                make(bad)
    with pytest.raises(TypeError, match="SectorField needs a Hierarchy, got Map"):
        tilenav.SectorField(m, (0, 0))


def test_cells_are_integers_in_every_call(m):
    """One rule for every argument that is a cell or cells: Python ints or NumPy integers;
    floats, even whole ones, are refused with TypeError (path() once took them, paths() and
    distances() did not)."""
    hi = m.hierarchy(sector_size=4)
    sf = hi.sector_field((9, 9))
    f = m.flow_field((9, 9))
    rg = m.regions()
    calls = {
        "start": [lambda p: m.path(p, (5, 5)), lambda p: m.path_result(p, (5, 5)),
                  lambda p: m.nearest_path(p, [(5, 5)]), lambda p: f.path(p),
                  lambda p: hi.path(p, (5, 5)), lambda p: sf.path(p)],
        "goal": [lambda p: m.path((0, 0), p), lambda p: m.flow_field(p),
                 lambda p: hi.sector_field(p), lambda p: sf.set_goal(p)],
        "starts": [lambda p: m.paths(p, [(5, 5)])],
        "goals": [lambda p: m.paths([(0, 0)], p), lambda p: m.distances(p),
                  lambda p: m.nearest_path((0, 0), p)],
        "cell": [lambda p: m.fits(p, 1), lambda p: m.tile("cost", p), lambda p: rg.id(p),
                 lambda p: sf.direction(p)],
        "a": [lambda p: m.line_of_sight(p, (5, 5)), lambda p: rg.connected(p, (5, 5))],
        "cells": [lambda p: m.smooth_path(p), lambda p: tilenav.compress_path(p),
                  lambda p: m.set_cost(p, 2)],  # last: the edit stales the sector field
    }
    floats = ((1.0, 1.0), np.array([1.0, 1.0]), (np.float64(1), 1), [(1.0, 1.0)],
              np.array([[1.0, 1.0]]), (True, True), np.array([True, False]))
    for name, fns in calls.items():
        for fn in fns:
            for bad in floats:
                if name in ("start", "goal", "cell", "a") and isinstance(bad, list):
                    continue  # a list of one pair is no pair: also a TypeError, other words
                with pytest.raises(TypeError, match=rf"^{name} must be an \(x, y\) pair.* of "
                                                    r"integers .*floats are refused"):
                    fn(bad)
            for good in ((1, 1), (np.int64(1), np.uint8(1)), np.array([1, 1], np.int16),
                         np.array([[1, 1]], np.uint32)):
                if name in ("start", "goal", "cell", "a") and np.ndim(good) == 2:
                    continue
                fn(good)


def test_boolean_options_take_only_booleans(m):
    """A string such as "no" used to count as true."""
    hi = m.hierarchy(sector_size=4)
    calls = {
        "los": lambda v: m.flow_field((5, 5), los=v),
        "reverse": lambda v: m.distances((5, 5), reverse=v),
        "regions": lambda v: m.path((0, 0), (5, 5), regions=v),
        "closest": lambda v: m.nearest_path((0, 0), [(5, 5)], closest=v),
        "exact": lambda v: hi.path((0, 0), (5, 5), exact=v),
        "push_apart": lambda v: tilenav.Crowd(m, push_apart=v),
    }
    for name, call in calls.items():
        for bad in ("yes", "no", 1, 0, None, 1.0):
            with pytest.raises(TypeError, match=f"{name} must be True or False, got"):
                call(bad)
        call(True)
        call(np.bool_(False))
    with pytest.raises(TypeError, match="exact must be True or False"):
        tilenav.broadphase(np.zeros((2, 2)), 1.0, exact="no")


def test_field_sample_takes_finite_pixel_positions(m):
    f = m.flow_field((9, 9))
    for bad in (math.nan, math.inf, -math.inf, 1e300):  # 1e300: inf as float32
        with pytest.raises(ValueError, match="px must be a finite pixel position"):
            f.sample(bad, 16)
        with pytest.raises(ValueError, match="py must be a finite pixel position"):
            f.sample(16, bad)
    with pytest.raises(TypeError, match="px must be a number"):
        f.sample("16", 16)
    # outside the map: the zero vector, as documented
    for px, py in ((1e30, -1e30), (-1, 16), (16, 10 * 32), (3e38, 3e38)):
        assert f.sample(px, py) == (0.0, 0.0)
    assert f.sample(np.float32(16), np.int64(16)) != (0.0, 0.0)


def test_cells_outside_the_map_answer_or_raise_as_documented(m):
    """Calls that answer about a cell (line of sight, fits, tile, region) give False, 0 or -1
    outside the map; calls that search from or to it raise OutOfMapError."""
    out = (10, 3)
    rg = m.regions()
    assert m.line_of_sight((0, 0), out) is False and m.fits(out, 1) is False
    assert m.fits(out, 2) is False and m.tile("cost", out) == 0
    assert rg.id(out) == -1 and rg.connected((0, 0), out) is False
    hi = m.hierarchy(sector_size=4)
    for call in (lambda: m.path(out, (0, 0)), lambda: m.path_result((0, 0), out),
                 lambda: m.flow_field((0, 0)).path(out), lambda: hi.path(out, (0, 0)),
                 lambda: hi.sector_field((0, 0)).direction(out),
                 lambda: m.set_cost([out], 2), lambda: m.distances([out])):
        with pytest.raises(tilenav.OutOfMapError):
            call()
    # a query from outside names the start, not the goals
    with pytest.raises(tilenav.OutOfMapError, match=r"the start \(10, 3\) is outside the"):
        m.nearest_path(out, [(0, 0)])
    with pytest.raises(tilenav.OutOfMapError, match=r"the goal \(10, 3\) is outside the"):
        m.path((0, 0), out)
    with pytest.raises(tilenav.OutOfMapError, match=r"the start \(10, 3\) is outside the"):
        m.path_result(out, (0, 0))


def test_integers_past_a_float_are_refused_as_values(m):
    """A Python int too large for a double raised OverflowError from float(); it is a value
    out of range like any other (a stranger's test)."""
    huge = 10**400
    f = m.flow_field((0, 0))
    for call in (lambda: f.sample(huge, 0), lambda: m.path((0, 0), (5, 5), weight=huge),
                 lambda: m.set_cost((0, 0), huge), lambda: tilenav.Crowd(m, dt=huge),
                 lambda: tilenav.Crowd(m).add((huge, 0))):
        with pytest.raises(ValueError, match="too large for a float|beyond|past|finite"):
            call()


def test_paths_with_a_null_byte_are_refused(tmp_path):
    """C would stop reading the path at the NUL and load another file."""
    src = data("tests", "data", "movingai", "tiny.map")
    with pytest.raises(tilenav.InvalidArgumentError, match="embedded null byte"):
        tilenav.Map.load(str(src) + "\0.tmx")
    with pytest.raises(tilenav.InvalidArgumentError, match="embedded null byte"):
        tilenav.Scenarios(str(src) + ".scen\0junk")


def test_the_largest_cost_is_the_c_librarys():
    """Python checks costs against TN_MAX_COST before C does; the two must agree."""
    import re

    from tilenav import _common

    base = open(data("include", "tilenav", "base.h")).read()
    value = float(re.search(r"#define TN_MAX_COST ([0-9.e+]+)f", base).group(1))
    assert _common.MAX_COST == value


def test_a_blocked_goal_among_several_is_named():
    """A field takes no blocked goal; the error said every goal was blocked (a stranger)."""
    cost = np.ones((5, 5))
    cost[4, 4] = 0
    m = tilenav.Map.from_numpy(cost)
    assert m.distances(np.array([(0, 0), (4, 4)]))[0, 0] == 0  # distances() skips it
    with pytest.raises(tilenav.BlockedError, match=r"goal 1, \(4, 4\), is blocked"):
        m.flow_field(np.array([(0, 0), (4, 4)]), los=False)
    with pytest.raises(tilenav.BlockedError, match=r"goal 1, \(4, 4\), is blocked"):
        m.hierarchy(sector_size=4).sector_field((0, 0)).set_goal(np.array([(0, 0), (4, 4)]))
    f = m.flow_field((0, 0))
    with pytest.raises(ValueError, match="x0 <= x1"):
        f.update(extra_changed=(3, 3, 2, 2))
    crowd = tilenav.Crowd(m)
    a = crowd.add((16, 16))
    with pytest.raises(ValueError, match="vel must be finite as float32"):
        crowd.set_velocity(a, (1e40, 0))


def test_a_box_past_a_double_by_its_radius_names_the_limit():
    for kind in ("grid", "hash"):
        with pytest.raises(tilenav.InvalidArgumentError, match="finite doubles") as e:
            tilenav.broadphase(np.array([[0.0, 0], [5, 0], [1e3, 1e3]]),
                               np.array([1e308, 1, 1]), kind=kind)
        assert e.value.status == -3  # TN_E_TOO_LARGE, as for positions that span too far


def test_loader_errors_say_where_in_attributes(tmp_path):
    """The docs promised the file, line and reason of a load error; only the message had
    them. Now every loader error carries file, line, column, where and reason (None on the
    errors of other calls), and they survive pickling."""
    import pickle
    bad = tmp_path / "bad.map"
    bad.write_text("type octile\nheight 2\nwidth 2\nmap\n.X\n..\n")
    with pytest.raises(tilenav.ParseError) as e:
        tilenav.Map.load(bad)
    err = e.value
    assert (err.file, err.line, err.column, err.where) == (str(bad), 5, 2, "")
    assert err.reason == "unknown terrain letter 'X'"
    back = pickle.loads(pickle.dumps(err))
    assert (back.file, back.line, back.reason) == (err.file, err.line, err.reason)
    js = tmp_path / "bad.tmj"
    js.write_text('{"width": 2, "height": 1, "tilewidth": 8, "tileheight": 8, "layers": '
                  '[{"type": "tilelayer", "width": 2, "height": 1, "data": [0, "x"]}]}')
    with pytest.raises(tilenav.ParseError) as e:
        tilenav.Map.load(js)
    assert e.value.file == str(js) and e.value.where.startswith("layers[0].data")
    assert e.value.reason and e.value.reason in str(e.value)
    with pytest.raises(tilenav.LoadIOError) as e:
        tilenav.Map.load(tmp_path / "missing.tmj")
    assert e.value.file == str(tmp_path / "missing.tmj") and e.value.reason
    assert e.value.errno is None and e.value.filename is None  # see `file`, `reason`
    scen = tmp_path / "bad.scen"
    scen.write_text("version 1\n0\tm.map\t4\t4\t0\t0\tx\t1\t1.0\n")
    with pytest.raises(tilenav.ParseError) as e:
        tilenav.Scenarios(scen)
    assert e.value.file == str(scen) and e.value.line == 2
    with pytest.raises(tilenav.OutOfMapError) as e:
        tilenav.Map.from_numpy(np.ones((3, 3))).path((0, 0), (9, 9))
    assert (e.value.file, e.value.line, e.value.reason) == (None, None, None)


def test_named_options_of_the_wrong_type_raise_type_errors(m):
    """A str option given a number or None raised ValueError, where every other option of
    the wrong type raises TypeError; Map.load's message named no argument."""
    cases = [
        ("algo", lambda v: m.path((0, 0), (5, 5), algo=v)),
        ("heuristic", lambda v: m.path((0, 0), (5, 5), heuristic=v)),
        ("corner", lambda v: m.path((0, 0), (5, 5), corner=v)),
        ("step_costs", lambda v: m.path((0, 0), (5, 5), step_costs=v)),
        ("flow", lambda v: m.flow_field((5, 5), flow=v)),
        ("corner", lambda v: m.regions(corner=v)),
        ("kind", lambda v: tilenav.broadphase(np.zeros((2, 2)), 1.0, kind=v)),
        ("combine", lambda v: tilenav.Crowd(m, combine=v)),
        ("target", lambda v: tilenav.Crowd(m).add((16, 16), target=v)),
        ("behaviour", lambda v: tilenav.Crowd(m).set_weight(
            tilenav.Crowd(m).add((16, 16)), v, 1.0)),
        ("format", lambda v: tilenav.Map.load(data("data", "maps", "td.tmj"), format=v)),
        ("cover", lambda v: tilenav.Map.load(data("data", "maps", "td.tmj"), cover=v)),
        ("collision", lambda v: tilenav.Map.load(data("data", "maps", "td.tmj"), collision=v)),
    ]
    for name, call in cases:
        for bad in (3, 1.5, b"jps", ["jps"]) + ((None,) if name != "target" else ()):
            if name == "collision" and isinstance(bad, list):
                continue  # a list of names is what collision takes
            with pytest.raises(TypeError, match=rf"^{name} must be "):
                call(bad)
        with pytest.raises(ValueError, match=rf"^{name} must be .*, got 'nope'"):
            call("nope")


def test_a_tile_size_the_map_overrides_warns():
    """tile_size is for formats without one; on a Tiled map it was dropped in silence."""
    td = data("data", "maps", "td.tmj")
    size = tilenav.Map.load(td).tile_size
    with pytest.warns(UserWarning, match=r"tile_size \(8, 8\) is for formats without a tile"):
        assert tilenav.Map.load(td, tile_size=8).tile_size == size
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tilenav.Map.load(td, tile_size=size).tile_size == size  # the same: no warning
        assert tilenav.Map.load(data("data", "maps", "maze64.map"), tile_size=8).tile_size \
            == (8, 8)


def test_objects_show_what_they_are():
    m = tilenav.Map.from_numpy(np.ones((8, 10)))
    f = m.flow_field((3, 4))
    assert repr(f) == "FlowField(10x8, goals=[[3, 4]], size=1)"
    assert repr(m.flow_field([(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)], los=False)) == \
        "FlowField(10x8, goals=<5 cells>, size=1)"
    cr = tilenav.Crowd(m, capacity=16)
    cr.add((16, 16))
    assert repr(cr) == "Crowd(agents=1, capacity=16, steps=0)"
    h = m.hierarchy(sector_size=4)
    assert repr(h) == "Hierarchy(10x8, sector_size=4, size=1)"
    assert repr(h.sector_field((1, 1))) == "SectorField(goals=[[1, 1]], size=1)"
    f.close()
    cr.close()
    assert (repr(f), repr(cr)) == ("FlowField(closed)", "Crowd(closed)")
