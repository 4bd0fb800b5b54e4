"""tfc and real TensorFlow in one process (run by `make compat` with the
TensorFlow venv, into which the wheel from `make install-check` is installed).

Both register `tensorflow.*` protocol-buffer messages: TensorFlow in protobuf's
default descriptor pool, tfc in a pool of its own. This checks that the two
import in either order, that their messages are distinct classes that agree on
the wire both ways, and that each runs a graph the other wrote.
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
order = sys.argv[1] if len(sys.argv) > 1 else "tf-first"
if order == "tf-first":
  import tensorflow.compat.v1 as tf1
  import tfc
else:
  import tfc
  import tensorflow.compat.v1 as tf1
tf1.disable_eager_execution()
from google.protobuf import text_format  # noqa: E402

assert tfc.GraphDef is not tf1.GraphDef
assert tfc.GraphDef.DESCRIPTOR.full_name == tf1.GraphDef.DESCRIPTOR.full_name

# A graph written by TensorFlow, run by tfc.
with tf1.Graph().as_default() as g:
  x = tf1.placeholder(tf1.float32, [None, 2], name="x")
  tf1.identity(tf1.matmul(x, tf1.constant([[1.0], [2.0]])) + 0.5, name="y")
  tf_bytes = g.as_graph_def().SerializeToString()
gd = tfc.GraphDef()
gd.ParseFromString(tf_bytes)
with tfc.Graph().as_default() as g2:
  tfc.import_graph_def(gd, name="")
  with tfc.Session(graph=g2) as s:
    assert s.run("y:0", {"x:0": [[1.0, 1.0]]}).tolist() == [[3.5]]

# A graph written by tfc, run by TensorFlow (through text format, both ways).
with tfc.Graph().as_default() as g3:
  a = tfc.placeholder(tfc.float32, [3], name="a")
  tfc.reduce_sum(a * a, name="ss")
  text = str(g3.as_graph_def())
tf_gd = text_format.Parse(text, tf1.GraphDef())
with tf1.Graph().as_default() as g4:
  tf1.import_graph_def(tf_gd, name="")
  with tf1.Session(graph=g4) as s:
    assert s.run("ss:0", {"a:0": [1.0, 2.0, 3.0]}) == 14.0
back = tfc.GraphDef.FromString(tf_gd.SerializeToString(deterministic=True))
assert back.SerializeToString(deterministic=True) == tf_gd.SerializeToString(deterministic=True)

config = tfc.ConfigProto(intra_op_parallelism_threads=2, allow_soft_placement=True)
assert tf1.ConfigProto.FromString(config.SerializeToString()) == tf1.ConfigProto(
    intra_op_parallelism_threads=2, allow_soft_placement=True)
print("beside-tf (%s): tfc and TensorFlow %s share a process OK" % (order, tf1.__version__))
