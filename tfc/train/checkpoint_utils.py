"""Reading checkpoints without a graph (TF 1.15's checkpoint_utils and
py_checkpoint_reader): tf.train.NewCheckpointReader, load_checkpoint,
load_variable, list_variables, init_from_checkpoint.

The reader calls the C bundle reader directly (tfc._tfc.checkpoint_list /
checkpoint_read); init_from_checkpoint replaces variables' initializers
with RestoreV2 + Assign ops, as TF does.
"""
import os as _os

from tfc import _tfc
from tfc import dtypes as _dtypes
from tfc import logging as _logging
from tfc.framework import ops as _ops
from tfc.train import checkpoint_management as _cm


class CheckpointReader(object):
  """Reads the tensors of a V2 checkpoint (what tf.train.NewCheckpointReader returns)."""

  def __init__(self, filepattern):
    self._prefix = filepattern.decode() if isinstance(filepattern, bytes) else str(filepattern)
    self._entries = {name: (dtype, shape) for name, dtype, shape in
                     _tfc.checkpoint_list(self._prefix)}

  def get_variable_to_shape_map(self):
    """{name: shape as a list of ints} of every tensor in the checkpoint."""
    return {name: list(shape) for name, (_, shape) in self._entries.items()}

  def get_variable_to_dtype_map(self):
    """{name: DType} of every tensor in the checkpoint."""
    return {name: _dtypes.as_dtype(dt) for name, (dt, _) in self._entries.items()}

  def has_tensor(self, tensor_str):
    """True when the checkpoint holds a tensor named `tensor_str`."""
    return tensor_str in self._entries

  def get_tensor(self, tensor_str):
    """The value of tensor `tensor_str` as a NumPy array (NotFoundError if absent)."""
    name = tensor_str.decode() if isinstance(tensor_str, bytes) else str(tensor_str)
    return _tfc.checkpoint_read(self._prefix, name)

  def debug_string(self):
    """One line per tensor: "name (dtype) [dims]"."""
    lines = []
    for name in sorted(self._entries):
      dt, shape = self._entries[name]
      lines.append("%s (%s) %s" % (name, _dtypes.as_dtype(dt).name, list(shape)))
    return ("\n".join(lines) + "\n").encode()


def NewCheckpointReader(filepattern):  # pylint: disable=invalid-name
  """A CheckpointReader for the checkpoint prefix `filepattern`."""
  return CheckpointReader(filepattern)


def _get_checkpoint_filename(ckpt_dir_or_file):
  if _os.path.isdir(ckpt_dir_or_file):
    return _cm.latest_checkpoint(ckpt_dir_or_file)
  return ckpt_dir_or_file


def load_checkpoint(ckpt_dir_or_file):
  """A CheckpointReader for a checkpoint prefix, or the latest one of a directory."""
  filename = _get_checkpoint_filename(ckpt_dir_or_file)
  if filename is None:
    raise ValueError("Couldn't find 'checkpoint' file or checkpoints in given directory %s"
                     % ckpt_dir_or_file)
  return NewCheckpointReader(filename)


def load_variable(ckpt_dir_or_file, name):
  """The value of variable `name` (a trailing ':0' is ignored) in a checkpoint."""
  if name.endswith(":0"):
    name = name[:-2]
  return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def list_variables(ckpt_dir_or_file):
  """[(name, shape)] of every variable in a checkpoint, sorted by name."""
  variable_map = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
  return [(name, variable_map[name]) for name in sorted(variable_map)]


def _is_variable(x):
  from tfc.ops import variables as _variables  # pylint: disable=g-import-not-at-top
  return isinstance(x, _variables.Variable)


def _set_checkpoint_initializer(variable, ckpt_file, tensor_name, slice_spec,
                                name="checkpoint_initializer"):
  """Makes `variable`'s initializer restore `tensor_name` from `ckpt_file`."""
  from tfc.train import saver as _saver  # pylint: disable=g-import-not-at-top
  base_type = variable.dtype.base_dtype
  with _ops.device(variable.device), _ops.device("/cpu:0"):
    restore_op = _saver.restore_v2(ckpt_file, [tensor_name], [slice_spec], [base_type],
                                   name=name)[0]
    saveable = _saver.ReferenceVariableSaveable(variable, slice_spec, tensor_name)
    init_op = saveable.restore([restore_op], restored_shapes=None)
    variable._initializer_op = init_op.op if hasattr(init_op, "op") else init_op  # pylint: disable=protected-access
    restore_op.set_shape(variable.shape)
    variable._initial_value = restore_op  # pylint: disable=protected-access


def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
  """Initializes variables from a checkpoint instead of their initializers.

  `assignment_map` maps checkpoint names or scopes to variables or scopes:
  {"old_scope/": "new_scope/"} (every variable of new_scope from old_scope),
  {"old_scope/var": "new_scope/var"}, {"var": variable}, {"/": "scope/"}.
  Only the initializers change: run them (global_variables_initializer) to load.
  """
  from tfc.ops import variable_scope as _vs  # pylint: disable=g-import-not-at-top
  ckpt_file = _get_checkpoint_filename(ckpt_dir_or_file)
  reader = load_checkpoint(ckpt_dir_or_file)
  variable_map = reader.get_variable_to_shape_map()
  store_vars = _vs._get_default_variable_store()._vars  # pylint: disable=protected-access
  for tensor_name_in_ckpt, current in sorted(assignment_map.items(), key=lambda x: x[0]):
    if _is_variable(current):
      var = current
    else:
      var = store_vars.get(current, None)
    if var is not None:
      if tensor_name_in_ckpt not in variable_map:
        raise ValueError("Tensor %s is not found in %s checkpoint %s"
                         % (tensor_name_in_ckpt, ckpt_dir_or_file, variable_map))
      if not var.get_shape().is_compatible_with(variable_map[tensor_name_in_ckpt]):
        raise ValueError("Shape of variable %s (%s) doesn't match with shape of tensor %s (%s) "
                         "from checkpoint reader." % (var.name, str(var.get_shape()),
                                                      tensor_name_in_ckpt,
                                                      str(variable_map[tensor_name_in_ckpt])))
      _set_checkpoint_initializer(var, ckpt_file, tensor_name_in_ckpt, "")
      _logging.debug("Initialize variable %s from checkpoint %s with %s", var.name,
                     ckpt_dir_or_file, tensor_name_in_ckpt)
      continue
    scopes = ""
    if "/" in current:
      scopes = current[:current.rindex("/")]
    if not tensor_name_in_ckpt.endswith("/"):
      raise ValueError("Assignment map with scope only name {} should map to scope only {}. "
                       "Should be 'scope/': 'other_scope/'.".format(scopes, tensor_name_in_ckpt))
    scope_variables = set()
    for var_name in store_vars:
      if not scopes or var_name.startswith(scopes + "/"):
        scope_variables.add(var_name)
    for var_name in sorted(scope_variables):
      full_tensor_name = var_name[len(scopes):]
      if current != "/":
        full_tensor_name = full_tensor_name[1:]
      if tensor_name_in_ckpt != "/":
        full_tensor_name = tensor_name_in_ckpt + full_tensor_name
      if full_tensor_name.endswith("/"):
        full_tensor_name = full_tensor_name[:-1]
      if full_tensor_name not in variable_map:
        raise ValueError("Tensor %s (%s in %s) is not found in %s checkpoint"
                         % (full_tensor_name, var_name[len(scopes) + 1:], tensor_name_in_ckpt,
                            ckpt_dir_or_file))
      _set_checkpoint_initializer(store_vars[var_name], ckpt_file, full_tensor_name, "")
