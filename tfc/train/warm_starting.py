"""tf.train.warm_start and tf.train.VocabInfo: initialize a new model's variables from a
checkpoint of an earlier one (through init_from_checkpoint, so only the initializers
change). Vocabulary remapping (VocabInfo for a variable) is not supported yet: tfc has no
vocabulary-remapping kernels, and asks for it raise NotImplementedError."""
import collections

from tfc.framework import ops as _ops


class VocabInfo(collections.namedtuple("VocabInfo", [
    "new_vocab", "new_vocab_size", "num_oov_buckets", "old_vocab", "old_vocab_size",
    "backup_initializer", "axis"])):
  """How to remap the rows (axis 0) or columns (axis 1) of a variable between an old and a
  new vocabulary file when warm-starting."""

  def __new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size=-1,
              backup_initializer=None, axis=0):
    if axis not in (0, 1):
      raise ValueError("The only supported values for the axis argument are 0 and 1.  "
                       "Provided axis: {}".format(axis))
    return super(VocabInfo, cls).__new__(cls, new_vocab, new_vocab_size, num_oov_buckets,
                                         old_vocab, old_vocab_size, backup_initializer, axis)


def _variables_to_warm_start(vars_to_warm_start):
  if vars_to_warm_start is None:
    return []
  if isinstance(vars_to_warm_start, str):
    return _ops.get_collection(_ops.GraphKeys.TRAINABLE_VARIABLES, scope=vars_to_warm_start)
  items = list(vars_to_warm_start)
  if all(isinstance(v, str) for v in items):
    found = []
    for pattern in items:
      for v in _ops.get_collection(_ops.GraphKeys.GLOBAL_VARIABLES, scope=pattern):
        if v not in found:
          found.append(v)
    return found
  if all(hasattr(v, "op") and hasattr(v, "initializer") for v in items):
    return items
  raise ValueError("If `vars_to_warm_start` is a list, it must be all `Variable` or all "
                   "`str`.  Given types are {}".format([type(v) for v in items]))


def warm_start(ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
               var_name_to_prev_var_name=None):
  """Makes the selected variables start from their values in ckpt_to_initialize_from.

  vars_to_warm_start: a regular expression over trainable variables' names, a list of
  expressions over all global variables, a list of variables, or None (none).
  var_name_to_prev_var_name maps a variable's name to its name in the checkpoint.
  """
  from tfc.train import checkpoint_utils as _cu  # pylint: disable=g-import-not-at-top
  from tfc import logging as _logging  # pylint: disable=g-import-not-at-top
  vocab_info = dict(var_name_to_vocab_info or {})
  prev_names = dict(var_name_to_prev_var_name or {})
  used_prev = set()
  for var in _variables_to_warm_start(vars_to_warm_start):
    name = var.op.name
    if name in vocab_info:
      raise NotImplementedError(
          "warm_start with a VocabInfo (vocabulary remapping of %s) is not supported by tfc"
          % name)
    prev = prev_names.get(name, name)
    if name in prev_names:
      used_prev.add(name)
    _logging.debug("Warm-starting variable: %s; prev_var_name: %s", name, prev)
    _cu.init_from_checkpoint(ckpt_to_initialize_from, {prev: var})
  unused_vocab = set(vocab_info)
  if unused_vocab:
    raise ValueError("You provided the following variables in var_name_to_vocab_info that "
                     "did not match any variables: " + str(sorted(unused_vocab)))
  unused_prev = set(prev_names) - used_prev
  if unused_prev:
    raise ValueError("You provided the following variables in var_name_to_prev_var_name that "
                     "did not match any variables: " + str(sorted(unused_prev)))
