"""The crowd's tuning knobs (tn_crowd_def): each reaches the C crowd, bad values are refused."""

import numpy as np
import pytest

import tilenav

TILE = 32


def open_room(n=40):
    cost = np.ones((n, n))
    cost[0, :] = cost[-1, :] = cost[:, 0] = cost[:, -1] = 0
    return tilenav.Map.from_numpy(cost, tile_size=TILE)


def flock_hash(steps=120, agents=60, **options):
    """A packed flock seeking one point, with wander on: every knob has something to change."""
    m = open_room()
    rng = np.random.default_rng(7)
    with tilenav.Crowd(m, capacity=agents, seed=3, **options) as crowd:
        for _ in range(agents):
            x, y = rng.uniform(8 * TILE, 14 * TILE, size=2)
            # two goals 40 px apart: similar_goal_distance decides whether they flock
            goal = (30 * TILE + 40 * (len(crowd.ids) % 2), 20 * TILE)
            crowd.add((float(x), float(y)), target="seek", target_pos=goal,
                      weights={"wander": 0.5})
        crowd.step(steps)
        return crowd.hash


def wanderer_path(**options):
    """One agent that only wanders, from rest: its positions over 90 steps."""
    m = open_room()
    with tilenav.Crowd(m, capacity=1, seed=5, **options) as crowd:
        crowd.add((10 * TILE, 20 * TILE),
                  weights={"target": 0, "separation": 0, "cohesion": 0, "alignment": 0,
                           "avoid_agents": 0, "avoid_walls": 0, "wander": 1})
        out = []
        for _ in range(90):
            crowd.step()
            out.append(np.array(crowd.positions[0], dtype=np.float64))
        return np.array(out)


DEFAULTS = dict(max_neighbours=16, max_scan=64, dense_neighbours=10, similar_goal_distance=64.0,
                avoid_look_ahead=0.5, wall_look_ahead=0.0, wander_distance=24.0,
                wander_radius=12.0, wander_jitter=0.5, combine="weighted", flock_brake=0.0,
                periods={"target": 1, "separation": 1, "cohesion": 1, "alignment": 1,
                         "avoid_agents": 1, "avoid_walls": 1, "wander": 1})


def test_the_defaults_are_the_c_defaults():
    assert flock_hash(**DEFAULTS) == flock_hash()


@pytest.mark.parametrize("option", [
    {"max_scan": 2},
    {"dense_neighbours": 2},
    {"similar_goal_distance": 0.0},
    {"avoid_look_ahead": 3.0},
    {"wander_distance": 80.0},
    {"wander_radius": 40.0},
    {"wander_jitter": 2.0},
    {"periods": {"separation": 3}},
    {"periods": {"wander": 4}},
    {"combine": "prioritized"},
    {"flock_brake": 1.0},
    {"max_neighbours": 2},
])
def test_each_knob_changes_the_run(option):
    assert flock_hash(**option) != flock_hash()


def test_wander_circle_reaches_the_crowd():
    base = wanderer_path()
    # it wanders: its heading turns, so it leaves the row it started on
    assert np.ptp(base[:, 1]) > 1.0
    # no circle, or no jitter (the angle stays 0): it walks straight ahead along +x
    for straight in (wanderer_path(wander_radius=0.0), wanderer_path(wander_jitter=0.0)):
        assert np.all(straight[:, 1] == straight[0, 1])
        assert np.all(np.diff(straight[:, 0]) > 0)


def test_wall_look_ahead_reaches_the_crowd():
    # an agent driving along a wall, its centre half a tile from it: the side feelers (30
    # degrees off, 0.7 of the length) of a 3-tile feeler reach the wall, one tile's do not
    def run(feeler):
        m = open_room()
        with tilenav.Crowd(m, capacity=1, seed=1, wall_look_ahead=feeler) as crowd:
            crowd.add((5 * TILE, 1.5 * TILE), vel=(120.0, 0.0), target="seek",
                      target_pos=(35 * TILE, 1.5 * TILE))
            out = []
            for _ in range(120):
                crowd.step()
                out.append(np.array(crowd.positions[0], dtype=np.float64))
            return np.array(out)
    assert not np.array_equal(run(96.0), run(0.0))
    assert np.array_equal(run(32.0), run(0.0))  # 0 is one tile


@pytest.mark.parametrize("option, error", [
    ({"max_scan": -1}, ValueError),
    ({"dense_neighbours": -1}, ValueError),
    ({"similar_goal_distance": -1.0}, ValueError),
    ({"avoid_look_ahead": 0.0}, ValueError),
    ({"avoid_look_ahead": float("inf")}, ValueError),
    ({"wall_look_ahead": float("nan")}, ValueError),
    ({"wander_radius": float("inf")}, ValueError),
    ({"wander_jitter": 1e39}, ValueError),
    ({"periods": {"separation": 0}}, ValueError),
    ({"periods": {"separation": 1025}}, ValueError),
    ({"periods": {"flying": 2}}, ValueError),
    ({"periods": [("separation", 2)]}, TypeError),
    ({"combine": "sum"}, ValueError),
    ({"flock_brake": 1.5}, ValueError),
    ({"flock_brake": -0.1}, ValueError),
    ({"flock_brake": "0"}, TypeError),
    ({"max_scan": 1.5}, TypeError),
])
def test_bad_values_are_refused(option, error):
    with pytest.raises(error) as info:
        tilenav.Crowd(open_room(), **option)
    assert list(option)[0] in str(info.value)


# tests/test_crowd.c TUNED_HASH: every knob away from its default, each to its own value
TUNED_HASH = 0x40E76F866A1256BF


def test_tuned_crowd_gives_the_c_librarys_bits():
    """The crowd of tests/test_crowd.c test_tuned_crowd_hash and web/test/api.test.mjs: a knob
    dropped or two swapped on the way to the C crowd changes the hash."""
    rows = ["#" * 16] + ["#" + "." * 14 + "#"] * 10 + ["#" * 16]
    cost = np.array([[0.0 if ch == "#" else 1.0 for ch in row] for row in rows])
    m = tilenav.Map.from_numpy(cost, tile_size=TILE)
    with tilenav.Crowd(m, capacity=16, seed=9, max_neighbours=4, max_scan=7, dense_neighbours=3,
                       similar_goal_distance=40.0, avoid_look_ahead=0.75, wall_look_ahead=48.0,
                       wander_distance=30.0, wander_radius=20.0, wander_jitter=0.25,
                       periods={"separation": 2, "cohesion": 3, "wander": 5},
                       combine="prioritized", flock_brake=0.5) as crowd:
        for i in range(12):
            crowd.add(((2 + (i % 6) * 2) * 32 + 16, (2 + (i // 6) * 4) * 32 + 16),
                      weights={"wander": 1}, target="seek",
                      target_pos=(400.0 if i % 2 else 100.0, 200.0))
        crowd.step(600)
        assert crowd.hash == TUNED_HASH, hex(crowd.hash)
