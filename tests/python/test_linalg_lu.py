"""tf.linalg's LU functions (Lu op: LAPACK getrf), matrix_rank, pinv, expm
and the tridiagonal ops, against NumPy/SciPy (the ops' outputs against
TensorFlow are in the op fixtures: Lu, TridiagonalSolve, TridiagonalMatMul)."""
import numpy as np
import pytest

import tfc as tf

RNG = np.random.RandomState(3)


def run(x):
  with tf.Session() as s:
    return s.run(x)


def test_lu_factors_and_permutation():
  a = RNG.randn(3, 5, 5)
  lu, p = run(tf.linalg.lu(a))
  assert p.dtype == np.int32 and p.shape == (3, 5)
  for k in range(3):
    low = np.tril(lu[k], -1) + np.eye(5)
    up = np.triu(lu[k])
    np.testing.assert_allclose(low @ up, a[k][p[k]], atol=1e-12)
  lu64, p64 = run(tf.linalg.lu(a.astype(np.float32), output_idx_type=tf.int64))
  assert p64.dtype == np.int64 and lu64.dtype == np.float32
  t = tf.linalg.lu(tf.placeholder(tf.float64, [None, 4, 4]))
  assert t.lu.shape.as_list() == [None, 4, 4] and t.p.shape.as_list() == [None, 4]
  with pytest.raises(tf.errors.InvalidArgumentError, match="not invertible"):
    run(tf.linalg.lu(np.array([[1., 2.], [2., 4.]])))
  with pytest.raises(ValueError):
    tf.linalg.lu(np.zeros((2, 3)))


def test_lu_solve_reconstruct_and_inverse():
  a = RNG.randn(2, 4, 4)
  b = RNG.randn(2, 4, 3)
  lu, p = tf.linalg.lu(a)
  rec, x, inv = run([tf.linalg.lu_reconstruct(lu, p), tf.linalg.lu_solve(lu, p, b),
                     tf.linalg.lu_matrix_inverse(lu, p)])
  np.testing.assert_allclose(rec, a, atol=1e-12)
  np.testing.assert_allclose(x, np.linalg.solve(a, b), atol=1e-10)
  np.testing.assert_allclose(inv, np.linalg.inv(a), atol=1e-10)


def test_matrix_rank_and_pinv():
  assert run(tf.linalg.matrix_rank(np.array([[1., 2.], [2., 4.]]))) == 1
  m = RNG.randn(2, 3, 6) @ np.diag([1., 1., 0., 1., 1., 1.])
  np.testing.assert_array_equal(run(tf.linalg.matrix_rank(m)), [3, 3])
  low = RNG.randn(5, 2) @ RNG.randn(2, 4)
  assert run(tf.linalg.matrix_rank(low)) == 2
  assert run(tf.linalg.matrix_rank(low, tol=1e6)) == 0
  for shape in [(3, 5), (6, 2), (2, 4, 4)]:
    x = RNG.randn(*shape)
    np.testing.assert_allclose(run(tf.linalg.pinv(x)), np.linalg.pinv(x), atol=1e-10)
  np.testing.assert_allclose(run(tf.linalg.pinv(low)), np.linalg.pinv(low), atol=1e-10)
  x32 = RNG.randn(4, 3).astype(np.float32)
  np.testing.assert_allclose(run(tf.linalg.pinv(x32)), np.linalg.pinv(x32), atol=1e-5)
  with pytest.raises(TypeError):
    tf.linalg.pinv(np.ones((2, 2), np.int32))


def test_expm_matches_scipy_for_every_pade_order():
  scipy_linalg = pytest.importorskip("scipy.linalg")
  base = RNG.randn(3, 4, 4)
  for scale in (1e-3, 0.05, 0.3, 1.0, 4.0, 40.0):
    a = base * scale
    want = np.stack([scipy_linalg.expm(x) for x in a])
    got = run(tf.linalg.expm(a))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12 * np.abs(want).max())
    if scale > 4:
      continue  # exp of these overflows float32
    got32 = run(tf.linalg.expm(a.astype(np.float32)))
    np.testing.assert_allclose(got32, want, rtol=2e-4, atol=2e-5 * np.abs(want).max())
  np.testing.assert_allclose(run(tf.linalg.expm(np.zeros((2, 2)))), np.eye(2))
  with pytest.raises(ValueError):
    tf.linalg.expm(np.ones(3))


def _dense(d):
  n = d.shape[-1]
  out = np.zeros(d.shape[:-2] + (n, n))
  for idx in np.ndindex(*d.shape[:-2]):
    out[idx] = np.diag(d[idx][1]) + np.diag(d[idx][0][:-1], 1) + np.diag(d[idx][2][1:], -1)
  return out


def test_tridiagonal_solve_formats_and_options():
  d = RNG.randn(2, 3, 6)
  rhs = RNG.randn(2, 6, 2)
  full = _dense(d)
  want = np.linalg.solve(full, rhs)
  np.testing.assert_allclose(run(tf.linalg.tridiagonal_solve(d, rhs)), want, atol=1e-10)
  np.testing.assert_allclose(run(tf.linalg.tridiagonal_solve(full, rhs, diagonals_format="matrix")), want,
                             atol=1e-10)
  seq = (d[:, 0], d[:, 1], d[:, 2])
  np.testing.assert_allclose(run(tf.linalg.tridiagonal_solve(seq, rhs, diagonals_format="sequence")), want,
                             atol=1e-10)
  np.testing.assert_allclose(
      run(tf.linalg.tridiagonal_solve(d, np.swapaxes(rhs, -1, -2), transpose_rhs=True)), want, atol=1e-10)
  vec = RNG.randn(2, 6)
  np.testing.assert_allclose(run(tf.linalg.tridiagonal_solve(d, vec)),
                             np.linalg.solve(full, vec[..., None])[..., 0], atol=1e-10)
  dom = d.copy()
  dom[:, 1] += 10.0  # diagonally dominant: the Thomas algorithm needs no pivoting
  np.testing.assert_allclose(run(tf.linalg.tridiagonal_solve(dom, rhs, partial_pivoting=False)),
                             np.linalg.solve(_dense(dom), rhs), atol=1e-10)
  piv = np.array([[1., 1., 0.], [0., 2., 3.], [0., 1., 1.]])
  np.testing.assert_allclose(run(tf.linalg.tridiagonal_solve(piv, np.ones((3, 1)))),
                             np.linalg.solve(_dense(piv), np.ones((3, 1))), atol=1e-12)
  with pytest.raises(tf.errors.InvalidArgumentError, match="requires pivoting"):
    run(tf.linalg.tridiagonal_solve(piv, np.ones((3, 1)), partial_pivoting=False))
  with pytest.raises(tf.errors.InvalidArgumentError, match="not invertible"):
    run(tf.linalg.tridiagonal_solve(np.zeros((3, 3)), np.ones((3, 1))))
  with pytest.raises(tf.errors.InvalidArgumentError):
    run(tf.linalg.tridiagonal_solve(np.zeros((2, 3)), np.ones((3, 1))))
  with pytest.raises(ValueError):
    tf.linalg.tridiagonal_solve(d, rhs, diagonals_format="banded")


def test_tridiagonal_matmul():
  d = RNG.randn(2, 3, 5)
  rhs = RNG.randn(2, 5, 4)
  want = _dense(d) @ rhs
  np.testing.assert_allclose(run(tf.linalg.tridiagonal_matmul(d, rhs)), want, atol=1e-12)
  seq = (d[:, 0], d[:, 1], d[:, 2])
  np.testing.assert_allclose(run(tf.linalg.tridiagonal_matmul(seq, rhs, diagonals_format="sequence")),
                             want, atol=1e-12)
  np.testing.assert_allclose(run(tf.linalg.tridiagonal_matmul(_dense(d), rhs, diagonals_format="matrix")),
                             want, atol=1e-12)
  f32 = run(tf.linalg.tridiagonal_matmul(d.astype(np.float32), rhs.astype(np.float32)))
  assert f32.dtype == np.float32
  np.testing.assert_allclose(f32, want, rtol=1e-4, atol=1e-5)


def test_gradients_by_finite_differences():
  rng = np.random.RandomState(11)
  with tf.Graph().as_default(), tf.Session():
    # Lu: through a scalar-weighted sum of both factors' entries
    a0 = rng.randn(2, 4, 4) + 4 * np.eye(4)
    a = tf.placeholder(tf.float64, [2, 4, 4])
    lu, _ = tf.linalg.lu(a)
    err = tf.test.compute_gradient_error(a, [2, 4, 4], lu, [2, 4, 4], x_init_value=a0, delta=1e-6)
    assert err < 1e-6, err
    # lu_solve end to end (Lu, gathers and triangular solves)
    b0 = rng.randn(2, 4, 2)
    x = tf.linalg.lu_solve(lu, tf.linalg.lu(a).p, tf.constant(b0))
    err = tf.test.compute_gradient_error(a, [2, 4, 4], x, [2, 4, 2], x_init_value=a0, delta=1e-6)
    assert err < 1e-6, err
    # TridiagonalMatMul: every input
    d0 = [rng.randn(2, 1, 5) for _ in range(3)]
    r0 = rng.randn(2, 5, 3)
    vals = d0 + [r0]
    for k in range(4):
      ins = [tf.constant(v) for v in vals]
      ins[k] = tf.placeholder(tf.float64, vals[k].shape)
      y = tf.linalg.tridiagonal_matmul(tf.concat(ins[:3], -2), ins[3])
      err = tf.test.compute_gradient_error(ins[k], list(vals[k].shape), y, [2, 5, 3], x_init_value=vals[k],
                                           delta=1e-6)
      assert err < 1e-6, (k, err)
    # TridiagonalSolve: diagonals and rhs, with and without pivoting
    dg0 = rng.randn(2, 3, 5)
    dg0[:, 1] += 6.0
    for piv in (True, False):
      dg = tf.placeholder(tf.float64, [2, 3, 5])
      sol = tf.linalg.tridiagonal_solve(dg, tf.constant(r0), partial_pivoting=piv)
      err = tf.test.compute_gradient_error(dg, [2, 3, 5], sol, [2, 5, 3], x_init_value=dg0, delta=1e-6)
      assert err < 1e-6, err
      rhs = tf.placeholder(tf.float64, [2, 5, 3])
      sol = tf.linalg.tridiagonal_solve(tf.constant(dg0), rhs, partial_pivoting=piv)
      err = tf.test.compute_gradient_error(rhs, [2, 5, 3], sol, [2, 5, 3], x_init_value=r0, delta=1e-6)
      assert err < 1e-6, err
