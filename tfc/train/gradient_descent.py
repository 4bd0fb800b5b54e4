"""tf.train.GradientDescentOptimizer: var -= learning_rate * grad (ApplyGradientDescent)."""
from tfc.framework import ops as _ops
from tfc.ops import math_ops as _math_ops
from tfc.ops import resource_variable_ops as _rv
from tfc.ops import state_ops as _state_ops
from tfc.train import optimizer as _optimizer


def apply_gradient_descent(var, alpha, delta, use_locking=False, name=None):
  return _optimizer._training_op("ApplyGradientDescent", name, [var, alpha, delta],
                   {"use_locking": bool(use_locking)})


class GradientDescentOptimizer(_optimizer.Optimizer):
  """Plain gradient descent."""

  def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
    super(GradientDescentOptimizer, self).__init__(use_locking, name)
    self._learning_rate = learning_rate
    self._learning_rate_tensor = None

  def _prepare(self):
    lr = self._call_if_callable(self._learning_rate)
    self._learning_rate_tensor = _ops.convert_to_tensor(lr, name="learning_rate")

  def _apply_dense(self, grad, var):
    return apply_gradient_descent(
        var._ref(),  # pylint: disable=protected-access
        _math_ops.cast(self._learning_rate_tensor, var.dtype.base_dtype),
        grad, use_locking=self._use_locking)

  def _apply_sparse_duplicate_indices(self, grad, var):
    delta_values = grad.values * _math_ops.cast(self._learning_rate_tensor, var.dtype.base_dtype)
    if _optimizer._is_resource(var):  # pylint: disable=protected-access
      return _rv.resource_scatter_add(var.handle, grad.indices, -delta_values)
    return _state_ops.scatter_sub(var._ref(), grad.indices, delta_values,  # pylint: disable=protected-access
                                  use_locking=self._use_locking).op
