"""TensorShape and Dimension with TF 1.15 (V1) behaviour."""


class Dimension(object):
  """One dimension of a TensorShape; `value` is an int or None (unknown)."""

  __slots__ = ("_value",)

  def __init__(self, value):
    if value is None:
      self._value = None
    elif isinstance(value, Dimension):
      self._value = value._value
    else:
      try:
        self._value = int(value.__index__())
      except AttributeError:
        raise TypeError("Dimension value must be integer or None or have an __index__ method, "
                        "got value '{0!r}' with type '{1!r}'".format(value, type(value)))
      if self._value < 0:
        raise ValueError("Dimension %d must be >= 0" % self._value)

  def __repr__(self):
    return "Dimension(%s)" % repr(self._value)

  def __str__(self):
    value = self._value
    return "?" if value is None else str(value)

  def __eq__(self, other):
    try:
      other = as_dimension(other)
    except (TypeError, ValueError):
      return NotImplemented
    if self._value is None or other.value is None:
      return None
    return self._value == other.value

  def __ne__(self, other):
    try:
      other = as_dimension(other)
    except (TypeError, ValueError):
      return NotImplemented
    if self._value is None or other.value is None:
      return None
    return self._value != other.value

  def __int__(self):
    return self._value

  def __long__(self):
    return self._value

  def __index__(self):
    return self._value

  def __hash__(self):
    return hash(self._value)

  def __bool__(self):
    return bool(self._value)

  @property
  def value(self):
    return self._value

  def is_compatible_with(self, other):
    other = as_dimension(other)
    return self._value is None or other.value is None or self._value == other.value

  def assert_is_compatible_with(self, other):
    if not self.is_compatible_with(other):
      raise ValueError("Dimensions %s and %s are not compatible" % (self, other))

  def merge_with(self, other):
    other = as_dimension(other)
    self.assert_is_compatible_with(other)
    if self._value is None:
      return Dimension(other.value)
    return Dimension(self._value)

  def _binop(self, other, fn):
    try:
      other = as_dimension(other)
    except (TypeError, ValueError):
      return NotImplemented
    if self._value is None or other.value is None:
      return Dimension(None)
    return Dimension(fn(self._value, other.value))

  def __add__(self, other):
    return self._binop(other, lambda a, b: a + b)

  def __radd__(self, other):
    return self.__add__(other)

  def __sub__(self, other):
    return self._binop(other, lambda a, b: a - b)

  def __rsub__(self, other):
    other = as_dimension(other)
    return other.__sub__(self)

  def __mul__(self, other):
    return self._binop(other, lambda a, b: a * b)

  def __rmul__(self, other):
    return self.__mul__(other)

  def __floordiv__(self, other):
    return self._binop(other, lambda a, b: a // b)

  def __rfloordiv__(self, other):
    return as_dimension(other).__floordiv__(self)

  def __div__(self, other):
    return self // other

  def __mod__(self, other):
    return self._binop(other, lambda a, b: a % b)

  def __rmod__(self, other):
    return as_dimension(other).__mod__(self)

  def _cmp(self, other, fn):
    other = as_dimension(other)
    if self._value is None or other.value is None:
      return None
    return fn(self._value, other.value)

  def __lt__(self, other):
    return self._cmp(other, lambda a, b: a < b)

  def __le__(self, other):
    return self._cmp(other, lambda a, b: a <= b)

  def __gt__(self, other):
    return self._cmp(other, lambda a, b: a > b)

  def __ge__(self, other):
    return self._cmp(other, lambda a, b: a >= b)

  def __reduce__(self):
    return Dimension, (self._value,)


def as_dimension(value):
  if isinstance(value, Dimension):
    return value
  return Dimension(value)


def dimension_value(dimension):
  if isinstance(dimension, Dimension):
    return dimension.value
  return dimension


def dimension_at_index(shape, index):
  assert isinstance(shape, TensorShape)
  if shape.rank is None:
    return Dimension(None)
  return shape.dims[index]


class TensorShape(object):
  """The (possibly partially known) shape of a Tensor."""

  __slots__ = ("_dims",)

  def __init__(self, dims):
    if dims is None:
      self._dims = None
    elif isinstance(dims, TensorShape):
      self._dims = dims._dims
    elif isinstance(dims, (tuple, list)):
      self._dims = [d if d.__class__ is Dimension else Dimension(d) for d in dims]
    elif hasattr(dims, "dim") and hasattr(dims, "unknown_rank"):  # TensorShapeProto-like
      if dims.unknown_rank:
        self._dims = None
      else:
        self._dims = [Dimension(d.size if d.size != -1 else None) for d in dims.dim]
    else:
      try:
        dims_iter = iter(dims)
      except TypeError:
        self._dims = [as_dimension(dims)]
      else:
        self._dims = [as_dimension(d) for d in dims_iter]

  @classmethod
  def _from_tuple(cls, t):
    """Fast constructor from the C extension's shape form (None or tuple)."""
    s = cls.__new__(cls)
    s._dims = None if t is None else [Dimension(d) for d in t]
    return s

  def __repr__(self):
    return "TensorShape(%r)" % self._dims

  def __str__(self):
    if self._dims is None:
      return "<unknown>"
    if len(self._dims) == 1:
      return "(%s,)" % self._dims[0]
    return "(%s)" % ", ".join(str(d) for d in self._dims)

  @property
  def rank(self):
    return None if self._dims is None else len(self._dims)

  @property
  def dims(self):
    return self._dims

  @property
  def ndims(self):
    return None if self._dims is None else len(self._dims)

  def __len__(self):
    if self._dims is None:
      raise ValueError("Cannot take the length of shape with unknown rank.")
    return len(self._dims)

  def __bool__(self):
    return self._dims is not None

  __nonzero__ = __bool__

  def __iter__(self):
    if self._dims is None:
      raise ValueError("Cannot iterate over a shape with unknown rank.")
    return iter(self._dims)

  def __getitem__(self, key):
    if self._dims is not None:
      if isinstance(key, slice):
        return TensorShape(self._dims[key])
      return self._dims[key]
    if isinstance(key, slice):
      start = key.start if key.start is not None else 0
      stop = key.stop
      if key.step is not None:
        raise ValueError("Steps are not yet handled")
      if stop is None:
        if start >= 0:
          return unknown_shape()
        return unknown_shape(ndims=-start)
      if start < 0 or stop < 0:
        return unknown_shape()
      return unknown_shape(ndims=stop - start)
    return Dimension(None)

  def num_elements(self):
    if self.is_fully_defined():
      size = 1
      for dim in self._dims:
        size *= dim.value
      return size
    return None

  def merge_with(self, other):
    other = as_shape(other)
    if self._dims is None:
      return other
    try:
      self.assert_same_rank(other)
      new_dims = []
      for i, dim in enumerate(self._dims):
        new_dims.append(dim.merge_with(other.dims[i]))
      return TensorShape(new_dims)
    except ValueError:
      raise ValueError("Shapes %s and %s are not compatible" % (self, other))

  def concatenate(self, other):
    other = as_shape(other)
    if self._dims is None or other.dims is None:
      return unknown_shape()
    return TensorShape(self._dims + other.dims)

  def assert_same_rank(self, other):
    other = as_shape(other)
    if self.ndims is not None and other.ndims is not None:
      if self.ndims != other.ndims:
        raise ValueError("Shapes %s and %s must have the same rank" % (self, other))

  def assert_has_rank(self, rank):
    if self.ndims not in (None, rank):
      raise ValueError("Shape %s must have rank %d" % (self, rank))

  def with_rank(self, rank):
    try:
      return self.merge_with(unknown_shape(ndims=rank))
    except ValueError:
      raise ValueError("Shape %s must have rank %d" % (self, rank))

  def with_rank_at_least(self, rank):
    if self.ndims is not None and self.ndims < rank:
      raise ValueError("Shape %s must have rank at least %d" % (self, rank))
    return self

  def with_rank_at_most(self, rank):
    if self.ndims is not None and self.ndims > rank:
      raise ValueError("Shape %s must have rank at most %d" % (self, rank))
    return self

  def is_compatible_with(self, other):
    other = as_shape(other)
    if self._dims is not None and other.dims is not None:
      if self.ndims != other.ndims:
        return False
      for x_dim, y_dim in zip(self._dims, other.dims):
        if not x_dim.is_compatible_with(y_dim):
          return False
    return True

  def assert_is_compatible_with(self, other):
    if not self.is_compatible_with(other):
      raise ValueError("Shapes %s and %s are incompatible" % (self, other))

  def most_specific_compatible_shape(self, other):
    other = as_shape(other)
    if self._dims is None or other.dims is None or self.ndims != other.ndims:
      return unknown_shape()
    dims = [(Dimension(None)) for _ in self._dims]
    for i, (d1, d2) in enumerate(zip(self._dims, other.dims)):
      if d1 is not None and d2 is not None and d1 == d2:
        dims[i] = d1
    return TensorShape(dims)

  def is_fully_defined(self):
    return self._dims is not None and all(d._value is not None for d in self._dims)

  def assert_is_fully_defined(self):
    if not self.is_fully_defined():
      raise ValueError("Shape %s is not fully defined" % self)

  def as_list(self):
    if self._dims is None:
      raise ValueError("as_list() is not defined on an unknown TensorShape.")
    return [d._value for d in self._dims]

  def as_proto(self):
    """This shape as a `TensorShapeProto` (unknown dimensions are -1; an unknown
    rank sets `unknown_rank`)."""
    from tfc import protos as _protos  # pylint: disable=g-import-not-at-top
    proto = _protos.TensorShapeProto()
    if self._dims is None:
      proto.unknown_rank = True
    else:
      for d in self._dims:
        proto.dim.add(size=-1 if d._value is None else int(d._value))
    return proto

  def _as_tuple_or_none(self):
    """The C extension's shape form."""
    if self._dims is None:
      return None
    return tuple(d._value for d in self._dims)

  def __eq__(self, other):
    try:
      other = as_shape(other)
    except TypeError:
      return NotImplemented
    return self._dims == other.dims

  def __ne__(self, other):
    try:
      other = as_shape(other)
    except TypeError:
      return NotImplemented
    if self.ndims is None or other.ndims is None:
      raise ValueError("The inequality of unknown TensorShapes is undefined.")
    if self.ndims != other.ndims:
      return True
    return self._dims != other.dims

  def __hash__(self):
    return hash(None if self._dims is None else tuple(d._value for d in self._dims))

  def __reduce__(self):
    return TensorShape, (self._dims,)

  def __concat__(self, other):
    return self.concatenate(other)


def as_shape(shape):
  if isinstance(shape, TensorShape):
    return shape
  return TensorShape(shape)


def unknown_shape(ndims=None, rank=None):
  if rank is not None:
    ndims = rank
  if ndims is None:
    return TensorShape(None)
  return TensorShape([Dimension(None)] * ndims)


def scalar():
  return TensorShape([])


def vector(length):
  return TensorShape([length])


def matrix(rows, cols):
  return TensorShape([rows, cols])
