"""complex64/complex128 tensors and the FFT ops: feeding and fetching complex
arrays, Const/TensorProto encoding, Cast, tf.complex / real / imag / conj /
angle / abs, elementwise math, reductions and MatMul on complex values, the
FFT family against NumPy (power-of-two, mixed-radix and prime lengths), the
kernels' error cases, and gradients by finite differences. Per-op
comparisons with TensorFlow are in test_compat_ops.py (tests/fixtures/ops)."""
import zlib

import numpy as np
import pytest

import tfc as tf

RNG = np.random.RandomState(7)


def _c(*shape, dtype=np.complex128):
  return (RNG.randn(*shape) + 1j * RNG.randn(*shape)).astype(dtype)


def _run(t, feed=None):
  with tf.Session() as sess:
    return sess.run(t, feed)


@pytest.mark.parametrize("dt,np_dt", [(tf.complex64, np.complex64), (tf.complex128, np.complex128)])
def test_feed_fetch_const_and_graphdef(dt, np_dt):
  x = _c(2, 3, dtype=np_dt)
  with tf.Graph().as_default() as g:
    p = tf.placeholder(dt, [2, 3])
    c = tf.constant(x, name="c")
    s = tf.constant(1 + 2j, dtype=dt, name="s")
    got, cv, sv = _run([tf.identity(p), c, s], {p: x})
    assert got.dtype == np_dt and cv.dtype == np_dt
    np.testing.assert_array_equal(got, x)
    np.testing.assert_array_equal(cv, x)
    assert sv == np_dt(1 + 2j)
    gd = g.as_graph_def()
  with tf.Graph().as_default():
    tf.import_graph_def(gd, name="")
    np.testing.assert_array_equal(_run("c:0"), x)


def test_graphdef_complex_value_fields():
  """Consts written the way TF writes them: scomplex_val / dcomplex_val pairs,
  one pair broadcast over the shape."""
  gd = tf.GraphDef()
  for name, enum, field, values, n in (("c", 8, "scomplex_val", [1.0, 2.0], 3),
                                       ("d", 18, "dcomplex_val", [1.0, 2.0, 3.0, -4.0], 2)):
    node = gd.node.add()
    node.name, node.op = name, "Const"
    node.attr["dtype"].type = enum
    t = node.attr["value"].tensor
    t.dtype = enum
    t.tensor_shape.dim.add().size = n
    getattr(t, field).extend(values)
  with tf.Graph().as_default():
    tf.import_graph_def(gd, name="")
    c, d = _run(["c:0", "d:0"])
  assert c.dtype == np.complex64 and d.dtype == np.complex128
  np.testing.assert_array_equal(c, [1 + 2j] * 3)
  np.testing.assert_array_equal(d, [1 + 2j, 3 - 4j])


def test_cast_and_parts():
  x = _c(5)
  with tf.Graph().as_default():
    t = tf.constant(x)
    out = _run([tf.cast(t, tf.float32), tf.cast(t, tf.int32), tf.to_complex64(t),
                tf.to_complex128(tf.constant([1.5, -2.0])), tf.real(t), tf.imag(t),
                tf.conj(t), tf.angle(t), tf.abs(t), tf.complex(tf.real(t), tf.imag(t)),
                tf.dtypes.complex(tf.constant([1.0]), tf.constant([2.0])),
                tf.math.imag(tf.constant([3.0])), tf.math.angle(tf.constant([-1.0, 2.0]))])
  np.testing.assert_allclose(out[0], x.real.astype(np.float32))
  np.testing.assert_array_equal(out[1], x.real.astype(np.int32))
  assert out[2].dtype == np.complex64
  np.testing.assert_array_equal(out[3], np.array([1.5, -2.0], np.complex128))
  np.testing.assert_array_equal(out[4], x.real)
  np.testing.assert_array_equal(out[5], x.imag)
  np.testing.assert_array_equal(out[6], np.conj(x))
  np.testing.assert_allclose(out[7], np.angle(x))
  np.testing.assert_allclose(out[8], np.abs(x))
  np.testing.assert_array_equal(out[9], x)
  assert out[10].dtype == np.complex64 and out[10][0] == 1 + 2j
  np.testing.assert_array_equal(out[11], [0.0])
  np.testing.assert_allclose(out[12], [np.pi, 0.0])


def test_complex_type_errors():
  with tf.Graph().as_default():
    with pytest.raises(TypeError):
      tf.complex(tf.constant([1.0]), tf.constant([1.0], tf.float64))
    with pytest.raises(TypeError):
      tf.complex(tf.constant([1]), tf.constant([1]))


def test_elementwise_math_against_numpy():
  x, y = _c(3, 4), _c(4)
  with tf.Graph().as_default():
    a, b = tf.constant(x), tf.constant(y)
    ops = [a + b, a - b, a * b, a / b, -a, tf.square(a), tf.exp(a), tf.log(a), tf.sqrt(a),
           tf.reciprocal(a), tf.equal(a, a), tf.not_equal(a, b), tf.reduce_sum(a, 0),
           tf.reduce_prod(a, 1), tf.reduce_mean(a), tf.matmul(a, tf.reshape(b, [4, 1])),
           tf.tanh(a), tf.sin(a), tf.pow(a, b), tf.add_n([a, a, a])]
    got = _run(ops)
  want = [x + y, x - y, x * y, x / y, -x, x * x, np.exp(x), np.log(x), np.sqrt(x), 1 / x,
          np.ones((3, 4), bool), x != y, x.sum(0), x.prod(1), x.mean(), x @ y[:, None],
          np.tanh(x), np.sin(x), x ** y, 3 * x]
  for i, (g, w) in enumerate(zip(got, want)):
    np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12, err_msg=str(i))


def test_conjugate_transpose_and_scans():
  x = _c(2, 3, 4)
  with tf.Graph().as_default():
    t = tf.constant(x)
    out = _run([tf.transpose(t, [2, 0, 1], conjugate=True), tf.linalg.adjoint(t),
                tf.transpose(tf.constant(x[:1]), [1, 0, 2], conjugate=True),
                tf.cumsum(t, 2), tf.cumprod(t, 1, exclusive=True)])
  np.testing.assert_array_equal(out[0], np.conj(np.transpose(x, [2, 0, 1])))
  np.testing.assert_array_equal(out[1], np.conj(np.swapaxes(x, 1, 2)))
  np.testing.assert_array_equal(out[2], np.conj(np.transpose(x[:1], [1, 0, 2])))
  np.testing.assert_allclose(out[3], np.cumsum(x, 2), atol=1e-12)
  want = np.concatenate([np.ones((2, 1, 4)), np.cumprod(x, 1)[:, :-1]], 1)
  np.testing.assert_allclose(out[4], want, atol=1e-12)


def test_batch_matmul_adjoint():
  x, y = _c(2, 4, 3, dtype=np.complex64), _c(2, 5, 4, dtype=np.complex64)
  with tf.Graph().as_default():
    got = _run(tf.matmul(tf.constant(x), tf.constant(y), adjoint_a=True, adjoint_b=True))
  want = np.conj(np.swapaxes(x, 1, 2)) @ np.conj(np.swapaxes(y, 1, 2))
  np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 12, 30, 61, 67, 97, 128, 210, 1009, 1024])
def test_fft_lengths(n):
  x = _c(2, n)
  with tf.Graph().as_default():
    f, i = _run([tf.fft(tf.constant(x)), tf.ifft(tf.constant(x))])
  scale = np.abs(np.fft.fft(x)).max()
  np.testing.assert_allclose(f, np.fft.fft(x), atol=1e-12 * scale * max(1, np.log2(n)))
  np.testing.assert_allclose(i, np.fft.ifft(x), atol=1e-13 * max(1, np.log2(n)))


def test_fft_multi_dim_and_real_forms():
  x = _c(2, 3, 4, 5)
  r = RNG.randn(2, 6, 7)
  with tf.Graph().as_default():
    out = _run([tf.fft2d(tf.constant(x)), tf.ifft3d(tf.constant(x)),
                tf.spectral.rfft(tf.constant(r)), tf.signal.rfft2d(tf.constant(r), [4, 10]),
                tf.signal.irfft(tf.constant(np.fft.rfft(r)), [7]),
                tf.signal.irfft3d(tf.constant(np.fft.rfftn(x.real, axes=(1, 2, 3))), [3, 4, 5])])
  np.testing.assert_allclose(out[0], np.fft.fft2(x), atol=1e-12)
  np.testing.assert_allclose(out[1], np.fft.ifftn(x, axes=(1, 2, 3)), atol=1e-13)
  np.testing.assert_allclose(out[2], np.fft.rfft(r), atol=1e-12)
  np.testing.assert_allclose(out[3], np.fft.rfft2(r, (4, 10)), atol=1e-12)
  np.testing.assert_allclose(out[4], r, atol=1e-12)
  np.testing.assert_allclose(out[5], x.real, atol=1e-12)
  assert out[2].dtype == np.complex128 and out[4].dtype == np.float64


def test_fft_errors():
  with tf.Graph().as_default():
    with pytest.raises(ValueError):
      tf.fft2d(tf.constant([1 + 1j, 2j]))
    p = tf.placeholder(tf.complex64)
    y = tf.fft3d(p, name="f3")
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank of at least 3"):
      _run(y, {p: np.zeros((2, 2), np.complex64)})
    x = tf.placeholder(tf.float32)
    n = tf.placeholder(tf.int32)
    from tfc.framework.op_def_library import _apply_op
    r = _apply_op("RFFT", "r", [x, n]).outputs[0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="must >= 0"):
      _run(r, {x: np.zeros((2, 4), np.float32), n: [-1]})
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be 1D and have 1 elements"):
      _run(r, {x: np.zeros((2, 4), np.float32), n: [4, 4]})
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least 6"):
      _run(r, {x: np.zeros((2, 4), np.float32), n: [6]})


def test_empty_and_zero_length():
  with tf.Graph().as_default():
    out = _run([tf.signal.rfft(tf.zeros([3, 8]), [0]),
                tf.signal.irfft(tf.zeros([3, 5], tf.complex64), [0]),
                tf.fft(tf.zeros([0, 4], tf.complex64)),
                tf.signal.rfft(tf.zeros([3, 0]), [4])])
  assert out[0].shape == (3, 0) and out[1].shape == (3, 0) and out[2].shape == (0, 4)
  np.testing.assert_array_equal(out[3], np.zeros((3, 3), np.complex64))


def test_static_shapes():
  with tf.Graph().as_default():
    assert tf.signal.rfft(tf.zeros([3, 10]), [7]).shape.as_list() == [3, 4]
    assert tf.signal.irfft2d(tf.zeros([2, 5, 6], tf.complex64)).shape.as_list() == [2, 5, 10]
    assert tf.fft3d(tf.zeros([1, 2, 3, 4], tf.complex64)).shape.as_list() == [1, 2, 3, 4]


def _grad_error(build, shapes, seed):
  rng = np.random.RandomState(seed)
  with tf.Graph().as_default():
    data = [rng.randn(*s) for s in shapes]
    xs = [tf.constant(d) for d in data]
    y = build(*xs)
    with tf.Session():
      # the seeded points themselves (without x_init_value the checker draws
      # its own from NumPy's global state, which the test does not control)
      return tf.test.compute_gradient_error(xs, [list(s) for s in shapes], y, y.shape.as_list(),
                                            x_init_value=data)


@pytest.mark.parametrize("name,build,shapes", [
    ("complex_real_imag", lambda a, b: tf.real(tf.complex(a, b) * tf.complex(b, a)) +
     tf.imag(tf.complex(a, b) ** 2), [(3, 4), (3, 4)]),
    ("complex_broadcast", lambda a, b: tf.imag(tf.complex(a, b) * tf.complex(a, b)),
     [(3, 4), (4,)]),
    # |z| and arg(z) are not smooth at 0: points kept away from it
    ("abs", lambda a, b: tf.abs(tf.complex(a + 3 * tf.sign(a), b)), [(3, 4), (3, 4)]),
    ("angle", lambda a, b: tf.angle(tf.complex(a + 3 * tf.sign(a), b)), [(3, 4), (3, 4)]),
    ("conj", lambda a, b: tf.imag(tf.conj(tf.complex(a, b)) * tf.complex(a, a)), [(3, 4), (3, 4)]),
    ("cast", lambda a: tf.real(tf.cast(a, tf.complex128) * tf.complex(a, a)), [(5,)]),
    ("fft", lambda a, b: tf.real(tf.fft(tf.complex(a, b))) + 2 * tf.imag(tf.fft(tf.complex(b, a))),
     [(3, 5), (3, 5)]),
    ("ifft2d", lambda a, b: tf.real(tf.ifft2d(tf.complex(a, b)) * tf.complex(b, a)),
     [(3, 5), (3, 5)]),
    ("fft3d", lambda a, b: tf.imag(tf.fft3d(tf.complex(a, b)) * tf.complex(a, b)),
     [(2, 3, 5), (2, 3, 5)]),
    ("rfft", lambda a: tf.real(tf.signal.rfft(a) ** 2), [(3, 8)]),
    ("rfft_odd", lambda a: tf.real(tf.signal.rfft(a)) + tf.imag(tf.signal.rfft(a)), [(3, 7)]),
    ("rfft_crop", lambda a: tf.imag(tf.signal.rfft(a, [5]) ** 2), [(3, 8)]),
    ("rfft_pad", lambda a: tf.real(tf.signal.rfft(a, [11]) ** 2), [(3, 8)]),
    ("rfft2d", lambda a: tf.real(tf.signal.rfft2d(a, [3, 6]) ** 2), [(2, 3, 7)]),
    ("rfft3d", lambda a: tf.imag(tf.signal.rfft3d(a) ** 2), [(2, 3, 4)]),
    ("irfft", lambda a, b: tf.signal.irfft(tf.complex(a, b)), [(3, 5), (3, 5)]),
    ("irfft_odd", lambda a, b: tf.signal.irfft(tf.complex(a, b), [9]), [(3, 5), (3, 5)]),
    ("irfft2d", lambda a, b: tf.signal.irfft2d(tf.complex(a, b)), [(2, 4, 5), (2, 4, 5)]),
    # real parts kept near 2: away from the branch cuts of log/sqrt and the pole of 1/z
    ("holomorphic", lambda a, b: tf.real(
        tf.exp(tf.complex(a, b)) / tf.complex(2 + 0.3 * b, a) +
        tf.log(tf.complex(2 + 0.3 * a, b)) * tf.sqrt(tf.complex(2 + 0.3 * b, a)) +
        tf.tanh(tf.complex(a, 0.3 * b)) + tf.sigmoid(tf.complex(b, a))), [(3,), (3,)]),
    ("matmul", lambda a, b: tf.imag(tf.matmul(tf.complex(a, b), tf.complex(b, a))),
     [(3, 3), (3, 3)]),
    ("conjugate_transpose", lambda a, b: tf.imag(tf.transpose(tf.complex(a, b), conjugate=True) *
                                                 tf.complex(b, a)), [(3, 3), (3, 3)]),
    ("cumsum", lambda a, b: tf.real(tf.cumsum(tf.complex(a, b), 1) * tf.complex(b, b)),
     [(2, 4), (2, 4)]),
    ("reductions", lambda a, b: tf.real(tf.reduce_sum(tf.complex(a, b), 1) ** 2 +
                                        tf.reduce_prod(tf.complex(a, b), 1) +
                                        tf.reduce_mean(tf.complex(b, a), 0)), [(3, 3), (3, 3)]),
])
def test_gradients(name, build, shapes):
  assert _grad_error(build, shapes, zlib.crc32(name.encode())) < 1e-4, name
