"""tf.verify_tensor_all_finite and tf.add_check_numerics_ops: CheckNumerics guards."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.ops import array_ops as _array_ops
from tfc.ops import control_flow_ops as _control_flow_ops
from tfc.ops import math_ops as _math_ops


def verify_tensor_all_finite(t=None, msg=None, name=None, x=None, message=None):
  """`t` itself, after a CheckNumerics that fails the step (InvalidArgumentError with
  `msg`) when t holds a NaN or an infinity. `x` and `message` are the TF 2 names."""
  x = _math_ops._deprecated_argument_lookup("x", x, "t", t)
  message = _math_ops._deprecated_argument_lookup("message", message, "msg", msg)
  with _ops.name_scope(name, "VerifyFinite", [x]):
    x = _ops.convert_to_tensor(x, name="x")
    with _ops.colocate_with(x):
      check = _array_ops.check_numerics(x, message=message)
      return _control_flow_ops.with_dependencies([check], x)


_FLOATS = (_dtypes.float16, _dtypes.float32, _dtypes.float64)


def add_check_numerics_ops():
  """Adds a CheckNumerics for every float16/32/64 output of the default graph's ops
  (chained by control dependencies) and returns one op that runs them all; a NaN or
  infinity anywhere then fails the step, naming the op and output ("op:0")."""
  checks = []
  for op in _ops.get_default_graph().get_operations():
    for output in op.outputs:
      if output.dtype in _FLOATS:
        with _ops.control_dependencies(checks):
          checks = [_array_ops.check_numerics(output, message="%s:%d"
                                              % (op.name, output.value_index))]
  return _control_flow_ops.group(*checks)
