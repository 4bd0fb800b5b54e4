"""Checks an installed tfc from outside the source tree: run by `make install-check`
with the Python of a fresh venv into which the wheel built from the sdist was installed.

Exits non-zero (with the assertion) when something a new user meets first fails:
the import, a session run, the protocol-buffer idioms of TF 1.x code (text_format,
json_format, MergeFrom/CopyFrom, DESCRIPTOR) and a frozen graph loaded from text.
"""
import os
import sys

import numpy as np

import tfc as tf

here = os.path.dirname(os.path.abspath(tf.__file__))
assert os.path.join("site-packages", "tfc") in here, "tfc imported from %s" % here
assert not os.path.exists(os.path.join(here, "..", "csrc")), "imported a source tree"

x = tf.placeholder(tf.float32, [2])
y = x * 2.0 + 1.0
with tf.Session() as sess:
  assert np.allclose(sess.run(y, {x: np.array([1.0, 2.0], np.float32)}), [3.0, 5.0])

from google.protobuf import json_format, text_format  # noqa: E402

graph_def = tf.GraphDef()
text_format.Merge("""
node { name: "a" op: "Const"
       attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 4 } } } }
node { name: "b" op: "Sqrt" input: "a" attr { key: "T" value { type: DT_FLOAT } } }
""", graph_def)
with tf.Graph().as_default() as g:
  tf.import_graph_def(graph_def, name="")
  with tf.Session(graph=g) as sess:
    assert sess.run("b:0") == 2.0
config = tf.ConfigProto(log_device_placement=False, allow_soft_placement=True)
copy = tf.ConfigProto()
copy.CopyFrom(config)
copy.MergeFrom(tf.ConfigProto(inter_op_parallelism_threads=1))
assert json_format.MessageToDict(copy) == {"allowSoftPlacement": True,
                                           "interOpParallelismThreads": 1}
assert copy.DESCRIPTOR.full_name == "tensorflow.ConfigProto"
print("install-check: tfc %s from %s (Python %s) OK" % (tf.__tfc_version__, here,
                                                         sys.version.split()[0]))
