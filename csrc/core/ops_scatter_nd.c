/*
 * ops_scatter_nd.c — op definitions of the N-d index ops: GatherNd,
 * ScatterNd, the TensorScatter{Update,Add,Sub,Min,Max} family and the
 * ref-variable ScatterNd{Update,Add,Sub}, with their
 * shape functions (output shapes known at graph-build time whenever the
 * index depth and the ranks are). Names, args and attrs are TensorFlow's;
 * kernels are in kernels/scatter_nd.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* GatherNd: indices.shape[:-1] + params.shape[indices.shape[-1]:]. */
static bool gather_nd_shape_fn(tfc_shape_ctx *ctx) {
  const tfc_shape *params = &ctx->in_shapes[0], *idx = &ctx->in_shapes[1];
  if (idx->rank == 0) return tfc_shape_fail(ctx, "Shape must be at least rank 1 but is rank 0");
  if (idx->rank < 0 || params->rank < 0 || idx->dims[idx->rank - 1] < 0) return true;
  int64_t k = idx->dims[idx->rank - 1];
  if (k > params->rank)
    return tfc_shape_fail(ctx,
                          "indices.shape[-1] must be <= params.rank, but saw indices shape: "
                          "%lld and params shape: %d",
                          (long long)k, params->rank);
  int rank = idx->rank - 1 + params->rank - (int)k;
  if (rank > TFC_MAX_RANK) return tfc_shape_fail(ctx, "GatherNd output rank %d is too large", rank);
  tfc_shape out = tfc_shape_unknown_dims(rank);
  for (int d = 0; d < idx->rank - 1; d++) out.dims[d] = idx->dims[d];
  for (int d = (int)k; d < params->rank; d++) out.dims[idx->rank - 1 + d - (int)k] = params->dims[d];
  ctx->out_shapes[0] = out;
  return true;
}

/* ScatterNd: the shape given by input 2 (its value when constant). */
static bool scatter_nd_shape_fn(tfc_shape_ctx *ctx) {
  const tfc_shape *shp = &ctx->in_shapes[2];
  if (shp->rank >= 0 && shp->rank != 1)
    return tfc_shape_fail(ctx, "Shape must be rank 1 but is rank %d", shp->rank);
  const tfc_tensor *v = ctx->in_values ? ctx->in_values[2] : NULL;
  if (v && v->rank == 1 && v->nelems <= TFC_MAX_RANK) {
    tfc_shape out = tfc_shape_unknown_dims((int)v->nelems);
    for (int64_t i = 0; i < v->nelems; i++) out.dims[i] = tfc_tensor_get_int64(v, i);
    ctx->out_shapes[0] = out;
  } else if (shp->rank == 1 && shp->dims[0] >= 0 && shp->dims[0] <= TFC_MAX_RANK) {
    ctx->out_shapes[0] = tfc_shape_unknown_dims((int)shp->dims[0]);
  }
  return true;
}

/* ScatterNd{Update,Add,Sub} on a ref: the output is the ref's shape; with the
 * ranks and the index depth known, updates must be
 * indices.shape[:-1] + ref.shape[indices.shape[-1]:]. */
static bool scatter_nd_ref_shape_fn(tfc_shape_ctx *ctx) {
  const tfc_shape *ref = &ctx->in_shapes[0], *idx = &ctx->in_shapes[1], *upd = &ctx->in_shapes[2];
  ctx->out_shapes[0] = *ref;
  if (idx->rank == 0) return tfc_shape_fail(ctx, "Shape must be at least rank 1 but is rank 0");
  if (ref->rank < 0 || idx->rank < 0 || upd->rank < 0 || idx->dims[idx->rank - 1] < 0) return true;
  int64_t k = idx->dims[idx->rank - 1];
  if (k > ref->rank)
    return tfc_shape_fail(ctx, "The last dimension of indices (%lld) must be <= the rank of the "
                          "input (%d)", (long long)k, ref->rank);
  int want = idx->rank - 1 + ref->rank - (int)k;
  bool ok = upd->rank == want;
  for (int d = 0; ok && d < idx->rank - 1; d++)
    ok = upd->dims[d] < 0 || idx->dims[d] < 0 || upd->dims[d] == idx->dims[d];
  for (int d = (int)k; ok && d < ref->rank; d++) {
    int64_t a = upd->dims[idx->rank - 1 + d - (int)k], b = ref->dims[d];
    ok = a < 0 || b < 0 || a == b;
  }
  if (!ok)
    return tfc_shape_fail(ctx, "updates has an incompatible shape: it must be "
                          "indices.shape[:-1] + ref.shape[indices.shape[-1]:]");
  return true;
}

#define TS_ARGS "tensor: T; indices: Tindices; updates: T"
#define TS_IDX "Tindices: {int32, int64}"

static const tfc_op_spec specs[] = {
    {"GatherNd", "params: Tparams; indices: Tindices", "output: Tparams",
     "Tparams: type; Tindices: {int16, int32, int64}; bad_indices_policy: string = ''", 0,
     gather_nd_shape_fn},
    {"ScatterNd", "indices: Tindices; updates: T; shape: Tindices", "output: T",
     "T: type; Tindices: {int16, int32, int64}; bad_indices_policy: string = ''", 0,
     scatter_nd_shape_fn},
    {"TensorScatterUpdate", TS_ARGS, "output: T",
     "T: type; Tindices: {int16, int32, int64, uint16}; bad_indices_policy: string = ''", 0,
     tfc_shape_fn_unchanged},
    {"TensorScatterAdd", TS_ARGS, "output: T",
     "T: type; " TS_IDX "; bad_indices_policy: string = ''", 0, tfc_shape_fn_unchanged},
    {"TensorScatterSub", TS_ARGS, "output: T",
     "T: type; " TS_IDX "; bad_indices_policy: string = ''", 0, tfc_shape_fn_unchanged},
    {"TensorScatterMin", TS_ARGS, "output: T",
     "T: type; " TS_IDX "; bad_indices_policy: string = ''", 0, tfc_shape_fn_unchanged},
    {"TensorScatterMax", TS_ARGS, "output: T",
     "T: type; " TS_IDX "; bad_indices_policy: string = ''", 0, tfc_shape_fn_unchanged},
    {"ScatterNdUpdate", "ref: Ref(T); indices: Tindices; updates: T", "output_ref: Ref(T)",
     "T: type; " TS_IDX "; use_locking: bool = true; bad_indices_policy: string = ''", 0,
     scatter_nd_ref_shape_fn},
    {"ScatterNdAdd", "ref: Ref(T); indices: Tindices; updates: T", "output_ref: Ref(T)",
     "T: numbertype; " TS_IDX "; use_locking: bool = false; bad_indices_policy: string = ''", 0,
     scatter_nd_ref_shape_fn},
    {"ScatterNdSub", "ref: Ref(T); indices: Tindices; updates: T", "output_ref: Ref(T)",
     "T: numbertype; " TS_IDX "; use_locking: bool = false; bad_indices_policy: string = ''", 0,
     scatter_nd_ref_shape_fn},
};

const tfc_op_table tfc_ops_scatter_nd = {specs, (int)(sizeof specs / sizeof specs[0])};
