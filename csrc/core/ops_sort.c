/*
 * ops_sort.c — op definitions of the ordering ops: TopKV2 (the k largest
 * entries of each row and their indices) and LowerBound / UpperBound (binary
 * search of values in sorted rows). TF's names, args and attrs; kernels in
 * kernels/sort.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* TopKV2: input.shape[:-1] + [k] for both outputs (k when constant). */
static bool top_k_shape_fn(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  const tfc_shape *k = &ctx->in_shapes[1];
  if (k->rank > 0) return tfc_shape_fail(ctx, "Shape must be rank 0 but is rank %d", k->rank);
  if (in->rank == 0) return tfc_shape_fail(ctx, "Shape must be at least rank 1 but is rank 0");
  if (in->rank < 0) return true;
  int64_t kv = -1;
  const tfc_tensor *v = ctx->in_values ? ctx->in_values[1] : NULL;
  if (v && v->nelems == 1) {
    kv = tfc_tensor_get_int64(v, 0);
    if (kv < 0) return tfc_shape_fail(ctx, "Need k >= 0, got %lld", (long long)kv);
    int64_t last = in->dims[in->rank - 1];
    if (last >= 0 && last < kv)
      return tfc_shape_fail(ctx, "input must have last dimension >= k = %lld but is %lld",
                            (long long)kv, (long long)last);
  }
  tfc_shape out = *in;
  out.dims[in->rank - 1] = kv;
  ctx->out_shapes[0] = out;
  ctx->out_shapes[1] = out;
  return true;
}

/* LowerBound / UpperBound: the shape of values. */
static bool bound_shape_fn(tfc_shape_ctx *ctx) {
  ctx->out_shapes[0] = ctx->in_shapes[1];
  return true;
}

static const tfc_op_spec specs[] = {
    {"TopKV2", "input: T; k: Tk", "values: T; indices: index_type",
     "sorted: bool = true; T: realnumbertype; Tk: {int16, int32, int64} = int32; "
     "index_type: {int16, int32, int64} = int32",
     0, top_k_shape_fn},
    {"LowerBound", "sorted_inputs: T; values: T", "output: out_type",
     "T: type; out_type: {int32, int64} = int32", 0, bound_shape_fn},
    {"UpperBound", "sorted_inputs: T; values: T", "output: out_type",
     "T: type; out_type: {int32, int64} = int32", 0, bound_shape_fn},
};

const tfc_op_table tfc_ops_sort = {specs, (int)(sizeof specs / sizeof specs[0])};
