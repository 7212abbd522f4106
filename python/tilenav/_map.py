"""Maps and path queries."""

from __future__ import annotations

import functools
import math
import os
import threading
import warnings
import weakref
from collections import OrderedDict
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, List, NamedTuple, Optional,
                    Tuple, TypeVar, Union, cast)

import numpy as np
from numpy.typing import NDArray

from . import _common as c
from ._errors import TilenavError, UnsupportedError, check, invalid
from ._tilenav import ffi, lib

if TYPE_CHECKING:
    from ._hierarchy import Hierarchy
    from ._field import FlowField
    from ._regions import Regions

ALGOS = {
    "astar": lib.TN_ALGO_ASTAR,
    "dijkstra": lib.TN_ALGO_DIJKSTRA,
    "jps": lib.TN_ALGO_JPS,
    "jps+": lib.TN_ALGO_JPS_PLUS,
}
HEURISTICS = {
    "auto": lib.TN_HEURISTIC_AUTO,
    "manhattan": lib.TN_HEURISTIC_MANHATTAN,
    "euclidean": lib.TN_HEURISTIC_EUCLIDEAN,
    "octile": lib.TN_HEURISTIC_OCTILE,
    "chebyshev": lib.TN_HEURISTIC_CHEBYSHEV,
    "zero": lib.TN_HEURISTIC_ZERO,
}
COLLISION = {
    "properties": lib.TN_COLLIDE_PROPERTIES,
    "shapes": lib.TN_COLLIDE_TILE_SHAPES,
    "objects": lib.TN_COLLIDE_OBJECT_LAYERS,
}
COVER = {"center": lib.TN_COVER_CENTER, "any": lib.TN_COVER_ANY, "half": lib.TN_COVER_HALF}
# the widest and highest map a JPS+ jump table takes (search.h, tn_jump_table_build: a side
# past 32767 is TN_E_TOO_LARGE)
JPS_PLUS_MAX_SIDE = 32767
_NO_CELLS = np.zeros((0, 2), dtype=np.int32)
_NO_CELLS.setflags(write=False)


class PathResult(NamedTuple):
    """A path query's result. ``cells`` is an (N, 2) int32 array of (x, y), start first
    (empty when there is no path); ``cost`` is the path's cost under the query's rules;
    ``expanded`` the nodes the search took off its open list; ``algo`` the algorithm that ran
    (``"astar"`` when JPS did not apply and fell back); ``found`` False for "no path", True
    when ``cells`` hold a path. ``status`` says where that path ends: ``"ok"`` at the goal,
    ``"closest"`` (``closest=True``, goal unreachable) at the reachable cell nearest to it,
    ``"partial"`` (``max_expansions`` ran out) at the expanded cell nearest to it; ``"no
    path"`` when ``found`` is False. ``end`` is the path's last cell (None without a path)."""

    cells: NDArray[np.int32]
    cost: float
    expanded: int
    algo: str
    found: bool
    status: str = "ok"
    end: Optional[Tuple[int, int]] = None


class PathBatch(NamedTuple):
    """The results of :meth:`Map.paths`: ``cells`` a list of (N_i, 2) int32 arrays (empty
    where there is no path), ``cost`` (float64), ``expanded`` (int64) and ``found`` (bool)
    arrays with one entry per query."""

    cells: List[NDArray[np.int32]]
    cost: NDArray[np.float64]
    expanded: NDArray[np.int64]
    found: NDArray[np.bool_]


# memory for one chunk of a batch's path buffers (queries * cells per path * 8 bytes)
_BATCH_BYTES = 4 << 20
# query option sets a map keeps ready (the least recently used go first)
_QUERY_CACHE = 32
# a map from from_numpy forgets the costs no cell has any more when it has made more than
# twice the costs in use at its last compaction plus this many (Map._compact_costs)
_COST_SLACK = 64


class _Context:
    """One search context with its path buffer; a map keeps a pool of them, one per thread
    that is querying at the moment."""

    __slots__ = ("search", "arr", "cells", "cap", "res")

    def __init__(self, cells: int, longest: int) -> None:
        sdef = ffi.new("tn_search_def *", lib.tn_search_def_default())
        sdef.max_cells = cells
        out = ffi.new("tn_search **")
        check(lib.tn_search_create(sdef, out), "tn_search_create")
        self.search = c.owned(out[0], lib.tn_search_destroy, cells * 16)
        self.res = ffi.new("tn_search_result *")
        self.grow(longest)

    def grow(self, longest: int) -> None:
        """A path buffer of ``longest`` cells (a path visits each passable cell at most once:
        the map's passable cells when the context is made; an edit that opens cells may call
        for more, which TN_E_BUFFER_TOO_SMALL says): ``arr``, an (N, 2) int32 array, and
        ``cells``, the same memory as a ``tn_cell *``."""
        self.cap = max(1, longest)
        self.arr: NDArray[np.int32] = np.empty((self.cap, 2), dtype=np.int32)
        self.cells = ffi.cast("tn_cell *", ffi.from_buffer(self.arr))


_F = TypeVar("_F", bound=Callable[..., Any])


def _reads(method: _F) -> _F:
    """Run a Map method as a query: never at the same time as an edit (Map._read_begin)."""

    @functools.wraps(method)
    def wrapper(self: "Map", *args: Any, **kwargs: Any) -> Any:
        self._read_begin()
        try:
            return method(self, *args, **kwargs)
        finally:
            self._read_end()

    return cast(_F, wrapper)


class Map:
    """A tile map: passability and a cost per cell, as the paths, fields and crowds read it.

    Make one with :meth:`from_numpy` (a cost array) or :meth:`load` (a Tiled JSON/TMX map, a
    Moving AI map or a tilenav ASCII map). Cells are ``(x, y)`` = (column, row); per-cell arrays
    have the shape ``(height, width)`` and are indexed ``[y, x]``.

    Queries may run from many threads at once: each thread borrows its own search context from
    the map's pool, and the GIL is released while the C code runs. ``close()`` (or a ``with``
    block) releases the C map at once when nothing else uses it; otherwise the fields, crowds
    and arrays made from it keep it alive until they go.
    """

    def __init__(self, handle: Any, _token: object = None) -> None:
        if _token is not _TOKEN:
            raise TypeError("use Map.from_numpy() or Map.load()")
        self._h = handle
        self.width: int = lib.tn_map_width(handle)
        self.height: int = lib.tn_map_height(handle)
        self._pool: List[_Context] = []
        # the tn_query of each option set recently used, least recent first (_QUERY_CACHE)
        self._queries: "OrderedDict[Tuple[Any, ...], Tuple[Any, Any]]" = OrderedDict()
        self._qlock = threading.Lock()
        self._lock = threading.Lock()
        self._jump_tables: Dict[int, Any] = {}  # unit size -> jump table on its size map
        self._clearance: Any = None  # built on the first query for a unit bigger than a cell
        self._regions: Dict[bool, Any] = {}  # corner="always"? -> tn_regions, built when asked
        # clearances and regions replaced by bigger ones while fields, hierarchies or Regions
        # still read them: every edit updates them too, until the last reader goes
        self._old_clearances: "weakref.WeakSet[Any]" = weakref.WeakSet()
        self._old_regions: "weakref.WeakSet[Any]" = weakref.WeakSet()
        # edits wait for the queries running on other threads, and queries for an edit (the
        # methods marked @_reads, and the objects built on the map while they read it)
        rw = c.ReadWriteLock("a map")
        self._read_begin: Callable[[], None] = rw.read_begin
        self._read_end: Callable[[], None] = rw.read_end
        self._write_begin: Callable[[], None] = rw.write_begin
        self._write_end: Callable[[], None] = rw.write_end
        # maps made by from_numpy: the "cost" layer's gid of each cost (gid 1 blocks); the
        # gids no cell held at the last compaction (_compact_costs), to be used again; the next
        # gid never used; the number of costs in use at the last compaction
        self._cost_gids: Optional[Dict[float, int]] = None
        self._free_gids: List[int] = []
        self._next_gid = 2
        self._costs_live = 0

    # ---- construction -----------------------------------------------------------------------
    @classmethod
    def from_numpy(cls, cost: Any, *, tile_size: Union[int, Tuple[int, int]] = 32) -> "Map":
        """A map from a (height, width) array of costs, indexed ``[y, x]``.

        A cell is blocked where the cost is 0 or ``inf`` (or False, for a boolean "walkable"
        array: the python-tcod convention), otherwise entering it costs that multiple of the
        step (1 for a straight step, sqrt 2 for a diagonal one). Costs are stored as float32.
        Any dtype of bool, int, uint or float and any strides are accepted (the map copies
        them). ``tile_size`` is the pixel size of a cell (for crowds and field sampling).

        A map has at most 65536 cells per side and 268435456 (2**28) cells in all, the C
        library's limits ``TN_MAX_DIM`` and ``TN_MAX_CELLS``, fixed when the module is
        compiled: a bigger array raises :class:`InvalidArgumentError` (status
        ``TN_E_TOO_LARGE``) at once, before anything is copied."""
        arr = np.asarray(cost)
        if arr.dtype.kind not in "biuf":  # None, strings, objects: the type is wrong
            raise TypeError(f"cost must be a bool, integer or float array, got "
                            f"{type(cost).__name__} (dtype {arr.dtype})")
        if arr.ndim != 2:
            raise ValueError(f"cost must be a 2-D (height, width) array, got shape {arr.shape}")
        h, w = arr.shape
        if h < 1 or w < 1:
            raise ValueError(f"cost must have at least one cell, got shape {arr.shape}")
        if max(h, w) > lib.TN_MAX_DIM or h * w > lib.TN_MAX_CELLS:
            raise invalid(f"cost of {w} x {h} cells (width x height) is past the map size limit "
                          f"({lib.TN_MAX_DIM} per side, {lib.TN_MAX_CELLS} cells)",
                          lib.TN_E_TOO_LARGE)
        tw, th = c.tile_size(tile_size)
        if arr.dtype.kind == "b":
            values = arr.astype(np.float32)
        else:
            values = arr.astype(np.float64)
            if np.isnan(values).any() or (values < 0).any():
                raise ValueError("cost must not hold negative or NaN values (0 or inf = blocked)")
            with np.errstate(over="ignore", under="ignore"):  # checked just below
                values = values.astype(np.float32)
            if ((values == 0) & (arr != 0)).any():
                raise ValueError("cost holds values float32 cannot represent (below 1e-45)")
            big = np.isfinite(arr) & (arr > c.MAX_COST)
            if big.any():
                y, x = (int(v) for v in np.argwhere(big)[0])
                raise ValueError(f"cost holds values above 1e28, the largest finite cost "
                                 f"(TN_MAX_COST; inf blocks): cost[{y}, {x}] is "
                                 f"{float(arr[y, x])!r}")
        # one gid per distinct cost: gid 1 blocks, gids 2.. carry the costs in ascending order
        blocked = (values == 0) | np.isinf(values)
        uniq, inverse = np.unique(np.where(blocked, np.float32(np.inf), values),
                                  return_inverse=True)
        gids = np.ascontiguousarray((inverse.reshape(h, w) + 2).astype(np.uint32))
        if np.isinf(uniq[-1]):
            gids[blocked] = 1
            uniq = uniq[:-1]
        tgids = np.arange(1, 2 + len(uniq), dtype=np.uint32)
        tcost = np.ones(1 + len(uniq), dtype=np.float32)
        tcost[1:] = uniq
        tpass = np.ones(1 + len(uniq), dtype=np.uint8)
        tpass[0] = 0
        out = ffi.new("tn_map **")
        check(lib.tnpy_map_from_gids(w, h, tw, th, ffi.from_buffer("uint32_t[]", gids),
                                     ffi.from_buffer("uint32_t[]", tgids),
                                     ffi.from_buffer("float[]", tcost),
                                     ffi.from_buffer("uint8_t[]", tpass), len(tgids), out),
              "Map.from_numpy")
        m = cls(c.owned(out[0], lib.tn_map_destroy, lib.tn_map_memory_bytes(out[0])), _TOKEN)
        m._cost_gids = {float(v): 2 + i for i, v in enumerate(uniq)}
        m._next_gid = 2 + len(uniq)
        m._costs_live = len(uniq)
        return m

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"], *, format: c.Format = "auto",
             collision: Union[c.Collision, Iterable[c.Collision]] = ("properties", "shapes",
                                                                  "objects"),
             cover: c.Cover = "center", collision_layers: Optional[str] = None,
             tile_size: Union[int, Tuple[int, int], None] = None) -> "Map":
        """Load a map file: Tiled JSON (``.tmj``/``.json``), Tiled XML (``.tmx``), Moving AI
        (``.map``) or tilenav ASCII (``.txt``); ``format="auto"`` detects it.

        ``collision`` lists which of Tiled's conventions block cells (``"properties"``,
        ``"shapes"``, ``"objects"``; docs/formats.md), ``cover`` when a collision shape blocks a
        cell (``"center"``, ``"any"``, ``"half"``), ``collision_layers`` the comma-separated
        names marking collision object layers (None: the library's default list),
        ``tile_size`` the pixel size of a cell for formats without one (Moving AI, ASCII):
        one integer or a (width, height) pair, as in :meth:`from_numpy`; a Tiled map keeps its
        own tile size, with a ``UserWarning`` when ``tile_size`` differs from it.
        Raises :class:`ParseError` or :class:`LoadIOError` with the file, line and reason, and
        :class:`InvalidArgumentError` (status ``TN_E_TOO_LARGE``) for a map past the size
        limit of :meth:`from_numpy` or another fixed limit of the loaders, which the message
        names."""
        opts = ffi.new("tn_load_def *", lib.tn_load_def_default())
        formats = {"auto": lib.TN_FORMAT_AUTO, "movingai": lib.TN_FORMAT_MOVINGAI,
                   "tiled": lib.TN_FORMAT_TILED, "tmx": lib.TN_FORMAT_TMX,
                   "ascii": lib.TN_FORMAT_ASCII}
        opts.format = c.choice(formats, format, "format", f"one of {sorted(formats)}")
        opts.cover = c.choice(COVER, cover, "cover", f"one of {sorted(COVER)}")
        try:
            names = [collision] if isinstance(collision, str) else list(collision)
        except TypeError:
            raise TypeError(f"collision must be a name or names from {sorted(COLLISION)}, got "
                            f"{collision!r}") from None
        bits = 0
        for name in names:
            bits |= c.choice(COLLISION, name, "collision", f"names from {sorted(COLLISION)}")
        opts.collision = bits
        keep = None
        if collision_layers is not None:
            if not isinstance(collision_layers, str):
                hint = ""
                if isinstance(collision_layers, (list, tuple)) and all(
                        isinstance(v, str) for v in collision_layers):
                    hint = f": pass {','.join(collision_layers)!r}"
                raise TypeError(f"collision_layers must be a str of comma-separated layer names "
                                f"(or None: the library's default list), got "
                                f"{collision_layers!r}{hint}")
            keep = ffi.new("char[]", collision_layers.encode())
            opts.collision_layers = keep
        if tile_size is not None:
            opts.tile_width, opts.tile_height = c.tile_size(tile_size)
        out = ffi.new("tn_map **")
        diag = ffi.new("tn_diag *")
        fspath = c.fs_path(path, "Map.load")
        st = lib.tn_map_load(fspath, opts, out, diag)
        _check_load(st, f"Map.load({os.fsdecode(fspath)!r})", diag)
        m = cls(c.owned(out[0], lib.tn_map_destroy, lib.tn_map_memory_bytes(out[0])), _TOKEN)
        if tile_size is not None and (opts.tile_width, opts.tile_height) != m.tile_size:
            warnings.warn(f"Map.load({os.fsdecode(fspath)!r}): tile_size "
                          f"{(opts.tile_width, opts.tile_height)} is for formats without a tile "
                          f"size; the map gives its own, {m.tile_size}", stacklevel=2)
        return m

    # ---- life -------------------------------------------------------------------------------
    def close(self) -> None:
        """Release the map's C memory and search contexts now (fields, crowds and arrays made
        from it keep what they need until they go). Further queries raise ValueError."""
        self._h = None
        self._pool = []
        self._queries = OrderedDict()
        self._jump_tables = {}
        self._clearance = None
        self._regions = {}
        self._old_clearances = weakref.WeakSet()
        self._old_regions = weakref.WeakSet()

    @property
    def closed(self) -> bool:
        """True after :meth:`close` (further queries raise ValueError)."""
        return self._h is None

    def __enter__(self) -> "Map":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._h is None else f"{self.width}x{self.height}"
        return f"<tilenav.Map {state}>"

    @_reads
    def copy(self) -> "Map":
        """An independent deep copy of the map (``tn_map_clone``: layers, terrain, objects,
        tilesets): edits of one do not reach the other. The copy builds its own clearance,
        regions and jump tables when it needs them. ``copy.copy`` and ``copy.deepcopy`` call
        it."""
        out = ffi.new("tn_map **")
        check(lib.tn_map_clone(self._handle(), out), "Map.copy")
        m = Map(c.owned(out[0], lib.tn_map_destroy, lib.tn_map_memory_bytes(out[0])), _TOKEN)
        m._cost_gids = None if self._cost_gids is None else dict(self._cost_gids)
        m._free_gids = list(self._free_gids)
        m._next_gid = self._next_gid
        m._costs_live = self._costs_live
        return m

    def __copy__(self) -> "Map":
        return self.copy()

    def __deepcopy__(self, memo: Any) -> "Map":
        return self.copy()

    @_reads
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        """Pickling: a map made by :meth:`from_numpy` pickles as its costs (blocked cells as
        ``inf``) and tile size, and unpickles through :meth:`from_numpy`. A map loaded from a
        file has layers, tilesets and objects with no serialised form: TypeError."""
        if self._cost_gids is None:
            raise TypeError("a Map loaded from a file cannot be pickled (its layers, tilesets and "
                            "objects have no serialised form): pickle the file's path and call "
                            "Map.load() again; Map.copy() copies it within the process")
        return (_unpickle_map, (np.array(self.costs), self.tile_size))

    def _handle(self) -> Any:
        h = self._h
        if h is None:
            raise ValueError("the map is closed")
        return h

    # ---- what the map holds -----------------------------------------------------------------
    @property
    def shape(self) -> Tuple[int, int]:
        """(height, width): the shape of every per-cell array."""
        return (self.height, self.width)

    @property
    def tile_size(self) -> Tuple[int, int]:
        """Pixel (width, height) of a cell."""
        h = self._handle()
        return (lib.tn_map_tile_width(h), lib.tn_map_tile_height(h))

    @property
    def passable(self) -> NDArray[np.bool_]:
        """Read-only (height, width) bool view of the map's passability (no copy)."""
        h = self._handle()
        return c.view(h, lib.tn_map_passable_data(h), self.shape, np.bool_)

    @property
    def costs(self) -> NDArray[np.float32]:
        """Read-only (height, width) float32 view of the cost of entering each cell (no copy;
        ``inf`` where blocked)."""
        h = self._handle()
        return c.view(h, lib.tn_map_cost_data(h), self.shape, np.float32)

    @property
    def uniform_cost(self) -> bool:
        """True when every passable cell costs 1 (what JPS needs)."""
        return bool(lib.tn_map_uniform_cost(self._handle()))

    @property
    def layers(self) -> List[str]:
        """Names of the map's layers (Tiled's, in file order)."""
        h = self._handle()
        return [ffi.string(lib.tn_map_layer_name(h, i)).decode("utf-8", "replace")
                for i in range(lib.tn_map_layer_count(h))]

    # ---- edits ------------------------------------------------------------------------------
    # Queries (the methods marked @_reads) and edits exclude each other (_read_begin,
    # _write_begin: a c.ReadWriteLock): an edit waits for the queries running on other threads
    # and blocks new ones until it is done. A thread may nest queries, so a query that calls
    # another never waits for an edit that waits for it.

    def _after_edit(self) -> None:
        """Bring what the map keeps up to date with an edit: the clearance and its size maps
        and the regions update locally (they log what changed, so fields built on the size
        maps update incrementally), and so do the ones they replaced that something still
        reads (a field or hierarchy on an older size map, a Regions); JPS+ jump tables are
        rebuilt on their next query."""
        clearances = [] if self._clearance is None else [self._clearance]
        for cl in clearances + list(self._old_clearances):
            check(lib.tn_clearance_update(cl, ffi.NULL), "clearance update")
        for rg in list(self._regions.values()) + list(self._old_regions):
            check(lib.tn_regions_update(rg, ffi.NULL), "regions update")
        if self._jump_tables:
            self._jump_tables = {}
            self._forget_queries(lambda k: bool(k[0] == "jps+"))

    @property
    def revision(self) -> int:
        """A counter the map's edits move (``tn_map_revision``)."""
        return int(lib.tn_map_revision(self._handle()))

    def _set_cells(self, what: str, layer: int, cells: Any, gid: int, cost: float = 0.0
                   ) -> None:
        """Put ``gid`` on ``cells`` of ``layer``; gid 0 with a ``cost``: the cost layer's gid
        of that cost, made when the map has none yet (one pass over the map, no cell
        changes)."""
        h = self._handle()
        if np.asarray(cells).size == 0:
            return  # no cells: nothing to do
        cc = c.cells_array(cells, "cells")
        bad = ffi.new("int32_t *")
        self._write_begin()
        try:
            if gid == 0 and cost > 0.0:
                gid = self._cost_gid(h, layer, cost, what)
            st = lib.tnpy_map_set_cells(h, layer, ffi.from_buffer("tn_cell[]", cc), len(cc), gid,
                                        bad)
            self._after_edit()  # nothing to do when nothing changed
        finally:
            self._write_end()
        check(st, what, f"cell {tuple(cc[bad[0]].tolist())}" if bad[0] >= 0 else "")

    def _cost_gid(self, h: Any, layer: int, cost: float, what: str) -> int:
        """The cost layer's gid of ``cost`` (float32, passable), made when the map has none:
        a gid that no cell holds any more, or a new one (the caller holds the edit lock)."""
        gids = self._cost_gids
        assert gids is not None
        gid = gids.get(cost, 0)
        if gid:
            return gid
        if len(gids) > 2 * self._costs_live + _COST_SLACK:
            self._compact_costs(h, layer)
        gid = self._free_gids[-1] if self._free_gids else self._next_gid
        t = ffi.new("tn_terrain *", {"passable": True, "cost": cost})
        check(lib.tn_map_set_terrain(h, gid, t[0]), what)
        if self._free_gids:
            self._free_gids.pop()
        else:
            self._next_gid += 1
        gids[cost] = gid
        return gid

    def _compact_costs(self, h: Any, layer: int) -> None:
        """Forget the costs that no cell has any more and keep their gids for new costs, so
        that a map edited with ever-new costs keeps a terrain table (and a dict) about the
        size of the costs in use instead of one entry per cost it ever had. One pass over the
        cells, made when the table has grown past twice the costs in use at the last pass
        (plus _COST_SLACK): amortised O(1) per new cost, itself O(cells) in the C library.
        The costs and gids of the cells do not change."""
        gids = self._cost_gids
        assert gids is not None
        used = np.empty(self._next_gid, dtype=np.uint8)
        past = lib.tnpy_layer_gids_used(h, layer, ffi.from_buffer("uint8_t[]", used),
                                        self._next_gid)
        assert past == 0, "a cost layer holds a gid the map never made"
        live = {cost: gid for cost, gid in gids.items() if used[gid]}
        gids.clear()
        gids.update(live)
        used[:2] = 1  # gid 0 is no tile, gid 1 blocks
        # the lowest first (pop() takes from the end), so the table stays dense
        self._free_gids = np.flatnonzero(used == 0)[::-1].tolist()
        self._costs_live = len(live)

    def set_cost(self, cells: Any, cost: float) -> None:
        """Change the terrain of ``cells`` (one (x, y) or an (N, 2) array) on a map made by
        :meth:`from_numpy`: a cost of 0 or ``inf`` blocks them (a tower, a closed door), any
        other positive cost is what entering them costs from now on.

        Paths and :meth:`distances` see the change at once; the map's clearance, regions and
        jump tables are brought up to date here (locally: the edit's window); a
        :class:`FlowField`, :class:`Hierarchy` or sector field made before the edit follows
        it when you call its ``update()``. An edit waits for the queries running on other
        threads (and they for it), and so for what reads the map: regions, field and
        hierarchy updates, hierarchy queries, sector fields, crowd steps. All cells are
        checked first: one outside the map raises
        :class:`OutOfMapError` and changes nothing. A cost the map does not have yet takes a
        new terrain entry (a change of every cell in the map's change log); the entries of
        costs no cell has any more are reused, so ever-new costs keep the table the size of
        the costs in use. A map loaded from a file has no cost layer: place tiles with
        :meth:`set_tile` (its tilesets say what blocks)."""
        if self._cost_gids is None:
            raise UnsupportedError(lib.TN_E_UNSUPPORTED, "Map.set_cost",
                                   "the map was loaded from a file: use set_tile()")
        value = c.number(cost, "cost", ">= 0 (0 or inf = blocked)")
        if math.isnan(value) or value < 0:
            raise ValueError(f"cost must be >= 0 (0 or inf = blocked), got {value}")
        # checked before the cast, which would warn (RuntimeWarning: overflow) on its way to inf
        if not math.isinf(value) and value > c.MAX_COST:
            raise ValueError(f"cost {value} is above 1e28, the largest finite cost (TN_MAX_COST; "
                             f"inf blocks)")
        v32 = float(np.float32(value))
        if v32 == 0.0 and value != 0.0:
            raise ValueError(f"cost {value} is not representable as float32 (below 1e-45)")
        gid = 1 if v32 == 0.0 or math.isinf(v32) else 0
        self._set_cells("Map.set_cost", lib.tn_map_find_layer(self._handle(), b"cost"), cells,
                        gid, v32)

    def _layer(self, layer: Union[str, int]) -> int:
        h = self._handle()
        if isinstance(layer, str):
            i = int(lib.tn_map_find_layer(h, layer.encode()))
            if i < 0:
                raise ValueError(f"no layer named {layer!r} (layers: {self.layers})")
            return i
        if not isinstance(layer, (int, np.integer)) or isinstance(layer, bool):
            raise TypeError(f"layer must be a name or an index, got {layer!r}")
        if not 0 <= int(layer) < lib.tn_map_layer_count(h):
            raise ValueError(f"layer index {layer} is outside 0..{lib.tn_map_layer_count(h) - 1}")
        return int(layer)

    def tile(self, layer: Union[str, int], cell: c.CellLike) -> int:
        """The raw gid (Tiled's flip flags included) of ``cell`` in tile layer ``layer`` (a
        name or an index); 0 outside the map."""
        x, y = c.cell(cell, "cell")
        return int(lib.tn_map_get(self._handle(), self._layer(layer), x, y))

    def set_tile(self, layer: Union[str, int], cells: Any, gid: int) -> None:
        """Put tile ``gid`` (0 = empty) on ``cells`` (one (x, y) or an (N, 2) array) of tile
        layer ``layer`` (a name or an index) of a map loaded from a file: a tower from the
        tileset, a door, a bridge. What the cells then block and cost follows the map's
        terrain (for a Tiled map, its tilesets' collision properties; docs/formats.md); a gid
        without a terrain entry neither blocks nor costs (cost 1). Everything else as
        :meth:`set_cost`. A map made by :meth:`from_numpy` takes :meth:`set_cost` instead
        (UnsupportedError)."""
        if self._cost_gids is not None:
            raise UnsupportedError(lib.TN_E_UNSUPPORTED, "Map.set_tile",
                                   "the map was made by from_numpy: use set_cost()")
        gid = c.integer(gid, "gid", 0, 0xFFFFFFFF, "in 0..2**32-1")
        index = self._layer(layer)
        if lib.tn_map_layer_kind(self._handle(), index) != lib.TN_LAYER_TILES:
            tiles = [n for i, n in enumerate(self.layers)
                     if lib.tn_map_layer_kind(self._handle(), i) == lib.TN_LAYER_TILES]
            raise ValueError(f"layer {layer!r} is an object layer: set_tile needs a tile layer "
                             f"(tile layers: {tiles})")
        self._set_cells("Map.set_tile", index, cells, gid)

    # ---- paths ------------------------------------------------------------------------------
    def _acquire(self) -> _Context:
        try:
            return self._pool.pop()
        except IndexError:
            return _Context(self.width * self.height,
                            lib.tn_map_passable_count(self._handle()))

    def _query(self, algo: str, moves: int, corner: str, heuristic: str, weight: float,
               step_costs: str, size: int = 1, regions: bool = False, closest: bool = False,
               max_expansions: Optional[int] = None) -> Tuple[Any, Any]:
        """The tn_query of these options and what its pointers point into (hold both while
        the query runs: a clearance or regions that grow replace the cached entry).

        The cache's keys are options as checked and normalised (ints, a float weight, bools,
        None or an int budget); arguments that already have exactly those types are looked up
        as they are, since a key found was checked when it was made (8.0 or True are never
        found as 8 or 1: they take the slow path, which checks and refuses them)."""
        if (type(moves) is int and type(size) is int and type(weight) is float and
                type(regions) is bool and type(closest) is bool and type(algo) is str and
                type(corner) is str and type(heuristic) is str and type(step_costs) is str and
                (max_expansions is None or type(max_expansions) is int)):
            key: Tuple[Any, ...] = (algo, moves, corner, heuristic, weight, step_costs,
                                    closest, max_expansions, regions, size)
            queries = self._queries
            entry = queries.get(key)
            if entry is not None:
                try:
                    queries.move_to_end(key)
                except KeyError:  # another thread's query dropped it meanwhile
                    pass
                return entry
        diagonal, costs = c.moves_struct(moves, corner, step_costs)
        moves = 8 if moves == 8 else 4
        size = c.unit_size(size)
        weight = c.weight(weight)
        regions = c.flag(regions, "regions")
        closest = c.flag(closest, "closest")
        if max_expansions is not None:
            max_expansions = c.integer(max_expansions, "max_expansions", 1, 2**63 - 1,
                                       "in 1..2**63-1 (or None: no budget)")
        c.choice(ALGOS, algo, "algo", f"one of {sorted(ALGOS)}")
        c.choice(HEURISTICS, heuristic, "heuristic", f"one of {sorted(HEURISTICS)}")
        algo, corner, heuristic, step_costs = str(algo), str(corner), str(heuristic), \
            str(step_costs)
        key = (algo, moves, corner, heuristic, weight, step_costs, closest, max_expansions,
               regions, size)
        with self._qlock:
            entry = self._queries.get(key)
            if entry is not None:
                self._queries.move_to_end(key)
                return entry
        q = ffi.new("tn_query *")
        q.moves.diagonal = diagonal
        q.moves.costs = costs
        q.algo = ALGOS[algo]
        q.heuristic = HEURISTICS[heuristic]
        q.weight = weight
        q.jps_fallback = True
        q.closest = closest
        q.max_expansions = max_expansions or 0
        keep: Any = None
        if size > 1:
            keep = self._clearance_handle(size)
            q.size = size
            q.clearance = keep
        if algo == "jps+":
            jt = self._jump_table_handle(size)
            q.jump_table = jt
            keep = (keep, jt)
        if regions:
            rg = self._regions_handle(diagonal == lib.TN_DIAGONAL_ALWAYS, size)
            q.regions = rg
            keep = (keep, rg)
        entry = (q, keep)
        with self._qlock:
            self._queries[key] = entry
            while len(self._queries) > _QUERY_CACHE:
                self._queries.popitem(last=False)
        return entry

    def _forget_queries(self, drop: Callable[[Tuple[Any, ...]], bool]) -> None:
        """Drop the cached queries whose key ``drop`` picks (their users keep them alive)."""
        with self._qlock:
            for k in [k for k in self._queries if drop(k)]:
                del self._queries[k]

    def _jump_table_handle(self, size: int = 1) -> Any:
        mh, keep = self._size_map(size)
        with self._lock:
            jt = self._jump_tables.get(size)
            if jt is None:
                jdef = ffi.new("tn_jump_table_def *", lib.tn_jump_table_def_default())
                jdef.map = mh
                out = ffi.new("tn_jump_table **")
                st = lib.tn_jump_table_build(jdef, out)
                if st == lib.TN_E_TOO_LARGE:
                    raise invalid(f"algo='jps+' takes maps up to {JPS_PLUS_MAX_SIDE} cells "
                                  f"wide and high (the jump table's fixed limit in the C "
                                  f"library); this map is {self.width} x {self.height} cells: "
                                  f"use algo='jps' (the same paths, without a table)",
                                  lib.TN_E_TOO_LARGE)
                check(st, "tn_jump_table_build")
                jt = c.owned(out[0], lib.tn_jump_table_destroy, keep=(mh, keep))
                self._jump_tables[size] = jt
            return jt

    # ---- units bigger than one cell ---------------------------------------------------------
    def _clearance_handle(self, size: int) -> Any:
        """The clearance (clearance.h) with size maps up to at least ``size``: built on first
        use with a cap of 4, rebuilt with a doubled cap when a bigger unit comes (the old one
        lives on, kept current by edits, while fields and hierarchies read its size maps)."""
        h = self._handle()
        with self._lock:
            cl = self._clearance
            if cl is not None and lib.tn_clearance_max_size(cl) >= size:
                return cl
            cap = 4 if cl is None else min(255, 2 * lib.tn_clearance_max_size(cl))
            cdef = ffi.new("tn_clearance_def *", lib.tn_clearance_def_default())
            cdef.map = h
            cdef.max_size = max(size, cap)
            out = ffi.new("tn_clearance **")
            check(lib.tn_clearance_create(cdef, out), "tn_clearance_create")
            cl = c.owned(out[0], lib.tn_clearance_destroy, lib.tn_clearance_memory_bytes(out[0]),
                         keep=h)
            if self._clearance is not None:
                # queries and jump tables of the old one stay alive as long as someone uses them;
                # fields and hierarchies on its size maps do too, and edits keep it current
                self._forget_queries(lambda k: bool(k[-1] != 1))
                self._jump_tables = {k: v for k, v in self._jump_tables.items() if k == 1}
                self._old_clearances.add(self._clearance)
            self._clearance = cl
            return cl

    def _regions_handle(self, always: bool, size: int) -> Any:
        """The tn_regions of the side-connected rules (4 moves, corner "never" or "one") or of
        corner "always", with size classes up to at least ``size``: built on first use,
        rebuilt with a doubled cap when a bigger unit asks."""
        h = self._handle()
        with self._lock:
            rg = rg_old = self._regions.get(always)
            old = 0 if rg is None else lib.tn_clearance_max_size(lib.tn_regions_clearance(rg))
            if old >= size:
                return rg
            rdef = ffi.new("tn_regions_def *", lib.tn_regions_def_default())
            rdef.map = h
            rdef.diagonal = lib.TN_DIAGONAL_ALWAYS if always else lib.TN_DIAGONAL_NO_CUT
            rdef.max_size = max(size, min(255, 2 * old))
            rdef.size_maps = False  # the map's own clearance serves sized queries
            out = ffi.new("tn_regions **")
            check(lib.tn_regions_create(rdef, out), "tn_regions_create")
            rg = c.owned(out[0], lib.tn_regions_destroy, lib.tn_regions_memory_bytes(out[0]),
                         keep=h)
            if old:  # the queries that point at the old ones go (their users keep them alive,
                # and edits keep them current)
                self._forget_queries(lambda k: bool(k[-2]))
                self._old_regions.add(rg_old)
            self._regions[always] = rg
            return rg

    @_reads
    def regions(self, *, corner: c.Corner = "never", max_size: int = 1) -> "Regions":
        """The map's regions (its connected components) for units of sizes 1..``max_size``
        under the rule ``corner`` (``"never"``, ``"one"`` and 4 moves share theirs;
        ``"always"`` has its own): see :class:`Regions`. Built on first use (one
        breadth-first pass per size class, 4 bytes per cell and size class) and shared with
        the queries made with ``regions=True``."""
        from ._regions import Regions

        diagonal, _ = c.moves_struct(8, corner)
        max_size = c.unit_size(max_size, "max_size")
        always = diagonal == lib.TN_DIAGONAL_ALWAYS
        return Regions(self, self._regions_handle(always, max_size),
                       "always" if always else "never")

    def _size_map(self, size: int) -> Tuple[Any, Any]:
        """The map a unit of ``size`` moves on (its top-left cell; clearance.h) and the object
        that owns it (None for size 1)."""
        size = c.unit_size(size)
        if size == 1:
            return self._handle(), None
        cl = self._clearance_handle(size)
        return lib.tn_clearance_map(cl, size), cl

    @_reads
    def clearance(self, max_size: int = 4) -> NDArray[np.uint8]:
        """For every cell, the side of the largest square unit (up to ``max_size``, 1..255)
        that fits with its top-left cell there: a unit of size n may stand at (x, y) exactly
        when ``clearance[y, x] >= n``; 0 on blocked cells. A new (height, width) uint8
        array."""
        max_size = c.unit_size(max_size, "max_size")
        cl = self._clearance_handle(max_size)
        data = np.frombuffer(ffi.buffer(lib.tn_clearance_data(cl), self.width * self.height),
                             dtype=np.uint8).reshape(self.shape)
        return np.minimum(data, max_size)

    @_reads
    def fits(self, cell: c.CellLike, size: int) -> bool:
        """Whether a ``size`` x ``size`` unit can stand with its top-left cell at ``cell``
        (every cell it covers inside the map and passable): False, not
        :class:`OutOfMapError`, for a cell outside the map."""
        size = c.unit_size(size)
        x, y = c.cell(cell, "cell")
        if size == 1:
            return bool(0 <= x < self.width and 0 <= y < self.height and
                        lib.tn_map_passable_data(self._handle())[y * self.width + x])
        return bool(lib.tn_clearance_get(self._clearance_handle(size), x, y) >= size)

    def path_result(self, start: c.CellLike, goal: c.CellLike, *, algo: c.Algo = "jps",
                    moves: int = 8, corner: c.Corner = "never", heuristic: c.Heuristic = "auto",
                    weight: float = 1.0, step_costs: c.StepCosts = "exact", extra: Any = None,
                    size: int = 1, regions: bool = False, closest: bool = False,
                    max_expansions: Optional[int] = None) -> PathResult:
        """Like :meth:`path`, with the cost, the expansions, the algorithm that ran and where
        the path ends (:class:`PathResult`: ``status`` ``"ok"``, ``"closest"``, ``"partial"``
        or ``"no path"``, and ``end``)."""
        return cast("PathResult", self._search(start, goal, algo, moves, corner, heuristic,
                                             weight, step_costs, extra, size, regions, closest,
                                             max_expansions, True))

    def _search(self, start: c.CellLike, goal: c.CellLike, algo: str, moves: int, corner: str,
                heuristic: str, weight: float, step_costs: str, extra: Any, size: int,
                regions: bool, closest: bool, max_expansions: Optional[int], full: bool
                ) -> Union[PathResult, NDArray[np.int32]]:
        """One path query (a query of the map: @_reads, written out for speed): a
        :class:`PathResult` when ``full``, else the cells only."""
        self._read_begin()
        try:
            h = self._h
            if h is None:
                raise ValueError("the map is closed")
            s = c.cell(start, "start")
            g = c.cell(goal, "goal")
            extra_arr = None if extra is None else c.grid_array(extra, self.shape, "extra")
            q, _keep = self._query(algo, moves, corner, heuristic, weight, step_costs, size,
                                   regions, closest, max_expansions)
            if extra_arr is not None:
                q = ffi.new("tn_query *", q[0])
                q.extra = ffi.from_buffer("float[]", extra_arr)
            pool = self._pool
            ctx = pool.pop() if pool else self._acquire()
            try:
                st = lib.tn_search_path(ctx.search, h, s, g, q, ctx.cells, ctx.cap, ctx.res)
                if st == lib.TN_E_BUFFER_TOO_SMALL:  # edits opened cells since ctx was made
                    ctx.grow(max(ctx.res.length, lib.tn_map_passable_count(h)))
                    st = lib.tn_search_path(ctx.search, h, s, g, q, ctx.cells, ctx.cap, ctx.res)
                if st < 0:
                    check(st, "path", self._outside(st, start=s, goal=g) or
                          _extra_detail(st, extra_arr) or f"from {s} to {g}{_unit(size, st)}")
                if full:
                    return _result(ctx, st)
                if st == lib.TN_NO_PATH:
                    return _NO_CELLS
                return ctx.arr[: ctx.res.length].copy()
            finally:
                pool.append(ctx)
        finally:
            self._read_end()

    def _outside(self, status: int, **cells: Tuple[int, int]) -> str:
        """For TN_E_OUT_OF_MAP: which of the named ``cells`` is outside ("" otherwise, or when
        none of them is: the C library refused another cell)."""
        if status != lib.TN_E_OUT_OF_MAP:
            return ""
        hgt, wid = self.shape
        for name, (x, y) in cells.items():
            if not (0 <= x < wid and 0 <= y < hgt):
                return f"the {name} {(x, y)} is outside the {wid}x{hgt} map"
        return ""

    def path(self, start: c.CellLike, goal: c.CellLike, *, algo: c.Algo = "jps", moves: int = 8,
             corner: c.Corner = "never", heuristic: c.Heuristic = "auto", weight: float = 1.0,
             step_costs: c.StepCosts = "exact", extra: Any = None, size: int = 1,
             regions: bool = False, closest: bool = False,
             max_expansions: Optional[int] = None) -> NDArray[np.int32]:
        """The cheapest path from ``start`` to ``goal`` as an (N, 2) int32 array of (x, y)
        cells, start and goal included; empty (shape (0, 2)) when the goal cannot be reached.

        ``algo``: ``"jps"`` (Jump Point Search, weighted on maps with terrain costs; where it
        does not apply, i.e. with 4 moves, corner cutting or ``extra``, A* runs instead, with
        the same optimal cost), ``"astar"``, ``"dijkstra"`` or ``"jps+"`` (JPS over a jump
        table built on first use; the table takes maps up to 32767 cells wide and high, a
        fixed limit of the C library: past it :class:`InvalidArgumentError`, status
        ``TN_E_TOO_LARGE``, naming it). ``moves``: 8 or 4. ``corner``: when a diagonal step may
        pass blocked cells, ``"never"`` (default; the Moving AI rule), ``"one"`` or
        ``"always"`` (4 moves make no diagonal steps and ignore it, but it must still be one
        of these names).
        ``heuristic``/``weight``: A*'s estimate and its weight (> 1 trades optimality for
        speed). ``step_costs``: ``"exact"`` (1 and sqrt 2) or ``"10-14"``. ``extra``: a
        (height, width) array of costs added on entering each cell (>= 0).
        ``size``: the unit's side in cells (1..255, default 1). A bigger unit is a ``size`` x
        ``size`` square; ``start``, ``goal`` and the path's cells are its top-left cell, every
        step keeps its whole footprint on passable cells under the same ``moves``/``corner``
        rule, and entering a position costs the largest cost under the footprint (``extra``
        is then charged at the top-left cell). See :meth:`clearance`.
        ``regions=True``: a goal the unit cannot reach at all (another region, see
        :meth:`regions`) is answered at once, expanding nothing, instead of by a search that
        empties the start's region; the map builds its regions on first use.
        ``closest=True``: when the goal cannot be reached (or is blocked, or outside the
        map), the path to the reachable cell nearest to it (octile distance with 8 moves,
        manhattan with 4; among equally near cells the cheapest), instead of an empty array.
        ``max_expansions``: a budget of expansions (None: none; every expansion counts, JPS's
        of the start too); when it runs out the path leads to the expanded cell nearest to the
        goal.
        :meth:`path_result` says which happened (``status``). Raises :class:`OutOfMapError`
        or :class:`BlockedError` for a bad start or goal (also when the unit does not fit
        there; with ``closest``, only for a bad start)."""
        return cast("NDArray[np.int32]",
                    self._search(start, goal, algo, moves, corner, heuristic, weight, step_costs,
                                 extra, size, regions, closest, max_expansions, False))

    @_reads
    def paths(self, starts: Any, goals: Any, *, algo: c.Algo = "jps", moves: int = 8,
              corner: c.Corner = "never", heuristic: c.Heuristic = "auto", weight: float = 1.0,
              step_costs: c.StepCosts = "exact", size: int = 1, regions: bool = False) -> PathBatch:
        """Many paths in one call (``tn_search_batch``): query i goes from ``starts[i]`` to
        ``goals[i]`` ((N, 2) arrays of (x, y); one cell is used for every query). The C code
        runs the whole batch with the GIL released, so the per-query call overhead of
        :meth:`path` is paid once per batch. Options as :meth:`path`, except that there is no
        ``extra`` layer, ``closest`` or ``max_expansions``; results equal
        :meth:`path_result`'s query by query. A bad start or goal raises as :meth:`path`
        does, naming the query; empty ``starts`` or ``goals`` raise ``ValueError`` (a batch
        has at least one query)."""
        h = self._handle()
        q, _keep = self._query(algo, moves, corner, heuristic, weight, step_costs, size, regions)
        s = c.cells_array(starts, "starts")
        g = c.cells_array(goals, "goals")
        n = max(len(s), len(g))
        if len(s) != len(g) and 1 not in (len(s), len(g)):
            raise ValueError(f"starts and goals must have the same length (or one cell), got "
                             f"{len(s)} and {len(g)}")
        s = np.ascontiguousarray(np.broadcast_to(s, (n, 2)))
        g = np.ascontiguousarray(np.broadcast_to(g, (n, 2)))
        status = np.zeros(n, dtype=np.int32)
        length = np.zeros(n, dtype=np.int32)
        cost = np.zeros(n, dtype=np.float64)
        expanded = np.zeros(n, dtype=np.int64)
        # a buffer for the usual paths; a longer one is found again on its own below
        cap = min(lib.tn_map_passable_count(h), 4 * (self.width + self.height)) or 1
        chunk = max(1, min(n, _BATCH_BYTES // (cap * 8)))
        buf = np.empty((chunk, cap, 2), dtype=np.int32)
        cells: List[NDArray[np.int32]] = []
        ctx = self._acquire()
        try:
            for lo in range(0, n, chunk):
                hi = min(n, lo + chunk)
                check(lib.tnpy_search_batch(
                    ctx.search, h, q, ffi.from_buffer("tn_cell[]", s[lo:hi]),
                    ffi.from_buffer("tn_cell[]", g[lo:hi]), hi - lo,
                    ffi.from_buffer("tn_cell[]", buf), cap,
                    ffi.from_buffer("int32_t[]", status[lo:]),
                    ffi.from_buffer("int32_t[]", length[lo:]),
                    ffi.from_buffer("double[]", cost[lo:]),
                    ffi.from_buffer("int64_t[]", expanded[lo:])), "paths")
                for i in range(lo, hi):
                    st = int(status[i])
                    if st == lib.TN_E_BUFFER_TOO_SMALL:
                        r = self.path_result(s[i], g[i], algo=algo, moves=moves, corner=corner,
                                             heuristic=heuristic, weight=weight,
                                             step_costs=step_costs, size=size,
                                             regions=regions)
                        status[i], cost[i], expanded[i] = lib.TN_OK, r.cost, r.expanded
                        cells.append(r.cells)
                        continue
                    check(st, "paths",
                          f"query {i}: from {tuple(s[i])} to {tuple(g[i])}{_unit(size, st)}")
                    if st == lib.TN_NO_PATH:
                        cells.append(_NO_CELLS)
                    else:
                        cells.append(buf[i - lo, : length[i]].copy())
        finally:
            self._pool.append(ctx)
        found = status == lib.TN_OK
        cost[~found] = 0.0
        return PathBatch(cells, cost, expanded, found)

    @_reads
    def nearest_path(self, start: c.CellLike, goals: Any, *, algo: c.Algo = "astar",
                     moves: int = 8, corner: c.Corner = "never", extra: Any = None,
                     size: int = 1, regions: bool = False, closest: bool = False,
                     max_expansions: Optional[int] = None) -> Tuple[PathResult, int]:
        """The path to the cheapest of several goals (an (N, 2) array of (x, y), or one cell):
        (result, index in ``goals`` of the goal reached), or (a result with ``found`` False,
        -1) when no goal can be reached. Blocked or outside goals (or goals where a ``size``
        unit does not fit) are skipped while at least one is left; when none is left it
        raises, as :meth:`path` does for its one goal: :class:`OutOfMapError` when every goal
        is outside the map, else :class:`BlockedError`. A bad start raises too. Options as
        :meth:`path` (A* by default: JPS takes one goal); with ``closest`` blocked or
        outside goals raise nothing (the path leads to the reachable cell nearest to any
        goal), and with ``closest`` or ``max_expansions`` the index is -1 unless ``status`` is
        ``"ok"``."""
        h = self._handle()
        q, _keep = self._query(algo, moves, corner, "auto", 1.0, "exact", size, regions,
                               closest, max_expansions)
        sx, sy = c.cell(start, "start")
        g = c.cells_array(goals, "goals")
        extra_arr = None
        if extra is not None:
            extra_arr = c.grid_array(extra, self.shape, "extra")
            q = ffi.new("tn_query *", q[0])
            q.extra = ffi.from_buffer("float[]", extra_arr)
        ctx = self._acquire()
        try:
            goals_c = ffi.from_buffer("tn_cell[]", g)
            st = lib.tn_search_path_multi(ctx.search, h, (sx, sy), goals_c, len(g), q,
                                          ctx.cells, ctx.cap, ctx.res)
            if st == lib.TN_E_BUFFER_TOO_SMALL:  # edits opened cells since ctx was made
                ctx.grow(max(ctx.res.length, lib.tn_map_passable_count(h)))
                st = lib.tn_search_path_multi(ctx.search, h, (sx, sy), goals_c, len(g), q,
                                              ctx.cells, ctx.cap, ctx.res)
            check(st, "nearest_path", self._outside(st, start=(sx, sy)) or
                  _extra_detail(st, extra_arr) or _goals_detail(st, f"from {(sx, sy)}", size))
            return _result(ctx, st), (int(ctx.res.goal) if st == lib.TN_OK else -1)
        finally:
            self._pool.append(ctx)

    # ---- distance maps and fields -----------------------------------------------------------
    @_reads
    def distances(self, goals: Any, *, moves: int = 8, corner: c.Corner = "never",
                  step_costs: c.StepCosts = "exact", reverse: bool = True, extra: Any = None,
                  out: Optional[NDArray[np.float64]] = None, size: int = 1
                  ) -> NDArray[np.float64]:
        """A Dijkstra map: for every cell, the cost of the cheapest path between it and the
        nearest of ``goals`` (one (x, y) cell or an (N, 2) array), as a (height, width)
        float64 array; ``inf`` where unreachable or blocked.

        ``reverse=True`` (default) measures from each cell TO the goals (what a unit walking
        downhill needs); False measures from the goals outwards (they differ only with terrain
        costs). ``out``: a C-contiguous float64 (height, width) array to write into (no
        allocation). Blocked or outside goals are skipped; all blocked raises BlockedError.
        ``size``: for a ``size`` x ``size`` unit, per top-left cell (see :meth:`path`); ``inf``
        where it does not fit."""
        h, _keep = self._size_map(size)
        g = c.cells_array(goals, "goals")
        reverse = c.flag(reverse, "reverse")
        diagonal, costs = c.moves_struct(moves, corner, step_costs)
        mv = ffi.new("tn_moves *")
        mv.diagonal = diagonal
        mv.costs = costs
        if out is None:
            out = np.empty(self.shape, dtype=np.float64)
        else:
            c.exact_array(out, self.shape, np.float64, "out", writable=True)
        extra_ptr = ffi.NULL
        extra_arr = None
        if extra is not None:
            extra_arr = c.grid_array(extra, self.shape, "extra")
            extra_ptr = ffi.from_buffer("float[]", extra_arr)
        ctx = self._acquire()
        try:
            st = lib.tn_search_distances(ctx.search, h, ffi.from_buffer("tn_cell[]", g), len(g),
                                         mv, extra_ptr, reverse,
                                         ffi.from_buffer("double[]", out, require_writable=True),
                                         out.size)
        finally:
            self._pool.append(ctx)
        if st == lib.TN_E_START_BLOCKED:  # the C sources are the goals here
            st = lib.TN_E_GOAL_BLOCKED
        check(st, "distances", _extra_detail(st, extra_arr) or _goals_detail(st, "", size))
        return out

    @_reads
    def flow_field(self, goal: Any, *, los: bool = True, moves: int = 8, corner: c.Corner = "never",
                   step_costs: c.StepCosts = "exact", flow: c.FlowRule = "optimal",
                   extra: Optional[NDArray[np.float32]] = None, size: int = 1) -> "FlowField":
        """A flow field towards ``goal`` (one (x, y) cell, or an (N, 2) array of goals without
        line of sight): distances, one of 8 directions per cell, continuous vectors, and with
        ``los`` the cells that see the goal in a straight line. ``size``: the field of a
        ``size`` x ``size`` unit, per top-left cell (see :meth:`path`); crowd agents added
        with the same ``size`` follow it. A field takes no blocked goal: one blocked goal among
        several raises :class:`BlockedError` naming it (where :meth:`distances` skips such
        goals). See :class:`FlowField`."""
        from ._field import FlowField

        return FlowField(self, goal, los=los, moves=moves, corner=corner, step_costs=step_costs,
                         flow=flow, extra=extra, size=size)

    @_reads
    def hierarchy(self, *, sector_size: int = 32, moves: int = 8, step_costs: c.StepCosts = "exact",
                  landmarks: int = 0, portal_gap: int = 0, size: int = 1) -> "Hierarchy":
        """A hierarchy (HPA*) of ``sector_size`` x ``sector_size`` sectors for long paths on
        big maps, and sector flow fields: see :class:`Hierarchy` and docs/hierarchy.md.
        ``moves``: 8 (no corner cutting) or 4; ``landmarks`` (0..16) sharpen the abstract
        search's heuristic; ``portal_gap`` (0 = entrance ends only) adds transition cells;
        ``size``: the hierarchy of a ``size`` x ``size`` unit (top-left cells, see
        :meth:`path`)."""
        from ._hierarchy import Hierarchy

        return Hierarchy(self, sector_size=sector_size, moves=moves, step_costs=step_costs,
                         landmarks=landmarks, portal_gap=portal_gap, size=size)

    @_reads
    def smooth_path(self, cells: Any, *, size: int = 1) -> NDArray[np.int32]:
        """String pulling (``tn_path_smooth``): the waypoints of a path of this map (an (N, 2)
        array of (x, y), as :meth:`path` returns) with the cells in between skipped while the
        next one stays in line of sight: from each waypoint, the path's later cells are taken
        as long as each is in line of sight of it, and the last of them is the next waypoint.
        The result starts and ends as the path; walking straight from waypoint to waypoint
        never enters a blocked cell nor cuts a blocked corner (the segment between cell
        centres touches only passable cells). ``size``: a path of a ``size`` x ``size`` unit
        (its top-left cells), smoothed on the map of its positions. Consecutive cells must
        see each other (any path of 8 moves with ``corner="never"``, or of 4 moves; corner
        cutting gives :class:`InvalidArgumentError`). An empty path gives an empty array."""
        mh, _keep = self._size_map(size)
        if np.asarray(cells).size == 0:
            return _NO_CELLS.copy()
        arr = c.cells_array(cells, "cells")
        out = np.empty_like(arr)
        n = ffi.new("int32_t *")
        st = lib.tn_path_smooth(mh, ffi.from_buffer("tn_cell[]", arr), len(arr),
                                ffi.from_buffer("tn_cell[]", out), len(arr), n)
        check(st, "Map.smooth_path", "every cell must be passable (for the unit's size) and "
              "see the next: a path of this map without corner cutting"
              if st == lib.TN_E_INVALID_ARG else "")
        return out[: n[0]].copy()

    @_reads
    def line_of_sight(self, a: c.CellLike, b: c.CellLike, *, corner: c.Corner = "never") -> bool:
        """Exact line of sight between two cells' centres (both passable, no blocked cell
        crossed; a grid corner passed exactly is judged by ``corner``). A cell outside the map
        gives False, not :class:`OutOfMapError`: this answers about cells, it searches
        nothing."""
        diagonal, _ = c.moves_struct(8, corner)
        return bool(lib.tn_los_clear(self._handle(), c.cell(a, "a"), c.cell(b, "b"), diagonal))


_TOKEN = object()


def compress_path(cells: Any) -> NDArray[np.int32]:
    """The turning points of a path (``tn_path_compress``): its first and last cells and the
    cells where the direction of travel changes, as a new (M, 2) int32 array (an empty path
    gives an empty array). The cells are not checked to be a path: any list of cells comes
    back with the middle cells of its equal, consecutive steps removed
    (:meth:`Map.smooth_path` refuses a non-path)."""
    if np.asarray(cells).size == 0:
        return _NO_CELLS.copy()
    arr = c.cells_array(cells, "cells")
    out = np.empty_like(arr)
    n = ffi.new("int32_t *")
    check(lib.tn_path_compress(ffi.from_buffer("tn_cell[]", arr), len(arr),
                               ffi.from_buffer("tn_cell[]", out), len(arr), n), "compress_path")
    return out[: n[0]].copy()


def _unpickle_map(costs: NDArray[np.float32], tile_size: Tuple[int, int]) -> Map:
    return Map.from_numpy(costs, tile_size=tile_size)


def _unit(size: int, status: int = 0) -> str:
    """The words an error adds for a unit bigger than one cell."""
    if size <= 1:
        return ""
    if status in (lib.TN_E_START_BLOCKED, lib.TN_E_GOAL_BLOCKED):
        return f" for a {size}x{size} unit: it does not fit there"
    return f" for a {size}x{size} unit"


def _extra_detail(status: int, extra: Optional[NDArray[np.float32]]) -> str:
    """What is wrong with ``extra`` when the C library refused the call's arguments."""
    if status != lib.TN_E_INVALID_ARG or extra is None:
        return ""
    return c.extra_problem(extra) or ""


def _goals_detail(status: int, where: str, size: int) -> str:
    """The words an error of a query with several goals adds."""
    what = {lib.TN_E_GOAL_BLOCKED: "every goal is blocked or outside the map",
            lib.TN_E_OUT_OF_MAP: "every goal is outside the map"}.get(status)
    if what is None:
        return f"{where}{_unit(size, status)}"
    if size > 1:
        what = (f"a {size}x{size} unit fits at none of the goals (blocked, outside the map, "
                f"or too narrow)")
    return f"{where}: {what}" if where else what


_STATUS = {lib.TN_OK: "ok", lib.TN_CLOSEST: "closest", lib.TN_PARTIAL: "partial"}
# tn_algo_name of each algorithm, as a Python string (made once)
_ALGO_NAMES = {int(a): ffi.string(lib.tn_algo_name(a)).decode() for a in ALGOS.values()}


def _result(ctx: _Context, st: int) -> PathResult:
    res = ctx.res
    algo = _ALGO_NAMES.get(res.algo) or ffi.string(lib.tn_algo_name(res.algo)).decode()
    if st == lib.TN_NO_PATH:
        return PathResult(_NO_CELLS, 0.0, int(res.expanded), algo, False, "no path", None)
    end = res.end
    # tuple.__new__: the NamedTuple's own __new__ is a Python function (every field given)
    return tuple.__new__(PathResult, (ctx.arr[: res.length].copy(), float(res.cost),
                                      int(res.expanded), algo, True, _STATUS[st],
                                      (end.x, end.y)))


def _diag_text(diag: Any) -> str:
    buf = ffi.new("char[]", 1024)
    lib.tn_diag_format(diag, buf, 1024)
    return str(ffi.string(buf).decode("utf-8", "replace"))


def _check_load(status: int, what: str, diag: Any) -> None:
    """check() for a loader: the exception also carries where the load failed, from the C
    ``tn_diag``: ``file`` (the file being read, which may be an external tileset or template
    rather than the map), ``line`` and ``column`` (1-based, 0 when unknown), ``where`` (a JSON
    or XML field path such as "layers[2].data", or "") and ``reason`` (what was wrong)."""
    if status >= 0:
        return
    try:
        check(status, what, _diag_text(diag))
    except TilenavError as e:
        def text(b: Any) -> str:
            return str(ffi.string(b).decode("utf-8", "replace"))
        e.file = text(diag.file)
        e.line = int(diag.line)
        e.column = int(diag.column)
        e.where = text(diag.where)
        e.reason = text(diag.message)
        raise


class Scenarios(c.Closable, c.NoPickle):
    """A Moving AI scenario file (``.scen``): arrays ``start`` and ``goal`` ((N, 2) int32,
    (x, y)), ``optimal`` (N float64 lengths as printed), ``bucket`` and ``map_size``
    ((N, 2): width, height). :meth:`matches` applies the benchmark's length tolerance. The
    arrays are copies; :meth:`close` (or a ``with`` block) releases the C file at once, after
    which :meth:`matches` raises ValueError."""

    _instead = "load the file again with Scenarios(path)"
    _what = "scenarios file"

    def __init__(self, path: Union[str, "os.PathLike[str]"]) -> None:
        out = ffi.new("tn_scenarios **")
        diag = ffi.new("tn_diag *")
        fspath = c.fs_path(path, "Scenarios")
        _check_load(lib.tn_scenarios_load(fspath, ffi.NULL, out, diag),
                    f"Scenarios({os.fsdecode(fspath)!r})", diag)
        self._h = c.owned(out[0], lib.tn_scenarios_destroy)
        n = lib.tn_scenarios_count(self._h)
        ints = np.zeros((n, 8), dtype=np.int32)
        self.optimal: NDArray[np.float64] = np.zeros(n, dtype=np.float64)
        lib.tnpy_scenarios_gather(self._h, ffi.from_buffer("int32_t[]", ints),
                                  ffi.from_buffer("double[]", self.optimal))
        self.bucket: NDArray[np.int32] = ints[:, 0].copy()
        self.map_size: NDArray[np.int32] = ints[:, 1:3].copy()
        self.start: NDArray[np.int32] = ints[:, 3:5].copy()
        self.goal: NDArray[np.int32] = ints[:, 5:7].copy()
        self.decimals: NDArray[np.int32] = ints[:, 7].copy()

    def __len__(self) -> int:
        return len(self.optimal)

    def _describe(self) -> str:
        return f"{len(self)} scenarios"

    def matches(self, index: int, length: float) -> bool:
        """Does ``length`` equal scenario ``index``'s optimum within the benchmark's tolerance
        (``tn_scenario_matches``)?"""
        h = self._handle()
        if not 0 <= index < len(self):
            raise IndexError(f"scenario {index} out of range 0..{len(self) - 1}")
        return bool(lib.tnpy_scenario_matches(h, index, float(length)))

