"""Writing a SavedModel, TF 1.x style (tf.saved_model.builder.SavedModelBuilder).

A SavedModel directory holds `saved_model.pb` (a `SavedModel` message: one
MetaGraphDef per tag-set, each with its signatures), `variables/variables.*`
(a V2 checkpoint written by a sharded Saver) and `assets/` (files the graph
reads, copied from the asset tensors' paths):

    builder = tf.saved_model.builder.SavedModelBuilder(export_dir)
    builder.add_meta_graph_and_variables(
        sess, [tf.saved_model.tag_constants.SERVING],
        signature_def_map={"serving_default": tf.saved_model.predict_signature_def(
            {"x": x}, {"y": y})})
    builder.save()
"""
import os as _os

from tfc import gfile as _gfile
from tfc import protos as _protos
from tfc.framework import ops as _ops
from tfc.saved_model import constants as _constants
from tfc.saved_model import utils as _utils


def _str(path):
  return path.decode() if isinstance(path, bytes) else str(path)


class SavedModelBuilder(object):
  """Builds a SavedModel: variables and assets once, with the first
  MetaGraphDef (`add_meta_graph_and_variables`), then further MetaGraphDefs
  sharing them (`add_meta_graph`), then `save`."""

  def __init__(self, export_dir):
    """Creates `export_dir`.

    Raises:
      AssertionError: `export_dir` exists and is not empty.
    """
    self._saved_model = _protos.SavedModel(
        saved_model_schema_version=_constants.SAVED_MODEL_SCHEMA_VERSION)
    self._export_dir = _str(export_dir)
    if _gfile.Exists(self._export_dir):
      if _gfile.ListDirectory(self._export_dir):
        raise AssertionError(
            "Export directory already exists, and isn't empty. Please choose a different "
            "export directory, or delete all the contents of the specified directory: %s"
            % self._export_dir)
    else:
      _gfile.MakeDirs(self._export_dir)
    self._has_saved_variables = False
    self._assets = {}  # name under assets/ -> source path

  # -- helpers ------------------------------------------------------------------------

  def _save_and_write_assets(self, assets_collection):
    """Copies each asset tensor's file into export_dir/assets and adds an
    AssetFileDef for it (packed in an Any) to the graph's `saved_model_assets`
    collection, which the exported MetaGraphDef carries."""
    if not assets_collection:
      return
    from tfc.framework import graph_io as _graph_io  # pylint: disable=g-import-not-at-top
    assets_dir = _os.path.join(self._export_dir, _constants.ASSETS_DIRECTORY)
    for tensor in assets_collection:
      if not isinstance(tensor, _ops.Tensor) or tensor.op.type != "Const":
        raise TypeError("Asset path tensor must be a Tensor (a string constant): %s" % (tensor,))
      value = tensor.op.get_attr("value")
      if isinstance(value, _protos.TensorProto):
        value = _graph_io.make_ndarray(value)
      source = value.reshape(-1)[0] if getattr(value, "size", 1) else b""
      source = source.decode() if isinstance(source, bytes) else str(source)
      if not source:
        raise ValueError("Invalid asset filepath tensor %s" % tensor)
      filename = self._asset_filename(source)
      if not _gfile.Exists(assets_dir):
        _gfile.MakeDirs(assets_dir)
      destination = _os.path.join(assets_dir, filename)
      if not _gfile.Exists(destination):
        _gfile.Copy(source, destination, overwrite=True)
      asset = _protos.AssetFileDef(filename=filename,
                                   tensor_info=_utils.build_tensor_info(tensor))
      _ops.add_to_collection(_constants.ASSETS_KEY, _protos.Any(
          type_url="type.googleapis.com/tensorflow.AssetFileDef",
          value=asset.SerializeToString()))

  def _asset_filename(self, source):
    """The name under assets/ of the file `source`: its basename, suffixed
    `_1`, `_2`, ... when another file of that name was added before."""
    filename = _os.path.basename(source)
    stem, ext = _os.path.splitext(filename)
    n = 0
    while filename in self._assets and self._assets[filename] != source:
      n += 1
      filename = "%s_%d%s" % (stem, n, ext)
    self._assets[filename] = source
    return filename

  @staticmethod
  def _validate_signature_def_map(signature_def_map):
    for key, signature_def in (signature_def_map or {}).items():
      if key in (_constants.INIT_OP_SIGNATURE_KEY, _constants.TRAIN_OP_SIGNATURE_KEY):
        raise KeyError("SignatureDef map key \"%s\" is reserved for initialization and "
                       "training ops (the init_op and train_op arguments)." % key)
      if not isinstance(signature_def, _protos.SignatureDef):
        raise TypeError("signature_def_map[%r] is not a SignatureDef: %r" % (key, signature_def))
      for info in list(signature_def.inputs.values()) + list(signature_def.outputs.values()):
        if not (info.name or info.WhichOneof("encoding") == "coo_sparse") or not info.dtype:
          raise AssertionError("All TensorInfo protos used in the SignatureDefs must have the "
                               "name and dtype fields set.")

  @staticmethod
  def _add_main_op(main_op):
    if main_op is None:
      return
    if not isinstance(main_op, _ops.Operation):
      raise TypeError("main_op needs to be an Operation: %r" % (main_op,))
    for key in (_constants.MAIN_OP_KEY, _constants.LEGACY_INIT_OP_KEY):
      if _ops.get_collection(key):
        if _ops.get_collection(key) == [main_op]:
          return
        raise ValueError("Graph already contains one or more main ops under the "
                         "collection %s." % key)
    _ops.add_to_collection(_constants.MAIN_OP_KEY, main_op)

  @staticmethod
  def _add_train_op(train_op):
    if train_op is None:
      return
    if not isinstance(train_op, (_ops.Operation, _ops.Tensor)):
      raise TypeError("train_op needs to be a Tensor or Op: %r" % (train_op,))
    if train_op not in _ops.get_collection(_constants.TRAIN_OP_KEY):
      _ops.add_to_collection(_constants.TRAIN_OP_KEY, train_op)

  @staticmethod
  def _maybe_create_saver(saver=None):
    if saver is not None:
      return saver
    from tfc.train import saver as _saver  # pylint: disable=g-import-not-at-top
    return _saver.Saver(_saver._all_saveable_objects(),  # pylint: disable=protected-access
                        sharded=True, allow_empty=True)

  def _tag_and_add_meta_graph(self, meta_graph_def, tags, signature_def_map):
    if isinstance(tags, (str, bytes)):
      tags = [tags]
    for tag in tags:
      meta_graph_def.meta_info_def.tags.append(_str(tag))
    for key, signature_def in (signature_def_map or {}).items():
      meta_graph_def.signature_def[key].CopyFrom(signature_def)
    self._saved_model.meta_graphs.add().CopyFrom(meta_graph_def)

  def _export(self, saver, tags, signature_def_map, assets_collection, clear_devices,
              strip_default_attrs):
    self._save_and_write_assets(assets_collection)
    meta_graph_def = saver.export_meta_graph(clear_devices=clear_devices,
                                             strip_default_attrs=strip_default_attrs)
    self._tag_and_add_meta_graph(meta_graph_def, tags, signature_def_map)

  # -- public -------------------------------------------------------------------------

  def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None,
                                   assets_collection=None, legacy_init_op=None,
                                   clear_devices=False, main_op=None,
                                   strip_default_attrs=False, saver=None, train_op=None):
    """Saves the variables of `sess` into export_dir/variables and adds the
    current graph as the first MetaGraphDef, tagged `tags`.

    Args:
      sess: the Session whose variable values are saved.
      tags: list of tags of this MetaGraphDef (e.g. `[tag_constants.SERVING]`).
      signature_def_map: {key: SignatureDef}.
      assets_collection: string-constant tensors naming files to copy into assets/.
      legacy_init_op: an op to run at load time (used when main_op is None).
      clear_devices: drop the nodes' device fields.
      main_op: an op to run after the variables are restored at load time.
      strip_default_attrs: drop attrs at their default value.
      saver: the Saver to save with (default: a sharded Saver of all saveables).
      train_op: an op recorded in the `saved_model_train_op` collection.

    Raises:
      AssertionError: variables were already saved, or a SignatureDef's
        TensorInfo lacks a name or dtype.
    """
    if self._has_saved_variables:
      raise AssertionError("Graph state including variables and assets has already been "
                           "saved. Please invoke `add_meta_graph()` instead.")
    self._validate_signature_def_map(signature_def_map)
    with sess.graph.as_default():
      self._add_main_op(main_op if main_op is not None else legacy_init_op)
      self._add_train_op(train_op)
      saver = self._maybe_create_saver(saver)
      variables_dir = _os.path.join(self._export_dir, _constants.VARIABLES_DIRECTORY)
      if not _gfile.Exists(variables_dir):
        _gfile.MakeDirs(variables_dir)
      saver.save(sess, _os.path.join(variables_dir, _constants.VARIABLES_FILENAME),
                 write_meta_graph=False, write_state=False)
      self._export(saver, tags, signature_def_map, assets_collection, clear_devices,
                   strip_default_attrs)
    self._has_saved_variables = True

  def add_meta_graph(self, tags, signature_def_map=None, assets_collection=None,
                     legacy_init_op=None, clear_devices=False, main_op=None,
                     strip_default_attrs=False, saver=None, train_op=None):
    """Adds the default graph as another MetaGraphDef, tagged `tags`, sharing
    the variables saved by `add_meta_graph_and_variables`.

    Raises:
      AssertionError: `add_meta_graph_and_variables` was not called first.
    """
    if not self._has_saved_variables:
      raise AssertionError("Graph state including variables and assets has not been saved "
                           "yet. Please invoke `add_meta_graph_and_variables()` first.")
    self._validate_signature_def_map(signature_def_map)
    self._add_main_op(main_op if main_op is not None else legacy_init_op)
    self._add_train_op(train_op)
    saver = self._maybe_create_saver(saver)
    self._export(saver, tags, signature_def_map, assets_collection, clear_devices,
                 strip_default_attrs)

  def save(self, as_text=False):
    """Writes saved_model.pb (or saved_model.pbtxt when `as_text`); returns its
    path (bytes, as TensorFlow)."""
    if as_text:
      from google.protobuf import text_format  # pylint: disable=g-import-not-at-top
      path = _os.path.join(self._export_dir, _constants.SAVED_MODEL_FILENAME_PBTXT)
      with _gfile.GFile(path, "w") as f:
        f.write(text_format.MessageToString(self._saved_model))
    else:
      path = _os.path.join(self._export_dir, _constants.SAVED_MODEL_FILENAME_PB)
      with _gfile.GFile(path, "wb") as f:
        f.write(self._saved_model.SerializeToString())
    return path.encode()


Builder = SavedModelBuilder
