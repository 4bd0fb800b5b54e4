"""tf.nn.dynamic_rnn / bidirectional_dynamic_rnn: TF's graph (a while loop
over TensorArrays), TF's variable names, and TF's outputs and gradients for
models whose weights and results real TensorFlow wrote
(tools/make_rnn_fixtures.py -> tests/fixtures/rnn/); sequence_length,
time_major, initial_state, swap_memory/parallel_iterations; errors."""
import pathlib

import numpy as np
import pytest

import tfc as tf

rc = tf.nn.rnn_cell
FIX = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "rnn"


def dense(x, units, name):
  with tf.variable_scope(name):
    depth = x.shape[-1].value
    kernel = tf.get_variable("kernel", [depth, units])
    bias = tf.get_variable("bias", [units])
  flat = tf.reshape(x, [-1, depth])
  out = tf.matmul(flat, kernel) + bias
  return tf.reshape(out, tf.concat([tf.shape(x)[:-1], [units]], 0))


def _check(data, build):
  with tf.Graph().as_default():
    placeholders, outs, loss = build()
    variables = tf.global_variables()
    names = sorted(v.op.name for v in variables)
    assert names == sorted(k[4:] for k in data.files if k.startswith("var:"))
    float_inputs = [k for k in placeholders if placeholders[k].dtype == tf.float32]
    grads = tf.gradients(loss, variables + [placeholders[k] for k in float_inputs])
    # an embedding's gradient is an IndexedSlices (as in TF): compare it densified
    grads = [tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g for g in grads]
    ops = {op.type for op in tf.get_default_graph().get_operations()}
    assert {"TensorArrayV3", "TensorArrayScatterV3", "TensorArrayReadV3", "TensorArrayWriteV3",
            "TensorArrayGatherV3", "StackPushV2", "StackPopV2", "TensorArrayGradV3"} <= ops
    with tf.Session() as sess:
      for v in variables:
        v.load(data["var:" + v.op.name], sess)
      feed = {placeholders[k]: data["feed:" + k] for k in placeholders}
      res_outs, res_loss, res_grads = sess.run([outs, loss, grads], feed)
  for k, v in res_outs.items():
    np.testing.assert_allclose(v, data["out:" + k], rtol=1e-5, atol=1e-6, err_msg=k)
  np.testing.assert_allclose(res_loss, data["out:loss"], rtol=1e-5)
  for n, gv in zip([v.op.name for v in variables] + float_inputs, res_grads):
    np.testing.assert_allclose(gv, data["grad:" + n], rtol=1e-4, atol=1e-6, err_msg=n)


def test_lstm_language_model_matches_tensorflow():
  def build():
    tokens = tf.placeholder(tf.int32, [4, 9], name="tokens")
    emb = tf.get_variable("embedding", [23, 8])
    x = tf.nn.embedding_lookup(emb, tokens[:, :-1])
    cell = rc.MultiRNNCell([rc.LSTMCell(16, use_peepholes=True),
                            rc.LSTMCell(16, num_proj=12, cell_clip=3.0)])
    outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    assert outputs.shape.as_list() == [4, 8, 12]
    logits = dense(outputs, 23, "softmax")
    # the same mean as over [4, 8] labels (tfc's op takes rank-2 logits only)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.reshape(tokens[:, 1:], [-1]), logits=tf.reshape(logits, [-1, 23])))
    outs = {"logits": logits, "c0": state[0].c, "h0": state[0].h, "c1": state[1].c,
            "h1": state[1].h}
    return {"tokens": tokens}, outs, loss
  _check(np.load(FIX / "lstm_lm.npz"), build)


def test_gru_classifier_with_sequence_length_matches_tensorflow():
  def build():
    x = tf.placeholder(tf.float32, [5, 7, 3], name="x")
    lengths = tf.placeholder(tf.int32, [5], name="lengths")
    labels = tf.placeholder(tf.int32, [5], name="labels")
    outputs, state = tf.nn.dynamic_rnn(rc.GRUCell(10), x, sequence_length=lengths,
                                       dtype=tf.float32)
    logits = dense(state, 4, "classifier")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                         logits=logits))
    return ({"x": x, "lengths": lengths, "labels": labels},
            {"outputs": outputs, "state": state, "logits": logits}, loss)
  _check(np.load(FIX / "gru_classifier.npz"), build)


def test_bidirectional_time_major_matches_tensorflow():
  def build():
    x = tf.placeholder(tf.float32, [6, 3, 4], name="x")
    (of, ob), (sf, sb) = tf.nn.bidirectional_dynamic_rnn(rc.BasicLSTMCell(6), rc.GRUCell(5), x,
                                                         dtype=tf.float32, time_major=True)
    loss = tf.reduce_sum(of * of) + tf.reduce_sum(tf.sin(ob)) + tf.reduce_sum(sf.h) \
        + tf.reduce_sum(sb)
    return {"x": x}, {"of": of, "ob": ob, "sf_c": sf.c, "sf_h": sf.h, "sb": sb}, loss
  _check(np.load(FIX / "bidir.npz"), build)


def test_initial_state_unknown_batch_and_options():
  rs = np.random.RandomState(0)
  xv = rs.randn(2, 5, 3).astype(np.float32)
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, None, 3])
    cell = rc.BasicRNNCell(4)
    h0 = tf.placeholder(tf.float32, [None, 4])
    out, st = tf.nn.dynamic_rnn(cell, x, initial_state=h0, swap_memory=True,
                                parallel_iterations=1, scope="myrnn")
    assert [v.op.name for v in tf.global_variables()] == ["myrnn/basic_rnn_cell/kernel",
                                                          "myrnn/basic_rnn_cell/bias"]
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      k, b = sess.run(tf.global_variables())
      h0v = rs.randn(2, 4).astype(np.float32)
      ov, sv = sess.run([out, st], {x: xv, h0: h0v})
  h = h0v
  for t in range(5):
    h = np.tanh(np.concatenate([xv[:, t], h], 1) @ k + b)
    np.testing.assert_allclose(ov[:, t], h, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(sv, h, rtol=1e-5, atol=1e-6)


def test_errors():
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="dtype"):
      tf.nn.dynamic_rnn(rc.GRUCell(3), tf.zeros([2, 4, 3]))
    with pytest.raises(ValueError, match="depth of inputs"):
      tf.nn.dynamic_rnn(rc.GRUCell(3), tf.placeholder(tf.float32, [2, 4, None]),
                        dtype=tf.float32)
    with pytest.raises(ValueError, match="sequence_length must be a vector"):
      tf.nn.dynamic_rnn(rc.GRUCell(3), tf.zeros([2, 4, 3]), sequence_length=[[1, 2]],
                        dtype=tf.float32)
    with pytest.raises(TypeError, match="not an RNNCell"):
      tf.nn.dynamic_rnn(object(), tf.zeros([2, 4, 3]), dtype=tf.float32)
    x = tf.zeros([2, 4, 3])
    lengths = tf.placeholder(tf.int32, [None])
    out, _ = tf.nn.dynamic_rnn(rc.GRUCell(3), x, sequence_length=lengths, dtype=tf.float32,
                               scope="checked")
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      with pytest.raises(tf.errors.InvalidArgumentError, match="Expected shape for Tensor"):
        sess.run(out, {lengths: [1, 2, 3]})


def test_bidirectional_with_sequence_length_matches_tensorflow():
  def build():
    x = tf.placeholder(tf.float32, [4, 6, 3], name="x")
    lengths = tf.placeholder(tf.int32, [4], name="lengths")
    (of, ob), (sf, sb) = tf.nn.bidirectional_dynamic_rnn(rc.LSTMCell(5), rc.GRUCell(4), x,
                                                         sequence_length=lengths,
                                                         dtype=tf.float32)
    assert "ReverseSequence" in {op.type for op in tf.get_default_graph().get_operations()}
    loss = tf.reduce_sum(of * of) + tf.reduce_sum(tf.sin(ob)) + tf.reduce_sum(sf.c) \
        + tf.reduce_sum(sb * sb)
    return ({"x": x, "lengths": lengths},
            {"of": of, "ob": ob, "sf_c": sf.c, "sf_h": sf.h, "sb": sb}, loss)
  _check(np.load(FIX / "bidir_seqlen.npz"), build)


def test_static_bidirectional_with_sequence_length_equals_dynamic():
  data = np.load(FIX / "bidir_seqlen.npz")
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [4, 6, 3])
    lengths = tf.placeholder(tf.int32, [4])
    outs, sf, sb = tf.nn.static_bidirectional_rnn(rc.LSTMCell(5), rc.GRUCell(4), tf.unstack(x, axis=1),
                                                  sequence_length=lengths, dtype=tf.float32)
    with tf.Session() as sess:
      for v in tf.global_variables():
        v.load(data["var:" + v.op.name], sess)
      ov, sfv, sbv = sess.run([tf.stack(outs, 1), sf, sb],
                              {x: data["feed:x"], lengths: data["feed:lengths"]})
  np.testing.assert_allclose(ov, np.concatenate([data["out:of"], data["out:ob"]], 2), rtol=1e-5,
                             atol=1e-6)
  np.testing.assert_allclose(sfv.c, data["out:sf_c"], rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(sbv, data["out:sb"], rtol=1e-5, atol=1e-6)
