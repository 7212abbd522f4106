"""Crowds that arrive: the arrived and held flags, the goal area, behaviour weights."""

import numpy as np
import pytest

import tilenav

TILE = 32


def room(n=24, inner_wall=True):
    """A walled n x n room of 32 px tiles, with a wall across part of it."""
    cost = np.ones((n, n))
    cost[0, :] = cost[-1, :] = cost[:, 0] = cost[:, -1] = 0
    if inner_wall:
        cost[6, 6:18] = 0
    return tilenav.Map.from_numpy(cost, tile_size=TILE)


def centre(cell):
    return (cell[0] * TILE + TILE / 2, cell[1] * TILE + TILE / 2)


def spread(m, count, seed):
    """`count` cell centres of open cells, drawn without repeats."""
    rng = np.random.default_rng(seed)
    open_cells = np.argwhere(m.passable)  # (y, x)
    pick = rng.choice(len(open_cells), size=count, replace=False)
    return [centre((int(x), int(y))) for y, x in open_cells[pick]]


def test_arrived_is_set_within_arrive_radius_and_cleared_by_set_target():
    m = room(inner_wall=False)  # a straight line to the goal: seek needs no path
    goal = centre((12, 12))
    with tilenav.Crowd(m, capacity=16, seed=1) as crowd:
        ids = [crowd.add(p, target="seek", target_pos=goal, arrive_radius=20.0,
                         weights={"separation": 0, "cohesion": 0, "alignment": 0,
                                  "avoid_agents": 0})
               for p in spread(m, 6, 2)]
        ever = dict.fromkeys(ids, False)
        for _ in range(600):
            crowd.step()
            pos = crowd.positions.astype(np.float64)
            dist = np.hypot(pos[:, 0] - goal[0], pos[:, 1] - goal[1])
            for k, agent in enumerate(crowd.ids.tolist()):
                # the flag is the step's own test (float32 there): sticky once set
                if dist[k] <= 20.0 - 1e-3:
                    assert crowd.arrived[k]
                if not ever[agent] and crowd.arrived[k]:
                    assert dist[k] <= 20.0 + 1e-3
                ever[agent] = ever[agent] or bool(crowd.arrived[k])
        assert crowd.arrived.all() and not crowd.held.any()
        assert crowd.arrived.dtype == np.bool_ and not crowd.arrived.flags.writeable
        crowd.set_target(ids[0], "seek", centre((3, 20)))
        row = crowd.ids.tolist().index(ids[0])
        assert not crowd.arrived[row] and crowd.arrived.sum() == 5


def run_room(area, steps=1500, agents=80):
    """`agents` agents going to the room's centre (flow field, push-apart on) and staying;
    returns (arrived, held, distances to the goal) after `steps`."""
    m = room()
    f = m.flow_field((12, 12), los=False)
    goal = np.array(centre((12, 12)))
    with tilenav.Crowd(m, capacity=agents, seed=7, push_apart=True) as crowd:
        crowd.set_flow(0, f)
        for p in spread(m, agents, 9):
            crowd.add(p, target="flow", flow=0, arrive_area=area)
        crowd.step(steps)
        assert crowd.max_wall_overlap == 0
        pos = crowd.positions.astype(np.float64)
        return (crowd.arrived.copy(), crowd.held.copy(),
                np.hypot(pos[:, 0] - goal[0], pos[:, 1] - goal[1]))


def test_a_goal_area_lets_a_crowd_that_stays_arrive():
    arrived, held, dist = run_room(area=160.0)
    assert arrived.all()  # every member arrives, most of them held around the first ones
    assert (held <= arrived).all() and held.sum() > len(held) // 2
    assert (~held).sum() >= 1  # the first arrive within arrive_radius (8 px by default)
    # held agents were inside the area when held; they hold their place after
    assert dist[held].max() <= 160.0 + 8.0
    # without the area the packed goal keeps most of them out
    arrived0, held0, _ = run_room(area=0.0)
    assert not held0.any() and arrived0.sum() < len(arrived0) - 10


def test_behaviour_weights_reach_the_agents():
    m = room()

    def wanderer(**kw):
        crowd = tilenav.Crowd(m, capacity=4, seed=5)
        agent = crowd.add(centre((12, 16)), **kw)
        return crowd, agent

    still, _ = wanderer()  # no target, wander's weight is 0 by default: nothing moves
    still.step(60)
    assert np.allclose(still.velocities, 0)
    moving, _ = wanderer(weights={"wander": 1.0})
    moving.step(60)
    assert np.hypot(*moving.velocities[0]) > 1
    later, agent = wanderer()
    later.set_weight(agent, "wander", 1.0)  # the same weight set after add: the same run
    later.step(60)
    assert later.hash == moving.hash
    assert np.array_equal(later.positions, moving.positions)
    for c in (still, moving, later):
        c.close()


def test_arrive_and_weight_arguments_are_checked():
    m = room()
    with tilenav.Crowd(m, capacity=4) as crowd:
        p = centre((3, 3))
        with pytest.raises(ValueError, match="weights: unknown behaviour 'flocking'"):
            crowd.add(p, weights={"flocking": 1})
        with pytest.raises(tilenav.InvalidArgumentError, match=r"from -1e\+06 to 1e\+06"):
            crowd.add(p, weights={"target": 1e36})  # past TN_CROWD_MAX_WEIGHT: NaN forces
        for name, limit in (("max_speed", 1e9), ("max_force", 1e12)):
            crowd.remove(crowd.add(p, **{name: limit}))  # the limit itself is taken
            with pytest.raises(tilenav.InvalidArgumentError, match=name):
                crowd.add(p, **{name: limit * 1.001})
        with pytest.raises(tilenav.InvalidArgumentError, match=r"weights\['wander'\]"):
            crowd.add(p, weights={"wander": float("nan")})
        with pytest.raises(tilenav.InvalidArgumentError, match="weights"):
            crowd.add(p, weights={"target": 1e39})  # past float32
        with pytest.raises(TypeError, match=r"weights\['wander'\] must be a number from"):
            crowd.add(p, weights={"wander": "8"})
        with pytest.raises(TypeError, match="mapping of behaviour names"):
            crowd.add(p, weights=[("wander", 1)])
        for name in ("slow_radius", "arrive_radius", "arrive_area"):
            with pytest.raises(tilenav.InvalidArgumentError, match=name):
                crowd.add(p, **{name: -1.0})
            with pytest.raises(tilenav.InvalidArgumentError, match=name):
                crowd.add(p, **{name: float("inf")})
            with pytest.raises(TypeError, match=name):
                crowd.add(p, **{name: "8"})
        assert len(crowd) == 0  # nothing refused was added
        agent = crowd.add(p, weights={"wander": -0.5}, arrive_area=0)
        with pytest.raises(ValueError, match="behaviour must be one of"):
            crowd.set_weight(agent, "Wander", 1.0)
        with pytest.raises(tilenav.InvalidArgumentError, match="weight"):
            crowd.set_weight(agent, "wander", float("inf"))
        crowd.remove(agent)
        with pytest.raises(tilenav.StaleIdError):
            crowd.set_weight(agent, "wander", 1.0)


def test_wanderers_give_the_c_librarys_bits():
    """The crowd of tests/test_crowd.c test_wanderers_hash and web/test/api.test.mjs: its wander
    uses tilenav's own sine and cosine, so every build and binding gives the same hash."""
    cost = np.ones((12, 16))
    cost[0, :] = cost[-1, :] = cost[:, 0] = cost[:, -1] = 0
    m = tilenav.Map.from_numpy(cost, tile_size=TILE)
    with tilenav.Crowd(m, capacity=16, seed=7) as crowd:
        for i in range(12):
            crowd.add(((2 + (i % 6) * 2) * 32 + 16, (2 + (i // 6) * 4) * 32 + 16),
                      weights={"wander": 1.0})
        crowd.step(600)
        assert crowd.hash == 0xDFB80F110B34FAA0
