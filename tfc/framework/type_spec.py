"""Type specifications (tf.TypeSpec, tf.TensorSpec, tf.SparseTensorSpec, ...).

A TypeSpec describes a value's type without the value: a TensorSpec is a
(shape, dtype, name) triple that tensors, placeholders and dataset elements
are checked against. tfc's specs are plain Python value objects: they compare
and hash by their components, and `is_compatible_with` / `most_specific_compatible_type`
follow TensorShape's compatibility rules.
"""
import numpy as _np

from tfc import dtypes as _dtypes
from tfc.framework import tensor_shape as _tensor_shape


class TypeSpec(object):
  """The base class of all type specifications (tf.TypeSpec).

  Subclasses define `_component_specs_tuple()` (the components that equality,
  hashing and compatibility look at) and `value_type`.
  """
  __slots__ = ()

  @property
  def value_type(self):
    """The Python type of values this spec describes."""
    raise NotImplementedError("%s.value_type" % type(self).__name__)

  def _components(self):
    raise NotImplementedError("%s._components" % type(self).__name__)

  def is_compatible_with(self, spec_or_value):
    """True when spec_or_value (a spec, or a value whose spec is taken) fits this spec."""
    other = spec_or_value if isinstance(spec_or_value, TypeSpec) else \
        type_spec_from_value(spec_or_value)
    if type(other) is not type(self):
      return False
    return all(_compatible(a, b) for a, b in zip(self._components(), other._components()))

  def most_specific_compatible_type(self, other):
    """The most specific spec compatible with both self and other (ValueError if none)."""
    if type(other) is not type(self):
      raise ValueError("No TypeSpec is compatible with both %s and %s" % (self, other))
    merged = []
    for a, b in zip(self._components(), other._components()):
      merged.append(_most_specific(a, b, self, other))
    return type(self)._from_components(*merged)

  def __eq__(self, other):
    return (type(other) is type(self) and
            tuple(_hashable(c) for c in self._components()) ==
            tuple(_hashable(c) for c in other._components()))

  def __ne__(self, other):
    return not self == other

  def __hash__(self):
    return hash((type(self).__name__,) + tuple(_hashable(c) for c in self._components()))

  def __repr__(self):
    return "%s(%s)" % (type(self).__name__, ", ".join(repr(c) for c in self._components()))


def _hashable(c):
  if isinstance(c, _tensor_shape.TensorShape):
    return None if c.dims is None else tuple(c.as_list())
  return c


def _compatible(a, b):
  if isinstance(a, _tensor_shape.TensorShape):
    return a.is_compatible_with(b)
  if isinstance(a, _dtypes.DType):
    return a == b
  if isinstance(a, TypeSpec):
    return a.is_compatible_with(b)
  return True  # names and flags do not constrain compatibility


def _most_specific(a, b, left, right):
  if isinstance(a, _tensor_shape.TensorShape):
    return a.most_specific_compatible_shape(b)
  if isinstance(a, _dtypes.DType):
    if a != b:
      raise ValueError("No TypeSpec is compatible with both %s and %s" % (left, right))
    return a
  if isinstance(a, TypeSpec):
    return a.most_specific_compatible_type(b)
  return a if a == b else None


class TensorSpec(TypeSpec):
  """Describes a dense tf.Tensor: shape, dtype and an optional name (tf.TensorSpec)."""
  __slots__ = ("_shape", "_dtype", "_name")

  def __init__(self, shape, dtype=_dtypes.float32, name=None):
    self._shape = _tensor_shape.TensorShape(shape)
    self._dtype = _dtypes.as_dtype(dtype)
    self._name = name

  @classmethod
  def _from_components(cls, shape, dtype, name):
    return cls(shape, dtype, name)

  @classmethod
  def from_spec(cls, spec, name=None):
    """A TensorSpec with spec's shape and dtype (and its name unless name is given)."""
    return cls(spec.shape, spec.dtype, name or getattr(spec, "name", None))

  @classmethod
  def from_tensor(cls, tensor, name=None):
    """The spec of a graph Tensor (its static shape, dtype, and op name unless name is given)."""
    from tfc.framework import ops as _ops  # pylint: disable=g-import-not-at-top
    if isinstance(tensor, _ops.Tensor):
      return cls(tensor.shape, tensor.dtype, name or tensor.op.name)
    raise ValueError("`tensor` should be a tf.Tensor, got %r" % (tensor,))

  @property
  def shape(self):
    return self._shape

  @property
  def dtype(self):
    return self._dtype

  @property
  def name(self):
    return self._name

  @property
  def value_type(self):
    from tfc.framework import ops as _ops  # pylint: disable=g-import-not-at-top
    return _ops.Tensor

  def _components(self):
    return (self._shape, self._dtype, self._name)

  def is_compatible_with(self, spec_or_tensor):
    """True when a spec, Tensor or array has a compatible dtype and shape (names are ignored)."""
    from tfc.framework import ops as _ops  # pylint: disable=g-import-not-at-top
    if isinstance(spec_or_tensor, (TensorSpec, _ops.Tensor)):
      other_dtype, other_shape = spec_or_tensor.dtype, spec_or_tensor.shape
    elif isinstance(spec_or_tensor, TypeSpec):
      return False
    else:
      value = _np.asarray(spec_or_tensor)
      other_dtype = _dtypes.as_dtype(value.dtype if value.dtype != object else _dtypes.string)
      other_shape = _tensor_shape.TensorShape(value.shape)
    return (self._dtype.is_compatible_with(other_dtype)
            and self._shape.is_compatible_with(other_shape))

  def most_specific_compatible_type(self, other):
    if type(other) is not type(self) or self._dtype != other.dtype:
      raise ValueError("No TypeSpec is compatible with both %s and %s" % (self, other))
    return TensorSpec(self._shape.most_specific_compatible_shape(other.shape), self._dtype,
                      self._name if self._name == other.name else None)

  def __repr__(self):
    return "TensorSpec(shape=%s, dtype=%r, name=%r)" % (self._shape, self._dtype, self._name)


class SparseTensorSpec(TypeSpec):
  """Describes a tf.SparseTensor: its dense shape and values dtype (tf.SparseTensorSpec)."""
  __slots__ = ("_shape", "_dtype")

  def __init__(self, shape=None, dtype=_dtypes.float32):
    self._shape = _tensor_shape.TensorShape(shape)
    self._dtype = _dtypes.as_dtype(dtype)

  @classmethod
  def _from_components(cls, shape, dtype):
    return cls(shape, dtype)

  @classmethod
  def from_value(cls, value):
    """The spec of a SparseTensor or SparseTensorValue."""
    from tfc.framework import sparse_tensor as _sparse  # pylint: disable=g-import-not-at-top
    if isinstance(value, _sparse.SparseTensor):
      return cls(value.get_shape() if hasattr(value, "get_shape") else value.shape,
                 value.dtype)
    if isinstance(value, _sparse.SparseTensorValue):
      values = _np.asarray(value.values)
      return cls(_np.asarray(value.dense_shape).tolist(),
                 _dtypes.as_dtype(values.dtype if values.dtype != object else _dtypes.string))
    raise TypeError("Expected SparseTensor or SparseTensorValue, got %r" % (value,))

  @property
  def shape(self):
    return self._shape

  @property
  def dtype(self):
    return self._dtype

  @property
  def value_type(self):
    from tfc.framework import sparse_tensor as _sparse  # pylint: disable=g-import-not-at-top
    return _sparse.SparseTensor

  def _components(self):
    return (self._shape, self._dtype)

  def __repr__(self):
    return "SparseTensorSpec(%s, %r)" % (self._shape, self._dtype)


class IndexedSlicesSpec(TypeSpec):
  """Describes a tf.IndexedSlices (tf.IndexedSlicesSpec)."""
  __slots__ = ("_shape", "_values_dtype", "_indices_dtype", "_dense_shape_dtype",
               "_indices_shape")

  def __init__(self, shape=None, dtype=_dtypes.float32, indices_dtype=_dtypes.int64,
               dense_shape_dtype=None, indices_shape=None):
    self._shape = _tensor_shape.TensorShape(shape)
    self._values_dtype = _dtypes.as_dtype(dtype)
    self._indices_dtype = _dtypes.as_dtype(indices_dtype)
    self._dense_shape_dtype = (None if dense_shape_dtype is None
                               else _dtypes.as_dtype(dense_shape_dtype))
    self._indices_shape = _tensor_shape.TensorShape(indices_shape).with_rank(1)

  @classmethod
  def _from_components(cls, shape, dtype, indices_dtype, dense_shape_dtype, indices_shape):
    return cls(shape, dtype, indices_dtype, dense_shape_dtype, indices_shape)

  @property
  def shape(self):
    return self._shape

  @property
  def dtype(self):
    return self._values_dtype

  @property
  def value_type(self):
    from tfc.framework import indexed_slices as _slices  # pylint: disable=g-import-not-at-top
    return _slices.IndexedSlices

  def _components(self):
    return (self._shape, self._values_dtype, self._indices_dtype, self._dense_shape_dtype,
            self._indices_shape)


class NoneTensorSpec(TypeSpec):
  """The spec of None where a structure expects a value (tf.NoneTensorSpec)."""
  __slots__ = ()

  @classmethod
  def _from_components(cls):
    return cls()

  @property
  def value_type(self):
    return type(None)

  def _components(self):
    return ()


class OptionalSpec(TypeSpec):
  """Describes an optional value of the given element structure (tf.OptionalSpec)."""
  __slots__ = ("_element_spec",)

  def __init__(self, element_spec):
    self._element_spec = element_spec

  @classmethod
  def _from_components(cls, element_spec):
    return cls(element_spec)

  @property
  def element_spec(self):
    return self._element_spec

  @property
  def value_type(self):
    return OptionalSpec

  def _components(self):
    return (self._element_spec,)


class TensorArraySpec(TypeSpec):
  """Describes a tf.TensorArray: element shape, dtype, and its growth flags (tf.TensorArraySpec)."""
  __slots__ = ("_element_shape", "_dtype", "_dynamic_size", "_infer_shape")

  def __init__(self, element_shape=None, dtype=_dtypes.float32, dynamic_size=False,
               infer_shape=True):
    self._element_shape = _tensor_shape.TensorShape(element_shape)
    self._dtype = _dtypes.as_dtype(dtype)
    self._dynamic_size = dynamic_size
    self._infer_shape = infer_shape

  @classmethod
  def _from_components(cls, element_shape, dtype, dynamic_size, infer_shape):
    return cls(element_shape, dtype, dynamic_size, infer_shape)

  @property
  def value_type(self):
    from tfc.ops import tensor_array_ops as _ta  # pylint: disable=g-import-not-at-top
    return _ta.TensorArray

  def _components(self):
    return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)

  def is_compatible_with(self, other):
    if not isinstance(other, TypeSpec):
      other = type_spec_from_value(other)
    if type(other) is not TensorArraySpec:
      return False
    return (self._dtype.is_compatible_with(other._dtype)
            and self._element_shape.is_compatible_with(other._element_shape)
            and self._dynamic_size == other._dynamic_size)


def type_spec_from_value(value):
  """The TypeSpec of value: a Tensor, SparseTensor(Value), IndexedSlices, TensorArray,
  None, or anything NumPy can turn into an array (TypeError otherwise)."""
  from tfc.framework import ops as _ops  # pylint: disable=g-import-not-at-top
  from tfc.framework import sparse_tensor as _sparse  # pylint: disable=g-import-not-at-top
  from tfc.framework import indexed_slices as _slices  # pylint: disable=g-import-not-at-top
  if isinstance(value, TypeSpec):
    raise TypeError("Could not build a TypeSpec for %r: it is already a TypeSpec" % (value,))
  if isinstance(value, _ops.Tensor):
    return TensorSpec(value.shape, value.dtype)
  if isinstance(value, (_sparse.SparseTensor, _sparse.SparseTensorValue)):
    return SparseTensorSpec.from_value(value)
  if isinstance(value, _slices.IndexedSlices):
    dense_shape = value.dense_shape
    return IndexedSlicesSpec(None, value.values.dtype, value.indices.dtype,
                             None if dense_shape is None else dense_shape.dtype,
                             value.indices.shape)
  if value is None:
    return NoneTensorSpec()
  try:
    from tfc.ops import tensor_array_ops as _ta  # pylint: disable=g-import-not-at-top
    if isinstance(value, _ta.TensorArray):
      return TensorArraySpec(value.element_shape, value.dtype,
                             getattr(value, "_dynamic_size", False),
                             getattr(value, "_infer_shape", True))
  except ImportError:
    pass
  try:
    array = _np.asarray(value)
    if array.dtype == object:
      if not all(isinstance(v, (bytes, str)) for v in array.reshape(-1)):
        raise TypeError
      dtype = _dtypes.string
    else:
      dtype = _dtypes.as_dtype(array.dtype)
  except (TypeError, ValueError):
    raise TypeError("Could not build a TypeSpec for %r of unsupported type %s."
                    % (value, type(value))) from None
  return TensorSpec(array.shape, dtype)
