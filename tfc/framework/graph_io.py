"""tf.train.write_graph: a Graph or GraphDef to a file, as text or binary."""
import os as _os

from tfc import gfile as _gfile
from tfc import protos as _protos
from tfc.framework import importer as _importer  # noqa: F401  (Graph.as_graph_def)


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
  """Writes the GraphDef to logdir/name (creating logdir); returns the path."""
  if isinstance(graph_or_graph_def, _protos.GraphDef):
    graph_def = graph_or_graph_def
  else:
    graph_def = graph_or_graph_def.as_graph_def()
  if not _gfile.IsDirectory(logdir) and "://" not in str(logdir):
    _gfile.MakeDirs(logdir)
  path = _os.path.join(logdir, name)
  if as_text:
    with _gfile.GFile(path, "w") as f:
      f.write(str(graph_def))
  else:
    with _gfile.GFile(path, "wb") as f:
      f.write(graph_def.SerializeToString(deterministic=True))
  return path


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
  """A TensorProto holding `values` (TF 1.15's tf.make_tensor_proto, numeric and string)."""
  import numpy as np
  from tfc import dtypes as _dtypes
  if isinstance(values, _protos.TensorProto):
    return values
  dt = _dtypes.as_dtype(dtype) if dtype is not None else None
  if dt is not None and dt.base_dtype == _dtypes.string:
    arr = np.array(values, dtype=object)
  elif dt is not None:
    arr = np.asarray(values, dtype=dt.as_numpy_dtype)
  else:
    arr = np.asarray(values)
    if arr.dtype == np.float64 and not isinstance(values, np.ndarray):
      arr = arr.astype(np.float32)
    elif arr.dtype == np.int64 and not isinstance(values, np.ndarray) and arr.size and \
        np.all((arr >= -2**31) & (arr < 2**31)):
      arr = arr.astype(np.int32)
    elif arr.dtype.kind in "US":
      arr = np.array([v.encode() if isinstance(v, str) else v for v in arr.reshape(-1)],
                     dtype=object).reshape(arr.shape)
  if shape is not None:
    shape = [int(d) for d in shape]
    size = int(np.prod(shape)) if shape else 1
    if verify_shape and list(arr.shape) != shape:
      raise TypeError("Expected Tensor's shape: %s, got %s." % (tuple(shape), arr.shape))
    if arr.size == size:
      arr = arr.reshape(shape)
    elif arr.size == 1 or allow_broadcast:
      arr = np.broadcast_to(arr.reshape(()) if arr.size == 1 else arr, shape).copy()
    else:
      raise ValueError("Too many elements provided. Needed at most %d, but received %d"
                       % (size, arr.size))
  from tfc import _tfc
  enum = dt.as_datatype_enum if dt is not None else None
  return _protos.TensorProto.FromString(_tfc.tensor_to_proto(arr, dtype=enum))


def make_ndarray(tensor):
  """The NumPy array a TensorProto holds (tf.make_ndarray)."""
  from tfc import _tfc
  return _tfc.tensor_from_proto(tensor.SerializeToString())
