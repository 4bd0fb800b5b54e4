"""tf.train.ExponentialMovingAverage and assign_moving_average (TF 1.15's moving_averages).

Each averaged variable or tensor gets a shadow variable named
`<its op name>/<ExponentialMovingAverage name>` (what TF names it, so checkpoints
and `variables_to_restore` maps line up); `apply` returns the op that moves every
shadow toward its value: shadow -= (1 - decay) * (shadow - value).
"""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.ops import control_flow_ops as _cf
from tfc.ops import init_ops as _init_ops
from tfc.ops import math_ops as _math_ops
from tfc.ops import state_ops as _state_ops
from tfc.ops import variable_scope as _variable_scope
from tfc.ops import variables as _variables


def _zero_debias(unbiased_var, value, decay):
  """The debiased update delta for unbiased_var (Adam-style bias correction): a biased
  average and a step count live beside the shadow variable (`<shadow>/biased`,
  `<shadow>/local_step`); decay here is 1 - the EMA decay."""
  with _variable_scope.variable_scope(unbiased_var.op.name, values=[unbiased_var, value, decay]):
    with _ops.init_scope():
      biased = _variable_scope.get_variable(
          "biased", shape=unbiased_var.get_shape(), dtype=unbiased_var.dtype.base_dtype,
          initializer=_init_ops.zeros_initializer(), trainable=False)
      local_step = _variable_scope.get_variable(
          "local_step", shape=[], dtype=unbiased_var.dtype.base_dtype,
          initializer=_init_ops.zeros_initializer(), trainable=False)
    update_biased = _state_ops.assign_sub(biased, (biased - value) * decay)
    update_step = _state_ops.assign_add(local_step, 1)
    bias_factor = 1 - _math_ops.pow(1.0 - decay, update_step)
    return unbiased_var - update_biased / bias_factor


def assign_moving_average(variable, value, decay, zero_debias=True, name=None):
  """variable -= (1 - decay) * (variable - value); with zero_debias the average is
  corrected for its zero start (as TF does). Returns the updated variable's value."""
  with _ops.name_scope(name, "AssignMovingAvg", [variable, value, decay]) as scope:
    with _ops.colocate_with(variable):
      decay = _ops.convert_to_tensor(1.0 - decay, name="decay") \
          if not isinstance(decay, _ops.Tensor) else 1.0 - decay
      if decay.dtype != variable.dtype.base_dtype:
        decay = _math_ops.cast(decay, variable.dtype.base_dtype)
      value = _ops.convert_to_tensor(value)
      if zero_debias:
        delta = _zero_debias(variable, value, decay)
      else:
        delta = (variable - value) * decay
      return _state_ops.assign_sub(variable, delta, name=scope)


class ExponentialMovingAverage(object):
  """Keeps exponential moving averages of variables and tensors.

  decay: the average's decay (e.g. 0.999); num_updates (a tensor or variable such as the
  global step) lowers it early in training to min(decay, (1 + n) / (10 + n)).
  zero_debias: debias the averages of variables (averages of tensors always are).
  """

  def __init__(self, decay, num_updates=None, zero_debias=False,
               name="ExponentialMovingAverage"):
    self._decay = decay
    self._num_updates = num_updates
    self._zero_debias = zero_debias
    self._name = name
    self._averages = {}

  @property
  def name(self):
    return self._name

  def apply(self, var_list=None):
    """Creates the shadow variables of var_list (default: the trainable variables) and
    returns the op that updates all of them. Variables and tensors must be float types;
    applying twice to one variable is an error."""
    if var_list is None:
      var_list = _variables.trainable_variables()
    var_list = list(var_list)
    zero_debias_true = set()
    for var in var_list:
      if var.dtype.base_dtype not in (_dtypes.bfloat16, _dtypes.float16, _dtypes.float32,
                                      _dtypes.float64):
        raise TypeError("The variables must be half, float, or double: %s" % var.name)
      key = _key(var)
      if key in self._averages:
        raise ValueError("Moving average already computed for: %s" % var.name)
      with _ops.init_scope():
        if isinstance(var, _variables.Variable):
          from tfc.train import optimizer as _optimizer  # pylint: disable=g-import-not-at-top
          avg = _optimizer.create_slot(var, var.initialized_value(), self._name,
                                       colocate_with_primary=True)
          _ops.add_to_collection(_ops.GraphKeys.MOVING_AVERAGE_VARIABLES, var)
        else:
          from tfc.train import optimizer as _optimizer  # pylint: disable=g-import-not-at-top
          avg = _optimizer.create_zeros_slot(var, self._name, colocate_with_primary=(
              var.op.type in ("Variable", "VariableV2", "VarHandleOp")))
          if self._zero_debias:
            zero_debias_true.add(key)
      self._averages[key] = avg
      if not isinstance(var, _variables.Variable):
        zero_debias_true.add(key)
    with _ops.name_scope(self._name) as scope:
      decay = _ops.convert_to_tensor(self._decay, name="decay")
      if self._num_updates is not None:
        num_updates = _math_ops.cast(self._num_updates, _dtypes.float32, name="num_updates")
        decay = _math_ops.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
      updates = []
      for var in var_list:
        key = _key(var)
        zero_debias = self._zero_debias or key in zero_debias_true
        updates.append(assign_moving_average(self._averages[key], var, decay,
                                             zero_debias=zero_debias))
      return _cf.group(*updates, name=scope)

  def average(self, var):
    """The shadow variable of var, or None when var is not averaged."""
    return self._averages.get(_key(var))

  def average_name(self, var):
    """The name of var's shadow variable (`<var op name>/<name>`), whether it exists or not."""
    if _key(var) in self._averages:
      return self._averages[_key(var)].op.name
    return var.op.name + "/" + self._name

  def variables_to_restore(self, moving_avg_variables=None):
    """{checkpoint name: variable} that restores the averages into the variables
    themselves: averaged variables map from their shadow's name, every other global
    variable from its own name."""
    name_map = {}
    if moving_avg_variables is None:
      moving_avg_variables = _variables.trainable_variables()
      moving_avg_variables += _variables.moving_average_variables()
    moving_avg_variables = set(_key(v) for v in moving_avg_variables)
    shadows = set(_key(v) for v in self._averages.values())
    for v in _variables.global_variables():
      if _key(v) in shadows:
        continue
      if _key(v) in moving_avg_variables:
        name_map[self.average_name(v)] = v
      else:
        name_map[v.op.name] = v
    return name_map


def _key(var):
  return (var.op.graph, var.op.name, getattr(var, "value_index", 0))
