"""NumPy inputs of the wrong dtype, shape or strides are refused with clear errors; outputs
are views of C memory where the layout allows."""

import numpy as np
import pytest

import tilenav

COST = np.ones((6, 8))


def test_from_numpy_rejects_bad_dtypes_and_shapes():
    with pytest.raises(ValueError, match=r"2-D \(height, width\).*\(6, 8, 1\)"):
        tilenav.Map.from_numpy(COST[..., None])
    with pytest.raises(ValueError, match="2-D"):
        tilenav.Map.from_numpy(np.ones(8))
    with pytest.raises(TypeError, match="bool, integer or float.*complex128"):
        tilenav.Map.from_numpy(COST.astype(complex))
    with pytest.raises(TypeError, match="dtype object"):
        tilenav.Map.from_numpy(np.array([[1, None]], dtype=object))
    with pytest.raises(ValueError, match="negative or NaN"):
        tilenav.Map.from_numpy(np.array([[1.0, -2.0]]))
    with pytest.raises(ValueError, match="negative or NaN"):
        tilenav.Map.from_numpy(np.array([[1.0, np.nan]]))
    with pytest.raises(ValueError, match="at least one cell"):
        tilenav.Map.from_numpy(np.ones((0, 4)))


def test_from_numpy_refuses_a_map_past_the_limit_before_copying(tmp_path):
    """A 20000 x 20000 broadcast array was refused only after a 16 GB copy; the limit is the
    C library's (TN_MAX_DIM per side, TN_MAX_CELLS cells), named in the message and in the
    docstring, and the message no longer promises a way to raise it."""
    import tracemalloc

    side, cells = tilenav._lib.TN_MAX_DIM, tilenav._lib.TN_MAX_CELLS
    limit = rf"past the map size limit \({side} per side, {cells} cells\)"
    tracemalloc.start()
    try:
        for shape in ((side + 1, 3), (2, side + 1)):
            with pytest.raises(tilenav.InvalidArgumentError, match=limit) as e:
                tilenav.Map.from_numpy(np.broadcast_to(np.float64(1), shape))
            assert e.value.status == tilenav._lib.TN_E_TOO_LARGE
            assert tracemalloc.get_traced_memory()[1] < 100_000  # nothing was copied
    finally:
        tracemalloc.stop()
    for shape in ((20000, 20000), (40000, 40000), (side // 2, side // 2)):
        with pytest.raises(tilenav.InvalidArgumentError, match=limit):
            tilenav.Map.from_numpy(np.broadcast_to(True, shape))
    doc = " ".join(tilenav.Map.from_numpy.__doc__.split())
    assert f"at most {side} cells per side and {cells} (2**28) cells" in doc
    assert cells == 2**28
    # an error of the C library's TN_E_TOO_LARGE: its limit named, no advice Python cannot use
    big = tmp_path / "big.map"
    big.write_text(f"type octile\nheight {side + 1}\nwidth 10\nmap\n")
    with pytest.raises(tilenav.InvalidArgumentError, match=f"{side} per side") as e:
        tilenav.Map.load(big)
    assert "how to raise" not in str(e.value) and "fixed limit" in str(e.value)


def test_from_numpy_copies_any_strides():
    big = np.arange(1, 97, dtype=np.float64).reshape(8, 12)
    part = big[::2, 1::3]  # strided, not contiguous
    m = tilenav.Map.from_numpy(part)
    assert np.array_equal(m.costs, part.astype(np.float32))
    fortran = np.asfortranarray(big)
    assert np.array_equal(tilenav.Map.from_numpy(fortran).costs, big.astype(np.float32))


def test_distances_out_must_be_exact():
    m = tilenav.Map.from_numpy(COST)
    with pytest.raises(TypeError, match="out must have dtype float64"):
        m.distances((0, 0), out=np.empty((6, 8), dtype=np.float32))
    with pytest.raises(ValueError, match=r"out must have shape \(6, 8\), got \(8, 6\)"):
        m.distances((0, 0), out=np.empty((8, 6)))
    with pytest.raises(ValueError, match="C-contiguous.*strides"):
        m.distances((0, 0), out=np.empty((6, 16))[:, ::2])
    with pytest.raises(ValueError, match="C-contiguous"):
        m.distances((0, 0), out=np.empty((8, 6)).T)
    ro = np.empty((6, 8))
    ro.setflags(write=False)
    with pytest.raises(ValueError, match="writable"):
        m.distances((0, 0), out=ro)
    with pytest.raises(TypeError, match="NumPy array"):
        m.distances((0, 0), out=[[0.0] * 8] * 6)


def test_field_extra_is_used_in_place_so_must_be_exact():
    m = tilenav.Map.from_numpy(COST)
    with pytest.raises(TypeError, match="extra must have dtype float32.*float64"):
        m.flow_field((0, 0), extra=np.zeros((6, 8)))
    with pytest.raises(ValueError, match="C-contiguous"):
        m.flow_field((0, 0), extra=np.zeros((6, 16), dtype=np.float32)[:, ::2])
    with pytest.raises(ValueError, match="shape"):
        m.flow_field((0, 0), extra=np.zeros((8, 6), dtype=np.float32))


def test_read_once_inputs_are_converted_but_shapes_checked():
    m = tilenav.Map.from_numpy(COST)
    extra64 = np.zeros((6, 8))  # converted: path reads it only during the call
    assert len(m.path((0, 0), (7, 5), extra=extra64)) == 8
    with pytest.raises(ValueError, match=r"extra must have the map's shape"):
        m.path((0, 0), (7, 5), extra=np.zeros((5, 8)))
    with pytest.raises(TypeError, match="extra must be a real-valued array"):
        m.path((0, 0), (7, 5), extra=np.zeros((6, 8), dtype=complex))
    with pytest.raises(TypeError, match="goals must be .* of integers"):
        m.distances(np.array([[0.5, 1.0]]))
    with pytest.raises(ValueError, match=r"\(N, 2\)"):
        m.distances(np.zeros((3, 3), dtype=int))
    with pytest.raises(tilenav.InvalidArgumentError, match="invalid argument"):
        m.path((0, 0), (7, 5), extra=np.full((6, 8), -1.0))


def test_broadphase_rejects_bad_inputs():
    with pytest.raises(ValueError, match=r"positions must have shape \(N, 2\)"):
        tilenav.broadphase(np.zeros((4, 3)), 1.0)
    with pytest.raises(ValueError, match=r"radii must be one number or have shape \(4,\)"):
        tilenav.broadphase(np.zeros((4, 2)), np.ones(5))
    with pytest.raises(TypeError, match="positions must be a real-valued"):
        tilenav.broadphase(np.zeros((4, 2), dtype=complex), 1.0)
    with pytest.raises(ValueError, match="finite"):
        tilenav.broadphase(np.array([[0.0, np.inf]]), 1.0)


def test_views_share_the_c_memory():
    m = tilenav.Map.from_numpy(COST)
    a, b = m.costs, m.costs
    assert not a.flags.owndata and not a.flags.writeable
    assert a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
    with pytest.raises(ValueError):
        a[0, 0] = 3
    f = m.flow_field((0, 0))
    d1, d2 = f.distances, f.distances
    assert d1.__array_interface__["data"] == d2.__array_interface__["data"]
    assert d1.dtype == np.float32 and d1.shape == (6, 8)
    del f, m
    assert d1[5, 7] == pytest.approx(7 + 5 * (2 ** 0.5 - 1))  # the view keeps the field alive
