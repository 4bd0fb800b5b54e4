/*
 * patches.c — CPU kernels ExtractImagePatches and ExtractVolumePatches.
 *
 * Every output cell holds its window flattened in (rows, cols, channels)
 * order ((planes, rows, cols, channels) for volumes): window tap (i, j) of
 * output (y, x) reads input (y * stride + i * rate - pad_before, ...), zero
 * outside the input (SAME padding as a convolution with the effective
 * window (k - 1) * rate + 1). Elements are copied as bytes, so every type
 * works.
 */
#include <string.h>

#include "core/attr.h"
#include "kernels/conv_internal.h"
#include "kernels/kernel_tables.h"

/* Reads list attr `name` of n values into out with TF's checks ("Only
 * support <what> across space." for batch/depth entries other than 1). */
static bool read_list(tfc_kernel_ctx *ctx, const char *name, const char *what, int n, int64_t *out) {
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, name);
  if (!a || a->kind != TFC_ATTR_LIST || a->v.list.n != n)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Sliding window %s field must specify %d dimensions", name, n);
  for (int i = 0; i < n; i++) out[i] = a->v.list.v.i[i];
  if (out[0] != 1 || out[n - 1] != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "Only support %s across space.", what);
  return true;
}

/* Extracts n-D patches (n = 2 or 3) of input x into a new output 0. */
static void patches_compute(tfc_kernel_ctx *ctx, int n) {
  int64_t ks[5], st[5], rt[5] = {1, 1, 1, 1, 1};
  if (!read_list(ctx, "ksizes", "ksizes", n + 2, ks) ||
      !read_list(ctx, "strides", "strides", n + 2, st))
    return;
  if (n == 2 && !read_list(ctx, "rates", "rates", 4, rt)) return;
  const tfc_tensor *x = ctx->inputs[0];
  if (x->rank != n + 2) {
    char b[64];
    tfc_conv_dims_str(x, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be %d-dimensional%s", n + 2, b);
    return;
  }
  bool same = tfc_attrs_string_is(ctx->attrs, "padding", "SAME");
  int64_t out[3], pad[3], in[3], od[5], taps = 1;
  for (int i = 0; i < n; i++) {
    int64_t after;
    in[i] = x->dims[1 + i];
    if (!tfc_windowed_output_size(ctx, in[i], ks[1 + i], rt[1 + i], st[1 + i],
                                  same ? TFC_PAD_SAME : TFC_PAD_VALID, &pad[i], &after, &out[i]))
      return;
    od[1 + i] = out[i];
    taps *= ks[1 + i];
  }
  int64_t batch = x->dims[0], c = x->dims[n + 1];
  od[0] = batch;
  od[n + 1] = c * taps;
  tfc_tensor *y = tfc_kernel_alloc_output(ctx, 0, x->dtype, n + 2, od);
  if (!y || y->nelems == 0) return;
  size_t es = tfc_dtype_size(x->dtype), row = es * (size_t)c;
  const char *src = x->data;
  char *dst = y->data;
  if (n == 2) {
    out[2] = 1, in[2] = 1, pad[2] = 0;
  }
  /* Uniform 3-D loop; 2-D images use a third axis of extent 1. */
  int64_t kk[3] = {ks[1], ks[2], n == 3 ? ks[3] : 1};
  int64_t ss[3] = {st[1], st[2], n == 3 ? st[3] : 1};
  int64_t rr[3] = {rt[1], rt[2], 1};
  for (int64_t b = 0; b < batch; b++)
    for (int64_t o0 = 0; o0 < out[0]; o0++)
      for (int64_t o1 = 0; o1 < out[1]; o1++)
        for (int64_t o2 = 0; o2 < out[2]; o2++)
          for (int64_t a = 0; a < kk[0]; a++) {
            int64_t i0 = o0 * ss[0] + a * rr[0] - pad[0];
            for (int64_t bb = 0; bb < kk[1]; bb++) {
              int64_t i1 = o1 * ss[1] + bb * rr[1] - pad[1];
              for (int64_t cc = 0; cc < kk[2]; cc++, dst += row) {
                int64_t i2 = o2 * ss[2] + cc * rr[2] - pad[2];
                if (i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1] || i2 < 0 || i2 >= in[2]) {
                  memset(dst, 0, row);
                  continue;
                }
                int64_t cell = ((b * in[0] + i0) * in[1] + i1) * in[2] + i2;
                memcpy(dst, src + (size_t)cell * row, row);
              }
            }
          }
}

/* ExtractImagePatches(images). */
static void image_patches_compute(tfc_kernel_ctx *ctx) { patches_compute(ctx, 2); }
/* ExtractVolumePatches(input). */
static void volume_patches_compute(tfc_kernel_ctx *ctx) { patches_compute(ctx, 3); }

static const tfc_kernel_def defs[] = {
    {"ExtractImagePatches", "CPU", NULL, NULL, NULL, image_patches_compute, NULL, 0},
    {"ExtractVolumePatches", "CPU", NULL, NULL, NULL, volume_patches_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_patches = {defs, (int)(sizeof defs / sizeof defs[0])};
