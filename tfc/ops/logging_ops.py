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


def _is_tf_type(x):
  """True for the values tf.print formats as tensors (tensors, variables, sparse)."""
  from tfc.framework import sparse_tensor  # pylint: disable=g-import-not-at-top
  from tfc.ops import variables  # pylint: disable=g-import-not-at-top
  return isinstance(x, (_ops.Tensor, variables.Variable, sparse_tensor.SparseTensor))


def _generate_placeholder_string(x, default_placeholder="{}"):
  """A placeholder that does not occur in x: "{}" followed by digits when needed
  (the same digits TF draws: random.Random(5))."""
  import random  # pylint: disable=g-import-not-at-top
  placeholder = default_placeholder
  rng = random.Random(5)
  while placeholder in x:
    placeholder = placeholder + str(rng.randint(0, 9))
  return placeholder


def print_v2(*inputs, **kwargs):
  """Prints the given inputs when the returned op runs (TF's `tf.print`).

  Python values are printed as `pprint` shows them, tensors (also inside lists,
  tuples and dicts) as numpy-like text with at most `summarize` entries at each end
  of every dimension (-1: all), joined by `sep` and followed by `end`.

  Keyword args:
    output_stream: sys.stdout, sys.stderr (default), tf.logging.info/warning/error (or
      the logging levels), or a string "file://<path>" to append to that file.
    summarize: entries printed at each end of every dimension (default 3).
    sep: separator between the inputs (default " ").
    end: text written after the output (default os.linesep).
    name: a name for the operation.

  Returns:
    The PrintV2 operation (run it or add it as a control dependency).

  Raises:
    ValueError: for an unsupported output stream or unknown keyword argument.
  """
  import collections  # pylint: disable=g-import-not-at-top
  import logging  # pylint: disable=g-import-not-at-top
  import os  # pylint: disable=g-import-not-at-top
  import pprint  # pylint: disable=g-import-not-at-top
  import sys  # pylint: disable=g-import-not-at-top
  from tfc import logging as tf_logging  # pylint: disable=g-import-not-at-top
  from tfc import nest  # pylint: disable=g-import-not-at-top
  from tfc import dtypes  # pylint: disable=g-import-not-at-top
  from tfc.framework import sparse_tensor  # pylint: disable=g-import-not-at-top
  from tfc.ops import string_ops  # pylint: disable=g-import-not-at-top

  output_stream = kwargs.pop("output_stream", sys.stderr)
  name = kwargs.pop("name", None)
  summarize = kwargs.pop("summarize", 3)
  sep = kwargs.pop("sep", " ")
  end = kwargs.pop("end", os.linesep)
  if kwargs:
    raise ValueError("Unrecognized keyword arguments for tf.print: %s" % kwargs)
  format_name = name + "_format" if name else None

  streams = [(sys.stdout, "stdout"), (sys.stderr, "stderr")]
  for level_or_fn, stream in (
      ("INFO", "log(info)"), ("info", "log(info)"), ("WARN", "log(warning)"),
      ("warning", "log(warning)"), ("warn", "log(warning)"), ("WARNING", "log(warning)"),
      ("ERROR", "log(error)"), ("error", "log(error)")):
    for module in (tf_logging, logging):
      if hasattr(module, level_or_fn):
        streams.append((getattr(module, level_or_fn), stream))
  if isinstance(output_stream, str) and output_stream.startswith("file://"):
    output_stream_string = output_stream
  else:
    output_stream_string = None
    for key, stream in streams:
      if output_stream is key or (isinstance(key, int) and not isinstance(output_stream, bool)
                                  and isinstance(output_stream, int) and output_stream == key):
        output_stream_string = stream
        break
    if not output_stream_string:
      raise ValueError("Unsupported output stream, logging level, or file." +
                       str(output_stream) +
                       ". Supported streams are sys.stdout, "
                       "sys.stderr, tf.logging.info, "
                       "tf.logging.warning, tf.logging.error. " +
                       "File needs to be in the form of 'file://<filepath>'.")

  if (len(inputs) == 1 and isinstance(inputs[0], _ops.Tensor) and
      inputs[0].shape.ndims == 0 and inputs[0].dtype == dtypes.string):
    formatted_string = inputs[0]
  else:
    templates = []
    tensors = []
    sorted_inputs = [collections.OrderedDict(sorted(x.items()))
                     if isinstance(x, collections.OrderedDict) else x for x in inputs]
    tensor_free_structure = nest.map_structure(
        lambda x: "" if _is_tf_type(x) else x, sorted_inputs)
    tensor_free_template = " ".join(pprint.pformat(x) for x in tensor_free_structure)
    placeholder = _generate_placeholder_string(tensor_free_template)
    for input_ in inputs:
      placeholders = []
      for x in nest.flatten(input_):
        if isinstance(x, sparse_tensor.SparseTensor):
          tensors.extend([x.indices, x.values, x.dense_shape])
          placeholders.append("SparseTensor(indices={}, values={}, shape={})".format(
              placeholder, placeholder, placeholder))
        elif _is_tf_type(x):
          tensors.append(x)
          placeholders.append(placeholder)
        else:
          placeholders.append(x)
      if isinstance(input_, str):
        cur_template = input_
      else:
        cur_template = pprint.pformat(nest.pack_sequence_as(input_, placeholders))
      templates.append(cur_template)
    template = sep.join(templates)
    template = template.replace("'" + placeholder + "'", placeholder)
    formatted_string = string_ops.string_format(
        inputs=tensors, template=template, placeholder=placeholder, summarize=summarize,
        name=format_name)
  return _apply_op("PrintV2", name, [formatted_string],
                   {"output_stream": output_stream_string, "end": end})
