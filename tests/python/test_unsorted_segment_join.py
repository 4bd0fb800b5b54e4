"""tf.strings.unsorted_segment_join (UnsortedSegmentJoin): the results and errors TF
2.21's tf.compat.v1 gives on the same inputs, and a Python reference."""
import numpy as np
import pytest

import tfc as tf

CASES = [
    (["a", "b", "c", "d"], [1, 0, 1, 1], 3, "-", [b"b", b"a-c-d", b""]),
    (["", "x", "", "y"], [0, 0, 0, 1], 2, ",", [b"x,", b"y"]),   # separator only after text
    ([["a", "b"], ["c", "d"]], [1, 1], 2, ":", [[b"", b""], [b"a:c", b"b:d"]]),
    ([["a", "b"], ["c", "d"]], [[0, 1], [1, 0]], 2, "+", [b"a+d", b"b+c"]),
]


@pytest.mark.parametrize("inputs,ids,num,sep,want", CASES)
def test_matches_tf(inputs, ids, num, sep, want):
  with tf.Graph().as_default():
    out = tf.strings.unsorted_segment_join(inputs, ids, num, separator=sep)
    assert out.op.type == "UnsortedSegmentJoin"
    assert out.shape.as_list() == list(np.shape(want))
    with tf.Session() as sess:
      assert sess.run(out).tolist() == want


def test_random_against_python():
  rng = np.random.RandomState(5)
  words = np.array([("w%d" % i).encode() * rng.randint(0, 3) for i in range(300)])
  ids = rng.randint(0, 17, 300)
  want = []
  for s in range(17):
    text = b""
    for w in words[ids == s]:
      text = text + b"/" + w if text else w
    want.append(text)
  with tf.Graph().as_default():
    out = tf.strings.unsorted_segment_join(words, ids.astype(np.int64), tf.constant(17, tf.int64),
                                           separator="/")
    with tf.Session() as sess:
      assert sess.run(out).tolist() == want


def test_errors():
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
      tf.strings.unsorted_segment_join(["a", "b"], [[0, 1]], 2)
    too_big = tf.strings.unsorted_segment_join(["a", "b"], [0, 2], 2)
    negative = tf.strings.unsorted_segment_join(["a", "b"], [-1, 0], 2)
    scalar = tf.strings.unsorted_segment_join(["a"], 0, 1)
    with tf.Session() as sess:
      for op in (too_big, negative):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="segment_ids are not allowed to exceed num_segments"):
          sess.run(op)
      with pytest.raises(tf.errors.InvalidArgumentError, match="Segment_id cannot have rank 0"):
        sess.run(scalar)
