"""tf.data (TF 1.15): datasets and iterators that run in C as TensorFlow's
dataset ops (TensorSliceDataset, BatchDatasetV2, ShuffleDataset, ...) with
DT_VARIANT dataset handles and DT_RESOURCE iterators.

    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1000, seed=1).batch(32).repeat()
    images, labels = ds.make_one_shot_iterator().get_next()

`map`, `flat_map`, `interleave` and `filter` trace their Python function
into a graph function (docs/functions.md); see docs/input_pipelines.md.
"""
from tfc.data.dataset_ops import (Dataset, TFRecordDataset, TextLineDataset,  # noqa: F401
                                  FixedLengthRecordDataset, Iterator, make_one_shot_iterator,
                                  make_initializable_iterator, get_output_types, get_output_shapes,
                                  get_output_classes)
from tfc.data.options import Options, ThreadingOptions  # noqa: F401,E402
from tfc.data.structure import DatasetSpec  # noqa: F401,E402
from tfc.data import experimental  # noqa: F401,E402

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
