/*
 * ops_dataset.c — op definitions for tf.data (TF's dataset_ops.cc,
 * experimental and iterator ops): dataset constructors produce a scalar
 * DT_VARIANT handle, iterators are DT_RESOURCE handles.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* Iterator ops' component outputs take the output_shapes attr. */
static bool get_next_shape(tfc_shape_ctx *ctx) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "output_shapes");
  if (!v || v->kind != TFC_ATTR_LIST || v->v.list.kind != TFC_ATTR_SHAPE) return true;
  for (int i = 0; i < ctx->n_outputs && i < v->v.list.n; i++) ctx->out_shapes[i] = v->v.list.v.shape[i];
  return true;
}

/* SerializeIterator: a vector of serialized state values. */
static bool state_vector_shape(tfc_shape_ctx *ctx) {
  ctx->out_shapes[0] = tfc_shape_unknown();
  ctx->out_shapes[0].rank = 1;
  ctx->out_shapes[0].dims[0] = -1;
  return true;
}

#define DS_ATTRS "output_types: list(type) >= 1; output_shapes: list(shape) >= 1"
#define DS_OUT "handle: variant"
#define META "metadata: string = ''"

static const tfc_op_spec specs[] = {
    {"TensorDataset", "components: Toutput_types", DS_OUT,
     "Toutput_types: list(type) >= 1; output_shapes: list(shape) >= 1" "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"TensorSliceDataset", "components: Toutput_types", DS_OUT,
     "Toutput_types: list(type) >= 1; output_shapes: list(shape) >= 1; is_files: bool = false; "
     "replicate_on_split: bool = false; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"RangeDataset", "start: int64; stop: int64; step: int64", DS_OUT, DS_ATTRS "; " META, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"ZipDataset", "input_datasets: N * variant", DS_OUT, DS_ATTRS "; N: int >= 1" "; " META, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"ConcatenateDataset", "input_dataset: variant; another_dataset: variant", DS_OUT, DS_ATTRS "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"TFRecordDataset", "filenames: string; compression_type: string; buffer_size: int64", DS_OUT, META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"TextLineDataset", "filenames: string; compression_type: string; buffer_size: int64", DS_OUT, META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"FixedLengthRecordDatasetV2",
     "filenames: string; header_bytes: int64; record_bytes: int64; footer_bytes: int64; buffer_size: int64; "
     "compression_type: string",
     DS_OUT, META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"BatchDatasetV2", "input_dataset: variant; batch_size: int64; drop_remainder: bool", DS_OUT,
     "parallel_copy: bool = false; " DS_ATTRS "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"PaddedBatchDatasetV2",
     "input_dataset: variant; batch_size: int64; padded_shapes: N * int64; padding_values: Toutput_types; "
     "drop_remainder: bool",
     DS_OUT,
     "parallel_copy: bool = false; Toutput_types: list(type) >= 1; output_shapes: list(shape) >= 1; N: int >= 1" "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ShuffleDataset", "input_dataset: variant; buffer_size: int64; seed: int64; seed2: int64", DS_OUT,
     "reshuffle_each_iteration: bool = true; " DS_ATTRS "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"RepeatDataset", "input_dataset: variant; count: int64", DS_OUT, DS_ATTRS "; " META, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"TakeDataset", "input_dataset: variant; count: int64", DS_OUT, DS_ATTRS "; " META, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"SkipDataset", "input_dataset: variant; count: int64", DS_OUT, DS_ATTRS "; " META, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"CacheDataset", "input_dataset: variant; filename: string", DS_OUT, DS_ATTRS "; " META, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"PrefetchDataset", "input_dataset: variant; buffer_size: int64", DS_OUT,
     DS_ATTRS "; slack_period: int = 0; legacy_autotune: bool = true" "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"IteratorV2", "", "handle: resource", "shared_name: string; container: string; " DS_ATTRS, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"MakeIterator", "dataset: variant; iterator: resource", "", "", TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"DatasetCardinality", "input_dataset: variant", "cardinality: int64", "cardinality_options: string = ''",
     0, tfc_shape_fn_scalar},
    {"ExperimentalDatasetCardinality", "input_dataset: variant", "cardinality: int64", "", 0,
     tfc_shape_fn_scalar},
    {"DatasetToTFRecord", "input_dataset: variant; filename: string; compression_type: string", "", "",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"SerializeIterator", "resource_handle: resource", "serialized: variant", "external_state_policy: int = 0",
     TFC_OP_STATEFUL, state_vector_shape},
    {"DeserializeIterator", "resource_handle: resource; serialized: variant", "", "", TFC_OP_STATEFUL,
     tfc_shape_fn_none},
    {"IteratorGetNext", "iterator: resource", "components: output_types", DS_ATTRS, TFC_OP_STATEFUL,
     get_next_shape},
    {"IteratorToStringHandle", "resource_handle: resource", "string_handle: string", "", TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"IteratorFromStringHandleV2", "string_handle: string", "resource_handle: resource",
     "output_types: list(type) >= 0 = []; output_shapes: list(shape) >= 0 = []", TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    /* TF's one-shot iterator: the dataset comes from calling dataset_factory */
    {"OneShotIterator", "", "handle: resource",
     "dataset_factory: func; " DS_ATTRS "; container: string = ''; shared_name: string = ''", TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    /* tfc's one-shot iterator: made from its dataset input on the first run
     * (TF's OneShotIterator builds the dataset with a function instead) */
    {"_OneShotIterator", "dataset: variant", "handle: resource",
     "container: string = ''; shared_name: string = ''; " DS_ATTRS, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"MapDataset", "input_dataset: variant; other_arguments: Targuments", DS_OUT,
     "f: func; Targuments: list(type) >= 0; " DS_ATTRS
     "; use_inter_op_parallelism: bool = true; preserve_cardinality: bool = false; "
     "force_synchronous: bool = false; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ParallelMapDataset", "input_dataset: variant; other_arguments: Targuments; num_parallel_calls: int32",
     DS_OUT,
     "f: func; Targuments: list(type) >= 0; " DS_ATTRS
     "; use_inter_op_parallelism: bool = true; sloppy: bool = false; preserve_cardinality: bool = false" "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ParallelMapDatasetV2", "input_dataset: variant; other_arguments: Targuments; num_parallel_calls: int64",
     DS_OUT,
     "f: func; Targuments: list(type) >= 0; " DS_ATTRS
     "; use_inter_op_parallelism: bool = true; deterministic: string = 'default'; "
     "preserve_cardinality: bool = false" "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"FlatMapDataset", "input_dataset: variant; other_arguments: Targuments", DS_OUT,
     "f: func; Targuments: list(type) >= 0; " DS_ATTRS "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"InterleaveDataset",
     "input_dataset: variant; other_arguments: Targuments; cycle_length: int64; block_length: int64", DS_OUT,
     "f: func; Targuments: list(type) >= 0; " DS_ATTRS "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ParallelInterleaveDatasetV2",
     "input_dataset: variant; other_arguments: Targuments; cycle_length: int64; block_length: int64; "
     "num_parallel_calls: int64",
     DS_OUT, "f: func; Targuments: list(type) >= 0; " DS_ATTRS "; sloppy: bool = false; " META, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"ParallelInterleaveDataset",
     "input_dataset: variant; other_arguments: Targuments; cycle_length: int64; block_length: int64; sloppy: bool; "
     "buffer_output_elements: int64; prefetch_input_elements: int64",
     DS_OUT, "f: func; Targuments: list(type) >= 0; " DS_ATTRS "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"FilterDataset", "input_dataset: variant; other_arguments: Targuments", DS_OUT,
     "predicate: func; Targuments: list(type) >= 0; " DS_ATTRS "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    /* Dataset.from_generator: elements from the Python generator registered
     * under `token` in this process */
    {"_PyGeneratorDataset", "", DS_OUT, "token: int; " DS_ATTRS "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
};

const tfc_op_table tfc_ops_dataset = {specs, (int)(sizeof specs / sizeof specs[0])};
