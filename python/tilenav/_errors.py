"""Exceptions carrying tilenav's status codes and their messages (``tn_status_str``)."""

from __future__ import annotations

import numbers
from typing import Any, Dict, Optional, Tuple, Type

from ._tilenav import ffi, lib


class TilenavError(Exception):
    """A tilenav call failed. ``status`` is the C library's ``tn_status`` (negative),
    ``status_name`` its fixed message from ``tn_status_str()``, and the text says which call
    failed and, for loaders, where in the file.

    An error of a loader (:meth:`Map.load`, :class:`Scenarios`) also says where the load
    failed: ``file`` (the file being read: the map, or an external tileset or template it
    names), ``line`` and ``column`` (1-based; 0 when the format has none to give), ``where``
    (a field path such as ``"layers[2].data"``, or ``""``) and ``reason`` (what was wrong,
    without the place). They are None on the errors of other calls. (A :class:`LoadIOError`
    is an ``OSError`` whose ``errno`` and ``filename`` stay None: the C library reports the
    system's reason in ``reason`` and the message, and ``file`` names the file.)

    Every tilenav exception pickles and unpickles with its class, message and attributes, so
    one raised in a ``multiprocessing`` or ``concurrent.futures`` worker reaches the parent
    as itself."""

    file: Optional[str] = None
    line: Optional[int] = None
    column: Optional[int] = None
    where: Optional[str] = None
    reason: Optional[str] = None

    def __init__(self, status: int, what: str, detail: str = "") -> None:
        self.status = int(status)
        self.status_name = status_string(status)
        text = f"{what}: {_TEXT.get(self.status, self.status_name)}"
        if detail:
            text += f" ({detail})"
        super().__init__(text)

    def __reduce__(self) -> Tuple[Any, ...]:
        # BaseException's own reduce calls cls(*self.args), i.e. with the message alone,
        # which is not this constructor's signature: rebuild from the args and attributes
        return (_unpickle, (type(self), self.args, dict(self.__dict__)))


def _unpickle(cls: Type[TilenavError], args: Tuple[Any, ...], state: Dict[str, Any]
              ) -> TilenavError:
    """A tilenav exception from its pickled class, args and attributes: made through its
    constructor (a built-in base such as MemoryError refuses a bare __new__), then given the
    original args and attributes."""
    e = cls(state.get("status", lib.TN_E_INVALID_ARG), "")
    e.args = args
    e.__dict__.update(state)
    return e


class InvalidArgumentError(TilenavError, ValueError):
    """TN_E_INVALID_ARG or TN_E_TOO_LARGE: a value the library refused."""


class OutOfMapError(TilenavError, IndexError):
    """TN_E_OUT_OF_MAP: a cell outside the map."""


class BlockedError(TilenavError, ValueError):
    """TN_E_START_BLOCKED or TN_E_GOAL_BLOCKED: the start or every goal is impassable."""


class UnsupportedError(TilenavError, ValueError):
    """TN_E_UNSUPPORTED: valid input this build or algorithm cannot handle."""


class ParseError(TilenavError, ValueError):
    """TN_E_PARSE: a malformed map or scenario file."""


class LoadIOError(TilenavError, OSError):
    """TN_E_IO: a file could not be opened or read."""


class StaleIdError(TilenavError, KeyError):
    """TN_E_STALE_ID: a handle of a removed object."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class StateError(TilenavError, RuntimeError):
    """TN_E_STATE, TN_E_MAP_CHANGED, TN_E_FULL: a call out of order or a full container."""


class TilenavMemoryError(TilenavError, MemoryError):
    """TN_E_NOMEM: the allocator returned NULL."""


_BY_STATUS: Dict[int, Type[TilenavError]] = {
    lib.TN_E_INVALID_ARG: InvalidArgumentError,
    lib.TN_E_TOO_LARGE: InvalidArgumentError,
    lib.TN_E_OUT_OF_MAP: OutOfMapError,
    lib.TN_E_START_BLOCKED: BlockedError,
    lib.TN_E_GOAL_BLOCKED: BlockedError,
    lib.TN_E_UNSUPPORTED: UnsupportedError,
    lib.TN_E_PARSE: ParseError,
    lib.TN_E_IO: LoadIOError,
    lib.TN_E_STALE_ID: StaleIdError,
    lib.TN_E_STATE: StateError,
    lib.TN_E_MAP_CHANGED: StateError,
    lib.TN_E_FULL: StateError,
    lib.TN_E_NOMEM: TilenavMemoryError,
}


# the text of a status where tn_status_str()'s words do not fit Python: the C message of
# TN_E_TOO_LARGE sends the reader to a C function's documentation to raise a limit, which
# Python cannot do (the limits are fixed when the module is compiled)
_TEXT = {lib.TN_E_TOO_LARGE: "too large (past a fixed limit of the C library)"}


def invalid(message: str, status: int = lib.TN_E_INVALID_ARG) -> InvalidArgumentError:
    """An InvalidArgumentError (a ValueError) for a value checked in Python, with ``message``
    (which names the argument and the rule) as its whole text; ``status`` TN_E_INVALID_ARG
    or TN_E_TOO_LARGE."""
    e = InvalidArgumentError(status, message)
    e.args = (message,)
    return e


def status_string(status: int) -> str:
    """The C library's fixed message for a status (``tn_status_str``): an int (Python or
    NumPy; TypeError otherwise), "unknown status" past the known ones."""
    if isinstance(status, bool) or not isinstance(status, numbers.Integral):
        raise TypeError(f"status must be an integer (a tn_status), got {status!r}")
    if not -(2**31) <= int(status) < 2**31:
        return str(ffi.string(lib.tn_status_str(-(2**31))).decode("utf-8", "replace"))
    return str(ffi.string(lib.tn_status_str(int(status))).decode("utf-8", "replace"))


def check(status: int, what: str, detail: str = "") -> int:
    """Raise the exception of a negative status; return a success status unchanged."""
    if status < 0:
        if status == lib.TN_E_MAP_CHANGED:
            hint = ("the map was edited since this was built or updated: call its update() "
                    "(a SectorField: set_goal())")
            detail = f"{detail}; {hint}" if detail else hint
        raise _BY_STATUS.get(status, TilenavError)(status, what, detail)
    return status
