"""Math op wrappers (TF 1.15 names, default op names and name scopes) and the
Tensor operator overloads."""
import builtins as _builtins

import numpy as np

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import constant_op as _constant_op
from tfc.framework.op_def_library import _apply_op, _has_op

_Tensor = _ops.Tensor
_DT = _dtypes._INTERN


def _out(op):
  return op.outputs[0]


def _unary(op_type):
  def fn(x, name=None):
    return _apply_op(op_type, name, [x]).outputs[0]
  return fn


def _binary(op_type):
  def fn(x, y, name=None):
    return _apply_op(op_type, name, [x, y]).outputs[0]
  return fn


def _deprecated_argument_lookup(new_name, new_value, old_name, old_value):
  if old_value is not None:
    if new_value is not None:
      raise ValueError("Cannot specify both '%s' and '%s'" % (old_name, new_name))
    return old_value
  return new_value


# -- elementwise ------------------------------------------------------------------

add = _binary("Add")
subtract = _binary("Sub")
sub = subtract
multiply = _binary("Mul")
mul = multiply
realdiv = _binary("RealDiv")
truncatediv = _binary("TruncateDiv")
floor_div = _binary("FloorDiv")
floormod = _binary("FloorMod")
mod = floormod
truncatemod = _binary("TruncateMod")
maximum = _binary("Maximum")
minimum = _binary("Minimum")
squared_difference = _binary("SquaredDifference")
equal = _binary("Equal")
not_equal = _binary("NotEqual")
less = _binary("Less")
less_equal = _binary("LessEqual")
greater = _binary("Greater")
greater_equal = _binary("GreaterEqual")
logical_and = _binary("LogicalAnd")
logical_or = _binary("LogicalOr")
logical_not = _unary("LogicalNot")
negative = _unary("Neg")
neg = negative
square = _unary("Square")
sqrt = _unary("Sqrt")
rsqrt = _unary("Rsqrt")
exp = _unary("Exp")
log = _unary("Log")
log1p = _unary("Log1p")
tanh = _unary("Tanh")
sign = _unary("Sign")
reciprocal = _unary("Reciprocal")
floor = _unary("Floor")
ceil = _unary("Ceil")
round = _unary("Round")  # pylint: disable=redefined-builtin
sin = _unary("Sin")
cos = _unary("Cos")
is_nan = _unary("IsNan")
is_inf = _unary("IsInf")
is_finite = _unary("IsFinite")


def abs(x, name=None):  # pylint: disable=redefined-builtin
  """Absolute value; the magnitude (a ComplexAbs op, real result) for complex `x`."""
  with _ops.name_scope(name, "Abs", [x]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    if x.dtype.is_complex:
      return _apply_op("ComplexAbs", name, [x], {"Tout": x.dtype.real_dtype}).outputs[0]
    return _apply_op("Abs", name, [x]).outputs[0]


def sigmoid(x, name=None):
  with _ops.name_scope(name, "Sigmoid", [x]) as name:
    return _apply_op("Sigmoid", name, [x]).outputs[0]


def pow(x, y, name=None):  # pylint: disable=redefined-builtin
  with _ops.name_scope(name, "Pow", [x]) as name:
    return _apply_op("Pow", name, [x, y]).outputs[0]


def logical_xor(x, y, name="LogicalXor"):
  return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


_TRUEDIV_TABLE = {
    4: 1, 6: 1, 17: 1, 5: 1,   # uint8, int8, uint16, int16 -> float32
    3: 2, 9: 2,                # int32, int64 -> float64
    19: None, 1: None, 2: None, 14: None, 8: None, 18: None,
}


def _truediv_python3(x, y, name=None):
  with _ops.name_scope(name, "truediv", [x, y]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    y = _ops.convert_to_tensor(y, name="y")
    x_dtype = x.dtype.base_dtype
    y_dtype = y.dtype.base_dtype
    if x_dtype != y_dtype:
      raise TypeError("x and y must have the same dtype, got %r != %r" % (x_dtype, y_dtype))
    try:
      dtype = _TRUEDIV_TABLE[x_dtype._type_enum]
    except KeyError:
      raise TypeError("Invalid dtype %r in __truediv__" % x_dtype)
    if dtype is not None:
      x = cast(x, _DT[dtype])
      y = cast(y, _DT[dtype])
    return _apply_op("RealDiv", name, [x, y]).outputs[0]


def _div_python2(x, y, name=None):
  with _ops.name_scope(name, "div", [x, y]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    y = _ops.convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
    x_dtype = x.dtype.base_dtype
    y_dtype = y.dtype.base_dtype
    if x_dtype != y_dtype:
      raise TypeError("x and y must have the same dtype, got %r != %r" % (x_dtype, y_dtype))
    if x_dtype.is_floating or x_dtype.is_complex:
      return _apply_op("RealDiv", name, [x, y]).outputs[0]
    return _apply_op("FloorDiv", name, [x, y]).outputs[0]


def truediv(x, y, name=None):
  return _truediv_python3(x, y, name)


def div(x, y, name=None):
  return _div_python2(x, y, name)


def div_no_nan(x, y, name=None):
  with _ops.name_scope(name, "div_no_nan", [x, y]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    y = _ops.convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
    return _apply_op("DivNoNan", name, [x, y]).outputs[0]


def divide(x, y, name=None):
  if name is not None:
    with _ops.name_scope(name, "truediv", [x, y]) as scope:
      x = _ops.convert_to_tensor(x, name="x")
      return _truediv_python3(x, y, scope)
  if not isinstance(x, _Tensor):
    x = _ops.convert_to_tensor(x)
  return x / y


def floordiv(x, y, name=None):
  with _ops.name_scope(name, "floordiv", [x, y]) as name:
    return _apply_op("FloorDiv", name, [x, y]).outputs[0]


def cast(x, dtype, name=None):
  """Casts `x` to `dtype`; returns `x` itself when it already has that dtype."""
  base_type = _dtypes.as_dtype(dtype).base_dtype
  if isinstance(x, _Tensor) and x.dtype.base_dtype == base_type:
    return x
  with _ops.name_scope(name, "Cast", [x]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    if x.dtype.base_dtype != base_type:
      x = _apply_op("Cast", name, [x], {"DstT": base_type}).outputs[0]
    return x


def saturate_cast(value, dtype, name=None):
  with _ops.name_scope(name, "saturate_cast", [value]) as name:
    value = _ops.convert_to_tensor(value, name="value")
    dtype = _dtypes.as_dtype(dtype).base_dtype
    if value.dtype.min < dtype.min:
      value = maximum(value, _ops.convert_to_tensor(dtype.min, dtype=value.dtype, name="min"))
    if value.dtype.max > dtype.max:
      value = minimum(value, _ops.convert_to_tensor(dtype.max, dtype=value.dtype, name="max"))
    return cast(value, dtype, name=name)


def to_float(x, name="ToFloat"):
  return cast(x, _dtypes.float32, name=name)


def to_double(x, name="ToDouble"):
  return cast(x, _dtypes.float64, name=name)


def to_complex64(x, name="ToComplex64"):
  """Casts `x` to complex64 (real inputs get a zero imaginary part)."""
  return cast(x, _dtypes.complex64, name=name)


def to_complex128(x, name="ToComplex128"):
  """Casts `x` to complex128 (real inputs get a zero imaginary part)."""
  return cast(x, _dtypes.complex128, name=name)


def complex(real, imag, name=None):  # pylint: disable=redefined-builtin
  """`real + imag * 1j` elementwise (broadcasting): float32 parts give complex64,
  float64 parts complex128; any other pair raises TypeError."""
  real = _ops.convert_to_tensor(real, name="real")
  imag = _ops.convert_to_tensor(imag, name="imag")
  with _ops.name_scope(name, "Complex", [real, imag]) as name:
    types = (real.dtype.base_dtype, imag.dtype.base_dtype)
    if types == (_dtypes.float64, _dtypes.float64):
      tout = _dtypes.complex128
    elif types == (_dtypes.float32, _dtypes.float32):
      tout = _dtypes.complex64
    else:
      raise TypeError("real and imag have incorrect types: {} {}".format(
          real.dtype.name, imag.dtype.name))
    return _apply_op("Complex", name, [real, imag], {"Tout": tout}).outputs[0]


def to_int32(x, name="ToInt32"):
  return cast(x, _dtypes.int32, name=name)


def to_int64(x, name="ToInt64"):
  return cast(x, _dtypes.int64, name=name)


def to_bfloat16(x, name="ToBFloat16"):
  return cast(x, _dtypes.bfloat16, name=name)


def add_n(inputs, name=None):
  if not inputs or not isinstance(inputs, (list, tuple)):
    raise ValueError("inputs must be a list of at least one "
                     "Tensor/IndexedSlices with the same dtype and shape")
  inputs = [_ops.convert_to_tensor(x) if not isinstance(x, _Tensor) else x for x in inputs]
  if len(inputs) == 1:
    if name:
      from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
      return array_ops.identity(inputs[0], name=name)
    return inputs[0]
  return _apply_op("AddN", name, [inputs]).outputs[0]


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
  return add_n(inputs, name=name)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, name=None):
  """Matrix product of `a` and `b` (MatMul for rank 2, BatchMatMul above)."""
  with _ops.name_scope(name, "MatMul", [a, b]) as name:
    if transpose_a and adjoint_a:
      raise ValueError("Only one of transpose_a and adjoint_a can be True.")
    if transpose_b and adjoint_b:
      raise ValueError("Only one of transpose_b and adjoint_b can be True.")
    if not isinstance(a, _Tensor):
      a = _ops.convert_to_tensor(a, name="a")
    if not isinstance(b, _Tensor):
      b = _ops.convert_to_tensor(b, name="b")
    ra = a._rank()
    rb = b._rank()
    if (ra is not None and ra > 2) or (rb is not None and rb > 2):
      op_type = "BatchMatMulV2" if _has_op("BatchMatMulV2") else "BatchMatMul"
      return _apply_op(op_type, name, [a, b], {"adj_x": _builtins.bool(adjoint_a or transpose_a),
                                               "adj_y": _builtins.bool(adjoint_b or transpose_b)}
                       ).outputs[0]
    return _apply_op("MatMul", name, [a, b],
                     {"transpose_a": _builtins.bool(transpose_a or adjoint_a),
                      "transpose_b": _builtins.bool(transpose_b or adjoint_b)}).outputs[0]


# -- reductions -----------------------------------------------------------------------


def _reduction_dims(x, axis):
  if axis is not None:
    return axis
  r = x._rank() if isinstance(x, _Tensor) else None
  if r is not None:
    return _constant_op.constant(np.arange(r, dtype=np.int32), dtype=_dtypes.int32)
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  return range(0, array_ops.rank(x))


def _may_reduce_to_scalar(keepdims, axis, output):
  if not keepdims and axis is None and output._shape is None:
    output.set_shape(())
  return output


def _make_reduce(op_type):
  def reduce_fn(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
                keep_dims=None):
    axis = _deprecated_argument_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = _deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    keepdims = False if keepdims is None else _builtins.bool(keepdims)
    if not isinstance(input_tensor, _Tensor):
      input_tensor = _ops.convert_to_tensor(input_tensor)
    out = _apply_op(op_type, name, [input_tensor, _reduction_dims(input_tensor, axis)],
                    {"keep_dims": keepdims}).outputs[0]
    return _may_reduce_to_scalar(keepdims, axis, out)
  reduce_fn.__name__ = "reduce_" + op_type.lower()
  return reduce_fn


reduce_sum = _make_reduce("Sum")
reduce_mean = _make_reduce("Mean")
reduce_max = _make_reduce("Max")
reduce_min = _make_reduce("Min")
reduce_prod = _make_reduce("Prod")
reduce_all = _make_reduce("All")
reduce_any = _make_reduce("Any")


def reduce_logsumexp(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
                     keep_dims=None):
  axis = _deprecated_argument_lookup("axis", axis, "reduction_indices", reduction_indices)
  keepdims = _deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
  with _ops.name_scope(name, "ReduceLogSumExp", [input_tensor]) as name:
    from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
    raw_max = reduce_max(input_tensor, axis=axis, keepdims=True)
    my_max = array_ops.stop_gradient(raw_max)
    result = log(reduce_sum(exp(subtract(input_tensor, my_max)), axis, keepdims=keepdims))
    if not keepdims:
      my_max = array_ops.reshape(my_max, array_ops.shape(result))
    return add(result, my_max, name=name)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
  """Sums the rows of `data` into `num_segments` segments by `segment_ids`.

  output[segment_ids[i...], ...] += data[i..., ...]; rows whose id is negative
  are dropped; an id >= num_segments fails the step with InvalidArgumentError.
  The output shape is [num_segments] + data.shape[rank(segment_ids):].
  """
  return _apply_op("UnsortedSegmentSum", name, [data, segment_ids, num_segments]).outputs[0]


def count_nonzero(input_tensor, axis=None, keepdims=None, dtype=_dtypes.int64, name=None,
                  reduction_indices=None, keep_dims=None):
  axis = _deprecated_argument_lookup("axis", axis, "reduction_indices", reduction_indices)
  keepdims = _deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
  with _ops.name_scope(name, "count_nonzero", [input_tensor]):
    input_tensor = _ops.convert_to_tensor(input_tensor, name="input_tensor")
    from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
    zero = array_ops.zeros([], dtype=input_tensor.dtype)
    return cast(reduce_sum(cast(not_equal(input_tensor, zero), _dtypes.int64), axis=axis,
                           keepdims=keepdims), dtype=dtype)


def argmax(input, axis=None, name=None, dimension=None, output_type=_dtypes.int64):  # pylint: disable=redefined-builtin
  axis = _deprecated_argument_lookup("axis", axis, "dimension", dimension)
  if axis is None:
    axis = 0
  return _apply_op("ArgMax", name, [input, axis],
                   {"output_type": _dtypes.as_dtype(output_type)}).outputs[0]


def argmin(input, axis=None, name=None, dimension=None, output_type=_dtypes.int64):  # pylint: disable=redefined-builtin
  axis = _deprecated_argument_lookup("axis", axis, "dimension", dimension)
  if axis is None:
    axis = 0
  return _apply_op("ArgMin", name, [input, axis],
                   {"output_type": _dtypes.as_dtype(output_type)}).outputs[0]


def range(start, limit=None, delta=1, dtype=None, name="range"):  # pylint: disable=redefined-builtin
  if limit is None:
    start, limit = 0, start
  with _ops.name_scope(name, "Range", [start, limit, delta]) as name:
    start = _ops.convert_to_tensor(start, dtype=dtype, name="start")
    limit = _ops.convert_to_tensor(limit, dtype=dtype, name="limit")
    delta = _ops.convert_to_tensor(delta, dtype=dtype, name="delta")
    if dtype is None:
      hierarchy = [_dtypes.int32, _dtypes.int64, _dtypes.float32, _dtypes.float64]
      for t in (start, limit, delta):
        if t.dtype.base_dtype not in hierarchy:
          raise TypeError("Unsupported dtype for range: %s" % t.dtype)
      inferred = _builtins.max([t.dtype.base_dtype for t in (start, limit, delta)],
                               key=hierarchy.index)
      start = cast(start, inferred)
      limit = cast(limit, inferred)
      delta = cast(delta, inferred)
    return _apply_op("Range", name, [start, limit, delta]).outputs[0]


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
  with _ops.name_scope(name, "clip_by_value", [t, clip_value_min, clip_value_max]) as name:
    values = _ops.convert_to_tensor(t, name="t")
    t_min = minimum(values, clip_value_max)
    values.get_shape().merge_with(t_min.get_shape())
    return maximum(t_min, clip_value_min, name=name)


def scalar_mul(scalar, x, name=None):
  with _ops.name_scope(name, "scalar_mul", [x]) as name:
    return multiply(scalar, x, name=name)


def conj(x, name=None):
  """Complex conjugate (a Conj op); `x` itself for real and integer tensors (as TF)."""
  if isinstance(x, _ops.Tensor):
    dt = x.dtype
    if dt.is_floating or dt.is_integer:
      return x
  with _ops.name_scope(name, "Conj", [x]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    if x.dtype.is_complex or x.dtype.base_dtype == _dtypes.variant:
      return _apply_op("Conj", name, [x]).outputs[0]
    if x.dtype.is_floating or x.dtype.is_integer:
      return x
    raise TypeError("Expected numeric or variant tensor, got dtype %r" % x.dtype)


# -- operator overloads -----------------------------------------------------------------

_ADD_OP = []


def _add_op_type(x_dtype):
  """'AddV2' when registered (TF 1.15 `+` for non-strings), else 'Add'."""
  if x_dtype._type_enum % 100 == 7:
    return "Add"
  if not _ADD_OP:
    _ADD_OP.append("AddV2" if _has_op("AddV2") else "Add")
  return _ADD_OP[0]


def _binary_overload(op_name, make):
  """Installs __op__/__rop__ following TF's binary_op_wrapper naming."""

  def binary_op_wrapper(x, y):
    g = x.graph
    old, scope = g._enter_name_scope(op_name)
    try:
      if not isinstance(y, _Tensor):
        try:
          y = _ops._convert_slow(y, x.dtype.base_dtype, "y", None, False, g)
        except TypeError:
          if hasattr(type(y), "__r%s__" % op_name):
            return NotImplemented
          raise
      return make(x, y, scope)
    finally:
      g._name_stack = old

  def r_binary_op_wrapper(y, x):
    g = y.graph
    old, scope = g._enter_name_scope(op_name)
    try:
      x = _ops._convert_slow(x, y.dtype.base_dtype, "x", None, False, g)
      return make(x, y, scope)
    finally:
      g._name_stack = old

  return binary_op_wrapper, r_binary_op_wrapper


def _mk(op_type):
  return lambda x, y, name: _apply_op(op_type, name, [x, y]).outputs[0]


def _mk_add(x, y, name):
  return _apply_op(_add_op_type(x.dtype), name, [x, y]).outputs[0]


def _mk_truediv(x, y, name):
  if x.dtype.base_dtype._type_enum in (1, 2, 19, 14, 8, 18) and x.dtype.base_dtype == y.dtype.base_dtype:
    return _apply_op("RealDiv", name, [x, y]).outputs[0]
  return _truediv_python3(x, y, name)


def _mk_div(x, y, name):
  return _div_python2(x, y, name)


def _mk_floordiv(x, y, name):
  return floordiv(x, y, name)


def _mk_pow(x, y, name):
  return pow(x, y, name)


def _mk_matmul(x, y, name):
  return matmul(x, y, name=name)


def _mk_xor(x, y, name):
  return logical_xor(x, y, name)


def _install(tensor_cls):
  table = [
      ("add", _mk_add), ("sub", _mk("Sub")), ("mul", _mk("Mul")),
      ("div", _mk_div), ("truediv", _mk_truediv), ("floordiv", _mk_floordiv),
      ("mod", _mk("FloorMod")), ("pow", _mk_pow), ("matmul", _mk_matmul),
      ("and", _mk("LogicalAnd")), ("or", _mk("LogicalOr")), ("xor", _mk_xor),
  ]
  for op_name, make in table:
    fwd, rev = _binary_overload(op_name, make)
    setattr(tensor_cls, "__%s__" % op_name, fwd)
    setattr(tensor_cls, "__r%s__" % op_name, rev)

  def _cmp(op_type):
    def fn(x, y):
      return _apply_op(op_type, None, [x, y]).outputs[0]
    return fn

  tensor_cls.__lt__ = _cmp("Less")
  tensor_cls.__le__ = _cmp("LessEqual")
  tensor_cls.__gt__ = _cmp("Greater")
  tensor_cls.__ge__ = _cmp("GreaterEqual")
  tensor_cls.__neg__ = lambda x: _apply_op("Neg", None, [x]).outputs[0]
  tensor_cls.__abs__ = lambda x: abs(x)
  tensor_cls.__invert__ = lambda x: _apply_op("LogicalNot", None, [x]).outputs[0]


_install(_Tensor)


# -- TF 1.x aliases and compositions of the ops above -----------------------------------


def arg_max(input, dimension, output_type=_dtypes.int64, name=None):  # pylint: disable=redefined-builtin
  """Index of the largest value along `dimension` (TF 1.x's name for `ArgMax`)."""
  return _apply_op("ArgMax", name, [input, dimension],
                   {"output_type": _dtypes.as_dtype(output_type)}).outputs[0]


def arg_min(input, dimension, output_type=_dtypes.int64, name=None):  # pylint: disable=redefined-builtin
  """Index of the smallest value along `dimension` (TF 1.x's name for `ArgMin`)."""
  return _apply_op("ArgMin", name, [input, dimension],
                   {"output_type": _dtypes.as_dtype(output_type)}).outputs[0]


expm1 = _unary("Expm1")


def log_sigmoid(x, name=None):
  """log(sigmoid(x)), computed as -softplus(-x) so that large |x| stays finite."""
  with _ops.name_scope(name, "LogSigmoid", [x]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    return negative(_apply_op("Softplus", None, [negative(x)]).outputs[0], name=name)


def reciprocal_no_nan(x, name=None):
  """1 / x, with 0 where x is 0."""
  with _ops.name_scope(name, "reciprocal_no_nan", [x]) as scope:
    x = _ops.convert_to_tensor(x, name="x")
    one = _constant_op.constant(1, dtype=x.dtype.base_dtype, name="one")
    return _apply_op("DivNoNan", scope, [one, x]).outputs[0]


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
  """Variance of the elements along `axis` (the mean of squared deviations)."""
  with _ops.name_scope(name or "reduce_variance"):
    input_tensor = _ops.convert_to_tensor(input_tensor, name="input_tensor")
    means = reduce_mean(input_tensor, axis=axis, keepdims=True)
    deviations = square(subtract(input_tensor, means))
    return reduce_mean(deviations, axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
  """Standard deviation of the elements along `axis`."""
  with _ops.name_scope(name or "reduce_std"):
    return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


_NUMERIC_ENUMS = frozenset((1, 2, 3, 4, 5, 6, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 22, 23))


def is_numeric_tensor(tensor):
  """True for a Tensor of a number type (floats, integers, complex, quantized)."""
  return isinstance(tensor, _Tensor) and tensor.dtype.base_dtype._type_enum in _NUMERIC_ENUMS


def _successive_differences(x):
  """x[1:] - x[:-1] of x flattened (empty when x has fewer than 2 elements)."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  x = array_ops.reshape(_ops.convert_to_tensor(x, name="x"), [-1])
  if not is_numeric_tensor(x):
    raise TypeError("Expected x to be numeric, instead found: %s" % x)
  return subtract(x[1:], x[:-1])


def is_non_decreasing(x, name=None):
  """True when every element of x (flattened) is <= the next; True for < 2 elements."""
  with _ops.name_scope(name, "is_non_decreasing", [x]):
    diff = _successive_differences(x)
    return reduce_all(less_equal(_constant_op.constant(0, dtype=diff.dtype), diff))


def is_strictly_increasing(x, name=None):
  """True when every element of x (flattened) is < the next; True for < 2 elements."""
  with _ops.name_scope(name, "is_strictly_increasing", [x]):
    diff = _successive_differences(x)
    return reduce_all(less(_constant_op.constant(0, dtype=diff.dtype), diff))


def lin_space(start, stop, num, name=None, axis=0):
  """`num` evenly spaced values from `start` to `stop` (both included; [start] for num 1).

  start and stop are float32/float64 scalars, num an int32/int64 scalar (tensors or
  Python numbers). The values are start + i * (stop - start) / (num - 1), the last one
  `stop` exactly.
  """
  if axis not in (0, -1):
    raise ValueError("lin_space makes a 1-D tensor from scalars: axis must be 0, got %r" % axis)
  with _ops.name_scope(name, "LinSpace", [start, stop, num]) as name:
    start = _ops.convert_to_tensor(start, name="start")
    stop = _ops.convert_to_tensor(stop, dtype=start.dtype, name="stop")
    num = _ops.convert_to_tensor(num, name="num")
    if start.dtype.base_dtype not in (_dtypes.float32, _dtypes.float64):
      raise TypeError("lin_space needs float32 or float64 start and stop, got %s"
                      % start.dtype.name)
    if num.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
      raise TypeError("lin_space needs an int32 or int64 num, got %s" % num.dtype.name)
    for t, what in ((start, "start"), (stop, "stop"), (num, "num")):
      if t.get_shape().ndims not in (None, 0):
        raise ValueError("%s must be a scalar, got shape %s" % (what, t.get_shape()))
    from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
    index = range(0, num, 1)
    steps = cast(maximum(num - 1, _constant_op.constant(1, dtype=num.dtype)), start.dtype)
    values = add(start, multiply(cast(index, start.dtype), realdiv(stop - start, steps)))
    # the last value is `stop` itself (when there are at least two)
    is_last = logical_and(equal(index, num - 1), greater(num, 1))
    return _apply_op("Select", name, [is_last, array_ops.fill(array_ops.shape(values), stop),
                                      values]).outputs[0]


linspace = lin_space


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):  # pylint: disable=redefined-builtin
  """Vector norms (and the Frobenius, 1 and inf matrix norms) of `tensor`.

  ord: 'euclidean' or 'fro' (sqrt of the sum of squares), 1, 2 (vectors), np.inf, or
  any p > 0 for vector p-norms. axis: None (all elements as one vector), an int (vector
  norms along it) or a pair of ints (matrix norms over those two dimensions). The
  matrix 2-norm (largest singular value) needs an SVD, which tfc does not have: it
  raises NotImplementedError.
  """
  keepdims = _deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
  matrix = isinstance(axis, (tuple, list)) and len(axis) == 2
  if matrix:
    axis = tuple(axis)
    if not all(isinstance(a, int) for a in axis) or axis[0] == axis[1]:
      raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, "
                       "got %s" % (axis,))
    if not (isinstance(ord, str) and ord in ("euclidean", "fro")) and ord not in (1, 2, np.inf):
      raise ValueError("'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, "
                       "inf], got %s" % (ord,))
  else:
    if not (axis is None or isinstance(axis, int)):
      raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, "
                       "got %s" % (axis,))
    if isinstance(ord, str):
      if ord != "euclidean":
        raise ValueError("'ord' must be a supported vector norm, got %s" % ord)
    elif not (np.isreal(ord) and ord > 0):
      raise ValueError("'ord' must be a supported vector norm, got %s" % (ord,))
    if axis is not None:
      axis = (axis,)
  with _ops.name_scope(name, "norm", [tensor]):
    tensor = _ops.convert_to_tensor(tensor)
    if isinstance(ord, str) or ord == 2:
      if matrix and not isinstance(ord, str):
        raise NotImplementedError("the matrix 2-norm needs a singular value decomposition, "
                                  "which tfc does not have")
      result = sqrt(reduce_sum(multiply(tensor, tensor), axis, keepdims=True))
    else:
      magnitudes = abs(tensor)
      if ord == 1:
        result = reduce_sum(magnitudes, None if axis is None else axis[0], keepdims=True)
        if matrix:
          result = reduce_max(result, axis[1], keepdims=True)
      elif ord == np.inf:
        if matrix:
          magnitudes = reduce_sum(magnitudes, axis[1], keepdims=True)
        result = reduce_max(magnitudes, None if axis is None else axis[0], keepdims=True)
      else:
        p = _constant_op.constant(ord, dtype=tensor.dtype.base_dtype)
        result = pow(reduce_sum(pow(magnitudes, p), axis, keepdims=True),
                     _constant_op.constant(1.0 / ord, dtype=tensor.dtype.base_dtype))
    if not keepdims:
      from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
      result = array_ops.squeeze(result, list(axis) if axis is not None else None)
    return result


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
  """Matrix-vector product: matmul(a, b[..., None])[..., 0]."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "MatVec", [a, b]) as name:
    product = matmul(a, array_ops.expand_dims(b, -1), transpose_a=transpose_a,
                     adjoint_a=adjoint_a, a_is_sparse=a_is_sparse, b_is_sparse=b_is_sparse)
    return array_ops.squeeze(product, [-1], name=name)


def _segment_counts(data, segment_ids, num_segments):
  """How many rows each segment receives (at least 1), shaped to broadcast against the
  segment sums of data."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  num_segments = _ops.convert_to_tensor(num_segments)
  ones = array_ops.ones(array_ops.shape(segment_ids), dtype=data.dtype)
  counts = unsorted_segment_sum(ones, segment_ids, num_segments)
  extra = array_ops.rank(data) - array_ops.rank(segment_ids)
  shape = array_ops.concat([array_ops.reshape(num_segments, [1]),
                            array_ops.ones(array_ops.reshape(extra, [1]),
                                           dtype=num_segments.dtype)], 0)
  return maximum(array_ops.reshape(counts, shape), _constant_op.constant(1, dtype=data.dtype))


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
  """The mean of the rows of `data` in each of `num_segments` segments (0 for empty ones)."""
  with _ops.name_scope(name, "UnsortedSegmentMean"):
    data = _ops.convert_to_tensor(data)
    segment_ids = _ops.convert_to_tensor(segment_ids)
    counts = _segment_counts(data, segment_ids, num_segments)
    return unsorted_segment_sum(data, segment_ids, num_segments) / counts


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
  """The sum of the rows of `data` in each segment divided by sqrt(their number)."""
  with _ops.name_scope(name, "UnsortedSegmentSqrtN"):
    data = _ops.convert_to_tensor(data)
    segment_ids = _ops.convert_to_tensor(segment_ids)
    counts = _segment_counts(data, segment_ids, num_segments)
    return unsorted_segment_sum(data, segment_ids, num_segments) / sqrt(counts)


def confusion_matrix(labels, predictions, num_classes=None, dtype=_dtypes.int32, name=None,
                     weights=None):
  """[num_classes, num_classes] counts (or summed weights) of each (label, prediction) pair;
  num_classes defaults to the largest label or prediction + 1. A negative or too large
  label or prediction fails the step with InvalidArgumentError."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import control_flow_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import logging_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "confusion_matrix", (predictions, labels, num_classes, weights)):
    labels = cast(_ops.convert_to_tensor(labels, name="labels"), _dtypes.int64)
    predictions = cast(_ops.convert_to_tensor(predictions, name="predictions"), _dtypes.int64)
    if labels.get_shape().ndims not in (None, 1) or \
        predictions.get_shape().ndims not in (None, 1):
      raise ValueError("labels and predictions must be 1-D, got shapes %s and %s"
                       % (labels.get_shape(), predictions.get_shape()))
    zero = _constant_op.constant(0, _dtypes.int64)
    checks = [logging_ops.Assert(reduce_all(greater_equal(labels, zero)),
                                 ["`labels` contains negative values"]),
              logging_ops.Assert(reduce_all(greater_equal(predictions, zero)),
                                 ["`predictions` contains negative values"])]
    if num_classes is None:
      num_classes = maximum(reduce_max(predictions), reduce_max(labels)) + 1
    else:
      num_classes = cast(_ops.convert_to_tensor(num_classes, name="num_classes"),
                         _dtypes.int64)
      checks += [logging_ops.Assert(reduce_all(less(labels, num_classes)),
                                    ["`labels` out of bound"]),
                 logging_ops.Assert(reduce_all(less(predictions, num_classes)),
                                    ["`predictions` out of bound"])]
    dtype = _dtypes.as_dtype(dtype)
    if weights is None:
      values = array_ops.ones_like(predictions, dtype=dtype)
    else:
      values = cast(_ops.convert_to_tensor(weights, name="weights"), dtype)
    cells = control_flow_ops.with_dependencies(checks, labels * num_classes + predictions)
    counts = unsorted_segment_sum(values, cells, num_classes * num_classes)
    return array_ops.reshape(counts, array_ops.stack([num_classes, num_classes]))


def _nonzero_x_mask(x, y):
  """(x, y) as tensors of one dtype and `y` with 1 where x is 0 (so that log/div of it
  is finite there)."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  x = _ops.convert_to_tensor(x, name="x")
  y = _ops.convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
  zero = _constant_op.constant(0, dtype=x.dtype.base_dtype)
  one = _constant_op.constant(1, dtype=x.dtype.base_dtype)
  return x, array_ops.where_v2(equal(x, zero), one, y)


def xlogy(x, y, name=None):
  """x * log(y), and 0 where x is 0 (even when y is 0)."""
  with _ops.name_scope(name, "xlogy", [x, y]) as name:
    x, safe_y = _nonzero_x_mask(x, y)
    return multiply(x, log(safe_y), name=name)


def xdivy(x, y, name=None):
  """x / y, and 0 where x is 0 (even when y is 0)."""
  with _ops.name_scope(name, "xdivy", [x, y]) as name:
    x, safe_y = _nonzero_x_mask(x, y)
    return _apply_op("RealDiv", name, [x, safe_y]).outputs[0]


def multiply_no_nan(x, y, name=None):
  """x * y, and 0 where y is 0 even if x is infinite or NaN."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "multiply_no_nan", [x, y]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    y = _ops.convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
    zero = _constant_op.constant(0, dtype=x.dtype.base_dtype)
    return array_ops.where_v2(equal(y, zero), zero, multiply(x, y), name=name)


def polyval(coeffs, x, name=None):
  """coeffs[0] * x**(n-1) + ... + coeffs[n-1], by Horner's rule (coeffs a list)."""
  if not isinstance(coeffs, list):
    raise ValueError("Argument coeffs must be list type found {}.".format(type(coeffs)))
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "polyval", list(coeffs) + [x]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    if not coeffs:
      return array_ops.zeros_like(x, name=name)
    coeffs = [_ops.convert_to_tensor(c, name="coeff_%d" % i) for i, c in enumerate(coeffs)]
    p = coeffs[0]
    for c in coeffs[1:]:
      p = c + p * x
    return p


def rint(x, name=None):
  """The nearest integer (halves to even), as a float."""
  return _apply_op("Round", name, [x]).outputs[0]


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
  """sqrt(sum(x ** 2)) along axis (integer inputs: the integer part of it)."""
  with _ops.name_scope(name, "EuclideanNorm", [input_tensor]):
    x = _ops.convert_to_tensor(input_tensor, name="input_tensor")
    if x.dtype.is_integer:
      root = sqrt(reduce_sum(square(cast(x, _dtypes.float64)), axis, keepdims=keepdims))
      return cast(floor(root), x.dtype.base_dtype)
    return sqrt(reduce_sum(square(x), axis, keepdims=keepdims))


def real(input, name=None):  # pylint: disable=redefined-builtin
  """The real part (a Real op for complex tensors); the input itself for real tensors."""
  with _ops.name_scope(name, "Real", [input]) as name:
    x = _ops.convert_to_tensor(input, name="input")
    if x.dtype.is_complex:
      return _apply_op("Real", name, [x], {"Tout": x.dtype.real_dtype}).outputs[0]
    return x


def imag(input, name=None):  # pylint: disable=redefined-builtin
  """The imaginary part (an Imag op for complex tensors); zeros for real tensors."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "Imag", [input]) as name:
    x = _ops.convert_to_tensor(input, name="input")
    if x.dtype.is_complex:
      return _apply_op("Imag", name, [x], {"Tout": x.dtype.real_dtype}).outputs[0]
    return array_ops.zeros_like(x, name=name)


def angle(input, name=None):  # pylint: disable=redefined-builtin
  """The argument atan2(imag, real) (an Angle op for complex tensors); for real
  tensors pi where the input is negative, 0 elsewhere."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "Angle", [input]) as name:
    x = _ops.convert_to_tensor(input, name="input")
    if x.dtype.is_complex:
      return _apply_op("Angle", name, [x], {"Tout": x.dtype.real_dtype}).outputs[0]
    zeros = array_ops.zeros_like(x)
    return array_ops.where(less(x, zeros), np.pi * array_ops.ones_like(x), zeros, name=name)


def _segment_count(segment_ids):
  """max(segment_ids) + 1 (0 for none), failing the step unless the ids are sorted."""
  from tfc.ops import control_flow_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import logging_ops  # pylint: disable=g-import-not-at-top
  ids = _ops.convert_to_tensor(segment_ids, name="segment_ids")
  check = logging_ops.Assert(is_non_decreasing(ids), ["segment ids are not increasing"])
  last = reduce_max(ids) + _constant_op.constant(1, dtype=ids.dtype)
  count = maximum(last, _constant_op.constant(0, dtype=ids.dtype))
  return control_flow_ops.with_dependencies([check], ids), count


def segment_sum(data, segment_ids, name=None):
  """Sums of the rows of data per (sorted) segment id; output rows 0..max(id)."""
  with _ops.name_scope(name, "SegmentSum", [data, segment_ids]):
    ids, count = _segment_count(segment_ids)
    return unsorted_segment_sum(data, ids, count)


def segment_mean(data, segment_ids, name=None):
  """Means of the rows of data per (sorted) segment id (0 for ids with no rows)."""
  with _ops.name_scope(name, "SegmentMean", [data, segment_ids]):
    ids, count = _segment_count(segment_ids)
    return unsorted_segment_mean(data, ids, count)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=_dtypes.int32):
  """How often each value 0..max(arr) occurs in arr (or the sum of its weights), at least
  minlength and at most maxlength long (values beyond that are not counted)."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import control_flow_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import logging_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(None, "bincount", [arr, weights, minlength, maxlength]):
    arr = _ops.convert_to_tensor(arr, name="arr", dtype=_dtypes.int32)
    nonempty = greater(reduce_prod(array_ops.shape(arr)), 0)
    size = cast(nonempty, _dtypes.int32) * (reduce_max(arr) + 1)
    if minlength is not None:
      size = maximum(_ops.convert_to_tensor(minlength, name="minlength", dtype=_dtypes.int32),
                     size)
    if maxlength is not None:
      size = minimum(_ops.convert_to_tensor(maxlength, name="maxlength", dtype=_dtypes.int32),
                     size)
    check = logging_ops.Assert(reduce_all(greater_equal(arr, 0)),
                               ["Input arr must be non-negative!"])
    arr = control_flow_ops.with_dependencies([check], arr)
    if weights is not None:
      values = _ops.convert_to_tensor(weights, name="weights")
    else:
      values = array_ops.ones_like(arr, dtype=_dtypes.as_dtype(dtype))
    # values at or past the size are left out (ids < 0 are dropped by the segment sum)
    ids = array_ops.where_v2(less(arr, size), arr, -array_ops.ones_like(arr))
    return unsorted_segment_sum(values, ids, size)
