"""tf.train.AdagradOptimizer (ApplyAdagrad): accum += grad^2; var -= lr * grad / sqrt(accum)."""
from tfc.framework import ops as _ops
from tfc.ops import array_ops as _array_ops
from tfc.ops import init_ops as _init_ops
from tfc.ops import math_ops as _math_ops
from tfc.train import optimizer as _optimizer


def apply_adagrad(var, accum, lr, grad, use_locking=False, update_slots=True, name=None):
  return _optimizer._training_op("ApplyAdagrad", name, [var, accum, lr, grad],
                   {"use_locking": bool(use_locking),
                    "update_slots": bool(update_slots)})


def sparse_apply_adagrad(var, accum, lr, grad, indices, use_locking=False, update_slots=True,
                         name=None):
  """SparseApplyAdagrad: ApplyAdagrad's rule on rows `indices` of var and accum
  (ResourceSparseApplyAdagrad, an Operation, when var is a resource handle)."""
  return _optimizer._sparse_training_op("SparseApplyAdagrad", name,
                                        [var, accum, lr, grad, indices],
                                        {"use_locking": bool(use_locking),
                                         "update_slots": bool(update_slots)})


class AdagradOptimizer(_optimizer.Optimizer):
  """Adagrad; slot 'accumulator' (named '<var>/Adagrad'), filled with initial_accumulator_value."""

  def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
               name="Adagrad"):
    if initial_accumulator_value <= 0.0:
      raise ValueError("initial_accumulator_value must be positive: %s" %
                       initial_accumulator_value)
    super(AdagradOptimizer, self).__init__(use_locking, name)
    self._learning_rate = learning_rate
    self._initial_accumulator_value = initial_accumulator_value
    self._learning_rate_tensor = None

  def _create_slots(self, var_list):
    for v in var_list:
      dtype = v.dtype.base_dtype
      if v.get_shape().is_fully_defined():
        init = _init_ops.constant_initializer(self._initial_accumulator_value, dtype=dtype)
      else:
        init = _array_ops.ones_like(v) * self._initial_accumulator_value
      self._get_or_make_slot_with_initializer(v, init, v.get_shape(), dtype, "accumulator",
                                              self._name)

  def _prepare(self):
    self._learning_rate_tensor = _ops.convert_to_tensor(
        self._call_if_callable(self._learning_rate), name="learning_rate")

  def _apply_dense(self, grad, var):
    acc = self.get_slot(var, "accumulator")
    return apply_adagrad(
        var._ref(), acc._ref(),  # pylint: disable=protected-access
        _math_ops.cast(self._learning_rate_tensor, var.dtype.base_dtype), grad,
        use_locking=self._use_locking)

  def _apply_sparse(self, grad, var):
    acc = self.get_slot(var, "accumulator")
    return _optimizer._as_op(sparse_apply_adagrad(
        var._ref(), acc._ref(),  # pylint: disable=protected-access
        _math_ops.cast(self._learning_rate_tensor, var.dtype.base_dtype), grad.values,
        grad.indices, use_locking=self._use_locking))
