"""Flow fields."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Optional, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from . import _common as c
from ._errors import StateError, UnsupportedError, check
from ._tilenav import ffi, lib

if TYPE_CHECKING:
    from ._map import Map

FLOW_RULES = {"optimal": lib.TN_FLOW_OPTIMAL, "steepest": lib.TN_FLOW_STEEPEST}


def _pixel(value: Any, name: str) -> float:
    """A pixel coordinate: a number finite as float32 (the C library's type)."""
    v = c.number(value, name, "(a pixel position)")
    if not abs(v) <= c.FLOAT32_MAX:  # NaN too
        raise ValueError(f"{name} must be a finite pixel position (as float32), got {value!r}")
    return v


class FlowField(c.Closable, c.NoPickle):
    """A flow field: for every cell the cost to the nearest goal, one of 8 directions on a
    cheapest path, a continuous unit vector (straight at the goal where the cell sees it) and,
    with line of sight, whether the cell sees the goal. Make one with :meth:`Map.flow_field`.

    Arrays are (height, width), indexed ``[y, x]``. :attr:`distances` is a read-only view of
    the field's own memory (no copy); :attr:`directions`, :attr:`vectors` and :attr:`los` are
    filled by the C library into arrays made once and refilled in place by :meth:`update`.
    Directions number the neighbours clockwise on screen from +x: 0 E, 1 SE, 2 S, 3 SW, 4 W,
    5 NW, 6 N, 7 NE; -1 for goals, blocked and unreachable cells.

    Threads: the field's calls are serialised by a lock of its own, so an :meth:`update` on
    one thread and a :meth:`path`, :meth:`sample` or a crowd's step reading the field on
    another wait for each other instead of reading a half-updated field. :meth:`update` also
    waits for the map's edits (and they for it).
    """

    _instead = ("make another with Map.flow_field() (np.array(field.distances) copies its "
                "distances)")

    _what = "flow field"

    def __init__(self, map: "Map", goal: Any, *, los: bool = True, moves: int = 8,
                 corner: c.Corner = "never", step_costs: c.StepCosts = "exact",
                 flow: c.FlowRule = "optimal",
                 extra: Optional[NDArray[np.float32]] = None, size: int = 1) -> None:
        from ._map import Map

        c.needs(map, Map, "FlowField")
        # a unit bigger than one cell: the field of its top-left cell on its size map
        mh, size_owner = map._size_map(size)
        goals = c.cells_array(goal, "goal")
        los = c.flag(los, "los")
        diagonal, costs = c.moves_struct(moves, corner, step_costs)
        c.choice(FLOW_RULES, flow, "flow", f"one of {sorted(FLOW_RULES)}")
        if los and len(goals) > 1:
            raise UnsupportedError(lib.TN_E_UNSUPPORTED, "flow_field",
                                   f"line of sight takes one goal, got {len(goals)}: pass "
                                   f"los=False for several goals")
        fdef = ffi.new("tn_field_def *", lib.tn_field_def_default())
        fdef.map = mh
        fdef.moves.diagonal = diagonal
        fdef.moves.costs = costs
        fdef.flow = FLOW_RULES[flow]
        fdef.los = lib.TN_LOS_EXACT if los else lib.TN_LOS_OFF
        self.extra: Optional[NDArray[np.float32]] = None
        if extra is not None:
            # the field reads the layer again at every update(): it is kept, not copied
            self.extra = c.exact_array(extra, map.shape, np.float32, "extra")
            fdef.extra = ffi.from_buffer("float[]", self.extra)
        out = ffi.new("tn_field **")
        check(lib.tn_field_create(fdef, out), "tn_field_create")
        handle = c.owned(out[0], lib.tn_field_destroy, lib.tn_field_memory_bytes(out[0]),
                         keep=(mh, size_owner, self.extra))
        map._read_begin()  # nested in Map.flow_field()'s
        try:
            st = lib.tn_field_build(handle, ffi.from_buffer("tn_cell[]", goals), len(goals))
        finally:
            map._read_end()
        check(st, "flow_field", _build_problem(st, map, goals, size, self.extra))
        self._h = handle
        self._map_h = mh
        self.map = map
        self.size: int = c.unit_size(size)
        self._los_on = los
        # an update() that found a goal blocked leaves the field empty until build()
        self._emptied = False
        self.goals: NDArray[np.int32] = goals
        self.goal: Tuple[int, int] = (int(goals[0, 0]), int(goals[0, 1]))
        self.shape: Tuple[int, int] = map.shape
        self.tile_size: Tuple[int, int] = map.tile_size
        self._dirs: Optional[NDArray[np.int8]] = None
        self._vectors: Optional[NDArray[np.float32]] = None
        self._los: Optional[NDArray[np.uint8]] = None
        self._view: Any = None
        # one call at a time (update() rewrites what path(), sample() and crowds read)
        self._lock = threading.RLock()

    # ---- life -------------------------------------------------------------------------------
    def _describe(self) -> str:
        h, w = self.shape
        return f"{w}x{h}, goals={c.goals_text(self.goals)}, size={self.size}"

    def close(self) -> None:
        """Release the field now (arrays viewing its memory keep it until they go)."""
        self._h = None
        self._view = None


    # ---- arrays -----------------------------------------------------------------------------
    @property
    def distances(self) -> NDArray[np.float32]:
        """Read-only float32 view (no copy) of the cost from each cell to the nearest goal;
        ``inf`` where unreachable or blocked. Follows :meth:`update`."""
        h = self._handle()
        return c.view(h, lib.tn_field_distances(h), self.shape, np.float32)

    @property
    def directions(self) -> NDArray[np.int8]:
        """int8 direction of each cell (0..7 clockwise from +x, -1 none), read-only."""
        with self._lock:
            if self._dirs is None:
                dirs = np.empty(self.shape, dtype=np.int8)
                self._fill_dirs(dirs)
                self._dirs = dirs
            return self._dirs

    @property
    def vectors(self) -> NDArray[np.float32]:
        """(height, width, 2) float32 unit vectors (x, y; y down): towards the goal centre for
        cells that see it, else the 8-way direction; (0, 0) where there is none. Read-only."""
        with self._lock:
            self._fill_view()
            assert self._vectors is not None
            return self._vectors

    @property
    def los(self) -> NDArray[np.bool_]:
        """bool: the cell sees the goal (all False without line of sight). Read-only."""
        with self._lock:
            self._fill_view()
            assert self._los is not None
            return self._los.view(np.bool_)

    @property
    def reachable_count(self) -> int:
        """Cells from which a goal can be reached (goals included)."""
        with self._lock:
            return int(lib.tn_field_reachable_count(self._handle()))

    @property
    def los_count(self) -> int:
        """Cells that see the goal (0 without line of sight)."""
        with self._lock:
            return int(lib.tn_field_los_count(self._handle()))

    def _fill_dirs(self, dirs: NDArray[np.int8]) -> None:
        """Write the directions into ``dirs`` (the caller holds the lock)."""
        dirs.setflags(write=True)
        lib.tnpy_field_dirs(self._handle(), ffi.from_buffer("int8_t[]", dirs))
        dirs.setflags(write=False)

    def _fill_view(self, force: bool = False) -> None:
        """Fill :attr:`vectors` and :attr:`los` (the caller holds the lock)."""
        if self._vectors is not None and not force:
            return
        h = self._handle()
        if self._vectors is None:
            self._vectors = np.zeros(self.shape + (2,), dtype=np.float32)
            self._los = np.zeros(self.shape, dtype=np.uint8)
            self._view = ffi.new("tn_flow_view *")
        assert self._los is not None
        self._vectors.setflags(write=True)
        self._los.setflags(write=True)
        check(lib.tn_flow_view_from_field(h, self._map_h, self.goal,
                                          ffi.cast("tn_vec2 *", ffi.from_buffer(self._vectors)),
                                          ffi.from_buffer("uint8_t[]", self._los),
                                          self._los.size, self._view), "tn_flow_view_from_field")
        self._vectors.setflags(write=False)
        self._los.setflags(write=False)

    def _flow_view(self) -> Any:
        """The tn_flow_view over :attr:`vectors` and :attr:`los` (for crowds)."""
        with self._lock:
            self._fill_view()
            return self._view

    # ---- queries ----------------------------------------------------------------------------
    def path(self, start: c.CellLike) -> NDArray[np.int32]:
        """Follow the directions from ``start`` to a goal: an (N, 2) int32 array of (x, y)
        cells; empty when ``start`` cannot reach a goal."""
        s = c.cell(start, "start")
        self._not_emptied("FlowField.path")
        n = ffi.new("int32_t *")
        cost = ffi.new("double *")
        cap = 256
        while True:
            buf = np.empty((cap, 2), dtype=np.int32)
            with self._lock:
                st = lib.tn_field_path(self._handle(), s,
                                       ffi.cast("tn_cell *", ffi.from_buffer(buf)), cap, n, cost)
            if st == lib.TN_E_BUFFER_TOO_SMALL:
                cap = n[0]
                continue
            check(st, "FlowField.path", f"from {s}")
            return buf[: n[0]].copy() if st == lib.TN_OK else buf[:0].copy()

    def sample(self, px: float, py: float) -> Tuple[float, float]:
        """The smooth direction at a pixel position (bilinear blend of the cell vectors,
        normalised; (0, 0) on blocked or unreachable cells, at the goal centre and at any
        position outside the map). ``px`` and ``py`` must be numbers (TypeError otherwise)
        that are finite as float32 (ValueError for NaN, infinities and beyond +-3.4e38)."""
        x, y = _pixel(px, "px"), _pixel(py, "py")
        with self._lock:
            v = lib.tn_field_sample(self._handle(), x, y)
        return (v.x, v.y)

    def build(self, goal: Any = None) -> None:
        """Build the field again from scratch, towards ``goal`` (a cell or several, as
        :meth:`Map.flow_field` takes; None: the field's :attr:`goals`), on the map as it is
        now. Needed after :meth:`update` raised :class:`BlockedError` (a goal became blocked:
        the field is empty until built again, towards other goals or once the goal is open);
        also the way to move a field's goal. Crowds following the field follow the new
        one from their next step. Raises :class:`BlockedError` when a goal is blocked (a
        field takes no blocked goal; it stays empty)."""
        goals = self.goals if goal is None else c.cells_array(goal, "goal")
        if self._los_on and len(goals) > 1:
            raise UnsupportedError(lib.TN_E_UNSUPPORTED, "FlowField.build",
                                   f"line of sight takes one goal, got {len(goals)}: make the "
                                   f"field with los=False for several goals")
        with self._lock:  # the field's lock, then the map's, as update()
            h = self._handle()
            self.map._read_begin()
            try:
                st = lib.tn_field_build(h, ffi.from_buffer("tn_cell[]", goals), len(goals))
            finally:
                self.map._read_end()
            self._emptied = st < 0
            check(st, "FlowField.build", _build_problem(st, self.map, goals, self.size,
                                                         self.extra))
            self.goals = goals
            self.goal = (int(goals[0, 0]), int(goals[0, 1]))
            if self._dirs is not None:
                self._fill_dirs(self._dirs)
            if self._vectors is not None:
                self._fill_view(force=True)

    def _not_emptied(self, what: str) -> None:
        if self._emptied:
            raise StateError(lib.TN_E_STATE, what,
                             "the field has no goal since an update() or build() found its "
                             "goals blocked: call build() once a goal is open, or build(goal) "
                             "towards another")

    def update(self, extra_changed: Union[Tuple[int, int, int, int], bool, None] = None
               ) -> int:
        """Bring the field up to date after the map was edited (:meth:`Map.set_cost`,
        :meth:`Map.set_tile`: the map's change log says where) and/or after the ``extra``
        layer was edited in place within the cell rectangle ``extra_changed = (x0, y0, x1,
        y1)`` (exclusive ends; ``True``: anywhere). The field cannot see edits of ``extra``
        by itself: without ``extra_changed`` they are not taken into account. Recomputes only
        the affected region and refreshes the arrays in place. Returns the cells
        recomputed.

        An edit that blocks a goal makes it raise :class:`BlockedError`: the field is then
        empty (:meth:`path` and :meth:`update` raise :class:`StateError` saying so) until
        :meth:`build`; its arrays, and a crowd following it, keep the directions of before the
        edit."""
        self._handle()
        self._not_emptied("FlowField.update")
        if extra_changed is True:
            extra_changed = (0, 0, self.shape[1], self.shape[0])
        rect = ffi.NULL
        if extra_changed is not None and extra_changed is not False:
            try:
                x0, y0, x1, y1 = (c.integer(v, "extra_changed", *c.INT32)
                                  for v in extra_changed)
            except (TypeError, ValueError):
                raise TypeError(f"extra_changed must be an (x0, y0, x1, y1) rectangle of "
                                f"integers, True or None, got {extra_changed!r}") from None
            if x1 < x0 or y1 < y0:
                raise ValueError(f"extra_changed must be an (x0, y0, x1, y1) rectangle with "
                                 f"x0 <= x1 and y0 <= y1, got {extra_changed!r}")
            rect = ffi.new("tn_rect *", (x0, y0, x1, y1))
        touched = ffi.new("int32_t *")
        with self._lock:  # the field's lock, then the map's: the order every caller takes
            h = self._handle()
            self.map._read_begin()  # not while the map is being edited
            try:
                st = lib.tn_field_update(h, rect, touched)
                self._emptied = st == lib.TN_E_GOAL_BLOCKED
                check(st, "FlowField.update", (c.extra_problem(self.extra) or "")
                      if st == lib.TN_E_INVALID_ARG and self.extra is not None else "")
            finally:
                self.map._read_end()
            if self._dirs is not None:
                self._fill_dirs(self._dirs)
            if self._vectors is not None:
                self._fill_view(force=True)
        return int(touched[0])


def _build_problem(st: int, map: Any, goals: Any, size: int, extra: Any) -> str:
    """The detail of a failed tn_field_build(): the extra layer's problem, or the goal."""
    if st == lib.TN_E_INVALID_ARG and extra is not None:
        return c.extra_problem(extra) or ""
    if len(goals) > 1:
        return _first_bad_goal(map, goals, size)
    detail = f"goal {goals[0].tolist()}"
    if size > 1 and st == lib.TN_E_GOAL_BLOCKED:
        detail += f" for a {size}x{size} unit: it does not fit there"
    return detail


def _first_bad_goal(map: Any, goals: Any, size: int) -> str:
    """Which of several goals a field refused: a field takes no blocked goal (where
    :meth:`Map.distances` skips them), so name the first one."""
    h, w = map.shape
    unit = f" for a {size}x{size} unit" if size > 1 else ""
    for k, (x, y) in enumerate(goals.tolist()):
        if not (0 <= x < w and 0 <= y < h):
            return f"goal {k}, {(x, y)}, is outside the map"
        if not map.fits((x, y), size):
            return (f"goal {k}, {(x, y)}, is blocked{unit} (a field takes no blocked goal: "
                    f"leave it out)")
    return "a goal is blocked or outside the map"
