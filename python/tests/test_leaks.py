"""No leaks over 100,000 creations and destructions: Python objects (tracemalloc) and C
memory (glibc's heap in use, mallinfo2)."""

import ctypes
import ctypes.util
import gc
import os
import tracemalloc

import numpy as np
import pytest

import tilenav
from conftest import data

MAZE = data("data", "maps", "maze64.map")

LOOPS = int(os.environ.get("TILENAV_LEAK_LOOPS", "100000"))


def c_heap_bytes():
    """Bytes of the C heap in use (glibc's mallinfo2), or None elsewhere."""
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    if not hasattr(libc, "mallinfo2"):
        return None

    class Mallinfo2(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd",
                                                   "usmblks", "fsmblks", "uordblks", "fordblks",
                                                   "keepcost")]

    libc.mallinfo2.restype = Mallinfo2
    info = libc.mallinfo2()
    return info.uordblks + info.hblkhd


def make_objects():
    """One creation and destruction per call, of each kind in turn (maps from NumPy and from
    files, search contexts, fields, crowds, broad phases, scenarios), each used once."""
    cost = np.ones((6, 8))
    positions = np.random.default_rng(1).random((16, 2)) * 8
    m = tilenav.Map.from_numpy(cost)
    f = m.flow_field((7, 5))

    def new_map():
        with tilenav.Map.from_numpy(cost) as m2:
            m2.path((0, 0), (7, 5))

    def search():
        m._pool.clear()  # the next query creates a search context; this one is dropped
        m.path((0, 0), (7, 5))
        m.paths([(0, 0), (1, 1)], (7, 5))

    def field():
        with m.flow_field((7, 5)) as f2:
            f2.vectors

    def crowd():
        with tilenav.Crowd(m, capacity=4) as c:
            c.set_flow(0, f)
            c.add((16.0, 16.0), target="flow", flow=0)
            c.step()

    def broad():
        tilenav.broadphase(positions, 1.0)

    def load():
        tilenav.Map.load(MAZE).distances((1, 1))

    def failing():
        try:
            tilenav.Map.load(MAZE + ".missing")
        except tilenav.LoadIOError:
            pass

    return [new_map, search, field, crowd, broad, load, failing]


def test_no_leak_over_100000_create_destroy_loops():
    makers = make_objects()
    for i in range(1000):  # warm up caches (cffi's type cache, NumPy's allocator)
        makers[i % len(makers)]()
    gc.collect()
    tracemalloc.start()
    heap0 = c_heap_bytes()
    snap0 = tracemalloc.take_snapshot()
    for i in range(LOOPS):
        makers[i % len(makers)]()
    gc.collect()
    snap1 = tracemalloc.take_snapshot()
    heap1 = c_heap_bytes()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
    # a leak of one object per loop would be >= 100,000 * 16 bytes
    assert grown < 64 * 1024, snap1.compare_to(snap0, "lineno")[:5]
    if heap0 is not None:
        assert heap1 - heap0 < 256 * 1024, f"C heap grew by {heap1 - heap0} bytes"
    else:
        pytest.skip("no mallinfo2: only the Python side was checked")


def rss_bytes():
    """The process's resident memory (Linux), or None elsewhere."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return None


def test_query_caches_stay_bounded_over_200000_varied_calls():
    """Each option set (algorithm, weight, heuristic, ...) gets a prepared query that the map
    keeps, and each weight a hierarchy query context per thread: both are bounded caches, so
    200,000 calls with ever-changing weights keep memory flat (one entry kept per call grew
    the process by 92 MB)."""
    m = tilenav.Map.from_numpy(np.ones((6, 8)))
    hi = m.hierarchy(sector_size=4)

    def run(lo, hi_):
        for i in range(lo, hi_):
            w = 1.0 + i * 1e-7
            if i % 20 == 0:
                hi.path((0, 0), (7, 5), weight=w)
            else:
                m.path((0, 0), (7, 5), algo=("astar", "jps")[i % 2], weight=w)

    run(0, 2000)  # warm up: the caches fill
    gc.collect()
    rss0, heap0 = rss_bytes(), c_heap_bytes()
    run(2000, 200_000)
    gc.collect()
    rss1, heap1 = rss_bytes(), c_heap_bytes()
    if rss0 is not None:
        assert rss1 - rss0 < 4 << 20, f"the process grew by {rss1 - rss0} bytes"
    if heap0 is not None:
        assert heap1 - heap0 < 256 * 1024, f"C heap grew by {heap1 - heap0} bytes"
    assert len(m._queries) <= 32
