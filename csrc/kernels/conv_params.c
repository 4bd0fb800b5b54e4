/*
 * conv_params.c — the window attributes of convolution and pooling kernels
 * (strides, dilations, ksize, padding, explicit_paddings, data_format),
 * checked with the messages of TF's CPU kernel constructors, and TF's
 * windowed output-size rule shared by every conv/pool kernel.
 */
#include <stdio.h>
#include <string.h>

#include "kernels/conv_internal.h"

/* Writes t's dims as "[2,3]" into buf. */
void tfc_conv_dims_str(const tfc_tensor *t, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < t->rank && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? "," : "", (long long)t->dims[i]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* Threads of the intra-op pool plus the caller. */
int tfc_conv_threads(const tfc_kernel_ctx *ctx) {
  return ctx->intra_pool ? tfc_threadpool_size(ctx->intra_pool) + 1 : 1;
}

/* Reads list(int) attr `name` into out (at most max values); returns the
 * count, or -1 when the attr is missing or not an int list (ctx failed). */
static int read_int_list(tfc_kernel_ctx *ctx, const char *name, int64_t *out, int max) {
  const tfc_attr_list *l;
  if (!tfc_attrs_get_list(ctx->attrs, name, &l, ctx->st)) return -1;
  if (l->n > 0 && l->kind != TFC_ATTR_I) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Attr %s is not a list of ints", name);
    return -1;
  }
  for (int i = 0; i < l->n && i < max; i++) out[i] = l->v.i[i];
  return l->n;
}

/* TF's CheckValidPadding for 4-D NHWC/NCHW tensors. */
static bool check_valid_padding(tfc_kernel_ctx *ctx, tfc_padding p, const int64_t *pads, int n,
                                bool nchw) {
  if (p == TFC_PAD_EXPLICIT) {
    if (n != 8)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "explicit_paddings attribute must contain 8 values, but got: %d", n);
    for (int i = 0; i < 8; i++)
      if (pads[i] < 0)
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                               "All elements of explicit_paddings must be nonnegative");
    int c = nchw ? 1 : 3;
    if (pads[0] != 0 || pads[1] != 0 || pads[2 * c] != 0 || pads[2 * c + 1] != 0)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Nonzero explicit padding in the batch or depth dimensions is not "
                             "supported");
  } else if (n != 0) {
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "explicit_paddings attribute must be empty if the padding attribute "
                           "is not EXPLICIT");
  }
  return true;
}

/* Reads the window attrs and applies the constructor checks of TF's CPU
 * kernels for the kind (see conv_internal.h). */
bool tfc_window_read_attrs(tfc_kernel_ctx *ctx, tfc_window_kind kind, tfc_window_attrs *a) {
  memset(a, 0, sizeof *a);
  for (int i = 0; i < 4; i++) a->strides[i] = a->dilations[i] = a->ksize[i] = 1;
  const tfc_attr_value *df = tfc_attrs_find(ctx->attrs, "data_format");
  a->nchw = df && !tfc_attrs_string_is(ctx->attrs, "data_format", "NHWC");
  if (tfc_attrs_string_is(ctx->attrs, "padding", "SAME")) a->padding = TFC_PAD_SAME;
  else if (tfc_attrs_string_is(ctx->attrs, "padding", "VALID")) a->padding = TFC_PAD_VALID;
  else if (tfc_attrs_string_is(ctx->attrs, "padding", "EXPLICIT")) a->padding = TFC_PAD_EXPLICIT;
  else return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid padding");
  int hi = a->nchw ? 2 : 1, wi = a->nchw ? 3 : 2, ci = a->nchw ? 1 : 3;

  int npads = 0;
  if (tfc_attrs_find(ctx->attrs, "explicit_paddings")) {
    npads = read_int_list(ctx, "explicit_paddings", a->explicit_paddings, 8);
    if (npads < 0) return false;
  }

  if (kind == TFC_WIN_POOL) {
    bool has_ksize = tfc_attrs_find(ctx->attrs, "ksize") != NULL;
    if (has_ksize) {
      int nk = read_int_list(ctx, "ksize", a->ksize, 4);
      if (nk < 0) return false;
      if (nk != 4)
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Sliding window ksize field must specify 4 dimensions");
      for (int i = 0; i < 4; i++)
        if (a->ksize[i] <= 0)
          return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                                 "Sliding window ksize for dimension %d was zero.", i);
    }
    if (tfc_attrs_find(ctx->attrs, "strides")) {
      int ns = read_int_list(ctx, "strides", a->strides, 4);
      if (ns < 0) return false;
      if (ns != 4)
        return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                               "Sliding window stride field must specify 4 dimensions");
    }
    if (a->padding == TFC_PAD_EXPLICIT && !check_valid_padding(ctx, a->padding, a->explicit_paddings,
                                                               npads, a->nchw))
      return false;
    if (has_ksize && (a->ksize[0] != 1 || a->strides[0] != 1))
      return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                             "Pooling is not yet supported on the batch dimension.");
    return true;
  }

  int nd = read_int_list(ctx, "dilations", a->dilations, 4);
  if (nd < 0) return false;
  int ns = read_int_list(ctx, "strides", a->strides, 4);
  if (ns < 0) return false;
  if (nd != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Sliding window dilations field must specify 4 dimensions");
  if (ns != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Sliding window strides field must specify 4 dimensions");
  if (a->strides[0] != 1 || a->strides[ci] != 1)
    return tfc_kernel_fail(ctx, kind == TFC_WIN_CONV ? TFC_CODE_UNIMPLEMENTED : TFC_CODE_INVALID_ARGUMENT,
                           "Current implementation does not yet support strides in the batch and "
                           "depth dimensions.");
  if (a->strides[hi] <= 0 || a->strides[wi] <= 0)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Row and column strides should be larger than 0.");
  if (a->dilations[0] != 1 || a->dilations[ci] != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "Current implementation does not yet support dilations in the batch "
                           "and depth dimensions.");
  if (a->dilations[hi] <= 0 || a->dilations[wi] <= 0)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dilated rates should be larger than 0.");
  return check_valid_padding(ctx, a->padding, a->explicit_paddings, npads, a->nchw);
}

/* Reads MaxPoolV2's ksize/strides input. */
bool tfc_window_read_vec4(tfc_kernel_ctx *ctx, const tfc_tensor *t, const char *what, int64_t *out) {
  int64_t v[8];
  int n = tfc_kernel_read_int_vector(ctx, t, v, 8, what);
  if (n < 0) return false;
  if (n != 4)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Sliding window %s field must specify 4 dimensions", what);
  memcpy(out, v, 4 * sizeof v[0]);
  return true;
}

/* TF's GetWindowedOutputSizeVerboseV2 (see conv_internal.h). */
bool tfc_windowed_output_size(tfc_kernel_ctx *ctx, int64_t in, int64_t k, int64_t dilation,
                              int64_t stride, tfc_padding p, int64_t *pad_before,
                              int64_t *pad_after, int64_t *out) {
  if (stride <= 0)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Stride must be > 0, but got %lld",
                           (long long)stride);
  if (dilation < 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dilation rate must be >= 1, but got %lld",
                           (long long)dilation);
  int64_t eff = (k - 1) * dilation + 1;
  switch (p) {
    case TFC_PAD_VALID:
      *out = (in - eff + stride) / stride;
      *pad_before = *pad_after = 0;
      break;
    case TFC_PAD_EXPLICIT:
      *out = (in + *pad_before + *pad_after - eff + stride) / stride;
      break;
    case TFC_PAD_SAME: {
      *out = (in + stride - 1) / stride;
      int64_t need = (*out - 1) * stride + eff - in;
      if (need < 0) need = 0;
      *pad_before = need / 2;
      *pad_after = need - *pad_before;
      break;
    }
  }
  if (*out < 0)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Computed output size would be negative: %lld [input_size: %lld, "
                           "effective_filter_size: %lld, stride: %lld]",
                           (long long)*out, (long long)in, (long long)eff, (long long)stride);
  return true;
}
