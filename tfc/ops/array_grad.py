"""Gradient functions of the array ops (shape manipulation, slicing, gathering)."""
import numpy as np

from tfc import dtypes as _dtypes
from tfc.framework.op_def_library import _apply_op
from tfc.ops.gradient_registry import RegisterGradient, NoGradient
from tfc.ops.math_grad import (_out, _const, _const_value, _shape, _static_shape, _reshape,
                               _sum, _unbroadcast_to)

_int32 = _dtypes.int32

for _t in ("StopGradient", "ZerosLike", "OnesLike", "OneHot", "ConcatOffset", "InvertPermutation",
           "Where", "Unique", "TemporaryVariable", "DestroyTemporaryVariable", "Assign",
           "AssignAdd", "AssignSub", "ScatterUpdate", "ScatterAdd", "ScatterSub",
           "IsVariableInitialized", "CountUpTo"):
  NoGradient(_t)


def _identity_grad(unused_op, grad):
  return grad


for _t in ("Identity", "Snapshot", "PlaceholderWithDefault", "CheckNumerics"):
  RegisterGradient(_t)(_identity_grad)


@RegisterGradient("IdentityN")
def _identity_n_grad(unused_op, *grads):
  return list(grads)


@RegisterGradient("PreventGradient")
def _prevent_gradient_grad(op, unused_grad):
  try:
    msg = op.get_attr("message")
  except ValueError:
    msg = b""
  if isinstance(msg, bytes):
    msg = msg.decode()
  raise LookupError("Gradient explicitly disabled. Reason: %s" % msg)


@RegisterGradient("Print")
def _print_grad(op, *grads):
  return [grads[0]] + [None] * (len(op.inputs) - 1)


@RegisterGradient("Fill")
def _fill_grad(unused_op, grad):
  return [None, _out("Sum", [grad, _rank_range(grad)], {"keep_dims": False})]


def _rank_range(t):
  r = t._rank()
  if r is not None:
    return _const(list(range(r)))
  return _out("Range", [_const(0), _out("Rank", [t]), _const(1)])


@RegisterGradient("Reshape")
def _reshape_grad(op, grad):
  return [_reshape(grad, _shape(op.inputs[0])), None]


@RegisterGradient("Squeeze")
def _squeeze_grad(op, grad):
  return _reshape(grad, _shape(op.inputs[0]))


@RegisterGradient("ExpandDims")
def _expand_dims_grad(op, grad):
  return [_reshape(grad, _shape(op.inputs[0])), None]


@RegisterGradient("BroadcastTo")
def _broadcast_to_grad(op, grad):
  return [_unbroadcast_to(op.inputs[0], grad), None]


@RegisterGradient("Transpose")
def _transpose_grad(op, grad):
  perm = op.inputs[1]
  p = _const_value(perm)
  if p is not None:
    inv = _const(list(np.argsort(np.asarray(p).reshape(-1))), dtype=perm.dtype)
  else:
    inv = _out("InvertPermutation", [perm])
  return [_out("Transpose", [grad, inv]), None]


def _concat_grad(op, grad, values, axis, axis_first):
  n = len(values)
  if n == 1:
    out = [grad]
  else:
    shapes = [_static_shape(v) for v in values]
    ax = _const_value(axis)
    if ax is not None and all(s is not None for s in shapes):
      r = len(shapes[0])
      a = int(ax) % r
      sizes = [s[a] for s in shapes]
      out = list(_apply_op("SplitV", None, [grad, _const(sizes), _const(a)],
                           {"num_split": n}).outputs)
    else:
      rank = _out("Rank", [values[0]])
      a = _out("FloorMod", [axis, rank])
      shape_ts = list(_apply_op("ShapeN", None, [list(values)], {"out_type": _int32}).outputs)
      offsets = _apply_op("ConcatOffset", None, [a, shape_ts]).outputs
      out = [_out("Slice", [grad, o, s]) for o, s in zip(offsets, shape_ts)]
  return ([None] + out) if axis_first else (out + [None])


@RegisterGradient("ConcatV2")
def _concat_v2_grad(op, grad):
  inputs = op.inputs
  return _concat_grad(op, grad, list(inputs[:-1]), inputs[-1], False)


@RegisterGradient("Concat")
def _concat_v1_grad(op, grad):
  inputs = op.inputs
  return _concat_grad(op, grad, list(inputs[1:]), inputs[0], True)


@RegisterGradient("Pack")
def _pack_grad(op, grad):
  return list(_apply_op("Unpack", None, [grad], {"num": op.get_attr("N"),
                                                 "axis": op.get_attr("axis")}).outputs)


def _filled(grads, outputs):
  return [g if g is not None else _out("ZerosLike", [t]) for g, t in zip(grads, outputs)]


@RegisterGradient("Unpack")
def _unpack_grad(op, *grads):
  return _out("Pack", [_filled(grads, op.outputs)], {"axis": op.get_attr("axis")})


@RegisterGradient("Split")
def _split_grad(op, *grads):
  return [None, _out("ConcatV2", [_filled(grads, op.outputs), op.inputs[0]])]


@RegisterGradient("SplitV")
def _split_v_grad(op, *grads):
  return [_out("ConcatV2", [_filled(grads, op.outputs), op.inputs[2]]), None, None]


@RegisterGradient("Slice")
def _slice_grad(op, grad):
  x, begin, _ = op.inputs
  sx, sy = _static_shape(x), _static_shape(op.outputs[0])
  b = _const_value(begin)
  if sx is not None and sy is not None and b is not None:
    b = [int(v) for v in np.asarray(b).reshape(-1)]
    pads = [[b[i], sx[i] - sy[i] - b[i]] for i in range(len(sx))]
    return [_out("Pad", [grad, _const(pads)]), None, None]
  r = x._rank()
  rank = _const(r) if r is not None else _out("Rank", [x])
  shape_2 = _out("Pack", [[rank, _const(1)]], {"axis": 0})
  before = _reshape(begin, shape_2)
  after = _reshape(_out("Sub", [_out("Sub", [_shape(x), _shape(op.outputs[0])]), begin]),
                   shape_2)
  pads = _out("ConcatV2", [[before, after], _const(1)])
  return [_out("Pad", [grad, pads]), None, None]


@RegisterGradient("StridedSlice")
def _strided_slice_grad(op, grad):
  x, begin, end, strides = op.inputs
  attrs = {k: op.get_attr(k) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                       "new_axis_mask", "shrink_axis_mask")}
  shape = _shape(x)
  if shape.dtype != begin.dtype:
    shape = _out("Shape", [x], {"out_type": begin.dtype})
  g = _out("StridedSliceGrad", [shape, begin, end, strides, grad], attrs)
  return [g, None, None, None]


@RegisterGradient("StridedSliceGrad")
def _strided_slice_grad_grad(op, grad):
  _, begin, end, strides, _ = op.inputs
  attrs = {k: op.get_attr(k) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                       "new_axis_mask", "shrink_axis_mask")}
  return [None, None, None, None, _out("StridedSlice", [grad, begin, end, strides], attrs)]


@RegisterGradient("Tile")
def _tile_grad(op, grad):
  x, multiples = op.inputs
  sx = _static_shape(x)
  m = _const_value(multiples)
  if sx is not None and m is not None:
    m = [int(v) for v in np.asarray(m).reshape(-1)]
    split = []
    for d, k in zip(sx, m):
      split.extend([k, d])
    axes = list(range(0, len(split), 2))
    g = _sum(_reshape(grad, _const(split)), _const(axes))
    return [g, None]
  shape = _shape(x)
  if multiples.dtype != _int32:
    multiples = _out("Cast", [multiples], {"DstT": _int32})
  pair = _out("Pack", [[multiples, shape]], {"axis": 0})
  split = _reshape(_out("Transpose", [pair, _const([1, 0])]), _const([-1]))
  axes = _out("Range", [_const(0), _out("Size", [split], {"out_type": _int32}), _const(2)])
  return [_sum(_reshape(grad, split), axes), None]


def _pad_grad(op, grad):
  x, paddings = op.inputs[0], op.inputs[1]
  p = _const_value(paddings)
  sx = _static_shape(x)
  if p is not None and sx is not None:
    begin = [int(v) for v in np.asarray(p)[:, 0]]
    g = _out("Slice", [grad, _const(begin), _const(list(sx))])
  else:
    if paddings.dtype != _int32:
      paddings = _out("Cast", [paddings], {"DstT": _int32})
    begin = _reshape(_out("Slice", [paddings, _const([0, 0]), _const([-1, 1])]), _const([-1]))
    g = _out("Slice", [grad, begin, _shape(x)])
  return [g, None] + [None] * (len(op.inputs) - 2)


RegisterGradient("Pad")(_pad_grad)
RegisterGradient("PadV2")(_pad_grad)


@RegisterGradient("ReverseV2")
def _reverse_v2_grad(op, grad):
  return [_out("ReverseV2", [grad, op.inputs[1]]), None]


@RegisterGradient("ReverseSequence")
def _reverse_sequence_grad(op, grad):
  return [_apply_op("ReverseSequence", None, [grad, op.inputs[1]],
                    {"seq_dim": op.get_attr("seq_dim"),
                     "batch_dim": op.get_attr("batch_dim")}).outputs[0], None]


@RegisterGradient("Reverse")
def _reverse_grad(op, grad):
  return [_out("Reverse", [grad, op.inputs[1]]), None]


@RegisterGradient("Select")
def _select_grad(op, grad):
  c, x, _ = op.inputs
  zeros = _out("ZerosLike", [x])
  return [None, _out("Select", [c, grad, zeros]), _out("Select", [c, zeros, grad])]


@RegisterGradient("SelectV2")
def _select_v2_grad(op, grad):
  c, x, y = op.inputs
  zeros = _out("ZerosLike", [grad])
  gx = _out("SelectV2", [c, grad, zeros])
  gy = _out("SelectV2", [c, zeros, grad])
  return [None, _unbroadcast_to(x, gx), _unbroadcast_to(y, gy)]


def _gather_axis0(params, indices, grad):
  """Dense gradient of gather(params, indices, axis=0): the rows of grad summed
  into their indices (UnsortedSegmentSum), shaped like params."""
  sp = _static_shape(params)
  params_shape = _const(sp) if sp is not None else _shape(params)
  n = _const(sp[0]) if sp is not None else _out(
      "StridedSlice", [params_shape, _const([0]), _const([1]), _const([1])],
      {"shrink_axis_mask": 1})
  flat_idx = _reshape(indices, _const([-1]))
  if sp is not None:
    rows_shape = _const([-1] + list(sp[1:]))
  else:
    rows_shape = _out("ConcatV2", [[_const([-1]), _out(
        "StridedSlice", [params_shape, _const([1]), _const([0]), _const([1])],
        {"end_mask": 1})], _const(0)])
  rows = _reshape(grad, rows_shape)
  dense = _out("UnsortedSegmentSum", [rows, flat_idx, n])
  return dense if sp is not None else _reshape(dense, params_shape)


def _gather_slices(params, indices, grad):
  """Sparse gradient of gather(params, indices, axis=0): an IndexedSlices of
  the rows of grad at `indices` (repeats kept; they add up), dense_shape
  params' shape (a constant when static). Nothing of params' size is built."""
  from tfc.framework.indexed_slices import IndexedSlices  # pylint: disable=g-import-not-at-top
  sp = _static_shape(params)
  if sp is not None:
    params_shape = _const(sp)
    n_idx = indices.get_shape().num_elements()
    if n_idx is not None:
      values_shape = _const([n_idx] + list(sp[1:]))
      flat_shape = _const([n_idx])
    else:
      values_shape = _const([-1] + list(sp[1:]))
      flat_shape = _const([-1])
  else:
    params_shape = _shape(params)
    size = _reshape(_out("Size", [indices]), _const([1]))
    values_shape = _out("ConcatV2", [[size, _out(
        "StridedSlice", [params_shape, _const([1]), _const([0]), _const([1])],
        {"end_mask": 1})], _const(0)])
    flat_shape = size
  values = _reshape(grad, values_shape)
  return IndexedSlices(values, _reshape(indices, flat_shape), params_shape)


def _gather_any_axis(params, indices, grad, axis):
  if axis == 0:
    return _gather_slices(params, indices, grad)
  pr, ir = params._rank(), indices._rank()
  if pr is None or ir is None:
    raise LookupError("No gradient defined for GatherV2 on axis %d with unknown ranks" % axis)
  # grad: P[:a] + I + P[a+1:]  ->  I + P[:a] + P[a+1:]
  perm = list(range(axis, axis + ir)) + list(range(axis)) + list(range(axis + ir, pr - 1 + ir))
  g = _out("Transpose", [grad, _const(perm)])
  # params with axis moved to the front
  pperm = [axis] + [i for i in range(pr) if i != axis]
  pt = _out("Transpose", [params, _const(pperm)])
  dense = _gather_axis0(pt, indices, g)
  return _out("Transpose", [dense, _const(list(np.argsort(pperm)))])


@RegisterGradient("GatherV2")
def _gather_v2_grad(op, grad):
  params, indices, axis = op.inputs
  try:
    bd = op.get_attr("batch_dims")
  except ValueError:
    bd = 0
  ax = _const_value(axis)
  if ax is None or bd:
    raise LookupError("No gradient defined for GatherV2 with a non-constant axis or batch_dims")
  ax = int(ax)
  if ax < 0:
    r = params._rank()
    if r is None:
      raise LookupError("No gradient defined for GatherV2 with a negative axis of unknown rank")
    ax += r
  return [_gather_any_axis(params, indices, grad, ax), None, None]


@RegisterGradient("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op, grad):
  """Gathers grad back to data's rows; rows with a negative id get zeros."""
  ids = op.inputs[1]
  safe = _out("Maximum", [ids, _const(0, dtype=ids.dtype.base_dtype)])
  gathered = _out("GatherV2", [grad, safe, _const(0)])
  keep = _out("GreaterEqual", [ids, _const(0, dtype=ids.dtype.base_dtype)])
  # keep broadcast over the trailing (row) dims of the gathered gradient
  ir, gr = ids._rank(), gathered._rank()
  if ids.get_shape().is_fully_defined() and gr is not None:
    mask_shape = _const(ids.get_shape().as_list() + [1] * (gr - ir))
  else:
    extra = _out("Sub", [_out("Rank", [gathered]), _out("Rank", [ids])])
    ones = _out("Fill", [_reshape(extra, _const([1])), _const(1)])
    mask_shape = _out("ConcatV2", [[_shape(ids), ones], _const(0)])
  mask = _out("Cast", [_reshape(keep, mask_shape)], {"DstT": grad.dtype.base_dtype})
  return [_out("Mul", [gathered, mask]), None, None]


@RegisterGradient("Gather")
def _gather_grad(op, grad):
  params, indices = op.inputs
  return [_gather_slices(params, indices, grad), None]
