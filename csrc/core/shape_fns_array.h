/*
 * shape_fns_array.h — shape functions of the array op family (core/ops_array.c)
 * and the few shape computations the array kernels share with them.
 *
 * Every shape function follows TF 1.x's shape inference for the op: precise
 * when inputs are constants known at build time, partial otherwise, and
 * failing with TF's INVALID_ARGUMENT message when the inputs cannot be valid.
 */
#ifndef TFC_CORE_SHAPE_FNS_ARRAY_H
#define TFC_CORE_SHAPE_FNS_ARRAY_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "core/op_registry.h"
#include "core/tensor.h"

bool tfc_shape_fn_const(tfc_shape_ctx *ctx);
bool tfc_shape_fn_placeholder(tfc_shape_ctx *ctx);
bool tfc_shape_fn_placeholder_with_default(tfc_shape_ctx *ctx);
bool tfc_shape_fn_identity_n(tfc_shape_ctx *ctx);
bool tfc_shape_fn_reshape(tfc_shape_ctx *ctx);
bool tfc_shape_fn_squeeze(tfc_shape_ctx *ctx);
bool tfc_shape_fn_expand_dims(tfc_shape_ctx *ctx);
bool tfc_shape_fn_shape(tfc_shape_ctx *ctx);
bool tfc_shape_fn_shape_n(tfc_shape_ctx *ctx);
bool tfc_shape_fn_transpose(tfc_shape_ctx *ctx);
bool tfc_shape_fn_concat_v2(tfc_shape_ctx *ctx);
bool tfc_shape_fn_concat(tfc_shape_ctx *ctx);
bool tfc_shape_fn_concat_offset(tfc_shape_ctx *ctx);
bool tfc_shape_fn_pack(tfc_shape_ctx *ctx);
bool tfc_shape_fn_unpack(tfc_shape_ctx *ctx);
bool tfc_shape_fn_split(tfc_shape_ctx *ctx);
bool tfc_shape_fn_split_v(tfc_shape_ctx *ctx);
bool tfc_shape_fn_slice(tfc_shape_ctx *ctx);
bool tfc_shape_fn_strided_slice(tfc_shape_ctx *ctx);
bool tfc_shape_fn_strided_slice_grad(tfc_shape_ctx *ctx);
bool tfc_shape_fn_tile(tfc_shape_ctx *ctx);
bool tfc_shape_fn_pad(tfc_shape_ctx *ctx);
bool tfc_shape_fn_pad_v2(tfc_shape_ctx *ctx);
bool tfc_shape_fn_mirror_pad(tfc_shape_ctx *ctx);
bool tfc_shape_fn_gather_v2(tfc_shape_ctx *ctx);
bool tfc_shape_fn_gather(tfc_shape_ctx *ctx);
bool tfc_shape_fn_one_hot(tfc_shape_ctx *ctx);
bool tfc_shape_fn_unsorted_segment(tfc_shape_ctx *ctx);
bool tfc_shape_fn_fill(tfc_shape_ctx *ctx);
bool tfc_shape_fn_range(tfc_shape_ctx *ctx);
bool tfc_shape_fn_where(tfc_shape_ctx *ctx);
bool tfc_shape_fn_broadcast_to(tfc_shape_ctx *ctx);
bool tfc_shape_fn_reverse(tfc_shape_ctx *ctx);
bool tfc_shape_fn_reverse_v2(tfc_shape_ctx *ctx);
bool tfc_shape_fn_invert_permutation(tfc_shape_ctx *ctx);
bool tfc_shape_fn_unique(tfc_shape_ctx *ctx);
/* ListDiff: both inputs vectors; two vectors of unknown length. */
bool tfc_shape_fn_list_diff(tfc_shape_ctx *ctx);
bool tfc_shape_fn_vector_rank1(tfc_shape_ctx *ctx);

/* The number of elements Range(start, limit, delta) produces, computed in
 * the arithmetic of `dtype` as TF does. start/limit/delta are scalars of
 * dtype. false + INVALID_ARGUMENT ("Requires start <= limit when delta > 0:
 * 5/1", "Requires delta != 0", ...) when the arguments are inconsistent. */
bool tfc_array_range_size(tfc_dtype dtype, const tfc_tensor *start, const tfc_tensor *limit,
                          const tfc_tensor *delta, int64_t *size, tfc_status *st);

#endif
