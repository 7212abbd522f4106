"""The broad phase for N circles."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._common import BroadphaseKind, choice, flag, owned
from ._errors import check, invalid
from ._tilenav import ffi, lib

KINDS = {"grid": lib.TN_BP_GRID, "hash": lib.TN_BP_HASH, "sap": lib.TN_BP_SAP,
         "brute": lib.TN_BP_BRUTE}


def broadphase(positions: Any, radii: Any, *, kind: BroadphaseKind = "grid", exact: bool = False
               ) -> NDArray[np.int64]:
    """The pairs of circles whose bounding boxes overlap, as an (M, 2) int64 array of row
    indices ``i < j``, sorted; boxes that only touch count.

    ``positions``: (N, 2) centres; ``radii``: (N,) radii or one radius for all (any real
    dtype; both are converted to float64, the broad phase's world units). ``kind``: ``"grid"``
    (a dense grid fitted to the circles, hierarchical when radii differ a lot; the default),
    ``"hash"`` (hashed grid), ``"sap"`` (sort and sweep) or ``"brute"`` (every pair; the
    reference). With ``exact=True`` only the pairs whose circles overlap (distance <= r_i + r_j)
    are kept: the broad phase followed by the narrow test, vectorised.

    Limits (fixed in the C library): at most ``TN_BP_MAX_OBJECTS`` (4,194,303) circles, and
    for ``"grid"`` and ``"hash"``, which fit a grid to the circles' bounding box, a box whose
    width and height are finite doubles (the circles spread over less than about 1.8e308,
    e.g. not from -1e308 to 1e308): :class:`InvalidArgumentError` (status
    ``TN_E_TOO_LARGE``) names the limit; ``"sap"`` and ``"brute"`` take any finite
    positions."""
    exact = flag(exact, "exact")
    pos = np.asarray(positions)
    if pos.dtype.kind not in "iuf":
        raise TypeError(f"positions must be a real-valued array, got dtype {pos.dtype}")
    if pos.ndim != 2 or pos.shape[1] != 2:
        raise ValueError(f"positions must have shape (N, 2), got {pos.shape}")
    n = pos.shape[0]
    r = np.asarray(radii)
    if r.dtype.kind not in "iuf":
        raise TypeError(f"radii must be a real-valued array, got dtype {r.dtype}")
    if r.ndim == 0:
        r = np.full(n, r, dtype=np.float64)
    if r.shape != (n,):
        raise ValueError(f"radii must be one number or have shape ({n},), got {r.shape}")
    choice(KINDS, kind, "kind", f"one of {sorted(KINDS)}")
    xy = np.ascontiguousarray(pos, dtype=np.float64)
    rr = np.ascontiguousarray(r, dtype=np.float64)
    if not (np.isfinite(xy).all() and np.isfinite(rr).all()) or (rr < 0).any():
        raise ValueError("positions and radii must be finite, radii >= 0")
    if n > lib.TN_BP_MAX_OBJECTS:
        raise invalid(f"broadphase takes at most {lib.TN_BP_MAX_OBJECTS} circles "
                      f"(TN_BP_MAX_OBJECTS, a fixed limit of the C library), got {n}",
                      lib.TN_E_TOO_LARGE)
    out = ffi.new("tn_bp **")
    st = lib.tnpy_bp_circles(KINDS[kind], ffi.from_buffer("double[]", xy),
                             ffi.from_buffer("double[]", rr), n, out)
    if st in (lib.TN_E_TOO_LARGE, lib.TN_E_INVALID_ARG) and kind in ("grid", "hash"):
        with np.errstate(over="ignore", invalid="ignore"):
            span = np.max(xy + rr[:, None], axis=0) - np.min(xy - rr[:, None], axis=0)
    if kind in ("grid", "hash") and (st == lib.TN_E_TOO_LARGE or (
            st == lib.TN_E_INVALID_ARG and not np.isfinite(span).all())):
        # a radius can carry a box past a finite double as well as a position
        raise invalid(f"broadphase: kind={kind!r} fits a grid to the circles' bounding box, "
                      f"whose width and height must be finite doubles (below about 1.8e308, "
                      f"a fixed limit); here {span[0]:g} x {span[1]:g}: use kind='sap' or "
                      f"'brute', which take any finite positions", lib.TN_E_TOO_LARGE)
    check(st, "broadphase")
    bp = owned(out[0], lib.tn_bp_destroy)
    length = ffi.new("int64_t *")
    cap = max(16, 4 * n)
    while True:
        buf = np.empty((cap, 4), dtype=np.uint32)  # tn_bp_pair: id a, id b, user a, user b
        st = lib.tn_bp_pairs_buf(bp, ffi.cast("tn_bp_pair *", ffi.from_buffer(buf)), cap, length)
        if st != lib.TN_E_BUFFER_TOO_SMALL:
            break
        cap = int(length[0])
    check(st, "broadphase")
    ffi.release(bp)
    users = buf[: int(length[0]), 2:4].astype(np.int64)
    pairs = np.sort(users, axis=1)
    if exact and len(pairs):
        d = xy[pairs[:, 0]] - xy[pairs[:, 1]]
        reach = rr[pairs[:, 0]] + rr[pairs[:, 1]]
        pairs = pairs[np.einsum("ij,ij->i", d, d) <= reach * reach]
    order = np.lexsort((pairs[:, 1], pairs[:, 0]))
    return np.ascontiguousarray(pairs[order])
