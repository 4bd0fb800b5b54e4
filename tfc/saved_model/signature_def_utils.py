"""SignatureDef builders (tf.saved_model.signature_def_utils): the predict,
classify and regress signatures TensorFlow Serving calls, and generic ones."""
from tfc import dtypes as _dtypes
from tfc import protos as _protos
from tfc.framework import ops as _ops
from tfc.saved_model import signature_constants as _sc
from tfc.saved_model import utils as _utils


def build_signature_def(inputs=None, outputs=None, method_name=None):
  """A `SignatureDef` from {key: TensorInfo} maps and a method name."""
  signature_def = _protos.SignatureDef()
  for key, info in (inputs or {}).items():
    signature_def.inputs[key].CopyFrom(info)
  for key, info in (outputs or {}).items():
    signature_def.outputs[key].CopyFrom(info)
  if method_name is not None:
    signature_def.method_name = method_name
  return signature_def


def _check_string_examples(examples, what):
  if examples is None:
    raise ValueError("%s examples cannot be None." % what)
  if not isinstance(examples, _ops.Tensor):
    raise ValueError("%s examples must be a string Tensor." % what)
  if examples.dtype.base_dtype != _dtypes.string:
    raise ValueError("%s examples must be a string Tensor." % what)


def regression_signature_def(examples, predictions):
  """The regress signature: serialized tf.Examples (string) in, float predictions out.

  Raises:
    ValueError: examples is not a string Tensor, or predictions not a float one.
  """
  _check_string_examples(examples, "Regression")
  if predictions is None:
    raise ValueError("Regression predictions cannot be None.")
  if not isinstance(predictions, _ops.Tensor) or not predictions.dtype.is_floating:
    raise ValueError("Regression output must be a float Tensor.")
  return build_signature_def(
      {_sc.REGRESS_INPUTS: _utils.build_tensor_info(examples)},
      {_sc.REGRESS_OUTPUTS: _utils.build_tensor_info(predictions)},
      _sc.REGRESS_METHOD_NAME)


def classification_signature_def(examples, classes, scores):
  """The classify signature: serialized tf.Examples in, string classes and/or
  float scores out.

  Raises:
    ValueError: a tensor of the wrong type, or neither classes nor scores.
  """
  _check_string_examples(examples, "Classification")
  if classes is None and scores is None:
    raise ValueError("Classification classes and scores cannot both be None.")
  outputs = {}
  if classes is not None:
    if not isinstance(classes, _ops.Tensor) or classes.dtype.base_dtype != _dtypes.string:
      raise ValueError("Classification classes must be a string Tensor.")
    outputs[_sc.CLASSIFY_OUTPUT_CLASSES] = _utils.build_tensor_info(classes)
  if scores is not None:
    if not isinstance(scores, _ops.Tensor) or not scores.dtype.is_floating:
      raise ValueError("Classification scores must be a float Tensor.")
    outputs[_sc.CLASSIFY_OUTPUT_SCORES] = _utils.build_tensor_info(scores)
  return build_signature_def({_sc.CLASSIFY_INPUTS: _utils.build_tensor_info(examples)},
                             outputs, _sc.CLASSIFY_METHOD_NAME)


def predict_signature_def(inputs, outputs):
  """The predict signature: {key: Tensor} inputs and outputs.

  Raises:
    ValueError: inputs or outputs is None or empty.
  """
  if not inputs:
    raise ValueError("Prediction inputs cannot be None or empty.")
  if not outputs:
    raise ValueError("Prediction outputs cannot be None or empty.")
  return build_signature_def(
      {key: _utils.build_tensor_info(t) for key, t in inputs.items()},
      {key: _utils.build_tensor_info(t) for key, t in outputs.items()},
      _sc.PREDICT_METHOD_NAME)


def supervised_train_signature_def(inputs, loss, predictions=None, metrics=None):
  """A signature for training: inputs, the loss and optional predictions/metrics."""
  return _supervised(inputs, loss, predictions, metrics, _sc.SUPERVISED_TRAIN_METHOD_NAME)


def supervised_eval_signature_def(inputs, loss, predictions=None, metrics=None):
  """A signature for evaluation: inputs, the loss and optional predictions/metrics."""
  return _supervised(inputs, loss, predictions, metrics, _sc.SUPERVISED_EVAL_METHOD_NAME)


def _supervised(inputs, loss, predictions, metrics, method_name):
  if inputs is None or not inputs:
    raise ValueError("%s inputs cannot be None or empty." % method_name)
  outputs = {}
  for group in (loss, predictions, metrics):
    for key, t in (group or {}).items():
      outputs[key] = _utils.build_tensor_info(t)
  return build_signature_def({k: _utils.build_tensor_info(t) for k, t in inputs.items()},
                             outputs, method_name)


def _valid_tensor_info(info, want_float=None, want_string=False):
  if not info.name and info.WhichOneof("encoding") != "coo_sparse":
    return False
  if want_string and info.dtype != _dtypes.string.as_datatype_enum:
    return False
  if want_float and info.dtype not in (_dtypes.float16.as_datatype_enum,
                                       _dtypes.float32.as_datatype_enum,
                                       _dtypes.float64.as_datatype_enum,
                                       _dtypes.bfloat16.as_datatype_enum):
    return False
  return True


def is_valid_signature(signature_def):
  """True when `signature_def` is a well-formed predict, classify or regress
  signature (or any other method with named, typed tensors)."""
  if signature_def is None:
    return False
  method = signature_def.method_name
  if method == _sc.PREDICT_METHOD_NAME:
    return bool(signature_def.inputs) and bool(signature_def.outputs) and all(
        _valid_tensor_info(i) for i in list(signature_def.inputs.values()) +
        list(signature_def.outputs.values()))
  if method == _sc.CLASSIFY_METHOD_NAME:
    if set(signature_def.inputs) != {_sc.CLASSIFY_INPUTS}:
      return False
    if not _valid_tensor_info(signature_def.inputs[_sc.CLASSIFY_INPUTS], want_string=True):
      return False
    keys = set(signature_def.outputs)
    if not keys or not keys <= {_sc.CLASSIFY_OUTPUT_CLASSES, _sc.CLASSIFY_OUTPUT_SCORES}:
      return False
    if (_sc.CLASSIFY_OUTPUT_CLASSES in keys and not _valid_tensor_info(
        signature_def.outputs[_sc.CLASSIFY_OUTPUT_CLASSES], want_string=True)):
      return False
    return (_sc.CLASSIFY_OUTPUT_SCORES not in keys or _valid_tensor_info(
        signature_def.outputs[_sc.CLASSIFY_OUTPUT_SCORES], want_float=True))
  if method == _sc.REGRESS_METHOD_NAME:
    return (set(signature_def.inputs) == {_sc.REGRESS_INPUTS} and
            set(signature_def.outputs) == {_sc.REGRESS_OUTPUTS} and
            _valid_tensor_info(signature_def.inputs[_sc.REGRESS_INPUTS], want_string=True) and
            _valid_tensor_info(signature_def.outputs[_sc.REGRESS_OUTPUTS], want_float=True))
  return False


class MethodNameUpdater(object):
  """Rewrites the method_name of signatures in a SavedModel directory
  (tf.saved_model.signature_def_utils.MethodNameUpdater)."""

  def __init__(self, export_dir):
    from tfc.saved_model import loader  # pylint: disable=g-import-not-at-top
    self._export_dir = export_dir
    self._saved_model = loader.parse_saved_model(export_dir)

  def replace_method_name(self, signature_key, method_name, tags=None):
    """Sets `method_name` on the signature `signature_key` of every MetaGraphDef
    (or of those whose tag-set equals `tags`).

    Raises:
      ValueError: no such signature, or no MetaGraphDef with `tags`.
    """
    if not signature_key:
      raise ValueError("`signature_key` must be defined.")
    if not method_name:
      raise ValueError("`method_name` must be defined.")
    if tags is not None and not isinstance(tags, list):
      tags = [tags]
    found = False
    for meta_graph_def in self._saved_model.meta_graphs:
      if tags is not None and set(tags) != set(meta_graph_def.meta_info_def.tags):
        continue
      found = True
      if signature_key not in meta_graph_def.signature_def:
        raise ValueError("MetaGraphDef associated with tags %s does not have a signature_def "
                         "with key: '%s'." % (list(meta_graph_def.meta_info_def.tags),
                                              signature_key))
      meta_graph_def.signature_def[signature_key].method_name = method_name
    if tags is not None and not found:
      raise ValueError("MetaGraphDef associated with tags %s could not be found in "
                       "SavedModel." % tags)

  def save(self, new_export_dir=None):
    """Writes saved_model.pb (or .pbtxt, as the original) into `new_export_dir`
    (default: the directory it was read from)."""
    import os  # pylint: disable=g-import-not-at-top
    from tfc import gfile  # pylint: disable=g-import-not-at-top
    from tfc.saved_model import constants  # pylint: disable=g-import-not-at-top
    export_dir = new_export_dir or self._export_dir
    if not gfile.Exists(export_dir):
      gfile.MakeDirs(export_dir)
    if gfile.Exists(os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PB)):
      with gfile.GFile(os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB), "wb") as f:
        f.write(self._saved_model.SerializeToString())
    else:
      from google.protobuf import text_format  # pylint: disable=g-import-not-at-top
      with gfile.GFile(os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT),
                       "w") as f:
        f.write(text_format.MessageToString(self._saved_model))
