"""tilenav's exceptions cross process boundaries: they pickle with their class, message and
attributes, so an error raised in a multiprocessing or concurrent.futures worker reaches the
parent as itself (an exception that does not unpickle hangs multiprocessing.Pool.map forever:
its result thread dies)."""

import copy
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tilenav
from tilenav import _errors


def raised():
    """One real exception of each kind the package raises, from real calls."""
    m = tilenav.Map.from_numpy(np.ones((10, 10)))
    calls = [
        lambda: m.path((0, 0), (50, 50)),  # OutOfMapError
        lambda: tilenav.Map.from_numpy(np.zeros((3, 3))).path((0, 0), (1, 1)),  # BlockedError
        lambda: tilenav.Map.load("/nonexistent/tilenav/map.tmj"),  # LoadIOError
        lambda: m.path((0, 0), (1, 1), weight=0.5),  # InvalidArgumentError (checked in Python)
        lambda: m.path((0, 0), (1, 1), max_expansions=0),  # InvalidArgumentError
        lambda: tilenav.Map.from_numpy(np.ones((3, 3))).set_tile("cost", (0, 0), 1),
    ]
    out = []
    for call in calls:
        with pytest.raises(tilenav.TilenavError) as info:
            call()
        out.append(info.value)
    crowd = tilenav.Crowd(m)
    with pytest.raises(tilenav.StaleIdError) as info:
        crowd.remove(12345)
    out.append(info.value)
    return out


def made():
    """One exception of every class, as check() raises them for each status."""
    out = [tilenav.TilenavError(-100, "a call")]
    for status in sorted(_errors._BY_STATUS):
        try:
            _errors.check(status, "a call", "a detail")
        except tilenav.TilenavError as e:
            out.append(e)
    return out


def same(a, b):
    assert type(a) is type(b)
    assert str(a) == str(b)
    assert a.args == b.args
    assert a.status == b.status and a.status_name == b.status_name
    assert vars(a) == vars(b)


def test_every_exception_class_pickles_with_its_message_and_attributes():
    errors = raised() + made()
    assert {type(e) for e in made()} == {tilenav.TilenavError} | set(_errors._BY_STATUS.values())
    for e in errors:
        e.extra_note = "kept"  # attributes set on an instance travel too
        for proto in range(pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(e, protocol=proto))
            same(e, back)
            assert back.extra_note == "kept"
        same(e, copy.copy(e))
        same(e, copy.deepcopy(e))
    out_of_map = raised()[0]
    back = pickle.loads(pickle.dumps(out_of_map))
    assert isinstance(back, IndexError) and "outside" in str(back)
    io = pickle.loads(pickle.dumps(raised()[2]))
    assert isinstance(io, OSError) and "nonexistent" in str(io)


WORKER = textwrap.dedent("""
    import concurrent.futures
    import multiprocessing as mp
    import sys

    import numpy as np
    import tilenav


    def worker(i):
        m = tilenav.Map.from_numpy(np.ones((10, 10)))
        if i == 0:
            m.path((0, 0), (50, 50))  # OutOfMapError
        if i == 1:
            tilenav.Map.load("/nonexistent/tilenav/map.tmj")  # LoadIOError
        return len(m.path((0, 0), (9, 9)))


    def expect(kind, what, fn):
        try:
            fn()
        except kind as e:
            print(what, type(e).__name__, e.status, flush=True)
        else:
            sys.exit(f"{what}: no {kind.__name__}")


    if __name__ == "__main__":
        for method in ("fork", "spawn"):
            ctx = mp.get_context(method)
            with ctx.Pool(2) as pool:
                expect(tilenav.OutOfMapError, f"Pool.map {method}",
                       lambda: pool.map_async(worker, [2, 0, 2]).get(timeout=60))
                expect(tilenav.LoadIOError, f"Pool.apply {method}",
                       lambda: pool.apply_async(worker, (1,)).get(timeout=60))
                assert pool.map_async(worker, [2, 2]).get(timeout=60) == [10, 10]
        with concurrent.futures.ProcessPoolExecutor(1) as ex:
            expect(tilenav.OutOfMapError, "ProcessPoolExecutor",
                   lambda: ex.submit(worker, 0).result(timeout=60))
        print("done", flush=True)
""")


def test_an_error_in_a_worker_process_reaches_the_parent(tmp_path):
    """A real multiprocessing Pool (fork and spawn) and a ProcessPoolExecutor whose worker
    raises: the parent gets the exception, not a hang (the script runs in a subprocess with a
    timeout, so a regression fails instead of hanging the tests)."""
    script = tmp_path / "workers.py"
    script.write_text(WORKER)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    try:
        run = subprocess.run([sys.executable, str(script)], cwd=str(tmp_path), env=env,
                             capture_output=True, text=True, timeout=240)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the worker pool hung (an exception that does not unpickle?): {e.stdout}")
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.split("\n")
    for what in ("Pool.map fork OutOfMapError", "Pool.apply fork LoadIOError",
                 "Pool.map spawn OutOfMapError", "Pool.apply spawn LoadIOError",
                 "ProcessPoolExecutor OutOfMapError"):
        assert any(line.startswith(what) for line in lines), run.stdout
    assert "done" in lines
