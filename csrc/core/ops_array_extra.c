/*
 * ops_array_extra.c — op definitions of small array utilities: EnsureShape
 * (a runtime shape assertion), BroadcastArgs (the broadcast of two shape
 * vectors), Bitcast (reinterpreting element bytes as another type),
 * UnravelIndex (flat indices to coordinates), HistogramFixedWidth and
 * EditDistance, with their shape functions. TF's names, args and attrs;
 * kernels in kernels/array_extra.c and kernels/edit_distance.c.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* EnsureShape: the input's shape merged with the `shape` attr. */
static bool ensure_shape_fn(tfc_shape_ctx *ctx) {
  tfc_shape want, merged;
  if (!tfc_attrs_get_shape(ctx->attrs, "shape", &want, ctx->st)) return false;
  if (!tfc_shape_merge(&ctx->in_shapes[0], &want, &merged))
    return tfc_shape_fail(ctx, "Shapes of the input and the shape attr are not compatible");
  ctx->out_shapes[0] = merged;
  return true;
}

/* BroadcastArgs: a vector as long as the longer input (when known). */
static bool broadcast_args_fn(tfc_shape_ctx *ctx) {
  int64_t n = -1;
  for (int i = 0; i < 2; i++) {
    const tfc_shape *s = &ctx->in_shapes[i];
    if (s->rank >= 0 && s->rank != 1)
      return tfc_shape_fail(ctx, "Shape must be rank 1 but is rank %d", s->rank);
    if (s->rank == 1) {
      if (s->dims[0] < 0) {
        n = -2;
      } else if (n != -2 && s->dims[0] > n) {
        n = s->dims[0];
      }
    } else {
      n = -2;
    }
  }
  int64_t d = n < 0 ? -1 : n;
  ctx->out_shapes[0] = tfc_shape_make(1, &d);
  return true;
}

/* Bitcast: same shape for equal sizes, a trailing dim added (narrower
 * output) or removed (wider output). */
static bool bitcast_fn(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  tfc_dtype out_t;
  if (!tfc_attrs_get_type(ctx->attrs, "type", &out_t, ctx->st)) return false;
  size_t is = tfc_dtype_size(ctx->in_types[0]), os = tfc_dtype_size(tfc_dtype_base(out_t));
  if (in->rank < 0 || is == os) {
    ctx->out_shapes[0] = *in;
    return true;
  }
  if (is > os) {
    if (in->rank >= TFC_MAX_RANK) return tfc_shape_fail(ctx, "Bitcast output rank is too large");
    tfc_shape out = *in;
    out.dims[out.rank++] = (int64_t)(is / os);
    ctx->out_shapes[0] = out;
    return true;
  }
  if (in->rank == 0 || (in->dims[in->rank - 1] >= 0 && in->dims[in->rank - 1] != (int64_t)(os / is)))
    return tfc_shape_fail(ctx, "Cannot bitcast due to shape. %lld does not match %lld",
                          (long long)(in->rank ? in->dims[in->rank - 1] : 0),
                          (long long)(os / is));
  tfc_shape out = *in;
  out.rank--;
  ctx->out_shapes[0] = out;
  return true;
}

/* UnravelIndex: [len(dims)] for a scalar index, else [len(dims), n]. */
static bool unravel_fn(tfc_shape_ctx *ctx) {
  const tfc_shape *idx = &ctx->in_shapes[0], *dims = &ctx->in_shapes[1];
  int64_t nd = dims->rank == 1 ? dims->dims[0] : -1;
  if (idx->rank == 0) {
    ctx->out_shapes[0] = tfc_shape_make(1, &nd);
  } else if (idx->rank > 0) {
    int64_t n = 1;
    for (int d = 0; d < idx->rank; d++) n = (n < 0 || idx->dims[d] < 0) ? -1 : n * idx->dims[d];
    int64_t od[2] = {nd, n};
    ctx->out_shapes[0] = tfc_shape_make(2, od);
  }
  return true;
}

/* HistogramFixedWidth: a vector of nbins counts. */
static bool histogram_fn(tfc_shape_ctx *ctx) {
  int64_t n = -1;
  const tfc_tensor *v = ctx->in_values ? ctx->in_values[2] : NULL;
  if (v && v->nelems == 1) n = tfc_tensor_get_int64(v, 0);
  if (n < 0) n = -1;
  ctx->out_shapes[0] = tfc_shape_make(1, &n);
  return true;
}

#define BITCAST_TYPES                                                                        \
  "{bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, int8, int16, " \
  "complex64, complex128, qint8, quint8, qint16, quint16, qint32}"

/* EditDistance: the sparse inputs must be (matrix, vector, vector); with both
 * dense shapes known the output is their elementwise max without the last
 * dimension, else unknown. */
static bool edit_distance_fn(tfc_shape_ctx *ctx) {
  static const char *const names[2] = {"hypothesis", "truth"};
  for (int k = 0; k < 2; k++) {
    const tfc_shape *ind = &ctx->in_shapes[3 * k], *val = &ctx->in_shapes[3 * k + 1];
    const tfc_shape *shp = &ctx->in_shapes[3 * k + 2];
    if (ind->rank >= 0 && ind->rank != 2)
      return tfc_shape_fail(ctx, "Shape must be rank 2 but is rank %d for %s_indices", ind->rank,
                            names[k]);
    if (val->rank >= 0 && val->rank != 1)
      return tfc_shape_fail(ctx, "Shape must be rank 1 but is rank %d for %s_values", val->rank,
                            names[k]);
    if (shp->rank >= 0 && shp->rank != 1)
      return tfc_shape_fail(ctx, "Shape must be rank 1 but is rank %d for %s_shape", shp->rank,
                            names[k]);
  }
  const tfc_tensor *h = ctx->in_values ? ctx->in_values[2] : NULL;
  const tfc_tensor *t = ctx->in_values ? ctx->in_values[5] : NULL;
  if (h == NULL || t == NULL) {
    ctx->out_shapes[0] = tfc_shape_unknown();
    return true;
  }
  if (h->nelems != t->nelems)
    return tfc_shape_fail(ctx, "Num elements of hypothesis_shape does not match truth_shape: "
                          "%lld vs. %lld", (long long)h->nelems, (long long)t->nelems);
  if (h->nelems < 1 || h->nelems - 1 > TFC_MAX_RANK) {
    ctx->out_shapes[0] = tfc_shape_unknown();
    return true;
  }
  int64_t dims[TFC_MAX_RANK];
  for (int64_t i = 0; i + 1 < h->nelems; i++) {
    int64_t a = tfc_tensor_get_int64(h, i), b = tfc_tensor_get_int64(t, i);
    dims[i] = a > b ? a : b;
  }
  ctx->out_shapes[0] = tfc_shape_make((int)(h->nelems - 1), dims);
  return true;
}

static const tfc_op_spec specs[] = {
    {"EditDistance",
     "hypothesis_indices: int64; hypothesis_values: T; hypothesis_shape: int64; "
     "truth_indices: int64; truth_values: T; truth_shape: int64",
     "output: float", "normalize: bool = true; T: type", 0, edit_distance_fn},
    {"EnsureShape", "input: T", "output: T", "shape: shape; T: type", 0, ensure_shape_fn},
    {"BroadcastArgs", "s0: T; s1: T", "r0: T", "T: {int32, int64} = int32", 0,
     broadcast_args_fn},
    {"Bitcast", "input: T", "output: type", "T: " BITCAST_TYPES "; type: " BITCAST_TYPES, 0,
     bitcast_fn},
    {"UnravelIndex", "indices: Tidx; dims: Tidx", "output: Tidx", "Tidx: {int32, int64} = int32",
     0, unravel_fn},
    {"HistogramFixedWidth", "values: T; value_range: T; nbins: int32", "out: dtype",
     "T: {int32, int64, float, double}; dtype: {int32, int64} = int32", 0, histogram_fn},
};

const tfc_op_table tfc_ops_array_extra = {specs, (int)(sizeof specs / sizeof specs[0])};
