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


_ = _Dataset
