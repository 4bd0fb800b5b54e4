"""MetaGraphDef export and import (TF 1.15's tf.train.export_meta_graph and
tf.train.import_meta_graph).

A MetaGraphDef holds a GraphDef together with what a Python program needs to
rebuild its graph-level objects: the collections (op and tensor names as
`node_list`, variables as serialized `VariableDef`s in `bytes_list`, plain
strings, integers and floats), an optional `SaverDef`, and `meta_info_def`
(the op definitions the graph uses, the producing library's version).

Collections whose items are Python objects other than ops and tensors are
serialized by functions registered per collection name with
`register_proto_function` (tf.Variable for the variable collections).
"""
import os as _os
import re as _re

from tfc import _tfc
from tfc import gfile as _gfile
from tfc import logging as _logging
from tfc import protos as _protos
from tfc.framework import graph_io as _graph_io  # noqa: F401  (installs Graph.as_graph_def)
from tfc.framework import importer as _importer
from tfc.framework import ops as _ops
from tfc.ops import variables as _variables

GraphKeys = _ops.GraphKeys

_UNBOUND_INPUT_PREFIX = "$unbound_inputs_"
# Ops TF's importer tolerates without a registration (function plumbing).
_UNREGISTERED_OK = ("_Arg", "_Retval", "_ListToArray", "_ArrayToList")
_SAVE_AND_RESTORE_OPS = frozenset([
    "SaveV2", "Save", "SaveSlice", "LegacySave", "LegacySaveSlice",
    "RestoreV2", "Restore", "RestoreSlice", "LegacyRestore", "LegacyRestoreSlice"])


# -- collection proto functions ------------------------------------------------------


_proto_functions = {}


def register_proto_function(collection_name, proto_type=None, to_proto=None, from_proto=None):
  """Registers how the items of a collection become protos and back.

  Args:
    collection_name: the collection's key.
    proto_type: the message class `to_proto` returns.
    to_proto: `fn(item, export_scope=None) -> proto or None` (None: skip).
    from_proto: `fn(proto, import_scope=None) -> item`.
  """
  if to_proto and not callable(to_proto):
    raise TypeError("to_proto must be callable.")
  if from_proto and not callable(from_proto):
    raise TypeError("from_proto must be callable.")
  _proto_functions[collection_name] = (proto_type, to_proto, from_proto)


def get_collection_proto_type(collection_name):
  """The message class registered for `collection_name`, or None."""
  entry = _proto_functions.get(collection_name)
  return entry[0] if entry else None


def get_to_proto_function(collection_name):
  """The to_proto function registered for `collection_name`, or None."""
  entry = _proto_functions.get(collection_name)
  return entry[1] if entry else None


def get_from_proto_function(collection_name):
  """The from_proto function registered for `collection_name`, or None."""
  entry = _proto_functions.get(collection_name)
  return entry[2] if entry else None


def _variable_to_proto(v, export_scope=None):
  return v.to_proto(export_scope=export_scope)


def _variable_from_proto(variable_def, import_scope=None):
  return _variables.Variable.from_proto(variable_def, import_scope=import_scope)


for _key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.TRAINABLE_VARIABLES,
             GraphKeys.MOVING_AVERAGE_VARIABLES, GraphKeys.LOCAL_VARIABLES,
             GraphKeys.MODEL_VARIABLES, GraphKeys.GLOBAL_STEP, GraphKeys.METRIC_VARIABLES):
  register_proto_function(_key, proto_type=_protos.VariableDef, to_proto=_variable_to_proto,
                          from_proto=_variable_from_proto)


def _saver_class():
  """tf.train.Saver when tfc provides one, else None."""
  from tfc import train  # pylint: disable=g-import-not-at-top
  return getattr(train, "Saver", None)


def _register_saver_functions():
  """Registers the `savers` collection (SaverDef) once a Saver class exists."""
  if GraphKeys.SAVERS in _proto_functions:
    return
  saver_cls = _saver_class()
  if saver_cls is not None and hasattr(saver_cls, "to_proto") and \
      hasattr(saver_cls, "from_proto"):
    register_proto_function(
        GraphKeys.SAVERS, proto_type=_protos.SaverDef,
        to_proto=lambda s, export_scope=None: s.to_proto(export_scope=export_scope),
        from_proto=lambda d, import_scope=None: saver_cls.from_proto(d, import_scope=import_scope))


# -- op definitions --------------------------------------------------------------------


_OP_DEF_CACHE = {}


def _shape_proto(shape):
  proto = _protos.TensorShapeProto()
  if shape is None:
    proto.unknown_rank = True
  else:
    for d in shape:
      proto.dim.add(size=-1 if d is None else int(d))
  return proto


def _tensor_proto(value):
  if isinstance(value, _protos.TensorProto):
    return value
  return _graph_io.make_tensor_proto(value)


def _attr_value(attr_type, value):
  """An AttrValue holding the Python `value` of an attr of type `attr_type`
  (the strings of OpDef.AttrDef.type: "int", "list(type)", ...)."""
  av = _protos.AttrValue()
  if attr_type.startswith("list("):
    kind = attr_type[5:-1]
    lst = av.list
    lst.SetInParent()  # selects the list member, even when empty
    for v in value:
      if kind == "string":
        lst.s.append(v.encode() if isinstance(v, str) else v)
      elif kind == "int":
        lst.i.append(int(v))
      elif kind == "float":
        lst.f.append(float(v))
      elif kind == "bool":
        lst.b.append(bool(v))
      elif kind == "type":
        lst.type.append(int(getattr(v, "as_datatype_enum", v)))
      elif kind == "shape":
        lst.shape.append(_shape_proto(v))
      elif kind == "tensor":
        lst.tensor.append(_tensor_proto(v))
      elif kind == "func":
        lst.func.add(name=v if isinstance(v, str) else v.decode())
    return av
  if attr_type == "string":
    av.s = value.encode() if isinstance(value, str) else value
  elif attr_type == "int":
    av.i = int(value)
  elif attr_type == "float":
    av.f = float(value)
  elif attr_type == "bool":
    av.b = bool(value)
  elif attr_type == "type":
    av.type = int(getattr(value, "as_datatype_enum", value))
  elif attr_type == "shape":
    av.shape.CopyFrom(_shape_proto(value))
  elif attr_type == "tensor":
    av.tensor.CopyFrom(_tensor_proto(value))
  elif attr_type == "func":
    av.func.name = value if isinstance(value, str) else value.decode()
  else:
    raise ValueError("Unsupported attr type %r" % attr_type)
  return av


def _op_def_proto(op_type):
  """The OpDef proto of a registered op (cached); KeyError when unknown."""
  proto = _OP_DEF_CACHE.get(op_type)
  if proto is not None:
    return proto
  d = _tfc.op_def(op_type)
  proto = _protos.OpDef(name=d["name"])
  for args, field in ((d["inputs"], proto.input_arg), (d["outputs"], proto.output_arg)):
    for arg in args:
      a = field.add(name=arg["name"])
      if arg["type"]:
        a.type = arg["type"]
      for k in ("type_attr", "number_attr", "type_list_attr"):
        if arg[k]:
          setattr(a, k, arg[k])
      if arg["is_ref"]:
        a.is_ref = True
  for attr in d["attrs"]:
    a = proto.attr.add(name=attr["name"], type=attr["type"])
    if "default" in attr:
      a.default_value.CopyFrom(_attr_value(attr["type"], attr["default"]))
    if attr.get("minimum") is not None:
      a.has_minimum = True
      a.minimum = attr["minimum"]
    allowed = attr.get("allowed_values")
    if allowed:
      lst = a.allowed_values.list
      if "type" in attr["type"]:
        lst.type.extend(allowed)
      else:
        lst.s.extend(x.encode() if isinstance(x, str) else x for x in allowed)
  if d.get("is_stateful"):
    proto.is_stateful = True
  _OP_DEF_CACHE[op_type] = proto
  return proto


def ops_used_by_graph_def(graph_def):
  """The op type names that graph_def's nodes and functions use (function
  names excluded), as a list."""
  functions = graph_def.library.function
  function_names = set(f.signature.name for f in functions)
  used = set()
  for node in graph_def.node:
    used.add(node.op)
  for f in functions:
    for node in f.node_def:
      used.add(node.op)
  return [op for op in used if op not in function_names]


def _stripped_op_list(op_types):
  ops = set(op_types)
  for op in ops:
    if op in _UNREGISTERED_OK:
      continue
    try:
      _op_def_proto(op)
    except KeyError:
      raise ValueError("Op %s is used by the graph, but is not registered" % op) from None
  return _protos.OpList(op=[_op_def_proto(op) for op in sorted(ops)
                            if op not in _UNREGISTERED_OK])


def stripped_op_list_for_graph(graph_def):
  """An OpList with the definitions of the ops graph_def uses, sorted by name.

  Raises:
    ValueError: if the graph uses an op that is not registered.
  """
  return _stripped_op_list(ops_used_by_graph_def(graph_def))


def strip_graph_default_valued_attrs(meta_graph_def):
  """Removes, from the nodes of meta_graph_def.graph_def, attrs equal to their
  op's default, and sets meta_info_def.stripped_default_attrs."""
  defaults = {}
  for node in meta_graph_def.graph_def.node:
    op_defaults = defaults.get(node.op)
    if op_defaults is None:
      try:
        op_def = _op_def_proto(node.op)
      except KeyError:
        op_defaults = {}  # a function or an unknown op: left as it is
      else:
        op_defaults = {a.name: a.default_value for a in op_def.attr
                       if a.HasField("default_value")}
      defaults[node.op] = op_defaults
    if not op_defaults:
      continue
    for key in list(node.attr):
      default = op_defaults.get(key)
      if default is not None and node.attr[key] == default:
        del node.attr[key]
  meta_graph_def.meta_info_def.stripped_default_attrs = True


# -- export ----------------------------------------------------------------------------------


def _should_include_node(node_or_node_name, export_scope, exclude_nodes):
  """Whether a node (or a collection item) belongs in the export."""
  if isinstance(node_or_node_name, str):
    node_name = node_or_node_name
  else:
    try:
      node_name = node_or_node_name.name
    except AttributeError:
      return True  # items without a name are kept
  if exclude_nodes and node_name in exclude_nodes:
    return False
  return (node_name.startswith(_UNBOUND_INPUT_PREFIX) or not export_scope or
          node_name.startswith(export_scope))


def _op_name_of(name):
  name = name[1:] if name.startswith("^") else name
  return name.split(":")[0]


def _scope_of(node_name):
  return node_name.rsplit("/", 1)[0] if "/" in node_name else ""


def _find_extraneous_saver_nodes(graph_def, saver_def):
  """The names of nodes that belong to save/restore subgraphs other than the
  one saver_def describes (all of them when saver_def is None)."""
  nodes = [(n.name, n.op) for n in graph_def.node]
  keep = set()
  if saver_def is not None:
    keep.add(_scope_of(_op_name_of(saver_def.save_tensor_name)) + "/")
    keep.add(_scope_of(_op_name_of(saver_def.restore_op_name)) + "/")
  saver_node_names = set(name for name, op in nodes if op in _SAVE_AND_RESTORE_OPS)
  scopes = set(_scope_of(x) for x in saver_node_names) - saver_node_names
  extraneous = set(s + "/" for s in scopes) - keep
  return set(name for name, _ in nodes if any(name.startswith(s) for s in extraneous))


def _node_def(from_node_def, export_scope, unbound_inputs, clear_devices=False):
  """A copy of a NodeDef with export_scope stripped from its names; inputs
  from outside the scope are renamed "$unbound_inputs_<name>" and recorded."""
  node_def = _protos.NodeDef()
  node_def.CopyFrom(from_node_def)
  inputs = node_def.input
  for i, v in enumerate(inputs):
    if export_scope and not v.lstrip("^").startswith(export_scope):
      inputs[i] = _re.sub(r"([\^]|^)(.*)", r"\1" + _UNBOUND_INPUT_PREFIX + r"\2", v)
      unbound_inputs.append(inputs[i])
    else:
      inputs[i] = _ops.strip_name_scope(v, export_scope)
  node_def.name = _ops.strip_name_scope(from_node_def.name, export_scope)
  if "_class" in node_def.attr:
    old = [s.decode() if isinstance(s, bytes) else s for s in node_def.attr["_class"].list.s]
    kept = [_ops.strip_name_scope(s, export_scope).encode() for s in old
            if not export_scope or s.split("@")[1].startswith(export_scope)]
    av = node_def.attr["_class"]
    av.Clear()
    av.list.SetInParent()
    av.list.s.extend(kept)
  if node_def.op in ("Enter", "RefEnter") and "frame_name" in node_def.attr:
    frame = node_def.attr["frame_name"].s.decode()
    if not export_scope or frame.startswith(export_scope):
      node_def.attr["frame_name"].s = _ops.strip_name_scope(frame, export_scope).encode()
  if clear_devices:
    node_def.device = ""
  return node_def


def _get_kind_name(item):
  """The CollectionDef member for a collection item without a proto function."""
  if isinstance(item, (str, bytes)):
    return "bytes_list"
  if isinstance(item, int):
    return "int64_list"
  if isinstance(item, float):
    return "float_list"
  if isinstance(item, _protos.Any):
    return "any_list"
  return "node_list"


def add_collection_def(meta_graph_def, key, graph=None, export_scope=None, exclude_nodes=None,
                       override_contents=None):
  """Adds the collection `key` of `graph` to meta_graph_def.collection_def.

  Items of collections with a registered to_proto function are stored as
  serialized protos (bytes_list); otherwise strings as bytes_list, ints as
  int64_list, floats as float_list and ops/tensors as node_list names. A
  collection that cannot be serialized is skipped with a warning.
  """
  if graph is not None and not isinstance(graph, _ops.Graph):
    raise TypeError("graph must be of type Graph, not %s" % type(graph))
  if not isinstance(key, (str, bytes)):
    _logging.warning("Only collections with string type keys will be serialized. This key "
                     "has %s", type(key))
    return
  graph = graph or _ops.get_default_graph()
  items = override_contents if override_contents else graph.get_collection(key)
  items = [x for x in items if _should_include_node(x, export_scope, exclude_nodes)]
  if not items:
    return
  try:
    col_def = meta_graph_def.collection_def[key]
    to_proto = get_to_proto_function(key)
    proto_type = get_collection_proto_type(key)
    if to_proto:
      values = col_def.bytes_list.value
      for x in items:
        proto = to_proto(x, export_scope=export_scope)
        if proto:
          if proto_type is not None and not isinstance(proto, proto_type):
            raise TypeError("%r is not a %s" % (proto, proto_type.__name__))
          values.append(proto.SerializeToString())
    else:
      kind = _get_kind_name(items[0])
      values = getattr(col_def, kind).value
      if kind == "node_list":
        for x in items:
          if not export_scope or x.name.startswith(export_scope):
            values.append(_ops.strip_name_scope(x.name, export_scope))
      elif kind == "bytes_list":
        values.extend(x.encode() if isinstance(x, str) else x for x in items)
      else:
        values.extend(items)
  except Exception as e:  # pylint: disable=broad-except
    _logging.warning("Issue encountered when serializing: %s.\n%s", key, str(e))
    if key in meta_graph_def.collection_def:
      del meta_graph_def.collection_def[key]


def _version_strings():
  import tfc  # pylint: disable=g-import-not-at-top
  return getattr(tfc, "VERSION", ""), getattr(tfc, "GIT_VERSION", "")


def create_meta_graph_def(meta_info_def=None, graph_def=None, saver_def=None,
                          collection_list=None, graph=None, export_scope=None,
                          exclude_nodes=None, clear_extraneous_savers=False,
                          strip_default_attrs=False, _op_types=None):
  """Builds a MetaGraphDef from its parts (defaults: the graph's GraphDef with
  shapes, all of its collections).

  Raises:
    TypeError: for arguments of the wrong proto type.
  """
  if graph is not None and not isinstance(graph, _ops.Graph):
    raise TypeError("graph must be of type Graph, not %s" % type(graph))
  if meta_info_def is not None and not isinstance(meta_info_def,
                                                  _protos.MetaGraphDef.MetaInfoDef):
    raise TypeError("meta_info_def must be of type MetaInfoDef, not %s" % type(meta_info_def))
  if graph_def is not None and not isinstance(graph_def, _protos.GraphDef):
    raise TypeError("graph_def must be of type GraphDef, not %s" % type(graph_def))
  if saver_def is not None and not isinstance(saver_def, _protos.SaverDef):
    raise TypeError("saver_def must be of type SaverDef, not %s" % type(saver_def))
  graph = graph or _ops.get_default_graph()
  _register_saver_functions()

  meta_graph_def = _protos.MetaGraphDef()
  info = meta_graph_def.meta_info_def
  if meta_info_def is not None:
    info.MergeFrom(meta_info_def)
  info.tensorflow_version, info.tensorflow_git_version = _version_strings()

  if graph_def is None:
    meta_graph_def.graph_def.CopyFrom(graph.as_graph_def(add_shapes=True))
    if _op_types is None:
      _op_types = set(op.type for op in graph.get_operations())
      library = meta_graph_def.graph_def.library.function
      if library:
        functions = list(library)
        names = set(f.signature.name for f in functions)
        _op_types = set(t for t in _op_types if t not in names)
        for f in functions:
          _op_types.update(n.op for n in f.node_def)
  else:
    meta_graph_def.graph_def.CopyFrom(graph_def)
  if not info.stripped_op_list.op:
    if _op_types is not None:
      info.stripped_op_list.MergeFrom(_stripped_op_list(_op_types))
    else:
      info.stripped_op_list.MergeFrom(stripped_op_list_for_graph(meta_graph_def.graph_def))

  if strip_default_attrs:
    strip_graph_default_valued_attrs(meta_graph_def)

  if saver_def is not None:
    meta_graph_def.saver_def.MergeFrom(saver_def)
    meta_graph_def.saver_def.SetInParent()

  keys = collection_list if collection_list is not None else graph.get_all_collection_keys()
  for key in keys:
    if clear_extraneous_savers and key == GraphKeys.SAVERS:
      from_proto = get_from_proto_function(key)
      override = [from_proto(saver_def)] if (from_proto and saver_def is not None) else None
      if override is None:
        continue
      add_collection_def(meta_graph_def, key, graph=graph, export_scope=export_scope,
                         exclude_nodes=exclude_nodes, override_contents=override)
    else:
      add_collection_def(meta_graph_def, key, graph=graph, export_scope=export_scope,
                         exclude_nodes=exclude_nodes)
  return meta_graph_def


def _write_meta_graph(meta_graph_def, filename, as_text):
  dirname = _os.path.dirname(filename)
  if dirname and not _gfile.IsDirectory(dirname) and "://" not in dirname:
    _gfile.MakeDirs(dirname)
  if as_text:
    with _gfile.GFile(filename, "w") as f:
      f.write(str(meta_graph_def))
  else:
    with _gfile.GFile(filename, "wb") as f:
      f.write(meta_graph_def.SerializeToString(deterministic=True))


def export_scoped_meta_graph(filename=None, graph_def=None, graph=None, export_scope=None,
                             as_text=False, unbound_inputs_col_name="unbound_inputs",
                             clear_devices=False, saver_def=None,
                             clear_extraneous_savers=False, strip_default_attrs=False,
                             save_debug_info=False, meta_info_def=None, collection_list=None,
                             **kwargs):
  """Exports the graph (or the part under `export_scope`) as a MetaGraphDef.

  Names under `export_scope` lose that prefix; inputs from outside it are
  renamed "$unbound_inputs_<name>" and listed in the collection
  `unbound_inputs_col_name`.

  Returns:
    (MetaGraphDef, dict of the exported global variables by stripped name).
  """
  del save_debug_info
  if kwargs:
    raise TypeError("export_scoped_meta_graph() got unexpected keyword arguments: %s"
                    % ", ".join(sorted(kwargs)))
  graph = graph or _ops.get_default_graph()
  exclude_nodes = None
  unbound_inputs = []
  if export_scope or clear_extraneous_savers or clear_devices:
    source = graph_def if graph_def is not None else graph.as_graph_def(add_shapes=True)
    new_graph_def = _protos.GraphDef()
    new_graph_def.versions.CopyFrom(source.versions)
    if source.HasField("library"):
      new_graph_def.library.CopyFrom(source.library)
    if clear_extraneous_savers:
      exclude_nodes = _find_extraneous_saver_nodes(source, saver_def)
    nodes = new_graph_def.node
    for node in source.node:
      if _should_include_node(node.name, export_scope, exclude_nodes):
        nodes.append(_node_def(node, export_scope, unbound_inputs,
                               clear_devices=clear_devices))
    graph_def = new_graph_def
    if unbound_inputs_col_name:
      graph.clear_collection(unbound_inputs_col_name)
      for k in unbound_inputs:
        graph.add_to_collection(unbound_inputs_col_name, k)
  var_list = {}
  for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES, scope=export_scope):
    if _should_include_node(v, export_scope, exclude_nodes):
      var_list[_ops.strip_name_scope(v.name, export_scope)] = v
  meta_graph_def = create_meta_graph_def(
      meta_info_def=meta_info_def, graph_def=graph_def, saver_def=saver_def,
      collection_list=collection_list, graph=graph, export_scope=export_scope,
      exclude_nodes=exclude_nodes, clear_extraneous_savers=clear_extraneous_savers,
      strip_default_attrs=strip_default_attrs)
  if filename:
    _write_meta_graph(meta_graph_def, filename, as_text)
  return meta_graph_def, var_list


def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None,
                      collection_list=None, as_text=False, graph=None, export_scope=None,
                      clear_devices=False, clear_extraneous_savers=False,
                      strip_default_attrs=False, save_debug_info=False, **kwargs):
  """Returns a MetaGraphDef of `graph` (default: the default graph) and writes
  it to `filename` when given (binary, or text with as_text=True).

  Args:
    filename: optional file to write.
    meta_info_def: a `MetaGraphDef.MetaInfoDef` to start from (the version
      fields and, when empty, stripped_op_list are filled in).
    graph_def: the GraphDef to export (default: the graph's, with
      `_output_shapes`).
    saver_def: a `SaverDef` to include.
    collection_list: the collection keys to export (default: all).
    as_text: write the text format.
    graph: the graph to export.
    export_scope: export only the nodes under this name scope, without it.
    clear_devices: remove the device of every node.
    clear_extraneous_savers: drop the save/restore subgraphs of savers other
      than the one of `saver_def`.
    strip_default_attrs: remove attrs equal to their op's default (and mark
      meta_info_def.stripped_default_attrs).
    save_debug_info: accepted; no debug info is written.
    **kwargs: `unbound_inputs_col_name` (export_scoped_meta_graph's).

  Returns:
    The MetaGraphDef.

  Raises:
    ValueError: if the graph uses an op that is not registered.
  """
  meta_graph_def, _ = export_scoped_meta_graph(
      filename=filename, meta_info_def=meta_info_def, graph_def=graph_def,
      saver_def=saver_def, collection_list=collection_list, as_text=as_text, graph=graph,
      export_scope=export_scope, clear_devices=clear_devices,
      clear_extraneous_savers=clear_extraneous_savers,
      strip_default_attrs=strip_default_attrs, save_debug_info=save_debug_info, **kwargs)
  return meta_graph_def


# -- import ----------------------------------------------------------------------------------


def read_meta_graph_file(filename):
  """Reads a MetaGraphDef from a binary or text file.

  Raises:
    IOError: if the file does not exist, or holds neither a binary nor a text
      MetaGraphDef.
  """
  if not _gfile.Exists(filename):
    raise IOError("File %s does not exist." % filename)
  with _gfile.GFile(filename, "rb") as f:
    content = f.read()
  meta_graph_def = _protos.MetaGraphDef()
  try:
    meta_graph_def.ParseFromString(content)
    return meta_graph_def
  except _protos.DecodeError as e:
    binary_error = e
  try:
    text = content.decode("utf-8")
  except UnicodeDecodeError:
    raise IOError("Cannot parse file %s: %s." % (filename, binary_error)) from None
  from google.protobuf import text_format  # pylint: disable=g-import-not-at-top
  meta_graph_def = _protos.MetaGraphDef()
  try:
    text_format.Merge(text, meta_graph_def, descriptor_pool=_protos.descriptor_pool())
  except (text_format.ParseError, ValueError, TypeError) as e:
    raise IOError("Cannot parse file %s: %s." % (filename, str(e))) from None
  return meta_graph_def


def _version_at_least(version, minimum):
  def parts(v):
    out = []
    for p in _re.split(r"[.\-]", v):
      m = _re.match(r"\d+", p)
      if not m:
        break
      out.append(int(m.group()))
    return out
  return parts(version) >= parts(minimum)


def _restore_collections(graph, meta_graph_def, scope, unbound_inputs_col_name,
                         restore_collections_predicate):
  tf_version = meta_graph_def.meta_info_def.tensorflow_version
  # VariableDef.trainable exists since TF 1.9; older files say it by collection
  variables_have_trainable = not tf_version or _version_at_least(tf_version, "1.9")
  collections = meta_graph_def.collection_def
  ordered = []
  if GraphKeys.TRAINABLE_VARIABLES in collections:
    ordered.append(GraphKeys.TRAINABLE_VARIABLES)
  ordered.extend(k for k in sorted(collections) if k != GraphKeys.TRAINABLE_VARIABLES)
  _register_saver_functions()
  variable_objects = {}
  for key in ordered:
    if key == unbound_inputs_col_name or not restore_collections_predicate(key):
      continue
    col_def = collections[key]
    kind = col_def.WhichOneof("kind")
    if kind is None:
      _logging.error("Cannot identify data type for collection %s. Skipping.", key)
      continue
    from_proto = get_from_proto_function(key)
    values = getattr(col_def, kind).value
    if from_proto and kind == "bytes_list":
      proto_type = get_collection_proto_type(key)
      is_variables = key in GraphKeys._VARIABLE_COLLECTIONS or key == GraphKeys.GLOBAL_STEP
      for value in values:
        item = variable_objects.get(value) if is_variables else None
        if item is None:
          proto = proto_type()
          proto.ParseFromString(value)
          if is_variables and not variables_have_trainable:
            proto.trainable = key == GraphKeys.TRAINABLE_VARIABLES
          item = from_proto(proto, import_scope=scope)
          if is_variables:
            variable_objects[value] = item
        graph.add_to_collection(key, item)
    elif kind == "node_list":
      for value in values:
        graph.add_to_collection(
            key, graph.as_graph_element(_ops.prepend_name_scope(value, scope)))
    elif kind == "int64_list":
      for value in values:
        graph.add_to_collection(key, int(value))
    else:
      for value in values:
        if isinstance(value, str):
          value = _ops.prepend_name_scope(value, scope)
        graph.add_to_collection(key, value)


def import_scoped_meta_graph_with_return_elements(
    meta_graph_or_file, clear_devices=False, graph=None, import_scope=None, input_map=None,
    unbound_inputs_col_name="unbound_inputs", restore_collections_predicate=(lambda key: True),
    return_elements=None):
  """Imports a MetaGraphDef's graph and collections into `graph` (default: the
  default graph) under `import_scope`.

  Returns:
    (dict of the imported global variables by name without the scope,
     the `return_elements` as import_graph_def gives them).

  Raises:
    ValueError: if the MetaGraphDef has unbound inputs that input_map does
      not bind exactly.
  """
  if isinstance(meta_graph_or_file, _protos.MetaGraphDef):
    meta_graph_def = meta_graph_or_file
  else:
    meta_graph_def = read_meta_graph_file(meta_graph_or_file)

  if unbound_inputs_col_name and unbound_inputs_col_name in meta_graph_def.collection_def:
    col_def = meta_graph_def.collection_def[unbound_inputs_col_name]
    kind = col_def.WhichOneof("kind")
    if kind is not None:
      names = [v.decode() if isinstance(v, bytes) else v for v in getattr(col_def, kind).value]
      if names and (not input_map or sorted(names) != sorted(input_map)):
        raise ValueError("The MetaGraphDef has unbound inputs, please provide them in "
                         "input_map: %s" % sorted(names))

  graph = graph or _ops.get_default_graph()
  with graph.as_default():
    producer_op_list = None
    if meta_graph_def.meta_info_def.HasField("stripped_op_list"):
      producer_op_list = meta_graph_def.meta_info_def.stripped_op_list
    input_graph_def = meta_graph_def.graph_def
    if clear_devices:
      cleared = _protos.GraphDef()
      cleared.CopyFrom(input_graph_def)
      for node in cleared.node:
        node.device = ""
      input_graph_def = cleared
    scope = graph.unique_name(import_scope or "", mark_as_used=False)
    returns = _importer.import_graph_def(
        input_graph_def, name=(import_scope or scope), input_map=input_map,
        producer_op_list=producer_op_list, return_elements=return_elements)
    _restore_collections(graph, meta_graph_def, scope, unbound_inputs_col_name,
                         restore_collections_predicate)
    var_list = {}
    for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES, scope=scope):
      var_list[_ops.strip_name_scope(v.name, scope)] = v
  return var_list, returns


def import_scoped_meta_graph(meta_graph_or_file, clear_devices=False, graph=None,
                             import_scope=None, input_map=None,
                             unbound_inputs_col_name="unbound_inputs",
                             restore_collections_predicate=(lambda key: True)):
  """import_scoped_meta_graph_with_return_elements without return elements:
  returns the dict of imported global variables."""
  return import_scoped_meta_graph_with_return_elements(
      meta_graph_or_file, clear_devices=clear_devices, graph=graph, import_scope=import_scope,
      input_map=input_map, unbound_inputs_col_name=unbound_inputs_col_name,
      restore_collections_predicate=restore_collections_predicate)[0]


def _saver_for_imported_graph(meta_graph_def, import_scope, imported_vars):
  saver_cls = _saver_class()
  if saver_cls is None:
    return None
  if meta_graph_def.HasField("saver_def"):
    scope = import_scope
    if imported_vars:
      key, var = next(iter(imported_vars.items()))
      scope = var.name[:-len(key)]
    return saver_cls(saver_def=meta_graph_def.saver_def, name=scope)
  if _variables.global_variables(scope=import_scope) or \
      _ops.get_collection(GraphKeys.SAVEABLE_OBJECTS, import_scope):
    return saver_cls()
  _logging.info("Saver not created because there are no variables in the graph to restore")
  return None


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
  """Recreates a graph saved in a MetaGraphDef (a proto or a file path) in the
  default graph: its nodes, its collections, and tf.Variable objects for the
  variable collections (so `tf.global_variables()`,
  `tf.trainable_variables()` and `tf.global_variables_initializer()` work).

  Args:
    meta_graph_or_file: a `MetaGraphDef`, or the path of a binary or text one.
    clear_devices: ignore the devices the nodes name.
    import_scope: name scope to import under.
    **kwargs: `input_map`, `unbound_inputs_col_name`,
      `restore_collections_predicate`, `return_elements`.

  Returns:
    A `tf.train.Saver` built from the saver_def (or for the imported
    variables) when tfc provides `tf.train.Saver`; otherwise None.

  Raises:
    IOError: if the file does not exist or cannot be parsed.
  """
  return _import_meta_graph_with_return_elements(meta_graph_or_file, clear_devices,
                                                 import_scope, **kwargs)[0]


def _import_meta_graph_with_return_elements(meta_graph_or_file, clear_devices=False,
                                            import_scope=None, return_elements=None,
                                            **kwargs):
  if isinstance(meta_graph_or_file, _protos.MetaGraphDef):
    meta_graph_def = meta_graph_or_file
  else:
    meta_graph_def = read_meta_graph_file(meta_graph_or_file)
  imported_vars, returns = import_scoped_meta_graph_with_return_elements(
      meta_graph_def, clear_devices=clear_devices, import_scope=import_scope,
      return_elements=return_elements, **kwargs)
  saver = _saver_for_imported_graph(meta_graph_def, import_scope, imported_vars)
  return saver, returns
