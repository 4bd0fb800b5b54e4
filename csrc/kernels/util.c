/*
 * util.c — CPU kernels EnsureShape, GuaranteeConst and Timestamp
 * (core/ops_util.c).
 */
#include <time.h>

#include "core/shape.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* EnsureShape: forwards the input when its shape fits the `shape` attr. */
static void ensure_shape_compute(tfc_kernel_ctx *ctx) {
  tfc_shape want;
  if (!tfc_attrs_get_shape(ctx->attrs, "shape", &want, ctx->st)) return;
  tfc_shape got = tfc_tensor_shape(ctx->inputs[0]);
  if (!tfc_shape_compatible(&got, &want)) {
    char a[128], b[128];
    tfc_shape_debug_string(&got, a, sizeof a);
    tfc_shape_debug_string(&want, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Shape of tensor %s %s is not compatible with expected shape %s.",
                    ctx->node_name ? ctx->node_name : "input", a, b);
    return;
  }
  tfc_kernel_forward(ctx, 0, 0);
}

/* GuaranteeConst: the input, unchanged. */
static void guarantee_const_compute(tfc_kernel_ctx *ctx) { tfc_kernel_forward(ctx, 0, 0); }

/* Timestamp: seconds since the epoch, with sub-microsecond resolution. */
static void timestamp_compute(tfc_kernel_ctx *ctx) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_DOUBLE, 0, NULL);
  if (out) *(double *)out->data = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const tfc_kernel_def defs[] = {
    {"EnsureShape", "CPU", NULL, NULL, NULL, ensure_shape_compute, NULL, 0},
    {"GuaranteeConst", "CPU", NULL, NULL, NULL, guarantee_const_compute, NULL, 0},
    {"Timestamp", "CPU", NULL, NULL, NULL, timestamp_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_util = {defs, (int)(sizeof defs / sizeof defs[0])};
