"""Shared plumbing: owned C handles, NumPy views of C memory, movement rules, cells."""

from __future__ import annotations

import math
import numbers
import os
import threading
from typing import (Any, Callable, Iterable, Literal, Mapping, Optional, Sequence, Tuple, TypeVar,
                    Union)

import numpy as np
from numpy.typing import NDArray

from ._errors import OutOfMapError, invalid
from ._tilenav import ffi, lib

Cell = Tuple[int, int]
# a cell: an (x, y) pair of Python ints or NumPy integer scalars, or an integer array
CellLike = Union[Sequence[Union[int, np.integer[Any]]], NDArray[np.integer[Any]]]
# a pixel position or velocity: an (x, y) pair of numbers (NumPy's too), or a NumPy array
# such as a row of Crowd.positions
Vec2Like = Union[Sequence[Union[float, np.number[Any]]], NDArray[np.number[Any]]]

_V = TypeVar("_V")


def choice(table: Mapping[Any, _V], value: Any, name: str, names: str) -> _V:
    """The entry of a named option (``algo="jps"``): ``value`` must be a str among the table's
    keys (or None where None is one). Another type raises TypeError, an unknown name
    ValueError, each saying "``name`` must be ``names``" and what was given."""
    if not (isinstance(value, str) or (value is None and None in table)):
        raise TypeError(f"{name} must be {names} (a str), got {value!r}")
    if value not in table:
        raise ValueError(f"{name} must be {names}, got {value!r}")
    return table[value]


def goals_text(goals: NDArray[np.int32]) -> str:
    """Goals for a repr: the cells, or how many past four."""
    return str(goals.tolist()) if len(goals) <= 4 else f"<{len(goals)} cells>"


# The names the string options take, for type checkers (``tilenav.Algo`` and so on: annotate
# a variable with one to pass it on). Each call checks its names at run time as well.
Algo = Literal["astar", "dijkstra", "jps", "jps+"]
Corner = Literal["never", "no-cut", "one", "always"]
StepCosts = Literal["exact", "10-14"]
Heuristic = Literal["auto", "manhattan", "euclidean", "octile", "chebyshev", "zero"]
FlowRule = Literal["optimal", "steepest"]
Format = Literal["auto", "movingai", "tiled", "tmx", "ascii"]
Collision = Literal["properties", "shapes", "objects"]
Cover = Literal["center", "any", "half"]
BroadphaseKind = Literal["grid", "hash", "sap", "brute"]
Combine = Literal["weighted", "prioritized"]
Target = Literal["none", "seek", "arrive", "flee", "flow"]
Behaviour = Literal["target", "separation", "cohesion", "alignment", "avoid_agents",
                    "avoid_walls", "wander"]

MOVES_HELP = "moves must be 4 or 8"
CORNERS = {
    "never": lib.TN_DIAGONAL_NO_CUT,  # never cut a blocked corner (the Moving AI rule)
    "no-cut": lib.TN_DIAGONAL_NO_CUT,  # the CLI's name for the same rule
    "one": lib.TN_DIAGONAL_ONE,  # pass one blocked corner
    "always": lib.TN_DIAGONAL_ALWAYS,  # squeeze between two blocked corners
}
STEP_COSTS = {"exact": lib.TN_COSTS_EXACT, "10-14": lib.TN_COSTS_10_14}
INT32 = (-(2**31), 2**31 - 1)


# The largest finite float32, the C library's type for costs, positions and velocities.
FLOAT32_MAX = float(np.finfo(np.float32).max)
# The largest finite cost of a cell, terrain or extra (the C library's TN_MAX_COST: a path over
# a whole map stays finite in the 32-bit sums of fields and the hierarchy).
MAX_COST = 1e28


def number(value: Any, name: str, rule: str) -> float:
    """A real number (int, float or a NumPy scalar of either; not a string or a bool), as a
    float; ``rule`` (e.g. ">= 1") goes into the TypeError."""
    rule = f" {rule}" if rule else ""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number{rule}, got {value!r}")
    try:
        return float(value)
    except OverflowError:  # a Python int past a double's range (no repr: it may be huge)
        bits = int(value).bit_length() if isinstance(value, int) else None
        raise invalid(f"{name} must be a number{rule}, got "
                      + (f"an integer of {bits} bits" if bits else "a value")
                      + ", too large for a float") from None


def fs_path(path: Any, who: str) -> bytes:
    """A file path for the C loaders, as bytes; a NUL in it would end the path early in C, so
    it is refused (as open() refuses it)."""
    b = os.fsencode(path)
    if b"\0" in b:
        raise invalid(f"{who}: the path {os.fsdecode(b)!r} has an embedded null byte")
    return b


def positive(value: Any, name: str) -> float:
    """A finite number > 0."""
    v = number(value, name, "> 0")
    if not (math.isfinite(v) and v > 0):
        raise invalid(f"{name} must be a finite number > 0, got {value!r}")
    return v


def weight(value: Any) -> float:
    """A heuristic weight: a finite number >= 1."""
    w = number(value, "weight", ">= 1")
    if not (math.isfinite(w) and w >= 1.0):
        raise invalid(f"weight must be a finite number >= 1 (1: optimal paths; more trades "
                         f"optimality for speed), got {value!r}")
    return w


def integer(value: Any, name: str, lo: int, hi: int, rule: str = "") -> int:
    """An integer (Python or NumPy; not a bool) in lo..hi: TypeError for another type,
    InvalidArgumentError (a ValueError) out of range (``rule`` replaces "in lo..hi" in the
    messages)."""
    rule = rule or f"in {lo}..{hi}"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer {rule}, got {value!r}")
    if not lo <= int(value) <= hi:
        raise invalid(f"{name} must be an integer {rule}, got {int(value)}")
    return int(value)


def tile_size(value: Any) -> Tuple[int, int]:
    """The pixel (width, height) of a cell from one integer or a pair, each in 1..2**31-1."""
    rule = "in 1..2**31-1 (one integer, or a (width, height) pair)"
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        v = integer(value, "tile_size", 1, INT32[1], rule)
        return v, v
    pair: Any = value
    try:
        tw, th = pair
    except (TypeError, ValueError):
        raise TypeError(f"tile_size must be an integer {rule}, got {value!r}") from None
    return (integer(tw, "tile_size", 1, INT32[1], rule),
            integer(th, "tile_size", 1, INT32[1], rule))


def extra_problem(extra: NDArray[np.float32]) -> Optional[str]:
    """What is wrong with an ``extra`` layer the C library refused (None: nothing)."""
    bad = ~((extra >= 0) & (extra <= MAX_COST))
    if not bad.any():
        return None
    y, x = (int(v) for v in np.argwhere(bad)[0])
    return (f"extra must be >= 0 and <= 1e28 (TN_MAX_COST) in every cell; extra[{y}, {x}] "
            f"(cell {(x, y)}) is {float(extra[y, x])!r}")


def owned(ptr: Any, destroy: Callable[[Any], None], size: int = 0, keep: Any = None) -> Any:
    """Tie a C object to a cdata that destroys it when the last Python reference goes.

    ``keep`` (e.g. the handle of the map a field reads) stays alive until the destructor has
    run, so a C object never outlives what it points into. ``size`` tells the garbage
    collector how much C memory the object holds."""
    if keep is None:
        return ffi.gc(ptr, destroy, size)

    def destroy_then_release(p: Any, _keep: Any = keep) -> None:
        destroy(p)

    return ffi.gc(ptr, destroy_then_release, size)


class ReadWriteLock:
    """Many readers at once or one writer, for the objects whose C calls run with the GIL
    released: a C object that one thread changes (a map edit, a hierarchy update) must not be
    read by another meanwhile, or the reader can crash. A waiting writer holds new readers
    back (no writer starves); a thread may nest reads (a query that makes a field), but not
    write inside its own read (RuntimeError: it would wait for itself)."""

    __slots__ = ("_mutex", "_cond", "_readers", "_writer", "_local", "_what")

    def __init__(self, what: str) -> None:
        self._mutex = threading.Lock()
        self._cond = threading.Condition(self._mutex)
        self._readers = 0
        self._writer = False  # a writer holds the lock or waits for the readers to go
        self._local = threading.local()  # this thread's depth of nested reads
        self._what = what

    def read_begin(self) -> None:
        local = self._local
        depth = getattr(local, "n", 0)
        if not depth:
            with self._mutex:
                while self._writer:
                    self._cond.wait()
                self._readers += 1
        local.n = depth + 1

    def read_end(self) -> None:
        local = self._local
        depth = local.n - 1
        local.n = depth
        if not depth:
            with self._mutex:
                self._readers -= 1
                if not self._readers and self._writer:
                    self._cond.notify_all()

    def write_begin(self) -> None:
        if getattr(self._local, "n", 0):
            raise RuntimeError(f"{self._what} cannot be changed from inside one of its "
                               f"queries")
        with self._mutex:
            while self._writer:
                self._cond.wait()
            self._writer = True
            while self._readers:
                self._cond.wait()

    def write_end(self) -> None:
        with self._mutex:
            self._writer = False
            self._cond.notify_all()


def needs(value: Any, cls: type, who: str) -> None:
    """TypeError unless ``value`` is a ``cls`` (a Map, a Hierarchy): "Crowd needs a Map"."""
    if not isinstance(value, cls):
        raise TypeError(f"{who} needs a {cls.__name__}, got {type(value).__name__}")


_Self = TypeVar("_Self", bound="Closable")


class Closable:
    """``close()``, ``closed`` and ``with`` for an object holding a C object in ``_h``:
    ``close()`` drops the object's reference at once (what was built on it keeps its own), and
    every later call raises ValueError ("the hierarchy is closed")."""

    _h: Any
    _what = "object"

    def close(self) -> None:
        """Release the C object now (what was built on it keeps what it needs until it goes).
        Further calls raise ValueError; closing again does nothing."""
        self._h = None

    @property
    def closed(self) -> bool:
        """True after :meth:`close` (further calls raise ValueError)."""
        return self._h is None

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if getattr(self, "_h", None) is None:
            return f"{type(self).__name__}(closed)"
        return f"{type(self).__name__}({self._describe()})"

    def _describe(self) -> str:
        """What repr() shows of an open object (its size, goals...)."""
        return ""

    def _handle(self) -> Any:
        h = self._h
        if h is None:
            raise ValueError(f"the {self._what} is closed")
        return h


class NoPickle:
    """Refuses pickling and copying (an object holding C state): ``_instead`` says what to
    do instead."""

    _instead = ""

    def __reduce__(self) -> Union[str, Tuple[Any, ...]]:
        raise TypeError(f"{type(self).__name__} cannot be pickled or copied (it holds C state): "
                        f"{self._instead}")


class _Exported:
    """A NumPy array's base: exposes C memory through ``__array_interface__`` and holds the
    owner of that memory, so the memory lives as long as any array viewing it."""

    def __init__(self, owner: Any, address: int, shape: Tuple[int, ...], dtype: "np.dtype[Any]",
                 readonly: bool) -> None:
        self._owner = owner
        self.__array_interface__ = {
            "shape": shape,
            "typestr": dtype.str,
            "data": (address, readonly),
            "version": 3,
        }


def view(owner: Any, ptr: Any, shape: Tuple[int, ...], dtype: Any, readonly: bool = True
         ) -> NDArray[Any]:
    """A NumPy array over C memory at ``ptr`` (no copy) that keeps ``owner`` alive."""
    address = int(ffi.cast("uintptr_t", ptr))
    return np.asarray(_Exported(owner, address, shape, np.dtype(dtype), readonly))


def moves_struct(moves: int, corner: str, step_costs: str = "exact") -> Tuple[int, int]:
    """(tn_diagonal, tn_step_costs) of the Python spelling of the movement rules. ``corner``
    must be one of the names even with 4 moves, which ignore it (no diagonal steps)."""
    diagonal = choice(CORNERS, corner, "corner", f"one of {sorted(CORNERS)}")
    # the rule of every integer argument: an int or a NumPy integer (not a bool, a float
    # such as 8.0 or a string: TypeError), then a value in range (InvalidArgumentError)
    if isinstance(moves, (bool, np.bool_)) or not isinstance(moves, (int, np.integer)):
        raise TypeError(f"{MOVES_HELP} (an integer), got {moves!r}")
    if moves not in (4, 8):
        raise invalid(f"{MOVES_HELP}, got {int(moves)}")
    if moves == 4:
        diagonal = lib.TN_DIAGONAL_NEVER
    costs = choice(STEP_COSTS, step_costs, "step_costs", "'exact' or '10-14'")
    return diagonal, costs


def flag(value: Any, name: str) -> bool:
    """A boolean option: True or False (Python or NumPy); anything else is a TypeError (a
    string such as "no" would otherwise count as true)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _int_cells(values: Any, name: str, many: bool) -> NDArray[Any]:
    """The one rule for cells, shared by every function that takes them: what NumPy reads as
    integers (Python ints, NumPy integer scalars and arrays); floats, even whole ones, and
    pairs or arrays of bools are refused with TypeError, integers past int32 with
    OutOfMapError."""
    arr = np.asarray(values)
    if arr.dtype.kind in "iu" or (arr.size == 0 and many):
        return arr
    if arr.dtype.kind in "fO" and not isinstance(values, np.ndarray):
        # a tuple or list of integer scalars that NumPy could not give one integer dtype:
        # np.uint64(2**63) beside a Python int makes float64, a Python int past int64 an
        # object array; integers they are, so past int32 they are outside any map
        items = np.array(values, dtype=object)
        if items.size and all(isinstance(v, (int, np.integer)) and
                              not isinstance(v, (bool, np.bool_)) for v in items.flat):
            ints = np.array([int(v) for v in items.flat], dtype=object).reshape(items.shape)
            outside = [i for i, v in enumerate(ints.flat) if not INT32[0] <= v <= INT32[1]]
            if outside:
                if ints.ndim == 1:
                    where = f"{tuple(ints.tolist())}"
                else:
                    row = outside[0] // ints.shape[-1]
                    where = f"{name}[{row}] = {tuple(ints.reshape(-1, ints.shape[-1])[row])}"
                raise OutOfMapError(lib.TN_E_OUT_OF_MAP, name, f"{where} is outside any map")
            return ints.astype(np.int64)
    what = "an (x, y) pair" + (" or an (N, 2) array" if many else "")
    got = f"dtype {arr.dtype}" if many or isinstance(values, np.ndarray) else repr(values)
    raise TypeError(f"{name} must be {what} of integers (Python ints or a NumPy integer "
                    f"dtype; floats are refused: round them first, e.g. "
                    f"np.floor(p).astype(int)), got {got}")


def cell(value: CellLike, name: str) -> Cell:
    """An (x, y) pair of ints from a tuple, list or NumPy array of two integers."""
    if type(value) is tuple and len(value) == 2:  # the common case, without NumPy
        ix, iy = value
        if type(ix) is int and type(iy) is int and INT32[0] <= ix <= INT32[1] and \
                INT32[0] <= iy <= INT32[1]:
            return ix, iy
    arr = _int_cells(value, name, False)
    if arr.shape != (2,):
        raise TypeError(f"{name} must be an (x, y) pair of integers, got shape {arr.shape}: "
                        f"{value!r}")
    ix, iy = arr.tolist()
    if not (INT32[0] <= ix <= INT32[1] and INT32[0] <= iy <= INT32[1]):
        raise OutOfMapError(lib.TN_E_OUT_OF_MAP, name, f"{(ix, iy)} is outside any map")
    return int(ix), int(iy)


def unit_size(value: Any, name: str = "size") -> int:
    """A unit's side in cells: an integer in 1..255 (the clearance cap's range)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer in 1..255, got {value!r}")
    if not 1 <= int(value) <= 255:
        raise ValueError(f"{name} must be an integer in 1..255, got {int(value)}")
    return int(value)


def cells_array(values: Union[CellLike, Iterable[CellLike]], name: str) -> NDArray[np.int32]:
    """An (N, 2) C-contiguous int32 array of cells from one (x, y) pair or many."""
    arr = _int_cells(values, name, True)
    if arr.ndim == 1 and arr.shape[0] == 2:
        arr = arr.reshape(1, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"{name} must be an (x, y) pair or an (N, 2) array of them, "
                         f"got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty")
    if arr.dtype.itemsize > 4 or arr.dtype == np.uint32:  # no silent wrap-around
        outside = (arr < INT32[0]) | (arr > INT32[1])
        if outside.any():
            i = int(np.argwhere(outside)[0][0])
            raise OutOfMapError(lib.TN_E_OUT_OF_MAP, name,
                                f"{name}[{i}] = {tuple(arr[i].tolist())} is outside any map")
    return np.ascontiguousarray(arr, dtype=np.int32)


def grid_array(values: Any, shape: Tuple[int, int], name: str) -> NDArray[np.float32]:
    """A per-cell float32 array of the map's (height, width) shape, converted (copied) when
    needed: for arrays tilenav reads only during the call."""
    arr = np.asarray(values)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a real-valued array, got dtype {arr.dtype}")
    if arr.shape != shape:
        raise ValueError(f"{name} must have the map's shape (height, width) = {shape}, "
                         f"got {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.float32)


def exact_array(arr: Any, shape: Tuple[int, ...], dtype: Any, name: str,
                writable: bool = False) -> NDArray[Any]:
    """Check an array that tilenav uses in place (kept by reference, or written into): it must
    already have the dtype, the shape and a C-contiguous layout, since a converted copy would
    not be the caller's array."""
    dtype = np.dtype(dtype)
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name} must be a NumPy array (used in place), got {type(arr).__name__}")
    if arr.dtype != dtype:
        raise TypeError(f"{name} must have dtype {dtype} (used in place, not converted), got "
                        f"{arr.dtype}; pass np.ascontiguousarray({name}, dtype=np.{dtype})")
    if arr.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {arr.shape}")
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous (row-major, no gaps), got strides "
                         f"{arr.strides} for shape {arr.shape}; pass np.ascontiguousarray({name})")
    if writable and not arr.flags.writeable:
        raise ValueError(f"{name} must be writable")
    return arr
