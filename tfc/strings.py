"""tf.strings: string ops with C kernels (TF 1.15's names in this namespace)."""
from tfc.ops.string_ops import (as_string, join, length, lower, reduce_join,  # noqa: F401
                                regex_full_match, regex_replace, split, strip, substr,
                                to_hash_bucket, to_hash_bucket_fast, to_hash_bucket_strong,
                                to_number, upper)
from tfc.ops.string_ops import string_format as format  # noqa: F401  pylint: disable=redefined-builtin
from tfc.ops.string_ops import ngrams, unsorted_segment_join  # noqa: F401
