/*
 * conv_convert.c — half/bfloat16 <-> float conversion of whole arrays for
 * the convolution, pooling and batch-norm kernels, which compute 16-bit
 * types in float. Conversions are split across the intra-op pool.
 */
#include "base/alloc.h"
#include "kernels/conv_internal.h"

/* Elements per shard of a conversion. */
#define CONV_SHARD ((int64_t)1 << 15)

typedef struct cvt_job {
  tfc_dtype t;
  const void *src;
  void *dst;
} cvt_job;

/* Widens elements [b, e). */
static void widen_shard(void *arg, int64_t b, int64_t e) {
  const cvt_job *j = arg;
  const uint16_t *s = (const uint16_t *)j->src;
  float *d = (float *)j->dst;
  if (j->t == TFC_DTYPE_HALF)
    for (int64_t i = b; i < e; i++) d[i] = tfc_half_to_float(s[i]);
  else
    for (int64_t i = b; i < e; i++) d[i] = tfc_bfloat16_to_float(s[i]);
}

/* Narrows elements [b, e). */
static void narrow_shard(void *arg, int64_t b, int64_t e) {
  const cvt_job *j = arg;
  const float *s = (const float *)j->src;
  uint16_t *d = (uint16_t *)j->dst;
  if (j->t == TFC_DTYPE_HALF)
    for (int64_t i = b; i < e; i++) d[i] = tfc_float_to_half(s[i]);
  else
    for (int64_t i = b; i < e; i++) d[i] = tfc_float_to_bfloat16(s[i]);
}

/* Widens n values of type t to float. */
void tfc_conv_widen(tfc_kernel_ctx *ctx, tfc_dtype t, const uint16_t *src, float *dst, int64_t n) {
  cvt_job j = {t, src, dst};
  tfc_kernel_parallel_for(ctx, n, CONV_SHARD, widen_shard, &j);
}

/* Narrows n floats to type t. */
void tfc_conv_narrow(tfc_kernel_ctx *ctx, tfc_dtype t, const float *src, uint16_t *dst, int64_t n) {
  cvt_job j = {t, src, dst};
  tfc_kernel_parallel_for(ctx, n, CONV_SHARD, narrow_shard, &j);
}

/* A float copy of a 16-bit tensor's elements. */
float *tfc_conv_widen_copy(tfc_kernel_ctx *ctx, const tfc_tensor *x) {
  float *f = tfc_aligned_alloc((size_t)x->nelems * sizeof(float));
  if (!f) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when allocating a float copy of %lld elements",
                    (long long)x->nelems);
    return NULL;
  }
  tfc_conv_widen(ctx, x->dtype, (const uint16_t *)x->data, f, x->nelems);
  return f;
}
