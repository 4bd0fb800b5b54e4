"""The gradient-function registry: `tf.RegisterGradient`, `tf.NoGradient`.

Gradient functions are looked up by op type, or by the type the graph's
`gradient_override_map` had in force for that op when it was created.
A type registered through `NoGradient` maps to None: its inputs get no
gradient. An unregistered type raises LookupError.
"""

_REGISTRY = {}
_BUILTINS_LOADED = [False]


def _load_builtins():
  """Imports the built-in gradient modules on first use (keeps `import tfc` fast).

  Called before any registration or lookup, so a user registration for a type
  that has a built-in gradient fails as in TF, at registration time.
  """
  if _BUILTINS_LOADED[0]:
    return
  _BUILTINS_LOADED[0] = True
  from tfc.ops import math_grad, array_grad, nn_grad, control_flow_grad, tensor_array_grad, sparse_grad, linalg_grad, special_math_grad, segment_grad, scan_grad, scatter_nd_grad, array_extra_grad, lrn_grad, spectral_grad, image_detect_grad, nn3d_grad, nn_window_grad, ctc_grad, random_grad, fake_quant_grad  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import


class RegisterGradient(object):
  """Decorator registering `f(op, *out_grads) -> in_grads` for an op type."""

  def __init__(self, op_type):
    if not isinstance(op_type, str):
      raise TypeError("op_type must be a string")
    self._op_type = op_type

  def __call__(self, f):
    _load_builtins()
    if self._op_type in _REGISTRY:
      raise KeyError("Registering two gradient with name '%s'! (Previous registration "
                     "was in %s)" % (self._op_type, _where(_REGISTRY[self._op_type])))
    _REGISTRY[self._op_type] = f
    return f


def _where(f):
  code = getattr(f, "__code__", None)
  if code is None:
    return "<NoGradient>"
  return "%s %s:%d" % (f.__name__, code.co_filename, code.co_firstlineno)


def NoGradient(op_type):  # pylint: disable=invalid-name
  """Declares that ops of `op_type` are not differentiable."""
  if not isinstance(op_type, str):
    raise TypeError("op_type must be a string")
  _load_builtins()
  if op_type in _REGISTRY:
    raise KeyError("Registering two gradient with name '%s'! (Previous registration "
                   "was in %s)" % (op_type, _where(_REGISTRY[op_type])))
  _REGISTRY[op_type] = None


no_gradient = NoGradient
NotDifferentiable = NoGradient


def _gradient_op_type(op):
  """The op type used for the gradient lookup of `op` (after any override)."""
  g = op.graph
  fn = getattr(g, "_gradient_override_type", None)
  if fn is not None:
    t = fn(op)
    if t is not None:
      return t
  return op.type


def get_gradient_function(op):
  """The registered gradient function of `op`, None when it has no inputs or
  is not differentiable; LookupError when its type has no registration."""
  if not op.inputs:
    return None
  _load_builtins()
  op_type = _gradient_op_type(op)
  try:
    return _REGISTRY[op_type]
  except KeyError:
    if hasattr(op.graph, "_function_signature") and (
        op_type in ("PartitionedCall", "StatefulPartitionedCall", "If", "StatelessIf", "Case",
                    "StatelessCase", "While", "StatelessWhile") or
        op.graph._function_signature(op_type)):
      from tfc.framework import function as _function  # pylint: disable=g-import-not-at-top
      fn = _function._gradient_for_call(op)
      if fn is not None:
        return fn
    raise LookupError("gradient registry has no entry for: %s" % op_type)
