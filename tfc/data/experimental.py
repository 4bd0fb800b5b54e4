"""tf.data.experimental basics (TF 1.15)."""
from tfc.data.dataset_ops import Dataset as _Dataset

AUTOTUNE = -1


def unbatch():
  """Not available: needs graph functions."""
  raise NotImplementedError("tf.data.experimental.unbatch needs graph functions (not available yet in tfc)")


def shuffle_and_repeat(buffer_size, count=None, seed=None):
  """Returns a transformation for Dataset.apply: shuffle then repeat (each epoch reshuffled)."""
  def _apply(ds):
    return ds.shuffle(buffer_size, seed=seed).repeat(count)
  return _apply


def cardinality(dataset):
  raise NotImplementedError("tf.data.experimental.cardinality is not available in tfc")


def get_single_element(dataset):
  """The only element of dataset, as tensors (OutOfRangeError if empty when run)."""
  return dataset.take(1).make_one_shot_iterator().get_next()


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False,
                        buffer_output_elements=None, prefetch_input_elements=None):
  """A transformation for Dataset.apply: interleave with cycle_length worker
  threads reading the inner datasets ahead (each buffering up to
  buffer_output_elements, default 2). The order is interleave's unless
  sloppy, which hands out whichever element is ready first."""
  def _apply(ds):
    return ds._parallel_interleave(map_func, cycle_length, block_length, sloppy,  # pylint: disable=protected-access
                                   buffer_output_elements, prefetch_input_elements)
  return _apply


_EXTERNAL_STATE_POLICIES = {"warn": 0, "ignore": 1, "fail": 2}


def _iterator_saveable_class():
  """The SaveableObject subclass for iterators (made on first use: the Saver
  module loads lazily)."""
  from tfc.train import saver as _saver  # pylint: disable=g-import-not-at-top
  from tfc.framework.op_def_library import _apply_op  # pylint: disable=g-import-not-at-top

  class _IteratorSaveable(_saver.SaveableObject):
    """An iterator's position: saved through SerializeIterator, restored with
    DeserializeIterator (the iterator must have been initialized first)."""

    def __init__(self, iterator_resource, name, external_state_policy):
      serialized = _apply_op("SerializeIterator", "SerializeIterator", [iterator_resource],
                             {"external_state_policy": external_state_policy}).outputs[0]
      specs = [_saver.SaveSpec(serialized, "", name + "_STATE", dtype=serialized.dtype,
                               device=iterator_resource.device)]
      super(_IteratorSaveable, self).__init__(iterator_resource, specs, name)

    def restore(self, restored_tensors, restored_shapes):
      return _apply_op("DeserializeIterator", "DeserializeIterator", [self.op, restored_tensors[0]])

  return _IteratorSaveable


def make_saveable_from_iterator(iterator, external_state_policy=None):
  """A SaveableObject that saves and restores an iterator's position.

  Add it to the SAVEABLE_OBJECTS collection (or a Saver's var_list) so that
  `Saver.save` records where the iterator is (buffered shuffle elements,
  repeat counts, open files and interleaved inputs included) and
  `Saver.restore`, after the iterator's initializer has run, continues from
  there. external_state_policy: 'fail' (default: a from_generator dataset
  raises FailedPreconditionError when saved), 'warn' or 'ignore' (such
  datasets save no position and restart when restored).
  """
  policy = _EXTERNAL_STATE_POLICIES.get(external_state_policy or "fail")
  if policy is None:
    raise ValueError("external_state_policy must be one of 'warn', 'ignore' or 'fail', got %r"
                     % (external_state_policy,))
  resource = iterator._iterator_resource  # pylint: disable=protected-access
  return _iterator_saveable_class()(resource, resource.name, policy)


_ = _Dataset
