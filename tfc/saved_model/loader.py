"""Loading a SavedModel into a session (tf.saved_model.loader, TF 1.x style).

`load(sess, tags, export_dir)` reads `saved_model.pb` (or `.pbtxt`), picks the
MetaGraphDef whose tag-set equals `tags`, imports it into `sess.graph` (under
`import_scope` when given), restores the variables from
`export_dir/variables/variables` and runs the init op (the
`__saved_model_init_op` signature, or the `saved_model_main_op` or
`legacy_init_op` collection) with the asset tensors fed their paths inside
`export_dir/assets`. It returns the MetaGraphDef, whose `signature_def` map
names the tensors to feed and fetch.
"""
import os as _os

from tfc import gfile as _gfile
from tfc import logging as _logging
from tfc import protos as _protos
from tfc.framework import meta_graph as _meta_graph
from tfc.framework import ops as _ops
from tfc.saved_model import constants as _constants
from tfc.saved_model import utils as _utils


def _path(export_dir, name):
  export_dir = export_dir.decode() if isinstance(export_dir, bytes) else str(export_dir)
  return _os.path.join(export_dir, name)


def parse_saved_model(export_dir):
  """The `SavedModel` message of `export_dir` (binary `saved_model.pb`, else
  text `saved_model.pbtxt`).

  Raises:
    IOError: neither file exists, or the file cannot be parsed.
  """
  pb = _path(export_dir, _constants.SAVED_MODEL_FILENAME_PB)
  pbtxt = _path(export_dir, _constants.SAVED_MODEL_FILENAME_PBTXT)
  saved_model = _protos.SavedModel()
  if _gfile.Exists(pb):
    with _gfile.GFile(pb, "rb") as f:
      data = f.read()
    try:
      saved_model.ParseFromString(data)
    except Exception as e:  # google.protobuf.message.DecodeError
      raise IOError("Cannot parse file %s: %s." % (pb, e)) from None
    return saved_model
  if _gfile.Exists(pbtxt):
    from google.protobuf import text_format  # pylint: disable=g-import-not-at-top
    with _gfile.GFile(pbtxt, "r") as f:
      text = f.read()
    try:
      text_format.Merge(text, saved_model)
    except text_format.ParseError as e:
      raise IOError("Cannot parse file %s: %s." % (pbtxt, e)) from None
    return saved_model
  raise IOError("SavedModel file does not exist at: %s%s{%s|%s}" % (
      export_dir, _os.path.sep, _constants.SAVED_MODEL_FILENAME_PBTXT,
      _constants.SAVED_MODEL_FILENAME_PB))


def maybe_saved_model_directory(export_dir):
  """True when `export_dir` holds a `saved_model.pb` or `saved_model.pbtxt`."""
  return (_gfile.Exists(_path(export_dir, _constants.SAVED_MODEL_FILENAME_PB)) or
          _gfile.Exists(_path(export_dir, _constants.SAVED_MODEL_FILENAME_PBTXT)))


contains_saved_model = maybe_saved_model_directory


def get_variables_path(export_dir):
  """The checkpoint prefix of a SavedModel's variables."""
  return _os.path.join(_path(export_dir, _constants.VARIABLES_DIRECTORY),
                       _constants.VARIABLES_FILENAME)


def get_asset_tensors(export_dir, meta_graph_def_to_load, import_scope=None):
  """{asset tensor name: absolute path in export_dir/assets} for the feed of
  the init op (from `asset_file_def`, or the older `saved_model_assets`
  collection of packed AssetFileDefs)."""
  protos = list(meta_graph_def_to_load.asset_file_def)
  if not protos and _constants.ASSETS_KEY in meta_graph_def_to_load.collection_def:
    for any_proto in meta_graph_def_to_load.collection_def[_constants.ASSETS_KEY].any_list.value:
      asset = _protos.AssetFileDef()
      asset.ParseFromString(any_proto.value)
      protos.append(asset)
  assets_dir = _path(export_dir, _constants.ASSETS_DIRECTORY)
  feeds = {}
  for asset in protos:
    name = _ops.prepend_name_scope(asset.tensor_info.name, import_scope)
    feeds[name] = _os.path.join(assets_dir, asset.filename)
  return feeds


def _op_from_signature(meta_graph_def, key, import_scope):
  if key not in meta_graph_def.signature_def:
    return None
  outputs = meta_graph_def.signature_def[key].outputs
  if key not in outputs:
    raise RuntimeError("The %s signature of the SavedModel has no output %r" % (key, key))
  return _utils.get_element_from_tensor_info(outputs[key], import_scope=import_scope)


def _op_from_collection(meta_graph_def, key, import_scope):
  if key not in meta_graph_def.collection_def:
    return None
  names = list(meta_graph_def.collection_def[key].node_list.value)
  if len(names) != 1:
    raise RuntimeError("Expected exactly one SavedModel init op. Found: %s" % names)
  return _ops.get_default_graph().as_graph_element(
      _ops.prepend_name_scope(names[0], import_scope))


def get_init_op(meta_graph_def, import_scope=None):
  """The imported init op of a MetaGraphDef, or None (call inside the graph it
  was imported into)."""
  return (_op_from_signature(meta_graph_def, _constants.INIT_OP_SIGNATURE_KEY, import_scope) or
          _op_from_collection(meta_graph_def, _constants.MAIN_OP_KEY, import_scope) or
          _op_from_collection(meta_graph_def, _constants.LEGACY_INIT_OP_KEY, import_scope))


def get_train_op(meta_graph_def, import_scope=None):
  """The imported train op of a MetaGraphDef, or None."""
  return (_op_from_signature(meta_graph_def, _constants.TRAIN_OP_SIGNATURE_KEY, import_scope) or
          _op_from_collection(meta_graph_def, _constants.TRAIN_OP_KEY, import_scope))


class SavedModelLoader(object):
  """Loads one SavedModel directory; `load` does every step, the other methods
  one step each."""

  def __init__(self, export_dir):
    self._export_dir = export_dir
    self._variables_path = get_variables_path(export_dir)
    self._saved_model = parse_saved_model(export_dir)

  @property
  def export_dir(self):
    return self._export_dir

  @property
  def variables_path(self):
    return self._variables_path

  @property
  def saved_model(self):
    return self._saved_model

  def get_meta_graph_def_from_tags(self, tags):
    """The MetaGraphDef whose tag-set equals `tags`.

    Raises:
      RuntimeError: none matches.
    """
    if isinstance(tags, (str, bytes)):
      tags = [tags]
    want = set(t.decode() if isinstance(t, bytes) else t for t in tags)
    available = []
    for meta_graph_def in self._saved_model.meta_graphs:
      have = set(meta_graph_def.meta_info_def.tags)
      if have == want:
        return meta_graph_def
      available.append(sorted(have))
    raise RuntimeError(
        "MetaGraphDef associated with tags " + str(sorted(want)).strip("[]") +
        " could not be found in SavedModel. To inspect available tag-sets in the SavedModel, "
        "please use the SavedModel CLI: `saved_model_cli`\navailable_tags: " + str(available))

  def load_graph(self, graph, tags, import_scope=None, **saver_kwargs):
    """Imports the MetaGraphDef of `tags` into `graph`; returns (saver or None,
    the return elements)."""
    meta_graph_def = self.get_meta_graph_def_from_tags(tags)
    with graph.as_default():
      return _meta_graph._import_meta_graph_with_return_elements(  # pylint: disable=protected-access
          meta_graph_def, import_scope=import_scope, **saver_kwargs)

  def restore_variables(self, sess, saver, import_scope=None):
    """Restores the SavedModel's variables into `sess` with `saver`.

    Raises:
      ValueError: the graph has variables but the SavedModel no saver.
    """
    with sess.graph.as_default():
      if saver is None:
        from tfc.train import saver as _saver  # pylint: disable=g-import-not-at-top
        if _saver._all_saveable_objects(scope=import_scope):  # pylint: disable=protected-access
          raise ValueError("No variables to restore")
        _logging.info("The specified SavedModel has no variables; no checkpoints were restored.")
        return
      saver.restore(sess, self._variables_path)

  def run_init_ops(self, sess, tags, import_scope=None):
    """Runs the init op of the MetaGraphDef of `tags`, its assets fed."""
    meta_graph_def = self.get_meta_graph_def_from_tags(tags)
    with sess.graph.as_default():
      feeds = get_asset_tensors(self._export_dir, meta_graph_def, import_scope)
      init_op = get_init_op(meta_graph_def, import_scope)
      if init_op is not None:
        sess.run(fetches=[init_op], feed_dict=feeds)

  def load(self, sess, tags, import_scope=None, **saver_kwargs):
    """Imports, restores and initializes; returns the MetaGraphDef of `tags`."""
    with sess.graph.as_default():
      saver, _ = self.load_graph(sess.graph, tags, import_scope, **saver_kwargs)
      self.restore_variables(sess, saver, import_scope)
      self.run_init_ops(sess, tags, import_scope)
    return self.get_meta_graph_def_from_tags(tags)


def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
  """Loads the SavedModel in `export_dir` into `sess` (tf.saved_model.loader.load).

  Args:
    sess: the Session to restore the variables into (its graph receives the nodes).
    tags: the tag-set of the MetaGraphDef to load (e.g. `[tag_constants.SERVING]`).
    export_dir: the SavedModel directory.
    import_scope: optional name scope for the imported nodes.
    **saver_kwargs: passed on to the import of the meta graph.

  Returns:
    The loaded MetaGraphDef (its `signature_def` names inputs and outputs).

  Raises:
    IOError: no SavedModel in export_dir.
    RuntimeError: no MetaGraphDef with exactly `tags`.
  """
  return SavedModelLoader(export_dir).load(sess, tags, import_scope, **saver_kwargs)
