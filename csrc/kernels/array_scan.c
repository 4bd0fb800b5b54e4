/*
 * array_scan.c — the cumulative ops along one axis: Cumsum, Cumprod and
 * CumulativeLogsumexp, each with TF's `exclusive` (the running value before
 * an element instead of after it) and `reverse` (scan from the end) attrs.
 *
 * The input is viewed as [outer, n, inner] with n the scanned axis; each
 * outer block keeps a running row of `inner` accumulators and walks the axis,
 * so the inner loop is contiguous. Blocks are sharded over the intra-op pool.
 * half and bfloat16 accumulate in float (as TF's Eigen scan does); complex64 and
 * complex128 have Cumsum and Cumprod.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "kernels/array_internal.h"

enum { SCAN_SUM, SCAN_PROD, SCAN_LOGSUMEXP };

typedef struct scan_job {
  int mode;
  tfc_dtype dt;
  const char *x;
  char *y;
  int64_t n, inner;
  bool exclusive, reverse;
} scan_job;

/* log(exp(a) + exp(b)) without overflow; -inf + -inf stays -inf. */
static inline double logaddexp_d(double a, double b) {
  double m = a > b ? a : b;
  if (m == -INFINITY) return m;
  return m + log(exp(a - m) + exp(b - m));
}

/* Scans outer blocks [b0, b1) for element type T accumulating in type A. */
#define SCAN_BLOCKS(T, A, LOAD, STORE)                                               \
  do {                                                                               \
    A acc[256];                                                                      \
    for (int64_t b = b0; b < b1; b++) {                                              \
      const T *xb = (const T *)j->x + b * j->n * j->inner;                           \
      T *yb = (T *)j->y + b * j->n * j->inner;                                       \
      for (int64_t c0 = 0; c0 < j->inner; c0 += 256) {                               \
        int64_t m = j->inner - c0 < 256 ? j->inner - c0 : 256;                       \
        A init = j->mode == SCAN_SUM ? (A)0 : j->mode == SCAN_PROD ? (A)1 : (A)-INFINITY; \
        for (int64_t c = 0; c < m; c++) acc[c] = init;                               \
        for (int64_t s = 0; s < j->n; s++) {                                         \
          int64_t k = j->reverse ? j->n - 1 - s : s;                                 \
          const T *xr = xb + k * j->inner + c0;                                      \
          T *yr = yb + k * j->inner + c0;                                            \
          for (int64_t c = 0; c < m; c++) {                                          \
            A v = LOAD(xr[c]);                                                       \
            A before = acc[c];                                                       \
            A after = j->mode == SCAN_SUM    ? (A)(before + v)                       \
                      : j->mode == SCAN_PROD ? (A)(before * v)                       \
                                             : (A)logaddexp_d((double)before, (double)v); \
            acc[c] = after;                                                          \
            yr[c] = STORE(j->exclusive ? before : after);                            \
          }                                                                          \
        }                                                                            \
      }                                                                              \
    }                                                                                \
  } while (0)

#define SAME(v) (v)
#define HALF_IN(v) tfc_half_to_float(v)
#define HALF_OUT(v) tfc_float_to_half(v)
#define BF_IN(v) tfc_bfloat16_to_float(v)
#define BF_OUT(v) tfc_float_to_bfloat16(v)

/* parallel_for body over outer blocks [b0, b1). */
static void scan_shard(void *arg, int64_t b0, int64_t b1) {
  const scan_job *j = arg;
  switch (j->dt) {
    case TFC_DTYPE_FLOAT: SCAN_BLOCKS(float, float, SAME, SAME); break;
    case TFC_DTYPE_DOUBLE: SCAN_BLOCKS(double, double, SAME, SAME); break;
    case TFC_DTYPE_HALF: SCAN_BLOCKS(uint16_t, float, HALF_IN, HALF_OUT); break;
    case TFC_DTYPE_BFLOAT16: SCAN_BLOCKS(uint16_t, float, BF_IN, BF_OUT); break;
    case TFC_DTYPE_INT32: SCAN_BLOCKS(int32_t, int32_t, SAME, SAME); break;
    case TFC_DTYPE_INT64: SCAN_BLOCKS(int64_t, int64_t, SAME, SAME); break;
    case TFC_DTYPE_INT16: SCAN_BLOCKS(int16_t, int16_t, SAME, SAME); break;
    case TFC_DTYPE_INT8: SCAN_BLOCKS(int8_t, int8_t, SAME, SAME); break;
    case TFC_DTYPE_UINT8: SCAN_BLOCKS(uint8_t, uint8_t, SAME, SAME); break;
    case TFC_DTYPE_UINT16: SCAN_BLOCKS(uint16_t, uint16_t, SAME, SAME); break;
    case TFC_DTYPE_UINT32: SCAN_BLOCKS(uint32_t, uint32_t, SAME, SAME); break;
    case TFC_DTYPE_UINT64: SCAN_BLOCKS(uint64_t, uint64_t, SAME, SAME); break;
    case TFC_DTYPE_COMPLEX64: SCAN_BLOCKS(float _Complex, float _Complex, SAME, SAME); break;
    case TFC_DTYPE_COMPLEX128: SCAN_BLOCKS(double _Complex, double _Complex, SAME, SAME); break;
    default: break;
  }
}

/* Runs scan `mode` of input 0 along the axis in input 1 (TF's checks). */
static void scan_compute(tfc_kernel_ctx *ctx, int mode) {
  const tfc_tensor *x = ctx->inputs[0], *ax = ctx->inputs[1];
  if (ax->rank != 0) {
    char s[64];
    arr_dims_str(ax->rank, ax->dims, s, sizeof s);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "ScanOp: axis must be a scalar, not %s", s);
    return;
  }
  int64_t axis = tfc_tensor_get_int64(ax, 0);
  int rank = x->rank;
  if (axis < -rank || axis >= rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "ScanOp: Expected scan axis in the range [%d, %d), but got %lld", -rank, rank,
                    (long long)axis);
    return;
  }
  if (axis < 0) axis += rank;
  switch (x->dtype) {
    case TFC_DTYPE_FLOAT: case TFC_DTYPE_DOUBLE: case TFC_DTYPE_HALF: case TFC_DTYPE_BFLOAT16:
      break;
    case TFC_DTYPE_INT32: case TFC_DTYPE_INT64: case TFC_DTYPE_INT16: case TFC_DTYPE_INT8:
    case TFC_DTYPE_UINT8: case TFC_DTYPE_UINT16: case TFC_DTYPE_UINT32: case TFC_DTYPE_UINT64:
    case TFC_DTYPE_COMPLEX64: case TFC_DTYPE_COMPLEX128:
      if (mode != SCAN_LOGSUMEXP) break;
      /* fall through */
    default:
      tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "%s is not implemented for dtype %s",
                      ctx->op_type, tfc_dtype_name(x->dtype));
      return;
  }
  bool exclusive = false, reverse = false;
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "exclusive");
  if (v && v->kind == TFC_ATTR_B) exclusive = v->v.b;
  v = tfc_attrs_find(ctx->attrs, "reverse");
  if (v && v->kind == TFC_ATTR_B) reverse = v->v.b;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, x->dtype, x->rank, x->dims);
  if (!out || x->nelems == 0) return;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= x->dims[d];
  for (int d = (int)axis + 1; d < rank; d++) inner *= x->dims[d];
  scan_job j = {mode, x->dtype, x->data, out->data, x->dims[axis], inner, exclusive, reverse};
  int64_t per_block = j.n * inner;
  int64_t min_blocks = per_block >= 16384 ? 1 : 16384 / per_block;
  tfc_kernel_parallel_for(ctx, outer, min_blocks, scan_shard, &j);
}

/* Cumsum(x, axis): running sums. */
void arr_cumsum_compute(tfc_kernel_ctx *ctx) { scan_compute(ctx, SCAN_SUM); }
/* Cumprod(x, axis): running products. */
void arr_cumprod_compute(tfc_kernel_ctx *ctx) { scan_compute(ctx, SCAN_PROD); }
/* CumulativeLogsumexp(x, axis): running log(sum(exp(x))). */
void arr_cumulative_logsumexp_compute(tfc_kernel_ctx *ctx) { scan_compute(ctx, SCAN_LOGSUMEXP); }
