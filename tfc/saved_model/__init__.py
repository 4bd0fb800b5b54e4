"""tf.saved_model, TF 1.x style: SavedModelBuilder, loader.load, simple_save,
signature and TensorInfo helpers, and the tag, signature and file constants.

Directories are written and read as TensorFlow does (`saved_model.pb` or
`saved_model.pbtxt`, `variables/`, `assets/`), so TensorFlow and TensorFlow
Serving load what tfc writes and tfc loads SavedModels that TF 1.x-style code
wrote. TF 2's object-based `tf.saved_model.save`/`load_v2` are not part of
it (they need eager functions).
"""
from tfc.saved_model import builder
from tfc.saved_model import constants
from tfc.saved_model import loader
from tfc.saved_model import main_op
from tfc.saved_model import signature_constants
from tfc.saved_model import signature_def_utils
from tfc.saved_model import tag_constants
from tfc.saved_model import utils
from tfc.saved_model.builder import SavedModelBuilder as Builder
from tfc.saved_model.constants import (ASSETS_DIRECTORY, ASSETS_KEY, DEBUG_DIRECTORY,  # noqa: F401
                                       DEBUG_INFO_FILENAME_PB, LEGACY_INIT_OP_KEY, MAIN_OP_KEY,
                                       SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT,
                                       SAVED_MODEL_SCHEMA_VERSION, VARIABLES_DIRECTORY,
                                       VARIABLES_FILENAME)
from tfc.saved_model.loader import load, maybe_saved_model_directory, contains_saved_model  # noqa: F401
from tfc.saved_model.main_op import main_op_with_restore  # noqa: F401
from tfc.saved_model.signature_constants import (CLASSIFY_INPUTS, CLASSIFY_METHOD_NAME,  # noqa: F401
                                                 CLASSIFY_OUTPUT_CLASSES, CLASSIFY_OUTPUT_SCORES,
                                                 DEFAULT_SERVING_SIGNATURE_DEF_KEY,
                                                 PREDICT_INPUTS, PREDICT_METHOD_NAME,
                                                 PREDICT_OUTPUTS, REGRESS_INPUTS,
                                                 REGRESS_METHOD_NAME, REGRESS_OUTPUTS)
from tfc.saved_model.signature_def_utils import (build_signature_def,  # noqa: F401
                                                 classification_signature_def,
                                                 is_valid_signature, predict_signature_def,
                                                 regression_signature_def)
from tfc.saved_model.tag_constants import GPU, SERVING, TPU, TRAINING  # noqa: F401
from tfc.saved_model.utils import build_tensor_info, get_tensor_from_tensor_info  # noqa: F401


def simple_save(session, export_dir, inputs, outputs, legacy_init_op=None):
  """Saves `session`'s graph and variables as a SavedModel for serving: one
  MetaGraphDef tagged "serve" with a predict signature "serving_default" of
  `inputs` and `outputs` ({key: Tensor}), devices cleared, the graph's
  ASSET_FILEPATHS collection as assets.

  Raises:
    AssertionError: export_dir exists and is not empty.
  """
  from tfc.framework import ops as _ops  # pylint: disable=g-import-not-at-top
  signature_def_map = {
      DEFAULT_SERVING_SIGNATURE_DEF_KEY: predict_signature_def(inputs, outputs)}
  b = builder.SavedModelBuilder(export_dir)
  with session.graph.as_default():
    assets = _ops.get_collection(_ops.GraphKeys.ASSET_FILEPATHS)
  b.add_meta_graph_and_variables(session, tags=[SERVING], signature_def_map=signature_def_map,
                                 assets_collection=assets, main_op=legacy_init_op,
                                 clear_devices=True)
  b.save()
