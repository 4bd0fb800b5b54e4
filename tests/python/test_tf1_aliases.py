"""TF 1.x names that are aliases of, or thin compositions over, existing ops: signatures as
in TF 1.15, values checked against NumPy, gradients by finite differences, bad inputs."""
import inspect
import math

import numpy as np
import pytest

import tfc as tf

RNG = np.random.RandomState(7)

SIGNATURES = {
    "arg_max": ["input", "dimension", "output_type", "name"],
    "arg_min": ["input", "dimension", "output_type", "name"],
    "expm1": ["x", "name"],
    "log_sigmoid": ["x", "name"],
    "clip_by_norm": ["t", "clip_norm", "axes", "name"],
    "clip_by_global_norm": ["t_list", "clip_norm", "use_norm", "name"],
    "global_norm": ["t_list", "name"],
    "clip_by_average_norm": ["t", "clip_norm", "name"],
    "where_v2": ["condition", "x", "y", "name"],
    "reverse_v2": ["tensor", "axis", "name"],
    "scatter_mul": ["ref", "indices", "updates", "use_locking", "name"],
    "scatter_div": ["ref", "indices", "updates", "use_locking", "name"],
    "scatter_max": ["ref", "indices", "updates", "use_locking", "name"],
    "scatter_min": ["ref", "indices", "updates", "use_locking", "name"],
    "sequence_mask": ["lengths", "maxlen", "dtype", "name"],
    "Assert": ["condition", "data", "summarize", "name"],
    "verify_tensor_all_finite": ["t", "msg", "name"],
    "tables_initializer": ["name"],
    "initialize_all_tables": ["name"],
    "op_scope": ["values", "name", "default_name"],
    "lin_space": ["start", "stop", "num", "name"],
    "linspace": ["start", "stop", "num", "name"],
    "eye": ["num_rows", "num_columns", "batch_shape", "dtype", "name"],
    "random_crop": ["value", "size", "seed", "name"],
    "norm": ["tensor", "ord", "axis", "keepdims", "name", "keep_dims"],
    "is_numeric_tensor": ["tensor"],
    "is_non_decreasing": ["x", "name"],
    "is_strictly_increasing": ["x", "name"],
    "broadcast_static_shape": ["shape_x", "shape_y"],
    "nn.relu_layer": ["x", "weights", "biases", "name"],
    "nn.l2_normalize": ["x", "axis", "epsilon", "name", "dim"],
    "nn.zero_fraction": ["value", "name"],
    "nn.crelu": ["features", "name", "axis"],
    "nn.swish": ["features"],
    "nn.log_poisson_loss": ["targets", "log_input", "compute_full_loss", "name"],
    "nn.weighted_cross_entropy_with_logits": ["labels", "logits", "pos_weight", "name",
                                              "targets"],
    "nn.conv1d": ["value", "filters", "stride", "padding", "use_cudnn_on_gpu", "data_format",
                  "name", "input", "dilations"],
    "nn.conv2d_transpose": ["value", "filter", "output_shape", "strides", "padding",
                            "data_format", "name", "input", "filters", "dilations"],
    "nn.conv2d_backprop_input": ["input_sizes", "filter", "out_backprop", "strides", "padding",
                                 "use_cudnn_on_gpu", "data_format", "dilations", "name",
                                 "filters"],
    "nn.conv2d_backprop_filter": ["input", "filter_sizes", "out_backprop", "strides",
                                  "padding", "use_cudnn_on_gpu", "data_format", "dilations",
                                  "name"],
    "nn.depthwise_conv2d": ["input", "filter", "strides", "padding", "rate", "name",
                            "data_format", "dilations"],
    "nn.separable_conv2d": ["input", "depthwise_filter", "pointwise_filter", "strides",
                            "padding", "rate", "name", "data_format", "dilations"],
    "nn.depthwise_conv2d_native_backprop_input": ["input_sizes", "filter", "out_backprop",
                                                  "strides", "padding", "data_format",
                                                  "dilations", "name"],
    "nn.embedding_lookup": ["params", "ids", "partition_strategy", "name", "validate_indices",
                            "max_norm"],
    "nn.batch_norm_with_global_normalization": ["t", "m", "v", "beta", "gamma",
                                                "variance_epsilon",
                                                "scale_after_normalization", "name"],
    "nn.sufficient_statistics": ["x", "axes", "shift", "keep_dims", "name"],
    "nn.normalize_moments": ["counts", "mean_ss", "variance_ss", "shift", "name"],
    "nn.weighted_moments": ["x", "axes", "frequency_weights", "name", "keep_dims"],
    "nn.max_pool1d": ["input", "ksize", "strides", "padding", "data_format", "name"],
    "nn.avg_pool1d": ["input", "ksize", "strides", "padding", "data_format", "name"],
    "math.reciprocal_no_nan": ["x", "name"],
    "math.unsorted_segment_mean": ["data", "segment_ids", "num_segments", "name"],
    "math.unsorted_segment_sqrt_n": ["data", "segment_ids", "num_segments", "name"],
    "math.confusion_matrix": ["labels", "predictions", "num_classes", "dtype", "name",
                              "weights"],
    "train.cosine_decay": ["learning_rate", "global_step", "decay_steps", "alpha", "name"],
    "train.cosine_decay_restarts": ["learning_rate", "global_step", "first_decay_steps",
                                    "t_mul", "m_mul", "alpha", "name"],
    "train.linear_cosine_decay": ["learning_rate", "global_step", "decay_steps",
                                  "num_periods", "alpha", "beta", "name"],
    "train.noisy_linear_cosine_decay": ["learning_rate", "global_step", "decay_steps",
                                        "initial_variance", "variance_decay", "num_periods",
                                        "alpha", "beta", "name"],
    "math.reduce_variance": ["input_tensor", "axis", "keepdims", "name"],
    "math.reduce_std": ["input_tensor", "axis", "keepdims", "name"],
    "math.divide_no_nan": ["x", "y", "name"],
    "random.categorical": ["logits", "num_samples", "dtype", "seed", "name"],
    "linalg.matvec": ["a", "b", "transpose_a", "adjoint_a", "a_is_sparse", "b_is_sparse",
                      "name"],
}


def resolve(path):
  obj = tf
  for part in path.split("."):
    obj = getattr(obj, part)
  return obj


@pytest.mark.parametrize("path,params", sorted(SIGNATURES.items()))
def test_signatures(path, params):
  got = [p for p in inspect.signature(resolve(path)).parameters]
  assert got[:len(params)] == params


def test_namespace_aliases():
  assert tf.math.expm1 is tf.expm1 and tf.math.log_sigmoid is tf.log_sigmoid
  assert tf.math.softmax is tf.nn.softmax and tf.math.log_softmax is tf.nn.log_softmax
  assert tf.math.l2_normalize is tf.nn.l2_normalize is tf.linalg.l2_normalize
  assert tf.math.zero_fraction is tf.nn.zero_fraction
  assert tf.math.invert_permutation is tf.invert_permutation
  assert tf.math.is_non_decreasing is tf.is_non_decreasing
  assert tf.linalg.eye is tf.eye and tf.linalg.norm is tf.norm
  assert tf.linalg.global_norm is tf.global_norm
  assert tf.linspace is tf.lin_space and tf.reverse_v2 is tf.reverse
  assert tf.nn.silu is tf.nn.swish and tf.initialize_all_tables is tf.tables_initializer
  assert tf.initializers.tables_initializer is tf.tables_initializer
  assert tf.dtypes.cast is tf.cast and tf.dtypes.saturate_cast is tf.saturate_cast
  assert tf.graph_util.import_graph_def is tf.import_graph_def
  assert tf.OpError is tf.errors.OpError
  assert tf.compat.dimension_value(tf.Dimension(4)) == 4
  assert tf.compat.dimension_at_index(tf.TensorShape([2, 5]), 1).value == 5
  import pathlib
  assert tf.compat.path_to_str(pathlib.Path("/a/b")) == "/a/b"
  assert tf.compat.path_to_str("x") == "x"
  with tf.compat.forward_compatibility_horizon(2019, 1, 1):
    assert tf.compat.forward_compatible(2019, 1, 1)
  assert tf.version.VERSION == tf.VERSION and tf.version.GIT_VERSION == tf.GIT_VERSION
  assert tf.version.GRAPH_DEF_VERSION == tf.Graph().graph_def_versions.producer
  assert tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER == 0
  assert not tf.executing_eagerly_outside_functions()
  assert not tf.test.is_built_with_gpu_support() and not tf.test.is_built_with_xla()


def run(fetches, feed_dict=None):
  with tf.Session() as sess:
    return sess.run(fetches, feed_dict)


def test_arg_max_arg_min():
  x = RNG.rand(3, 5).astype(np.float32)
  with tf.Graph().as_default():
    a, b, c = tf.arg_max(x, 1), tf.arg_min(x, 0), tf.arg_max(x, 0, output_type=tf.int32)
    assert a.op.type == "ArgMax" and b.op.type == "ArgMin" and a.dtype == tf.int64
    assert c.dtype == tf.int32
    got = run([a, b, c])
  np.testing.assert_array_equal(got[0], x.argmax(1))
  np.testing.assert_array_equal(got[1], x.argmin(0))
  np.testing.assert_array_equal(got[2], x.argmax(0))


def test_elementwise_math():
  x = np.array([-30., -1., -1e-4, 0., 1e-4, 2., 30.], np.float32)
  with tf.Graph().as_default():
    got = run([tf.expm1(x), tf.log_sigmoid(x), tf.math.reciprocal_no_nan(x),
               tf.math.divide_no_nan(x, np.zeros_like(x))])
  np.testing.assert_allclose(got[0], np.expm1(x), rtol=1e-6)
  np.testing.assert_allclose(got[1], -np.logaddexp(0, -x.astype(np.float64)), rtol=1e-6)
  recip = np.where(x == 0, 0, 1 / np.where(x == 0, 1, x))
  np.testing.assert_allclose(got[2], recip, rtol=1e-6)
  np.testing.assert_array_equal(got[3], np.zeros_like(x))
  with tf.Graph().as_default():
    # log_sigmoid stays finite where log(sigmoid(x)) would underflow
    assert np.isfinite(run(tf.log_sigmoid(tf.constant([-200.0]))))[0]


def test_reduce_variance_and_std():
  x = RNG.rand(4, 6).astype(np.float32)
  with tf.Graph().as_default():
    got = run([tf.math.reduce_variance(x), tf.math.reduce_variance(x, axis=1, keepdims=True),
               tf.math.reduce_std(x, axis=0)])
  np.testing.assert_allclose(got[0], x.var(), rtol=1e-5)
  np.testing.assert_allclose(got[1], x.var(axis=1, keepdims=True), rtol=1e-5)
  np.testing.assert_allclose(got[2], x.std(axis=0), rtol=1e-5)


def test_monotonic_checks():
  with tf.Graph().as_default():
    cases = [[1, 2, 2, 5], [1, 2, 3], [3, 1], [], [4], [[1, 2], [3, 4]]]
    got = run([(tf.is_non_decreasing(c if c else tf.zeros([0])),
                tf.is_strictly_increasing(c if c else tf.zeros([0]))) for c in cases])
  for c, (nd, si) in zip(cases, got):
    flat = np.ravel(c)
    assert nd == bool(np.all(np.diff(flat) >= 0)), c
    assert si == bool(np.all(np.diff(flat) > 0)), c
  with tf.Graph().as_default():
    assert tf.is_numeric_tensor(tf.constant(1)) and not tf.is_numeric_tensor(tf.constant("a"))
    assert not tf.is_numeric_tensor(np.float32(1.0))
    with pytest.raises(TypeError, match="Expected x to be numeric"):
      tf.is_non_decreasing(tf.constant(["a", "b"]))


@pytest.mark.parametrize("start,stop,num,dtype", [
    (0.0, 1.0, 5, np.float32), (0.1, 0.7, 7, np.float32), (-1.3, 2.9, 11, np.float64),
    (5.0, -5.0, 4, np.float32), (1.0, 2.0, 1, np.float32), (1.0, 2.0, 0, np.float32)])
def test_lin_space(start, stop, num, dtype):
  with tf.Graph().as_default():
    out = tf.lin_space(dtype(start), dtype(stop), num)
    assert out.dtype == tf.as_dtype(dtype)
    got = run(out)
  step = (dtype(stop) - dtype(start)) / dtype(max(num - 1, 1))
  want = np.array([dtype(start) + dtype(i) * step for i in range(num)], dtype)
  if num > 1:
    want[-1] = stop  # the last value is exactly `stop`, as TF's kernel makes it
  np.testing.assert_array_equal(got, want)


def test_lin_space_fed_num_and_errors():
  with tf.Graph().as_default():
    n = tf.placeholder(tf.int32, [])
    out = tf.linspace(0.0, 3.0, n)
    with tf.Session() as sess:
      np.testing.assert_array_equal(sess.run(out, {n: 4}), [0, 1, 2, 3])
    with pytest.raises(TypeError):
      tf.lin_space(0, 3, 4)
    with pytest.raises(ValueError, match="scalar"):
      tf.lin_space([0.0, 1.0], 3.0, 4)


@pytest.mark.parametrize("ord_,axis", [
    ("euclidean", None), ("fro", (0, 1)), (1, None), (1, 1), (2, 0), (np.inf, 1), (3, 1),
    (0.5, 0), (1, (0, 1)), (np.inf, (0, 1)), ("euclidean", -1)])
def test_norm(ord_, axis):
  x = RNG.randn(3, 4).astype(np.float32)
  with tf.Graph().as_default():
    got, kept = run([tf.norm(x, ord=ord_, axis=axis), tf.norm(x, ord=ord_, axis=axis,
                                                             keepdims=True)])
  np_ord = None if ord_ in ("euclidean", "fro") else ord_
  if axis is None:
    want = np.linalg.norm(x.ravel(), ord=np_ord)
  elif isinstance(axis, tuple):
    want = np.linalg.norm(x, ord="fro" if np_ord is None else np_ord, axis=axis)
  else:
    want = np.linalg.norm(x, ord=np_ord, axis=axis)
  np.testing.assert_allclose(got, want, rtol=1e-5)
  assert kept.ndim == 2


def test_norm_errors():
  with tf.Graph().as_default():
    x = tf.ones([2, 2])
    with pytest.raises(ValueError, match="'ord' must be a supported vector norm"):
      tf.norm(x, ord=-1)
    with pytest.raises(ValueError, match="'ord' must be a supported matrix norm"):
      tf.norm(x, ord=3, axis=(0, 1))
    with pytest.raises(ValueError, match="'axis' must be None"):
      tf.norm(x, axis=(0, 0))
    with pytest.raises(NotImplementedError, match="singular value"):
      tf.norm(x, ord=2, axis=(0, 1))


def test_clip_by_norm():
  x = np.array([[3.0, 4.0], [0.0, 0.0], [0.3, 0.4]], np.float32)
  with tf.Graph().as_default():
    got = run([tf.clip_by_norm(x, 1.0), tf.clip_by_norm(x, 1.0, axes=[1]),
               tf.clip_by_norm(x, 100.0)])
  np.testing.assert_allclose(got[0], x / np.linalg.norm(x), rtol=1e-6)
  rows = np.linalg.norm(x, axis=1, keepdims=True)
  np.testing.assert_allclose(got[1], x / np.maximum(rows, 1.0), rtol=1e-6)
  np.testing.assert_allclose(got[2], x, rtol=1e-6)


def test_clip_by_norm_gradient_of_zero_is_finite():
  with tf.Graph().as_default():
    v = tf.constant([0.0, 0.0])
    g = tf.gradients(tf.reduce_sum(tf.clip_by_norm(v, 1.0)), v)[0]
    assert np.all(np.isfinite(run(g)))


def test_global_norm_and_clip_by_global_norm():
  a = RNG.randn(3, 2).astype(np.float32)
  b = RNG.randn(4).astype(np.float32)
  norm = np.sqrt((a ** 2).sum() + (b ** 2).sum())
  with tf.Graph().as_default():
    (ca, none, cb), used = tf.clip_by_global_norm([a, None, b], 1.0)
    assert none is None
    got = run([tf.global_norm([a, None, b]), ca, cb, used])
    big = run(tf.clip_by_global_norm([a], 1000.0)[0][0])
    custom = run(tf.clip_by_global_norm([a], 1.0, use_norm=tf.constant(2.0))[0][0])
    inf = run(tf.clip_by_global_norm([tf.constant([np.inf, 1.0])], 1.0)[0][0])
  np.testing.assert_allclose(got[0], norm, rtol=1e-5)
  np.testing.assert_allclose(got[1], a / norm, rtol=1e-5)
  np.testing.assert_allclose(got[2], b / norm, rtol=1e-5)
  np.testing.assert_allclose(got[3], norm, rtol=1e-5)
  np.testing.assert_allclose(big, a, rtol=1e-6)
  np.testing.assert_allclose(custom, a / 2.0, rtol=1e-6)
  assert np.all(np.isnan(inf))
  with tf.Graph().as_default():
    with pytest.raises(TypeError, match="should be a sequence"):
      tf.clip_by_global_norm(tf.constant([1.0]), 1.0)


def test_clip_by_global_norm_in_a_training_step():
  with tf.Graph().as_default():
    w = tf.Variable([[10.0, -10.0]])
    loss = tf.reduce_sum(tf.square(w))
    opt = tf.train.GradientDescentOptimizer(0.5)
    grads, variables = zip(*opt.compute_gradients(loss))
    clipped, norm = tf.clip_by_global_norm(grads, 1.0)
    step = opt.apply_gradients(zip(clipped, variables))
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      n, _ = sess.run([norm, step])
      np.testing.assert_allclose(n, np.sqrt(800.0), rtol=1e-6)
      np.testing.assert_allclose(sess.run(w), [[10 - 0.5 / np.sqrt(2), -10 + 0.5 / np.sqrt(2)]],
                                 rtol=1e-6)


def test_clip_by_average_norm():
  x = np.array([[3.0, 4.0]], np.float32)
  with tf.Graph().as_default():
    got = run([tf.clip_by_average_norm(x, 1.0), tf.clip_by_average_norm(x, 10.0)])
  # average norm 5 / 2 = 2.5 > 1: scaled to 1 * 2 / 5
  np.testing.assert_allclose(got[0], x * 2.0 / 5.0, rtol=1e-6)
  np.testing.assert_allclose(got[1], x, rtol=1e-6)


def test_where_v2_broadcasts():
  cond = np.array([True, False, True])
  x = RNG.rand(2, 3).astype(np.float32)
  with tf.Graph().as_default():
    out = tf.where_v2(cond, x, 0.0)
    assert out.op.type == "SelectV2" and out.shape.as_list() == [2, 3]
    got, idx = run([out, tf.where_v2([[True, False], [False, True]])])
  np.testing.assert_array_equal(got, np.where(cond, x, 0.0))
  np.testing.assert_array_equal(idx, [[0, 0], [1, 1]])
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="both be non-None"):
      tf.where_v2(cond, x)


def test_scatter_mul_div_max_min():
  with tf.Graph().as_default():
    refs = [tf.Variable([1.0, 2.0, 3.0, 4.0]) for _ in range(4)]
    idx, upd = [0, 2], [5.0, 0.5]
    ops = [tf.scatter_mul(refs[0], idx, upd), tf.scatter_div(refs[1], idx, upd),
           tf.scatter_max(refs[2], idx, upd), tf.scatter_min(refs[3], idx, upd)]
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      got = sess.run(ops)
      with pytest.raises(tf.errors.InvalidArgumentError):
        sess.run(tf.scatter_mul(refs[0], [9], [1.0]))
  np.testing.assert_allclose(got[0], [5, 2, 1.5, 4])
  np.testing.assert_allclose(got[1], [0.2, 2, 6, 4])
  np.testing.assert_allclose(got[2], [5, 2, 3, 4])
  np.testing.assert_allclose(got[3], [1, 2, 0.5, 4])


def test_sequence_mask():
  with tf.Graph().as_default():
    m1 = tf.sequence_mask([1, 3, 2], 5)
    m2 = tf.sequence_mask([[1, 3], [2, 0]])
    m3 = tf.sequence_mask(tf.constant([2, 0], tf.int64), dtype=tf.float32)
    assert m1.dtype == tf.bool and m3.dtype == tf.float32
    got = run([m1, m2, m3])
    with pytest.raises(ValueError, match="maxlen must be scalar"):
      tf.sequence_mask([1], [2, 3])
  np.testing.assert_array_equal(got[0], np.arange(5) < np.array([1, 3, 2])[:, None])
  np.testing.assert_array_equal(got[1], np.arange(3) < np.array([[1, 3], [2, 0]])[..., None])
  np.testing.assert_array_equal(got[2], [[1, 1], [0, 0]])


def test_eye():
  with tf.Graph().as_default():
    n = tf.placeholder(tf.int32, [])
    got = run([tf.eye(3), tf.eye(2, 4, dtype=tf.int32), tf.eye(2, batch_shape=[3]),
               tf.eye(n)], {n: 2})
  np.testing.assert_array_equal(got[0], np.eye(3, dtype=np.float32))
  np.testing.assert_array_equal(got[1], np.eye(2, 4, dtype=np.int32))
  np.testing.assert_array_equal(got[2], np.broadcast_to(np.eye(2), (3, 2, 2)))
  np.testing.assert_array_equal(got[3], np.eye(2))
  assert got[1].dtype == np.int32


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid(indexing):
  x, y, z = np.arange(3), np.arange(4) * 10, np.arange(2) * 100
  with tf.Graph().as_default():
    got = run(tf.meshgrid(x, y, z, indexing=indexing))
  for g, w in zip(got, np.meshgrid(x, y, z, indexing=indexing)):
    np.testing.assert_array_equal(g, w)
  with tf.Graph().as_default():
    with pytest.raises(TypeError, match="invalid keyword"):
      tf.meshgrid(x, y, bogus=1)
    with pytest.raises(ValueError, match="'xy' or 'ij'"):
      tf.meshgrid(x, y, indexing="yx")


def test_broadcast_static_shape():
  f = lambda a, b: tf.broadcast_static_shape(tf.TensorShape(a), tf.TensorShape(b))  # noqa: E731
  assert f([2, 1, 3], [4, 1]).as_list() == [2, 4, 3]
  assert f([None, 3], [5, 1]).as_list() == [5, 3]
  assert f([None], [1]).as_list() == [None]
  assert f([], [2, 2]).as_list() == [2, 2]
  assert f(None, [2]).ndims is None
  with pytest.raises(ValueError, match="Incompatible shapes for broadcasting"):
    f([2], [3])


def test_assert():
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [2])
    check = tf.Assert(tf.reduce_all(x > 0), ["x must be positive:", x], summarize=5)
    assert check.type == "Assert"
    with tf.control_dependencies([check]):
      y = tf.identity(x)
    with tf.Session() as sess:
      np.testing.assert_array_equal(sess.run(y, {x: [1, 2]}), [1, 2])
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match=r"assertion failed: \[x must be positive:\] \[-1 2\]"):
        sess.run(y, {x: [-1, 2]})


def test_verify_tensor_all_finite_and_add_check_numerics_ops():
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [2])
    y = tf.verify_tensor_all_finite(x * 2.0, "bad x")
    with tf.Session() as sess:
      np.testing.assert_array_equal(sess.run(y, {x: [1, 2]}), [2, 4])
      with pytest.raises(tf.errors.InvalidArgumentError, match="bad x"):
        sess.run(y, {x: [np.nan, 2]})
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [2])
    z = tf.log(x, name="the_log")
    check = tf.add_check_numerics_ops()
    with tf.Session() as sess:
      sess.run([z, check], {x: [1, 2]})
      with pytest.raises(tf.errors.InvalidArgumentError, match="the_log:0"):
        sess.run([z, check], {x: [0, 2]})


def test_tables_initializer():
  with tf.Graph().as_default():
    assert tf.tables_initializer().type == "NoOp"
    assert tf.tables_initializer().name.startswith("init_all_tables")
    v = tf.Variable(1.0)
    tf.add_to_collection(tf.GraphKeys.TABLE_INITIALIZERS, v.initializer)
    init = tf.tables_initializer()
    with tf.Session() as sess:
      sess.run(init)
      assert sess.run(v) == 1.0


def test_op_scope():
  with tf.Graph().as_default():
    with tf.op_scope([], "outer", "default") as scope:
      assert scope == "outer/"
      assert tf.constant(1.0, name="c").op.name == "outer/c"
    with tf.op_scope([], None, "default") as scope:
      assert scope == "default/"


def test_random_crop():
  value = np.arange(5 * 6 * 3).reshape(5, 6, 3).astype(np.float32)
  with tf.Graph().as_default():
    crop = tf.random_crop(value, [2, 3, 3], seed=3)
    with tf.Session() as sess:
      seen = set()
      for _ in range(20):
        c = sess.run(crop)
        assert c.shape == (2, 3, 3)
        i, j = int(c[0, 0, 0]) // 18, (int(c[0, 0, 0]) % 18) // 3
        np.testing.assert_array_equal(c, value[i:i + 2, j:j + 3])
        seen.add((i, j))
      assert len(seen) > 3
      with pytest.raises(tf.errors.InvalidArgumentError, match="Need value.shape >= size"):
        sess.run(tf.random_crop(value, [6, 1, 1]))


def test_categorical():
  with tf.Graph().as_default():
    logits = tf.constant(np.log([[0.1, 0.9], [0.9, 0.1]]).astype(np.float32))
    s = tf.random.categorical(logits, 2000, seed=1)
    s32 = tf.random.categorical(logits, 3, dtype=tf.int32)
    assert s.dtype == tf.int64 and s32.dtype == tf.int32
    got = run(s)
  assert got.shape == (2, 2000)
  assert abs(got[0].mean() - 0.9) < 0.05 and abs(got[1].mean() - 0.1) < 0.05


def test_matvec():
  a = RNG.rand(2, 3, 4).astype(np.float32)
  b = RNG.rand(2, 4).astype(np.float32)
  with tf.Graph().as_default():
    got = run([tf.linalg.matvec(a, b), tf.linalg.matvec(a[0].T, b[0], transpose_a=True)])
  np.testing.assert_allclose(got[0], np.einsum("bij,bj->bi", a, b), rtol=1e-5)
  np.testing.assert_allclose(got[1], a[0] @ b[0], rtol=1e-5)


def test_unsorted_segment_mean_and_sqrt_n():
  data = RNG.randn(6, 3).astype(np.float32)
  ids = np.array([0, 2, 2, -1, 0, 2])
  with tf.Graph().as_default():
    got = run([tf.math.unsorted_segment_mean(data, ids, 4),
               tf.math.unsorted_segment_sqrt_n(data, ids, 4),
               tf.unsorted_segment_mean(data[:, 0], ids, 3)])
  for seg in range(4):
    rows = data[ids == seg]
    want_mean = rows.mean(0) if len(rows) else np.zeros(3)
    want_sqrt = rows.sum(0) / np.sqrt(len(rows)) if len(rows) else np.zeros(3)
    np.testing.assert_allclose(got[0][seg], want_mean, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(got[1][seg], want_sqrt, rtol=1e-5, atol=1e-7)
  np.testing.assert_allclose(got[2], got[0][:3, 0], rtol=1e-6)


def test_confusion_matrix():
  labels, predictions = [1, 2, 4, 2], [2, 2, 4, 0]
  with tf.Graph().as_default():
    cm = tf.math.confusion_matrix(labels, predictions)
    weighted = tf.confusion_matrix(labels, predictions, num_classes=6,
                                   weights=[1.0, 2.0, 3.0, 4.0], dtype=tf.float32)
    assert cm.dtype == tf.int32 and weighted.dtype == tf.float32
    got = run([cm, weighted])
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="out of bound"):
        sess.run(tf.math.confusion_matrix([1, 5], [0, 1], num_classes=3))
      with pytest.raises(tf.errors.InvalidArgumentError, match="negative values"):
        sess.run(tf.math.confusion_matrix([1, -1], [0, 1]))
  want = np.zeros((5, 5), np.int32)
  np.add.at(want, (labels, predictions), 1)
  np.testing.assert_array_equal(got[0], want)
  want_w = np.zeros((6, 6), np.float32)
  np.add.at(want_w, (labels, predictions), [1.0, 2.0, 3.0, 4.0])
  np.testing.assert_array_equal(got[1], want_w)


def test_more_math_compositions():
  x = np.array([0.0, 0.0, 1.0, 2.0, -1.0, 3.0], np.float32)
  y = np.array([0.0, 2.0, 0.0, 3.0, 4.0, 0.5], np.float32)
  d = RNG.randn(6, 2).astype(np.float32)
  with tf.Graph().as_default():
    got = run([tf.math.xlogy(x, np.abs(y)), tf.math.xdivy(x, y),
               tf.math.multiply_no_nan([np.inf, np.nan, 2.0], [0.0, 0.0, 3.0]),
               tf.math.polyval([1.0, -2.0, 3.0], x),
               tf.rint([0.5, 1.5, 2.5, -0.5, -1.7, 2.2]),
               tf.math.reduce_euclidean_norm(d, axis=1),
               tf.math.reduce_euclidean_norm(np.array([[3, 4], [1, 1]], np.int32), axis=1),
               tf.angle(x), tf.real(x), tf.imag(x),
               tf.segment_sum(d, [0, 0, 1, 3, 3, 3]), tf.math.segment_mean(d, [0, 0, 1, 3, 3, 3]),
               tf.bincount([1, 1, 5, 0]),
               tf.math.bincount([1, 1, 5, 0], weights=[1.0, 2.0, 3.0, 4.0], minlength=8),
               tf.math.bincount([1, 1, 5, 0], maxlength=3),
               tf.math.bincount(np.zeros([0], np.int32), minlength=2)])
  with np.errstate(divide="ignore", invalid="ignore"):
    np.testing.assert_allclose(got[0], np.where(x == 0, 0, x * np.log(np.abs(y))), rtol=1e-6)
    np.testing.assert_allclose(got[1], np.where(x == 0, 0, x / y), rtol=1e-6)
  np.testing.assert_array_equal(got[2], [0, 0, 6])
  np.testing.assert_allclose(got[3], x ** 2 - 2 * x + 3, rtol=1e-6)
  np.testing.assert_array_equal(got[4], np.rint([0.5, 1.5, 2.5, -0.5, -1.7, 2.2]))
  np.testing.assert_allclose(got[5], np.linalg.norm(d, axis=1), rtol=1e-6)
  np.testing.assert_array_equal(got[6], [5, 1])
  np.testing.assert_array_equal(got[7], np.where(x < 0, np.pi, 0).astype(np.float32))
  np.testing.assert_array_equal(got[8], x)
  np.testing.assert_array_equal(got[9], np.zeros_like(x))
  sums = np.stack([d[:2].sum(0), d[2], np.zeros(2), d[3:].sum(0)])
  np.testing.assert_allclose(got[10], sums, rtol=1e-6)
  np.testing.assert_allclose(got[11], np.stack([d[:2].mean(0), d[2], np.zeros(2),
                                               d[3:].mean(0)]), rtol=1e-6)
  np.testing.assert_array_equal(got[12], np.bincount([1, 1, 5, 0]))
  np.testing.assert_array_equal(got[13], np.bincount([1, 1, 5, 0], [1, 2, 3, 4], minlength=8))
  np.testing.assert_array_equal(got[14], [1, 2, 0])
  np.testing.assert_array_equal(got[15], [0, 0])
  with tf.Graph().as_default():
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="must be non-negative"):
        sess.run(tf.bincount([1, -1]))
      with pytest.raises(tf.errors.InvalidArgumentError, match="not increasing"):
        sess.run(tf.segment_sum([1.0, 2.0], [1, 0]))
    with pytest.raises(ValueError, match="must be list type"):
      tf.math.polyval((1.0, 2.0), 1.0)
