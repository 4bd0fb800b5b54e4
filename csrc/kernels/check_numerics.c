/*
 * check_numerics.c — CheckNumerics: passes its floating-point input through
 * unchanged, failing with INVALID_ARGUMENT "<message> : Tensor had NaN
 * values" (or "Inf values", "Inf and NaN values", TF's wording) when any
 * element is not finite. The scan is sharded over the intra-op pool; every
 * shard reports what it saw with an atomic OR.
 */
#include <math.h>
#include <stdatomic.h>

#include "kernels/array_internal.h"

#define SAW_INF 0x1u
#define SAW_NAN 0x2u

typedef struct numerics_job {
  tfc_dtype dtype;
  const void *data;
  atomic_uint seen;   /* SAW_* bits found so far */
} numerics_job;

/* SAW_* bits of a 16-bit float whose exponent field is `exp_mask` and
 * mantissa field `man_mask` (half: 0x7c00 / 0x03ff; bfloat16: 0x7f80 / 0x007f). */
static inline unsigned class16(uint16_t b, uint16_t exp_mask, uint16_t man_mask) {
  if ((b & exp_mask) != exp_mask) return 0;
  return (b & man_mask) ? SAW_NAN : SAW_INF;
}

/* parallel_for body: classifies elements [lo, hi) and ORs the result into the job. */
static void numerics_range(void *arg, int64_t lo, int64_t hi) {
  numerics_job *j = arg;
  unsigned seen = 0;
  switch (j->dtype) {
    case TFC_DTYPE_FLOAT: {
      const float *x = j->data;
      for (int64_t i = lo; i < hi; i++)
        if (!isfinite(x[i])) seen |= isnan(x[i]) ? SAW_NAN : SAW_INF;
      break;
    }
    case TFC_DTYPE_DOUBLE: {
      const double *x = j->data;
      for (int64_t i = lo; i < hi; i++)
        if (!isfinite(x[i])) seen |= isnan(x[i]) ? SAW_NAN : SAW_INF;
      break;
    }
    case TFC_DTYPE_HALF: {
      const uint16_t *x = j->data;
      for (int64_t i = lo; i < hi; i++) seen |= class16(x[i], 0x7c00, 0x03ff);
      break;
    }
    case TFC_DTYPE_BFLOAT16: {
      const uint16_t *x = j->data;
      for (int64_t i = lo; i < hi; i++) seen |= class16(x[i], 0x7f80, 0x007f);
      break;
    }
    default:
      break;
  }
  if (seen) atomic_fetch_or(&j->seen, seen);
}

/* CheckNumerics(tensor) -> tensor, or INVALID_ARGUMENT naming what was found. */
void arr_check_numerics_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  if (!tfc_dtype_is_float(in->dtype)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "CheckNumerics: unsupported type %s",
                    tfc_dtype_name(in->dtype));
    return;
  }
  const tfc_string *msg = NULL;
  if (!tfc_attrs_get_string(ctx->attrs, "message", &msg, ctx->st)) return;
  numerics_job job = {.dtype = in->dtype, .data = in->data};
  atomic_init(&job.seen, 0u);
  if (in->nelems > 0) tfc_kernel_parallel_for(ctx, in->nelems, 1 << 16, numerics_range, &job);
  unsigned seen = atomic_load(&job.seen);
  if (seen) {
    const char *what = seen == (SAW_INF | SAW_NAN) ? "Inf and NaN"
                       : seen == SAW_INF           ? "Inf"
                                                   : "NaN";
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%.*s : Tensor had %s values",
                    (int)(msg->len > 4096 ? 4096 : msg->len), msg->data ? msg->data : "", what);
    return;
  }
  tfc_kernel_forward(ctx, 0, 0);
}
