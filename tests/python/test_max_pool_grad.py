"""MaxPoolGrad when no two windows overlap (strides at least the window,
the 2x2 / stride 2 pooling of CNNs), which takes a single-pass kernel:
exact tilings, inputs with rows and columns outside every window, SAME
padding, strides larger than the window, channel counts beyond one channel
block, ties (the first maximum in the window gets the gradient, as in TF),
float16 through float, one and two threads; against the NumPy reference."""
import numpy as np
import pytest

from test_conv_ops import close, max_pool_grad_ref, pool_attrs, run

CASES = [
    # batch, h, w, c, ksize, strides, padding
    (2, 28, 28, 32, (2, 2), (2, 2), "VALID"),
    (3, 7, 9, 5, (2, 2), (2, 2), "VALID"),
    (2, 7, 9, 70, (2, 2), (2, 2), "SAME"),
    (1, 10, 11, 3, (2, 3), (3, 4), "VALID"),
    (2, 9, 8, 130, (3, 2), (3, 2), "SAME"),
    (1, 6, 6, 1, (3, 3), (3, 3), "VALID"),
]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("ties", [False, True])
def test_disjoint_max_pool_grad(case, dtype, threads, ties):
    n, h, w, c, ksize, strides, padding = case
    rng = np.random.default_rng(sum(case[:4]))
    if ties:  # few distinct values: most windows hold their maximum twice or more
        x = rng.integers(0, 3, (n, h, w, c)).astype(dtype)
    else:
        x = rng.standard_normal((n, h, w, c)).astype(dtype)
    attrs = pool_attrs(ksize, strides, padding)
    mx = run("MaxPool", [x], attrs, threads=threads)
    dy = (rng.standard_normal(mx.shape) + 2).astype(dtype)
    g = run("MaxPoolGrad", [x, mx, dy], attrs, threads=threads)
    want = max_pool_grad_ref(x, dy, ksize, strides, padding)
    close(g, want, dtype)
    # every gradient lands somewhere: per image and channel the sums agree
    np.testing.assert_allclose(g.astype(np.float64).sum(axis=(1, 2)),
                               dy.astype(np.float64).sum(axis=(1, 2)), rtol=2e-2 if dtype == np.float16 else 1e-5, atol=1e-2)
