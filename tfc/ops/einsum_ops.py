"""einsum, repeat and batch_gather: compositions of existing ops, as TF 1.15
composes them in Python (their gradients come from the ops they are built
of)."""
import string as _string

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops


def _parse(equation, ranks):
  """The operand subscripts and output subscripts of equation, with '...'
  expanded to letters the equation does not use (static ranks needed)."""
  eq = equation.replace(" ", "")
  if "->" in eq:
    lhs, out = eq.split("->")
  else:
    lhs, out = eq, None
  ins = lhs.split(",")
  if len(ins) != len(ranks):
    raise ValueError("einsum: equation %r names %d operands, got %d" % (equation, len(ins),
                                                                          len(ranks)))
  spare = [c for c in _string.ascii_letters if c not in eq]
  ell_rank = 0
  for sub, r in zip(ins, ranks):
    if "..." in sub:
      if r is None:
        raise ValueError("einsum: '...' needs operands of known rank")
      ell_rank = max(ell_rank, r - len(sub.replace("...", "")))
  ell = "".join(spare[:ell_rank])
  expanded = []
  for sub, r in zip(ins, ranks):
    if "..." in sub:
      n = r - len(sub.replace("...", ""))
      sub = sub.replace("...", ell[ell_rank - n:])
    expanded.append(sub)
  if out is None:
    counts = {}
    for sub in expanded:
      for c in sub:
        counts[c] = counts.get(c, 0) + 1
    out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
  else:
    out = out.replace("...", ell)
  for sub, r in zip(expanded, ranks):
    if not all(c.isalpha() for c in sub):
      raise ValueError("einsum: invalid subscripts %r in %r" % (sub, equation))
    if len(set(sub)) != len(sub):
      raise NotImplementedError("einsum: a subscript repeated within one operand (%r) is not "
                                "supported" % sub)
    if r is not None and r != len(sub):
      raise ValueError("einsum: subscripts %r do not match an operand of rank %d" % (sub, r))
  for c in out:
    if not any(c in sub for sub in expanded):
      raise ValueError("einsum: output subscript %r does not appear in any input" % c)
  return expanded, out


def _dims(t):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  return array_ops.shape(t)


def _sum_out(t, sub, keep):
  """Sums t over the subscripts of sub not in keep; returns (t, new sub)."""
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  axes = [i for i, c in enumerate(sub) if c not in keep]
  if axes:
    t = math_ops.reduce_sum(t, axis=axes)
    sub = "".join(c for c in sub if c in keep)
  return t, sub


def _transpose_to(t, sub, target):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  if sub == target:
    return t
  return array_ops.transpose(t, [sub.index(c) for c in target])


def einsum(equation, *inputs, **kwargs):
  """Einstein summation over one or two operands: 'ij,jk->ik', 'bij,bjk->bik',
  'i,j->ij', '...ij,...jk', 'ij->ji', 'ij->' and the like (implicit output:
  the subscripts that appear once, in alphabetical order). A subscript
  repeated within one operand (traces, diagonals) is not supported."""
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  name = kwargs.pop("name", None)
  if kwargs:
    raise TypeError("einsum: unexpected keyword arguments %s" % sorted(kwargs))
  if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
    inputs = tuple(inputs[0])
  if len(inputs) not in (1, 2):
    raise NotImplementedError("einsum supports one or two operands, got %d" % len(inputs))
  with _ops.name_scope(name, "einsum", list(inputs)):
    inputs = [_ops.convert_to_tensor(x, name="input_%d" % i) for i, x in enumerate(inputs)]
    subs, out = _parse(equation, [x.shape.ndims for x in inputs])
    if len(inputs) == 1:
      t, sub = _sum_out(inputs[0], subs[0], out)
      return _transpose_to(t, sub, out)
    a, b = inputs
    sa, sb = subs
    a, sa = _sum_out(a, sa, out + sb)
    b, sb = _sum_out(b, sb, out + sa)
    batch = [c for c in out if c in sa and c in sb]
    contract = [c for c in sa if c in sb and c not in out]
    left = [c for c in sa if c not in sb]
    right = [c for c in sb if c not in sa]
    a = _transpose_to(a, sa, "".join(batch + left + contract))
    b = _transpose_to(b, sb, "".join(batch + contract + right))
    sa_shape, sb_shape = _dims(a), _dims(b)
    nb, nl, nc = len(batch), len(left), len(contract)

    def prod(shape, lo, hi):
      if lo == hi:
        return _ops.convert_to_tensor([1])
      return math_ops.reduce_prod(shape[lo:hi], keepdims=True)

    a3 = array_ops.reshape(a, array_ops.concat(
        [sa_shape[:nb], prod(sa_shape, nb, nb + nl), prod(sa_shape, nb + nl, nb + nl + nc)], 0))
    b3 = array_ops.reshape(b, array_ops.concat(
        [sb_shape[:nb], prod(sb_shape, nb, nb + nc), prod(sb_shape, nb + nc, nb + nc + len(right))],
        0))
    prod3 = math_ops.matmul(a3, b3)
    result = array_ops.reshape(prod3, array_ops.concat(
        [sa_shape[:nb + nl], sb_shape[nb + nc:]], 0))
    return _transpose_to(result, "".join(batch + left + right), out)


def repeat(input, repeats, axis=None, name=None):  # pylint: disable=redefined-builtin
  """Repeats each element of input `repeats` times along axis (the flattened
  input when axis is None), like numpy.repeat; repeats is a scalar or one
  count per element of that axis."""
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "Repeat", [input, repeats]):
    input = _ops.convert_to_tensor(input, name="input")
    repeats = _ops.convert_to_tensor(repeats, name="repeats", dtype=_dtypes.int32)
    if axis is None:
      input = array_ops.reshape(input, [-1])
      axis = 0
    rank = input.shape.ndims
    if rank is None:
      raise ValueError("repeat needs an input of known rank")
    if axis < 0:
      axis += rank
    n = array_ops.shape(input)[axis]
    counts = array_ops.broadcast_to(repeats, array_ops.reshape(n, [1]))
    # the source element of every output position: the first cumulative
    # count above the position
    from tfc.ops import scan_ops, sort_ops  # pylint: disable=g-import-not-at-top
    ends = scan_ops.cumsum(counts)
    total = math_ops.reduce_sum(counts)
    positions = math_ops.range(total)
    src = sort_ops.searchsorted(ends, positions, side="right")
    return array_ops.gather(input, src, axis=axis)


def batch_gather(params, indices, name=None):
  """params gathered along the dimension after indices' leading (batch)
  dimensions: out[b..., i] = params[b..., indices[b..., i]]."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "BatchGather", [params, indices]):
    params = _ops.convert_to_tensor(params, name="params")
    indices = _ops.convert_to_tensor(indices, name="indices")
    nb = indices.shape.ndims
    if nb is None:
      raise ValueError("batch_gather needs indices of known rank")
    return array_ops.gather(params, indices, axis=nb - 1, batch_dims=nb - 1)


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
  """The sum of (weighted) per-example losses divided by the global batch size
  (by default the first dimension of per_example_loss: one replica)."""
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  per_example_loss = _ops.convert_to_tensor(per_example_loss)
  if sample_weight is not None:
    per_example_loss = math_ops.multiply(
        per_example_loss, math_ops.cast(sample_weight, per_example_loss.dtype))
  if global_batch_size is None:
    global_batch_size = array_ops.shape(per_example_loss)[0]
  total = math_ops.reduce_sum(per_example_loss)
  return math_ops.div_no_nan(total, math_ops.cast(global_batch_size, per_example_loss.dtype))


def scale_regularization_loss(regularization_loss):
  """The summed regularization loss divided by the number of replicas (one in
  a graph session)."""
  from tfc.ops import math_ops  # pylint: disable=g-import-not-at-top
  return math_ops.reduce_sum(regularization_loss)
