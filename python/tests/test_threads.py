"""Queries from many threads at once give the same paths as one thread; the GIL is released
while the C code runs; objects shared by threads against the docs' advice wait for each other
instead of crashing."""

import os
import subprocess
import sys
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


HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("mode, rounds, runs", [
    ("crowd-2step", 1, 3),  # segfaulted every run before the crowd had its lock
    ("crowd-mutate", 2, 3),  # StaleIdError on a just-returned id, or a lost agent
    ("field", 2, 3),  # paths read a half-updated field
    ("hierarchy", 3, 5),  # segfaulted in about 2 runs of 5 before the hierarchy's lock
    ("sector", 3, 2),
    ("regions", 10, 3),  # ids read in the middle of an edit's relabelling
])
def test_objects_shared_by_threads_serialise_instead_of_crashing(mode, rounds, runs):
    """Misuse that the docs advise against (two threads stepping one crowd, a field updated
    while others follow it, a hierarchy updated while it is queried, regions asked while the
    map is edited) waits instead of crashing or reading half-written state: each object
    serialises its C calls with a lock of its own (threads_misuse.py, in a subprocess so
    that a segmentation fault fails the test)."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    for _ in range(runs):
        run = subprocess.run([sys.executable, os.path.join(HERE, "threads_misuse.py"), mode,
                              str(rounds)], cwd=os.path.dirname(HERE), env=env,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0 and f"ok {mode}" in run.stdout, (
            f"{mode}: exit {run.returncode} (-11: segmentation fault)\n{run.stdout}{run.stderr}")


def test_a_crowd_step_waits_for_another_threads_call():
    """Two threads stepping one crowd take whole steps in turn: the same state as one thread
    taking them all."""
    m = tilenav.Map.from_numpy(np.ones((40, 40)))

    def make():
        cr = tilenav.Crowd(m, capacity=300, seed=3)
        rng = np.random.default_rng(4)
        for _ in range(200):
            cr.add(tuple(rng.uniform(40, 1200, 2)), radius=4, target="seek",
                   target_pos=(600.0, 600.0))
        return cr

    shared = make()
    threads = [threading.Thread(target=lambda: [shared.step(1) for _ in range(150)])
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    serial = make()
    serial.step(300)
    assert shared.steps == 300 and shared.hash == serial.hash
