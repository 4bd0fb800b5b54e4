/*
 * ops_dataset_experimental.c — op definitions of tf.data.experimental's
 * datasets (TF's experimental_dataset_ops.cc): IgnoreErrors,
 * AssertCardinality, Unique, DirectedInterleave, Random, Scan and
 * TakeWhile, GroupByWindow, GroupByReducer, ListDataset, RewriteDataset, with their TF 1.x "Experimental" spellings where TF has them.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

#define DS_ATTRS "output_types: list(type) >= 1; output_shapes: list(shape) >= 1"
#define DS_OUT "handle: variant"
#define META "metadata: string = ''"

static const tfc_op_spec specs[] = {
    {"IgnoreErrorsDataset", "input_dataset: variant", DS_OUT, DS_ATTRS "; log_warning: bool = false",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ExperimentalIgnoreErrorsDataset", "input_dataset: variant", DS_OUT, DS_ATTRS "; log_warning: bool = false",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"AssertCardinalityDataset", "input_dataset: variant; cardinality: int64", DS_OUT, DS_ATTRS, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"UniqueDataset", "input_dataset: variant", DS_OUT, DS_ATTRS "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ExperimentalUniqueDataset", "input_dataset: variant", DS_OUT, DS_ATTRS, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"DirectedInterleaveDataset", "selector_input_dataset: variant; data_input_datasets: N * variant", DS_OUT,
     DS_ATTRS "; N: int >= 1; stop_on_empty_dataset: bool = false", TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ExperimentalDirectedInterleaveDataset", "selector_input_dataset: variant; data_input_datasets: N * variant",
     DS_OUT, DS_ATTRS "; N: int >= 1", TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"RandomDataset", "seed: int64; seed2: int64", DS_OUT, DS_ATTRS "; " META, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"ExperimentalRandomDataset", "seed: int64; seed2: int64", DS_OUT, DS_ATTRS, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"ScanDataset", "input_dataset: variant; initial_state: Tstate; other_arguments: Targuments", DS_OUT,
     "f: func; Tstate: list(type) >= 1; Targuments: list(type) >= 0; " DS_ATTRS
     "; preserve_cardinality: bool = false; use_default_device: bool = true; " META,
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ExperimentalScanDataset", "input_dataset: variant; initial_state: Tstate; other_arguments: Targuments",
     DS_OUT,
     "f: func; Tstate: list(type) >= 1; Targuments: list(type) >= 0; " DS_ATTRS
     "; preserve_cardinality: bool = false",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"TakeWhileDataset", "input_dataset: variant; other_arguments: Targuments", DS_OUT,
     "predicate: func; Targuments: list(type) >= 0; " DS_ATTRS "; " META, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ExperimentalTakeWhileDataset", "input_dataset: variant; other_arguments: Targuments", DS_OUT,
     "predicate: func; Targuments: list(type) >= 0; " DS_ATTRS, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"GroupByWindowDataset",
     "input_dataset: variant; key_func_other_arguments: Tkey_func_other_arguments; "
     "reduce_func_other_arguments: Treduce_func_other_arguments; "
     "window_size_func_other_arguments: Twindow_size_func_other_arguments",
     DS_OUT,
     "key_func: func; reduce_func: func; window_size_func: func; Tkey_func_other_arguments: list(type) >= 0; "
     "Treduce_func_other_arguments: list(type) >= 0; Twindow_size_func_other_arguments: list(type) >= 0; " DS_ATTRS
     "; " META,
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ExperimentalGroupByWindowDataset",
     "input_dataset: variant; key_func_other_arguments: Tkey_func_other_arguments; "
     "reduce_func_other_arguments: Treduce_func_other_arguments; "
     "window_size_func_other_arguments: Twindow_size_func_other_arguments",
     DS_OUT,
     "key_func: func; reduce_func: func; window_size_func: func; Tkey_func_other_arguments: list(type) >= 0; "
     "Treduce_func_other_arguments: list(type) >= 0; Twindow_size_func_other_arguments: list(type) >= 0; " DS_ATTRS,
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"GroupByReducerDataset",
     "input_dataset: variant; key_func_other_arguments: Tkey_func_other_arguments; "
     "init_func_other_arguments: Tinit_func_other_arguments; reduce_func_other_arguments: Treduce_func_other_arguments; "
     "finalize_func_other_arguments: Tfinalize_func_other_arguments",
     DS_OUT,
     "key_func: func; init_func: func; reduce_func: func; finalize_func: func; "
     "Tkey_func_other_arguments: list(type) >= 0; Tinit_func_other_arguments: list(type) >= 0; "
     "Treduce_func_other_arguments: list(type) >= 0; Tfinalize_func_other_arguments: list(type) >= 0; " DS_ATTRS,
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ExperimentalGroupByReducerDataset",
     "input_dataset: variant; key_func_other_arguments: Tkey_func_other_arguments; "
     "init_func_other_arguments: Tinit_func_other_arguments; reduce_func_other_arguments: Treduce_func_other_arguments; "
     "finalize_func_other_arguments: Tfinalize_func_other_arguments",
     DS_OUT,
     "key_func: func; init_func: func; reduce_func: func; finalize_func: func; "
     "Tkey_func_other_arguments: list(type) >= 0; Tinit_func_other_arguments: list(type) >= 0; "
     "Treduce_func_other_arguments: list(type) >= 0; Tfinalize_func_other_arguments: list(type) >= 0; " DS_ATTRS,
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ListDataset", "tensors: Tinput_types", DS_OUT, "Tinput_types: list(type) >= 1; " DS_ATTRS "; " META,
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
#define CSV_IN                                                                                               \
  "filenames: string; compression_type: string; buffer_size: int64; header: bool; field_delim: string; "    \
  "use_quote_delim: bool; na_value: string; select_cols: int64; record_defaults: output_types"
    {"CSVDataset", CSV_IN, DS_OUT, "output_types: list(type) >= 1; output_shapes: list(shape) >= 1",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"CSVDatasetV2", CSV_IN "; exclude_cols: int64", DS_OUT,
     "output_types: list(type) >= 1; output_shapes: list(shape) >= 1", TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ExperimentalCSVDataset", CSV_IN, DS_OUT, "output_types: list(type) >= 1; output_shapes: list(shape) >= 1",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    /* a graph rewrite of the input (replicate_on_split, map_fusion, ...):
     * TF's rewrites keep the elements, so tfc runs the input as it is */
    {"RewriteDataset", "input_dataset: variant; rewrite_name: string", DS_OUT, DS_ATTRS, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
};

const tfc_op_table tfc_ops_dataset_experimental = {specs, (int)(sizeof specs / sizeof specs[0])};
