"""tilenav for Python: navigation for 2D tile games on NumPy arrays.

Paths (A*, Dijkstra, Jump Point Search), Dijkstra maps, flow fields with line of sight, crowds
of steering agents and the broad phase for many circles, from tilenav's C library (built into
this package; the GIL is released while it runs).

    >>> import numpy as np, tilenav
    >>> cost = np.ones((5, 7)); cost[1:4, 3] = 0          # 0 = wall
    >>> m = tilenav.Map.from_numpy(cost)
    >>> m.path((0, 2), (6, 2)).tolist()[:3]
    [[0, 2], [1, 3], [2, 4]]

Cells are (x, y) = (column, row); per-cell arrays are (height, width), indexed [y, x].
See docs/python.md in the repository.
"""

try:
    from ._tilenav import ffi as _ffi  # the compiled extension: absent from the source tree
    from ._tilenav import lib as _lib
except ModuleNotFoundError as e:
    if e.name != f"{__name__}._tilenav":
        raise
    raise ImportError(
        f"tilenav's compiled extension {__name__}._tilenav is missing: this is the source tree's "
        f"package ({__path__[0]}), found because Python runs in the repository's python/ folder "
        f"(or has it on sys.path); run from outside the source tree, or install the package "
        f"(pip install --no-build-isolation ./python, docs/python.md)") from None

from ._broadphase import broadphase
from ._common import (
    Algo,
    Behaviour,
    BroadphaseKind,
    Collision,
    Combine,
    Corner,
    Cover,
    FlowRule,
    Format,
    Heuristic,
    StepCosts,
    Target,
)
from ._crowd import Crowd
from ._errors import (
    BlockedError,
    InvalidArgumentError,
    LoadIOError,
    OutOfMapError,
    ParseError,
    StaleIdError,
    StateError,
    TilenavError,
    TilenavMemoryError,
    UnsupportedError,
    status_string,
)
from ._field import FlowField
from ._hierarchy import Hierarchy, SectorField
from ._map import Map, PathBatch, PathResult, Scenarios, compress_path
from ._regions import Regions

__version__: str = _ffi.string(_lib.tn_version()).decode()

__all__ = [
    "Algo",
    "Behaviour",
    "BlockedError",
    "BroadphaseKind",
    "Collision",
    "Combine",
    "Corner",
    "Cover",
    "Crowd",
    "FlowField",
    "FlowRule",
    "Format",
    "Heuristic",
    "Hierarchy",
    "InvalidArgumentError",
    "LoadIOError",
    "Map",
    "OutOfMapError",
    "ParseError",
    "PathBatch",
    "PathResult",
    "Regions",
    "Scenarios",
    "SectorField",
    "StaleIdError",
    "StateError",
    "StepCosts",
    "Target",
    "TilenavError",
    "TilenavMemoryError",
    "UnsupportedError",
    "broadphase",
    "compress_path",
    "status_string",
]
