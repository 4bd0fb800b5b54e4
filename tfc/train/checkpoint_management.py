"""The `checkpoint` state file and checkpoint prefixes (TF 1.15's
checkpoint_management): tf.train.latest_checkpoint, get_checkpoint_state,
update_checkpoint_state, generate_checkpoint_state_proto, checkpoint_exists,
get_checkpoint_mtimes, remove_checkpoint, meta_graph_filename.

The state file is a text-format `tensorflow.CheckpointState`
(tfc.protos.CheckpointState, proto/checkpoint_state.proto):

    model_checkpoint_path: "model.ckpt-2"
    all_model_checkpoint_paths: "model.ckpt-1"
    all_model_checkpoint_paths: "model.ckpt-2"
    all_model_checkpoint_timestamps: 1700000000.5
    all_model_checkpoint_timestamps: 1700000060.25
    last_preserved_timestamp: 1699999990.0

Paths are relative to the checkpoint directory when it was given relative
(or when `save_relative_paths`), absolute otherwise; readers join relative
ones to the directory. The file is written through a temporary file and a
rename.
"""
import glob as _glob
import os as _os
import re as _re

from tfc import errors as _errors
from tfc import logging as _logging
from tfc import protos as _protos

_V1, _V2 = 1, 2


def CheckpointState(**kwargs):  # pylint: disable=invalid-name
  """A new tensorflow.CheckpointState message (tfc.protos.CheckpointState)."""
  return _protos.CheckpointState(**kwargs)


def _state_to_text(ckpt):
  from google.protobuf import text_format  # pylint: disable=g-import-not-at-top
  return text_format.MessageToString(ckpt)


def parse_checkpoint_state(text, ckpt=None):
  """Parses the text format of a CheckpointState (into `ckpt` if given).

  Raises:
    google.protobuf.text_format.ParseError: when the text is not a CheckpointState.
  """
  from google.protobuf import text_format  # pylint: disable=g-import-not-at-top
  ckpt = ckpt if ckpt is not None else _protos.CheckpointState()
  text_format.Merge(text, ckpt, descriptor_pool=_protos.descriptor_pool())
  return ckpt


def _atomic_write(path, text):
  tmp = "%s.tmp%s" % (path, _os.urandom(8).hex())
  try:
    with open(tmp, "w") as f:
      f.write(text)
    _os.replace(tmp, path)
  except OSError as e:
    try:
      _os.unlink(tmp)
    except OSError:
      pass
    raise _errors_from_os(e, path)


def _errors_from_os(e, path):
  import errno  # pylint: disable=g-import-not-at-top
  cls = {errno.ENOENT: _errors.NotFoundError, errno.EACCES: _errors.PermissionDeniedError,
         errno.EPERM: _errors.PermissionDeniedError, errno.EROFS: _errors.PermissionDeniedError,
         errno.ENOSPC: _errors.ResourceExhaustedError}.get(e.errno, _errors.UnknownError)
  return cls(None, None, "%s; %s" % (path, e.strerror))


def _GetCheckpointFilename(save_dir, latest_filename):  # pylint: disable=invalid-name
  if latest_filename is None:
    latest_filename = "checkpoint"
  return _os.path.join(save_dir, latest_filename)


def generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                    all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None,
                                    last_preserved_timestamp=None):
  """A CheckpointState whose last path is `model_checkpoint_path`; with a
  relative `save_dir`, relative paths are rewritten relative to it."""
  all_paths = list(all_model_checkpoint_paths or [])
  if not all_paths or all_paths[-1] != model_checkpoint_path:
    _logging.info("%s is not in all_model_checkpoint_paths. Manually adding it.",
                  model_checkpoint_path)
    all_paths.append(model_checkpoint_path)
  timestamps = list(all_model_checkpoint_timestamps or [])
  if timestamps and len(timestamps) != len(all_paths):
    raise ValueError("Checkpoint timestamps, if provided, must match checkpoint paths (got "
                     "paths %s and timestamps %s)" % (all_paths, timestamps))
  if not _os.path.isabs(save_dir):
    base = save_dir or _os.curdir
    if not _os.path.isabs(model_checkpoint_path):
      model_checkpoint_path = _os.path.relpath(model_checkpoint_path, base)
    all_paths = [p if _os.path.isabs(p) else _os.path.relpath(p, base) for p in all_paths]
  ckpt = _protos.CheckpointState(model_checkpoint_path=model_checkpoint_path,
                                 all_model_checkpoint_paths=all_paths,
                                 all_model_checkpoint_timestamps=timestamps)
  if last_preserved_timestamp is not None:
    ckpt.last_preserved_timestamp = last_preserved_timestamp
  return ckpt


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            latest_filename=None, all_model_checkpoint_timestamps=None,
                            last_preserved_timestamp=None):
  """Writes the `checkpoint` state file of `save_dir`."""
  update_checkpoint_state_internal(
      save_dir=save_dir, model_checkpoint_path=model_checkpoint_path,
      all_model_checkpoint_paths=all_model_checkpoint_paths, latest_filename=latest_filename,
      save_relative_paths=False, all_model_checkpoint_timestamps=all_model_checkpoint_timestamps,
      last_preserved_timestamp=last_preserved_timestamp)


def update_checkpoint_state_internal(save_dir, model_checkpoint_path,
                                     all_model_checkpoint_paths=None, latest_filename=None,
                                     save_relative_paths=False,
                                     all_model_checkpoint_timestamps=None,
                                     last_preserved_timestamp=None):
  """update_checkpoint_state with `save_relative_paths` (paths made relative to save_dir)."""
  coord_checkpoint_filename = _GetCheckpointFilename(save_dir, latest_filename)
  base = save_dir or _os.curdir
  if save_relative_paths:
    rel = (_os.path.relpath(model_checkpoint_path, base)
           if _os.path.isabs(model_checkpoint_path) else model_checkpoint_path)
    rel_all = [_os.path.relpath(p, base) if _os.path.isabs(p) else p
               for p in (all_model_checkpoint_paths or [])]
    ckpt = generate_checkpoint_state_proto(
        save_dir, rel, all_model_checkpoint_paths=rel_all,
        all_model_checkpoint_timestamps=all_model_checkpoint_timestamps,
        last_preserved_timestamp=last_preserved_timestamp)
  else:
    ckpt = generate_checkpoint_state_proto(
        save_dir, model_checkpoint_path, all_model_checkpoint_paths=all_model_checkpoint_paths,
        all_model_checkpoint_timestamps=all_model_checkpoint_timestamps,
        last_preserved_timestamp=last_preserved_timestamp)
  if coord_checkpoint_filename == ckpt.model_checkpoint_path:
    raise RuntimeError("Save path '%s' conflicts with path used for checkpoint state.  Please "
                       "use a different save path." % model_checkpoint_path)
  _atomic_write(coord_checkpoint_filename, _state_to_text(ckpt))


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
  """The CheckpointState of `checkpoint_dir`'s state file (relative paths
  joined to the directory), or None when there is none or it is unreadable."""
  coord_checkpoint_filename = _GetCheckpointFilename(checkpoint_dir, latest_filename)
  if not _os.path.isfile(coord_checkpoint_filename):
    return None
  try:
    with open(coord_checkpoint_filename, "rb") as f:
      content = f.read().decode("utf-8", "surrogateescape")
  except OSError as e:
    _logging.warning("%s: %s", type(e).__name__, e)
    _logging.warning("%s: Checkpoint ignored", coord_checkpoint_filename)
    return None
  from google.protobuf import text_format  # pylint: disable=g-import-not-at-top
  try:
    ckpt = parse_checkpoint_state(content)
  except text_format.ParseError as e:
    _logging.warning("%s: %s", type(e).__name__, e)
    _logging.warning("%s: Checkpoint ignored", coord_checkpoint_filename)
    return None
  if not ckpt.model_checkpoint_path:
    raise ValueError("Invalid checkpoint state loaded from " + checkpoint_dir)
  if not _os.path.isabs(ckpt.model_checkpoint_path):
    ckpt.model_checkpoint_path = _os.path.join(checkpoint_dir, ckpt.model_checkpoint_path)
  for i, p in enumerate(ckpt.all_model_checkpoint_paths):
    if not _os.path.isabs(p):
      ckpt.all_model_checkpoint_paths[i] = _os.path.join(checkpoint_dir, p)
  return ckpt


def _prefix_to_checkpoint_path(prefix, format_version):
  if format_version == _V2:
    return prefix + ".index"
  return prefix


def latest_checkpoint(checkpoint_dir, latest_filename=None):
  """The prefix of the newest checkpoint the state file of `checkpoint_dir`
  names, or None when there is none or its files are gone."""
  ckpt = get_checkpoint_state(checkpoint_dir, latest_filename)
  if ckpt and ckpt.model_checkpoint_path:
    v2_path = _prefix_to_checkpoint_path(ckpt.model_checkpoint_path, _V2)
    v1_path = _prefix_to_checkpoint_path(ckpt.model_checkpoint_path, _V1)
    if _glob.glob(_glob.escape(v2_path)) or _glob.glob(v1_path):
      return ckpt.model_checkpoint_path
    _logging.error("Couldn't match files for checkpoint %s", ckpt.model_checkpoint_path)
  return None


def checkpoint_exists_internal(checkpoint_prefix):
  """True when a V2 checkpoint (its .index) or a V1 file exists at the prefix."""
  if _os.path.exists(_prefix_to_checkpoint_path(checkpoint_prefix, _V2)):
    return True
  return bool(_glob.glob(checkpoint_prefix)) and not _os.path.isdir(checkpoint_prefix)


def checkpoint_exists(checkpoint_prefix):
  """Checks whether a V1 or V2 checkpoint exists with the given prefix."""
  return checkpoint_exists_internal(checkpoint_prefix)


def get_checkpoint_mtimes(checkpoint_prefixes):
  """Modification times (seconds) of the checkpoints that exist among the prefixes."""
  mtimes = []
  for prefix in checkpoint_prefixes:
    for path in (_prefix_to_checkpoint_path(prefix, _V2), prefix):
      try:
        st = _os.stat(path)
      except OSError:
        continue
      if _os.path.isfile(path):
        mtimes.append(st.st_mtime_ns / 1e9)
        break
  return mtimes


def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=_V2, meta_graph_suffix="meta"):
  """Deletes a checkpoint's files (index, data shards, meta graph)."""
  def _delete(pattern):
    for path in _glob.glob(pattern):
      try:
        _os.remove(path)
      except OSError as e:
        _logging.warning("Ignoring: %s", e)
  _delete(_glob.escape(meta_graph_filename(checkpoint_prefix, meta_graph_suffix)))
  if checkpoint_format_version == _V2:
    _delete(_glob.escape(checkpoint_prefix + ".index"))
    _delete(_glob.escape(checkpoint_prefix) + ".data-?????-of-?????")
  else:
    _delete(_glob.escape(checkpoint_prefix))


def meta_graph_filename(checkpoint_filename, meta_graph_suffix="meta"):
  """The meta graph file of a checkpoint: the prefix (any -?????-of-????? shard
  suffix dropped) + '.' + suffix."""
  basename = _re.sub(r"-[\d\?]+-of-\d+$", "", checkpoint_filename)
  return ".".join([basename, meta_graph_suffix])
