"""tf.import_graph_def and Graph.as_graph_def: GraphDef bytes in and out of a Graph.

The work is done in C (Graph._import_graph_def / Graph._as_graph_def, see
csrc/python/py_graphdef.c); this module adds TF 1.15's Python-level argument
checks, the "import" name scope, return-element gathering and name
bookkeeping.
"""
from tfc import protos as _protos
from tfc.framework import ops as _ops


def _check_args(graph_def, input_map, return_elements):
  if not isinstance(graph_def, _protos.GraphDef):
    raise TypeError("Argument `graph_def` must be a GraphDef proto.")
  if input_map is None:
    input_map = {}
  elif not isinstance(input_map, dict) or \
      not all(isinstance(k, (str, bytes)) for k in input_map):
    raise TypeError("Argument `input_map` must be a dictionary. Obtained %s"
                    % type(input_map).__name__)
  if return_elements is not None:
    return_elements = tuple(return_elements)
    if not all(isinstance(x, (str, bytes)) for x in return_elements):
      raise TypeError("Argument `return_elements` must be a list of strings. Obtained %s."
                      % (return_elements,))
    return_elements = [x.decode() if isinstance(x, bytes) else x for x in return_elements]
  return input_map, return_elements


def _convert_input_map(input_map):
  """(key, Tensor|Operation) pairs for the C importer; values converted as TF does."""
  pairs = []
  for key, value in input_map.items():
    if isinstance(key, bytes):
      key = key.decode()
    if key.startswith("^"):
      if isinstance(value, _ops.Tensor):
        value = value.op
      if not isinstance(value, _ops.Operation):
        raise ValueError("Control input_map key %r must map to an Operation, got %r"
                         % (key, value))
    elif not isinstance(value, _ops.Tensor):
      value = _ops.convert_to_tensor(value)
    pairs.append((key, value))
  return pairs


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
  """Imports the graph in `graph_def` into the default graph (TF 1.15 semantics).

  name None: nodes go under a new unique "import" scope; name "": no prefix.
  Returns None when return_elements is None, else the Tensors/Operations they
  name (resolved in graph_def, before the prefix). Raises TypeError for a
  non-GraphDef, ValueError for invalid graphs, input_map keys that are not in
  graph_def and unknown return elements, NotFoundError for unregistered ops.
  op_dict and producer_op_list are accepted and ignored.
  """
  del op_dict, producer_op_list
  input_map, return_elements = _check_args(graph_def, input_map, return_elements)
  graph = _ops.get_default_graph()
  values = [v for v in input_map.values() if isinstance(v, (_ops.Tensor, _ops.Operation))]
  with _ops.name_scope(name, "import", values or None) as scope:
    prefix = scope[:-1] if scope else ""
    pairs = _convert_input_map(input_map)
  graph._check_not_finalized()
  data = graph_def.SerializeToString()
  with graph._lock:
    new_ops, returns, library, _ = graph._import_graph_def(
        data, prefix=prefix or None, input_map=pairs or None,
        return_elements=return_elements, uniquify_names=True)
    names_in_use = graph._names_in_use
    for op in new_ops:
      key = op.name.lower()
      if key not in names_in_use:
        names_in_use[key] = 1
      # TF marks the enclosing scopes of imported names as used too
      parts = key.split("/")
      for i in range(1, len(parts)):
        scope_key = "/".join(parts[:i])
        if scope_key not in names_in_use:
          names_in_use[scope_key] = 1
    if library:
      graph._tfc_library = library
  if return_elements is None:
    return None
  return returns


def graph_as_graph_def(self, from_version=None, add_shapes=False):
  """Graph.as_graph_def: a GraphDef of the graph's ops (those added since
  `version` had the value from_version when given)."""
  first = int(from_version) if from_version else 0
  library = getattr(self, "_tfc_library", None)
  data = self._as_graph_def(first=first, end=0, add_shapes=bool(add_shapes), library=library)
  gd = _protos.GraphDef()
  object.__setattr__(gd, "_raw", data)
  return gd


def _graph_def_versions(self):
  """Graph.graph_def_versions: the VersionDef as_graph_def writes."""
  return graph_as_graph_def(self).versions


if not hasattr(_ops.Graph, "as_graph_def"):
  _ops.Graph.as_graph_def = graph_as_graph_def
if not hasattr(_ops.Graph, "graph_def_versions"):
  _ops.Graph.graph_def_versions = property(_graph_def_versions)
