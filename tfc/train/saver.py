"""tf.train.Saver (TF 1.15): saves and restores variables in V2 checkpoints
through graph ops, so the save/restore subgraph is part of the graph (and of
its MetaGraphDef) exactly as TensorFlow builds it.

Under the Saver's name scope (default "save"):

    filename/input (Const) -> filename (PlaceholderWithDefault)
        -> Const (PlaceholderWithDefault, the tensor fed with the path)
    SaveV2(Const, SaveV2/tensor_names, SaveV2/shape_and_slices, vars...)
    control_dependency = Identity(Const, ^SaveV2)          (save_tensor_name)
    RestoreV2(Const, RestoreV2/tensor_names, ...) on CPU:0
    Assign, Assign_1, ... (variable <- RestoreV2:i), restore_all = NoOp(^Assign...)

With sharded=True every device gets its own SaveV2 writing
"<prefix>_temp/part-0000k-of-0000n" (ShardedFilename of a StringJoin whose
suffix a StaticRegexFullMatch/Select picks), and MergeV2Checkpoints folds the
parts into "<prefix>"; each device restores its variables with its own
RestoreV2 (restore_shard), grouped by restore_all.

The file formats and all I/O are the C kernels'; this module only builds the
ops and keeps the `checkpoint` state file and the max_to_keep bookkeeping.
"""
import collections as _collections
import os as _os
import time as _time

import numpy as _np

from tfc import dtypes as _dtypes
from tfc import errors as _errors
from tfc import logging as _logging
from tfc import protos as _protos
from tfc.framework import device as _pydev
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op
from tfc.ops import array_ops as _array_ops
from tfc.ops import control_flow_ops as _control_flow_ops
from tfc.ops import state_ops as _state_ops
from tfc.ops import variables as _variables
from tfc.train import checkpoint_management as _cm
from tfc.train import training_util as _training_util

_V1 = 1
_V2 = 2


# -- saveables --------------------------------------------------------------------------


class SaveSpec(object):
  """One tensor to save: the tensor, its slice spec ("" = whole) and its key."""

  def __init__(self, tensor, slice_spec, name, dtype=None, device=None):
    self._tensor = tensor
    self.slice_spec = slice_spec
    self.name = name
    self.dtype = dtype if dtype is not None else tensor.dtype.base_dtype
    self.device = device if device is not None else tensor.device

  @property
  def tensor(self):
    return self._tensor() if callable(self._tensor) else self._tensor


class SaveableObject(object):
  """Something a Saver saves: one or more SaveSpecs and how to restore them."""

  def __init__(self, op, specs, name):
    self.op = op
    self.specs = specs
    self.name = name

  @property
  def device(self):
    return self.specs[0].device

  def restore(self, restored_tensors, restored_shapes):
    raise NotImplementedError


class ReferenceVariableSaveable(SaveableObject):
  """A tf.Variable (VariableV2): saved as its value, restored with Assign."""

  def __init__(self, var, slice_spec, name):
    spec = SaveSpec(var, slice_spec, name, dtype=var.dtype.base_dtype, device=var.device)
    super(ReferenceVariableSaveable, self).__init__(var, [spec], name)

  def restore(self, restored_tensors, restored_shapes):
    restored = restored_tensors[0]
    if restored_shapes is not None:
      restored = _array_ops.reshape(restored, restored_shapes[0])
    return _state_ops.assign(
        self.op, restored,
        validate_shape=restored_shapes is None and self.op.get_shape().is_fully_defined())


def _var_key(var):
  """The checkpoint key of a variable or variable tensor: its op's name."""
  return var.op.name


def op_list_to_dict(op_list):
  """{checkpoint key: variable} of a list (keys: op names) or a dict (as given)."""
  if not isinstance(op_list, (list, tuple, set)):
    raise TypeError("Variables to save should be passed in a dict or a list: %s" % op_list)
  names_to_saveables = {}
  for var in sorted(op_list, key=lambda x: x.name):
    if isinstance(var, SaveableObject):
      names_to_saveables[var.name] = var
      continue
    if isinstance(var, _variables.Variable):
      name = _var_key(var)
    elif isinstance(var, _ops.Tensor) and var.op.type in ("VariableV2", "Variable"):
      name = var.op.name
    else:
      raise TypeError("Variable to save is not a Variable: %s" % (var,))
    if name in names_to_saveables:
      raise ValueError("At least two variables have the same name: %s" % name)
    names_to_saveables[name] = var
  return names_to_saveables


def validate_and_slice_inputs(names_to_saveables):
  """The SaveableObjects of a {name: variable} dict (or list), sorted by name."""
  if not isinstance(names_to_saveables, dict):
    names_to_saveables = op_list_to_dict(names_to_saveables)
  saveables = []
  seen_ops = set()
  for name, op in sorted(names_to_saveables.items(), key=lambda x: x[0]):
    if isinstance(op, SaveableObject):
      saveable = op
    elif isinstance(op, (_variables.Variable, _ops.Tensor)):
      if isinstance(op, _ops.Tensor) and op.op.type not in ("VariableV2", "Variable"):
        raise TypeError("names_to_saveables must be a dict mapping string names to "
                        "Variables or SaveableObjects: %s" % (op,))
      info = op._get_save_slice_info() if isinstance(op, _variables.Variable) else None  # pylint: disable=protected-access
      slice_spec = info.spec if info is not None else ""
      full_name = info.full_name if info is not None else name
      saveable = ReferenceVariableSaveable(op, slice_spec, full_name)
    else:
      raise TypeError("names_to_saveables must be a dict mapping string names to Variables "
                      "or SaveableObjects: %s" % (op,))
    key = saveable.op if not isinstance(saveable.op, _variables.Variable) else saveable.op.op
    if key in seen_ops:
      raise ValueError("The same saveable will be restored with two names: %s" % name)
    seen_ops.add(key)
    saveables.append(saveable)
  return saveables


def _set_cpu0(device_string):
  """The device with its type and index replaced by CPU:0."""
  spec = _pydev.DeviceSpec.from_string(device_string or "")
  spec = spec.replace(device_type="CPU", device_index=0)
  return spec.to_string()


# -- the builder ------------------------------------------------------------------------


class BaseSaverBuilder(object):
  """Builds the save/restore subgraph of a Saver and returns its SaverDef."""

  SaveSpec = SaveSpec
  SaveableObject = SaveableObject

  def __init__(self, write_version=_V2):
    self._write_version = write_version

  def save_op(self, filename_tensor, saveables):
    """A SaveV2 op writing every spec of `saveables` to `filename_tensor`."""
    names, tensors, slices = [], [], []
    for saveable in saveables:
      for spec in saveable.specs:
        names.append(spec.name)
        tensors.append(spec.tensor)
        slices.append(spec.slice_spec)
    if self._write_version != _V2:
      raise RuntimeError("Unexpected write_version: %s (only V2 checkpoints are written)"
                         % self._write_version)
    return save_v2(filename_tensor, names, slices, tensors)

  def bulk_restore(self, filename_tensor, saveables, preferred_shard, restore_sequentially):
    """One RestoreV2 (on CPU:0) for every spec of `saveables`; its outputs."""
    del preferred_shard, restore_sequentially
    names, slices, dtypes = [], [], []
    for saveable in saveables:
      for spec in saveable.specs:
        names.append(spec.name)
        slices.append(spec.slice_spec)
        dtypes.append(spec.dtype)
    with _ops.device("cpu:0"):
      return restore_v2(filename_tensor, names, slices, dtypes)

  def sharded_filename(self, filename_tensor, shard, num_shards):
    return _apply_op("ShardedFilename", None, [filename_tensor, shard, num_shards]).outputs[0]

  def _AddSaveOps(self, filename_tensor, saveables):  # pylint: disable=invalid-name
    save = self.save_op(filename_tensor, saveables)
    return _control_flow_ops.with_dependencies([save], filename_tensor)

  def _AddShardedSaveOpsForV2(self, checkpoint_prefix, per_device):  # pylint: disable=invalid-name
    with _ops.device("CPU"):
      is_s3 = _apply_op("StaticRegexFullMatch", None, [checkpoint_prefix],
                        {"pattern": "^s3://.*"}).outputs[0]
      suffix = _array_ops.where(is_s3, _ops.convert_to_tensor(".part"),
                                _ops.convert_to_tensor(_os.path.normpath("_temp/part")))
      tmp_checkpoint_prefix = _apply_op("StringJoin", None, [[checkpoint_prefix, suffix]],
                                        {"separator": ""}).outputs[0]
    num_shards = len(per_device)
    sharded_saves = []
    sharded_prefixes = []
    num_shards_tensor = _ops.convert_to_tensor(num_shards, name="num_shards")
    last_device = None
    for shard, (device, saveables) in enumerate(per_device):
      last_device = device
      with _ops.device(_set_cpu0(device)):
        sharded_filename = self.sharded_filename(tmp_checkpoint_prefix, shard, num_shards_tensor)
        sharded_prefixes.append(sharded_filename)
        sharded_saves.append(self._AddSaveOps(sharded_filename, saveables))
    with _ops.control_dependencies([x.op for x in sharded_saves]):
      with _ops.device(_set_cpu0(last_device)):
        merge_step = _apply_op("MergeV2Checkpoints", None,
                               [_array_ops.stack(sharded_prefixes), checkpoint_prefix],
                               {"delete_old_dirs": True})
        with _ops.control_dependencies([merge_step]):
          return _array_ops.identity(checkpoint_prefix)

  def _AddShardedSaveOps(self, filename_tensor, per_device):  # pylint: disable=invalid-name
    return self._AddShardedSaveOpsForV2(filename_tensor, per_device)

  def _AddRestoreOps(self, filename_tensor, saveables, restore_sequentially, reshape,  # pylint: disable=invalid-name
                     preferred_shard=-1, name="restore_all"):
    all_tensors = self.bulk_restore(filename_tensor, saveables, preferred_shard,
                                    restore_sequentially)
    assign_ops = []
    idx = 0
    for saveable in saveables:
      shapes = None
      if reshape:
        shapes = []
        for spec in saveable.specs:
          v = spec.tensor
          shape = v.get_shape()
          if not shape.is_fully_defined():
            shape = _array_ops.shape(v)
          shapes.append(shape)
      n = len(saveable.specs)
      tensors = all_tensors[idx:idx + n]
      idx += n
      assign_ops.append(saveable.restore(tensors, shapes))
    return _control_flow_ops.group(*assign_ops, name=name)

  def _AddShardedRestoreOps(self, filename_tensor, per_device, restore_sequentially, reshape):  # pylint: disable=invalid-name
    sharded_restores = []
    for shard, (device, saveables) in enumerate(per_device):
      with _ops.device(device):
        sharded_restores.append(
            self._AddRestoreOps(filename_tensor, saveables, restore_sequentially, reshape,
                                preferred_shard=shard, name="restore_shard"))
    return _control_flow_ops.group(*sharded_restores, name="restore_all")

  def _GroupByDevices(self, saveables):  # pylint: disable=invalid-name
    per_device = _collections.defaultdict(list)
    for saveable in saveables:
      canonical = set(_pydev.canonical_name(spec.device) for spec in saveable.specs)
      if len(canonical) != 1:
        raise ValueError("All tensors of a saveable object must be on the same device: %s"
                         % saveable.name)
      per_device[canonical.pop()].append(saveable)
    return sorted(per_device.items(), key=lambda t: t[0])

  def build(self, names_to_saveables, reshape=False, sharded=False, max_to_keep=5,
            keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
            filename="model"):
    """Adds the save/restore ops for `names_to_saveables`; returns a SaverDef."""
    return self._build_internal(names_to_saveables, reshape=reshape, sharded=sharded,
                                max_to_keep=max_to_keep,
                                keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
                                name=name, restore_sequentially=restore_sequentially,
                                filename=filename)

  def _build_internal(self, names_to_saveables, reshape=False, sharded=False, max_to_keep=5,
                      keep_checkpoint_every_n_hours=10000.0, name=None,
                      restore_sequentially=False, filename="model", build_save=True,
                      build_restore=True):
    if not build_save or not build_restore:
      raise ValueError("save and restore operations need to be built together "
                       "when eager execution is not enabled.")
    saveables = validate_and_slice_inputs(names_to_saveables)
    if max_to_keep is None:
      max_to_keep = 0
    with _ops.name_scope(name, "save", [saveable.op for saveable in saveables]) as name:
      filename_tensor = _array_ops.placeholder_with_default(filename or "model", shape=(),
                                                            name="filename")
      # "Const" is the name TF's graphs feed the path to.
      filename_tensor = _array_ops.placeholder_with_default(filename_tensor, shape=(),
                                                            name="Const")
      if sharded:
        per_device = self._GroupByDevices(saveables)
        save_tensor = self._AddShardedSaveOps(filename_tensor, per_device)
        restore_op = self._AddShardedRestoreOps(filename_tensor, per_device,
                                                restore_sequentially, reshape)
      else:
        save_tensor = self._AddSaveOps(filename_tensor, saveables)
        restore_op = self._AddRestoreOps(filename_tensor, saveables, restore_sequentially,
                                         reshape)
    return _protos.SaverDef(
        filename_tensor_name=filename_tensor.name, save_tensor_name=save_tensor.name,
        restore_op_name=restore_op.name, max_to_keep=max_to_keep, sharded=sharded,
        keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
        version=self._write_version)


class BulkSaverBuilder(BaseSaverBuilder):
  """The default builder: one RestoreV2 for all tensors of a device."""


def save_v2(prefix, tensor_names, shape_and_slices, tensors, name=None):
  """The SaveV2 op: writes `tensors` under `tensor_names` to the checkpoint `prefix`."""
  tensors = [_ops.convert_to_tensor(t) if not isinstance(t, (_ops.Tensor, _variables.Variable))
             else t for t in tensors]
  dtypes = [t.dtype.base_dtype for t in tensors]
  return _apply_op("SaveV2", name, [prefix, _to_strings(tensor_names, "tensor_names"),
                                    _to_strings(shape_and_slices, "shape_and_slices"), tensors],
                   {"dtypes": dtypes})


def restore_v2(prefix, tensor_names, shape_and_slices, dtypes, name=None):
  """The RestoreV2 op: reads `tensor_names` (of `dtypes`) from the checkpoint `prefix`."""
  dtypes = [_dtypes.as_dtype(d).base_dtype for d in dtypes]
  op = _apply_op("RestoreV2", name, [prefix, _to_strings(tensor_names, "tensor_names"),
                                     _to_strings(shape_and_slices, "shape_and_slices")],
                 {"dtypes": dtypes})
  return list(op.outputs)


def _to_strings(values, name):
  if isinstance(values, _ops.Tensor):
    return values
  return _ops.convert_to_tensor(
      _np.array([v.encode() if isinstance(v, str) else v for v in values], dtype=object),
      dtype=_dtypes.string, name=name)


# -- the Saver --------------------------------------------------------------------------


def _get_saver_or_default():
  """The Saver in the SAVERS collection, or a new one added to it."""
  collection_key = _ops.GraphKeys.SAVERS
  savers = _ops.get_collection(collection_key)
  if savers:
    if len(savers) > 1:
      raise RuntimeError("More than one item in collection {}. Please indicate which one to "
                         "use by passing it to the constructor.".format(collection_key))
    return savers[0]
  saver = Saver(sharded=True, allow_empty=True)
  if saver is not None:
    _ops.add_to_collection(collection_key, saver)
  return saver


def _all_saveable_objects(scope=None):
  return (_ops.get_collection(_ops.GraphKeys.GLOBAL_VARIABLES, scope) +
          _ops.get_collection(_ops.GraphKeys.SAVEABLE_OBJECTS, scope))


def _wrap_restore_error_with_msg(err, extra_verbiage):
  err_msg = ("Restoring from checkpoint failed. This is most likely due to {} from the "
             "checkpoint. Please ensure that you have not altered the graph expected based on "
             "the checkpoint. Original error:\n\n{}").format(extra_verbiage, err.message)
  return err.__class__(err.node_def, err.op, err_msg)


class Saver(object):
  """Saves and restores variables (tf.compat.v1.train.Saver).

  Example:

      saver = tf.train.Saver(max_to_keep=3)
      with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        saver.save(sess, "/tmp/run/model.ckpt", global_step=100)   # model.ckpt-100.*
        saver.restore(sess, tf.train.latest_checkpoint("/tmp/run"))
  """

  def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
               keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
               saver_def=None, builder=None, defer_build=False, allow_empty=False,
               write_version=_V2, pad_step_number=False, save_relative_paths=False,
               filename=None):
    if defer_build and var_list:
      raise ValueError("If `var_list` is provided then build cannot be deferred. Either set "
                       "defer_build=False or var_list=None.")
    if isinstance(var_list, dict) is False and var_list is not None and not isinstance(
        var_list, (list, tuple, set)):
      raise TypeError("Variables to save should be passed in a dict or a list: %s" % var_list)
    if write_version == _V1:
      raise ValueError("V1 checkpoints are not supported; use write_version=SaverDef.V2.")
    self._var_list = var_list
    self._reshape = reshape
    self._sharded = sharded
    self._max_to_keep = max_to_keep
    self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
    self._name = name
    self._restore_sequentially = restore_sequentially
    self.saver_def = saver_def
    self._builder = builder
    self._is_built = False
    self._allow_empty = allow_empty
    self._is_empty = None
    self._write_version = write_version
    self._pad_step_number = pad_step_number
    self._filename = filename
    self._last_checkpoints = []
    self._checkpoints_to_be_deleted = []
    self._next_checkpoint_time = None
    if not defer_build:
      self.build()
    if self.saver_def:
      self._check_saver_def()
      self._write_version = self.saver_def.version or _V2
    self._save_relative_paths = save_relative_paths

  def build(self):
    """Builds the save/restore ops (once)."""
    if self._is_built:
      return
    self._is_built = True
    if not self.saver_def:
      if self._builder is None:
        self._builder = BulkSaverBuilder(self._write_version)
      if self._var_list is None:
        self._var_list = _all_saveable_objects()
      if not self._var_list:
        if self._allow_empty:
          self._is_empty = True
          return
        raise ValueError("No variables to save")
      self._is_empty = False
      self.saver_def = self._builder._build_internal(  # pylint: disable=protected-access
          self._var_list, reshape=self._reshape, sharded=self._sharded,
          max_to_keep=self._max_to_keep,
          keep_checkpoint_every_n_hours=self._keep_checkpoint_every_n_hours, name=self._name,
          restore_sequentially=self._restore_sequentially, filename=self._filename)
    elif self.saver_def and self._name:
      # `name` doubles as the import scope of a given saver_def
      d = _protos.SaverDef()
      d.CopyFrom(self.saver_def)
      d.filename_tensor_name = _ops.prepend_name_scope(d.filename_tensor_name, self._name)
      d.save_tensor_name = _ops.prepend_name_scope(d.save_tensor_name, self._name)
      d.restore_op_name = _ops.prepend_name_scope(d.restore_op_name, self._name)
      self.saver_def = d
    self._check_saver_def()
    self._next_checkpoint_time = (_time.time() +
                                  self.saver_def.keep_checkpoint_every_n_hours * 3600)

  def _check_saver_def(self):
    if not isinstance(self.saver_def, _protos.SaverDef):
      raise ValueError("saver_def must be a saver_pb2.SaverDef: %s" % self.saver_def)
    if not self.saver_def.save_tensor_name:
      raise ValueError("saver_def must specify the save_tensor_name: %s" % str(self.saver_def))
    if not self.saver_def.restore_op_name:
      raise ValueError("saver_def must specify the restore_op_name: %s" % str(self.saver_def))

  def _CheckpointFilename(self, p):  # pylint: disable=invalid-name
    name, _ = p
    return name

  def _RecordLastCheckpoint(self, latest_save_path):  # pylint: disable=invalid-name
    if not self.saver_def.max_to_keep:
      return
    for p in self._last_checkpoints[:]:
      if latest_save_path == self._CheckpointFilename(p):
        self._last_checkpoints.remove(p)
    self._last_checkpoints.append((latest_save_path, _time.time()))
    if len(self._last_checkpoints) > self.saver_def.max_to_keep:
      self._checkpoints_to_be_deleted.append(self._last_checkpoints.pop(0))

  def _MaybeDeleteOldCheckpoints(self, meta_graph_suffix="meta"):  # pylint: disable=invalid-name
    if self._checkpoints_to_be_deleted:
      p = self._checkpoints_to_be_deleted.pop(0)
      should_keep = p[1] > self._next_checkpoint_time
      if should_keep:
        self._next_checkpoint_time += self.saver_def.keep_checkpoint_every_n_hours * 3600
        return
      try:
        _cm.remove_checkpoint(self._CheckpointFilename(p), self.saver_def.version or _V2,
                              meta_graph_suffix)
      except Exception as e:  # pylint: disable=broad-except
        _logging.warning("Ignoring: %s", str(e))

  def as_saver_def(self):
    """The SaverDef of this Saver."""
    return self.saver_def

  def to_proto(self, export_scope=None):
    """The SaverDef with names relative to `export_scope` (None: unchanged)."""
    if export_scope is None:
      return self.saver_def
    if not (self.saver_def.filename_tensor_name.startswith(export_scope) and
            self.saver_def.save_tensor_name.startswith(export_scope) and
            self.saver_def.restore_op_name.startswith(export_scope)):
      return None
    d = _protos.SaverDef()
    d.CopyFrom(self.saver_def)
    d.filename_tensor_name = _ops.strip_name_scope(d.filename_tensor_name, export_scope)
    d.save_tensor_name = _ops.strip_name_scope(d.save_tensor_name, export_scope)
    d.restore_op_name = _ops.strip_name_scope(d.restore_op_name, export_scope)
    return d

  @staticmethod
  def from_proto(saver_def, import_scope=None):
    """A Saver for an existing SaverDef (names prefixed with `import_scope`)."""
    return Saver(saver_def=saver_def, name=import_scope)

  @property
  def last_checkpoints(self):
    """Prefixes of the checkpoints not yet deleted, oldest first."""
    return list(self._CheckpointFilename(p) for p in self._last_checkpoints)

  def set_last_checkpoints(self, last_checkpoints):
    """Sets the list of kept checkpoints (deprecated in TF: no times, never kept by age)."""
    assert isinstance(last_checkpoints, list)
    self._last_checkpoints = [(s, _np.inf) for s in last_checkpoints]

  def set_last_checkpoints_with_time(self, last_checkpoints_with_time):
    """Sets the list of kept checkpoints as (prefix, time) pairs."""
    assert isinstance(last_checkpoints_with_time, list)
    self._last_checkpoints = last_checkpoints_with_time

  def recover_last_checkpoints(self, checkpoint_paths):
    """Takes up the kept-checkpoint list of an earlier run (those that still exist)."""
    checkpoints_with_mtimes = []
    for checkpoint_path in checkpoint_paths:
      mtime = _cm.get_checkpoint_mtimes([checkpoint_path])
      if mtime:
        checkpoints_with_mtimes.append((checkpoint_path, mtime[0]))
    self.set_last_checkpoints_with_time(checkpoints_with_mtimes)

  def save(self, sess, save_path, global_step=None, latest_filename=None,
           meta_graph_suffix="meta", write_meta_graph=True, write_state=True,
           strip_default_attrs=False, save_debug_info=False):
    """Saves the variables to `save_path` (with "-<global_step>" appended when
    given); returns the checkpoint prefix, or None for an empty Saver."""
    del save_debug_info
    if not self._is_built:
      raise RuntimeError("`build()` should be called before save if defer_build==True")
    if latest_filename is None:
      latest_filename = "checkpoint"
    if _os.path.split(latest_filename)[0]:
      raise ValueError("'latest_filename' must not contain path components")
    save_path = save_path.decode() if isinstance(save_path, bytes) else str(save_path)
    if global_step is not None:
      if not isinstance(global_step, (int, _np.integer)):
        global_step = _training_util.global_step(sess, global_step)
      checkpoint_file = "%s-%d" % (save_path, global_step)
      if self._pad_step_number:
        checkpoint_file = "%s-%s" % (save_path, "{:08d}".format(global_step))
    else:
      checkpoint_file = save_path
      if _os.path.basename(save_path) == latest_filename and not self._sharded:
        raise ValueError("'latest_filename' collides with 'save_path': '%s' and '%s'"
                         % (latest_filename, save_path))
    from tfc.client import session as _session  # pylint: disable=g-import-not-at-top
    if not isinstance(sess, _session.Session) and not hasattr(sess, "run"):
      raise TypeError("'sess' must be a Session; %s" % sess)
    save_path_parent = _os.path.dirname(save_path)
    model_checkpoint_path = None
    if not self._is_empty:
      try:
        model_checkpoint_path = sess.run(self.saver_def.save_tensor_name,
                                         {self.saver_def.filename_tensor_name: checkpoint_file})
        if isinstance(model_checkpoint_path, bytes):
          model_checkpoint_path = model_checkpoint_path.decode("utf-8", "surrogateescape")
        if write_state:
          self._RecordLastCheckpoint(model_checkpoint_path)
          _cm.update_checkpoint_state_internal(
              save_dir=save_path_parent, model_checkpoint_path=model_checkpoint_path,
              all_model_checkpoint_paths=self.last_checkpoints, latest_filename=latest_filename,
              save_relative_paths=self._save_relative_paths)
          self._MaybeDeleteOldCheckpoints(meta_graph_suffix=meta_graph_suffix)
      except (_errors.FailedPreconditionError, _errors.NotFoundError) as exc:
        if save_path_parent and not _os.path.isdir(save_path_parent):
          raise ValueError("Parent directory of {} doesn't exist, can't save.".format(save_path))
        raise exc
    if write_meta_graph:
      meta_graph_filename = _cm.meta_graph_filename(checkpoint_file,
                                                    meta_graph_suffix=meta_graph_suffix)
      with sess.graph.as_default():
        self.export_meta_graph(meta_graph_filename, strip_default_attrs=strip_default_attrs)
    if self._is_empty:
      return None
    return model_checkpoint_path

  def export_meta_graph(self, filename=None, collection_list=None, as_text=False,
                        export_scope=None, clear_devices=False, clear_extraneous_savers=False,
                        strip_default_attrs=False, save_debug_info=False):
    """Writes (and returns) a MetaGraphDef holding this Saver's SaverDef."""
    del save_debug_info
    from tfc.framework import meta_graph as _meta_graph  # pylint: disable=g-import-not-at-top
    return _meta_graph.export_meta_graph(
        filename=filename, graph_def=_ops.get_default_graph().as_graph_def(add_shapes=True),
        saver_def=self.saver_def, collection_list=collection_list, as_text=as_text,
        export_scope=export_scope, clear_devices=clear_devices,
        clear_extraneous_savers=clear_extraneous_savers, strip_default_attrs=strip_default_attrs)

  def restore(self, sess, save_path):
    """Restores the saved variables from the checkpoint prefix `save_path`."""
    if self._is_empty:
      return
    if save_path is None:
      raise ValueError("Can't load save_path when it is None.")
    checkpoint_prefix = save_path.decode() if isinstance(save_path, bytes) else str(save_path)
    if not _cm.checkpoint_exists_internal(checkpoint_prefix):
      raise ValueError("The passed save_path is not a valid checkpoint: " + checkpoint_prefix)
    _logging.info("Restoring parameters from %s", checkpoint_prefix)
    try:
      sess.run(self.saver_def.restore_op_name,
               {self.saver_def.filename_tensor_name: checkpoint_prefix})
    except _errors.NotFoundError as err:
      raise _wrap_restore_error_with_msg(err, "a Variable name or other graph key that is "
                                              "missing")
    except _errors.InvalidArgumentError as err:
      raise _wrap_restore_error_with_msg(err, "a mismatch between the current graph and the "
                                              "graph")
