/*
 * util.c — CPU kernels GuaranteeConst and Timestamp
 * (core/ops_util.c).
 */
#include <time.h>

#include "core/shape.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

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
    {"GuaranteeConst", "CPU", NULL, NULL, NULL, guarantee_const_compute, NULL, 0},
    {"Timestamp", "CPU", NULL, NULL, NULL, timestamp_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_util = {defs, (int)(sizeof defs / sizeof defs[0])};
