"""tf.lookup.experimental: the mutable tables (MutableHashTable,
DenseHashTable), saved and restored by a Saver as TF's are."""
from tfc.ops.lookup_ops import DenseHashTable, MutableHashTable  # noqa: F401
