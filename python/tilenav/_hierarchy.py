"""Hierarchical paths (HPA*) and sector flow fields for big maps."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

from . import _common as c
from ._errors import check
from ._field import _first_bad_goal
from ._tilenav import ffi, lib

if TYPE_CHECKING:
    from ._map import Map, PathResult

_NO_CELLS: NDArray[np.int32] = np.zeros((0, 2), dtype=np.int32)
# query contexts a thread keeps per hierarchy, one per weight (each holds a path buffer of the
# map's size): the least recently used go first
_CTX_CACHE = 4


class Hierarchy(c.Closable, c.NoPickle):
    """A map cut into sectors with an abstract graph of their border cells (HPA*), for long
    paths on big maps. Make one with :meth:`Map.hierarchy`. :meth:`path` searches the abstract
    graph and refines the route sector by sector; :meth:`sector_field` builds flow fields one
    sector at a time. After the map is edited (:meth:`Map.set_cost`, :meth:`Map.set_tile`),
    call :meth:`update` before the next query (until then queries raise StateError). Queries
    may run from many threads: each thread gets its own query context (its memory grows with
    the graph, see :attr:`memory_bytes`). :meth:`update` and :meth:`refresh` wait for the
    queries running on other threads (and for the sector fields and crowds reading the
    hierarchy), and hold new ones back until they are done; they also wait for the map's
    edits, as queries of the map do. :meth:`close` (or a ``with`` block) releases the graph
    and the query contexts at once; sector fields made from it keep the graph until they
    go."""

    _instead = "make another with Map.hierarchy()"
    _what = "hierarchy"

    def __init__(self, map: "Map", *, sector_size: int = 32, moves: int = 8,
                 step_costs: c.StepCosts = "exact", landmarks: int = 0, portal_gap: int = 0,
                 size: int = 1) -> None:
        from ._map import Map

        c.needs(map, Map, "Hierarchy")
        diagonal, costs = c.moves_struct(moves, "never", step_costs)
        sector_size = c.integer(sector_size, "sector_size", 4, 256)
        landmarks = c.integer(landmarks, "landmarks", 0, 16)
        portal_gap = c.integer(portal_gap, "portal_gap", 0, sector_size,
                               f"in 0..sector_size ({sector_size}; 0: the entrances' ends only)")
        mh, size_owner = map._size_map(size)  # a bigger unit: its size map (clearance.h)
        hdef = ffi.new("tn_hierarchy_def *", lib.tn_hierarchy_def_default())
        hdef.map = mh
        hdef.moves.diagonal = diagonal
        hdef.moves.costs = costs
        hdef.sector_size = sector_size
        hdef.landmarks = landmarks
        hdef.portal_gap = portal_gap
        out = ffi.new("tn_hierarchy **")
        map._read_begin()  # nested in Map.hierarchy()'s
        try:
            check(lib.tn_hierarchy_build(hdef, out), "Map.hierarchy",
                  f"sector_size={sector_size}, landmarks={landmarks}, portal_gap={portal_gap}")
        finally:
            map._read_end()
        self._h = c.owned(out[0], lib.tn_hierarchy_destroy,
                          lib.tn_hierarchy_memory_bytes(out[0]), keep=(mh, size_owner))
        self.map = map
        self.size: int = c.unit_size(size)
        self.sector_size: int = sector_size
        self.shape: Tuple[int, int] = map.shape
        self._local = threading.local()
        self._cells = map.shape[0] * map.shape[1]
        # queries (path, sector fields) read the graph that update() and refresh() rewrite
        rw = c.ReadWriteLock("a hierarchy")
        self._read_begin = rw.read_begin
        self._read_end = rw.read_end
        self._write_begin = rw.write_begin
        self._write_end = rw.write_end

    def _describe(self) -> str:
        return f"{self.shape[1]}x{self.shape[0]}, sector_size={self.sector_size}, size={self.size}"

    def close(self) -> None:
        """Release the graph and this hierarchy's query contexts now (sector fields made from
        it keep the graph until they go). Further calls raise ValueError."""
        self._h = None
        self._local = threading.local()

    def _reading(self) -> None:
        """Begin a read of the hierarchy and then of its map (the order of every lock)."""
        self._read_begin()
        try:
            self.map._read_begin()
        except BaseException:
            self._read_end()
            raise

    def _done_reading(self) -> None:
        self.map._read_end()
        self._read_end()

    def update(self) -> int:
        """Bring the hierarchy up to date with the map's edits (only the sectors they touch
        are rebuilt); returns the number of sectors whose nodes or costs changed. It waits
        for the queries running on other threads. Sector fields then need their goal set
        again (:meth:`SectorField.set_goal`)."""
        n = ffi.new("int32_t *")
        self._write_begin()
        try:
            h = self._handle()
            self.map._read_begin()
            try:
                check(lib.tn_hierarchy_update(h, n), "Hierarchy.update")
            finally:
                self.map._read_end()
        finally:
            self._write_end()
        return int(n[0])

    def refresh(self) -> None:
        """After edits (brought up to date first): recompute the landmarks, which an update
        that changes a sector leaves stale (queries then expand more nodes), and label the
        graph's connected parts exactly again, which an edit that splits one leaves joined
        (queries across it then search before they return no path). It waits for the queries
        running on other threads."""
        self._write_begin()
        try:
            h = self._handle()
            self.map._read_begin()
            try:
                check(lib.tn_hierarchy_update(h, ffi.NULL), "Hierarchy.refresh")
                check(lib.tn_hierarchy_refresh_landmarks(h), "Hierarchy.refresh")
            finally:
                self.map._read_end()
        finally:
            self._write_end()

    def _ctx(self, weight: float) -> Any:
        """This thread's query context for ``weight``: each thread keeps those of its
        _CTX_CACHE most recently used weights."""
        ctxs: "Optional[OrderedDict[float, Any]]" = getattr(self._local, "ctxs", None)
        if ctxs is None:
            ctxs = self._local.ctxs = OrderedDict()
        ctx = ctxs.get(weight)
        if ctx is not None:
            ctxs.move_to_end(weight)
        else:
            cdef = ffi.new("tn_hierarchy_ctx_def *", lib.tn_hierarchy_ctx_def_default())
            cdef.weight = weight
            out = ffi.new("tn_hierarchy_ctx **")
            check(lib.tn_hierarchy_ctx_create(cdef, out), "Hierarchy.path")
            handle = c.owned(out[0], lib.tn_hierarchy_ctx_destroy)
            buf = ffi.new("tn_cell[]", self._cells)
            ctx = ctxs[weight] = (handle, buf, ffi.new("tn_hierarchy_result *"))
            while len(ctxs) > _CTX_CACHE:
                ctxs.popitem(last=False)
        return ctx

    @property
    def memory_bytes(self) -> int:
        """Bytes of the graph (query contexts not included)."""
        self._read_begin()
        try:
            return int(lib.tn_hierarchy_memory_bytes(self._handle()))
        finally:
            self._read_end()

    @property
    def stats(self) -> Dict[str, int]:
        """The graph's size: sectors, nodes (border cells), intra- and inter-sector edges, and
        ``parts``, its connected parts (a goal in another part than the start's is answered at
        once, without a search), or -1 after an edit that may have split one."""
        s = ffi.new("tn_hierarchy_stats *")
        self._read_begin()
        try:
            lib.tn_hierarchy_stats_get(self._handle(), s)
        finally:
            self._read_end()
        return {"sectors_x": s.sectors_x, "sectors_y": s.sectors_y, "nodes": s.nodes,
                "intra_edges": int(s.intra_edges), "inter_edges": int(s.inter_edges),
                "parts": s.parts}

    @property
    def crossing_bound(self) -> float:
        """The fast mode's additive bound per sector-border crossing of an optimal path."""
        self._read_begin()
        try:
            return float(lib.tn_hierarchy_crossing_bound(self._handle()))
        finally:
            self._read_end()

    def path(self, start: c.CellLike, goal: c.CellLike, *, exact: bool = False,
             weight: float = 1.0) -> "PathResult":
        """A path from ``start`` to ``goal`` (a :class:`PathResult`, ``algo`` "hpa" or
        "hpa-exact"). Fast mode (default): cost at most optimum + K * :attr:`crossing_bound`
        for an optimal path with K crossings (times ``weight`` > 1, which searches the abstract
        graph greedily, faster). ``exact=True``: an optimal path (the fast path when it is
        provably optimal, else a JPS search). Raises :class:`OutOfMapError` or
        :class:`BlockedError` for a bad start or goal."""
        from ._map import PathResult

        sx, sy = c.cell(start, "start")
        gx, gy = c.cell(goal, "goal")
        mode = lib.TN_HIERARCHY_EXACT if c.flag(exact, "exact") else lib.TN_HIERARCHY_FAST
        handle, buf, res = self._ctx(c.weight(weight))
        self._reading()
        try:
            st = lib.tn_hierarchy_path(handle, self._handle(), (sx, sy), (gx, gy), mode, buf,
                                       self._cells, res)
        finally:
            self._done_reading()
        from ._map import _unit

        check(st, "Hierarchy.path", f"from {(sx, sy)} to {(gx, gy)}{_unit(self.size, st)}")
        algo = "hpa-exact" if exact else "hpa"
        if st == lib.TN_NO_PATH:
            return PathResult(_NO_CELLS, 0.0, int(res.expanded), algo, False, "no path", None)
        n = res.length
        cells = np.frombuffer(ffi.buffer(buf, n * 8), dtype=np.int32).reshape(n, 2).copy()
        return PathResult(cells, float(res.cost), int(res.expanded), algo, True, "ok",
                          (int(cells[-1, 0]), int(cells[-1, 1])))

    def sector_field(self, goal: Any, *, budget: int = 4 << 20) -> "SectorField":
        """A sector flow field towards ``goal`` (one (x, y) cell or an (N, 2) array of up to
        64), built one sector at a time where it is asked, keeping at most ``budget`` bytes of
        sector tiles. See :class:`SectorField`."""
        return SectorField(self, goal, budget=budget)


class SectorField(c.Closable, c.NoPickle):
    """A flow field towards a goal on a big map, built lazily one sector at a time from a
    :class:`Hierarchy` (``sector_field.h``): :meth:`direction` and :meth:`path` build the
    sectors they touch, and the least recently used sectors are dropped past the memory
    budget. Directions number the neighbours clockwise on screen from +x: 0 E, 1 SE, 2 S,
    3 SW, 4 W, 5 NW, 6 N, 7 NE; -1 on a goal and where no route exists. Its calls are
    serialised by a lock of its own (asking may build or drop a sector): threads that share
    one wait for each other, and a crowd stepping with it holds it for the step. They also
    wait for :meth:`Hierarchy.update` and the map's edits (and those for them).
    :meth:`close` (or a ``with`` block) releases its sectors at once; a crowd following it
    keeps them until the crowd goes or its flow slot is cleared."""

    _instead = "make another with Hierarchy.sector_field()"
    _what = "sector field"

    def __init__(self, hierarchy: Hierarchy, goal: Any, *, budget: int = 4 << 20) -> None:
        c.needs(hierarchy, Hierarchy, "SectorField")
        hh = hierarchy._handle()
        fdef = ffi.new("tn_sector_field_def *", lib.tn_sector_field_def_default())
        fdef.hierarchy = hh
        fdef.memory_budget = c.integer(budget, "budget", 1, 2**63 - 1, "in 1..2**63-1 (bytes)")
        out = ffi.new("tn_sector_field **")
        hierarchy._read_begin()
        try:
            check(lib.tn_sector_field_create(fdef, out), "Hierarchy.sector_field")
        finally:
            hierarchy._read_end()
        self._h = c.owned(out[0], lib.tn_sector_field_destroy, keep=hh)
        self.hierarchy = hierarchy
        self._lock = threading.RLock()  # taken before the hierarchy's and the map's
        self._dir = ffi.new("int32_t *")
        self._cost = ffi.new("float *")
        self._buf = ffi.new("tn_cell[]", hierarchy._cells)
        self.set_goal(goal)

    def set_goal(self, goal: Any) -> None:
        """Aim the field at ``goal`` (one cell or up to 64): recomputes the border cells' costs
        and drops every built sector."""
        goals = c.cells_array(goal, "goal")
        if len(goals) > lib.TN_SECTOR_FIELD_MAX_GOALS:
            raise ValueError(f"a sector field takes at most {lib.TN_SECTOR_FIELD_MAX_GOALS} goals, "
                             f"got {len(goals)}")
        with self._lock:
            h = self._handle()
            self.hierarchy._reading()
            try:
                st = lib.tn_sector_field_set_goal(h, ffi.from_buffer("tn_cell[]", goals),
                                                  len(goals))
            finally:
                self.hierarchy._done_reading()
            check(st, "SectorField.set_goal", f"goal {goals[0].tolist()}" if len(goals) == 1
                  else _first_bad_goal(self.hierarchy.map, goals, self.hierarchy.size))
            self.goals: NDArray[np.int32] = goals

    def _describe(self) -> str:
        goals = getattr(self, "goals", None)
        shown = "none" if goals is None else c.goals_text(goals)
        return f"goals={shown}, size={self.hierarchy.size}"

    def direction(self, cell: c.CellLike) -> Tuple[int, float]:
        """(direction, cost) at ``cell``: the step to take towards the goal and the cost of
        the route the directions take from there; (-1, 0.0) on a goal, (-1, inf) where no route
        exists."""
        x, y = c.cell(cell, "cell")
        with self._lock:
            h = self._handle()
            self.hierarchy._reading()
            try:
                st = lib.tn_sector_field_dir(h, (x, y), self._dir, self._cost)
            finally:
                self.hierarchy._done_reading()
            check(st, "SectorField.direction", f"at {(x, y)}")
            return int(self._dir[0]), float(self._cost[0])

    def path(self, start: c.CellLike) -> Tuple[NDArray[np.int32], float]:
        """The cells from ``start`` to a goal along the directions ((N, 2) int32, start first;
        empty when no route) and their cost."""
        x, y = c.cell(start, "start")
        n = ffi.new("int32_t *")
        cost = ffi.new("double *")
        with self._lock:
            h = self._handle()
            self.hierarchy._reading()
            try:
                st = lib.tn_sector_field_path(h, (x, y), self._buf, self.hierarchy._cells, n,
                                              cost)
            finally:
                self.hierarchy._done_reading()
            check(st, "SectorField.path", f"from {(x, y)}")
            if st == lib.TN_NO_PATH:
                return _NO_CELLS, 0.0
            cells = np.frombuffer(ffi.buffer(self._buf, n[0] * 8),
                                  dtype=np.int32).reshape(n[0], 2).copy()
        return cells, float(cost[0])

    @property
    def memory_bytes(self) -> int:
        """Bytes held now: the border cells' costs and the sectors kept."""
        with self._lock:
            return int(lib.tn_sector_field_memory_bytes(self._handle()))

    @property
    def stats(self) -> Dict[str, int]:
        """Sectors built (rebuilds included), kept now, the most the budget allows, dropped."""
        s = ffi.new("tn_sector_field_stats *")
        with self._lock:
            lib.tn_sector_field_stats_get(self._handle(), s)
        return {"tiles_built": int(s.tiles_built), "tiles_kept": s.tiles_kept,
                "tiles_max": s.tiles_max, "tiles_evicted": int(s.tiles_evicted),
                "nodes_reached": s.nodes_reached}
