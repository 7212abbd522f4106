"""The built package: its extension module, and what importing from the source tree says."""

import os
import subprocess
import sys

import pytest

import tilenav
from conftest import data


def test_extension_has_no_debug_info():
    """Python's CFLAGS hold -g (3.9 MB with debug info); setup.py adds -g0 and keeps the
    symbol table, which valgrind.sh reads function names from."""
    with open(tilenav._tilenav.__file__, "rb") as f:
        module = f.read()
    assert b".debug_info" not in module and b".symtab" in module
    assert b"tnpy_crowd_steps" in module


def test_import_from_the_source_tree_says_what_to_do():
    if any(n.endswith((".so", ".pyd")) for n in os.listdir(data("python", "tilenav"))):
        pytest.skip("an extension was built in place in python/tilenav")
    run = subprocess.run([sys.executable, "-c", "import tilenav"], cwd=data("python"),
                         capture_output=True, text=True)
    assert run.returncode != 0
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: tilenav's compiled extension tilenav._tilenav is "
                           "missing"), run.stderr
    assert "run from outside the source tree, or install the package" in last


def test_wheel_is_tagged_for_the_limited_api():
    """The module is built against the limited API (``.abi3.so``): ./build.sh python's wheel
    says so in its tag, so that it installs on every CPython from 3.9 on."""
    assert tilenav._tilenav.__file__.endswith(".abi3.so")
    folder = data("build", "python", "wheel")
    wheels = [f for f in os.listdir(folder) if f.endswith(".whl")] if os.path.isdir(folder) else []
    if not wheels:
        pytest.skip("no wheel built (./build.sh python builds one into build/python/wheel)")
    for name in wheels:
        assert "-cp39-abi3-" in name, name
