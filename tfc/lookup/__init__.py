"""tf.lookup: lookup tables over C hash-table kernels (TF 1.15's names in
this namespace; tf.lookup.experimental holds the mutable tables)."""
from tfc.ops.lookup_ops import (KeyValueTensorInitializer, StaticHashTable,  # noqa: F401
                                StaticVocabularyTable, TextFileIndex, TextFileInitializer)
from tfc.lookup import experimental  # noqa: F401,E402
