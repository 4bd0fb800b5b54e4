"""Ref-variable state ops (TF 1.15 `state_ops`)."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _ts
from tfc.framework.op_def_library import _apply_op


def _opt(attrs, **kw):
  for k, v in kw.items():
    if v is not None:
      attrs[k] = v
  return attrs


def variable_op_v2(shape, dtype, name="Variable", container="", shared_name=""):
  """Creates a VariableV2 op and returns its (ref) output."""
  return _apply_op("VariableV2", name, [], {
      "shape": _ts.as_shape(shape)._as_tuple_or_none(), "dtype": dtype,
      "container": container, "shared_name": shared_name}).outputs[0]


def _is_ref_holder(ref):
  dt = getattr(ref, "dtype", None)
  return dt is not None and dt._is_ref_dtype


def assign(ref, value, validate_shape=None, use_locking=None, name=None):
  if not _is_ref_holder(ref) and hasattr(ref, "assign"):
    return ref.assign(value, name=name)
  return _apply_op("Assign", name, [ref, value],
                   _opt({}, validate_shape=validate_shape, use_locking=use_locking)).outputs[0]


def assign_add(ref, value, use_locking=None, name=None):
  if not _is_ref_holder(ref) and hasattr(ref, "assign_add"):
    return ref.assign_add(value)
  return _apply_op("AssignAdd", name, [ref, value],
                   _opt({}, use_locking=use_locking)).outputs[0]


def assign_sub(ref, value, use_locking=None, name=None):
  if not _is_ref_holder(ref) and hasattr(ref, "assign_sub"):
    return ref.assign_sub(value)
  return _apply_op("AssignSub", name, [ref, value],
                   _opt({}, use_locking=use_locking)).outputs[0]


def is_variable_initialized(ref, name=None):
  handle = getattr(ref, "handle", None)
  if handle is not None:  # a ResourceVariable
    return _apply_op("VarIsInitializedOp", name, [handle]).outputs[0]
  return _apply_op("IsVariableInitialized", name, [ref]).outputs[0]


def count_up_to(ref, limit, name=None):
  """Increments the scalar integer variable `ref` until it reaches limit
  (CountUpTo on a ref variable, ResourceCountUpTo on a resource variable);
  outputs the value before the increment, OutOfRangeError at limit."""
  handle = getattr(ref, "handle", None)
  if handle is not None and getattr(handle, "dtype", None) == _dtypes.resource:
    from tfc.ops import resource_variable_ops as _rv  # pylint: disable=g-import-not-at-top
    return _rv.resource_count_up_to(handle, limit, ref.dtype, ref.shape, name=name)
  return _apply_op("CountUpTo", name, [ref], {"limit": limit}).outputs[0]


def scatter_update(ref, indices, updates, use_locking=True, name=None):
  return _apply_op("ScatterUpdate", name, [ref, indices, updates],
                   {"use_locking": use_locking}).outputs[0]


def scatter_add(ref, indices, updates, use_locking=False, name=None):
  return _apply_op("ScatterAdd", name, [ref, indices, updates],
                   {"use_locking": use_locking}).outputs[0]


def scatter_sub(ref, indices, updates, use_locking=False, name=None):
  return _apply_op("ScatterSub", name, [ref, indices, updates],
                   {"use_locking": use_locking}).outputs[0]


def scatter_mul(ref, indices, updates, use_locking=False, name=None):
  """ref[indices, ...] *= updates[...]; returns ref after the update."""
  return _apply_op("ScatterMul", name, [ref, indices, updates],
                   {"use_locking": use_locking}).outputs[0]


def scatter_div(ref, indices, updates, use_locking=False, name=None):
  """ref[indices, ...] /= updates[...]; returns ref after the update."""
  return _apply_op("ScatterDiv", name, [ref, indices, updates],
                   {"use_locking": use_locking}).outputs[0]


def scatter_max(ref, indices, updates, use_locking=False, name=None):
  """ref[indices, ...] = max(ref[indices, ...], updates[...]); returns ref."""
  return _apply_op("ScatterMax", name, [ref, indices, updates],
                   {"use_locking": use_locking}).outputs[0]


def scatter_min(ref, indices, updates, use_locking=False, name=None):
  """ref[indices, ...] = min(ref[indices, ...], updates[...]); returns ref."""
  return _apply_op("ScatterMin", name, [ref, indices, updates],
                   {"use_locking": use_locking}).outputs[0]


_ = _ops


def _scatter_nd_ref(op_type, ref, indices, updates, use_locking, name):
  if not _is_ref_holder(ref):
    raise TypeError("%s needs a ref variable (tf.Variable with use_resource=False); got %r"
                    % (op_type, ref))
  return _apply_op(op_type, name, [ref, indices, updates],
                   {"use_locking": use_locking}).outputs[0]


def scatter_nd_update(ref, indices, updates, use_locking=True, name=None):
  """ref[indices] = updates for N-d indices (TF's ScatterNdUpdate): indices has shape
  [..., K] and names slices of ref's first K dims; updates has shape
  indices.shape[:-1] + ref.shape[K:]. Returns ref after the update."""
  return _scatter_nd_ref("ScatterNdUpdate", ref, indices, updates, use_locking, name)


def scatter_nd_add(ref, indices, updates, use_locking=False, name=None):
  """ref[indices] += updates for N-d indices (TF's ScatterNdAdd; duplicates add up).
  Returns ref after the update."""
  return _scatter_nd_ref("ScatterNdAdd", ref, indices, updates, use_locking, name)


def scatter_nd_sub(ref, indices, updates, use_locking=False, name=None):
  """ref[indices] -= updates for N-d indices (TF's ScatterNdSub). Returns ref after
  the update."""
  return _scatter_nd_ref("ScatterNdSub", ref, indices, updates, use_locking, name)


def batch_scatter_update(ref, indices, updates, use_locking=True, name=None):
  """ref[i1, ..., in, indices[i1, ..., in]] = updates[i1, ..., in] (TF 1.15's
  tf.batch_scatter_update): a scatter_update per batch entry, built as TF does from
  ScatterNdUpdate with the batch coordinates prepended to the indices.

  Raises:
    ValueError: when the rank of indices is unknown.
  """
  import tfc as _tf  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name):
    indices = _ops.convert_to_tensor(indices, name="indices")
    indices_shape = _tf.shape(indices)
    indices_dimensions = indices.get_shape().ndims
    if indices_dimensions is None:
      raise ValueError("batch_gather does not allow indices with unknown shape.")
    nd_indices = _tf.expand_dims(indices, axis=-1)
    nd_indices_list = []
    for dimension in range(indices_dimensions - 1):
      dimension_size = indices_shape[dimension]
      shape_to_broadcast = [1] * (indices_dimensions + 1)
      shape_to_broadcast[dimension] = dimension_size
      dimension_range = _tf.reshape(_tf.range(0, dimension_size, 1), shape_to_broadcast)
      if dimension_range.dtype.base_dtype != nd_indices.dtype:
        dimension_range = _tf.cast(dimension_range, nd_indices.dtype)
      nd_indices_list.append(dimension_range * _tf.ones_like(nd_indices))
    nd_indices_list.append(nd_indices)
    final_indices = _tf.concat(nd_indices_list, axis=-1)
    return scatter_nd_update(ref, final_indices, updates, use_locking=use_locking)
