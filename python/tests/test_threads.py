"""Queries from many threads at once give the same paths as one thread; the GIL is released
while the C code runs."""

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import tilenav
from conftest import MOVINGAI, data


def queries(m, n, seed=7):
    rng = np.random.default_rng(seed)
    free = np.argwhere(m.passable)[:, ::-1]  # (x, y)
    pick = rng.integers(0, len(free), size=(n, 2))
    return [(tuple(free[a]), tuple(free[b])) for a, b in pick]


def load_map():
    den = os.path.join(MOVINGAI, "dao", "den520d.map")
    return tilenav.Map.load(den if os.path.exists(den) else data("data", "maps", "maze64.map"))


@pytest.mark.parametrize("algo", ["jps", "astar"])
def test_parallel_paths_equal_serial_paths(algo):
    m = load_map()
    qs = queries(m, 400)
    serial = [m.path(s, g, algo=algo).tolist() for s, g in qs]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(2):
            parallel = list(pool.map(lambda q: m.path(q[0], q[1], algo=algo).tolist(), qs))
            assert parallel == serial


def test_parallel_distances_and_fields_equal_serial():
    m = load_map()
    goals = [g for _, g in queries(m, 16)]
    serial = [m.distances(g) for g in goals]
    with ThreadPoolExecutor(4) as pool:
        parallel = list(pool.map(m.distances, goals))
        fields = list(pool.map(lambda g: m.flow_field(g).distances.copy(), goals))
    for a, b, f in zip(serial, parallel, fields):
        assert np.array_equal(a, b)
        assert np.array_equal(np.isinf(a), np.isinf(f))


def test_the_gil_is_released_during_queries():
    """A Python thread keeps running while another one is inside a long C call."""
    m = load_map()
    g = queries(m, 1)[0][1]
    ticks = 0
    stop = threading.Event()

    def count():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        time.sleep(0.01)
        before = ticks
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 0.2:
            m.distances(g)
        during = ticks - before
    finally:
        stop.set()
        t.join()
    assert during > 1000  # with the GIL held the counter would advance only between calls
