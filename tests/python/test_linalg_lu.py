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


# TensorFlow 2.21's conjugate_gradient on this system, stopped after 3 steps:
# (x, gamma, p) recorded from tf.linalg.experimental.conjugate_gradient.
_CG_TF = [5, 5, 3, [[-0.04127851537996505, 0.09027313967022343, -0.021006936703221298, -0.15955220147101712, -0.034385264715747835], [0.05521596273668767, 0.018623478574005484, 0.01648148139899259, -0.0535087333141852, -0.038434621833724]], [0.011807828786973312, 1.5590671624007397e-05], [[-0.039211973332462825, 0.031974346733286724, 0.02375961197088258, 0.022370401247422872, -0.10189438401074738], [-0.00027542081034075903, -0.0015301367744275604, -0.0031178377301975223, -0.0018646659774624657, 1.212407510632003e-05]]]


def test_conjugate_gradient():
  rng = np.random.RandomState(0)
  a = rng.randn(2, 5, 5)
  spd = a @ np.swapaxes(a, -1, -2) + 5 * np.eye(5)
  b = rng.randn(2, 5)
  op = tf.linalg.LinearOperatorFullMatrix(spd, is_self_adjoint=True, is_positive_definite=True)
  pre = tf.linalg.LinearOperatorDiag(1. / np.diagonal(spd, axis1=-2, axis2=-1), is_self_adjoint=True,
                                     is_positive_definite=True)
  cg = tf.linalg.experimental.conjugate_gradient
  full, precond, three = (cg(op, b, tol=1e-10, max_iter=50),
                          cg(op, b, preconditioner=pre, tol=1e-10, max_iter=50), cg(op, b, max_iter=3))
  want = np.linalg.solve(spd, b[..., None])[..., 0]
  r, r2, r3 = run([full, precond, three])
  assert [int(r.i), int(r2.i), int(r3.i)] == _CG_TF[:3]
  np.testing.assert_allclose(r.x, want, atol=1e-12)
  np.testing.assert_allclose(r2.x, want, atol=1e-12)
  np.testing.assert_allclose(r3.x, _CG_TF[3], rtol=1e-10)
  np.testing.assert_allclose(r3.gamma, _CG_TF[4], rtol=1e-8)
  np.testing.assert_allclose(r3.p, _CG_TF[5], rtol=1e-8)
  r0 = run(cg(op, b, x=want, max_iter=5))
  assert int(r0.i) == 0
  with pytest.raises(ValueError):
    cg(tf.linalg.LinearOperatorFullMatrix(spd), b)


# TensorFlow 2.21's eigh_tridiagonal of this matrix: all eigenvalues, those in
# (-0.5, 1.0], indices 1..3, and |eigenvectors| (their signs are free).
_EIGH_TRIDIAGONAL_TF = [[-2.87806292099467, -1.9240723970207623, -1.1503601930699956, -0.15396135099798602, 1.4589604265637295, 2.6228139435576208], [-0.15396135099798602], [-1.9240723970207623, -1.1503601930699956, -0.15396135099798602], [[0.001552565417427171, 0.3828318050259041, 0.15405536624003666, 0.2955023131580309, 0.005959025744539496, 0.8615957379562121], [0.004006325233046845, 0.7785637420427721, 0.24498819271931996, 0.30117503702345094, 0.0005648363440382908, 0.4930481846599089], [0.008369112962138285, 0.4647254316982916, 0.17977510277888384, 0.8584687770516702, 0.015195598382390707, 0.12017319218160182], [0.05208409386366655, 0.17572277882537832, 0.935122677805609, 0.28833904719417236, 0.0932979862565101, 0.010507580387135184], [0.366309055293171, 0.005184010898377606, 0.060212953201139, 0.03568756584058073, 0.9278403305725591, 0.001980130148782948], [0.9289867706397137, 0.0200801594289779, 0.07647626888176454, 0.024296714327600274, 0.3607507054537328, 0.0005879278391118914]]]


def test_eigh_tridiagonal():
  rng = np.random.RandomState(1)
  a, b = rng.randn(6), rng.randn(5)
  full = np.diag(a) + np.diag(b, 1) + np.diag(b, -1)
  t = _EIGH_TRIDIAGONAL_TF
  np.testing.assert_allclose(run(tf.linalg.eigh_tridiagonal(a, b)), t[0], rtol=1e-10)
  np.testing.assert_allclose(run(tf.linalg.eigh_tridiagonal(a, b, select="v", select_range=(-0.5, 1.0))),
                             t[1], rtol=1e-10)
  np.testing.assert_allclose(run(tf.linalg.eigh_tridiagonal(a, b, select="i", select_range=(1, 3))), t[2],
                             rtol=1e-10)
  e, v = run(tf.linalg.eigh_tridiagonal(a, b, eigvals_only=False))
  np.testing.assert_allclose(np.abs(v), t[3], atol=1e-8)
  np.testing.assert_allclose(full @ v, v * e, atol=1e-12)
  with pytest.raises(ValueError):
    tf.linalg.eigh_tridiagonal(a, b, select="x")


def test_sqrtm_values_and_gradient():
  scipy_linalg = pytest.importorskip("scipy.linalg")
  rng = np.random.RandomState(5)
  a = rng.randn(3, 5, 5)
  cases = [a @ np.swapaxes(a, -1, -2) + np.eye(5),          # symmetric positive definite
           rng.randn(4, 4) + 4 * np.eye(4),                  # complex eigenvalue pairs
           np.array([[1., -2.], [3., 1.]])]                  # one 2x2 Schur block
  for m in cases:
    got = run(tf.linalg.sqrtm(m))
    want = np.stack([scipy_linalg.sqrtm(x) for x in m.reshape((-1,) + m.shape[-2:])]).reshape(m.shape)
    np.testing.assert_allclose(got, want.real, atol=1e-10)
    np.testing.assert_allclose(np.matmul(got, got), m, atol=1e-10)
  f32 = run(tf.matrix_square_root(cases[0].astype(np.float32)))
  assert f32.dtype == np.float32
  np.testing.assert_allclose(np.matmul(f32, f32), cases[0], rtol=1e-4, atol=1e-4)
  assert np.isnan(run(tf.linalg.sqrtm(np.diag([-1., 4.])))).all()  # as TF: no real root
  with pytest.raises(ValueError):
    tf.linalg.sqrtm(np.ones((2, 3)))
  with tf.Graph().as_default(), tf.Session():
    x = tf.placeholder(tf.float64, [4, 4])
    err = tf.test.compute_gradient_error(x, [4, 4], tf.linalg.sqrtm(x), [4, 4], x_init_value=cases[1],
                                         delta=1e-6)
    assert err < 1e-6, err
