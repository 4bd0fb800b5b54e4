"""Queue and reader behaviour printed as JSON, run under real TensorFlow
(`python queue_oracle.py tf DIR`) or tfc (`... tfc DIR`) by
test_compat_queues.py: element orders of seeded RandomShuffleQueues, priority
and padding queues, and the keys and values of TF's readers over files in DIR."""
import json
import os
import sys

if sys.argv[1] == "tf":
  os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
  import tensorflow.compat.v1 as tf
  tf.disable_eager_execution()
else:
  import tfc as tf

DIR = sys.argv[2]
out = {}


def run(fetches, *setup):
  with tf.Session() as s:
    for op in setup:
      s.run(op)
    return s.run(fetches)


def b2s(x):
  return [v.decode("latin-1") for v in x.tolist()]


with tf.Graph().as_default():
  q = tf.RandomShuffleQueue(100, 5, tf.int32, shapes=[[]], seed=42)
  enq = q.enqueue_many([list(range(30))])
  d = q.dequeue_many(10)
  rest = q.dequeue_up_to(100)
  with tf.Session() as s:
    s.run(enq)
    out["shuffle_many"] = s.run(d).tolist()
    s.run(q.close())
    out["shuffle_rest"] = s.run(rest).tolist()
with tf.Graph().as_default():
  q = tf.RandomShuffleQueue(100, 0, tf.int32, shapes=[[]], seed=7)
  enq = q.enqueue_many([list(range(10))])
  d = q.dequeue()
  with tf.Session() as s:
    s.run(enq)
    out["shuffle_one"] = [int(s.run(d)) for _ in range(10)]
with tf.Graph().as_default():
  tf.set_random_seed(3)
  q = tf.RandomShuffleQueue(100, 0, [tf.int32, tf.string], shapes=[[], []])
  enq = q.enqueue_many([list(range(10)), [b"s%d" % i for i in range(10)]])
  d = q.dequeue_many(10)
  a, b = run(d, enq)
  out["shuffle_graph_seed"] = [a.tolist(), b2s(b)]
with tf.Graph().as_default():
  q = tf.PriorityQueue(10, [tf.string], shapes=[[]])
  enq = q.enqueue_many([[5, 1, 3, 2], [b"e", b"a", b"c", b"b"]])
  p, v = run(q.dequeue_many(4), enq)
  out["priority"] = [p.tolist(), b2s(v)]
with tf.Graph().as_default():
  q = tf.PaddingFIFOQueue(10, [tf.int32], shapes=[[None, None]])
  e1 = q.enqueue([[[1, 2]]])
  e2 = q.enqueue([[[1], [2], [3]]])
  out["padding"] = run(q.dequeue_many(2), e1, e2).tolist()

txt = os.path.join(DIR, "lines.txt")
binf = os.path.join(DIR, "fixed.bin")
rec = os.path.join(DIR, "r.tfrecord")
with tf.Graph().as_default():
  fq = tf.FIFOQueue(10, tf.string)
  fill = fq.enqueue_many([[txt, txt]])
  k, v = tf.TextLineReader(skip_header_lines=1).read_up_to(fq, 100)
  bq = tf.FIFOQueue(10, tf.string)
  bfill = bq.enqueue_many([[binf]])
  fk, fv = tf.FixedLengthRecordReader(3, header_bytes=2, footer_bytes=2, hop_bytes=2).read_up_to(bq, 100)
  rq = tf.FIFOQueue(10, tf.string)
  rfill = rq.enqueue_many([[rec]])
  rk, rv = tf.TFRecordReader().read_up_to(rq, 100)
  with tf.Session() as s:
    s.run([fill, bfill, rfill])
    s.run([fq.close(), bq.close(), rq.close()])
    a, b = s.run([k, v])
    out["text_lines"] = [[x.replace(DIR, "") for x in b2s(a)], b2s(b)]
    a, b = s.run([fk, fv])
    out["fixed_length"] = [[x.replace(DIR, "") for x in b2s(a)], b2s(b)]
    a, b = s.run([rk, rv])
    out["tfrecord"] = [[x.replace(DIR, "") for x in b2s(a)], b2s(b)]
print(json.dumps(out, sort_keys=True))
