"""TensorInfo helpers (tf.saved_model.utils): how a SignatureDef names a
graph's tensors, and back."""
from tfc import dtypes as _dtypes
from tfc import protos as _protos
from tfc.framework import ops as _ops
from tfc.framework import sparse_tensor as _sparse_tensor


def build_tensor_info(tensor):
  """A `TensorInfo` naming `tensor` (a Tensor or a SparseTensor) with its
  dtype and static shape.

  Raises:
    TypeError: `tensor` is neither a Tensor nor a SparseTensor.
  """
  if isinstance(tensor, _sparse_tensor.SparseTensor):
    info = _protos.TensorInfo(dtype=tensor.dtype.as_datatype_enum,
                              tensor_shape=tensor.get_shape().as_proto())
    info.coo_sparse.values_tensor_name = tensor.values.name
    info.coo_sparse.indices_tensor_name = tensor.indices.name
    info.coo_sparse.dense_shape_tensor_name = tensor.dense_shape.name
    return info
  if not isinstance(tensor, _ops.Tensor):
    raise TypeError("build_tensor_info takes a Tensor or a SparseTensor, got %r"
                    % type(tensor).__name__)
  return _protos.TensorInfo(name=tensor.name, dtype=tensor.dtype.as_datatype_enum,
                            tensor_shape=tensor.get_shape().as_proto())


def build_tensor_info_from_op(op):
  """A `TensorInfo` naming an Operation (as SavedModels record init and train
  ops in a signature): its name, DT_INVALID and an unknown shape."""
  return _protos.TensorInfo(name=op.name, dtype=0,
                            tensor_shape=_protos.TensorShapeProto(unknown_rank=True))


def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
  """The Tensor or SparseTensor of `graph` (default: the default graph) that
  `tensor_info` names, under `import_scope` when given.

  Raises:
    KeyError: the graph has no such tensor.
    ValueError: `tensor_info` has neither a name nor a coo_sparse encoding.
  """
  graph = graph or _ops.get_default_graph()

  def tensor(name):
    return graph.get_tensor_by_name(_ops.prepend_name_scope(name, import_scope=import_scope))

  encoding = tensor_info.WhichOneof("encoding")
  if encoding == "name":
    return tensor(tensor_info.name)
  if encoding == "coo_sparse":
    coo = tensor_info.coo_sparse
    return _sparse_tensor.SparseTensor(tensor(coo.indices_tensor_name),
                                       tensor(coo.values_tensor_name),
                                       tensor(coo.dense_shape_tensor_name))
  raise ValueError("Invalid TensorInfo.encoding: %s" % encoding)


def get_element_from_tensor_info(tensor_info, graph=None, import_scope=None):
  """The Tensor or Operation `tensor_info` names (an op when the name has no
  `:output` suffix)."""
  graph = graph or _ops.get_default_graph()
  return graph.as_graph_element(_ops.prepend_name_scope(tensor_info.name,
                                                        import_scope=import_scope))


_ = _dtypes
