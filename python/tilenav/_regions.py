"""Regions: which cells a unit can reach at all, answered in O(1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from . import _common as c
from ._tilenav import ffi, lib

if TYPE_CHECKING:
    from ._map import Map


class Regions(c.Closable, c.NoPickle):
    """The connected components of a map for units of sizes 1..:attr:`max_size` (regions.h).

    Two cells share a region exactly when a unit of that size, its top-left cell on the first,
    can walk to the second under the movement rule. With 4 moves and with 8 moves under
    ``corner="never"`` or ``"one"`` the regions are the same (a diagonal step passes through
    a side cell that also fits); ``corner="always"`` joins diagonal neighbours too. Ids are
    ``0 .. count(size) - 1``, and -1 where the unit does not fit: a build numbers the regions
    in row-major order of each region's first cell; an edit gives each new region (an island,
    or a piece split off) the next id, and the region numbered last takes the id of one that
    joined another or vanished, so ids stay ``0 .. count(size) - 1`` (regions.h). Get one from
    :meth:`Map.regions`; ``Map.path(..., regions=True)`` uses it to answer a goal in another
    region at once (``expanded == 0``).

    The map's edits update its regions in place: the calls here are queries of the map, which
    wait for an edit running on another thread (and it for them). :meth:`close` (or a ``with``
    block) drops this object's hold on them at once (the map and its queries keep theirs).
    """

    _instead = "ask Map.regions() of the map (or of its copy)"
    _what = "regions object"

    def __init__(self, map: "Map", handle: Any, corner: str) -> None:
        from ._map import Map

        c.needs(map, Map, "Regions")
        self._h = handle
        self.map = map
        self.corner: str = corner
        self.max_size: int = int(lib.tn_clearance_max_size(lib.tn_regions_clearance(handle)))
        self.shape = map.shape

    def __repr__(self) -> str:
        if self._h is None:
            return f"Regions(corner={self.corner!r}, closed)"
        return (f"Regions(corner={self.corner!r}, max_size={self.max_size}, "
                f"count={self.count()})")

    def _size(self, size: int) -> int:
        size = c.unit_size(size)
        if size > self.max_size:
            raise ValueError(f"size {size} is past these regions' max_size {self.max_size}: ask "
                             f"Map.regions(max_size={size})")
        return size

    def count(self, size: int = 1) -> int:
        """The number of regions for units of ``size``."""
        size = self._size(size)
        self.map._read_begin()
        try:
            return int(lib.tn_regions_count(self._handle(), size))
        finally:
            self.map._read_end()

    def id(self, cell: c.CellLike, size: int = 1) -> int:
        """The region of ``cell`` for units of ``size``; -1 where the unit does not fit and
        outside the map (no :class:`OutOfMapError`)."""
        x, y = c.cell(cell, "cell")
        size = self._size(size)
        self.map._read_begin()
        try:
            return int(lib.tn_regions_id(self._handle(), size, x, y))
        finally:
            self.map._read_end()

    def ids(self, size: int = 1) -> NDArray[np.int32]:
        """Every cell's region for units of ``size``, as a new (height, width) int32 array
        (-1 where the unit does not fit)."""
        size = self._size(size)
        out = np.empty(self.shape, dtype=np.int32)
        self.map._read_begin()
        try:
            lib.tnpy_regions_ids(self._handle(), size, ffi.from_buffer("int32_t[]", out))
        finally:
            self.map._read_end()
        return out

    def connected(self, a: c.CellLike, b: c.CellLike, size: int = 1) -> bool:
        """Can a unit of ``size`` walk from ``a`` to ``b``? False when it does not fit at
        either, or either is outside the map (no :class:`OutOfMapError`)."""
        size = self._size(size)
        ca, cb = c.cell(a, "a"), c.cell(b, "b")
        self.map._read_begin()
        try:
            return bool(lib.tn_regions_connected(self._handle(), size, ca, cb))
        finally:
            self.map._read_end()
