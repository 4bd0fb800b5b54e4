"""tf.initializers.identity and tf.uniform_unit_scaling_initializer (TF 1.15's Identity and
UniformUnitScaling initializers)."""
import math

from tfc import dtypes as _dtypes
from tfc.framework import tensor_shape as _tensor_shape
from tfc.ops import array_ops as _array_ops
from tfc.ops import random_ops as _random_ops
from tfc.ops.init_ops import Initializer


class Identity(Initializer):
  """gain * the identity matrix; 2-D shapes only (a partitioned variable gets its slice)."""

  def __init__(self, gain=1.0, dtype=_dtypes.float32):
    self.gain = gain
    self.dtype = _dtypes.as_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    full_shape = shape if partition_info is None else partition_info.full_shape
    full_shape = _tensor_shape.TensorShape(full_shape).as_list()
    if len(full_shape) != 2:
      raise ValueError("Identity matrix initializer can only be used for 2D matrices.")
    dtype = _dtypes.as_dtype(dtype or self.dtype)
    value = _array_ops.eye(full_shape[0], full_shape[1], dtype=dtype)
    if partition_info is not None:
      value = _array_ops.slice(value, partition_info.var_offset,
                               _tensor_shape.TensorShape(shape).as_list())
    return self.gain * value

  def get_config(self):
    return {"gain": self.gain, "dtype": self.dtype.name}


class UniformUnitScaling(Initializer):
  """Uniform in [-m, m], m = factor * sqrt(3 / fan_in) with fan_in the product of all but the
  last dimension: keeps the scale of activations through linear layers."""

  def __init__(self, factor=1.0, seed=None, dtype=_dtypes.float32):
    self.factor = factor
    self.seed = seed
    self.dtype = _dtypes.as_dtype(dtype)

  def __call__(self, shape, dtype=None, partition_info=None):
    dtype = _dtypes.as_dtype(dtype or self.dtype)
    scale_shape = shape if partition_info is None else partition_info.full_shape
    dims = _tensor_shape.TensorShape(scale_shape).as_list()
    fan_in = 1.0
    for d in dims[:-1]:
      fan_in *= float(d)
    fan_in = max(fan_in, 1.0)
    limit = math.sqrt(3.0 / fan_in) * self.factor
    return _random_ops.random_uniform(shape, -limit, limit, dtype, seed=self.seed)

  def get_config(self):
    return {"factor": self.factor, "seed": self.seed, "dtype": self.dtype.name}
