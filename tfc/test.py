"""`tf.test`: numerical gradient checking (TF 1.15's gradient_checker), TestCase, main."""
import numpy as np

from tfc.framework import ops as _ops


def _as_np_dtype(t):
  return t.dtype.base_dtype.as_numpy_dtype


def _theoretical_jacobian(sess, x, x_shape, x_data, dy, y_size, grad_t, feed):
  x_size = int(np.prod(x_shape))
  jac = np.zeros((x_size, y_size), dtype=x_data.dtype)
  dy_data = np.zeros(dy.get_shape().as_list() if dy.get_shape().is_fully_defined()
                     else [y_size], dtype=_as_np_dtype(dy))
  dy_flat = dy_data.reshape(-1)
  f = dict(feed)
  f[x] = x_data
  for col in range(y_size):
    dy_flat[:] = 0
    dy_flat[col] = 1
    f[dy] = dy_data
    g = sess.run(grad_t, feed_dict=f)
    if g is not None:
      jac[:, col] = np.asarray(g).reshape(-1)
  return jac


def _numerical_jacobian(sess, x, x_shape, x_data, y, y_size, delta, feed):
  x_size = int(np.prod(x_shape))
  jac = np.zeros((x_size, y_size), dtype=x_data.dtype)
  f = dict(feed)
  xv = x_data.copy()
  flat = xv.reshape(-1)
  for row in range(x_size):
    old = flat[row]
    flat[row] = old + delta
    f[x] = xv
    y_pos = np.asarray(sess.run(y, feed_dict=f), dtype=np.float64).reshape(-1)
    flat[row] = old - delta
    f[x] = xv
    y_neg = np.asarray(sess.run(y, feed_dict=f), dtype=np.float64).reshape(-1)
    flat[row] = old
    jac[row, :] = (y_pos - y_neg) / (2 * delta)
  return jac


def compute_gradient(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                     extra_feed_dict=None):
  """(theoretical, numerical) Jacobians of y w.r.t. x, each [x_size, y_size].

  With a list of xs (and lists of shapes / initial values) returns a list of pairs.
  """
  from tfc.ops.gradients_impl import gradients
  from tfc.ops import array_ops
  from tfc.client.session import Session
  multi = isinstance(x, (list, tuple))
  xs = list(x) if multi else [x]
  x_shapes = list(x_shape) if multi else [x_shape]
  if x_init_value is None:
    inits = [None] * len(xs)
  else:
    inits = list(x_init_value) if multi else [x_init_value]
  sess = _ops.get_default_session()
  own = sess is None or sess.graph is not y.graph
  if own:
    sess = Session(graph=y.graph)
  try:
    if init_targets is not None:
      for t in init_targets:
        sess.run(t)
    feed = dict(extra_feed_dict or {})
    y_size = int(np.prod(y_shape))
    with y.graph.as_default():
      dy = array_ops.placeholder(y.dtype.base_dtype, shape=list(y_shape), name="dy")
      grad_ts = gradients(y, xs, grad_ys=dy)
    datas = []
    for xi, shp, init in zip(xs, x_shapes, inits):
      dt = _as_np_dtype(xi)
      if init is not None:
        d = np.asarray(init, dtype=dt).reshape(shp)
      else:
        d = np.asarray(np.random.random_sample(shp), dtype=dt)
      datas.append(d)
    results = []
    for i, (xi, shp, d) in enumerate(zip(xs, x_shapes, datas)):
      f = dict(feed)
      for j, (xj, dj) in enumerate(zip(xs, datas)):
        if j != i:
          f[xj] = dj
      g = grad_ts[i]
      if getattr(g, "_tfc_indexed_slices", False):
        with y.graph.as_default():
          g = _ops.convert_to_tensor(g)  # the dense Jacobian of a sparse gradient
      if g is None:
        theo = np.zeros((int(np.prod(shp)), y_size), dtype=d.dtype)
      else:
        theo = _theoretical_jacobian(sess, xi, shp, d, dy, y_size, g, f)
      num = _numerical_jacobian(sess, xi, shp, d, y, y_size, delta, f)
      results.append((theo, num))
    return results if multi else results[0]
  finally:
    if own:
      sess.close()


def compute_gradient_error(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3,
                           init_targets=None, extra_feed_dict=None):
  """The largest absolute difference between theoretical and numerical Jacobians."""
  res = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets,
                         extra_feed_dict)
  if isinstance(res, tuple):
    res = [res]
  err = 0.0
  for theo, num in res:
    if theo.size or num.size:
      err = max(err, float(np.fabs(theo - num).max()))
  return err


def is_built_with_cuda():
  return False


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
  return False


def gpu_device_name():
  return ""


def is_built_with_gpu_support():
  """False: tfc runs on CPUs only."""
  return False


def is_built_with_xla():
  """False: tfc has no XLA compiler."""
  return False



from tfc.test_util import TestCase, main, get_temp_dir  # noqa: E402,F401
