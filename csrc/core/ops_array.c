/*
 * ops_array.c — op definitions of the array family: constants and
 * placeholders, identities (and CheckNumerics), shape ops, reshaping,
 * concat/split, slicing, gather, padding, tiling, fill/range and friends.
 *
 * Names, argument order, attrs and defaults are TensorFlow's (checked against
 * the OpDefs of real TF; where TF 2.x widened a type set, the wider set is
 * used so GraphDefs written by either load). Shape functions live in
 * shape_fns_array.c.
 */
#include "core/op_tables.h"
#include "core/shape_fns_array.h"

/* Reference-free type set of Reverse/ReverseV2. */
#define REVERSE_TYPES                                                                        \
  "{uint8, int8, uint16, int16, uint32, int32, uint64, int64, bool, bfloat16, half, float, " \
  "double, complex64, complex128, string}"

static const tfc_op_spec k_specs[] = {
    /* constants, placeholders, identities */
    {"Const", NULL, "output: dtype", "value: tensor; dtype: type", 0, tfc_shape_fn_const},
    {"Placeholder", NULL, "output: dtype", "dtype: type; shape: shape = <unknown>", 0,
     tfc_shape_fn_placeholder},
    {"PlaceholderWithDefault", "input: dtype", "output: dtype", "dtype: type; shape: shape", 0,
     tfc_shape_fn_placeholder_with_default},
    {"Identity", "input: T", "output: T", "T: type", 0, tfc_shape_fn_unchanged},
    {"IdentityN", "input: T", "output: T", "T: list(type) >= 1", 0, tfc_shape_fn_identity_n},
    {"Snapshot", "input: T", "output: T", "T: type", 0, tfc_shape_fn_unchanged},
    {"StopGradient", "input: T", "output: T", "T: type", 0, tfc_shape_fn_unchanged},
    {"PreventGradient", "input: T", "output: T", "T: type; message: string = ''", 0,
     tfc_shape_fn_unchanged},
    {"CheckNumerics", "tensor: T", "output: T",
     "T: {bfloat16, half, float, double}; message: string", TFC_OP_STATEFUL,
     tfc_shape_fn_unchanged},

    /* shape queries */
    {"Shape", "input: T", "output: out_type", "T: type; out_type: {int32, int64} = int32", 0,
     tfc_shape_fn_shape},
    {"ShapeN", "input: N * T", "output: N * out_type",
     "N: int >= 1; T: type; out_type: {int32, int64} = int32", 0, tfc_shape_fn_shape_n},
    {"Size", "input: T", "output: out_type", "T: type; out_type: {int32, int64} = int32", 0,
     tfc_shape_fn_scalar},
    {"Rank", "input: T", "output: int32", "T: type", 0, tfc_shape_fn_scalar},

    /* reshaping */
    {"Reshape", "tensor: T; shape: Tshape", "output: T", "T: type; Tshape: {int32, int64} = int32",
     0, tfc_shape_fn_reshape},
    {"Squeeze", "input: T", "output: T", "T: type; squeeze_dims: list(int) >= 0 = []", 0,
     tfc_shape_fn_squeeze},
    {"ExpandDims", "input: T; dim: Tdim", "output: T", "T: type; Tdim: {int32, int64} = int32", 0,
     tfc_shape_fn_expand_dims},
    {"Transpose", "x: T; perm: Tperm", "y: T", "T: type; Tperm: {int32, int64} = int32", 0,
     tfc_shape_fn_transpose},
    {"InvertPermutation", "x: T", "y: T", "T: {int32, int64} = int32", 0,
     tfc_shape_fn_invert_permutation},
    {"BroadcastTo", "input: T; shape: Tidx", "output: T", "T: type; Tidx: {int32, int64} = int32",
     0, tfc_shape_fn_broadcast_to},

    /* concat / split */
    {"ConcatV2", "values: N * T; axis: Tidx", "output: T",
     "N: int >= 2; T: type; Tidx: {int32, int64} = int32", 0, tfc_shape_fn_concat_v2},
    {"Concat", "concat_dim: int32; values: N * T", "output: T", "N: int >= 2; T: type", 0,
     tfc_shape_fn_concat},
    {"ConcatOffset", "concat_dim: int32; shape: N * shape_type", "offset: N * shape_type",
     "N: int >= 2; shape_type: {int32, int64} = int32", 0, tfc_shape_fn_concat_offset},
    {"Pack", "values: N * T", "output: T", "N: int >= 1; T: type; axis: int = 0", 0,
     tfc_shape_fn_pack},
    {"Unpack", "value: T", "output: num * T", "num: int >= 0; T: type; axis: int = 0", 0,
     tfc_shape_fn_unpack},
    {"Split", "split_dim: int32; value: T", "output: num_split * T", "num_split: int >= 1; T: type",
     0, tfc_shape_fn_split},
    {"SplitV", "value: T; size_splits: Tlen; split_dim: int32", "output: num_split * T",
     "num_split: int >= 1; T: type; Tlen: {int8, int32, int64} = int64", 0, tfc_shape_fn_split_v},

    /* slicing */
    {"Slice", "input: T; begin: Index; size: Index", "output: T", "T: type; Index: {int32, int64}",
     0, tfc_shape_fn_slice},
    {"StridedSlice", "input: T; begin: Index; end: Index; strides: Index", "output: T",
     "T: type; Index: {int16, int32, int64}; begin_mask: int = 0; end_mask: int = 0; "
     "ellipsis_mask: int = 0; new_axis_mask: int = 0; shrink_axis_mask: int = 0",
     0, tfc_shape_fn_strided_slice},
    {"StridedSliceGrad", "shape: Index; begin: Index; end: Index; strides: Index; dy: T",
     "output: T",
     "T: type; Index: {int32, int64}; begin_mask: int = 0; end_mask: int = 0; "
     "ellipsis_mask: int = 0; new_axis_mask: int = 0; shrink_axis_mask: int = 0",
     0, tfc_shape_fn_strided_slice_grad},
    {"Reverse", "tensor: T; dims: bool", "output: T", "T: " REVERSE_TYPES, 0, tfc_shape_fn_reverse},
    {"ReverseV2", "tensor: T; axis: Tidx", "output: T",
     "Tidx: {int32, int64} = int32; T: " REVERSE_TYPES, 0, tfc_shape_fn_reverse_v2},
    {"ReverseSequence", "input: T; seq_lengths: Tlen", "output: T",
     "seq_dim: int; batch_dim: int = 0; T: type; Tlen: {int32, int64} = int64", 0,
     tfc_shape_fn_unchanged},

    /* tiling and padding */
    {"Tile", "input: T; multiples: Tmultiples", "output: T",
     "T: type; Tmultiples: {int32, int64} = int32", 0, tfc_shape_fn_tile},
    {"Pad", "input: T; paddings: Tpaddings", "output: T",
     "T: type; Tpaddings: {int32, int64} = int32", 0, tfc_shape_fn_pad},
    {"PadV2", "input: T; paddings: Tpaddings; constant_values: T", "output: T",
     "T: type; Tpaddings: {int32, int64} = int32", 0, tfc_shape_fn_pad_v2},
    {"MirrorPad", "input: T; paddings: Tpaddings", "output: T",
     "T: type; Tpaddings: {int32, int64} = int32; mode: {'REFLECT', 'SYMMETRIC'}", 0,
     tfc_shape_fn_mirror_pad},

    /* gather / one_hot / where / unique */
    {"GatherV2", "params: Tparams; indices: Tindices; axis: Taxis", "output: Tparams",
     "batch_dims: int = 0; Tparams: type; Tindices: {int16, int32, int64}; Taxis: {int32, int64}",
     0, tfc_shape_fn_gather_v2},
    {"Gather", "params: Tparams; indices: Tindices", "output: Tparams",
     "validate_indices: bool = true; Tparams: type; Tindices: {int32, int64}", 0,
     tfc_shape_fn_gather},
    {"UnsortedSegmentSum", "data: T; segment_ids: Tindices; num_segments: Tnumsegments",
     "output: T", "T: numbertype; Tindices: {int32, int64}; Tnumsegments: {int32, int64} = int32",
     0, tfc_shape_fn_unsorted_segment},
    {"UnsortedSegmentMax", "data: T; segment_ids: Tindices; num_segments: Tnumsegments",
     "output: T", "T: realnumbertype; Tindices: {int32, int64}; Tnumsegments: {int32, int64} = int32",
     0, tfc_shape_fn_unsorted_segment},
    {"UnsortedSegmentMin", "data: T; segment_ids: Tindices; num_segments: Tnumsegments",
     "output: T", "T: realnumbertype; Tindices: {int32, int64}; Tnumsegments: {int32, int64} = int32",
     0, tfc_shape_fn_unsorted_segment},
    {"UnsortedSegmentProd", "data: T; segment_ids: Tindices; num_segments: Tnumsegments",
     "output: T", "T: numbertype; Tindices: {int32, int64}; Tnumsegments: {int32, int64} = int32",
     0, tfc_shape_fn_unsorted_segment},
    {"Cumsum", "x: T; axis: Tidx", "out: T",
     "exclusive: bool = false; reverse: bool = false; T: numbertype; Tidx: {int32, int64} = int32",
     0, tfc_shape_fn_unchanged},
    {"Cumprod", "x: T; axis: Tidx", "out: T",
     "exclusive: bool = false; reverse: bool = false; T: numbertype; Tidx: {int32, int64} = int32",
     0, tfc_shape_fn_unchanged},
    {"CumulativeLogsumexp", "x: T; axis: Tidx", "out: T",
     "exclusive: bool = false; reverse: bool = false; T: {bfloat16, half, float, double}; "
     "Tidx: {int32, int64} = int32",
     0, tfc_shape_fn_unchanged},
    {"Roll", "input: T; shift: Tshift; axis: Taxis", "output: T",
     "T: type; Tshift: {int32, int64}; Taxis: {int32, int64}", 0, tfc_shape_fn_unchanged},
    {"OneHot", "indices: TI; depth: int32; on_value: T; off_value: T", "output: T",
     "axis: int = -1; T: type; TI: {uint8, int8, int32, int64} = int64", 0, tfc_shape_fn_one_hot},
    {"Where", "input: T", "index: int64", "T: {numbertype, bool} = bool", 0, tfc_shape_fn_where},
    {"Unique", "x: T", "y: T; idx: out_idx", "T: type; out_idx: {int32, int64} = int32", 0,
     tfc_shape_fn_unique},
    {"UniqueWithCounts", "x: T", "y: T; idx: out_idx; count: out_idx",
     "T: type; out_idx: {int32, int64} = int32", 0, tfc_shape_fn_unique},
    {"ListDiff", "x: T; y: T", "out: T; idx: out_idx", "T: type; out_idx: {int32, int64} = int32",
     0, tfc_shape_fn_list_diff},

    /* fill / range */
    {"Fill", "dims: index_type; value: T", "output: T",
     "T: type; index_type: {int32, int64} = int32", 0, tfc_shape_fn_fill},
    {"Range", "start: Tidx; limit: Tidx; delta: Tidx", "output: Tidx",
     "Tidx: {bfloat16, half, float, double, int8, int16, int32, int64, uint16, uint32, uint64} = "
     "int32",
     0, tfc_shape_fn_range},
};

const tfc_op_table tfc_ops_array = {k_specs, (int)(sizeof k_specs / sizeof k_specs[0])};
