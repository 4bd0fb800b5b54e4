"""tf.data's structure types: tf.data.DatasetSpec and TF 1.15's
tf.data.experimental Structure names (Structure, TensorStructure,
SparseTensorStructure, TensorArrayStructure, OptionalStructure,
DatasetStructure), which are the TypeSpec classes under older names."""
from tfc.framework import tensor_shape as _tensor_shape
from tfc.framework import type_spec as _type_spec


def _flat_specs(structure):
  from tfc.data.dataset_ops import _flat  # pylint: disable=g-import-not-at-top
  return _flat(structure)


def _same_structure(a, b):
  if isinstance(a, dict):
    return isinstance(b, dict) and sorted(a) == sorted(b) and all(_same_structure(a[k], b[k]) for k in a)
  if isinstance(a, tuple):
    return isinstance(b, tuple) and len(a) == len(b) and all(_same_structure(x, y) for x, y in zip(a, b))
  return not isinstance(b, (dict, tuple))


class DatasetSpec(_type_spec.TypeSpec):
  """The type of a tf.data.Dataset: the structure of its elements (nested
  TypeSpecs) and the shape of the dataset value itself (scalar by default)."""
  __slots__ = ("_element_spec", "_dataset_shape")

  def __init__(self, element_spec, dataset_shape=()):
    self._element_spec = element_spec
    self._dataset_shape = _tensor_shape.TensorShape(dataset_shape)

  @classmethod
  def _from_components(cls, element_spec, dataset_shape):
    return cls(element_spec, dataset_shape)

  @staticmethod
  def from_value(value):
    """The spec of a Dataset."""
    return DatasetSpec(value.element_spec)

  @property
  def element_spec(self):
    return self._element_spec

  @property
  def value_type(self):
    from tfc.data.dataset_ops import Dataset  # pylint: disable=g-import-not-at-top
    return Dataset

  def _components(self):
    return (tuple(_flat_specs(self._element_spec)), self._dataset_shape)

  def is_compatible_with(self, spec_or_value):
    other = spec_or_value
    if not isinstance(other, _type_spec.TypeSpec):
      from tfc.data.dataset_ops import Dataset  # pylint: disable=g-import-not-at-top
      if not isinstance(other, Dataset):
        return False
      other = DatasetSpec.from_value(other)
    if type(other) is not DatasetSpec or not _same_structure(self._element_spec, other._element_spec):
      return False
    return (self._dataset_shape.is_compatible_with(other._dataset_shape) and
            all(a.is_compatible_with(b) for a, b in zip(_flat_specs(self._element_spec),
                                                        _flat_specs(other._element_spec))))

  def most_specific_compatible_type(self, other):
    if not self.is_compatible_with(other):
      raise ValueError("No TypeSpec is compatible with both %s and %s" % (self, other))
    from tfc.data.dataset_ops import _pack  # pylint: disable=g-import-not-at-top
    merged = [a.most_specific_compatible_type(b) for a, b in
              zip(_flat_specs(self._element_spec), _flat_specs(other._element_spec))]
    return DatasetSpec(_pack(self._element_spec, merged),
                       self._dataset_shape.most_specific_compatible_shape(other._dataset_shape))

  def __repr__(self):
    return "DatasetSpec(%r, %r)" % (self._element_spec, self._dataset_shape)


Structure = _type_spec.TypeSpec
DatasetStructure = DatasetSpec
OptionalStructure = _type_spec.OptionalSpec


def TensorStructure(dtype, shape):  # pylint: disable=invalid-name
  """TF 1.15's name for tf.TensorSpec(shape, dtype)."""
  return _type_spec.TensorSpec(shape, dtype)


def SparseTensorStructure(dtype, shape):  # pylint: disable=invalid-name
  """TF 1.15's name for tf.SparseTensorSpec(shape, dtype)."""
  return _type_spec.SparseTensorSpec(shape, dtype)


def TensorArrayStructure(dtype, element_shape, dynamic_size, infer_shape):  # pylint: disable=invalid-name
  """TF 1.15's name for tf.TensorArraySpec."""
  return _type_spec.TensorArraySpec(element_shape, dtype, dynamic_size, infer_shape)


def get_structure(dataset_or_iterator):
  """The element structure (nested TypeSpecs) of a Dataset or Iterator."""
  spec = getattr(dataset_or_iterator, "element_spec", None)
  if spec is None:
    raise TypeError("`dataset_or_iterator` must be a `tf.data.Dataset` or tf.data.Iterator object, "
                    "but got %s." % type(dataset_or_iterator))
  return spec
