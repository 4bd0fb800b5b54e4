/*
 * array_segment.c — UnsortedSegmentSum / Max / Min / Prod:
 * output[segment_ids[i...], ...] = combine(output[...], data[i..., ...]),
 * starting from the combine's identity (0, the type's lowest value, its
 * highest value, 1 — TF's values for empty segments), rows with a negative
 * id dropped (TF's rule).
 *
 * data is viewed as [n, inner] with n = segment_ids.nelems, the output as
 * [num_segments, inner]. Ids are validated in a first pass so a bad id fails
 * before anything is written. The accumulation runs over column blocks of
 * the output on the intra-op pool, each shard walking every row, so no two
 * threads touch the same element and the summation order (by row) is the
 * same whatever the thread count. half and bfloat16 accumulate in float.
 */
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/array_internal.h"

/* The combine of a segment reduction. */
enum { SEG_SUM, SEG_MAX, SEG_MIN, SEG_PROD };

typedef struct segment_job {
  int mode;               /* SEG_* */
  tfc_dtype dt;
  const void *data;
  void *out;
  float *acc;             /* float accumulator for half/bfloat16, else NULL */
  const int64_t *ids;     /* n row ids (already validated, < 0 means drop) */
  int64_t n, inner;
} segment_job;

/* Combines data rows into output columns [c0, c1) of each segment with
 * o = EXPR(o, a) (o the output element, a the data element), for type T. */
#define SEGMENT_LOOP(T, EXPR)                                                \
  do {                                                                       \
    const T *src = j->data;                                                  \
    T *dst = j->out;                                                         \
    for (int64_t i = 0; i < j->n; i++) {                                     \
      int64_t s = j->ids[i];                                                 \
      if (s < 0) continue;                                                   \
      const T *restrict ap = src + i * j->inner;                             \
      T *restrict op = dst + s * j->inner;                                   \
      for (int64_t c = c0; c < c1; c++) {                                    \
        T o = op[c], a = ap[c];                                              \
        op[c] = (T)(EXPR);                                                   \
      }                                                                      \
    }                                                                        \
  } while (0)

#define SEG_SUM_E (o + a)
#define SEG_MAX_E (a > o ? a : o)
#define SEG_MIN_E (a < o ? a : o)
#define SEG_PROD_E (o * a)

/* Runs the job's combine for type T. */
#define SEGMENT_ANY(T)                                                       \
  do {                                                                       \
    switch (j->mode) {                                                       \
      case SEG_SUM: SEGMENT_LOOP(T, SEG_SUM_E); break;                       \
      case SEG_MAX: SEGMENT_LOOP(T, SEG_MAX_E); break;                       \
      case SEG_MIN: SEGMENT_LOOP(T, SEG_MIN_E); break;                       \
      default: SEGMENT_LOOP(T, SEG_PROD_E); break;                           \
    }                                                                        \
  } while (0)

/* parallel_for body over output columns [c0, c1). */
static void segment_cols(void *arg, int64_t c0, int64_t c1) {
  const segment_job *j = arg;
  switch (j->dt) {
    case TFC_DTYPE_FLOAT: SEGMENT_ANY(float); break;
    case TFC_DTYPE_DOUBLE: SEGMENT_ANY(double); break;
    case TFC_DTYPE_INT32: SEGMENT_ANY(int32_t); break;
    case TFC_DTYPE_INT64: SEGMENT_ANY(int64_t); break;
    case TFC_DTYPE_UINT8: SEGMENT_ANY(uint8_t); break;
    case TFC_DTYPE_INT8: SEGMENT_ANY(int8_t); break;
    case TFC_DTYPE_INT16: SEGMENT_ANY(int16_t); break;
    case TFC_DTYPE_UINT16: SEGMENT_ANY(uint16_t); break;
    case TFC_DTYPE_UINT32: SEGMENT_ANY(uint32_t); break;
    case TFC_DTYPE_UINT64: SEGMENT_ANY(uint64_t); break;
    case TFC_DTYPE_HALF:
    case TFC_DTYPE_BFLOAT16: {
      bool bf = j->dt == TFC_DTYPE_BFLOAT16;
      const uint16_t *src = j->data;
      for (int64_t i = 0; i < j->n; i++) {
        int64_t s = j->ids[i];
        if (s < 0) continue;
        const uint16_t *ap = src + i * j->inner;
        float *op = j->acc + s * j->inner;
        for (int64_t c = c0; c < c1; c++) {
          float o = op[c], a = bf ? tfc_bfloat16_to_float(ap[c]) : tfc_half_to_float(ap[c]);
          op[c] = j->mode == SEG_SUM ? SEG_SUM_E
                  : j->mode == SEG_MAX ? SEG_MAX_E
                  : j->mode == SEG_MIN ? SEG_MIN_E
                                       : SEG_PROD_E;
        }
      }
      break;
    }
    default: break;
  }
}
#undef SEGMENT_ANY
#undef SEGMENT_LOOP

/* Fills n elements of type T at p with the identity of mode (the type's
 * lowest / highest value for max / min, as TF leaves empty segments). */
#define FILL_IDENTITY(T, LOWEST, HIGHEST)                                    \
  do {                                                                       \
    T v = mode == SEG_PROD ? (T)1 : mode == SEG_MAX ? LOWEST : mode == SEG_MIN ? HIGHEST : (T)0; \
    T *q = p;                                                                \
    for (int64_t k = 0; k < n; k++) q[k] = v;                                \
  } while (0)

/* Initialises an output of n elements of dtype dt (float for the half /
 * bfloat16 accumulator) with the identity of mode. */
static void segment_fill(void *p, tfc_dtype dt, int mode, int64_t n) {
  switch (dt) {
    case TFC_DTYPE_FLOAT: FILL_IDENTITY(float, -FLT_MAX, FLT_MAX); break;
    case TFC_DTYPE_DOUBLE: FILL_IDENTITY(double, -DBL_MAX, DBL_MAX); break;
    case TFC_DTYPE_INT32: FILL_IDENTITY(int32_t, INT32_MIN, INT32_MAX); break;
    case TFC_DTYPE_INT64: FILL_IDENTITY(int64_t, INT64_MIN, INT64_MAX); break;
    case TFC_DTYPE_UINT8: FILL_IDENTITY(uint8_t, 0, UINT8_MAX); break;
    case TFC_DTYPE_INT8: FILL_IDENTITY(int8_t, INT8_MIN, INT8_MAX); break;
    case TFC_DTYPE_INT16: FILL_IDENTITY(int16_t, INT16_MIN, INT16_MAX); break;
    case TFC_DTYPE_UINT16: FILL_IDENTITY(uint16_t, 0, UINT16_MAX); break;
    case TFC_DTYPE_UINT32: FILL_IDENTITY(uint32_t, 0, UINT32_MAX); break;
    case TFC_DTYPE_UINT64: FILL_IDENTITY(uint64_t, 0, UINT64_MAX); break;
    default: break;
  }
}
#undef FILL_IDENTITY

/* UnsortedSegment<mode>(data, segment_ids, num_segments). */
static void segment_compute(tfc_kernel_ctx *ctx, int mode) {
  const tfc_tensor *data = ctx->inputs[0], *ids = ctx->inputs[1], *nseg = ctx->inputs[2];
  char a[160], b[160];
  if (!(nseg->rank == 0 || (nseg->rank == 1 && nseg->dims[0] == 1))) {
    arr_dims_str(nseg->rank, nseg->dims, a, sizeof a);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_segments should be a scalar, not shape %s",
                    a);
    return;
  }
  bool prefix = ids->rank <= data->rank;
  for (int d = 0; prefix && d < ids->rank; d++) prefix = ids->dims[d] == data->dims[d];
  if (!prefix) {
    arr_dims_str(data->rank, data->dims, a, sizeof a);
    arr_dims_str(ids->rank, ids->dims, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "data.shape = %s does not start with segment_ids.shape = %s", a, b);
    return;
  }
  int64_t rows = tfc_tensor_get_int64(nseg, 0);
  if (rows < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Input num_segments == %lld must not be negative.", (long long)rows);
    return;
  }
  int out_rank = 1 + data->rank - ids->rank;
  int64_t dims[TFC_MAX_RANK];
  dims[0] = rows;
  int64_t inner = 1;
  for (int d = ids->rank; d < data->rank; d++) {
    dims[1 + d - ids->rank] = data->dims[d];
    inner *= data->dims[d];
  }
  int64_t n = ids->nelems;
  int64_t *idv = tfc_malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  if (!idv) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in %s", ctx->op_type);
    return;
  }
  for (int64_t k = 0; k < n; k++) {
    int64_t v = ids->dtype == TFC_DTYPE_INT32 ? ((const int32_t *)ids->data)[k]
                                              : ((const int64_t *)ids->data)[k];
    if (v >= rows) {
      char name[160];
      arr_element_name("segment_ids", ids, k, name, sizeof name);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s = %lld is out of range [0, %lld)", name,
                      (long long)v, (long long)rows);
      tfc_free(idv);
      return;
    }
    idv[k] = v;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, data->dtype, out_rank, dims);
  if (!out) {
    tfc_free(idv);
    return;
  }
  size_t es = tfc_dtype_size(data->dtype);
  bool wide = data->dtype == TFC_DTYPE_HALF || data->dtype == TFC_DTYPE_BFLOAT16;
  segment_job job = {mode, data->dtype, data->data, out->data, NULL, idv, n, inner};
  if (wide) {
    job.acc = tfc_aligned_alloc(sizeof(float) * (size_t)(out->nelems > 0 ? out->nelems : 1));
    if (!job.acc) {
      tfc_free(idv);
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in %s", ctx->op_type);
      return;
    }
    /* half / bfloat16 lowest and highest: +-65504 and +-3.39e38 */
    float big = data->dtype == TFC_DTYPE_HALF ? 65504.0f : 3.38953139e38f;
    float init = mode == SEG_PROD ? 1.0f : mode == SEG_MAX ? -big : mode == SEG_MIN ? big : 0.0f;
    for (int64_t k = 0; k < out->nelems; k++) job.acc[k] = init;
  } else if (out->nelems > 0) {
    if (mode == SEG_SUM) memset(out->data, 0, es * (size_t)out->nelems);
    else segment_fill(out->data, data->dtype, mode, out->nelems);
  }
  if (inner > 0 && n > 0) {
    int64_t min_cols = (1 << 15) / n;
    tfc_kernel_parallel_for(ctx, inner, min_cols > 16 ? min_cols : 16, segment_cols, &job);
  }
  if (wide) {
    uint16_t *o = out->data;
    for (int64_t k = 0; k < out->nelems; k++)
      o[k] = data->dtype == TFC_DTYPE_BFLOAT16 ? tfc_float_to_bfloat16(job.acc[k])
                                                : tfc_float_to_half(job.acc[k]);
    tfc_aligned_free(job.acc);
  }
  tfc_free(idv);
}

/* UnsortedSegmentSum(data, segment_ids, num_segments). */
void arr_unsorted_segment_sum_compute(tfc_kernel_ctx *ctx) { segment_compute(ctx, SEG_SUM); }
/* UnsortedSegmentMax: empty segments hold the type's lowest value. */
void arr_unsorted_segment_max_compute(tfc_kernel_ctx *ctx) { segment_compute(ctx, SEG_MAX); }
/* UnsortedSegmentMin: empty segments hold the type's highest value. */
void arr_unsorted_segment_min_compute(tfc_kernel_ctx *ctx) { segment_compute(ctx, SEG_MIN); }
/* UnsortedSegmentProd: empty segments hold 1. */
void arr_unsorted_segment_prod_compute(tfc_kernel_ctx *ctx) { segment_compute(ctx, SEG_PROD); }
