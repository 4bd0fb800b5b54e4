"""Grouping and control-dependency helpers (TF 1.15 `control_flow_ops`)."""
import builtins as _builtins

from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def no_op(name=None):
  return _apply_op("NoOp", name, [])


def _group_control_deps(dev, deps, name=None):
  with _ops.control_dependencies(deps):
    if dev is None:
      return no_op(name=name)
    with _ops.device(dev):
      return no_op(name=name)


def _flatten(inputs):
  for x in inputs:
    if isinstance(x, (list, _builtins.tuple)):
      for y in _flatten(x):
        yield y
    elif isinstance(x, dict):
      for k in sorted(x):
        for y in _flatten([x[k]]):
          yield y
    else:
      yield x


def group(*inputs, **kwargs):
  """An op (NoOp) that depends on all `inputs`, grouped per device."""
  name = kwargs.pop("name", None)
  if kwargs:
    raise ValueError("Unknown keyword arguments: " + ", ".join(kwargs.keys()))
  with _ops.name_scope(name, "group_deps", list(_flatten(inputs))) as name:
    if not inputs:
      return no_op(name=name)
    ops_on_device = {}
    for inp in _flatten(inputs):
      if not hasattr(inp, "device"):
        raise TypeError("Expected tf.group() expected Tensor arguments not '%s' with type '%s'"
                        % (inp, type(inp)))
      dev = inp.device
      if dev in ops_on_device:
        ops_on_device[dev].append(inp)
      else:
        ops_on_device[dev] = [inp]
    if len(ops_on_device) == 1:
      (dev, deps), = ops_on_device.items()
      return _group_control_deps(dev, deps, name=name)
    all_deps = []
    for dev in sorted(ops_on_device, key=lambda d: "" if d is None else d):
      all_deps.append(_group_control_deps(dev, ops_on_device[dev]))
    with _ops.control_dependencies(all_deps):
      return no_op(name=name)


def with_dependencies(dependencies, output_tensor, name=None):
  with _ops.name_scope(name, "control_dependency", list(dependencies) + [output_tensor]) as name:
    with _ops.colocate_with(output_tensor):
      with _ops.control_dependencies(dependencies):
        output_tensor = _ops.convert_to_tensor(output_tensor)
        return _apply_op("Identity", name, [output_tensor]).outputs[0]


def tuple(tensors, name=None, control_inputs=None):  # pylint: disable=redefined-builtin
  with _ops.name_scope(name, "tuple", [t for t in tensors if t is not None]) as name:
    gating_ops = [t.op for t in tensors if t is not None]
    if control_inputs:
      for c in control_inputs:
        if isinstance(c, _ops.Tensor):
          c = c.op
        elif not isinstance(c, _ops.Operation):
          raise TypeError("Control input must be Operation or Tensor: %s" % c)
        gating_ops.append(c)
    gating_ops = sorted(set(gating_ops), key=lambda op: op._id)
    if not gating_ops:
      raise ValueError("Must have at least one Tensor: %s" % tensors)
    gate = group(*gating_ops)
    tpl = []
    for t in tensors:
      if t is not None:
        tpl.append(with_dependencies([gate], t))
      else:
        tpl.append(None)
    return tpl


def identity(input, name=None):  # pylint: disable=redefined-builtin
  return _apply_op("Identity", name, [input]).outputs[0]
