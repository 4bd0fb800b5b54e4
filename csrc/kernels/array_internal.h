/*
 * array_internal.h — private interface of the array kernel family
 * (kernels/array.c holds the table; kernels/array_*.c the kernels).
 *
 * Data movement is dtype-agnostic: elements are moved by size (1, 2, 4, 8
 * or 16 bytes) and DT_STRING elements are deep-copied. The central primitive
 * is arr_strided_copy, a rank-N strided copy that merges contiguous dims,
 * uses memcpy for contiguous runs, a blocked loop for transposed 2-D tails,
 * and shards large copies over the intra-op pool. Transpose, Slice,
 * StridedSlice(Grad), Concat/Split/Pack/Unpack, Tile, Pad, MirrorPad,
 * BroadcastTo and Reverse are all expressed with it.
 */
#ifndef TFC_KERNELS_ARRAY_INTERNAL_H
#define TFC_KERNELS_ARRAY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/kernel.h"

/* Enough dims for Tile's (multiple, dim) pairs. */
#define ARR_MAX_VRANK (2 * TFC_MAX_RANK)

/* ------------------------------------------------------------------ helpers (array_copy.c) */

/* Writes dims as TF's TensorShape::DebugString ("[2,3]", "[]"). */
void arr_dims_str(int rank, const int64_t *dims, char *buf, size_t cap);
/* Writes "<what>[1,2]" (TF's name + SliceDebugString) for flat position k
 * of t, or just "<what>" when t is a scalar. */
void arr_element_name(const char *what, const tfc_tensor *t, int64_t k, char *buf, size_t cap);
/* Row-major element strides of dims. */
void arr_strides(int rank, const int64_t *dims, int64_t *strides);
/* Product of dims (1 for rank 0). */
int64_t arr_num_elements(int rank, const int64_t *dims);

/* Copies n contiguous elements of dtype dt from src to dst (deep copy for
 * STRING: existing dst strings are replaced). false + ctx failed
 * (RESOURCE_EXHAUSTED) when a string copy ran out of memory. */
bool arr_copy(tfc_kernel_ctx *ctx, tfc_dtype dt, void *dst, const void *src, int64_t n);

/* Sets n elements at dst to the single element *value (deep copies for STRING). */
bool arr_fill(tfc_kernel_ctx *ctx, tfc_dtype dt, void *dst, const void *value, int64_t n);

/* Strided copy: for every multi-index i over dims[0..rank),
 *   dst[sum i_k * dst_strides[k]] = src[sum i_k * src_strides[k]]
 * with strides in elements (may be 0 or negative). rank <= ARR_MAX_VRANK.
 * Destination elements must not overlap each other or the source. Large
 * copies run sharded on ctx's intra-op pool. false + ctx failed on OOM
 * (STRING only). */
bool arr_strided_copy(tfc_kernel_ctx *ctx, tfc_dtype dt, int rank, const int64_t *dims, void *dst,
                      const int64_t *dst_strides, const void *src, const int64_t *src_strides);

/* Reads a scalar (or 1-element vector) integer input `what` into *out;
 * false + ctx failed (INVALID_ARGUMENT) otherwise. */
bool arr_scalar_index(tfc_kernel_ctx *ctx, const tfc_tensor *t, const char *what, int64_t *out);

/* The zero element of dt (all-zero bytes; an empty string for STRING). */
extern const unsigned char arr_zero_element[16];

/* ------------------------------------------------------------------ kernels */

/* array_basic.c: constants, placeholders, identities, shape queries, reshapes. */
bool arr_const_init(const tfc_kernel_init *ki, void **state);
void arr_const_compute(tfc_kernel_ctx *ctx);
void arr_placeholder_compute(tfc_kernel_ctx *ctx);
void arr_identity_compute(tfc_kernel_ctx *ctx);
void arr_identity_n_compute(tfc_kernel_ctx *ctx);
void arr_shape_compute(tfc_kernel_ctx *ctx);
void arr_shape_n_compute(tfc_kernel_ctx *ctx);
void arr_size_compute(tfc_kernel_ctx *ctx);
void arr_rank_compute(tfc_kernel_ctx *ctx);
void arr_reshape_compute(tfc_kernel_ctx *ctx);
void arr_squeeze_compute(tfc_kernel_ctx *ctx);
void arr_expand_dims_compute(tfc_kernel_ctx *ctx);

/* check_numerics.c: CheckNumerics. */
void arr_check_numerics_compute(tfc_kernel_ctx *ctx);

/* array_transpose.c */
void arr_transpose_compute(tfc_kernel_ctx *ctx);
void arr_invert_permutation_compute(tfc_kernel_ctx *ctx);

/* array_concat.c: ConcatV2, Concat, Pack, ConcatOffset. */
void arr_concat_v2_compute(tfc_kernel_ctx *ctx);
void arr_concat_compute(tfc_kernel_ctx *ctx);
void arr_concat_offset_compute(tfc_kernel_ctx *ctx);
void arr_pack_compute(tfc_kernel_ctx *ctx);

/* array_split.c: Split, SplitV, Unpack. */
void arr_split_compute(tfc_kernel_ctx *ctx);
void arr_split_v_compute(tfc_kernel_ctx *ctx);
void arr_unpack_compute(tfc_kernel_ctx *ctx);

/* array_slice.c: Slice, StridedSlice, StridedSliceGrad. */
void arr_slice_compute(tfc_kernel_ctx *ctx);
void arr_strided_slice_compute(tfc_kernel_ctx *ctx);
void arr_strided_slice_grad_compute(tfc_kernel_ctx *ctx);

/* array_tile.c: Tile, BroadcastTo. */
void arr_tile_compute(tfc_kernel_ctx *ctx);
void arr_broadcast_to_compute(tfc_kernel_ctx *ctx);

/* array_pad.c: Pad, PadV2, MirrorPad. */
void arr_pad_compute(tfc_kernel_ctx *ctx);
void arr_pad_v2_compute(tfc_kernel_ctx *ctx);
void arr_mirror_pad_compute(tfc_kernel_ctx *ctx);

/* array_gather.c: GatherV2, Gather. */
void arr_gather_v2_compute(tfc_kernel_ctx *ctx);
void arr_gather_compute(tfc_kernel_ctx *ctx);
/* ---------------------------------------------------------------- array_segment.c */
void arr_unsorted_segment_sum_compute(tfc_kernel_ctx *ctx);
void arr_unsorted_segment_max_compute(tfc_kernel_ctx *ctx);
void arr_unsorted_segment_min_compute(tfc_kernel_ctx *ctx);
void arr_unsorted_segment_prod_compute(tfc_kernel_ctx *ctx);
/* array_scan.c */
void arr_cumsum_compute(tfc_kernel_ctx *ctx);
void arr_cumprod_compute(tfc_kernel_ctx *ctx);
void arr_cumulative_logsumexp_compute(tfc_kernel_ctx *ctx);
/* array_roll.c */
void arr_roll_compute(tfc_kernel_ctx *ctx);

/* array_fill.c: Fill, Range, OneHot. */
void arr_fill_compute(tfc_kernel_ctx *ctx);
void arr_range_compute(tfc_kernel_ctx *ctx);
void arr_one_hot_compute(tfc_kernel_ctx *ctx);

/* array_reverse.c: Reverse, ReverseV2. */
void arr_reverse_compute(tfc_kernel_ctx *ctx);
void arr_reverse_v2_compute(tfc_kernel_ctx *ctx);
void arr_reverse_sequence_compute(tfc_kernel_ctx *ctx);

/* array_where.c: Where, Unique. */
void arr_where_compute(tfc_kernel_ctx *ctx);
void arr_unique_compute(tfc_kernel_ctx *ctx);
/* ListDiff: the elements of vector x not in vector y (and their positions). */
void arr_list_diff_compute(tfc_kernel_ctx *ctx);

#endif
