"""Norm-based clipping (tf.clip_by_norm, tf.clip_by_global_norm, tf.global_norm,
tf.clip_by_average_norm), composed of the elementwise and reduction ops."""
import collections.abc as _abc

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import constant_op as _constant_op
from tfc.ops import array_ops as _array_ops
from tfc.ops import math_ops as _math_ops


def clip_by_norm(t, clip_norm, axes=None, name=None):
  """Scales `t` so that its L2 norm (over `axes`, all when None) is at most `clip_norm`.

  Returns t * clip_norm / max(l2norm(t), clip_norm). A zero-norm slice stays zero (and
  its gradient finite).
  """
  with _ops.name_scope(name, "clip_by_norm", [t, clip_norm]) as name:
    t = _ops.convert_to_tensor(t, name="t")
    squares = _math_ops.reduce_sum(t * t, axes, keepdims=True)
    positive = _math_ops.greater(squares, _constant_op.constant(0, dtype=squares.dtype))
    # sqrt only where it is positive, so the gradient of a zero slice is not NaN
    safe = _array_ops.where(positive, squares, _array_ops.ones_like(squares))
    l2norm = _array_ops.where(positive, _math_ops.sqrt(safe), squares)
    scaled = t * clip_norm
    scaled.get_shape().merge_with(t.get_shape())
    return _array_ops.identity(scaled / _math_ops.maximum(l2norm, clip_norm), name=name)


def _values(t_list, what):
  """t_list as a list; TypeError unless it is a sequence (list, tuple) other than a string."""
  if isinstance(t_list, (str, bytes)) or not isinstance(t_list, _abc.Sequence):
    raise TypeError("%s should be a sequence" % what)
  return list(t_list)


def global_norm(t_list, name=None):
  """sqrt(sum of the squares of every element of every tensor in t_list); None entries
  are skipped."""
  t_list = _values(t_list, "t_list")
  with _ops.name_scope(name, "global_norm", [t for t in t_list if t is not None]) as name:
    halves = []
    for i, t in enumerate(t_list):
      if t is None:
        continue
      t = _ops.convert_to_tensor(t, name="t_%d" % i)
      with _ops.colocate_with(t):
        halves.append(_l2_loss(t))
    half_squared = _math_ops.reduce_sum(_array_ops.stack(halves))
    two = _constant_op.constant(2.0, dtype=half_squared.dtype)
    return _math_ops.sqrt(half_squared * two, name="global_norm")


def _l2_loss(t):
  """sum(t ** 2) / 2 (the L2Loss op)."""
  from tfc.ops import nn_ops  # pylint: disable=g-import-not-at-top
  return nn_ops.l2_loss(t)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
  """Scales every tensor of t_list by clip_norm / max(global_norm, clip_norm).

  Returns (list_clipped, global_norm). None entries stay None. `use_norm` replaces the
  global norm computed from t_list. When the norm is inf or NaN every clipped value is
  NaN, so the problem shows instead of silently clipping to zero.
  """
  t_list = _values(t_list, "t_list")
  if use_norm is None:
    use_norm = global_norm(t_list, name)
  with _ops.name_scope(name, "clip_by_global_norm",
                       [t for t in t_list if t is not None] + [clip_norm]) as name:
    use_norm = _ops.convert_to_tensor(use_norm)
    clip_norm = _ops.convert_to_tensor(clip_norm, dtype=use_norm.dtype.base_dtype,
                                       name="clip_norm")
    one = _constant_op.constant(1.0, dtype=use_norm.dtype.base_dtype)
    scale = clip_norm * _math_ops.minimum(one / use_norm, one / clip_norm)
    scale = scale + (use_norm - use_norm)  # NaN when the norm is not finite
    clipped = []
    for i, t in enumerate(t_list):
      if t is None:
        clipped.append(None)
        continue
      t = _ops.convert_to_tensor(t, name="t_%d" % i)
      with _ops.colocate_with(t):
        factor = scale if t.dtype.base_dtype == scale.dtype.base_dtype else \
            _math_ops.cast(scale, t.dtype.base_dtype)
        clipped.append(_array_ops.identity(t * factor, name="%s_%d" % (name.rstrip("/"), i)))
    return clipped, use_norm


def clip_by_average_norm(t, clip_norm, name=None):
  """Scales `t` so that its L2 norm divided by its number of elements is at most
  `clip_norm` (TF 1.x, deprecated there)."""
  with _ops.name_scope(name, "clip_by_average_norm", [t, clip_norm]) as name:
    t = _ops.convert_to_tensor(t, name="t")
    count = _math_ops.cast(_array_ops.size(t), _dtypes.float32)
    inv_l2norm = _math_ops.rsqrt(_math_ops.reduce_sum(t * t))
    one = _constant_op.constant(1.0)
    return _array_ops.identity(
        t * clip_norm * _math_ops.minimum(inv_l2norm * count, one / clip_norm), name=name)
