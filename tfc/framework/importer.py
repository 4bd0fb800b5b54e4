"""tf.import_graph_def and Graph.as_graph_def: GraphDef bytes in and out of a Graph.

The work is done in C (Graph._import_graph_def / Graph._as_graph_def, see
csrc/python/py_graphdef.c); this module adds TF 1.15's Python-level argument
checks, the "import" name scope, return-element gathering, name bookkeeping,
and the graph's construction context applied to the imported ops as TF 1.15
applies it: the device stack (string specs merge under a node's own device,
device functions decide), the control-dependency context (every imported op
gets the enclosing control inputs), the colocation context, and
`producer_op_list` (attrs the local op definition does not know are dropped
when they hold the producer's default).
"""
from tfc import _tfc
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

  Args:
    graph_def: a `GraphDef` proto.
    input_map: dict from names in `graph_def` (`"x:0"`, or `"^x"` for a
      control input) to Tensors (Operations for `"^x"`) of the default graph
      that replace them.
    return_elements: names in `graph_def` (`"x:0"` for a tensor, `"x"` for an
      operation) to return, resolved before the prefix is added.
    name: name scope for the imported names, opened inside the current one.
      None: a new unique "import" scope; "": no prefix at all.
    op_dict: ignored (deprecated in TF as well).
    producer_op_list: an `OpList` of the producer's op definitions. An attr
      that the registered op definition does not know is removed from the
      node (in `graph_def` itself, as TF does) when the producer's definition
      gives it a default and the node holds exactly that default.

  The current context applies to the imported ops as in TF 1.15: the device
  stack (a node's own device fields win over enclosing device strings, a
  device function's result is used as it is; ops with `_class` colocation
  take the device of an op they are colocated with instead), the control
  dependency context (each imported op gets the enclosing control inputs),
  and `colocate_with` (the imported ops join the enclosing colocation group).

  Returns:
    None when return_elements is None, else the list of Tensors/Operations.

  Raises:
    TypeError: for a non-GraphDef or ill-typed arguments.
    ValueError: for invalid graphs, input_map keys that are not in graph_def
      and unknown return elements.
    NotFoundError: for unregistered ops.
  """
  del op_dict
  input_map, return_elements = _check_args(graph_def, input_map, return_elements)
  if producer_op_list is not None:
    _remove_default_attrs(producer_op_list, graph_def)
  graph = _ops.get_default_graph()
  values = [v for v in input_map.values() if isinstance(v, (_ops.Tensor, _ops.Operation))]
  with _ops.name_scope(name, "import", values or None) as scope:
    prefix = scope[:-1] if scope else ""
    pairs = _convert_input_map(input_map)
  graph._check_not_finalized()
  tl = graph._tl
  if tl.colocation_stack:
    graph_def = _with_colocation(graph_def, graph)
  data = _protos.serialized_graph_def(graph_def)
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
    _apply_context(graph, new_ops)
  _add_symbolic_gradients(graph, new_ops)
  if return_elements is None:
    return None
  return returns


def _add_symbolic_gradients(graph, new_ops):
  """For each imported SymbolicGradient node whose function has no gradient
  function in the library (TF differentiates such calls in C++ at run time),
  adds one derived from the function's body with tf.gradients (arguments and
  result gradients in, argument gradients out) and records it as the
  function's GradientDef, which is what the SymbolicGradient kernel runs."""
  for op in new_ops:
    if op.type != "SymbolicGradient":
      continue
    f = op.get_attr("f")
    fname = f.decode() if isinstance(f, bytes) else getattr(f, "name", f)
    sig = graph._function_signature(fname)
    if sig is None or graph._function_gradient(fname) is not None:
      continue  # a missing function fails in the kernel, naming the node
    from tfc.framework import function  # pylint: disable=g-import-not-at-top
    n_in = len(sig["inputs"])
    types = [t.dtype.base_dtype for t in op.inputs]
    gdf = function._body_gradient(graph, fname, types[:n_in], types[n_in:])
    with graph.as_default():
      traced = gdf.add_to_graph(graph)
    graph._add_gradient_def(fname, traced.name)


def _colocation_names(op):
  """The op names in `op`'s `_class` attr other than its own ([] if none)."""
  if "_class" not in op._attr_names():
    return []
  own = "loc:@" + op.name
  names = []
  for s in _tfc.Operation.get_attr(op, "_class"):
    s = s.decode() if isinstance(s, bytes) else s
    if s.startswith("loc:@") and s != own:
      names.append(s[5:])
  return names


def _apply_context(graph, new_ops):
  """Applies the graph's device and control-dependency context to imported ops."""
  tl = graph._tl
  top = tl.device_top
  devices = top.spec is not None or top.func is not None
  colocated = []
  for op in new_ops:
    names = _colocation_names(op)
    if names:
      # colocation decides: the device comes from the group (below)
      colocated.append((op, names))
      if op.device:
        op._set_device("")
    elif devices:
      graph._apply_device_functions(op)
  for op, names in colocated:
    for n in names:
      other = graph._op_by_name(n)
      if other is not None and other.device:
        op._set_device(other.device)
        break
  if tl.control_dependencies_stack:
    control = []
    for controller in tl.control_dependencies_stack:
      for c in controller.control_inputs:
        if c not in control:
          control.append(c)
    for op in new_ops:
      if control:
        have = op.control_inputs
        extra = [c for c in control if c not in have]
        if extra:
          op._add_control_inputs(extra)
      graph._record_op_seen_by_control_dependencies(op)


def _with_colocation(graph_def, graph):
  """A copy of graph_def whose nodes carry the colocation groups in force."""
  groups, _ = graph._colocation_attrs()
  gd = _protos.GraphDef()
  gd.CopyFrom(graph_def)
  for node in gd.node:
    av = node.attr["_class"]
    av.Clear()
    av.list.SetInParent()
    av.list.s.extend(groups)
  return gd


def _attr_default_value(attr_def):
  return attr_def.default_value if attr_def.HasField("default_value") else None


def _remove_default_attrs(producer_op_list, graph_def):
  """Drops, from graph_def's nodes, attrs unknown to the registered op whose
  value is the default the producer's op definition gives them."""
  producer = {op.name: op for op in producer_op_list.op}
  # attrs per op type that the producer knows with a default and tfc does not
  candidates = {}
  for op_name, op_def in producer.items():
    try:
      known = set(a["name"] for a in _tfc.op_def(op_name)["attrs"])
    except KeyError:
      continue  # not registered: the import reports it
    extra = {}
    for attr_def in op_def.attr:
      default = _attr_default_value(attr_def)
      if attr_def.name not in known and default is not None:
        extra[attr_def.name] = default
    if extra:
      candidates[op_name] = extra
  if not candidates:
    return
  for node in graph_def.node:
    extra = candidates.get(node.op)
    if not extra:
      continue
    for key in list(node.attr):
      default = extra.get(key)
      if default is not None and node.attr[key] == default:
        del node.attr[key]


def graph_as_graph_def(self, from_version=None, add_shapes=False):
  """Graph.as_graph_def: a GraphDef of the graph's ops (those added since
  `version` had the value from_version when given)."""
  first = int(from_version) if from_version else 0
  # the graph's function library (imported or added) is written by C
  data = self._as_graph_def(first=first, end=0, add_shapes=bool(add_shapes))
  gd = _protos.GraphDef()
  gd.ParseFromString(data)
  return gd


def _graph_def_versions(self):
  """Graph.graph_def_versions: the VersionDef as_graph_def writes."""
  return graph_as_graph_def(self).versions


if not hasattr(_ops.Graph, "as_graph_def"):
  _ops.Graph.as_graph_def = graph_as_graph_def
if not hasattr(_ops.Graph, "graph_def_versions"):
  _ops.Graph.graph_def_versions = property(_graph_def_versions)
