"""Where the tests find the repository's data, the shared Moving AI maps ($TILENAV_SHARED_DIR,
by default ../shared next to the repository) and the C CLI."""

import os
import shutil

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("TILENAV_SHARED_DIR") or os.path.join(os.path.dirname(ROOT), "shared")
MOVINGAI = os.path.join(SHARED, "bench", "movingai")


def data(*parts: str) -> str:
    return os.path.join(ROOT, *parts)


def find_cli():
    """The C tool to compare with: $TILENAV_CLI, else a build tree's, else None."""
    env = os.environ.get("TILENAV_CLI")
    if env:
        return env
    for tree in ("release", "debug"):
        exe = os.path.join(ROOT, "build", tree, "tilenav")
        if os.access(exe, os.X_OK):
            return exe
    return shutil.which("tilenav")


def movingai_maps():
    """(map, scen) of every shipped Moving AI map, or [] without ../shared."""
    out = []
    if os.path.isdir(MOVINGAI):
        for d in sorted(os.listdir(MOVINGAI)):
            folder = os.path.join(MOVINGAI, d)
            if not os.path.isdir(folder):
                continue
            for f in sorted(os.listdir(folder)):
                if f.endswith(".map") and os.path.exists(os.path.join(folder, f + ".scen")):
                    out.append(os.path.join(folder, f))
    return out


@pytest.fixture
def cli():
    exe = find_cli()
    if not exe:
        pytest.skip("the C CLI is not built (set TILENAV_CLI or build build/release/tilenav)")
    return exe
