/*
 * array.c — the CPU kernel table of the array family (kernels in array_*.c
 * and check_numerics.c). Every kernel accepts every dtype its op allows,
 * STRING and BOOL included.
 */
#include "kernels/array_internal.h"
#include "kernels/kernel_tables.h"

/* Drops the Const kernel's reference to its value. */
static void const_destroy(void *state) { tfc_tensor_unref(state); }

#define K(op, fn) {op, "CPU", NULL, NULL, NULL, fn, NULL, 0}

static const tfc_kernel_def k_defs[] = {
    {"Const", "CPU", NULL, NULL, arr_const_init, arr_const_compute, const_destroy, 0},
    K("Placeholder", arr_placeholder_compute),
    K("PlaceholderWithDefault", arr_identity_compute),
    K("Identity", arr_identity_compute),
    K("IdentityN", arr_identity_n_compute),
    K("Snapshot", arr_identity_compute),
    K("StopGradient", arr_identity_compute),
    K("PreventGradient", arr_identity_compute),
    K("CheckNumerics", arr_check_numerics_compute),
    K("Shape", arr_shape_compute),
    K("ShapeN", arr_shape_n_compute),
    K("Size", arr_size_compute),
    K("Rank", arr_rank_compute),
    K("Reshape", arr_reshape_compute),
    K("Squeeze", arr_squeeze_compute),
    K("ExpandDims", arr_expand_dims_compute),
    K("Transpose", arr_transpose_compute),
    K("InvertPermutation", arr_invert_permutation_compute),
    K("BroadcastTo", arr_broadcast_to_compute),
    K("ConcatV2", arr_concat_v2_compute),
    K("Concat", arr_concat_compute),
    K("ConcatOffset", arr_concat_offset_compute),
    K("Pack", arr_pack_compute),
    K("Unpack", arr_unpack_compute),
    K("Split", arr_split_compute),
    K("SplitV", arr_split_v_compute),
    K("Slice", arr_slice_compute),
    K("StridedSlice", arr_strided_slice_compute),
    K("StridedSliceGrad", arr_strided_slice_grad_compute),
    K("Reverse", arr_reverse_compute),
    K("ReverseV2", arr_reverse_v2_compute),
    K("ReverseSequence", arr_reverse_sequence_compute),
    K("Tile", arr_tile_compute),
    K("Pad", arr_pad_compute),
    K("PadV2", arr_pad_v2_compute),
    K("MirrorPad", arr_mirror_pad_compute),
    K("GatherV2", arr_gather_v2_compute),
    K("Gather", arr_gather_compute),
    K("UnsortedSegmentSum", arr_unsorted_segment_sum_compute),
    K("UnsortedSegmentMax", arr_unsorted_segment_max_compute),
    K("UnsortedSegmentMin", arr_unsorted_segment_min_compute),
    K("UnsortedSegmentProd", arr_unsorted_segment_prod_compute),
    K("Cumsum", arr_cumsum_compute),
    K("Cumprod", arr_cumprod_compute),
    K("CumulativeLogsumexp", arr_cumulative_logsumexp_compute),
    K("Roll", arr_roll_compute),
    K("OneHot", arr_one_hot_compute),
    K("Where", arr_where_compute),
    K("Unique", arr_unique_compute),
    K("UniqueWithCounts", arr_unique_compute),
    K("ListDiff", arr_list_diff_compute),
    K("Fill", arr_fill_compute),
    K("Range", arr_range_compute),
};

const tfc_kernel_table tfc_kernels_array = {k_defs, (int)(sizeof k_defs / sizeof k_defs[0])};
