"""tf.train.match_filenames_once (the same function as tf.io.match_filenames_once)."""
from tfc.ops.encoding_ops import match_filenames_once  # noqa: F401
