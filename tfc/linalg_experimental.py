"""tf.linalg.experimental: conjugate_gradient (TF's iteration as graph ops:
a while_loop over matvecs of a self-adjoint positive definite
LinearOperator)."""
import collections as _collections

CGState = _collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20,
                       name="conjugate_gradient"):
  """Solves operator @ x = rhs for a self-adjoint positive definite
  LinearOperator by conjugate gradients (optionally preconditioned), from
  x (default zeros), until every batch member's residual norm is at most
  tol * |rhs| or max_iter steps. Returns CGState(i, x, r, p, gamma)."""
  import tfc as tf  # pylint: disable=g-import-not-at-top
  if not (operator.is_self_adjoint and operator.is_positive_definite):
    raise ValueError("Expected a self-adjoint, positive definite operator.")

  def dot(a, b):
    return tf.reduce_sum(tf.conj(a) * b if a.dtype.is_complex else a * b, axis=-1)

  def matvec(op, v):
    return op.matvec(v)

  with tf.name_scope(name):
    rhs = tf.convert_to_tensor(rhs, name="rhs")
    batch = tf.broadcast_dynamic_shape(tf.shape(rhs)[:-1], operator.batch_shape_tensor())
    if preconditioner is not None:
      batch = tf.broadcast_dynamic_shape(batch, preconditioner.batch_shape_tensor())
    full = tf.concat([batch, tf.shape(rhs)[-1:]], 0)
    r0 = tf.broadcast_to(rhs, full)
    tol = tol * tf.norm(r0, axis=-1)
    if x is None:
      x = tf.zeros(full, dtype=rhs.dtype)
    else:
      x = tf.convert_to_tensor(x, dtype=rhs.dtype, name="x")
      r0 = rhs - matvec(operator, x)
    p0 = r0 if preconditioner is None else matvec(preconditioner, r0)
    gamma0 = dot(r0, p0)
    i0 = tf.constant(0, tf.int32)

    def cond(i, x, r, p, gamma):
      return tf.logical_and(i < max_iter, tf.reduce_any(tf.norm(r, axis=-1) > tol))

    def body(i, x, r, p, gamma):
      z = matvec(operator, p)
      alpha = gamma / dot(p, z)
      x = x + tf.expand_dims(alpha, -1) * p
      r = r - tf.expand_dims(alpha, -1) * z
      q = r if preconditioner is None else matvec(preconditioner, r)
      new_gamma = dot(r, q)
      beta = new_gamma / gamma
      p = q + tf.expand_dims(beta, -1) * p
      return i + 1, x, r, p, new_gamma

    out = tf.while_loop(cond, body, [i0, x, r0, p0, gamma0])
    return CGState(*out)
