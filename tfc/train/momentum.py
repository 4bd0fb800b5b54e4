"""tf.train.MomentumOptimizer (ApplyMomentum).

accum = accum * momentum + grad; var -= lr * accum, or with use_nesterov
var -= lr * grad + lr * momentum * accum.
"""
from tfc.framework import ops as _ops
from tfc.ops import math_ops as _math_ops
from tfc.train import optimizer as _optimizer


def apply_momentum(var, accum, lr, grad, momentum, use_locking=False, use_nesterov=False,
                   name=None):
  return _optimizer._training_op("ApplyMomentum", name, [var, accum, lr, grad, momentum],
                   {"use_locking": bool(use_locking),
                    "use_nesterov": bool(use_nesterov)})


def sparse_apply_momentum(var, accum, lr, grad, indices, momentum, use_locking=False,
                          use_nesterov=False, name=None):
  """SparseApplyMomentum: ApplyMomentum's rule on rows `indices` of var and accum
  (ResourceSparseApplyMomentum, an Operation, when var is a resource handle)."""
  return _optimizer._sparse_training_op("SparseApplyMomentum", name,
                                        [var, accum, lr, grad, indices, momentum],
                                        {"use_locking": bool(use_locking),
                                         "use_nesterov": bool(use_nesterov)})


class MomentumOptimizer(_optimizer.Optimizer):
  """Gradient descent with momentum; slot 'momentum' (named '<var>/Momentum')."""

  def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum",
               use_nesterov=False):
    super(MomentumOptimizer, self).__init__(use_locking, name)
    self._learning_rate = learning_rate
    self._momentum = momentum
    self._use_nesterov = use_nesterov

  def _create_slots(self, var_list):
    for v in var_list:
      self._zeros_slot(v, "momentum", self._name)

  def _prepare(self):
    self._learning_rate_tensor = _ops.convert_to_tensor(
        self._call_if_callable(self._learning_rate), name="learning_rate")
    self._momentum_tensor = _ops.convert_to_tensor(
        self._call_if_callable(self._momentum), name="momentum")

  def _apply_dense(self, grad, var):
    mom = self.get_slot(var, "momentum")
    dt = var.dtype.base_dtype
    return apply_momentum(
        var._ref(), mom._ref(),  # pylint: disable=protected-access
        _math_ops.cast(self._learning_rate_tensor, dt), grad,
        _math_ops.cast(self._momentum_tensor, dt),
        use_locking=self._use_locking, use_nesterov=self._use_nesterov)

  def _apply_sparse(self, grad, var):
    mom = self.get_slot(var, "momentum")
    dt = var.dtype.base_dtype
    return _optimizer._as_op(sparse_apply_momentum(
        var._ref(), mom._ref(),  # pylint: disable=protected-access
        _math_ops.cast(self._learning_rate_tensor, dt), grad.values, grad.indices,
        _math_ops.cast(self._momentum_tensor, dt),
        use_locking=self._use_locking, use_nesterov=self._use_nesterov))
