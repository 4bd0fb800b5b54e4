"""tf.linalg.LinearOperator results printed as JSON, run under real
TensorFlow (`python linear_operator_oracle.py tf`) or tfc (`... tfc`) by
test_linear_operator.py: dense forms, matmul/solve (plain and adjoint),
determinants, traces, diagonals, shapes and hints of each operator kind."""
import json
import os
import sys

if sys.argv[1] == "tf":
  os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
  import tensorflow.compat.v1 as tf
  tf.disable_eager_execution()
else:
  import tfc as tf
import numpy as np

L = tf.linalg
rng = np.random.RandomState(7)
a = rng.randn(2, 3, 3)
d = rng.rand(2, 3) + 0.5
u = rng.randn(2, 3, 1)
spd = a @ np.swapaxes(a, -1, -2) + 3 * np.eye(3)


def ops():
  full = L.LinearOperatorFullMatrix(a)
  diag = L.LinearOperatorDiag(d)
  return {
      "full": full,
      "full_spd": L.LinearOperatorFullMatrix(spd, is_self_adjoint=True, is_positive_definite=True),
      "diag": diag,
      "identity": L.LinearOperatorIdentity(3, batch_shape=[2], dtype=tf.float64),
      "scaled_identity": L.LinearOperatorScaledIdentity(3, np.array([2., -3.])),
      "lower_triangular": L.LinearOperatorLowerTriangular(a + 3 * np.eye(3)),
      "composition": L.LinearOperatorComposition([full, diag]),
      "adjoint": L.LinearOperatorAdjoint(full),
      "inversion": L.LinearOperatorInversion(full),
      "block_diag": L.LinearOperatorBlockDiag([L.LinearOperatorFullMatrix(a[0]),
                                               L.LinearOperatorFullMatrix(a[1, :2, :2])]),
      "kronecker": L.LinearOperatorKronecker([L.LinearOperatorFullMatrix(a[0]),
                                              L.LinearOperatorFullMatrix(a[1, :2, :2])]),
      "low_rank_update": L.LinearOperatorLowRankUpdate(diag, u, diag_update=np.array([[2.], [3.]])),
      "permutation": L.LinearOperatorPermutation(np.array([[2, 0, 1], [1, 2, 0]], np.int32), dtype=tf.float64),
      "householder": L.LinearOperatorHouseholder(rng.randn(2, 3)),
      "toeplitz": L.LinearOperatorToeplitz(np.array([1., 2., 3.]), np.array([1., 5., 6.])),
      "tridiag": L.LinearOperatorTridiag(rng.randn(2, 3, 3)),
      "zeros": L.LinearOperatorZeros(3, batch_shape=[2], dtype=tf.float64),
      "block_lower_triangular": L.LinearOperatorBlockLowerTriangular(
          [[L.LinearOperatorFullMatrix(a[0] + 3 * np.eye(3))],
           [L.LinearOperatorFullMatrix(rng.randn(2, 3)), L.LinearOperatorDiag(np.array([2., -1.5]))]]),
  }


out = {}
with tf.Graph().as_default():
  fetch = {}
  for name, op in sorted(ops().items()):
    n = op.shape.as_list()[-1]
    x = rng.randn(*(op.shape.as_list()[:-2] + [n, 2]))
    v = rng.randn(*(op.shape.as_list()[:-2] + [n]))
    f = {"dense": op.to_dense(), "matmul": op.matmul(x), "matmul_adj": op.matmul(x, adjoint=True),
         "matmul_adj_arg": op.matmul(np.swapaxes(x, -1, -2), adjoint_arg=True),
         "matvec": op.matvec(v), "det": op.determinant(), "trace": op.trace(),
         "diag_part": op.diag_part(), "shape_tensor": op.shape_tensor(),
         "adjoint_dense": op.adjoint().to_dense(), "add": op.add_to_tensor(tf.ones(op.shape.as_list(), dtype=op.dtype))}
    if name != "zeros":
      f.update({"solve": op.solve(x), "solve_adj": op.solve(x, adjoint=True), "solvevec": op.solvevec(v),
                "log_abs_det": op.log_abs_determinant(), "inverse_dense": op.inverse().to_dense()})
    fetch[name] = f
    out[name + "/static"] = [op.shape.as_list(), [op.is_non_singular, op.is_self_adjoint,
                                                  op.is_positive_definite, op.is_square]]
  with tf.Session() as s:
    vals = s.run(fetch)
  for name, f in vals.items():
    for k, v in f.items():
      out[name + "/" + k] = np.asarray(v).tolist()
print(json.dumps(out, sort_keys=True))
