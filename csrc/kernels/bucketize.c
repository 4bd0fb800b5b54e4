/*
 * bucketize.c — CPU kernel of Bucketize (what bucketized feature columns
 * build): the index of the bucket each element falls in, i.e. how many
 * boundaries are <= it (boundaries sorted ascending; a value equal to a
 * boundary goes to the bucket above it). Integer and float inputs compare
 * as float, double inputs as double, as TF's kernel does.
 */
#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

typedef struct bucketize_state {
  int n;
  float *bounds;
} bucketize_state;

/* Frees the parsed boundaries. */
static void bucketize_free(void *state) {
  bucketize_state *s = state;
  if (!s) return;
  tfc_free(s->bounds);
  tfc_free(s);
}

/* Reads `boundaries` once; INVALID_ARGUMENT unless sorted. */
static bool bucketize_init(const tfc_kernel_init *ki, void **state) {
  const tfc_attr_list *l = NULL;
  if (!tfc_attrs_get_list(ki->attrs, "boundaries", &l, ki->st)) return false;
  bucketize_state *s = tfc_calloc(1, sizeof *s);
  if (!s) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  *state = s;
  s->n = l->n;
  s->bounds = tfc_malloc((size_t)(l->n ? l->n : 1) * sizeof(float));
  if (!s->bounds) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; i < l->n; i++) {
    s->bounds[i] = l->v.f[i];
    if (i > 0 && !(s->bounds[i - 1] <= s->bounds[i]))
      return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Expected sorted boundaries");
  }
  return true;
}

/* First index whose boundary is > v (boundaries as float, v as double). */
static int32_t upper_bound_d(const float *b, int n, double v) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (v < (double)b[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/* First index whose boundary is > v (compared as float). */
static int32_t upper_bound_f(const float *b, int n, float v) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (v < b[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/* Bucketize(input) -> int32 of the input's shape. */
static void bucketize_compute(tfc_kernel_ctx *ctx) {
  const bucketize_state *s = ctx->state;
  const tfc_tensor *in = ctx->inputs[0];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT32, in->rank, in->dims);
  if (!out) return;
  int32_t *o = out->data;
  for (int64_t i = 0; i < in->nelems; i++) {
    switch (in->dtype) {
      case TFC_DTYPE_DOUBLE: o[i] = upper_bound_d(s->bounds, s->n, ((const double *)in->data)[i]); break;
      case TFC_DTYPE_FLOAT: o[i] = upper_bound_f(s->bounds, s->n, ((const float *)in->data)[i]); break;
      case TFC_DTYPE_INT32: o[i] = upper_bound_f(s->bounds, s->n, (float)((const int32_t *)in->data)[i]); break;
      default: o[i] = upper_bound_f(s->bounds, s->n, (float)((const int64_t *)in->data)[i]); break;
    }
  }
}

static const tfc_dtype bucketize_types[] = {TFC_DTYPE_INT32, TFC_DTYPE_INT64, TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE,
                                            TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"Bucketize", "CPU", "T", bucketize_types, bucketize_init, bucketize_compute, bucketize_free, 0},
};

const tfc_kernel_table tfc_kernels_bucketize = {defs, (int)(sizeof defs / sizeof defs[0])};
