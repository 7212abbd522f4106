"""Build of the tilenav Python package: the C library compiled from the repository's sources
(``../src``, ``../src/io``) into one cffi extension module, ``tilenav._tilenav``.

The library is compiled here with the flags CMake gives it (C11, ``-O3``, ``-ffp-contract=off``
for bit-identical results, ``-fno-trapping-math`` on ``field.c`` only, hidden visibility) and
the loaders link Debian's cJSON, zlib, zstd and expat, found by pkg-config. Nothing is
downloaded: ``pip install --no-build-isolation ./python`` uses the setuptools, cffi and numpy
already on the machine (Debian's python3-setuptools, python3-cffi, python3-numpy).
"""

import os
import re
import shlex
import subprocess
from concurrent.futures import ThreadPoolExecutor

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SRC = os.path.join(ROOT, "src")
INCLUDE = os.path.join(ROOT, "include")

if not os.path.isfile(os.path.join(INCLUDE, "tilenav", "base.h")):
    raise SystemExit(
        "tilenav's Python package builds the C library from the repository: run pip from a "
        f"checkout (expected {INCLUDE}/tilenav/base.h)"
    )


def version():
    with open(os.path.join(INCLUDE, "tilenav", "base.h"), encoding="utf-8") as f:
        return re.search(r'#define TN_VERSION_STRING "([^"]+)"', f.read()).group(1)


def pkg_config(*args):
    """Flags from pkg-config for the loaders' libraries, or the Debian defaults without it."""
    mods = ["libcjson", "zlib", "libzstd", "expat"]
    try:
        out = subprocess.run(["pkg-config", *args, *mods], check=True, capture_output=True,
                             text=True).stdout
        return shlex.split(out)
    except (OSError, subprocess.CalledProcessError):
        return ["-lcjson", "-lz", "-lzstd", "-lexpat"] if "--libs" in args else []


# CMake's tilenav_flags and Release build type, minus the warnings. -g0 comes after Python's
# own CFLAGS (which hold -g): no debug info (3.9 MB of the module's 4 MB). The symbol table
# stays (no strip): python/tests/valgrind.sh finds leaks through tilenav by function name.
NO_DEBUG = ["-g0"]
LIB_FLAGS = ["-std=c11", "-O3", "-ffp-contract=off", "-fvisibility=hidden"] + NO_DEBUG
LIB_MACROS = [("NDEBUG", None), ("TN_STATIC", None), ("TN_BUILDING", None)]
PER_FILE_FLAGS = {"field.c": ["-fno-trapping-math"]}  # as CMakeLists.txt gives it


def library_sources():
    out = []
    for d in (SRC, os.path.join(SRC, "io")):
        out += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".c"))
    return out


class BuildExt(build_ext):
    """Compiles the C library's sources (in parallel, JOBS or the CPU count) and links their
    objects into the cffi module."""

    def build_extension(self, ext):
        cflags = [f for f in pkg_config("--cflags") if f.startswith("-I")]
        jobs = max(1, int(os.environ.get("JOBS", os.cpu_count() or 1)))

        def compile_one(src):
            extra = LIB_FLAGS + PER_FILE_FLAGS.get(os.path.basename(src), []) + cflags
            return self.compiler.compile([src], output_dir=self.build_temp, macros=LIB_MACROS,
                                         include_dirs=[INCLUDE], extra_postargs=extra,
                                         depends=[os.path.join(INCLUDE, "tilenav")])

        with ThreadPoolExecutor(jobs) as pool:
            objects = [o for objs in pool.map(compile_one, library_sources()) for o in objs]
        ext.extra_objects = objects + list(ext.extra_objects or [])
        ext.include_dirs = [INCLUDE] + list(ext.include_dirs or [])
        ext.define_macros = list(ext.define_macros or []) + [("TN_STATIC", None)]
        # -fvisibility=hidden: only PyInit__tilenav is exported
        ext.extra_compile_args = list(ext.extra_compile_args or []) + [
            "-ffp-contract=off", "-fvisibility=hidden"] + NO_DEBUG
        ext.extra_link_args = list(ext.extra_link_args or []) + pkg_config("--libs") + ["-lm"]
        super().build_extension(ext)


# cffi compiles the module against Python's limited API (``_tilenav.abi3.so``), so one wheel
# serves every CPython from requires-python's 3.9 on: tag it so (cp39-abi3), not cp3XX-cp3XX.
setup(
    version=version(),
    cffi_modules=["build_ffi.py:ffibuilder"],
    cmdclass={"build_ext": BuildExt},
    options={"bdist_wheel": {"py_limited_api": "cp39"}},
)
