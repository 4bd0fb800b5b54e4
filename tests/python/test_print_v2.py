"""tf.print (PrintV2) and tf.strings.format (StringFormat): TF's print_v2 text of
tensors, the output streams and the errors. Expected strings come from TF 2.21's
tf.compat.v1 run on the same inputs."""
import logging
import os
import sys

import numpy as np
import pytest

import tfc as tf

FORMAT_CASES = [
    ("{}", [np.arange(10)], 3, "[0 1 2 ... 7 8 9]"),
    ("{}", [np.arange(10)], -1, "[0 1 2 3 4 5 6 7 8 9]"),
    ("{}", [np.arange(24).reshape(2, 3, 4)], 2,
     "[[[0 1 2 3]\n  [4 5 6 7]\n  [8 9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]"),
    ("{}", [np.arange(24).reshape(2, 3, 4)], 1,
     "[[[0 ... 3]\n  ...\n  [8 ... 11]]\n\n [[12 ... 15]\n  ...\n  [20 ... 23]]]"),
    ("x={} y={}", [np.float32(3.5), np.array([b"a", b"b\n"])], 3, 'x=3.5 y=["a" "b\\n"]'),
    ("{}", [np.array([1.5, 2.25, 1e10, 1 / 3], np.float32)], 3, "[1.5 2.25 1e+10 0.333333343]"),
    ("{}", [np.array([1 / 3])], 3, "[0.33333333333333331]"),
    ("{}", [np.array([True, False])], 3, "[1 0]"),
    ("{}", [np.zeros((0, 3), np.float32)], 3, "[]"),
    ("{}", [np.zeros((3, 0), np.float32)], 3, "[\n ...]"),
    ("{}", [np.arange(6).reshape(6, 1)], 2, "[[0]\n [1]\n ...\n [4]\n [5]]"),
    ("{}", [np.arange(7)], 0, "[ ...]"),
    ("{}", [np.arange(12).reshape(3, 4)], 1, "[[0 ... 3]\n ...\n [8 ... 11]]"),
    ("{}", [np.float16([1.5, -2])], 3, "[1.5 -2]"),
    ("{}", [np.array([-0.0, np.nan, np.inf])], 3, "[-0 nan inf]"),
    ("{}", [np.int64([2**40])], 3, "[1099511627776]"),
    ("a%sb", [np.int8([1, -1])], 3, "a[1 -1]b"),
]


@pytest.mark.parametrize("template,inputs,summarize,expected", FORMAT_CASES)
def test_string_format_matches_tf(template, inputs, summarize, expected):
  placeholder = "%s" if "%s" in template else "{}"
  with tf.Graph().as_default():
    out = tf.strings.format(template, [tf.constant(x) for x in inputs],
                            placeholder=placeholder, summarize=summarize)
    assert out.op.type == "StringFormat"
    assert out.shape.ndims == 0
    with tf.Session() as sess:
      assert sess.run(out).decode() == expected


def test_string_format_single_tensor_and_python_values():
  with tf.Graph().as_default():
    out = tf.strings.format("v: {}", tf.constant([[1, 2], [3, 4]]))
    mixed = tf.strings.format("a{}b{}c", [1, "s"])
    with tf.Session() as sess:
      assert sess.run(out) == b"v: [[1 2]\n [3 4]]"
      assert sess.run(mixed) == b'a1b"s"c'


def test_string_format_placeholder_count_mismatch():
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="template expects 2 tensors"):
      tf.strings.format("{}{}", [1])
    from tfc.framework.op_def_library import _apply_op
    with pytest.raises(ValueError, match="num placeholders in template and num inputs must match"):
      _apply_op("StringFormat", None, [[tf.constant(1)]], {"template": "{}{}", "placeholder": "{}"})


PRINT_CASES = [
    (lambda: (tf.constant([1, 2, 3]),), {}, "[1 2 3]\n"),
    (lambda: ("hi", [1, 2], {"a": tf.constant([1.5])}), dict(sep=",", end="|"),
     "hi,[1, 2],{'a': [1.5]}|"),
    (lambda: ({"b": tf.constant(1), "a": tf.constant([2, 3])},), {}, "{'a': [2 3], 'b': 1}\n"),
    (lambda: (tf.constant("scalar"),), {}, "scalar\n"),
    (lambda: ("{}", tf.constant(1)), {}, "{} 1\n"),
    (lambda: (tf.SparseTensor([[0, 1]], [5], [2, 2]),), {},
     "'SparseTensor(indices=[[0 1]], values=[5], shape=[2 2])'\n"),
    (lambda: ("x", tf.range(10)), dict(summarize=2), "x [0 1 ... 8 9]\n"),
]


@pytest.mark.parametrize("make_args,kwargs,expected", PRINT_CASES)
def test_print_to_file_matches_tf(tmp_path, make_args, kwargs, expected):
  path = tmp_path / "out.txt"
  with tf.Graph().as_default():
    op = tf.print(*make_args(), output_stream="file://" + str(path), **kwargs)
    assert op.type == "PrintV2"
    with tf.Session() as sess:
      sess.run(op)
      assert path.read_text() == expected
      sess.run(op)   # appends
      assert path.read_text() == expected * 2


def test_print_streams(capsys):
  with tf.Graph().as_default():
    x = tf.constant([1, 2])
    to_out = tf.print("out", x, output_stream=sys.stdout)
    to_err = tf.print("err", x)
    to_log = tf.print("log", x, output_stream=tf.logging.info)
    to_level = tf.print("lvl", x, output_stream=logging.WARNING)
    assert to_out.get_attr("output_stream") == b"stdout"
    assert to_err.get_attr("output_stream") == b"stderr"
    assert to_err.get_attr("end") == os.linesep.encode()
    assert to_log.get_attr("output_stream") == b"log(info)"
    assert to_level.get_attr("output_stream") == b"log(warning)"
    with tf.control_dependencies([to_out, to_err]):
      y = tf.identity(x)
    with tf.Session() as sess:
      np.testing.assert_array_equal(sess.run(y), [1, 2])
  captured = capsys.readouterr()
  assert captured.out == "out [1 2]\n"
  assert captured.err == "err [1 2]\n"


def test_print_errors(tmp_path):
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="Unsupported output stream"):
      tf.print("x", output_stream="stdout")
    with pytest.raises(ValueError, match="Unrecognized keyword arguments"):
      tf.print("x", bogus=1)
    from tfc.framework.op_def_library import _apply_op
    with pytest.raises(ValueError, match="input must be a scalar, but has rank: 1"):
      _apply_op("PrintV2", None, [tf.constant(["a"])], {})
    bad = _apply_op("PrintV2", "bad", [tf.constant("a")], {"output_stream": "bogus"})
    missing = tf.print("x", output_stream="file://" + str(tmp_path / "no" / "such" / "f"))
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="Unknown output stream: bogus"):
        sess.run(bad)
      with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        sess.run(missing)
