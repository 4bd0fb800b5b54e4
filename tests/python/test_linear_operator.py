"""tf.linalg.LinearOperator and its subclasses: every kind's dense form,
matmul/matvec (plain, adjoint, adjoint argument), solve/solvevec,
determinants, traces, diagonals, shapes and hints compared with TensorFlow
(linear_operator_oracle.py run under both), and the hint rules and errors."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tfc as tf

L = tf.linalg
ORACLE = pathlib.Path(__file__).with_name("linear_operator_oracle.py")
TF_PYTHON = pathlib.Path(__file__).resolve().parents[2] / ".venv-tf" / "bin" / "python"


def test_linear_operators_match_tensorflow():
  if not TF_PYTHON.exists():
    if os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0"):
      pytest.fail("TensorFlow venv missing")
    pytest.skip("no .venv-tf")
  env = dict(os.environ)
  env.pop("LD_PRELOAD", None)
  env.pop("PYTHONPATH", None)
  ref = subprocess.run([str(TF_PYTHON), str(ORACLE), "tf"], capture_output=True, text=True, env=env,
                       timeout=400)
  assert ref.returncode == 0, ref.stderr[-3000:]
  mine = subprocess.run([sys.executable, str(ORACLE), "tfc"], capture_output=True, text=True, timeout=300)
  assert mine.returncode == 0, mine.stderr[-3000:]
  want = json.loads(ref.stdout.strip().splitlines()[-1])
  got = json.loads(mine.stdout.strip().splitlines()[-1])
  assert sorted(want) == sorted(got)
  bad = []
  for k, w in want.items():
    g = got[k]
    if k.endswith("/static"):
      ok = g == w
    else:
      ok = np.shape(g) == np.shape(w) and np.allclose(np.array(g, float), np.array(w, float), rtol=1e-8,
                                                      atol=1e-9, equal_nan=True)
    if not ok:
      bad.append(k)
  assert not bad, {k: (got[k], want[k]) for k in bad}


def run(x):
  with tf.Session() as s:
    return s.run(x)


def test_hints_are_checked_and_decide_what_runs():
  with pytest.raises(ValueError, match="always non-singular"):
    L.LinearOperatorFullMatrix(np.eye(2), is_positive_definite=True, is_non_singular=False)
  with pytest.raises(ValueError, match="is_square"):
    L.LinearOperatorFullMatrix(np.ones((2, 3)), is_square=True)
  op = L.LinearOperatorFullMatrix(np.eye(2), is_positive_definite=True)
  assert op.is_non_singular and op.is_square
  rect = L.LinearOperatorFullMatrix(np.ones((2, 3)))
  assert rect.is_square is False
  with pytest.raises(NotImplementedError, match="not be square"):
    rect.solve(np.ones((2, 1)))
  with pytest.raises(NotImplementedError, match="Determinant"):
    rect.determinant()
  sing = L.LinearOperatorFullMatrix(np.eye(2), is_non_singular=False)
  with pytest.raises(NotImplementedError, match="singular"):
    sing.solve(np.ones((2, 1)))
  with pytest.raises(NotImplementedError):
    L.LinearOperatorZeros(2).solve(np.ones((2, 1)))
  with pytest.raises(ValueError):
    L.LinearOperatorIdentity(2, is_self_adjoint=False)
  with pytest.raises(TypeError, match="dtype"):
    L.LinearOperatorDiag(np.ones(2)).matmul(np.ones((2, 1), np.float32))
  with pytest.raises(TypeError):
    L.LinearOperatorComposition([L.LinearOperatorDiag(np.ones(2)),
                                 L.LinearOperatorDiag(np.ones(2, np.float32))])


def test_operator_algebra():
  a = np.array([[2., 1.], [0., 3.]])
  full = L.LinearOperatorFullMatrix(a)
  diag = L.LinearOperatorDiag(np.array([1., 4.]), is_positive_definite=True)
  comp = full @ diag
  assert isinstance(comp, L.LinearOperatorComposition)
  np.testing.assert_allclose(run(comp.to_dense()), a @ np.diag([1., 4.]))
  inv = diag.inverse()
  assert isinstance(inv, L.LinearOperatorDiag)
  np.testing.assert_allclose(run(inv.to_dense()), np.diag([1., .25]))
  chol = diag.cholesky()
  np.testing.assert_allclose(run(chol.to_dense()), np.diag([1., 2.]))
  assert full.adjoint().adjoint() is full and diag.adjoint() is diag
  np.testing.assert_allclose(run(full.H.to_dense()), a.T)
  np.testing.assert_allclose(run(full.solve(diag).to_dense()), np.linalg.solve(a, np.diag([1., 4.])))
  spd = L.LinearOperatorFullMatrix(a @ a.T + np.eye(2), is_self_adjoint=True, is_positive_definite=True)
  np.testing.assert_allclose(run(spd.cholesky().to_dense()), np.linalg.cholesky(a @ a.T + np.eye(2)))
  np.testing.assert_allclose(run(spd.eigvals()), np.linalg.eigvalsh(a @ a.T + np.eye(2)))
  with pytest.raises(ValueError, match="Cholesky"):
    full.cholesky()
  assert run(L.LinearOperatorHouseholder(np.array([1., 2.])).determinant()) == -1.
  ph = tf.placeholder(tf.float64, [None, 2, 2])
  op = L.LinearOperatorFullMatrix(ph)
  assert op.shape.as_list() == [None, 2, 2] and op.batch_shape.as_list() == [None]
  with tf.Session() as s:
    np.testing.assert_array_equal(s.run(op.shape_tensor(), {ph: np.zeros((3, 2, 2))}), [3, 2, 2])
