"""Cumulative ops along an axis (cumsum, cumprod, cumulative_logsumexp) and
roll; one C kernel each (kernels/array_scan.c, kernels/array_roll.c)."""
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def _scan(op_type, default_name, x, axis, exclusive, reverse, name):
  with _ops.name_scope(name, default_name, [x]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    return _apply_op(op_type, name, [x, axis],
                     {"exclusive": bool(exclusive), "reverse": bool(reverse)}).outputs[0]


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
  """Running sums of x along axis; exclusive: the sum before each element
  (starting at 0); reverse: from the end of the axis."""
  return _scan("Cumsum", "Cumsum", x, axis, exclusive, reverse, name)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
  """Running products of x along axis (exclusive: starting at 1; reverse: from the end)."""
  return _scan("Cumprod", "Cumprod", x, axis, exclusive, reverse, name)


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
  """Running log(sum(exp(x))) along axis, computed without overflow
  (exclusive: starting at -inf; reverse: from the end)."""
  return _scan("CumulativeLogsumexp", "CumulativeLogsumexp", x, axis, exclusive, reverse, name)


def roll(input, shift, axis, name=None):  # pylint: disable=redefined-builtin
  """Moves the elements of input `shift` places along `axis`, wrapping around
  (shift and axis: scalars or equal-length vectors; repeated axes add up)."""
  return _apply_op("Roll", name, [input, shift, axis]).outputs[0]
