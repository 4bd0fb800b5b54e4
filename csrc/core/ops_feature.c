/*
 * ops_feature.c — op definitions of the ops feature columns build beyond
 * lookups and hashes: Bucketize (math_ops.cc) and SparseCross
 * (sparse_ops.cc), with TF's names, attrs and shape functions. Kernels in
 * kernels/bucketize.c and kernels/sparse_cross.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* SparseCross: [?, 2] indices, [?] values, [2] shape. */
static bool sparse_cross_shape(tfc_shape_ctx *ctx) {
  int64_t two[2] = {-1, 2}, n[1] = {-1}, s[1] = {2};
  ctx->out_shapes[0] = tfc_shape_make(2, two);
  ctx->out_shapes[1] = tfc_shape_make(1, n);
  ctx->out_shapes[2] = tfc_shape_make(1, s);
  return true;
}

static const tfc_op_spec specs[] = {
    {"Bucketize", "input: T", "output: int32", "T: {int32, int64, float, double}; boundaries: list(float)", 0,
     tfc_shape_fn_unchanged},
    {"SparseCross", "indices: N * int64; values: sparse_types; shapes: N * int64; dense_inputs: dense_types",
     "output_indices: int64; output_values: out_type; output_shape: int64",
     "N: int >= 0; hashed_output: bool; num_buckets: int >= 0; hash_key: int; "
     "sparse_types: list({int64, string}) >= 0; dense_types: list({int64, string}) >= 0; "
     "out_type: {int64, string}; internal_type: {int64, string}",
     0, sparse_cross_shape},
};

const tfc_op_table tfc_ops_feature = {specs, (int)(sizeof specs / sizeof specs[0])};
