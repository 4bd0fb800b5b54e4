"""tf.data.experimental.Optional (TF 1.15): a value that may be absent,
held by a scalar variant tensor (TF's OptionalFromValue / OptionalNone /
OptionalHasValue / OptionalGetValue ops, csrc/kernels/optional.c), and
get_next_as_optional (IteratorGetNextAsOptional): the iterator's next
element, or an empty Optional at the end instead of OutOfRangeError."""
from tfc import dtypes as _dtypes
from tfc.data import dataset_ops as _dops
from tfc.framework import ops as _ops
from tfc.framework import type_spec as _type_spec
from tfc.framework.op_def_library import _apply_op


def _specs_of(structure):
  return _dops._pack(structure, [_type_spec.TensorSpec(t.shape, t.dtype)  # pylint: disable=protected-access
                                 for t in _dops._flat(structure)])  # pylint: disable=protected-access


class Optional(object):
  """A value that may be absent: `has_value()` is a scalar bool tensor and
  `get_value()` the value (InvalidArgumentError "The optional does not have
  a value." when run on an empty one)."""

  def __init__(self, variant, element_spec):
    self._variant = variant
    self._element_spec = element_spec

  @staticmethod
  def from_value(value):
    """An Optional holding value (a nested structure of tensors)."""
    with _ops.name_scope("optional", values=_dops._flat(value)):  # pylint: disable=protected-access
      flat = [_ops.convert_to_tensor(x, name="component") for x in _dops._flat(value)]  # pylint: disable=protected-access
      structure = _dops._pack(value, flat)  # pylint: disable=protected-access
      v = _apply_op("OptionalFromValue", "OptionalFromValue", [flat]).outputs[0]
    return Optional(v, _specs_of(structure))

  @staticmethod
  def none_from_structure(value_structure):
    """An empty Optional of the given structure (nested tf.TensorSpec)."""
    v = _apply_op("OptionalNone", "OptionalNone", []).outputs[0]
    return Optional(v, value_structure)

  empty = none_from_structure

  def has_value(self, name=None):
    """A scalar bool tensor: whether there is a value."""
    return _apply_op("OptionalHasValue", name or "OptionalHasValue", [self._variant]).outputs[0]

  def get_value(self, name=None):
    """The value, nested as element_spec."""
    flat = _dops._flat(self._element_spec)  # pylint: disable=protected-access
    attrs = {"output_types": [s.dtype for s in flat],
             "output_shapes": [_dops._shape_attr(s.shape) for s in flat]}  # pylint: disable=protected-access
    op = _apply_op("OptionalGetValue", name or "OptionalGetValue", [self._variant], attrs)
    outs = list(op.outputs)
    for t, s in zip(outs, flat):
      t.set_shape(s.shape)
    return _dops._pack(self._element_spec, outs)  # pylint: disable=protected-access

  @property
  def element_spec(self):
    return self._element_spec

  value_structure = element_spec

  @property
  def _variant_tensor(self):
    return self._variant


def get_next_as_optional(iterator):
  """The iterator's next element as an Optional (empty at the end)."""
  attrs = {"output_types": _dops._flat(iterator.output_types),  # pylint: disable=protected-access
           "output_shapes": [_dops._shape_attr(s) for s in _dops._flat(iterator.output_shapes)]}  # pylint: disable=protected-access
  v = _apply_op("IteratorGetNextAsOptional", "IteratorGetNextAsOptional",
                [iterator._iterator_resource], attrs).outputs[0]  # pylint: disable=protected-access
  return Optional(v, iterator.element_spec)


_ = _dtypes
