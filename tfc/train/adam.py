"""tf.train.AdamOptimizer (ApplyAdam).

lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t); m = beta1 * m + (1 - beta1) * g;
v = beta2 * v + (1 - beta2) * g^2; var -= lr_t * m / (sqrt(v) + epsilon).
beta1^t and beta2^t live in the non-slot variables beta1_power/beta2_power,
multiplied by beta1/beta2 after every update.
"""
from tfc.framework import ops as _ops
from tfc.ops import control_flow_ops as _control_flow_ops
from tfc.ops import math_ops as _math_ops
from tfc.ops import resource_variable_ops as _rv
from tfc.train import optimizer as _optimizer


def apply_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
               use_locking=False, use_nesterov=False, name=None):
  return _optimizer._training_op("ApplyAdam", name,
                   [var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad],
                   {"use_locking": bool(use_locking),
                    "use_nesterov": bool(use_nesterov)})


class AdamOptimizer(_optimizer.Optimizer):
  """Adam; slots 'm' ('<var>/Adam') and 'v' ('<var>/Adam_1'), non-slot beta1_power/beta2_power."""

  def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
               use_locking=False, name="Adam"):
    super(AdamOptimizer, self).__init__(use_locking, name)
    self._lr = learning_rate
    self._beta1 = beta1
    self._beta2 = beta2
    self._epsilon = epsilon
    self._lr_t = None
    self._beta1_t = None
    self._beta2_t = None
    self._epsilon_t = None

  def _get_beta_accumulators(self):
    graph = _ops.get_default_graph()
    return (self._get_non_slot_variable("beta1_power", graph=graph),
            self._get_non_slot_variable("beta2_power", graph=graph))

  def _create_slots(self, var_list):
    first_var = min(var_list, key=lambda x: x.name)
    self._create_non_slot_variable(initial_value=self._beta1, name="beta1_power",
                                   colocate_with=first_var)
    self._create_non_slot_variable(initial_value=self._beta2, name="beta2_power",
                                   colocate_with=first_var)
    for v in var_list:
      self._zeros_slot(v, "m", self._name)
      self._zeros_slot(v, "v", self._name)

  def _prepare(self):
    c = self._call_if_callable
    self._lr_t = _ops.convert_to_tensor(c(self._lr), name="learning_rate")
    self._beta1_t = _ops.convert_to_tensor(c(self._beta1), name="beta1")
    self._beta2_t = _ops.convert_to_tensor(c(self._beta2), name="beta2")
    self._epsilon_t = _ops.convert_to_tensor(c(self._epsilon), name="epsilon")

  def _apply_dense(self, grad, var):
    m = self.get_slot(var, "m")
    v = self.get_slot(var, "v")
    beta1_power, beta2_power = self._get_beta_accumulators()
    dt = var.dtype.base_dtype
    cast = _math_ops.cast
    return apply_adam(
        var._ref(), m._ref(), v._ref(),  # pylint: disable=protected-access
        cast(beta1_power, dt), cast(beta2_power, dt), cast(self._lr_t, dt),
        cast(self._beta1_t, dt), cast(self._beta2_t, dt), cast(self._epsilon_t, dt),
        grad, use_locking=self._use_locking)

  def _apply_sparse(self, grad, var):
    """TF 1.x's sparse Adam: m and v of every row decay (m *= beta1, v *= beta2),
    the rows of the gradient are added (ScatterAdd), and every row of var
    moves by lr_t * m / (sqrt(v) + epsilon). Resource variables take the same
    steps through AssignVariableOp, ResourceScatterAdd and AssignSubVariableOp."""
    from tfc.ops import state_ops as _state_ops  # pylint: disable=g-import-not-at-top
    beta1_power, beta2_power = self._get_beta_accumulators()
    dt = var.dtype.base_dtype
    cast = _math_ops.cast
    beta1_power = cast(beta1_power, dt)
    beta2_power = cast(beta2_power, dt)
    lr_t = cast(self._lr_t, dt)
    beta1_t = cast(self._beta1_t, dt)
    beta2_t = cast(self._beta2_t, dt)
    epsilon_t = cast(self._epsilon_t, dt)
    lr = lr_t * _math_ops.sqrt(1 - beta2_power) / (1 - beta1_power)
    resource = _optimizer._is_resource(var)  # pylint: disable=protected-access

    def decay(slot, factor):
      if resource:  # AssignVariableOp
        return slot.assign(slot * factor, use_locking=self._use_locking)
      return _state_ops.assign(slot._ref(), slot * factor, use_locking=self._use_locking)  # pylint: disable=protected-access

    def scatter_add(slot, values):
      if resource:  # ResourceScatterAdd, then a read of the slot
        with _ops.control_dependencies(
            [_rv.resource_scatter_add(slot.handle, grad.indices, values)]):
          return slot.value()
      return _state_ops.scatter_add(slot._ref(), grad.indices, values,  # pylint: disable=protected-access
                                    use_locking=self._use_locking)

    m = self.get_slot(var, "m")
    m_scaled_g_values = grad.values * (1 - beta1_t)
    m_t = decay(m, beta1_t)
    with _ops.control_dependencies([m_t]):
      m_t = scatter_add(m, m_scaled_g_values)
    v = self.get_slot(var, "v")
    v_scaled_g_values = (grad.values * grad.values) * (1 - beta2_t)
    v_t = decay(v, beta2_t)
    with _ops.control_dependencies([v_t]):
      v_t = scatter_add(v, v_scaled_g_values)
    v_sqrt = _math_ops.sqrt(v_t)
    step = lr * m_t / (v_sqrt + epsilon_t)
    if resource:
      var_update = var.assign_sub(step, use_locking=self._use_locking)
    else:
      var_update = _state_ops.assign_sub(var._ref(), step,  # pylint: disable=protected-access
                                         use_locking=self._use_locking)
    return _control_flow_ops.group(*[var_update, m_t, v_t])

  def _finish(self, update_ops, name_scope):
    with _ops.control_dependencies(update_ops):
      beta1_power, beta2_power = self._get_beta_accumulators()
      with _ops.colocate_with(beta1_power.op):
        update_beta1 = beta1_power.assign(beta1_power * self._beta1_t,
                                          use_locking=self._use_locking)
        update_beta2 = beta2_power.assign(beta2_power * self._beta2_t,
                                          use_locking=self._use_locking)
    return _control_flow_ops.group(*update_ops + [update_beta1, update_beta2], name=name_scope)
