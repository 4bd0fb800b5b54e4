"""tf.guarantee_const, tf.timestamp and tf.switch_case."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def guarantee_const(input, name=None):  # pylint: disable=redefined-builtin
  """input, with the promise that its value never changes (an identity in tfc)."""
  return _apply_op("GuaranteeConst", name, [input]).outputs[0]


def timestamp(name=None):
  """The time the op runs, in seconds since the epoch (a float64 scalar)."""
  return _apply_op("Timestamp", name, []).outputs[0]


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
  """Runs branch_fns[branch_index] (a list of callables, of (index, callable) pairs, or a
  dict index -> callable); an index outside them runs `default`, or the last branch when
  default is None. Built from tf.case's conditionals."""
  from tfc.ops import control_flow_ops as _cf  # pylint: disable=g-import-not-at-top
  from tfc.ops import math_ops as _math_ops  # pylint: disable=g-import-not-at-top
  if isinstance(branch_fns, dict):
    items = sorted(branch_fns.items())
  elif branch_fns and isinstance(branch_fns[0], (tuple, list)):
    items = sorted((int(k), fn) for k, fn in branch_fns)
  else:
    items = list(enumerate(branch_fns))
  if not items:
    raise ValueError("Must provide at least one item in `branch_fns`")
  for key, fn in items:
    if not isinstance(key, int):
      raise TypeError("branch_index must be an int, got %r" % (key,))
    if not callable(fn):
      raise TypeError("fn for branch %d must be callable" % key)
  if [k for k, _ in items] != list(range(len(items))):
    raise ValueError("branch indices must be 0, 1, ..., %d" % (len(items) - 1))
  if default is None:
    default = items[-1][1]
    items = items[:-1]
  with _ops.name_scope(name, "switch_case", [branch_index]):
    index = _ops.convert_to_tensor(branch_index, name="branch_index")
    if index.dtype.base_dtype != _dtypes.int32:
      raise TypeError("branch_index must be an int32 Tensor, got %s" % index.dtype.name)
    pairs = [(_math_ops.equal(index, k), fn) for k, fn in items]
    if not pairs:
      return default()
    return _cf.case(pairs, default=default, exclusive=False)
