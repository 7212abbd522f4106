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


TYPED_USE = '''
import numpy as np
import tilenav

m = tilenav.Map.from_numpy(np.ones((10, 10)))
cr = tilenav.Crowd(m)
a = cr.add((16.0, 16.0))
# cells, as docs/python.md lists them: Python ints, NumPy integer scalars, integer arrays
p = m.path((0, 0), (np.int64(3), np.int64(3)))
p = m.path([np.int32(0), 0], np.array([3, 3]))
r = m.path_result((np.uint8(1), np.uint8(1)), p[-1])
ok: bool = m.line_of_sight((np.int16(0), 0), (3, np.int64(3)))
ok = m.regions().connected((np.int64(0), np.int64(0)), (3, 3))
f = m.flow_field((3, 3))
q = f.path((np.int64(0), np.int64(0)))
# positions and velocities: pairs of numbers (NumPy's too) or NumPy arrays
b = cr.add(np.array([48.0, 48.0]), vel=(np.float32(1.0), 2), target="seek",
           target_pos=cr.positions[0])
cr.set_velocity(a, cr.velocities[0])
cr.set_target(b, "arrive", np.array([80.0, 80.0], dtype=np.float32))
print(p.tolist(), r.cost, q.shape, ok, len(cr))
'''


def test_type_hints_take_what_the_docs_list(tmp_path):
    """mypy --strict on code using the documented inputs: a tuple of NumPy integer scalars as
    a cell, an ndarray (a row of crowd.positions) as a position. The hints were narrower
    (Sequence[int], Sequence[float]) and refused both. The code runs too."""
    pytest.importorskip("mypy")
    script = tmp_path / "typed_use.py"
    script.write_text(TYPED_USE)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    run = subprocess.run([sys.executable, str(script)], cwd=str(tmp_path), env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          "--cache-dir", str(tmp_path / "cache"), str(script)],
                         cwd=str(tmp_path), env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr


BAD_NAMES = '''
import numpy as np
import tilenav

m = tilenav.Map.from_numpy(np.ones((4, 4)))
m.path((0, 0), (3, 3), algo="a*")
m.path((0, 0), (3, 3), corner="cut")
m.flow_field((1, 1), step_costs="10/14")
algo: tilenav.Algo = "jps+"
m.path((0, 0), (3, 3), algo=algo)
'''


def test_type_hints_name_the_string_options(tmp_path):
    """The string options were typed str, so mypy passed algo="a*" and corner="cut", which
    fail only at run time; they are Literal names now, and the exported aliases let a
    variable carry one."""
    pytest.importorskip("mypy")
    script = tmp_path / "bad_names.py"
    script.write_text(BAD_NAMES)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          "--cache-dir", str(tmp_path / "cache"), str(script)],
                         cwd=str(tmp_path), env=env, capture_output=True, text=True,
                         timeout=600)
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert [int(line.split(":")[1]) for line in errors] == [6, 7, 8], run.stdout + run.stderr
    assert "'a*'" in errors[0] and "'cut'" in errors[1] and "'10/14'" in errors[2]
