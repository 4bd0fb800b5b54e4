"""tf.train optimizers, learning-rate schedules and the global step, checked against TF 1.15.

The `_TF_RECORDED` values were produced by TensorFlow (tf.compat.v1, graph mode) running
the same graph as `_run` below; every optimizer also has its update rule written out in
NumPy (float32) and compared step by step.
"""
import numpy as np
import pytest

import tfc as tf

_TF_RECORDED = {
    'gd': [
        [0.9800000190734863, -1.8700000047683716, 3.005000114440918, 0.30000001192092896],
        [0.9100000262260437, -1.6399999856948853, 2.9850001335144043, 0.20000001788139343],
        [0.7900000214576721, -1.309999942779541, 2.940000057220459, 0.20000001788139343],
        [0.6200000047683716, -0.8799998760223389, 2.870000123977661, 0.30000001192092896],
        [0.3999999761581421, -0.3499998450279236, 2.7750000953674316, 0.5],
    ],
    'mom': [
        [0.9800000190734863, -1.8700000047683716, 3.005000114440918, 0.30000001192092896],
        [0.8920000195503235, -1.5230000019073486, 2.989500045776367, 0.02000001072883606],
        [0.692799985408783, -0.8807000517845154, 2.9305500984191895, -0.23199999332427979],
        [0.3435199558734894, 0.1273699402809143, 2.8074951171875, -0.3587999939918518],
        [-0.19083204865455627, 1.5646328926086426, 2.60174560546875, -0.27291998267173767],
    ],
    'nest': [
        [0.9819999933242798, -1.8830000162124634, 3.004499912261963, 0.3199999928474426],
        [0.9125999808311462, -1.6344000101089478, 2.9880998134613037, 0.16599999368190765],
        [0.7770799398422241, -1.2305200099945068, 2.9424798488616943, 0.08279999345541],
        [0.5636639595031738, -0.652415931224823, 2.8609838485717773, 0.10623999685049057],
        [0.26293113827705383, 0.11506730318069458, 2.7382869720458984, 0.26499199867248535],
    ],
    'adam': [
        [0.9000001549720764, -1.899999976158142, 3.09999942779541, 0.4000000059604645],
        [0.8100478649139404, -1.8022525310516357, 3.0440492630004883, 0.3067823648452759],
        [0.7193723320960999, -1.705167531967163, 2.9679620265960693, 0.23472511768341064],
        [0.6272765398025513, -1.6079806089401245, 2.8845341205596924, 0.20460747182369232],
        [0.5336514115333557, -1.5102744102478027, 2.796799898147583, 0.21943646669387817],
    ],
    'adam2': [
        [0.9904761910438538, -1.9900763034820557, 3.008333444595337, 0.4900497496128082],
        [0.9813402891159058, -1.980194091796875, 3.002530813217163, 0.48094138503074646],
        [0.9718930125236511, -1.9702153205871582, 2.994439125061035, 0.47434136271476746],
        [0.9621193408966064, -1.9600721597671509, 2.9854092597961426, 0.4725046753883362],
        [0.9520306587219238, -1.9497298002243042, 2.9757795333862305, 0.47558432817459106],
    ],
    'adagrad': [
        [0.9465477466583252, -1.9028334617614746, 3.0156173706054688, 0.40122702717781067],
        [0.8583560585975647, -1.8163942098617554, 2.9626359939575195, 0.35694628953933716],
        [0.7749502658843994, -1.7385475635528564, 2.8860228061676025, 0.35694628953933716],
        [0.6986179947853088, -1.6673344373703003, 2.809418201446533, 0.39743509888648987],
        [0.628341555595398, -1.6013672351837158, 2.73734712600708, 0.46036678552627563],
    ],
    'adagrad2': [
        [0.9455668926239014, -1.8243082761764526, 3.0141069889068604, 0.3114381730556488],
        [0.8076207637786865, -1.6561156511306763, 2.9597995281219482, 0.22615787386894226],
        [0.6549124121665955, -1.502126693725586, 2.8555283546447754, 0.22615787386894226],
        [0.508054792881012, -1.3604753017425537, 2.729550361633301, 0.30460432171821594],
        [0.3702854514122009, -1.2289478778839111, 2.599593162536621, 0.4280470013618469],
    ],
    'rms': [
        [0.9789648652076721, -1.874265432357788, 3.005269765853882, 0.324588418006897],
        [0.9035957455635071, -1.6859116554260254, 2.983105182647705, 0.23585276305675507],
        [0.7785102128982544, -1.474259614944458, 2.9312491416931152, 0.23585276305675507],
        [0.6176817417144775, -1.2602442502975464, 2.849137306213379, 0.3299790024757385],
        [0.43742501735687256, -1.0514307022094727, 2.739023208618164, 0.49806225299835205],
    ],
    'rms2': [
        [0.997775137424469, -1.98781418800354, 3.000558853149414, 0.48418909311294556],
        [0.9885500073432922, -1.9653282165527344, 2.99835467338562, 0.46806398034095764],
        [0.9711716175079346, -1.937050461769104, 2.9912354946136475, 0.4600014090538025],
        [0.9474852085113525, -1.9062995910644531, 2.9781980514526367, 0.4653061330318451],
        [0.9200698733329773, -1.8749282360076904, 2.9595839977264404, 0.48321786522865295],
    ],
    'crms': [
        [0.9789601564407349, -1.8732596635818481, 3.005269765853882, 0.32182586193084717],
        [0.9032504558563232, -1.676806926727295, 2.9831020832061768, 0.2302175760269165],
        [0.7753779292106628, -1.4445300102233887, 2.9311258792877197, 0.2302175760269165],
        [0.6049778461456299, -1.1971209049224854, 2.848144769668579, 0.3250214755535126],
        [0.40448373556137085, -0.9437751770019531, 2.7347590923309326, 0.49354422092437744],
    ],
    'crms2': [
        [0.9977729320526123, -1.9874353408813477, 3.000558853149414, 0.48333391547203064],
        [0.9883805513381958, -1.9625115394592285, 2.9983527660369873, 0.46590882539749146],
        [0.9697444438934326, -1.9284131526947021, 2.991159439086914, 0.45719629526138306],
        [0.9422281384468079, -1.8880581855773926, 2.9775774478912354, 0.46224862337112427],
        [0.9073637127876282, -1.8433446884155273, 2.95701003074646, 0.4804324805736542],
    ],
}


_W0 = np.array([1.0, -2.0, 3.0], np.float32)
_B0 = np.float32(0.5)


def _grads(i):
  gw = (np.array([0.5, -1.0, 0.25], np.float32) * (i + 1) - np.float32(0.3)).astype(np.float32)
  return gw, np.float32(2.0 - i)


def _run(make, steps=5):
  """Applies hand-made gradients (fed) to W (shape [3]) and b (scalar) for `steps` steps."""
  g = tf.Graph()
  with g.as_default():
    W = tf.Variable(_W0, name="W")
    b = tf.Variable(_B0, name="b")
    gw = tf.placeholder(tf.float32, [3])
    gb = tf.placeholder(tf.float32, [])
    gs = tf.train.get_or_create_global_step()
    opt = make()
    op = opt.apply_gradients([(gw, W), (gb, b)], global_step=gs)
    rows = []
    with tf.Session() as s:
      s.run(tf.global_variables_initializer())
      for i in range(steps):
        a, c = _grads(i)
        s.run(op, {gw: a, gb: c})
        rows.append(np.concatenate([s.run(W), [s.run(b)]]))
      step = s.run(gs)
    return np.array(rows, np.float32), opt, op, step, g


def _numpy_run(update, state_init, steps=5):
  """Runs `update(params, grads, state, t)` (NumPy float32) on the concatenated [W, b]."""
  p = np.concatenate([_W0, [_B0]]).astype(np.float32)
  state = {k: np.full_like(p, v) for k, v in state_init.items()}
  rows = []
  for i in range(steps):
    gw, gb = _grads(i)
    p = update(p, np.concatenate([gw, [gb]]).astype(np.float32), state, i + 1)
    rows.append(p.copy())
  return np.array(rows, np.float32)


f32 = np.float32


def _sgd(lr):
  def u(p, g, s, t):
    return p - f32(lr) * g
  return u, {}


def _momentum(lr, mom, nesterov=False):
  def u(p, g, s, t):
    s["a"] = s["a"] * f32(mom) + g
    if nesterov:
      return p - (g * f32(lr) + s["a"] * f32(mom) * f32(lr))
    return p - f32(lr) * s["a"]
  return u, {"a": 0.0}


def _adam(lr, b1=0.9, b2=0.999, eps=1e-8):
  def u(p, g, s, t):
    b1p, b2p = f32(b1) ** t, f32(b2) ** t
    lr_t = f32(lr) * np.sqrt(f32(1) - b2p) / (f32(1) - b1p)
    s["m"] = s["m"] + (g - s["m"]) * (f32(1) - f32(b1))
    s["v"] = s["v"] + (g * g - s["v"]) * (f32(1) - f32(b2))
    return p - lr_t * s["m"] / (f32(eps) + np.sqrt(s["v"]))
  return u, {"m": 0.0, "v": 0.0}


def _adagrad(lr, init=0.1):
  def u(p, g, s, t):
    s["acc"] = s["acc"] + g * g
    return p - f32(lr) * g / np.sqrt(s["acc"])
  return u, {"acc": init}


def _rmsprop(lr, decay=0.9, mom=0.0, eps=1e-10):
  def u(p, g, s, t):
    s["ms"] = s["ms"] + (g * g - s["ms"]) * (f32(1) - f32(decay))
    s["mom"] = s["mom"] * f32(mom) + f32(lr) * g / np.sqrt(s["ms"] + f32(eps))
    return p - s["mom"]
  return u, {"ms": 1.0, "mom": 0.0}


def _centered_rmsprop(lr, decay=0.9, mom=0.0, eps=1e-10):
  def u(p, g, s, t):
    s["ms"] = s["ms"] + (g * g - s["ms"]) * (f32(1) - f32(decay))
    s["mg"] = s["mg"] + (g - s["mg"]) * (f32(1) - f32(decay))
    denom = np.sqrt(s["ms"] - s["mg"] * s["mg"] + f32(eps))
    s["mom"] = s["mom"] * f32(mom) + f32(lr) * g / denom
    return p - s["mom"]
  return u, {"ms": 1.0, "mg": 0.0, "mom": 0.0}


_CASES = {
    "gd": (lambda: tf.train.GradientDescentOptimizer(0.1), _sgd(0.1)),
    "mom": (lambda: tf.train.MomentumOptimizer(0.1, 0.9), _momentum(0.1, 0.9)),
    "nest": (lambda: tf.train.MomentumOptimizer(0.05, 0.8, use_nesterov=True),
             _momentum(0.05, 0.8, True)),
    "adam": (lambda: tf.train.AdamOptimizer(0.1), _adam(0.1)),
    "adam2": (lambda: tf.train.AdamOptimizer(0.01, 0.8, 0.99, 1e-3), _adam(0.01, 0.8, 0.99, 1e-3)),
    "adagrad": (lambda: tf.train.AdagradOptimizer(0.1), _adagrad(0.1)),
    "adagrad2": (lambda: tf.train.AdagradOptimizer(0.2, 0.5), _adagrad(0.2, 0.5)),
    "rms": (lambda: tf.train.RMSPropOptimizer(0.1), _rmsprop(0.1)),
    "rms2": (lambda: tf.train.RMSPropOptimizer(0.01, decay=0.8, momentum=0.5, epsilon=1e-4),
             _rmsprop(0.01, 0.8, 0.5, 1e-4)),
    "crms": (lambda: tf.train.RMSPropOptimizer(0.1, centered=True), _centered_rmsprop(0.1)),
    "crms2": (lambda: tf.train.RMSPropOptimizer(0.01, decay=0.8, momentum=0.5, epsilon=1e-4,
                                                centered=True),
              _centered_rmsprop(0.01, 0.8, 0.5, 1e-4)),
}


@pytest.mark.parametrize("key", sorted(_CASES))
def test_update_matches_tf_and_numpy(key):
  make, (update, state) = _CASES[key]
  got, _, _, step, _ = _run(make)
  np.testing.assert_allclose(got, np.array(_TF_RECORDED[key], np.float32), rtol=2e-6, atol=1e-7)
  np.testing.assert_allclose(got, _numpy_run(update, state), rtol=1e-5, atol=1e-6)
  assert step == 5


_SLOTS = {
    "gd": ([], []),
    "mom": (["momentum"], ["W/Momentum:0", "b/Momentum:0"]),
    "adam": (["m", "v"], ["W/Adam:0", "W/Adam_1:0", "b/Adam:0", "b/Adam_1:0",
                          "beta1_power:0", "beta2_power:0"]),
    "adagrad": (["accumulator"], ["W/Adagrad:0", "b/Adagrad:0"]),
    "rms": (["momentum", "rms"], ["W/RMSProp:0", "W/RMSProp_1:0", "b/RMSProp:0",
                                  "b/RMSProp_1:0"]),
    "crms": (["mg", "momentum", "rms"], ["W/RMSProp:0", "W/RMSProp_1:0", "W/RMSProp_2:0",
                                         "b/RMSProp:0", "b/RMSProp_1:0", "b/RMSProp_2:0"]),
}


@pytest.mark.parametrize("key", sorted(_SLOTS))
def test_slot_names_and_variables(key):
  _, opt, op, _, g = _run(_CASES[key][0], steps=1)
  names, var_names = _SLOTS[key]
  assert opt.get_slot_names() == names
  with g.as_default():
    assert [v.name for v in opt.variables()] == var_names
    W = [v for v in tf.global_variables() if v.name == "W:0"][0]
    for n in names:
      slot = opt.get_slot(W, n)
      assert slot is not None and slot.get_shape().as_list() == [3]
      assert slot not in tf.trainable_variables() and slot in tf.global_variables()
    assert opt.get_slot(W, "nope") is None
    assert op in tf.get_collection(tf.GraphKeys.TRAIN_OP)
  assert op.name == opt.get_name()


def test_slot_initial_values_and_update_op_names():
  with tf.Graph().as_default() as g:
    W = tf.Variable([1.0, 2.0], name="W")
    opt_a = tf.train.AdagradOptimizer(0.1, initial_accumulator_value=0.25)
    opt_r = tf.train.RMSPropOptimizer(0.1)
    opt_m = tf.train.AdamOptimizer()
    ops_ = [o.apply_gradients([(tf.constant([1.0, 1.0]), W)]) for o in (opt_a, opt_r, opt_m)]
    types = {op.type for op in g.get_operations()}
    assert {"ApplyAdagrad", "ApplyRMSProp", "ApplyAdam"} <= types
    assert g.get_operation_by_name("Adagrad/update_W/ApplyAdagrad").type == "ApplyAdagrad"
    with tf.Session() as s:
      s.run(tf.global_variables_initializer())
      np.testing.assert_allclose(s.run(opt_a.get_slot(W, "accumulator")), [0.25, 0.25])
      np.testing.assert_allclose(s.run(opt_r.get_slot(W, "rms")), [1.0, 1.0])
      np.testing.assert_allclose(s.run(opt_m.get_slot(W, "m")), [0.0, 0.0])
      b1, b2 = opt_m._get_beta_accumulators()  # pylint: disable=protected-access
      assert (b1.name, b2.name) == ("beta1_power:0", "beta2_power:0")
      assert not b1.trainable
      s.run(ops_[2])
      s.run(ops_[2])
      np.testing.assert_allclose(s.run([b1, b2]), [0.9 ** 3, 0.999 ** 3], rtol=1e-6)


def test_global_step_increments_after_updates():
  with tf.Graph().as_default() as g:
    W = tf.Variable([1.0], name="W")
    gs = tf.Variable(0, name="global_step", trainable=False)
    op = tf.train.GradientDescentOptimizer(0.5).apply_gradients([(tf.constant([2.0]), W)],
                                                                global_step=gs)
    assert op.type == "AssignAdd" and op.name == "GradientDescent"
    update = g.get_operation_by_name("GradientDescent/update")
    # directly, or through the `1` constant created under the same control dependencies
    assert update in op.control_inputs + op.inputs[1].op.control_inputs
    with tf.Session() as s:
      s.run(tf.global_variables_initializer())
      for _ in range(3):
        s.run(op)
      assert s.run(gs) == 3
      np.testing.assert_allclose(s.run(W), [-2.0])


def test_none_gradients_are_skipped():
  with tf.Graph().as_default():
    W = tf.Variable([1.0], name="W")
    V = tf.Variable([5.0], name="V")
    opt = tf.train.MomentumOptimizer(0.1, 0.9)
    op = opt.apply_gradients([(None, V), (tf.constant([1.0]), W)])
    assert opt.get_slot(V, "momentum") is None
    with tf.Session() as s:
      s.run(tf.global_variables_initializer())
      s.run(op)
      np.testing.assert_allclose(s.run([W, V]), [[0.9], [5.0]])


def test_hyperparameters_may_be_tensors_or_callables():
  with tf.Graph().as_default():
    W = tf.Variable([1.0], name="W")
    lr = tf.placeholder(tf.float32, [])
    op = tf.train.GradientDescentOptimizer(lr).apply_gradients([(tf.constant([1.0]), W)])
    op2 = tf.train.MomentumOptimizer(lambda: 0.5, lambda: 0.0).apply_gradients(
        [(tf.constant([1.0]), W)])
    with tf.Session() as s:
      s.run(tf.global_variables_initializer())
      s.run(op, {lr: 0.25})
      s.run(op2)
      np.testing.assert_allclose(s.run(W), [0.25])


def test_errors():
  with pytest.raises(ValueError, match="Must specify the optimizer name"):
    tf.train.GradientDescentOptimizer(0.1, name="")
  with pytest.raises(ValueError, match="initial_accumulator_value must be positive"):
    tf.train.AdagradOptimizer(0.1, initial_accumulator_value=0.0)
  with tf.Graph().as_default():
    opt = tf.train.GradientDescentOptimizer(0.1)
    with pytest.raises(ValueError, match="No variables provided."):
      opt.apply_gradients([])
    W = tf.Variable([1.0], name="W")
    with pytest.raises(ValueError, match=r"No gradients provided for any variable: \["):
      opt.apply_gradients([(None, W)])
    with pytest.raises(ValueError, match="Invalid type"):
      opt.compute_gradients(tf.constant(1), var_list=[W])
    with pytest.raises(ValueError, match="gate_gradients must be one of"):
      opt.compute_gradients(tf.constant(1.0), gate_gradients=7)
  with tf.Graph().as_default():
    loss = tf.constant(1.0)
    with pytest.raises(ValueError, match="No variables to optimize."):
      tf.train.GradientDescentOptimizer(0.1).compute_gradients(loss)
    with pytest.raises(ValueError, match="No variables to optimize."):
      tf.train.AdamOptimizer().minimize(loss)


def _have_gradients():
  return hasattr(tf, "gradients")


@pytest.mark.skipif(not _have_gradients(), reason="tf.gradients is not implemented yet")
def test_minimize_errors_and_unconnected_variables():
  with tf.Graph().as_default():
    W = tf.Variable([1.0], name="W")
    V = tf.Variable([2.0], name="V")
    loss = tf.constant(3.0) * 2.0
    opt = tf.train.GradientDescentOptimizer(0.1)
    with pytest.raises(ValueError, match=r"No gradients provided for any variable, check your "
                       r"graph for ops that do not support gradients, between variables"):
      opt.minimize(loss)
    loss2 = W * 3.0
    gv = opt.compute_gradients(loss2)
    assert [v for _, v in gv] == [W, V]
    assert gv[0][0] is not None and gv[1][0] is None


@pytest.mark.skipif(not _have_gradients(), reason="tf.gradients is not implemented yet")
def test_minimize_quadratic_each_optimizer():
  for make in [lambda: tf.train.GradientDescentOptimizer(0.1),
               lambda: tf.train.MomentumOptimizer(0.05, 0.9),
               lambda: tf.train.AdamOptimizer(0.1),
               lambda: tf.train.AdagradOptimizer(0.5),
               lambda: tf.train.RMSPropOptimizer(0.05)]:
    with tf.Graph().as_default():
      W = tf.Variable([3.0, -2.0], name="W")
      loss = tf.reduce_sum(tf.square(W - tf.constant([1.0, 0.5])))
      gs = tf.train.get_or_create_global_step()
      train = make().minimize(loss, global_step=gs)
      with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        first = s.run(loss)
        for _ in range(200):
          s.run(train)
        assert s.run(loss) < first * 1e-2
        assert s.run(gs) == 200


# ------------------------------------------------------------------ global step

def test_global_step_helpers():
  with tf.Graph().as_default() as g:
    assert tf.train.get_global_step() is None
    gs = tf.train.get_or_create_global_step()
    assert gs.name == "global_step:0" and gs.dtype.base_dtype == tf.int64
    assert gs.get_shape().as_list() == []
    assert tf.get_collection(tf.GraphKeys.GLOBAL_STEP) == [gs]
    assert gs in tf.global_variables() and gs not in tf.trainable_variables()
    assert tf.train.get_global_step() is gs
    assert tf.train.get_or_create_global_step() is gs
    with pytest.raises(ValueError, match='"global_step" already exists.'):
      tf.train.create_global_step()
    with tf.Session() as s:
      s.run(tf.global_variables_initializer())
      assert tf.train.global_step(s, gs) == 0
  with tf.Graph().as_default() as g:
    v = tf.Variable(0, name="global_step", trainable=False)
    found = tf.train.get_global_step(g)
    assert found.name == "global_step:0" and found.op is v.op
  with tf.Graph().as_default():
    tf.Variable(0.0, name="global_step")
    with pytest.raises(TypeError, match="does not have integer type"):
      tf.train.get_global_step()


# ------------------------------------------------------------------ schedules

_STEPS = [0, 1, 5, 9, 10, 11, 15, 16, 25, 40]
_LR_EXP = [0.10000000149011612, 0.09330330044031143, 0.0707106813788414, 0.05358866974711418, 0.05000000074505806, 0.046651650220155716, 0.0353553406894207, 0.032987695187330246, 0.01767767034471035, 0.0062500000931322575]
_LR_EXP_ST = [0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.05000000074505806, 0.05000000074505806, 0.05000000074505806, 0.05000000074505806, 0.02500000037252903, 0.0062500000931322575]
_LR_INV = [0.10000000149011612, 0.0952381044626236, 0.07999999821186066, 0.06896551698446274, 0.06666667014360428, 0.06451613456010818, 0.05714285746216774, 0.055555559694767, 0.04444444552063942, 0.03333333507180214]
_LR_POLY = [0.10000000149011612, 0.08289999514818192, 0.032499998807907104, 0.010899999178946018, 0.009999999776482582, 0.009999999776482582, 0.009999999776482582, 0.009999999776482582, 0.009999999776482582, 0.009999999776482582]
_LR_POLY_C = [0.10000000149011612, 0.09538149833679199, 0.07363960891962051, 0.03846050053834915, 0.009999999776482582, 0.07037383317947388, 0.054999999701976776, 0.05024922639131546, 0.04674234986305237, 0.009999999776482582]
_LR_PW = [1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612]


@pytest.mark.parametrize("name,make,expected", [
    ("ExponentialDecay", lambda gs: tf.train.exponential_decay(0.1, gs, 10, 0.5), _LR_EXP),
    ("ExponentialDecay",
     lambda gs: tf.train.exponential_decay(0.1, gs, 10, 0.5, staircase=True), _LR_EXP_ST),
    ("InverseTimeDecay", lambda gs: tf.train.inverse_time_decay(0.1, gs, 10, 0.5), _LR_INV),
    ("PolynomialDecay",
     lambda gs: tf.train.polynomial_decay(0.1, gs, 10, 0.01, power=2.0), _LR_POLY),
    ("PolynomialDecay",
     lambda gs: tf.train.polynomial_decay(0.1, gs, 10, 0.01, power=0.5, cycle=True),
     _LR_POLY_C),
    ("PiecewiseConstant",
     lambda gs: tf.train.piecewise_constant(gs, [5, 15], [1.0, 0.5, 0.1]), _LR_PW),
])
def test_learning_rate_schedules(name, make, expected):
  with tf.Graph().as_default():
    gs = tf.placeholder(tf.int64, [])
    lr = make(gs)
    assert lr.op.name == name
    with tf.Session() as s:
      got = [s.run(lr, {gs: i}) for i in _STEPS]
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_learning_rate_schedule_errors():
  with pytest.raises(ValueError, match="global_step is required for exponential_decay"):
    tf.train.exponential_decay(0.1, None, 10, 0.5)
  with pytest.raises(ValueError, match="length of boundaries should be 1 less"):
    tf.train.piecewise_constant(tf.constant(1), [1, 2], [0.1, 0.2])


def test_decayed_learning_rate_drives_optimizer():
  with tf.Graph().as_default():
    W = tf.Variable([0.0], name="W")
    gs = tf.train.get_or_create_global_step()
    lr = tf.train.exponential_decay(1.0, gs, 1, 0.5)
    op = tf.train.GradientDescentOptimizer(lr).apply_gradients([(tf.constant([1.0]), W)],
                                                               global_step=gs)
    with tf.Session() as s:
      s.run(tf.global_variables_initializer())
      for _ in range(3):
        s.run(op)
      np.testing.assert_allclose(s.run(W), [-(1.0 + 0.5 + 0.25)])
