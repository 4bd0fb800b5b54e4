/*
 * array_segment.c — UnsortedSegmentSum: output[segment_ids[i...], ...] +=
 * data[i..., ...], rows with a negative id dropped (TF's rule).
 *
 * data is viewed as [n, inner] with n = segment_ids.nelems, the output as
 * [num_segments, inner]. Ids are validated in a first pass so a bad id fails
 * before anything is written. The accumulation runs over column blocks of
 * the output on the intra-op pool, each shard walking every row, so no two
 * threads touch the same element and the summation order (by row) is the
 * same whatever the thread count. half and bfloat16 accumulate in float.
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/array_internal.h"

typedef struct segment_job {
  tfc_dtype dt;
  const void *data;
  void *out;
  float *acc;             /* float accumulator for half/bfloat16, else NULL */
  const int64_t *ids;     /* n row ids (already validated, < 0 means drop) */
  int64_t n, inner;
} segment_job;

/* Adds data rows into output columns [c0, c1) of each segment, for type T. */
#define SEGMENT_SUM(T)                                                       \
  do {                                                                       \
    const T *src = j->data;                                                  \
    T *dst = j->out;                                                         \
    for (int64_t i = 0; i < j->n; i++) {                                     \
      int64_t s = j->ids[i];                                                 \
      if (s < 0) continue;                                                   \
      const T *restrict a = src + i * j->inner;                              \
      T *restrict o = dst + s * j->inner;                                    \
      for (int64_t c = c0; c < c1; c++) o[c] += a[c];                        \
    }                                                                        \
  } while (0)

/* parallel_for body over output columns [c0, c1). */
static void segment_cols(void *arg, int64_t c0, int64_t c1) {
  const segment_job *j = arg;
  switch (j->dt) {
    case TFC_DTYPE_FLOAT: SEGMENT_SUM(float); break;
    case TFC_DTYPE_DOUBLE: SEGMENT_SUM(double); break;
    case TFC_DTYPE_INT32: SEGMENT_SUM(int32_t); break;
    case TFC_DTYPE_INT64: SEGMENT_SUM(int64_t); break;
    case TFC_DTYPE_UINT8: SEGMENT_SUM(uint8_t); break;
    case TFC_DTYPE_INT8: SEGMENT_SUM(int8_t); break;
    case TFC_DTYPE_INT16: SEGMENT_SUM(int16_t); break;
    case TFC_DTYPE_UINT16: SEGMENT_SUM(uint16_t); break;
    case TFC_DTYPE_UINT32: SEGMENT_SUM(uint32_t); break;
    case TFC_DTYPE_UINT64: SEGMENT_SUM(uint64_t); break;
    case TFC_DTYPE_HALF:
    case TFC_DTYPE_BFLOAT16: {
      bool bf = j->dt == TFC_DTYPE_BFLOAT16;
      const uint16_t *src = j->data;
      for (int64_t i = 0; i < j->n; i++) {
        int64_t s = j->ids[i];
        if (s < 0) continue;
        const uint16_t *a = src + i * j->inner;
        float *o = j->acc + s * j->inner;
        for (int64_t c = c0; c < c1; c++)
          o[c] += bf ? tfc_bfloat16_to_float(a[c]) : tfc_half_to_float(a[c]);
      }
      break;
    }
    default: break;
  }
}
#undef SEGMENT_SUM

/* UnsortedSegmentSum(data, segment_ids, num_segments). */
void arr_unsorted_segment_sum_compute(tfc_kernel_ctx *ctx) {
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
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in UnsortedSegmentSum");
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
  segment_job job = {data->dtype, data->data, out->data, NULL, idv, n, inner};
  if (wide) {
    job.acc = tfc_aligned_alloc(sizeof(float) * (size_t)(out->nelems > 0 ? out->nelems : 1));
    if (!job.acc) {
      tfc_free(idv);
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in UnsortedSegmentSum");
      return;
    }
    memset(job.acc, 0, sizeof(float) * (size_t)out->nelems);
  } else if (out->nelems > 0) {
    memset(out->data, 0, es * (size_t)out->nelems);
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
