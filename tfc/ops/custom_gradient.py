"""tf.custom_gradient, tf.grad_pass_through and tf.recompute_grad (graph mode).

custom_gradient(f): f(*x) returns (y, grad_fn); the decorated function returns y passed
through one IdentityN over [y..., x..., variables...] whose gradient is overridden with a
function registered for this call, so tf.gradients calls grad_fn(*dy) and routes its
results to x (and, when grad_fn takes `variables=`, to the trainable variables f
created). This is how TF 1.x builds it in a graph.
"""
import functools
import inspect
import itertools

from tfc.framework import nest as _nest
from tfc.framework import ops as _ops
from tfc.ops import array_ops as _array_ops
from tfc.ops import gradient_registry as _gradient_registry

_UIDS = itertools.count()


def _accepts_variables(fn):
  try:
    params = inspect.signature(fn).parameters
  except (TypeError, ValueError):
    return False
  return "variables" in params or any(p.kind == p.VAR_KEYWORD for p in params.values())


def _trainable_variables(graph):
  return list(graph.get_collection(_ops.GraphKeys.TRAINABLE_VARIABLES))


def _graph_mode_call(f, args, kwargs):
  graph = _ops.get_default_graph()
  args = [_ops.convert_to_tensor(x) for x in args]
  before = set(id(v) for v in _trainable_variables(graph))
  result, grad_fn = f(*args, **kwargs)
  new_vars = [v for v in _trainable_variables(graph) if id(v) not in before]
  if new_vars and not _accepts_variables(grad_fn):
    raise TypeError("If using @custom_gradient with a function that creates variables, the "
                    "grad_fn must accept keyword argument 'variables'.")
  flat_result = [_ops.convert_to_tensor(r) for r in _nest.flatten(result)]
  n_result = len(flat_result)
  variable_values = [v._ref() if hasattr(v, "_ref") and not _is_resource(v) else
                     _ops.convert_to_tensor(v) for v in new_vars]
  name = "CustomGradient-%d" % next(_UIDS)

  @_gradient_registry.RegisterGradient(name)
  def _grad(unused_op, *out_grads):
    dys = list(out_grads[:n_result])
    if new_vars:
      input_grads, variable_grads = grad_fn(*dys, variables=new_vars)
      variable_grads = list(variable_grads)
      if len(variable_grads) != len(new_vars):
        raise ValueError("Must return gradient for each variable from @custom_gradient "
                         "grad_fn.")
    else:
      input_grads, variable_grads = grad_fn(*dys), []
    input_grads = list(_nest.flatten(input_grads))
    if len(input_grads) != len(args):
      raise ValueError("custom_gradient function expected to return %d gradients but "
                       "returned %d instead." % (len(args), len(input_grads)))
    return [None] * n_result + input_grads + variable_grads

  del _grad
  with graph.gradient_override_map({"IdentityN": name}):
    outputs = _array_ops.identity_n(flat_result + args + variable_values)
  for out, res in zip(outputs, flat_result):
    out.set_shape(res.shape)
  return _nest.pack_sequence_as(result, outputs[:n_result])


def _is_resource(v):
  return getattr(v, "handle", None) is not None


def custom_gradient(f=None):
  """Decorator: f(*x) -> (y, grad_fn) defines y with the gradient grad_fn(*dy) -> dx
  (or (dx, dvariables) when grad_fn takes `variables=`). Usable as @custom_gradient or
  @custom_gradient()."""
  if f is None:
    return custom_gradient

  @functools.wraps(f)
  def decorated(*args, **kwargs):
    return _graph_mode_call(f, args, kwargs)
  return decorated


def grad_pass_through(f):
  """Wraps f so that its gradient is the identity: the forward value is f(x), the
  backward pass hands dy straight to x (e.g. for non-differentiable assignments)."""
  @custom_gradient
  def _pass_through(*args, **kwargs):
    def grad(*dys, **grad_kwargs):
      variables = grad_kwargs.get("variables")
      if variables is not None:
        return list(dys), [None] * len(variables)
      return list(dys)
    return f(*args, **kwargs), grad

  @functools.wraps(f)
  def wrapper(*args, **kwargs):
    return _pass_through(*args, **kwargs)
  return wrapper


def recompute_grad(f):
  """Wraps f so that the backward pass recomputes f's intermediate values from its
  inputs instead of keeping them (trading compute for memory). Variables f uses are
  reused when it is recomputed, and receive their gradients."""
  @functools.wraps(f)
  def wrapper(*args):
    from tfc.ops import gradients_impl as _gradients_impl  # pylint: disable=g-import-not-at-top
    from tfc.ops import variable_scope as _vs  # pylint: disable=g-import-not-at-top
    scope = _vs.get_variable_scope()

    @custom_gradient
    def inner(*inputs):
      result = f(*inputs)

      def grad(*dresult, **grad_kwargs):
        variables = list(grad_kwargs.get("variables") or [])
        with _ops.control_dependencies([d for d in dresult if d is not None]):
          copies = [_array_ops.identity(x) for x in inputs]
          with _vs.variable_scope(scope, reuse=True):
            recomputed = f(*copies)
        targets = copies + variables
        grads = _gradients_impl.gradients(_nest.flatten(recomputed), targets,
                                          grad_ys=list(dresult))
        if variables:
          return grads[:len(copies)], grads[len(copies):]
        return grads[:len(copies)]
      return result, grad
    return inner(*args)
  return wrapper
