"""tf.strings with C kernels: values against TensorFlow's outputs
(tests/fixtures/strings, written by tools/make_string_fixtures.py) and Python,
and the error cases (TF's error classes, the node's name)."""
import importlib.util
import pathlib

import numpy as np
import pytest

import tfc as tf

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "strings" / "strings_tf.npz"


def _tool():
  spec = importlib.util.spec_from_file_location("make_string_fixtures",
                                                REPO / "tools" / "make_string_fixtures.py")
  mod = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(mod)
  return mod


def test_string_ops_match_tensorflow():
  want = dict(np.load(FIXTURE, allow_pickle=True))
  with tf.Graph().as_default(), tf.Session() as sess:
    got = sess.run(_tool().cases(tf))
  assert len(got) >= 38
  for name, value in got.items():
    if isinstance(value, tf.SparseTensorValue):
      np.testing.assert_array_equal(value.indices, want[name + "/indices"], err_msg=name)
      np.testing.assert_array_equal(value.values, want[name + "/values"], err_msg=name)
      np.testing.assert_array_equal(value.dense_shape, want[name + "/dense_shape"], err_msg=name)
    elif np.asarray(value).dtype.kind in "fc":
      np.testing.assert_allclose(value, want[name].astype(np.float64), rtol=1e-6, err_msg=name)
    else:
      np.testing.assert_array_equal(np.asarray(value), np.asarray(want[name]), err_msg=name)


@pytest.mark.parametrize("words", [["", "a", "hello world"], ["\u00e9t\u00e9", "x" * 300]])
def test_length_substr_case_against_python(words):
  data = np.array([w.encode() for w in words], dtype=object)
  with tf.Graph().as_default(), tf.Session() as sess:
    x = tf.placeholder(tf.string, [None])
    n, nc, up, sub = sess.run([tf.strings.length(x), tf.strings.length(x, unit="UTF8_CHAR"),
                               tf.strings.upper(x), tf.strings.substr(x, 0, 3)], {x: data})
  np.testing.assert_array_equal(n, [len(w.encode()) for w in words])
  np.testing.assert_array_equal(nc, [len(w) for w in words])
  assert list(up) == [w.encode().upper() if w.isascii() else
                      bytes(c - 32 if 97 <= c <= 122 else c for c in w.encode()) for w in words]
  assert list(sub) == [w.encode()[:3] for w in words]


def test_reduce_join_shapes_and_unknown_rank():
  with tf.Graph().as_default(), tf.Session() as sess:
    x = tf.placeholder(tf.string)
    out = tf.reduce_join(x, separator=",")
    grid = np.array([[b"a", b"b"], [b"c", b"d"]], dtype=object)
    assert sess.run(out, {x: grid}) == b"a,b,c,d"
    y = tf.reduce_join(tf.constant(grid), 0, keep_dims=True)
    assert y.get_shape().as_list() == [1, 2]
    with pytest.raises(ValueError, match="Invalid reduction dimension"):
      tf.reduce_join(tf.constant(grid), 2)


def test_string_errors_name_the_node():
  with tf.Graph().as_default(), tf.Session() as sess:
    x = tf.placeholder(tf.string, [None])
    num = tf.strings.to_number(x, name="parse")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"StringToNumberOp could not correctly convert string: 1\.5x"
                             r"[\s\S]*parse"):
      sess.run(num, {x: [b"2", b"1.5x"]})
    with pytest.raises(tf.errors.InvalidArgumentError, match="could not correctly convert"):
      sess.run(tf.strings.to_number(x, tf.int32), {x: [b"99999999999"]})
    sub = tf.strings.substr(x, 5, 1, name="cut")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"pos 5 out of range[\s\S]*cut"):
      sess.run(sub, {x: [b"abc"]})
    bad = tf.strings.regex_full_match(x, tf.constant("("))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid pattern"):
      sess.run(bad, {x: [b"a"]})
    with pytest.raises(tf.errors.InvalidArgumentError):
      sess.run(tf.as_string(tf.constant([1, 2]), fill="x"))
    with pytest.raises(ValueError):
      tf.strings.length(x, unit="WORD")
    with pytest.raises(ValueError):
      tf.strings.to_hash_bucket_strong(x, 10, [1])


def test_hash_bucket_strong_is_stable_and_in_range():
  words = np.array([b"w%d" % i for i in range(500)], dtype=object)
  with tf.Graph().as_default(), tf.Session() as sess:
    h = sess.run(tf.strings.to_hash_bucket_strong(words, 37, [7, 9]))
    h2 = sess.run(tf.string_to_hash_bucket_strong(words, 37, [7, 9]))
  assert h.dtype == np.int64 and h.min() >= 0 and h.max() < 37
  np.testing.assert_array_equal(h, h2)
  assert len(set(h.tolist())) > 30
