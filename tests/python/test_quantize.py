"""tf.quantization.quantize / tf.quantize_v2 (QuantizeV2) and tf.dequantize
(Dequantize): the values TF 2.21 gives for each mode and quantized type (more in
the op fixtures), a NumPy model of MIN_COMBINED, per-axis ranges, and the errors."""
import numpy as np
import pytest

import tfc as tf

X = np.array([-1.5, -0.3, 0.0, 0.26, 1.0, 2.5, 7.0], np.float32)

TF_CASES = [
    ("quint8", "MIN_COMBINED", -1.0, 2.0, {}, [0, 60, 85, 107, 170, 255, 255], -1.0, 2.0,
     [-1.0, -0.29411762952804565, 0.0, 0.2588235139846802, 1.0, 2.0, 2.0]),
    ("qint8", "MIN_COMBINED", -1.0, 2.0, {}, [-128, -69, -43, -21, 42, 127, 127], -1.0, 2.0,
     [-1.0, -0.3058823347091675, 0.0, 0.2588235139846802, 1.0, 2.0, 2.0]),
    ("quint8", "MIN_FIRST", -1.0, 2.0, {}, [0, 59, 85, 107, 170, 255, 255], -1.0, 2.0,
     [-1.0, -0.3058823347091675, 0.0, 0.2588235139846802, 1.0, 2.0, 2.0]),
    ("qint8", "SCALED", -1.0, 2.0, {}, [-95, -19, 0, 17, 64, 127, 127], -2.0157480239868164, 2.0,
     [-1.496062994003296, -0.29921260476112366, 0.0, 0.26771652698516846, 1.0078740119934082,
      2.0, 2.0]),
    ("qint8", "SCALED", -1.0, 2.0, dict(round_mode="HALF_TO_EVEN", narrow_range=True),
     [-95, -19, 0, 17, 64, 127, 127], -2.0, 2.0,
     [-1.496062994003296, -0.29921260476112366, 0.0, 0.26771652698516846, 1.0078740119934082,
      2.0, 2.0]),
    # 7.0 * scale overflows int32: TF's conversion gives INT32_MIN there
    ("qint32", "SCALED", -3.0, 3.0, {},
     [-1073741824, -214748384, 0, 186115248, 715827904, 1789569792, -2147483648], -3.0, 3.0,
     [-1.5, -0.30000001192092896, 0.0, 0.25999999046325684, 1.0, 2.5, -3.0]),
]


@pytest.mark.parametrize("T,mode,lo,hi,kw,q_want,min_want,max_want,d_want", TF_CASES)
def test_quantize_dequantize_match_tf(T, mode, lo, hi, kw, q_want, min_want, max_want, d_want):
  with tf.Graph().as_default():
    q = tf.quantization.quantize(X, lo, hi, getattr(tf, T), mode=mode, **kw)
    assert q.output.op.type == "QuantizeV2" and q.output.dtype == getattr(tf, T)
    d = tf.quantization.dequantize(q.output, q.output_min, q.output_max, mode=mode,
                                   narrow_range=kw.get("narrow_range", False))
    assert d.op.type == "Dequantize" and d.dtype == tf.float32
    with tf.Session() as sess:
      qv, mn, mx, dv = sess.run([q.output, q.output_min, q.output_max, d])
  assert qv.tolist() == q_want
  assert float(mn) == min_want and float(mx) == max_want
  assert dv.tolist() == [np.float32(v) for v in d_want]


def test_min_combined_quint8_against_numpy():
  rng = np.random.RandomState(2)
  x = rng.uniform(-3, 5, 500).astype(np.float32)
  lo, hi = np.float32(-2.0), np.float32(4.0)
  scale = np.float32(255.0 / 6.0)
  want = np.round((np.clip(x, lo, hi) - lo) * scale)   # no .5 ties in this draw
  with tf.Graph().as_default():
    q = tf.quantize_v2(x, -2.0, 4.0, tf.quint8)
    with tf.Session() as sess:
      got = sess.run(q.output)
  np.testing.assert_array_equal(got, want.astype(np.uint8))


def test_per_axis_ranges():
  x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10 - 1
  lo, hi = [-1.0, -0.5, 0.0], [1.0, 0.5, 2.0]
  with tf.Graph().as_default():
    q = tf.quantization.quantize(x, lo, hi, tf.qint8, mode="SCALED", axis=1)
    assert q.output_min.shape.as_list() == [3]
    d = tf.dequantize(q.output, q.output_min, q.output_max, mode="SCALED", axis=1)
    single = [tf.quantization.quantize(x[:, i], lo[i], hi[i], tf.qint8, mode="SCALED")
              for i in range(3)]
    with tf.Session() as sess:
      qv, dv, sv = sess.run([q.output, d, single])
  for i in range(3):
    np.testing.assert_array_equal(qv[:, i], sv[i].output)
  assert dv.shape == x.shape


def test_errors():
  x = np.ones((3, 4), np.float32)
  with tf.Graph().as_default():
    bad_range = tf.quantization.quantize(x, 1.0, -1.0, tf.quint8)
    bad_round = tf.quantization.quantize(x, -1.0, 1.0, tf.quint8, round_mode="HALF_TO_EVEN")
    q = tf.quantization.quantize(x, -1.0, 1.0, tf.quint8)
    first_axis = tf.quantization.dequantize(q.output, [0.0] * 4, [1.0] * 4, mode="MIN_FIRST",
                                            axis=1)
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
      tf.quantization.quantize(x, [-1.0], [1.0], tf.quint8)
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 4"):
      tf.quantization.quantize(x, [-1.0, 0.0], [1.0, 2.0], tf.quint8, axis=1)
    with pytest.raises(TypeError):
      tf.quantization.quantize(x, -1.0, 1.0, tf.float32)
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match="input_max_range must be larger than input_min_range"):
        sess.run(bad_range)
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match="Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED'"):
        sess.run(bad_round)
      with pytest.raises(tf.errors.UnimplementedError, match="MIN_FIRST mode is not implemented"):
        sess.run(first_axis)


QDQ_X = np.array([-3.3, -1.0, -0.25, 0.0, 0.3, 1.25, 2.6, 5.0], np.float32)
QDQ_CASES = [  # (kwargs, TF 2.21's output)
    ({}, [-3.307086706161499, -0.9842519760131836, -0.23622047901153564, 0.0, 0.31496062874794006,
          1.2598425149917603, 2.5984251499176025, 5.0]),
    (dict(range_given=True, num_bits=4),
     [-3.4285714626312256, -0.8571428656578064, -0.4285714328289032, 0.0, 0.4285714328289032,
      1.2857142686843872, 2.5714285373687744, 3.0]),
    (dict(range_given=True, signed_input=False, round_mode="HALF_UP", num_bits=3),
     [0.0, 0.0, 0.0, 0.0, 0.4285714328289032, 1.2857142686843872, 2.5714285373687744, 3.0]),
    (dict(narrow_range=True, num_bits=2), [-5.0, -0.0, -0.0, 0.0, 0.0, 0.0, 5.0, 5.0]),
]


@pytest.mark.parametrize("kw,want", QDQ_CASES)
def test_quantize_and_dequantize_matches_tf(kw, want):
  lo, hi = (-2.0, 3.0) if kw.get("range_given") else (0.0, 0.0)
  with tf.Graph().as_default():
    out = tf.quantization.quantize_and_dequantize(QDQ_X, lo, hi, **kw)
    assert out.op.type == "QuantizeAndDequantizeV2"
    with tf.Session() as sess:
      got = sess.run(out)
  assert got.tolist() == [np.float32(v) for v in want]
  np.testing.assert_array_equal(np.signbit(got), np.signbit(np.array(want, np.float32)))


def test_quantize_and_dequantize_per_axis_and_gradient():
  x = np.random.RandomState(4).uniform(-2, 4, (2, 3, 4)).astype(np.float32)
  with tf.Graph().as_default():
    xt = tf.constant(x)
    out = tf.quantization.quantize_and_dequantize(xt, [0.0] * 3, [0.0] * 3, axis=1)
    per_slice = [tf.quantization.quantize_and_dequantize(x[:, i], 0.0, 0.0) for i in range(3)]
    (g,) = tf.gradients(out, [xt], grad_ys=tf.constant(np.full(x.shape, 2.0, np.float32)))
    given_axis = tf.quantization.quantize_and_dequantize(xt, [0.0] * 3, [1.0] * 3, axis=1,
                                                         range_given=True)
    with tf.Session() as sess:
      ov, sv, gv = sess.run([out, per_slice, g])
      with pytest.raises(tf.errors.InvalidArgumentError, match="input_min must be a scalar"):
        sess.run(given_axis)
  for i in range(3):
    np.testing.assert_array_equal(ov[:, i], sv[i])
  np.testing.assert_array_equal(gv, np.full(x.shape, 2.0))   # straight through, as TF


CONCAT_CASES = [  # (T, range 1, range 2, TF 2.21's output, min, max)
    ("quint8", (-1.0, 2.0), (0.0, 5.0), [[58, 128, 0, 57, 106], [128, 0, 128, 43, 43]], -1.0, 5.0),
    ("qint32", (-1.0, 2.0), (0.0, 5.0),
     [[-429496736, -429496736, -429496736, 684162880, 0],
      [-376078848, 400542304, -429496736, 736348224, 1115861248]], -5.0, 5.0),
]


@pytest.mark.parametrize("T,r1,r2,want,wmin,wmax", CONCAT_CASES)
def test_quantized_concat_matches_tf(T, r1, r2, want, wmin, wmax):
  rng = np.random.RandomState(1)
  # the same draws as the TF run (earlier cases drawn first)
  for _ in range(1 if T == "quint8" else 5):
    rng.uniform(-3, 5, (2, 3)), rng.uniform(-3, 5, (2, 2))
  a_x = rng.uniform(-3, 5, (2, 3)).astype(np.float32)
  b_x = rng.uniform(-3, 5, (2, 2)).astype(np.float32)
  with tf.Graph().as_default():
    a = tf.quantization.quantize(a_x, r1[0], r1[1], getattr(tf, T))
    b = tf.quantization.quantize(b_x, r2[0], r2[1], getattr(tf, T))
    c = tf.quantization.quantized_concat(1, [a.output, b.output], [a.output_min, b.output_min],
                                         [a.output_max, b.output_max])
    assert c[0].op.type == "QuantizedConcat" and c[0].shape.as_list() == [2, 5]
    with tf.Session() as sess:
      out, mn, mx = sess.run(c)
  assert out.tolist() == want and float(mn) == wmin and float(mx) == wmax


def test_quantized_concat_same_range_copies():
  with tf.Graph().as_default():
    a = tf.quantization.quantize(np.float32([[0.5, 1.5]]), -1.0, 2.0, tf.quint8)
    c = tf.quantized_concat(0, [a.output, a.output], [a.output_min] * 2, [a.output_max] * 2)
    with tf.Session() as sess:
      av, (cv, mn, mx) = sess.run([a.output, c])
  np.testing.assert_array_equal(cv, np.concatenate([av, av]))
  assert (float(mn), float(mx)) == (-1.0, 2.0)
