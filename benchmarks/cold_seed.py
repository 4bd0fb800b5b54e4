"""Seed 000's task as a user's script runs it, with phase marks: the child
process of bench_cold.py.

    python cold_seed.py FRAMEWORK MODEL IMAGE

FRAMEWORK is tfc or tf. The script does what the seed does (tf.gfile.GFile,
tf.GraphDef + ParseFromString, tf.import_graph_def with the seed's
arguments, a ConfigProto with one thread and opt_level L0, `with
tf.Session(...)`, one `sess.run` of tf.squeeze(y) on an image path) and
nothing a user's script would not: it imports only what the seed imports
(sys and time are built into the interpreter), and prints one line, the
predicted class and then wall/CPU seconds per phase (numpy, import, parse,
import_graph, session, first_run), for bench_cold.py to read. It is small
on purpose: Python compiles a script run as __main__ on every start, so a
large harness would count its own compile time in tfc's share.
"""
import sys
import time

clock, cpu = time.perf_counter, time.process_time
marks = [(clock(), cpu())]
import numpy  # noqa: E402,F401
marks.append((clock(), cpu()))
framework, model, image = sys.argv[1:4]
if framework == "tfc":
  import tfc as tf
else:
  import os
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  import tensorflow.compat.v1 as tf
  tf.disable_eager_execution()
marks.append((clock(), cpu()))
with tf.gfile.GFile(model, "rb") as f:
  graph_def = tf.GraphDef()
  graph_def.ParseFromString(f.read())
marks.append((clock(), cpu()))
with tf.Graph().as_default() as graph:
  tf.import_graph_def(graph_def, input_map=None, return_elements=None, name="", op_dict=None,
                      producer_op_list=None)
marks.append((clock(), cpu()))
config = tf.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)
config.graph_options.optimizer_options.opt_level = config.graph_options.optimizer_options.L0
x = graph.get_tensor_by_name("image_path:0")
y = graph.get_tensor_by_name("output:0")
with tf.Session(graph=graph, config=config) as sess:
  squeezed = tf.squeeze(y)
  marks.append((clock(), cpu()))
  cls = int(sess.run(squeezed, feed_dict={x: image}))
  marks.append((clock(), cpu()))
print(cls, " ".join("%.9f %.9f" % (marks[i + 1][0] - marks[i][0], marks[i + 1][1] - marks[i][1])
                    for i in range(len(marks) - 1)))
