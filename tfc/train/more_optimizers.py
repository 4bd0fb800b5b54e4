"""tf.train.AdadeltaOptimizer, FtrlOptimizer, ProximalAdagradOptimizer and
ProximalGradientDescentOptimizer: TF 1.15's optimizers over the fused ApplyAdadelta,
ApplyFtrl / ApplyFtrlV2, ApplyProximalAdagrad and ApplyProximalGradientDescent kernels
(Resource* forms for resource variables), with TF's slot names. Sparse (IndexedSlices)
gradients are not supported by these four yet."""
from tfc.framework import ops as _ops
from tfc.ops import array_ops as _array_ops
from tfc.ops import init_ops as _init_ops
from tfc.ops import math_ops as _math_ops
from tfc.train import optimizer as _optimizer


def _ref(var):
  return var._ref()  # pylint: disable=protected-access


class AdadeltaOptimizer(_optimizer.Optimizer):
  """Adadelta (Zeiler 2012); slots 'accum' and 'accum_update' (zeros)."""

  def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False,
               name="Adadelta"):
    super(AdadeltaOptimizer, self).__init__(use_locking, name)
    self._lr, self._rho, self._epsilon = learning_rate, rho, epsilon
    self._tensors = None

  def _create_slots(self, var_list):
    for v in var_list:
      self._zeros_slot(v, "accum", self._name)
      self._zeros_slot(v, "accum_update", self._name)

  def _prepare(self):
    self._tensors = [
        _ops.convert_to_tensor(self._call_if_callable(x), name=n)
        for x, n in ((self._lr, "lr"), (self._rho, "rho"), (self._epsilon, "epsilon"))]

  def _apply_dense(self, grad, var):
    dt = var.dtype.base_dtype
    lr, rho, eps = (_math_ops.cast(t, dt) for t in self._tensors)
    return _optimizer._training_op(  # pylint: disable=protected-access
        "ApplyAdadelta", None,
        [_ref(var), _ref(self.get_slot(var, "accum")), _ref(self.get_slot(var, "accum_update")),
         lr, rho, eps, grad], {"use_locking": bool(self._use_locking)})


class ProximalGradientDescentOptimizer(_optimizer.Optimizer):
  """Gradient descent followed by the l1/l2 proximal operator (FOBOS)."""

  def __init__(self, learning_rate, l1_regularization_strength=0.0,
               l2_regularization_strength=0.0, use_locking=False, name="ProximalGradientDescent"):
    super(ProximalGradientDescentOptimizer, self).__init__(use_locking, name)
    self._lr = learning_rate
    self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
    self._tensors = None

  def _prepare(self):
    self._tensors = [
        _ops.convert_to_tensor(self._call_if_callable(x), name=n)
        for x, n in ((self._lr, "learning_rate"), (self._l1, "l1_regularization_strength"),
                     (self._l2, "l2_regularization_strength"))]

  def _apply_dense(self, grad, var):
    dt = var.dtype.base_dtype
    lr, l1, l2 = (_math_ops.cast(t, dt) for t in self._tensors)
    return _optimizer._training_op(  # pylint: disable=protected-access
        "ApplyProximalGradientDescent", None, [_ref(var), lr, l1, l2, grad],
        {"use_locking": bool(self._use_locking)})


def _constant_slot(opt, v, value, slot_name, op_name):
  dtype = v.dtype.base_dtype
  if v.get_shape().is_fully_defined():
    init = _init_ops.constant_initializer(value, dtype=dtype)
  else:
    init = _array_ops.ones_like(v) * value
  opt._get_or_make_slot_with_initializer(v, init, v.get_shape(), dtype, slot_name,  # pylint: disable=protected-access
                                         op_name)


class ProximalAdagradOptimizer(_optimizer.Optimizer):
  """Adagrad followed by the l1/l2 proximal operator; slot 'accumulator'."""

  def __init__(self, learning_rate, initial_accumulator_value=0.1,
               l1_regularization_strength=0.0, l2_regularization_strength=0.0,
               use_locking=False, name="ProximalAdagrad"):
    if initial_accumulator_value <= 0.0:
      raise ValueError("initial_accumulator_value must be positive: %s" %
                       initial_accumulator_value)
    super(ProximalAdagradOptimizer, self).__init__(use_locking, name)
    self._lr = learning_rate
    self._initial = initial_accumulator_value
    self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
    self._tensors = None

  def _create_slots(self, var_list):
    for v in var_list:
      _constant_slot(self, v, self._initial, "accumulator", self._name)

  def _prepare(self):
    self._tensors = [
        _ops.convert_to_tensor(self._call_if_callable(x), name=n)
        for x, n in ((self._lr, "learning_rate"), (self._l1, "l1_regularization_strength"),
                     (self._l2, "l2_regularization_strength"))]

  def _apply_dense(self, grad, var):
    dt = var.dtype.base_dtype
    lr, l1, l2 = (_math_ops.cast(t, dt) for t in self._tensors)
    return _optimizer._training_op(  # pylint: disable=protected-access
        "ApplyProximalAdagrad", None,
        [_ref(var), _ref(self.get_slot(var, "accumulator")), lr, l1, l2, grad],
        {"use_locking": bool(self._use_locking)})


class FtrlOptimizer(_optimizer.Optimizer):
  """FTRL-Proximal (McMahan et al. 2013); slots 'accum' (initial_accumulator_value) and
  'linear' (zeros). With l2_shrinkage_regularization_strength > 0 the update is
  ApplyFtrlV2."""

  def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
               l1_regularization_strength=0.0, l2_regularization_strength=0.0,
               use_locking=False, name="Ftrl", accum_name=None, linear_name=None,
               l2_shrinkage_regularization_strength=0.0):
    super(FtrlOptimizer, self).__init__(use_locking, name)
    if initial_accumulator_value < 0.0:
      raise ValueError("initial_accumulator_value %f needs to be positive or zero"
                       % initial_accumulator_value)
    if learning_rate_power > 0.0:
      raise ValueError("learning_rate_power %f needs to be negative or zero"
                       % learning_rate_power)
    if l1_regularization_strength < 0.0:
      raise ValueError("l1_regularization_strength %f needs to be positive or zero"
                       % l1_regularization_strength)
    if l2_regularization_strength < 0.0:
      raise ValueError("l2_regularization_strength %f needs to be positive or zero"
                       % l2_regularization_strength)
    if l2_shrinkage_regularization_strength < 0.0:
      raise ValueError("l2_shrinkage_regularization_strength %f needs to be positive or zero"
                       % l2_shrinkage_regularization_strength)
    self._lr = learning_rate
    self._lr_power = learning_rate_power
    self._initial = initial_accumulator_value
    self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
    self._l2_shrinkage = l2_shrinkage_regularization_strength
    self._accum_name, self._linear_name = accum_name, linear_name
    self._tensors = None

  def _create_slots(self, var_list):
    for v in var_list:
      _constant_slot(self, v, self._initial, "accum", self._accum_name or self._name)
      self._zeros_slot(v, "linear", self._linear_name or self._name)

  def _prepare(self):
    self._tensors = [
        _ops.convert_to_tensor(self._call_if_callable(x), name=n)
        for x, n in ((self._lr, "learning_rate"), (self._l1, "l1_regularization_strength"),
                     (self._l2, "l2_regularization_strength"),
                     (self._l2_shrinkage, "l2_shrinkage_regularization_strength"),
                     (self._lr_power, "learning_rate_power"))]

  def _apply_dense(self, grad, var):
    dt = var.dtype.base_dtype
    lr, l1, l2, shrink, power = (_math_ops.cast(t, dt) for t in self._tensors)
    refs = [_ref(var), _ref(self.get_slot(var, "accum")), _ref(self.get_slot(var, "linear"))]
    attrs = {"use_locking": bool(self._use_locking)}
    if self._l2_shrinkage <= 0.0:
      return _optimizer._training_op(  # pylint: disable=protected-access
          "ApplyFtrl", None, refs + [grad, lr, l1, l2, power], attrs)
    return _optimizer._training_op(  # pylint: disable=protected-access
        "ApplyFtrlV2", None, refs + [grad, lr, l1, l2, shrink, power], attrs)
