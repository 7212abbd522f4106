"""Crowds of steering agents."""

from __future__ import annotations

import math
import threading
import time
from contextlib import ExitStack
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterator, Mapping, Optional, Sequence,
                    Tuple, Union)

import numpy as np
from numpy.typing import NDArray

from . import _common as c
from ._errors import InvalidArgumentError, check, invalid
from ._tilenav import ffi, lib

if TYPE_CHECKING:
    from ._field import FlowField
    from ._hierarchy import SectorField
    from ._map import Map

TARGETS = {
    None: lib.TN_TARGET_NONE,
    "none": lib.TN_TARGET_NONE,
    "seek": lib.TN_TARGET_SEEK,
    "arrive": lib.TN_TARGET_ARRIVE,
    "flee": lib.TN_TARGET_FLEE,
    "flow": lib.TN_TARGET_FLOW,
}


# the behaviours whose weights add() and set_weight() take (tn_behaviour's order)
BEHAVIOURS = {
    "target": lib.TN_BEHAVIOUR_TARGET,
    "separation": lib.TN_BEHAVIOUR_SEPARATION,
    "cohesion": lib.TN_BEHAVIOUR_COHESION,
    "alignment": lib.TN_BEHAVIOUR_ALIGNMENT,
    "avoid_agents": lib.TN_BEHAVIOUR_AVOID_AGENTS,
    "avoid_walls": lib.TN_BEHAVIOUR_AVOID_WALLS,
    "wander": lib.TN_BEHAVIOUR_WANDER,
}


def _behaviour(name: Any) -> int:
    return int(c.choice(BEHAVIOURS, name, "behaviour",
                        f"one of {', '.join(map(repr, BEHAVIOURS))}"))


def _by_behaviour(mapping: Any, what: str,
                  values: str) -> Iterator[Tuple[int, str, Any]]:
    """(behaviour number, name, value) for each entry of a {behaviour name: value} mapping
    (add()'s weights, Crowd()'s periods): TypeError when it is not a mapping, ValueError naming
    an unknown behaviour."""
    if not isinstance(mapping, Mapping):
        raise TypeError(f"{what} must be a mapping of behaviour names to {values}, got "
                        f"{type(mapping).__name__}")
    for name, value in mapping.items():
        if name not in BEHAVIOURS:
            raise ValueError(f"{what}: unknown behaviour {name!r} (one of "
                             f"{', '.join(repr(k) for k in BEHAVIOURS)})")
        yield int(BEHAVIOURS[name]), name, value


def _weight(value: Any, name: str) -> float:
    """A behaviour weight: a number at most TN_CROWD_MAX_WEIGHT in size (negative turns the
    force around)."""
    limit = float(lib.TN_CROWD_MAX_WEIGHT)
    rule = f"from {-limit:g} to {limit:g}"
    w = c.number(value, name, rule)
    if not abs(w) <= limit:
        raise invalid(f"{name} must be a number {rule}, got {value!r}")
    return w


def _limited(value: Any, name: str, limit: float) -> float:
    """A number > 0 and at most ``limit`` (max_speed, max_force)."""
    rule = f"> 0 and <= {limit:.6g}"
    v = c.number(value, name, rule)
    # as the C library sees it: the float32 nearest (1e12 is 999999995904 there)
    if not (0.0 < v <= 2 * limit and float(np.float32(v)) <= limit):
        raise invalid(f"{name} must be a number {rule}, got {value!r}")
    return v


def _radius(value: Any, name: str) -> float:
    """A distance in pixels: a number >= 0, finite as float32."""
    r = c.number(value, name, ">= 0 (pixels)")
    if not (math.isfinite(r) and 0.0 <= r <= c.FLOAT32_MAX):
        raise invalid(f"{name} must be a finite number >= 0 (pixels), got {value!r}")
    return r


def _finite(value: Any, name: str) -> float:
    """A number finite as float32."""
    v = c.number(value, name, "")
    if not (math.isfinite(v) and abs(v) <= c.FLOAT32_MAX):
        raise invalid(f"{name} must be a finite number, got {value!r}")
    return v


def _finite_positive(value: Any, name: str) -> float:
    """A number > 0, finite as float32."""
    v = c.positive(value, name)
    if not v <= c.FLOAT32_MAX:
        raise invalid(f"{name} must be a finite number > 0, got {value!r}")
    return v


COMBINE = {"weighted": lib.TN_COMBINE_WEIGHTED, "prioritized": lib.TN_COMBINE_PRIORITIZED}


def _combine(name: Any) -> int:
    return int(c.choice(COMBINE, name, "combine", "'weighted' or 'prioritized'"))


def _target(kind: Optional[str]) -> int:
    return int(c.choice(TARGETS, kind, "target",
                        "one of None, 'none', 'seek', 'arrive', 'flee', 'flow'"))


def _vec(v: c.Vec2Like, name: str) -> Tuple[float, float]:
    try:
        x, y = v
        fx, fy = c.number(x, name, ""), c.number(y, name, "")
    except InvalidArgumentError:
        raise  # a number past a float's range
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an (x, y) pair of numbers, got {v!r}") from None
    if not (math.isfinite(fx) and math.isfinite(fy)):
        raise ValueError(f"{name} must be finite, got {v!r}")
    if max(abs(fx), abs(fy)) > c.FLOAT32_MAX:  # the C crowd holds float32
        raise ValueError(f"{name} must be finite as float32 (each part at most 3.4e38 in size), "
                         f"got {v!r}")
    return (fx, fy)


# the longest a call of Crowd.step stays in C before Python gets a chance to run its signal
# handlers (Ctrl-C); one step longer than this is not cut
_SLICE_SECONDS = 0.02


def _in_slices(run: Callable[[int], Any], steps: int) -> None:
    """``run(n)`` (n steps in C, the GIL released) until ``steps`` are done, in slices of at
    most about _SLICE_SECONDS: between two slices Python runs its signal handlers, so
    KeyboardInterrupt arrives (after a whole step: the crowd stays consistent). The slice
    starts at one step and doubles while the calls stay short."""
    done, size = 0, 1
    while done < steps:
        n = min(size, steps - done)
        t = time.perf_counter()
        check(run(n), "Crowd.step")
        done += n
        if time.perf_counter() - t < _SLICE_SECONDS / 2:
            size *= 2


def _reading(objects: Sequence[Any], run: Callable[[int], Any]) -> Callable[[int], Any]:
    """``run`` as a reader of each of ``objects`` (hierarchies, then the map: the order every
    lock of the package is taken in), slice by slice, so that an edit or an update waits for
    the slice that runs, never for a whole long step() call."""

    def reading(n: int) -> Any:
        taken = []
        try:
            for obj in objects:
                obj._read_begin()
                taken.append(obj)
            return run(n)
        finally:
            for obj in reversed(taken):
                obj._read_end()

    return reading


def _agent(agent: Any) -> int:
    return c.integer(agent, "agent", 0, 2**32 - 1, "in 0..2**32-1 (an id from Crowd.add)")


class Crowd(c.Closable, c.NoPickle):
    """Steering agents on a map, advanced together in fixed steps of ``dt`` seconds; they
    flock (separation, cohesion, alignment), avoid each other and the walls, and never walk
    through a blocked cell. Positions are pixels (the map's ``tile_size`` per cell).

    :attr:`positions`, :attr:`velocities` and :attr:`ids` are read-only NumPy arrays over
    buffers the crowd owns: :meth:`step` refills them in place, so an array taken once keeps
    showing the current state as long as the number of agents is the same (after
    :meth:`add`/:meth:`remove`, read the property again). Row ``i`` of each is the same agent.

    Threads: a crowd is meant to be used by one thread at a time, but its calls are serialised
    by a lock of its own, so two threads that step it, or add and remove agents while another
    steps, wait for each other instead of corrupting it (a step is never interleaved with
    another call). The fields it follows are locked while it steps (their ``update()``
    waits), and so is its map against edits, slice by slice (see :meth:`step`).
    """

    _instead = ("keep the positions and velocities (np.array(crowd.positions)) and add the "
                "agents to a new Crowd")

    _what = "crowd"

    def __init__(self, map: "Map", *, capacity: int = 1024, dt: float = 1.0 / 60.0,
                 neighbour_radius: float = 32.0, max_neighbours: int = 16,
                 push_apart: bool = False, max_flows: int = 8, seed: int = 0,
                 max_scan: int = 64, dense_neighbours: int = 10,
                 similar_goal_distance: float = 64.0, avoid_look_ahead: float = 0.5,
                 wall_look_ahead: float = 0.0, wander_distance: float = 24.0,
                 wander_radius: float = 12.0, wander_jitter: float = 0.5,
                 periods: Optional[Mapping[str, int]] = None, combine: c.Combine = "weighted",
                 flock_brake: float = 0.0) -> None:
        """``neighbour_radius``, ``max_neighbours``, ``push_apart``, ``max_flows`` and
        ``seed`` are described in docs/python.md; the others are the C crowd's tuning knobs
        (``tn_crowd_def`` in crowd.h, same names and defaults):

        - ``max_scan``: neighbour candidates examined per agent, 0 = all;
        - ``dense_neighbours``: agents in the 2 x 2 nearest grid cells from which an agent
          looks at half the neighbour radius only, 0 = never;
        - ``similar_goal_distance``: pixels; agents whose goals are closer than this flock;
        - ``avoid_look_ahead`` (seconds, > 0) and ``wall_look_ahead`` (pixels, 0 = one tile);
        - ``wander_distance``, ``wander_radius`` (pixels), ``wander_jitter`` (radians per
          step): the wander circle;
        - ``periods``: steps between two runs of a behaviour, by name (1..1024, default 1);
        - ``combine``: ``"weighted"`` (the weighted sum) or ``"prioritized"`` (a running sum
          in the behaviours' order, truncated at the agent's max force);
        - ``flock_brake``: 0..1, how much of cohesion's and alignment's pull against an
          agent's own target is kept (0: none).
        """
        from ._map import Map

        c.needs(map, Map, "Crowd")
        mh = map._handle()
        # one call at a time: every C call on the crowd runs under it (the GIL is released)
        self._lock = threading.RLock()
        cdef = ffi.new("tn_crowd_def *", lib.tn_crowd_def_default())
        cdef.map = mh
        cdef.capacity = capacity = c.integer(capacity, "capacity", 1, lib.TN_CROWD_MAX_AGENTS)
        cdef.dt = c.positive(dt, "dt")
        cdef.neighbour_radius = c.positive(neighbour_radius, "neighbour_radius")
        cdef.max_neighbours = c.integer(max_neighbours, "max_neighbours", 1,
                                        lib.TN_CROWD_MAX_NEIGHBOURS)
        cdef.push_apart = c.flag(push_apart, "push_apart")
        cdef.max_flows = self.max_flows = c.integer(max_flows, "max_flows", 1,
                                                    lib.TN_CROWD_MAX_FLOWS)
        cdef.seed = c.integer(seed, "seed", 0, 2**64 - 1, "in 0..2**64-1")
        cdef.max_scan = c.integer(max_scan, "max_scan", 0, 2**31 - 1, ">= 0 (0: all)")
        cdef.dense_neighbours = c.integer(dense_neighbours, "dense_neighbours", 0, 2**31 - 1,
                                          ">= 0 (0: never)")
        cdef.similar_goal_distance = _radius(similar_goal_distance, "similar_goal_distance")
        cdef.avoid_look_ahead = _finite_positive(avoid_look_ahead, "avoid_look_ahead")
        cdef.wall_look_ahead = _radius(wall_look_ahead, "wall_look_ahead")
        cdef.wander.distance = _finite(wander_distance, "wander_distance")
        cdef.wander.radius = _finite(wander_radius, "wander_radius")
        cdef.wander.jitter = _finite(wander_jitter, "wander_jitter")
        if periods is not None:
            for b, name, steps in _by_behaviour(periods, "periods", "steps (e.g. {'wander': 4})"):
                cdef.period[b] = c.integer(steps, f"periods[{name!r}]", 1, 1024)
        cdef.combine = _combine(combine)
        brake = c.number(flock_brake, "flock_brake", "in 0..1")
        if not 0.0 <= brake <= 1.0:
            raise invalid(f"flock_brake must be a number in 0..1, got {flock_brake!r}")
        cdef.flock_brake = brake
        out = ffi.new("tn_crowd **")
        map._read_begin()
        try:
            check(lib.tn_crowd_create(cdef, out), "tn_crowd_create")
        finally:
            map._read_end()
        self._flows: Dict[int, Any] = {}  # slot -> FlowField whose arrays the crowd reads
        self._sectors: Dict[int, Any] = {}  # slot -> SectorField the crowd reads
        # slot -> the C sector field its flow view points into (kept even if it is closed)
        self._sector_handles: Dict[int, Any] = {}
        self._h = c.owned(out[0], lib.tn_crowd_destroy, 0,
                          keep=(mh, self._flows, self._sectors, self._sector_handles))
        self.map = map
        self.capacity = capacity
        self._ids = np.zeros(self.capacity, dtype=np.uint32)
        self._pos = np.zeros((self.capacity, 2), dtype=np.float32)
        self._vel = np.zeros((self.capacity, 2), dtype=np.float32)
        self._arrived = np.zeros(self.capacity, dtype=np.bool_)
        self._held = np.zeros(self.capacity, dtype=np.bool_)
        for a in (self._ids, self._pos, self._vel, self._arrived, self._held):
            a.setflags(write=False)
        self._count = 0
        self._stale = False

    # ---- life -------------------------------------------------------------------------------
    def _describe(self) -> str:
        return f"agents={len(self)}, capacity={self.capacity}, steps={self.steps}"

    def close(self) -> None:
        """Release the crowd now. Every later call raises ValueError, :attr:`positions`,
        :attr:`velocities` and :attr:`ids` included (arrays taken before stay valid: they
        are copies the crowd filled)."""
        with self._lock:  # not in the middle of another thread's step
            self._h = None


    # ---- agents -----------------------------------------------------------------------------
    def add(self, pos: c.Vec2Like, *, vel: c.Vec2Like = (0.0, 0.0),
            radius: float = 6.0, max_speed: float = 120.0, max_force: float = 480.0,
            target: Optional[c.Target] = None, target_pos: c.Vec2Like = (0.0, 0.0),
            flow: int = 0, size: int = 1, slow_radius: float = 32.0,
            arrive_radius: float = 8.0, arrive_area: float = 0.0,
            weights: Optional[Mapping[str, float]] = None) -> int:
        """Add an agent at pixel position ``pos``; returns its id (an int, never 0). Positions
        and velocities (``pos``, ``vel``, ``target_pos``) are (x, y) pairs of numbers, NumPy's
        too, or NumPy arrays such as a row of :attr:`positions`.

        ``target``: None, ``"seek"``/``"arrive"``/``"flee"`` (``target_pos`` in pixels) or
        ``"flow"`` (follow flow slot ``flow``, see :meth:`set_flow`). The circle must not
        overlap a blocked cell (InvalidArgumentError otherwise). ``size``: the agent's size
        class in cells (1..255): it follows flow fields made with the same ``size``
        (:meth:`Map.flow_field`), reading them at its top-left cell, and its ``radius`` must
        be below ``size`` half tiles (ValueError otherwise; also when slot ``flow`` already
        holds a field of another size: one set later is not checked). Walls stop an agent of
        size 2 or more as a circle of at least ``size - 0.5`` half tiles, whatever its radius,
        so it passes the gaps its field crosses and no narrower ones (that circle too must be
        clear of blocked cells at ``pos``).

        Arriving (pixels, each >= 0): ``"arrive"`` and ``"flow"`` agents slow down within
        ``slow_radius`` of the goal, and count as arrived (:attr:`arrived`) within
        ``arrive_radius`` of it. ``arrive_area`` > 0 is a goal area for crowds that stay: an
        agent inside it that touches an arrived agent with the same goal arrives too, held
        (:attr:`held`), and holds its place instead of pushing into the packed goal, so the
        crowd fills the area from the goal outwards (it needs a neighbour behaviour with a
        weight; docs/agents.md, on ``arrive_area``).

        ``weights``: behaviour weights to change, by name, e.g. ``{"wander": 1.0,
        "cohesion": 0}``; the others keep their defaults: ``"target"`` 1, ``"separation"``
        2, ``"cohesion"`` 0.2, ``"alignment"`` 0.5, ``"avoid_agents"`` 1, ``"avoid_walls"``
        1, ``"wander"`` 0. Each is a number from -1e6 to 1e6 (0 turns the behaviour off;
        larger weights could overflow the forces); see also :meth:`set_weight`. ``max_speed``
        is at most 1e9 pixels per second, ``max_force`` at most 1e12."""
        with self._lock:
            return self._add(pos, vel, radius, max_speed, max_force, target, target_pos, flow,
                             size, (slow_radius, arrive_radius, arrive_area), weights)

    def _add(self, pos: c.Vec2Like, vel: c.Vec2Like, radius: float, max_speed: float,
             max_force: float, target: Optional[str], target_pos: c.Vec2Like, flow: int,
             size: int, arriving: Tuple[float, float, float],
             weights: Optional[Mapping[str, float]]) -> int:
        h = self._handle()
        size = c.unit_size(size)
        half = size * min(self.map.tile_size) / 2.0
        if not c.positive(radius, "radius") < half:
            raise ValueError(f"radius {radius} must be below {half:g} pixels (size {size} x half "
                             f"a tile of {min(self.map.tile_size)} px)")
        max_speed = _limited(max_speed, "max_speed", float(lib.TN_CROWD_MAX_SPEED))
        max_force = _limited(max_force, "max_force", float(lib.TN_CROWD_MAX_FORCE))
        if target == "flow":
            field = self._flows.get(self._check_slot(flow))
            if field is not None and field.size != size:
                raise ValueError(f"an agent of size {size} cannot follow flow slot {flow}: its "
                                 f"field was made for size {field.size} "
                                 f"(Map.flow_field(size=...))")
        adef = ffi.new("tn_agent_def *", lib.tn_agent_def_default())
        adef.pos = _vec(pos, "pos")
        adef.vel = _vec(vel, "vel")
        adef.radius = float(radius)
        adef.max_speed = float(max_speed)
        adef.max_force = float(max_force)
        adef.target = _target(target)
        adef.target_pos = _vec(target_pos, "target_pos")
        adef.flow = self._check_slot(flow) if target == "flow" else c.integer(
            flow, "flow", 0, lib.TN_CROWD_MAX_FLOWS)
        adef.size = size
        adef.slow_radius, adef.arrive_radius, adef.arrive_area = (
            _radius(v, n) for v, n in zip(arriving, ("slow_radius", "arrive_radius",
                                                    "arrive_area")))
        if weights is not None:
            for b, name, value in _by_behaviour(weights, "weights",
                                                "numbers (e.g. {'wander': 1.0})"):
                adef.weights[b] = _weight(value, f"weights[{name!r}]")
        out = ffi.new("tn_agent_id *")
        self.map._read_begin()  # the circle is checked against the map's walls
        try:
            st = lib.tn_crowd_add(h, adef, out)
        finally:
            self.map._read_end()
        wall = max(float(radius), (size - 0.5) * min(self.map.tile_size) / 2.0) if size > 1 \
            else float(radius)
        check(st, "Crowd.add", f"at {tuple(pos)}: the circle (radius {wall:g}"
              f"{'' if wall == radius else f', the least for size {size}'}) must be inside "
              f"the map and clear of blocked cells" if st == lib.TN_E_INVALID_ARG else
              f"capacity {self.capacity} reached" if st == lib.TN_E_FULL else "")
        self._stale = True
        return int(out.id)

    def remove(self, agent: int) -> None:
        """Remove an agent (StaleIdError when it is not in the crowd)."""
        agent = _agent(agent)
        with self._lock:
            check(lib.tn_crowd_remove(self._handle(), (agent,)), "Crowd.remove")
            self._stale = True

    def set_target(self, agent: int, target: Optional[c.Target], pos: c.Vec2Like = (0.0, 0.0),
                   flow: int = 0) -> None:
        """Change an agent's target (see :meth:`add`)."""
        slot = self._check_slot(flow) if target == "flow" else c.integer(
            flow, "flow", 0, lib.TN_CROWD_MAX_FLOWS)
        args = ((_agent(agent),), _target(target), _vec(pos, "pos"), slot)
        with self._lock:
            check(lib.tn_crowd_set_target(self._handle(), *args), "Crowd.set_target")
            self._stale = True  # its arrived flag is cleared

    def set_weight(self, agent: int, behaviour: c.Behaviour, weight: float) -> None:
        """Set one behaviour weight of an agent (``behaviour``: one of the names of
        :meth:`add`'s ``weights``; ``weight``: a number from -1e6 to 1e6, 0 turns the
        behaviour off)."""
        args = ((_agent(agent),), _behaviour(behaviour), _weight(weight, "weight"))
        with self._lock:
            check(lib.tn_crowd_set_weight(self._handle(), *args), "Crowd.set_weight")

    def set_velocity(self, agent: int, vel: c.Vec2Like) -> None:
        """Set an agent's velocity (pixels per second)."""
        args = ((_agent(agent),), _vec(vel, "vel"))
        with self._lock:
            check(lib.tn_crowd_set_velocity(self._handle(), *args), "Crowd.set_velocity")
            self._stale = True

    def set_flow(self, slot: int, field: Union["FlowField", "SectorField", None]) -> None:
        """Let agents with ``target="flow", flow=slot`` follow ``field`` (None clears the slot).

        A :class:`FlowField`: the crowd reads its :attr:`FlowField.vectors` and
        :attr:`FlowField.los` in place, and its goal at each step (:meth:`FlowField.update` and
        :meth:`FlowField.build` reach the agents without another ``set_flow``). A
        :class:`SectorField` (a huge map): before each step, :meth:`step` builds the sectors
        under the agents that follow it (StateError, TN_E_FULL, when they do not fit its
        budget) and aims at its first goal; there is no line of sight.
        Either way the crowd keeps the field alive while it uses it."""
        with self._lock:
            self._set_flow(slot, field)

    def _set_flow(self, slot: int, field: Union["FlowField", "SectorField", None]) -> None:
        from ._hierarchy import SectorField

        from ._field import FlowField

        h = self._handle()
        slot = self._check_slot(slot)
        if field is not None and not isinstance(field, (FlowField, SectorField)):
            raise TypeError(f"field must be a FlowField, a SectorField or None, got "
                            f"{type(field).__name__}")
        owner = field.hierarchy.map if isinstance(field, SectorField) else getattr(
            field, "map", None)
        if field is not None and owner is not self.map:
            raise ValueError("the field was made on another map than the crowd's: make it with "
                             "this crowd's map")
        if field is None:
            check(lib.tn_crowd_set_flow(h, slot, ffi.NULL), "Crowd.set_flow")
            self._flows.pop(slot, None)
            self._sectors.pop(slot, None)
            self._sector_handles.pop(slot, None)
            return
        if isinstance(field, SectorField):
            shape = field.hierarchy.map.shape
            if shape != self.map.shape:
                raise ValueError(f"the field's map {shape} is not the crowd's {self.map.shape}")
            fh = field._handle()
            with field._lock:
                view = self._sector_view(field, fh)
            check(lib.tn_crowd_set_flow(h, slot, view), "Crowd.set_flow")
            self._flows.pop(slot, None)
            self._sectors[slot] = field
            self._sector_handles[slot] = fh
            return
        if field.shape != self.map.shape:
            raise ValueError(f"the field's shape {field.shape} is not the map's {self.map.shape}")
        check(lib.tn_crowd_set_flow(h, slot, field._flow_view()), "Crowd.set_flow")
        self._sectors.pop(slot, None)
        self._sector_handles.pop(slot, None)
        self._flows[slot] = field

    def _check_slot(self, slot: int) -> int:
        c.integer(slot, "flow slot", -(2**31), 2**31 - 1, "")
        if not 0 <= int(slot) < self.max_flows:
            raise ValueError(f"flow slot {slot} is outside 0..{self.max_flows - 1} "
                             f"(Crowd(max_flows={self.max_flows}))")
        return int(slot)

    def _sector_view(self, field: "SectorField", handle: Any) -> Any:
        """The flow view over sector field ``handle`` (``field``'s C object; the caller holds
        the field's lock)."""
        view = ffi.new("tn_flow_view *")
        goal = (int(field.goals[0][0]), int(field.goals[0][1]))
        check(lib.tn_flow_view_from_sector_field(handle, self.map._handle(), goal, view),
              "Crowd.set_flow")
        return view

    def step(self, steps: int = 1) -> None:
        """Advance every agent by ``steps`` fixed steps (the GIL is released meanwhile) and
        refresh :attr:`positions`, :attr:`velocities` and :attr:`ids` in place. Ctrl-C
        (KeyboardInterrupt, or any exception a signal handler raises) stops it between two
        steps within about 20 ms: the steps taken so far stay taken, and the arrays show
        them. Another thread's calls on the crowd, and updates of the fields it follows,
        wait for the whole call; an edit of the map waits for the slice of steps (about 20
        ms) that is running."""
        steps = c.integer(steps, "steps", 0, 2**31 - 1, "in 0..2**31-1")
        with self._lock, ExitStack() as locks:
            h = self._handle()
            # the fields the agents follow: their update(), direction() and path() wait (a
            # flow field's arrays are refilled in place, a sector field builds and drops tiles)
            fields = list(self._flows.values()) + list(self._sectors.values())
            for f in sorted({id(f): f for f in fields}.values(), key=id):
                locks.enter_context(f._lock)
            for s, f in self._flows.items():  # a build() may have moved the field's goal
                check(lib.tn_crowd_set_flow(h, s, f._flow_view()), "Crowd.step")
            readers = [self.map]  # the walls: a map edit waits for the slice that runs
            run: Callable[[int], Any] = lambda n: lib.tnpy_crowd_steps(h, n)
            if self._sectors:
                slots = sorted(self._sectors)
                sectors = [self._sectors[s] for s in slots]
                handles = [self._sector_handles[s] for s in slots]
                # the sectors are built from the hierarchy: its update() waits too
                hierarchies = {id(f.hierarchy): f.hierarchy for f in sectors}
                readers = [hierarchies[k] for k in sorted(hierarchies)] + readers
                for s, f, fh in zip(slots, sectors, handles):  # the goal may have moved
                    check(lib.tn_crowd_set_flow(h, s, self._sector_view(f, fh)), "Crowd.step")
                harr = ffi.new("tn_sector_field *[]", handles)
                slot_arr = ffi.new("int32_t[]", slots)
                run = lambda n: lib.tnpy_crowd_steps_sectors(h, n, harr, slot_arr, len(slots))
            try:
                _in_slices(_reading(readers, run), steps)
            finally:
                self._gather(h)

    def _gather(self, h: Any) -> None:
        arrays = (self._ids, self._pos, self._vel, self._arrived, self._held)
        for a in arrays:
            a.setflags(write=True)
        self._count = lib.tnpy_crowd_gather(
            h, ffi.from_buffer("uint32_t[]", self._ids),
            ffi.cast("tn_vec2 *", ffi.from_buffer(self._pos)),
            ffi.cast("tn_vec2 *", ffi.from_buffer(self._vel)),
            ffi.cast("bool *", ffi.from_buffer(self._arrived)),
            ffi.cast("bool *", ffi.from_buffer(self._held)), self.capacity)
        for a in arrays:
            a.setflags(write=False)
        self._stale = False

    def _fresh(self) -> int:
        with self._lock:
            h = self._handle()
            if self._stale:
                self._gather(h)
            return self._count

    @property
    def positions(self) -> NDArray[np.float32]:
        """(N, 2) float32 positions in pixels, read-only, refreshed in place by :meth:`step`.

        Row i belongs to agent ``ids[i]``, and the row order changes between steps (the crowd
        sorts its agents by place): match rows to your sprites through :attr:`ids`, not by
        index. Each access gives a view of the first N rows of one buffer: a view kept across
        :meth:`step` shows the new values, but keeps its N rows when agents are added or
        removed; read the property again after :meth:`add` or :meth:`remove` (the same holds
        for :attr:`velocities`, :attr:`ids`, :attr:`arrived` and :attr:`held`)."""
        return self._pos[: self._fresh()]

    @property
    def velocities(self) -> NDArray[np.float32]:
        """(N, 2) float32 velocities in pixels per second, read-only, refreshed by :meth:`step`
        (rows as :attr:`positions`: through :attr:`ids`)."""
        return self._vel[: self._fresh()]

    @property
    def ids(self) -> NDArray[np.uint32]:
        """(N,) uint32 agent ids, in the row order of :attr:`positions` (which changes between
        steps)."""
        return self._ids[: self._fresh()]

    @property
    def arrived(self) -> NDArray[np.bool_]:
        """(N,) bool, read-only, refreshed by :meth:`step` (rows as :attr:`positions`): the
        agent is within its ``arrive_radius`` of its goal, or held in its ``arrive_area``. A
        step sets it; :meth:`set_target` clears it. What to do on arrival (remove the agent,
        give it a new target) is the caller's: the crowd keeps steering it."""
        return self._arrived[: self._fresh()]

    @property
    def held(self) -> NDArray[np.bool_]:
        """(N,) bool, read-only, refreshed by :meth:`step`: arrived by being held up in the goal
        area (``arrive_area`` of :meth:`add`) rather than within ``arrive_radius``."""
        return self._held[: self._fresh()]

    def __len__(self) -> int:
        with self._lock:
            return int(lib.tn_crowd_count(self._handle()))

    @property
    def steps(self) -> int:
        """Steps taken so far."""
        with self._lock:
            return int(lib.tn_crowd_steps(self._handle()))

    @property
    def hash(self) -> int:
        """64-bit hash of the whole state (bit-identical runs give the same hash)."""
        with self._lock:
            return int(lib.tn_crowd_hash(self._handle()))

    @property
    def max_wall_overlap(self) -> float:
        """Largest overlap in pixels of an agent with a blocked cell (0 when none)."""
        with self._lock:
            self.map._read_begin()
            try:
                return float(lib.tn_crowd_max_wall_overlap(self._handle()))
            finally:
                self.map._read_end()
