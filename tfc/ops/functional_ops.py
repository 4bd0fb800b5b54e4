"""tf.map_fn, tf.scan, tf.foldl and tf.foldr (TF 1.15 signatures) on
tf.while_loop.

Elements are read inside the loop with Gather on the loop counter; the
results of map_fn and scan are accumulated by concatenation along a new
leading dimension (TF accumulates in TensorArrays, which tfc does not have
yet); values and errors match TF's for the supported arguments.
"""
from tfc import dtypes as _dtypes
from tfc.framework import nest as _nest
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _tensor_shape
from tfc.ops import array_ops as _array_ops
from tfc.ops import control_flow_ops as _cf


def _check_fn(fn):
  if not callable(fn):
    raise TypeError("fn must be callable.")


def _flat_elems(elems):
  flat = [_ops.convert_to_tensor(e, name="elem") for e in _nest.flatten(elems)]
  if not flat:
    raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors.")
  for e in flat:
    if e.shape.ndims == 0:
      raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
  return flat


def _length(flat):
  n_static = _tensor_shape.dimension_value(flat[0].shape[0])
  if n_static is not None:
    return _ops.convert_to_tensor(n_static, name="n"), n_static
  return _array_ops.shape(flat[0])[0], None


def _read(flat, elems, i):
  return _nest.pack_sequence_as(elems, [_array_ops.gather(e, i) for e in flat])


def _empty_like(dtype):
  return _array_ops.zeros([0], dtype=dtype)


def _append(acc, value):
  value = _ops.convert_to_tensor(value)
  lead = _array_ops.concat([[-1], _array_ops.shape(value)], 0)
  return _array_ops.concat([_array_ops.reshape(acc, lead), _array_ops.expand_dims(value, 0)], 0)


def _finish(acc, value_shape, n, n_static):
  out = acc
  if value_shape is not None and value_shape.is_fully_defined():
    # an empty result keeps the element shape, as TF's does
    out = _array_ops.reshape(acc, _array_ops.concat(
        [_array_ops.reshape(n, [1]), _ops.convert_to_tensor(value_shape.as_list(), _dtypes.int32)], 0))
  if value_shape is not None and value_shape.ndims is not None:
    out.set_shape(_tensor_shape.TensorShape([n_static]).concatenate(value_shape))
  return out


def _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name, reverse):
  _check_fn(fn)
  default = "foldr" if reverse else "foldl"
  with _ops.name_scope(name, default, _nest.flatten(elems)):
    flat = _flat_elems(elems)
    n, _ = _length(flat)
    if initializer is None:
      first = n - 1 if reverse else 0
      a = _read(flat, elems, first)
      i = n - 2 if reverse else _ops.convert_to_tensor(1)
    else:
      a = initializer
      i = n - 1 if reverse else _ops.convert_to_tensor(0)

    def cond(i, _):
      return i >= 0 if reverse else i < n

    def body(i, a):
      a = fn(a, _read(flat, elems, i))
      return (i - 1 if reverse else i + 1), a

    _, r = _cf.while_loop(cond, body, (i, a), parallel_iterations=parallel_iterations,
                          back_prop=back_prop, swap_memory=swap_memory)
    return r


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
          name=None):
  """fn(fn(fn(initializer, e0), e1), ...) over the elements of elems along
  dimension 0 (the first element is the initializer when none is given)."""
  return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name, False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
          name=None):
  """foldl from the last element to the first."""
  return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name, True)


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None):
  """fn applied to each element of elems along dimension 0, the results
  stacked. dtype gives the structure and dtypes of fn's result when it differs
  from elems'."""
  _check_fn(fn)
  if parallel_iterations is None:
    parallel_iterations = 10
  with _ops.name_scope(name, "map", _nest.flatten(elems)):
    flat = _flat_elems(elems)
    n, n_static = _length(flat)
    out_dtypes = dtype if dtype is not None else _nest.map_structure(lambda e: e.dtype, elems)
    flat_dtypes = [_dtypes.as_dtype(d) for d in _nest.flatten(out_dtypes)]
    shapes = {}

    def body(i, accs):
      out = fn(_read(flat, elems, i))
      try:
        _nest.assert_same_structure(out_dtypes, out, check_types=False)
      except (TypeError, ValueError) as e:
        raise ValueError("The two structures don't have the same nested structure: %s" % e)
      flat_out = [_ops.convert_to_tensor(o, dtype=d) for o, d in zip(_nest.flatten(out), flat_dtypes)]
      shapes["out"] = [o.shape for o in flat_out]
      return i + 1, [_append(a, o) for a, o in zip(accs, flat_out)]

    accs0 = [_empty_like(d) for d in flat_dtypes]
    invariants = (_tensor_shape.TensorShape([]), [_tensor_shape.TensorShape(None)] * len(accs0))
    _, accs = _cf.while_loop(lambda i, _: i < n, body, (_ops.convert_to_tensor(0), accs0),
                             shape_invariants=invariants, parallel_iterations=parallel_iterations,
                             back_prop=back_prop, swap_memory=swap_memory)
    accs = _nest.flatten(accs)
    if infer_shape:
      accs = [_finish(a, s, n, n_static) for a, s in zip(accs, shapes["out"])]
    return _nest.pack_sequence_as(out_dtypes, accs)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
         infer_shape=True, reverse=False, name=None):
  """The successive values of a = fn(a, e) over the elements of elems along
  dimension 0, stacked (reverse=True walks from the last element)."""
  _check_fn(fn)
  with _ops.name_scope(name, "scan", _nest.flatten(elems)):
    flat = _flat_elems(elems)
    n, n_static = _length(flat)
    if initializer is None:
      a0 = _read(flat, elems, n - 1 if reverse else 0)
      start = n - 2 if reverse else _ops.convert_to_tensor(1)
    else:
      a0 = initializer
      start = n - 1 if reverse else _ops.convert_to_tensor(0)
    flat_a0 = [_ops.convert_to_tensor(a) for a in _nest.flatten(a0)]
    a0 = _nest.pack_sequence_as(a0, flat_a0)
    if initializer is None:
      accs0 = [_append(_empty_like(a.dtype), a) for a in flat_a0]
    else:
      accs0 = [_empty_like(a.dtype) for a in flat_a0]

    def cond(i, a, accs):
      return i >= 0 if reverse else i < n

    def body(i, a, accs):
      a = fn(a, _read(flat, elems, i))
      flat_new = [_ops.convert_to_tensor(x) for x in _nest.flatten(a)]
      return ((i - 1 if reverse else i + 1), _nest.pack_sequence_as(a0, flat_new),
              [_append(acc, x) for acc, x in zip(accs, flat_new)])

    invariants = (_tensor_shape.TensorShape([]),
                  _nest.map_structure(lambda t: t.shape, a0),
                  [_tensor_shape.TensorShape(None)] * len(accs0))
    _, _, accs = _cf.while_loop(cond, body, (start, a0, accs0), shape_invariants=invariants,
                                parallel_iterations=parallel_iterations, back_prop=back_prop,
                                swap_memory=swap_memory)
    accs = _nest.flatten(accs)
    if reverse:
      accs = [_array_ops.reverse_v2(a, [0]) if hasattr(_array_ops, "reverse_v2")
              else _array_ops.reverse(a, [0]) for a in accs]
    if infer_shape:
      accs = [_finish(acc, a.shape, n, n_static) for acc, a in zip(accs, flat_a0)]
    return _nest.pack_sequence_as(a0, accs)
