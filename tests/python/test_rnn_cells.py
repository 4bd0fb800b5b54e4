"""tf.nn.rnn_cell cells and tf.nn.static_rnn / static_bidirectional_rnn: TF 1.15's variable
names (checkpoint-compatible), values against NumPy re-implementations (TensorFlow gives
the same), sequence_length handling, training, wrappers, errors; and tf.nest."""
import collections

import numpy as np
import pytest

import tfc as tf

RNG = np.random.RandomState(21)
rc = tf.nn.rnn_cell


def sigmoid(x):
  return 1 / (1 + np.exp(-x))


def inputs(steps=4, batch=3, depth=4):
  return [RNG.randn(batch, depth).astype(np.float32) for _ in range(steps)]


def run_with_weights(build, seed_weights=True):
  """Builds, gives every variable random values, runs; returns (results, {name: value})."""
  with tf.Graph().as_default():
    out = build()
    with tf.Session() as sess:
      values = {}
      for v in tf.global_variables():
        values[v.op.name] = RNG.uniform(-0.5, 0.5, v.shape.as_list()).astype(np.float32)
        sess.run(v.assign(values[v.op.name]))
      return sess.run(out), values


def lstm_ref(xs, kernel, bias, forget_bias=1.0, lengths=None, peep=None, cell_clip=None,
             proj=None, proj_clip=None):
  n = bias.shape[0] // 4
  batch = xs[0].shape[0]
  out_n = proj.shape[1] if proj is not None else n
  c, h = np.zeros((batch, n)), np.zeros((batch, out_n))
  outputs = []
  for t, x in enumerate(xs):
    z = np.concatenate([x, h], 1) @ kernel + bias
    i, j, f, o = np.split(z, 4, axis=1)
    if peep is not None:
      wf, wi, wo = peep
      new_c = sigmoid(f + forget_bias + wf * c) * c + sigmoid(i + wi * c) * np.tanh(j)
    else:
      new_c = sigmoid(f + forget_bias) * c + sigmoid(i) * np.tanh(j)
    if cell_clip is not None:
      new_c = np.clip(new_c, -cell_clip, cell_clip)
    if peep is not None:
      new_h = sigmoid(o + peep[2] * new_c) * np.tanh(new_c)
    else:
      new_h = sigmoid(o) * np.tanh(new_c)
    if proj is not None:
      new_h = new_h @ proj
      if proj_clip is not None:
        new_h = np.clip(new_h, -proj_clip, proj_clip)
    if lengths is not None:
      done = (t >= np.asarray(lengths))[:, None]
      outputs.append(np.where(done, 0.0, new_h))
      c, h = np.where(done, c, new_c), np.where(done, h, new_h)
    else:
      outputs.append(new_h)
      c, h = new_c, new_h
  return outputs, c, h


def test_basic_lstm_static_rnn_names_and_values():
  xs = inputs()

  def build():
    outputs, state = tf.nn.static_rnn(rc.BasicLSTMCell(5), xs, dtype=tf.float32)
    assert isinstance(state, rc.LSTMStateTuple)
    return outputs, state.c, state.h

  (outputs, c, h), w = run_with_weights(build)
  assert sorted(w) == ["rnn/basic_lstm_cell/bias", "rnn/basic_lstm_cell/kernel"]
  assert w["rnn/basic_lstm_cell/kernel"].shape == (9, 20)
  ref_out, ref_c, ref_h = lstm_ref(xs, w["rnn/basic_lstm_cell/kernel"],
                                   w["rnn/basic_lstm_cell/bias"])
  for got, want in zip(outputs, ref_out):
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(c, ref_c, rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(h, ref_h, rtol=1e-4, atol=1e-5)


def test_lstm_cell_peepholes_projection_clipping_and_sequence_length():
  xs = inputs(steps=5)
  lengths = [5, 2, 0]

  def build():
    cell = rc.LSTMCell(5, use_peepholes=True, cell_clip=0.5, num_proj=3, proj_clip=0.4,
                       forget_bias=0.7)
    assert cell.state_size == (5, 3) and cell.output_size == 3
    outputs, state = tf.nn.static_rnn(cell, xs, dtype=tf.float32, sequence_length=lengths)
    return outputs, state.c, state.h

  (outputs, c, h), w = run_with_weights(build)
  assert sorted(w) == ["rnn/lstm_cell/bias", "rnn/lstm_cell/kernel",
                       "rnn/lstm_cell/projection/kernel", "rnn/lstm_cell/w_f_diag",
                       "rnn/lstm_cell/w_i_diag", "rnn/lstm_cell/w_o_diag"]
  p = "rnn/lstm_cell/"
  ref_out, ref_c, ref_h = lstm_ref(
      xs, w[p + "kernel"], w[p + "bias"], 0.7, lengths,
      (w[p + "w_f_diag"], w[p + "w_i_diag"], w[p + "w_o_diag"]), 0.5,
      w[p + "projection/kernel"], 0.4)
  for got, want in zip(outputs, ref_out):
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(c, ref_c, rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(h, ref_h, rtol=1e-4, atol=1e-5)
  assert np.all(outputs[3][1:] == 0) and np.all(c[2] == 0)


def test_gru_and_basic_rnn_in_a_multi_rnn_cell():
  xs = inputs(steps=3)

  def build():
    cell = rc.MultiRNNCell([rc.GRUCell(4), rc.BasicRNNCell(3)])
    outputs, state = tf.nn.static_rnn(cell, xs, dtype=tf.float32)
    return outputs, state

  (outputs, state), w = run_with_weights(build)
  g, b = "rnn/multi_rnn_cell/cell_0/gru_cell/", "rnn/multi_rnn_cell/cell_1/basic_rnn_cell/"
  assert sorted(w) == sorted([g + "gates/kernel", g + "gates/bias", g + "candidate/kernel",
                              g + "candidate/bias", b + "kernel", b + "bias"])
  h1, h2 = np.zeros((3, 4)), np.zeros((3, 3))
  for x, got in zip(xs, outputs):
    ru = sigmoid(np.concatenate([x, h1], 1) @ w[g + "gates/kernel"] + w[g + "gates/bias"])
    r, u = np.split(ru, 2, axis=1)
    cand = np.tanh(np.concatenate([x, r * h1], 1) @ w[g + "candidate/kernel"]
                   + w[g + "candidate/bias"])
    h1 = u * h1 + (1 - u) * cand
    h2 = np.tanh(np.concatenate([h1, h2], 1) @ w[b + "kernel"] + w[b + "bias"])
    np.testing.assert_allclose(got, h2, rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(state[0], h1, rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(state[1], h2, rtol=1e-4, atol=1e-5)


def test_default_initializers_and_fed_batch_size():
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 3])
    gru = rc.GRUCell(2)
    out, state = gru(x, gru.zero_state(tf.shape(x)[0], tf.float32))
    assert [v.op.name for v in gru.variables] == ["gru_cell/gates/kernel", "gru_cell/gates/bias",
                                                  "gru_cell/candidate/kernel",
                                                  "gru_cell/candidate/bias"]
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      np.testing.assert_array_equal(sess.run(gru.variables[1]), [1, 1, 1, 1])
      np.testing.assert_array_equal(sess.run(gru.variables[3]), [0, 0])
      assert sess.run(out, {x: np.ones((7, 3))}).shape == (7, 2)
    # a second call reuses the variables; a second cell gets its own scope
    gru(x, state)
    rc.GRUCell(2)(x, state)
    assert len(tf.global_variables()) == 8
    assert tf.global_variables()[4].op.name == "gru_cell_1/gates/kernel"


def test_bidirectional_and_state_is_tuple_false():
  xs = inputs(steps=3, batch=2, depth=3)

  def build():
    outputs, fw, bw = tf.nn.static_bidirectional_rnn(rc.BasicRNNCell(2), rc.BasicRNNCell(3),
                                                     xs, dtype=tf.float32)
    flat = rc.BasicLSTMCell(2, state_is_tuple=False)
    assert flat.state_size == 4
    _, flat_state = tf.nn.static_rnn(flat, xs, dtype=tf.float32, scope="flat")
    return outputs, fw, bw, flat_state

  (outputs, fw, bw, flat_state), w = run_with_weights(build)
  f, b = "bidirectional_rnn/fw/basic_rnn_cell/", "bidirectional_rnn/bw/basic_rnn_cell/"
  hf, hb = np.zeros((2, 2)), np.zeros((2, 3))
  fws, bws = [], []
  for x in xs:
    hf = np.tanh(np.concatenate([x, hf], 1) @ w[f + "kernel"] + w[f + "bias"])
    fws.append(hf)
  for x in reversed(xs):
    hb = np.tanh(np.concatenate([x, hb], 1) @ w[b + "kernel"] + w[b + "bias"])
    bws.insert(0, hb)
  for got, a, c in zip(outputs, fws, bws):
    np.testing.assert_allclose(got, np.concatenate([a, c], 1), rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(fw, fws[-1], rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(bw, bws[0], rtol=1e-4, atol=1e-5)
  _, c, h = lstm_ref(xs, w["flat/basic_lstm_cell/kernel"], w["flat/basic_lstm_cell/bias"])
  np.testing.assert_allclose(flat_state, np.concatenate([c, h], 1), rtol=1e-4, atol=1e-5)


def test_wrappers():
  xs = inputs(steps=2, batch=64, depth=4)
  with tf.Graph().as_default():
    cell = rc.ResidualWrapper(rc.DropoutWrapper(rc.BasicLSTMCell(4), output_keep_prob=0.5,
                                                state_keep_prob=0.5, seed=3))
    dev = rc.DeviceWrapper(rc.BasicRNNCell(4), "/cpu:0")
    outputs, state = tf.nn.static_rnn(cell, xs, dtype=tf.float32)
    dev_out, _ = tf.nn.static_rnn(dev, xs, dtype=tf.float32, scope="dev")
    assert [v.op.name for v in tf.global_variables()][:2] == ["rnn/basic_lstm_cell/kernel",
                                                              "rnn/basic_lstm_cell/bias"]
    assert dev_out[0].device.endswith("CPU:0") or dev_out[0].device.endswith("cpu:0")
    plain = rc.BasicLSTMCell(4, name="plain")
    plain_out, plain_state = plain(xs[0], plain.zero_state(64, tf.float32))
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      got = sess.run([outputs[0] - xs[0], state.c, state.h])
  residual, c, h = got
  # output dropout: about half the entries are zero, the rest scaled by 2
  zero_fraction = np.mean(residual == 0)
  assert 0.3 < zero_fraction < 0.7
  # state dropout applies to h only (TF's default filter keeps c)
  assert np.mean(c == 0) < 0.05 and 0.3 < np.mean(h == 0) < 0.7


def test_static_rnn_trains_a_sequence_classifier():
  # is the sum of the sequence's first channel positive? needs the whole sequence
  steps, batch = 6, 128
  data = RNG.randn(batch, steps, 2).astype(np.float32)
  labels = (data[:, :, 0].sum(1) > 0).astype(np.int64)
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, steps, 2])
    y = tf.placeholder(tf.int64, [None])
    cells = rc.MultiRNNCell([rc.LSTMCell(16), rc.GRUCell(16)])
    outputs, _ = tf.nn.static_rnn(cells, tf.unstack(x, steps, 1), dtype=tf.float32)
    logits = tf.layers.dense(outputs[-1], 2)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                         logits=logits))
    grads, variables = zip(*tf.train.AdamOptimizer(0.01).compute_gradients(loss))
    clipped, _ = tf.clip_by_global_norm(grads, 5.0)
    step = tf.train.AdamOptimizer(0.01).apply_gradients(zip(clipped, variables))
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      for _ in range(150):
        sess.run(step, {x: data, y: labels})
      assert sess.run(accuracy, {x: data, y: labels}) > 0.9


def test_errors():
  with tf.Graph().as_default():
    x = [tf.zeros([2, 3])]
    with pytest.raises(ValueError, match="at least one cell"):
      rc.MultiRNNCell([])
    with pytest.raises(TypeError, match="cells must be a list or tuple"):
      rc.MultiRNNCell(rc.GRUCell(2))
    with pytest.raises(ValueError, match="dtype must be specified"):
      tf.nn.static_rnn(rc.GRUCell(2), x)
    with pytest.raises(TypeError, match="inputs must be a sequence"):
      tf.nn.static_rnn(rc.GRUCell(2), tf.zeros([2, 3]), dtype=tf.float32)
    with pytest.raises(ValueError, match="inputs must not be empty"):
      tf.nn.static_rnn(rc.GRUCell(2), [], dtype=tf.float32)
    with pytest.raises(TypeError, match="not an RNNCell"):
      tf.nn.static_rnn(object(), x, dtype=tf.float32)
    with pytest.raises(ValueError, match="must be between 0 and 1"):
      rc.DropoutWrapper(rc.GRUCell(2), output_keep_prob=1.5)
    with pytest.raises(ValueError, match="must be accessible via shape inference"):
      tf.nn.static_rnn(rc.GRUCell(2), [tf.placeholder(tf.float32, [2, None])],
                       dtype=tf.float32)


def test_nest():
  Point = collections.namedtuple("Point", ["x", "y"])
  structure = {"b": [1, (2, 3)], "a": Point(4, [5])}
  assert tf.nest.flatten(structure) == [4, 5, 1, 2, 3]
  assert tf.nest.flatten(7) == [7]
  packed = tf.nest.pack_sequence_as(structure, [10, 20, 30, 40, 50])
  assert packed == {"b": [30, (40, 50)], "a": Point(10, [20])}
  assert isinstance(packed["a"], Point)
  assert tf.nest.map_structure(lambda a, b: a + b, (1, [2]), (10, [20])) == (11, [22])
  assert tf.nest.is_nested([1]) and not tf.nest.is_nested(np.zeros(2))
  tf.nest.assert_same_structure((1, [2]), (3, [4]))
  with pytest.raises(ValueError, match="same number of elements"):
    tf.nest.assert_same_structure((1, 2), (1, 2, 3))
  with pytest.raises(TypeError, match="same sequence type"):
    tf.nest.assert_same_structure((1, 2), [1, 2])
  with pytest.raises(ValueError, match="Could not pack sequence"):
    tf.nest.pack_sequence_as((1, 2), [1])
