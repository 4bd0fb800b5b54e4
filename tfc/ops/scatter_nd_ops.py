"""N-d index gathers and scatters: gather_nd, scatter_nd and the
tensor_scatter_nd_* family (one C kernel each, kernels/array_scatter_nd.c)."""
from tfc.framework.op_def_library import _apply_op


def gather_nd(params, indices, name=None, batch_dims=0):
  """Slices of params named by the last dimension of indices: the output has
  shape indices.shape[:-1] + params.shape[indices.shape[-1]:].

  An index out of range fails the step with InvalidArgumentError. Only
  batch_dims=0 is supported."""
  if batch_dims != 0:
    raise NotImplementedError("gather_nd: batch_dims != 0 is not supported by tfc")
  return _apply_op("GatherNd", name, [params, indices]).outputs[0]


def scatter_nd(indices, updates, shape, name=None):
  """A tensor of `shape` holding zeros plus `updates` at `indices` (duplicate
  indices add up)."""
  return _apply_op("ScatterNd", name, [indices, updates, shape]).outputs[0]


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
  """A copy of tensor with the slices at indices replaced by updates."""
  return _apply_op("TensorScatterUpdate", name, [tensor, indices, updates]).outputs[0]


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
  """A copy of tensor with updates added at indices."""
  return _apply_op("TensorScatterAdd", name, [tensor, indices, updates]).outputs[0]


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
  """A copy of tensor with updates subtracted at indices."""
  return _apply_op("TensorScatterSub", name, [tensor, indices, updates]).outputs[0]


def tensor_scatter_nd_min(tensor, indices, updates, name=None):
  """A copy of tensor with the elementwise minimum of it and updates at indices."""
  return _apply_op("TensorScatterMin", name, [tensor, indices, updates]).outputs[0]


def tensor_scatter_nd_max(tensor, indices, updates, name=None):
  """A copy of tensor with the elementwise maximum of it and updates at indices."""
  return _apply_op("TensorScatterMax", name, [tensor, indices, updates]).outputs[0]


tensor_scatter_update = tensor_scatter_nd_update
tensor_scatter_add = tensor_scatter_nd_add
tensor_scatter_sub = tensor_scatter_nd_sub
