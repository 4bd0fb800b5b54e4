"""tf.Print (TF 1.15 `logging_ops.Print`)."""
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
