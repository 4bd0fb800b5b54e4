"""tf.train.AdadeltaOptimizer, FtrlOptimizer (V1 and V2 updates), ProximalAdagradOptimizer
and ProximalGradientDescentOptimizer: four steps against TensorFlow's values
(tests/fixtures/optimizers, written by tools/make_optimizer_fixtures.py), slot names, the
resource-variable path, and argument errors."""
import importlib.util
import json
import pathlib

import numpy as np
import pytest

import tfc as tf

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("mof", ROOT / "tools" / "make_optimizer_fixtures.py")
_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tool)
REF = json.loads((ROOT / "tests" / "fixtures" / "optimizers" / "more_optimizers_tf.json").read_text())


@pytest.mark.parametrize("key", sorted(REF))
def test_against_tensorflow(key):
  index, dtype = key.split("_")
  name, kwargs = _tool.SCENARIOS[int(index)]
  values, slots, slot_names = _tool.run(tf, name, kwargs, np.dtype(dtype).type)
  want_values, want_slots, want_names = REF[key]
  rtol = 2e-6 if dtype == "float32" else 1e-12
  np.testing.assert_allclose(values, want_values, rtol=rtol, atol=1e-7)
  assert slots == want_slots and slot_names == want_names


@pytest.mark.parametrize("name,kwargs", _tool.SCENARIOS)
def test_resource_variables_match_ref_variables(name, kwargs):
  ref_values, _, _ = _tool.run(tf, name, kwargs, np.float32)
  tf.enable_resource_variables()
  try:
    res_values, _, _ = _tool.run(tf, name, kwargs, np.float32)
  finally:
    tf.disable_resource_variables()
  np.testing.assert_allclose(res_values, ref_values, rtol=1e-6)


def test_argument_errors():
  with pytest.raises(ValueError, match="learning_rate_power"):
    tf.train.FtrlOptimizer(0.1, learning_rate_power=0.5)
  with pytest.raises(ValueError, match="l1_regularization_strength"):
    tf.train.FtrlOptimizer(0.1, l1_regularization_strength=-1.0)
  with pytest.raises(ValueError, match="initial_accumulator_value"):
    tf.train.ProximalAdagradOptimizer(0.1, initial_accumulator_value=0.0)
  with tf.Graph().as_default():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError):  # shape mismatch found when the op is built
      from tfc.train import optimizer as _optimizer
      _optimizer._training_op("ApplyFtrl", None, [v._ref(), v._ref(), v._ref(),
                                                  tf.constant([1.0, 2.0, 3.0]), 0.1, 0.0, 0.0,
                                                  -0.5], {})
