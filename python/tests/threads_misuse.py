"""Objects used from several threads at once, as the docs advise against: each mode must end
without a crash and with the result of some serial order (test_threads.py runs each mode in a
subprocess, so that a segmentation fault fails the test instead of killing pytest).

    python threads_misuse.py MODE [ROUNDS]

Modes: crowd-2step (two threads step one crowd), crowd-mutate (one steps, one adds and
removes agents), field (updates of a flow field while others follow it), hierarchy (map edits,
hierarchy updates and queries at once), sector (sector fields asked while the hierarchy
updates and a crowd steps with them), regions (regions asked while the map is edited).
Prints "ok MODE" at the end; exits 1 with the errors otherwise."""

import sys
import threading

import numpy as np

import tilenav

errors = []


def run_threads(*targets):
    def guard(fn):
        def run():
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - reported at the end
                errors.append(repr(e))
        return run

    threads = [threading.Thread(target=guard(t)) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def crowd(m, n, seed=0):
    f = m.flow_field((90, 90), los=False)
    cr = tilenav.Crowd(m, capacity=3000)
    cr.set_flow(0, f)
    rng = np.random.default_rng(seed)
    for _ in range(n):
        cr.add(tuple(rng.uniform(40, 3000, 2)), radius=4, target="flow", flow=0)
    return cr


def crowd_2step(rounds):
    m = tilenav.Map.from_numpy(np.ones((100, 100)))
    cr = crowd(m, 1000)
    steps = 100 * rounds

    def stepper():
        for _ in range(steps):
            cr.step(1)

    run_threads(stepper, stepper)
    assert cr.steps == 2 * steps, cr.steps
    # whole steps in some order: the same state as one thread stepping as often
    serial = crowd(m, 1000)
    serial.step(2 * steps)
    assert cr.hash == serial.hash, "the steps interleaved"


def crowd_mutate(rounds):
    m = tilenav.Map.from_numpy(np.ones((100, 100)))
    cr = crowd(m, 1000)
    rng = np.random.default_rng(1)
    added = []

    def stepper():
        for _ in range(100 * rounds):
            cr.step(1)

    def mutator():
        ids = []
        for _ in range(1000 * rounds):
            ids.append(cr.add(tuple(rng.uniform(40, 3000, 2)), radius=4, target="flow", flow=0))
            added.append(ids[-1])
            if len(ids) > 10:
                cr.remove(ids.pop(0))  # an id add() just returned: never stale
            cr.positions, cr.ids, len(cr)

    run_threads(stepper, mutator)
    assert len(cr) == 1010 and len(cr.ids) == 1010, (len(cr), len(cr.ids))
    assert len(set(added)) == len(added)


def field(rounds):
    rng = np.random.default_rng(2)
    m = tilenav.Map.from_numpy(np.ones((120, 120)))
    extra = np.zeros((120, 120), dtype=np.float32)
    f = m.flow_field((100, 100), extra=extra, los=True)
    stop = threading.Event()

    def updater():
        try:
            for k in range(40 * rounds):
                x0, y0 = (int(v) for v in rng.integers(0, 110, 2))
                extra[y0:y0 + 10, x0:x0 + 10] = 5.0 * (k % 2)
                f.update(extra_changed=(x0, y0, x0 + 10, y0 + 10))
        finally:
            stop.set()

    def reader():
        while not stop.is_set():
            p = f.path((3, 3))
            assert len(p) and p[-1].tolist() == [100, 100]
            f.sample(100.0, 200.0)
            f.directions, f.vectors, f.los, f.reachable_count

    run_threads(updater, reader, reader)
    fresh = m.flow_field((100, 100), extra=extra, los=True)
    assert np.array_equal(f.distances, fresh.distances)


def open_map(rng, w=96, h=96):
    cost = np.where(rng.random((h, w)) < 0.15, 0.0, 1.0)
    cost[0, :] = cost[:, 0] = cost[h - 1, :] = cost[:, w - 1] = 1.0
    return cost


def hierarchy(rounds):
    rng = np.random.default_rng(3)
    cost = open_map(rng, 256, 256)
    m = tilenav.Map.from_numpy(cost)
    hi = m.hierarchy(sector_size=16)
    stop = threading.Event()

    def editor():
        try:
            for k in range(30 * rounds):
                x, y = (int(v) for v in rng.integers(1, 250, 2))
                m.set_cost([(x, y), (x + 1, y)], 0 if k % 2 else 1)
                cost[y, x:x + 2] = 0 if k % 2 else 1
                hi.update()
                if k % 10 == 0:
                    hi.refresh()
        finally:
            stop.set()

    def query():
        while not stop.is_set():
            try:
                hi.path((0, 0), (255, 255))
                hi.path((0, 0), (255, 255), exact=True)
            except tilenav.StateError:
                pass  # edited and not yet updated: documented
            hi.stats, hi.memory_bytes

    run_threads(editor, query, query)
    hi.update()
    fresh = tilenav.Map.from_numpy(cost)
    assert hi.path((0, 0), (255, 255), exact=True).cost == fresh.path_result(
        (0, 0), (255, 255)).cost


def sector(rounds):
    rng = np.random.default_rng(4)
    cost = open_map(rng, 128, 128)
    cost[118:123, 118:123] = 1
    m = tilenav.Map.from_numpy(cost)
    hi = m.hierarchy(sector_size=16)
    sf = hi.sector_field((120, 120), budget=256 << 10)  # small: sectors come and go
    cr = tilenav.Crowd(m, capacity=600)
    cr.set_flow(0, sf)
    free = np.argwhere(m.passable)[:, ::-1]
    for x, y in free[rng.integers(0, len(free), 100)]:
        cr.add(((x + 0.5) * 32, (y + 0.5) * 32), radius=4, target="flow", flow=0)
    stop = threading.Event()

    def stepper():
        try:
            for _ in range(60 * rounds):
                try:
                    cr.step(1)
                except tilenav.StateError:
                    pass  # edited and the field not yet aimed again: documented
        finally:
            stop.set()

    def asker():
        r = np.random.default_rng(5)
        while not stop.is_set():
            x, y = free[r.integers(0, len(free))]
            try:
                sf.direction((int(x), int(y)))
                sf.path((int(x), int(y)))
            except (tilenav.StateError, tilenav.BlockedError):
                pass  # edited meanwhile (the cell may be a wall now): documented
            sf.stats, sf.memory_bytes

    def updater():
        k = 0
        while not stop.is_set():
            x, y = (int(v) for v in rng.integers(1, 110, 2))
            m.set_cost([(x, y), (x, y + 1)], 0 if k % 2 else 1)
            hi.update()
            sf.set_goal((120, 120))  # the sector field follows the update
            k += 1

    run_threads(stepper, asker, updater)


def regions(rounds):
    rng = np.random.default_rng(6)
    cost = open_map(rng, 80, 80)
    m = tilenav.Map.from_numpy(cost)
    rg = m.regions(max_size=2)
    stop = threading.Event()

    def editor():
        try:
            for k in range(100 * rounds):
                x, y = (int(v) for v in rng.integers(1, 79, 2))
                m.set_cost([(x, y), (x + 1, y)], 0 if k % 2 else 1)
        finally:
            stop.set()

    def asker():
        while not stop.is_set():
            for size in (1, 2):
                ids = rg.ids(size)
                # every id of 0..count-1 labels some cell: a read in the middle of a
                # relabelling breaks that
                assert np.array_equal(np.unique(ids[ids >= 0]), np.arange(ids.max() + 1)), size
            rg.count(2), rg.id((5, 5)), rg.connected((0, 0), (79, 79))

    run_threads(editor, asker, asker)


MODES = {"crowd-2step": crowd_2step, "crowd-mutate": crowd_mutate, "field": field,
         "hierarchy": hierarchy, "sector": sector, "regions": regions}

if __name__ == "__main__":
    mode = sys.argv[1]
    MODES[mode](int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    if errors:
        print("\n".join(errors[:5]))
        sys.exit(1)
    print(f"ok {mode}")
