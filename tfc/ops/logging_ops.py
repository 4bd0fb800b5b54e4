"""tf.Print and tf.Assert (TF 1.15's `logging_ops.Print` and `Assert`)."""
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # pylint: disable=invalid-name
  """Identity on `input_` that prints `message` and the values of `data` when run."""
  attrs = {}
  if message is not None:
    attrs["message"] = message
  if first_n is not None:
    attrs["first_n"] = first_n
  if summarize is not None:
    attrs["summarize"] = summarize
  return _apply_op("Print", name, [input_, list(data)], attrs).outputs[0]


def Assert(condition, data, summarize=None, name=None):  # pylint: disable=invalid-name
  """An op that fails the step with InvalidArgumentError ("assertion failed: ..." and the
  first `summarize` entries of each tensor of `data`) when `condition` is False.

  Run it, or make other ops depend on it (tf.control_dependencies). TF guards the
  Assert with a cond so that `data` is computed only on failure (unless every entry is
  a string or int32); tfc has no cond yet, so `data` is always computed.
  """
  with _ops.name_scope(name, "Assert", [condition, data]):
    data = _ops.convert_n_to_tensor(list(data))
    condition = _ops.convert_to_tensor(condition, name="Condition")
    attrs = {} if summarize is None else {"summarize": summarize}
    return _apply_op("Assert", "Assert", [condition, data], attrs)
