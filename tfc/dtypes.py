"""TensorFlow DType objects (TF 1.15 `tf.dtypes`).

Dtypes cross the `tfc._tfc` boundary as TF's integer DataType enums; ref
types are the base enum + 100.
"""
import builtins as _builtins

import numpy as np

__all__ = []

_NP_BFLOAT16 = None  # numpy has no bfloat16; kept for API shape.


class DType(object):
  """A TensorFlow element type (TF 1.15 `tf.DType`)."""

  __slots__ = ("_type_enum",)

  def __init__(self, type_enum):
    type_enum = int(type_enum)
    if type_enum not in _TYPE_TO_STRING:
      raise TypeError("type_enum is not a valid types_pb2.DataType: %s" % type_enum)
    self._type_enum = type_enum

  @property
  def _is_ref_dtype(self):
    return self._type_enum > 100

  @property
  def _as_ref(self):
    if self._type_enum > 100:
      return self
    return _INTERN[self._type_enum + 100]

  @property
  def base_dtype(self):
    if self._type_enum > 100:
      return _INTERN[self._type_enum - 100]
    return self

  @property
  def real_dtype(self):
    base = self.base_dtype
    if base._type_enum == 8:
      return float32
    if base._type_enum == 18:
      return float64
    return self

  @property
  def is_numpy_compatible(self):
    return self._type_enum % 100 not in (20, 21, 14)

  @property
  def as_numpy_dtype(self):
    return _TF_TO_NP[self._type_enum % 100]

  @property
  def as_datatype_enum(self):
    return self._type_enum

  @property
  def is_bool(self):
    return self.base_dtype._type_enum == 10

  @property
  def is_integer(self):
    return self.base_dtype._type_enum in _INTEGER_ENUMS

  @property
  def is_floating(self):
    return self.base_dtype._type_enum in (1, 2, 19, 14)

  @property
  def is_complex(self):
    return self.base_dtype._type_enum in (8, 18)

  @property
  def is_quantized(self):
    return self.base_dtype._type_enum in (11, 12, 13, 15, 16)

  @property
  def is_unsigned(self):
    return self.base_dtype._type_enum in (4, 17, 22, 23, 12, 16)

  @property
  def min(self):
    if self.is_quantized or self.base_dtype._type_enum in (10, 7, 8, 18, 20, 21):
      raise TypeError("Cannot find minimum value of %s." % self)
    if self.base_dtype._type_enum == 14:
      return float(-3.38953139e38)
    npt = self.as_numpy_dtype
    try:
      return np.finfo(npt).min
    except (TypeError, ValueError):
      return np.iinfo(npt).min

  @property
  def max(self):
    if self.is_quantized or self.base_dtype._type_enum in (10, 7, 8, 18, 20, 21):
      raise TypeError("Cannot find maximum value of %s." % self)
    if self.base_dtype._type_enum == 14:
      return float(3.38953139e38)
    npt = self.as_numpy_dtype
    try:
      return np.finfo(npt).max
    except (TypeError, ValueError):
      return np.iinfo(npt).max

  @property
  def limits(self, clip_negative=True):
    mn, mx = self.min, self.max
    if clip_negative and self.is_unsigned:
      mn = 0
    return mn, mx

  def is_compatible_with(self, other):
    other = as_dtype(other)
    return self._type_enum in (other.as_datatype_enum, other.base_dtype.as_datatype_enum)

  @property
  def name(self):
    return _TYPE_TO_STRING[self._type_enum]

  @property
  def size(self):
    if self._type_enum % 100 in (20, 21, 7):
      return 1
    return np.dtype(self.as_numpy_dtype).itemsize

  def __eq__(self, other):
    if other is None:
      return False
    if isinstance(other, DType):
      return self._type_enum == other._type_enum
    try:
      return self._type_enum == as_dtype(other)._type_enum
    except TypeError:
      return False

  def __ne__(self, other):
    return not self.__eq__(other)

  def __hash__(self):
    return self._type_enum

  def __int__(self):
    return self._type_enum

  def __repr__(self):
    return "tf." + self.name

  def __str__(self):
    return "<dtype: %r>" % self.name

  def __reduce__(self):
    return as_dtype, (self.name,)


_TYPE_TO_STRING = {
    0: "invalid", 1: "float32", 2: "float64", 3: "int32", 4: "uint8", 5: "int16",
    6: "int8", 7: "string", 8: "complex64", 9: "int64", 10: "bool", 11: "qint8",
    12: "quint8", 13: "qint32", 14: "bfloat16", 15: "qint16", 16: "quint16",
    17: "uint16", 18: "complex128", 19: "float16", 20: "resource", 21: "variant",
    22: "uint32", 23: "uint64",
}
for _k in list(_TYPE_TO_STRING):
  if _k:
    _TYPE_TO_STRING[_k + 100] = _TYPE_TO_STRING[_k] + "_ref"
del _k

_INTEGER_ENUMS = frozenset((3, 4, 5, 6, 9, 17, 22, 23))

_TF_TO_NP = {
    0: None, 1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 5: np.int16,
    6: np.int8, 7: object, 8: np.complex64, 9: np.int64, 10: np.bool_,
    11: np.dtype([("qint8", np.int8)]), 12: np.dtype([("quint8", np.uint8)]),
    13: np.dtype([("qint32", np.int32)]), 14: np.uint16,
    15: np.dtype([("qint16", np.int16)]), 16: np.dtype([("quint16", np.uint16)]),
    17: np.uint16, 18: np.complex128, 19: np.float16, 20: object, 21: object,
    22: np.uint32, 23: np.uint64,
}

_INTERN = {k: DType(k) for k in _TYPE_TO_STRING}

invalid = _INTERN[0]
float32 = _INTERN[1]
float64 = _INTERN[2]
int32 = _INTERN[3]
uint8 = _INTERN[4]
int16 = _INTERN[5]
int8 = _INTERN[6]
string = _INTERN[7]
complex64 = _INTERN[8]
int64 = _INTERN[9]
bool = _INTERN[10]  # pylint: disable=redefined-builtin
qint8 = _INTERN[11]
quint8 = _INTERN[12]
qint32 = _INTERN[13]
bfloat16 = _INTERN[14]
qint16 = _INTERN[15]
quint16 = _INTERN[16]
uint16 = _INTERN[17]
complex128 = _INTERN[18]
float16 = _INTERN[19]
half = float16
resource = _INTERN[20]
variant = _INTERN[21]
uint32 = _INTERN[22]
uint64 = _INTERN[23]
double = float64
float32_ref = _INTERN[101]
float64_ref = _INTERN[102]
double_ref = float64_ref
int32_ref = _INTERN[103]
uint8_ref = _INTERN[104]
int16_ref = _INTERN[105]
int8_ref = _INTERN[106]
string_ref = _INTERN[107]
complex64_ref = _INTERN[108]
int64_ref = _INTERN[109]
bool_ref = _INTERN[110]
qint8_ref = _INTERN[111]
quint8_ref = _INTERN[112]
qint32_ref = _INTERN[113]
bfloat16_ref = _INTERN[114]
qint16_ref = _INTERN[115]
quint16_ref = _INTERN[116]
uint16_ref = _INTERN[117]
complex128_ref = _INTERN[118]
float16_ref = _INTERN[119]
half_ref = float16_ref
resource_ref = _INTERN[120]
variant_ref = _INTERN[121]
uint32_ref = _INTERN[122]
uint64_ref = _INTERN[123]

_STRING_TO_TF = {v: _INTERN[k] for k, v in _TYPE_TO_STRING.items()}
_STRING_TO_TF.update({"half": float16, "half_ref": float16_ref, "float": float32,
                      "float_ref": float32_ref, "double": float64, "double_ref": float64_ref})

_NP_TO_TF = {
    np.dtype(np.float32): float32, np.dtype(np.float64): float64, np.dtype(np.int32): int32,
    np.dtype(np.int64): int64, np.dtype(np.uint8): uint8, np.dtype(np.uint16): uint16,
    np.dtype(np.uint32): uint32, np.dtype(np.uint64): uint64, np.dtype(np.int16): int16,
    np.dtype(np.int8): int8, np.dtype(np.complex64): complex64,
    np.dtype(np.complex128): complex128, np.dtype(np.object_): string,
    np.dtype(np.bool_): bool, np.dtype(np.float16): float16,
    _TF_TO_NP[11]: qint8, _TF_TO_NP[12]: quint8, _TF_TO_NP[13]: qint32,
    _TF_TO_NP[15]: qint16, _TF_TO_NP[16]: quint16,
}

_PYTHON_TO_TF = {float: float32, _builtins.bool: bool}


def as_dtype(type_value):
  """Converts `type_value` (DType, enum, name, numpy type) to a `DType`."""
  if isinstance(type_value, DType):
    return type_value
  if type_value.__class__ is int:
    try:
      return _INTERN[type_value]
    except KeyError:
      pass
  elif isinstance(type_value, str):
    try:
      return _STRING_TO_TF[type_value]
    except KeyError:
      pass
  elif isinstance(type_value, np.dtype):
    try:
      return _NP_TO_TF[type_value]
    except KeyError:
      if type_value.type in (np.str_, np.bytes_):
        return string
  else:
    try:
      return _PYTHON_TO_TF[type_value]
    except (KeyError, TypeError):
      pass
    enum = getattr(type_value, "as_datatype_enum", None)
    if isinstance(enum, int) and enum in _INTERN:
      return _INTERN[enum]
    if isinstance(type_value, type) and issubclass(type_value, np.generic):
      try:
        return _NP_TO_TF[np.dtype(type_value)]
      except (KeyError, TypeError):
        if type_value in (np.str_, np.bytes_):
          return string
    if isinstance(type_value, (int, np.integer)) and not isinstance(type_value, _builtins.bool):
      if int(type_value) in _INTERN:
        return _INTERN[int(type_value)]
  raise TypeError("Cannot convert value %r to a TensorFlow DType." % (type_value,))


QUANTIZED_DTYPES = frozenset([qint8, quint8, qint16, quint16, qint32, qint8_ref, quint8_ref,
                              qint16_ref, quint16_ref, qint32_ref])


def _dtype_from_enum(enum):
  """Fast path for enums coming back from the C extension."""
  return _INTERN[enum]


def __getattr__(name):
  """tf.dtypes.cast, saturate_cast and complex (the math ops, loaded on first use)."""
  if name in ("cast", "saturate_cast", "complex"):
    from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
    return getattr(math_ops, name)
  raise AttributeError("module 'tfc.dtypes' has no attribute %r" % name)
