"""tf.train.RMSPropOptimizer (ApplyRMSProp, ApplyCenteredRMSProp).

ms = decay * ms + (1 - decay) * grad^2; mom = momentum * mom + lr * grad / sqrt(ms + epsilon);
var -= mom. Centered: mg = decay * mg + (1 - decay) * grad, and the denominator is
sqrt(ms - mg^2 + epsilon).
"""
from tfc.framework import ops as _ops
from tfc.ops import array_ops as _array_ops
from tfc.ops import init_ops as _init_ops
from tfc.ops import math_ops as _math_ops
from tfc.train import optimizer as _optimizer


def apply_rms_prop(var, ms, mom, lr, rho, momentum, epsilon, grad, use_locking=False,
                   name=None):
  return _optimizer._training_op("ApplyRMSProp", name,
                                 [var, ms, mom, lr, rho, momentum, epsilon, grad],
                   {"use_locking": bool(use_locking)})


def apply_centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad,
                            use_locking=False, name=None):
  return _optimizer._training_op("ApplyCenteredRMSProp", name,
                   [var, mg, ms, mom, lr, rho, momentum, epsilon, grad],
                   {"use_locking": bool(use_locking)})


def sparse_apply_rms_prop(var, ms, mom, lr, rho, momentum, epsilon, grad, indices,
                          use_locking=False, name=None):
  """SparseApplyRMSProp: ApplyRMSProp's rule on rows `indices`
  (ResourceSparseApplyRMSProp, an Operation, when var is a resource handle)."""
  return _optimizer._sparse_training_op("SparseApplyRMSProp", name,
                                        [var, ms, mom, lr, rho, momentum, epsilon, grad, indices],
                                        {"use_locking": bool(use_locking)})


def sparse_apply_centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices,
                                   use_locking=False, name=None):
  """SparseApplyCenteredRMSProp: ApplyCenteredRMSProp's rule on rows `indices`
  (ResourceSparseApplyCenteredRMSProp, an Operation, when var is a resource handle)."""
  return _optimizer._sparse_training_op(
      "SparseApplyCenteredRMSProp", name,
      [var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices],
      {"use_locking": bool(use_locking)})


class RMSPropOptimizer(_optimizer.Optimizer):
  """RMSProp; slots 'rms' ('<var>/RMSProp', ones), 'mg' when centered (zeros) and
  'momentum' (zeros), named '<var>/RMSProp', '<var>/RMSProp_1', ... in that order."""

  def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
               centered=False, name="RMSProp"):
    super(RMSPropOptimizer, self).__init__(use_locking, name)
    self._learning_rate = learning_rate
    self._decay = decay
    self._momentum = momentum
    self._epsilon = epsilon
    self._centered = centered

  def _create_slots(self, var_list):
    for v in var_list:
      if v.get_shape().is_fully_defined():
        init_rms = _init_ops.ones_initializer(dtype=v.dtype.base_dtype)
      else:
        init_rms = _array_ops.ones_like(v)
      self._get_or_make_slot_with_initializer(v, init_rms, v.get_shape(), v.dtype.base_dtype,
                                              "rms", self._name)
      if self._centered:
        self._zeros_slot(v, "mg", self._name)
      self._zeros_slot(v, "momentum", self._name)

  def _prepare(self):
    c = self._call_if_callable
    self._learning_rate_tensor = _ops.convert_to_tensor(c(self._learning_rate),
                                                        name="learning_rate")
    self._decay_tensor = _ops.convert_to_tensor(c(self._decay), name="decay")
    self._momentum_tensor = _ops.convert_to_tensor(c(self._momentum), name="momentum")
    self._epsilon_tensor = _ops.convert_to_tensor(c(self._epsilon), name="epsilon")

  def _apply_dense(self, grad, var):
    rms = self.get_slot(var, "rms")
    mom = self.get_slot(var, "momentum")
    dt = var.dtype.base_dtype
    hyper = (_math_ops.cast(self._learning_rate_tensor, dt), _math_ops.cast(self._decay_tensor, dt),
             _math_ops.cast(self._momentum_tensor, dt), _math_ops.cast(self._epsilon_tensor, dt))
    # pylint: disable=protected-access
    if self._centered:
      mg = self.get_slot(var, "mg")
      return apply_centered_rms_prop(var._ref(), mg._ref(), rms._ref(), mom._ref(), *hyper,
                                     grad, use_locking=self._use_locking)
    return apply_rms_prop(var._ref(), rms._ref(), mom._ref(), *hyper, grad,
                          use_locking=self._use_locking)

  def _apply_sparse(self, grad, var):
    rms = self.get_slot(var, "rms")
    mom = self.get_slot(var, "momentum")
    dt = var.dtype.base_dtype
    hyper = (_math_ops.cast(self._learning_rate_tensor, dt), _math_ops.cast(self._decay_tensor, dt),
             _math_ops.cast(self._momentum_tensor, dt), _math_ops.cast(self._epsilon_tensor, dt))
    # pylint: disable=protected-access
    if self._centered:
      mg = self.get_slot(var, "mg")
      return _optimizer._as_op(sparse_apply_centered_rms_prop(
          var._ref(), mg._ref(), rms._ref(), mom._ref(), *hyper, grad.values, grad.indices,
          use_locking=self._use_locking))
    return _optimizer._as_op(sparse_apply_rms_prop(
        var._ref(), rms._ref(), mom._ref(), *hyper, grad.values, grad.indices,
        use_locking=self._use_locking))
