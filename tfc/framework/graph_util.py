"""tf.graph_util: GraphDef-to-GraphDef helpers (freezing, sub-graph extraction,
training-node removal), TF 1.15's graph_util_impl behaviour."""
from tfc import _tfc
from tfc import logging as _logging
from tfc import protos as _protos
from tfc.framework.importer import import_graph_def  # noqa: F401  (tf.graph_util.import_graph_def)

_VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")


def _node_name(name):
  """The node part of an input name: "^a" -> "a", "a:1" -> "a"."""
  if name.startswith("^"):
    name = name[1:]
  colon = name.find(":")
  return name if colon < 0 else name[:colon]


def _copy_node(node):
  out = _protos.NodeDef()
  out.CopyFrom(node)
  return out


def _new_graph_def_like(graph_def, nodes):
  """A GraphDef with `nodes` and graph_def's versions and library."""
  out = _protos.GraphDef()
  out.node.extend(nodes)
  if graph_def.HasField("versions"):
    out.versions.CopyFrom(graph_def.versions)
  if graph_def.HasField("library"):
    out.library.CopyFrom(graph_def.library)
  return out


def _check_graph_def(graph_def):
  if not isinstance(graph_def, _protos.GraphDef):
    raise TypeError("graph_def must be a graph_pb2.GraphDef proto.")


def extract_sub_graph(graph_def, dest_nodes):
  """The GraphDef of the nodes dest_nodes depend on (data or control), in graph_def order."""
  _check_graph_def(graph_def)
  if isinstance(dest_nodes, str):
    raise TypeError("dest_nodes must be an iterable of strings.")
  by_name = {}
  for node in graph_def.node:
    by_name[node.name] = node
  for d in dest_nodes:
    if d not in by_name:
      raise AssertionError("%s is not in graph" % d)
  keep = set()
  stack = list(dest_nodes)
  while stack:
    name = stack.pop()
    if name in keep:
      continue
    keep.add(name)
    node = by_name.get(name)
    if node is None:
      continue
    for inp in node.input:
      n = _node_name(inp)
      if n not in keep:
        stack.append(n)
  nodes = [_copy_node(n) for n in graph_def.node if n.name in keep]
  return _new_graph_def_like(graph_def, nodes)


def convert_variables_to_constants(sess, input_graph_def, output_node_names,
                                   variable_names_whitelist=None,
                                   variable_names_blacklist=None):
  """Freezes a graph: the sub-graph feeding output_node_names with every
  (white-listed, not black-listed) variable replaced by a Const holding the
  value it has in `sess`. Reads of the variables (their Identity nodes) stay."""
  _check_graph_def(input_graph_def)
  inference = extract_sub_graph(input_graph_def, output_node_names)
  names = []
  for node in inference.node:
    if node.op not in _VARIABLE_OPS:
      continue
    if variable_names_whitelist is not None and node.name not in variable_names_whitelist:
      continue
    if variable_names_blacklist is not None and node.name in variable_names_blacklist:
      continue
    names.append(node.name)
  values = dict(zip(names, sess.run([n + ":0" for n in names]))) if names else {}
  out_nodes = []
  for node in inference.node:
    if node.name in values:
      const = _protos.NodeDef()
      const.name = node.name
      const.op = "Const"
      dtype = node.attr["dtype"].type
      const.attr["dtype"].type = dtype
      tensor = _protos.TensorProto.FromString(
          _tfc.tensor_to_proto(values[node.name], dtype=dtype))
      const.attr["value"].tensor.CopyFrom(tensor)
      if node.device:
        const.device = node.device
      out_nodes.append(const)
    else:
      out_nodes.append(node)
  _logging.info("Froze %d variables.", len(values))
  _logging.info("Converted %d variables to const ops.", len(values))
  return _new_graph_def_like(inference, out_nodes)


def remove_training_nodes(input_graph, protected_nodes=None):
  """Drops CheckNumerics nodes and splices out Identity nodes (except protected
  ones and those with, or used as, control inputs)."""
  _check_graph_def(input_graph)
  protected = set(protected_nodes or ())
  drop = set(n.name for n in input_graph.node
             if n.op == "CheckNumerics" and n.name not in protected)
  kept = []
  for node in input_graph.node:
    if node.name in drop:
      continue
    new = _copy_node(node)
    inputs = [i for i in node.input if _node_name(i) not in drop]
    del new.input[:]
    new.input.extend(inputs)
    kept.append(new)
  has_control_in = set()
  used_as_control = set()
  for node in kept:
    for i in node.input:
      if i.startswith("^"):
        has_control_in.add(node.name)
        used_as_control.add(i[1:])
  splice = {}
  for node in kept:
    if (node.op == "Identity" and node.name not in protected and node.input and
        node.name not in has_control_in and node.name not in used_as_control):
      splice[node.name] = node.input[0]
  result = []
  for node in kept:
    if node.name in splice:
      continue
    new_inputs = []
    for full in node.input:
      seen = 0
      while _node_name(full) in splice and seen <= len(splice):
        full = splice[_node_name(full)]
        seen += 1
      new_inputs.append(full)
    del node.input[:]
    node.input.extend(new_inputs)
    result.append(node)
  return _new_graph_def_like(input_graph, result)


def must_run_on_cpu(node, pin_variables_on_cpu=False):
  """True for nodes TF 1.15 pins to the CPU (string consts, optionally variables)."""
  if pin_variables_on_cpu and node.op in _VARIABLE_OPS:
    return True
  if node.op == "Const":
    return node.attr["dtype"].type == 7  # DT_STRING
  return node.op in ("DynamicStitch", "ParallelDynamicStitch")


def tensor_shape_from_node_def_name(graph, input_name):
  if ":" not in input_name:
    input_name += ":0"
  return graph.get_tensor_by_name(input_name).get_shape()
