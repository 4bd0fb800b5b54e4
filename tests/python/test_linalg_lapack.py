"""Dense linear algebra through LAPACK: tf.cholesky, matrix_inverse,
matrix_determinant, log_matrix_determinant, matrix_solve,
matrix_triangular_solve, self_adjoint_eig, svd, qr and the composed
cholesky_solve / logdet / lstsq, against NumPy on several shapes and dtypes,
gradients by finite differences, bad inputs (TF's errors with the node name)."""
import numpy as np
import pytest

import tfc as tf

SHAPES = [(3, 3), (2, 4, 4), (1, 1)]


def _spd(shape, dtype, seed=0):
  rng = np.random.RandomState(seed)
  a = rng.randn(*shape)
  n = shape[-1]
  return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)


def _run(t, feed=None):
  with tf.Session() as sess:
    return sess.run(t, feed)


def _tol(dtype):
  return dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES)
def test_cholesky_inverse_det_against_numpy(dtype, shape):
  a = _spd(shape, dtype)
  with tf.Graph().as_default():
    chol, inv, det, (sign, logdet), ld = _run([
        tf.cholesky(a), tf.matrix_inverse(a), tf.matrix_determinant(a),
        tf.log_matrix_determinant(a), tf.linalg.logdet(a)])
  assert chol.dtype == dtype and chol.shape == shape
  np.testing.assert_allclose(chol, np.linalg.cholesky(a.astype(np.float64)), **_tol(dtype))
  np.testing.assert_allclose(inv, np.linalg.inv(a.astype(np.float64)), **_tol(dtype))
  np.testing.assert_allclose(det, np.linalg.det(a.astype(np.float64)), rtol=1e-4)
  s_np, l_np = np.linalg.slogdet(a.astype(np.float64))
  np.testing.assert_allclose(sign, s_np)
  np.testing.assert_allclose(logdet, l_np, rtol=1e-5)
  np.testing.assert_allclose(ld, l_np, rtol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_solves_against_numpy(dtype):
  rng = np.random.RandomState(1)
  a = (rng.randn(2, 4, 4) + 4 * np.eye(4)).astype(dtype)
  b = rng.randn(2, 4, 3).astype(dtype)
  a64, b64 = a.astype(np.float64), b.astype(np.float64)
  with tf.Graph().as_default():
    x, xa, lo, up, lo_adj, cs = _run([
        tf.matrix_solve(a, b), tf.matrix_solve(a, b, adjoint=True),
        tf.matrix_triangular_solve(a, b), tf.matrix_triangular_solve(a, b, lower=False),
        tf.matrix_triangular_solve(a, b, adjoint=True),
        tf.cholesky_solve(tf.cholesky(_spd((2, 4, 4), dtype)), b)])
  np.testing.assert_allclose(x, np.linalg.solve(a64, b64), **_tol(dtype))
  np.testing.assert_allclose(xa, np.linalg.solve(np.swapaxes(a64, -1, -2), b64), **_tol(dtype))
  np.testing.assert_allclose(lo, np.linalg.solve(np.tril(a64), b64), **_tol(dtype))
  np.testing.assert_allclose(up, np.linalg.solve(np.triu(a64), b64), **_tol(dtype))
  np.testing.assert_allclose(lo_adj, np.linalg.solve(np.swapaxes(np.tril(a64), -1, -2), b64),
                             **_tol(dtype))
  np.testing.assert_allclose(cs, np.linalg.solve(_spd((2, 4, 4), np.float64), b64),
                             **_tol(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_svd_qr_eig_reconstruct(dtype, shape):
  rng = np.random.RandomState(2)
  a = rng.randn(*shape).astype(dtype)
  with tf.Graph().as_default():
    s, u, v = tf.svd(a)
    s_only = tf.svd(a, compute_uv=False)
    q, r = tf.qr(a)
    qf, rf = tf.qr(a, full_matrices=True)
    s, u, v, s_only, q, r, qf, rf = _run([s, u, v, s_only, q, r, qf, rf])
  m, n = shape[-2:]
  p = min(m, n)
  assert s.shape == shape[:-2] + (p,) and u.shape == shape[:-2] + (m, p)
  np.testing.assert_allclose(s, np.linalg.svd(a.astype(np.float64), compute_uv=False),
                             **_tol(dtype))
  np.testing.assert_allclose(s_only, s, **_tol(dtype))
  np.testing.assert_allclose(u @ (s[..., None] * np.swapaxes(v, -1, -2)), a, **_tol(dtype))
  np.testing.assert_allclose(q @ r, a, **_tol(dtype))
  np.testing.assert_allclose(np.tril(r, -1), 0)
  assert qf.shape[-1] == m and rf.shape[-2] == m
  np.testing.assert_allclose(qf @ rf, a, **_tol(dtype))
  np.testing.assert_allclose(np.swapaxes(qf, -1, -2) @ qf, np.broadcast_to(np.eye(m), qf.shape),
                             **_tol(dtype))
  if m == n:
    sym = a + np.swapaxes(a, -1, -2)
    with tf.Graph().as_default():
      e, vec = tf.self_adjoint_eig(sym)
      ev = tf.self_adjoint_eigvals(sym)
      e, vec, ev = _run([e, vec, ev])
    np.testing.assert_allclose(e, np.linalg.eigvalsh(sym.astype(np.float64)), **_tol(dtype))
    np.testing.assert_allclose(ev, e, **_tol(dtype))
    np.testing.assert_allclose(vec @ (e[..., None] * np.swapaxes(vec, -1, -2)), sym,
                               **_tol(dtype))


def test_lstsq_over_and_underdetermined():
  rng = np.random.RandomState(3)
  for m, n in ((6, 3), (3, 6)):
    a = rng.randn(m, n)
    b = rng.randn(m, 2)
    with tf.Graph().as_default():
      x = _run(tf.linalg.lstsq(a, b))
    np.testing.assert_allclose(x, np.linalg.lstsq(a, b, rcond=None)[0], rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("fn,shape", [
    (lambda x: tf.matrix_inverse(x), (3, 3)),
    (lambda x: tf.matrix_determinant(x), (3, 3)),
    (lambda x: tf.log_matrix_determinant(x)[1], (2, 3, 3)),
    (lambda x: tf.matrix_solve(x, tf.constant(np.arange(6.0).reshape(3, 2))), (3, 3)),
    (lambda x: tf.matrix_solve(x, tf.constant(np.arange(6.0).reshape(3, 2)), adjoint=True),
     (3, 3)),
    (lambda x: tf.matrix_triangular_solve(x, tf.constant(np.ones((3, 2)))), (3, 3)),
    (lambda x: tf.matrix_triangular_solve(x, tf.constant(np.ones((3, 2))), lower=False,
                                          adjoint=True), (3, 3)),
])
def test_gradients_by_finite_differences(fn, shape):
  rng = np.random.RandomState(4)
  x0 = rng.randn(*shape) + 3 * np.eye(shape[-1])
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float64, shape)
    y = fn(x)
    err = tf.test.compute_gradient_error(x, list(shape), y, y.get_shape().as_list(),
                                         x_init_value=x0, delta=1e-6)
  assert err < 1e-5


def test_cholesky_and_eig_gradients():
  a0 = _spd((3, 3), np.float64, seed=5)
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float64, [3, 3])
    sym = (x + tf.transpose(x)) / 2.0  # the gradients assume symmetric inputs
    y = tf.cholesky(sym)
    err = tf.test.compute_gradient_error(x, [3, 3], y, [3, 3], x_init_value=a0, delta=1e-6)
    assert err < 1e-5
    e = tf.self_adjoint_eigvals(sym)
    err = tf.test.compute_gradient_error(x, [3, 3], e, [3], x_init_value=a0, delta=1e-6)
    assert err < 1e-5


def test_linalg_errors_name_the_node():
  with tf.Graph().as_default(), tf.Session() as sess:
    x = tf.placeholder(tf.float64, [2, 2])
    bad = np.array([[1.0, 2.0], [2.0, 1.0]])  # not positive definite
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cholesky decomposition was not successful[\s\S]*chol"):
      sess.run(tf.cholesky(x, name="chol"), {x: bad})
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not invertible"):
      sess.run(tf.matrix_inverse(x), {x: singular})
    with pytest.raises(tf.errors.InvalidArgumentError, match="not invertible"):
      sess.run(tf.matrix_solve(x, np.ones((2, 1))), {x: singular})
    assert sess.run(tf.matrix_determinant(x), {x: singular}) == 0.0
    sign, logdet = sess.run(tf.log_matrix_determinant(x), {x: singular})
    assert sign == 0.0 and logdet == -np.inf
  with tf.Graph().as_default():
    with pytest.raises(ValueError):
      tf.matrix_inverse(np.ones((2, 3)))
    with pytest.raises(ValueError):
      tf.matrix_solve(np.eye(3), np.ones((2, 1)))
    with pytest.raises(TypeError):
      tf.cholesky(np.eye(2, dtype=np.int32))


def test_orthogonal_initializer_and_hessians():
  with tf.Graph().as_default(), tf.Session() as sess:
    for shape in ((4, 4), (3, 5), (2, 3, 4)):
      w = tf.get_variable("w%d" % len(sess.graph.get_operations()), shape,
                          initializer=tf.orthogonal_initializer(gain=2.0, seed=1))
      sess.run(w.initializer)
      m = sess.run(w).reshape(-1, shape[-1])
      if m.shape[0] < m.shape[1]:
        m = m.T
      np.testing.assert_allclose(m.T @ m, 4.0 * np.eye(m.shape[1]), atol=1e-5)
    with pytest.raises(ValueError):
      tf.initializers.orthogonal()([3])
    x = tf.placeholder(tf.float64, [3])
    h, = tf.hessians(tf.reduce_sum(x * x * x) + x[0] * x[1], x)
    got = sess.run(h, {x: [1.0, 2.0, 3.0]})
    np.testing.assert_allclose(got, [[6, 1, 0], [1, 12, 0], [0, 0, 18]])


def test_orthogonal_initializer_matches_tensorflow():
  # TensorFlow 2.21 (compat.v1): tf.set_random_seed(3), get_variable("w", [4, 3],
  # initializer=tf.orthogonal_initializer(seed=7))
  want = [[-0.2920464277267456, -0.6001112461090088, -0.029382452368736267],
          [0.8762837648391724, 0.14063307642936707, -0.07731104642152786],
          [0.34244441986083984, -0.7478760480880737, -0.30381566286087036],
          [-0.1719518005847931, 0.24651594460010529, -0.9491342902183533]]
  with tf.Graph().as_default(), tf.Session() as sess:
    tf.set_random_seed(3)
    w = tf.get_variable("w", [4, 3], initializer=tf.orthogonal_initializer(seed=7))
    sess.run(tf.global_variables_initializer())
    np.testing.assert_allclose(sess.run(w), want, atol=1e-6)
