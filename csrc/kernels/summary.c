/*
 * summary.c — CPU kernels of ScalarSummary, HistogramSummary, MergeSummary
 * and TensorSummaryV2: each outputs a scalar string holding a serialized
 * tensorflow.Summary (io/summary.h), with TF's input checks and messages.
 */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "io/summary.h"
#include "kernels/kernel.h"

/* Sets output 0 to the bytes (takes nothing; copies). */
static void emit(tfc_kernel_ctx *ctx, uint8_t *data, size_t len) {
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 0, NULL);
  if (out) tfc_tensor_set_string(out, 0, (const char *)data, len, ctx->st);
  tfc_free(data);
}

/* The values of t as doubles (a new array), or NULL + ctx failed. */
static double *as_doubles(tfc_kernel_ctx *ctx, const tfc_tensor *t) {
  double *v = tfc_malloc(sizeof(double) * (size_t)(t->nelems ? t->nelems : 1));
  if (!v) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    return NULL;
  }
  for (int64_t i = 0; i < t->nelems; i++) v[i] = tfc_tensor_get_double(t, i);
  return v;
}

static void scalar_summary_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *tags = ctx->inputs[0], *values = ctx->inputs[1];
  if (!tfc_tensor_same_shape(tags, values)) {
    char a[128], b[128];
    tfc_shape sa = tfc_tensor_shape(tags), sb = tfc_tensor_shape(values);
    tfc_shape_debug_string(&sa, a, sizeof a);
    tfc_shape_debug_string(&sb, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tags and values are not the same shape: %s != %s",
                    a, b);
    return;
  }
  double *v = as_doubles(ctx, values);
  if (!v) return;
  uint8_t *data = NULL;
  size_t len = 0;
  if (tfc_summary_scalars(tags->data, v, tags->nelems, &data, &len, ctx->st)) emit(ctx, data, len);
  tfc_free(v);
}

static void histogram_summary_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *tag = ctx->inputs[0], *values = ctx->inputs[1];
  if (tag->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tags must be scalar");
    return;
  }
  const tfc_string *t = tag->data;
  double *v = as_doubles(ctx, values);
  if (!v) return;
  for (int64_t i = 0; i < values->nelems; i++)
    if (!isfinite(v[i])) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s in summary histogram for: %.*s",
                      isnan(v[i]) ? "Nan" : "Infinity", (int)t->len, t->data ? t->data : "");
      tfc_free(v);
      return;
    }
  uint8_t *data = NULL;
  size_t len = 0;
  if (tfc_summary_histogram(t, v, values->nelems, &data, &len, ctx->st)) emit(ctx, data, len);
  tfc_free(v);
}

static void merge_summary_compute(tfc_kernel_ctx *ctx) {
  int n = 0;
  for (int i = 0; i < ctx->n_inputs; i++) n += (int)ctx->inputs[i]->nelems;
  tfc_string *all = tfc_malloc(sizeof *all * (size_t)(n ? n : 1));
  if (!all) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    return;
  }
  int k = 0;
  for (int i = 0; i < ctx->n_inputs; i++)
    for (int64_t j = 0; j < ctx->inputs[i]->nelems; j++)
      all[k++] = ((const tfc_string *)ctx->inputs[i]->data)[j];
  uint8_t *data = NULL;
  size_t len = 0;
  if (tfc_summary_merge(all, n, &data, &len, ctx->st)) emit(ctx, data, len);
  tfc_free(all);
}

static void tensor_summary_v2_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *tag = ctx->inputs[0], *t = ctx->inputs[1], *meta = ctx->inputs[2];
  if (tag->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "tag must be scalar");
    return;
  }
  if (meta->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "serialized_summary_metadata must be scalar");
    return;
  }
  uint8_t *data = NULL;
  size_t len = 0;
  if (tfc_summary_tensor(tag->data, t, meta->data, &data, &len, ctx->st)) emit(ctx, data, len);
}

static const tfc_kernel_def defs[] = {
    {"ScalarSummary", "CPU", NULL, NULL, NULL, scalar_summary_compute, NULL, 0},
    {"HistogramSummary", "CPU", NULL, NULL, NULL, histogram_summary_compute, NULL, 0},
    {"MergeSummary", "CPU", NULL, NULL, NULL, merge_summary_compute, NULL, 0},
    {"TensorSummaryV2", "CPU", NULL, NULL, NULL, tensor_summary_v2_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_summary = {defs, (int)(sizeof defs / sizeof defs[0])};
