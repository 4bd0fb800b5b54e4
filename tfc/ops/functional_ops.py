"""tf.map_fn, tf.scan, tf.foldl and tf.foldr (TF 1.15 signatures), built as
TF 1.15 builds them: the elements are unstacked into TensorArrays read inside
a tf.while_loop (maximum_iterations = the element count), and the results of
map_fn and scan are written to TensorArrays and stacked after the loop.
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


def _elems_tas(flat, n):
  """One TensorArray per flat element tensor, holding its rows."""
  from tfc.ops import tensor_array_ops as _ta
  tas = [_ta.TensorArray(dtype=e.dtype, size=n, dynamic_size=False, infer_shape=True)
         for e in flat]
  return [ta.unstack(e) for ta, e in zip(tas, flat)]


def _read(tas, elems, i):
  return _nest.pack_sequence_as(elems, [ta.read(i) for ta in tas])


def _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name, reverse):
  _check_fn(fn)
  default = "foldr" if reverse else "foldl"
  with _ops.name_scope(name, default, _nest.flatten(elems)):
    flat = _flat_elems(elems)
    n, _ = _length(flat)
    tas = _elems_tas(flat, n)
    if initializer is None:
      a = _read(tas, elems, n - 1 if reverse else 0)
      i = n - 2 if reverse else _ops.convert_to_tensor(1)
    else:
      a = initializer
      i = n - 1 if reverse else _ops.convert_to_tensor(0)

    def cond(i, _):
      return i >= 0 if reverse else i < n

    def body(i, a):
      a = fn(a, _read(tas, elems, i))
      return (i - 1 if reverse else i + 1), a

    _, r = _cf.while_loop(cond, body, (i, a), parallel_iterations=parallel_iterations,
                          back_prop=back_prop, swap_memory=swap_memory, maximum_iterations=n)
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
  from tfc.ops import tensor_array_ops as _ta
  _check_fn(fn)
  if parallel_iterations is None:
    parallel_iterations = 10
  with _ops.name_scope(name, "map", _nest.flatten(elems)):
    flat = _flat_elems(elems)
    n, n_static = _length(flat)
    out_dtypes = dtype if dtype is not None else _nest.map_structure(lambda e: e.dtype, elems)
    flat_dtypes = [_dtypes.as_dtype(d) for d in _nest.flatten(out_dtypes)]
    elems_ta = _elems_tas(flat, n)
    accs_ta = [_ta.TensorArray(dtype=d, size=n, dynamic_size=False, infer_shape=infer_shape)
               for d in flat_dtypes]

    def compute(i, tas):
      out = fn(_read(elems_ta, elems, i))
      try:
        _nest.assert_same_structure(out_dtypes, out, check_types=False)
      except (TypeError, ValueError) as e:
        raise ValueError("The two structures don't have the same nested structure: %s" % e)
      flat_out = [_ops.convert_to_tensor(o, dtype=d) for o, d in zip(_nest.flatten(out), flat_dtypes)]
      return i + 1, [ta.write(i, o) for ta, o in zip(tas, flat_out)]

    _, r_a = _cf.while_loop(lambda i, _: i < n, compute, (_ops.convert_to_tensor(0), accs_ta),
                            parallel_iterations=parallel_iterations, back_prop=back_prop,
                            swap_memory=swap_memory, maximum_iterations=n)
    results = [r.stack() for r in r_a]
    for r in results:
      r.set_shape(_tensor_shape.TensorShape([n_static]).concatenate(r.get_shape()[1:]))
    return _nest.pack_sequence_as(out_dtypes, results)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
         infer_shape=True, reverse=False, name=None):
  """The successive values of a = fn(a, e) over the elements of elems along
  dimension 0, stacked (reverse=True walks from the last element)."""
  from tfc.ops import tensor_array_ops as _ta
  _check_fn(fn)
  with _ops.name_scope(name, "scan", _nest.flatten(elems)):
    flat = _flat_elems(elems)
    n, n_static = _length(flat)
    elems_ta = _elems_tas(flat, n)
    if initializer is None:
      a0 = _read(elems_ta, elems, n - 1 if reverse else 0)
      start = n - 2 if reverse else _ops.convert_to_tensor(1)
    else:
      a0 = initializer
      start = n - 1 if reverse else _ops.convert_to_tensor(0)
    flat_a0 = [_ops.convert_to_tensor(a) for a in _nest.flatten(a0)]
    a0 = _nest.pack_sequence_as(a0, flat_a0)
    accs_ta = [_ta.TensorArray(dtype=a.dtype, size=n, dynamic_size=False,
                               element_shape=a.shape if infer_shape else None,
                               infer_shape=infer_shape) for a in flat_a0]
    if initializer is None:
      accs_ta = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(accs_ta, flat_a0)]

    def cond(i, a, tas):
      return i >= 0 if reverse else i < n

    def body(i, a, tas):
      a = fn(a, _read(elems_ta, elems, i))
      flat_new = [_ops.convert_to_tensor(x) for x in _nest.flatten(a)]
      tas = [ta.write(i, x) for ta, x in zip(tas, flat_new)]
      return ((i - 1 if reverse else i + 1), _nest.pack_sequence_as(a0, flat_new), tas)

    _, _, r_a = _cf.while_loop(cond, body, (start, a0, accs_ta),
                               parallel_iterations=parallel_iterations, back_prop=back_prop,
                               swap_memory=swap_memory, maximum_iterations=n)
    results = [r.stack() for r in r_a]
    for r in results:
      r.set_shape(_tensor_shape.TensorShape([n_static]).concatenate(r.get_shape()[1:]))
    return _nest.pack_sequence_as(a0, results)
