/*
 * summary.c — CPU kernels of ScalarSummary, HistogramSummary, MergeSummary,
 * TensorSummaryV2, ImageSummary and AudioSummaryV2: each outputs a scalar
 * string holding a serialized tensorflow.Summary (io/summary.h), with TF's
 * input checks and messages. Images are PNG-encoded by kernels/png.c (float
 * images scaled per image as TF does), audio clips WAV-encoded by io/wav.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "io/summary.h"
#include "io/wav.h"
#include "kernels/image_internal.h"
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

/* TF's legacy scalar: a scalar or a one-element vector. */
static bool legacy_scalar(const tfc_tensor *t) { return t->rank == 0 || (t->rank == 1 && t->dims[0] == 1); }

/* "[d0,d1,...]" of t's shape (TF's TensorShape::DebugString). */
static void shape_text(const tfc_tensor *t, char *buf, size_t size) {
  tfc_shape sh = tfc_tensor_shape(t);
  tfc_shape_debug_string(&sh, buf, size);
}

/* "tag/<kind>/i" when max > 1, else "tag/<kind>", into buf; its length. */
static size_t media_tag(const tfc_string *base, const char *kind, int64_t max, int i, char *buf,
                        size_t size) {
  int n = max > 1 ? snprintf(buf, size, "%.*s/%s/%d", (int)base->len, base->data ? base->data : "", kind, i)
                  : snprintf(buf, size, "%.*s/%s", (int)base->len, base->data ? base->data : "", kind);
  return n < 0 ? 0 : (size_t)n >= size ? size - 1 : (size_t)n;
}

/* Element k of a float-like image tensor as float (the dtype's value). */
static float pixel(const tfc_tensor *t, int64_t k) {
  switch (t->dtype) {
    case TFC_DTYPE_HALF: return tfc_half_to_float(((const tfc_half *)t->data)[k]);
    case TFC_DTYPE_DOUBLE: return (float)((const double *)t->data)[k];
    default: return ((const float *)t->data)[k];
  }
}

/* True when pixel p (depth channels from element base) is finite. */
static bool pixel_finite(const tfc_tensor *t, int64_t base, int depth) {
  for (int j = 0; j < depth; j++) {
    double v = t->dtype == TFC_DTYPE_DOUBLE ? ((const double *)t->data)[base + j] : (double)pixel(t, base + j);
    if (!isfinite(v)) return false;
  }
  return true;
}

/* TF's per-image scaling of a float/half/double image (hw pixels of depth
 * channels from element `first`) into out: all finite values >= 0 scale so
 * the largest is 255; otherwise they scale by 127 / max |v| around 128; the
 * arithmetic in the image's own type, then truncated to uint8; pixels with a
 * non-finite channel take bad_color. */
static void normalize_image(const tfc_tensor *t, int64_t first, int64_t hw, int depth, const uint8_t *bad,
                            uint8_t *out) {
  float lo = INFINITY, hi = -INFINITY;
  for (int64_t i = 0; i < hw; i++) {
    int64_t b = first + i * depth;
    if (!pixel_finite(t, b, depth)) continue;
    for (int j = 0; j < depth; j++) {
      float v = pixel(t, b + j);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
  }
  float scale, offset;
  if (lo < 0) {
    float m = fabsf(lo) > fabsf(hi) ? fabsf(lo) : fabsf(hi);
    scale = m < 1e-6f ? 0.0f : 127.0f / m;
    offset = 128.0f;
  } else {
    scale = hi < 1e-6f ? 0.0f : 255.0f / hi;
    offset = 0.0f;
  }
  bool half = t->dtype == TFC_DTYPE_HALF, dbl = t->dtype == TFC_DTYPE_DOUBLE;
  if (half) scale = tfc_half_to_float(tfc_float_to_half(scale));
  for (int64_t i = 0; i < hw; i++) {
    int64_t b = first + i * depth;
    uint8_t *o = out + i * depth;
    if (!pixel_finite(t, b, depth)) {
      memcpy(o, bad, (size_t)depth);
      continue;
    }
    for (int j = 0; j < depth; j++) {
      if (dbl) {
        o[j] = (uint8_t)(((const double *)t->data)[b + j] * (double)scale + (double)offset);
      } else if (half) {
        float p = tfc_half_to_float(tfc_float_to_half(pixel(t, b + j) * scale));
        o[j] = (uint8_t)tfc_half_to_float(tfc_float_to_half(p + offset));
      } else {
        o[j] = (uint8_t)(pixel(t, b + j) * scale + offset);
      }
    }
  }
}

static void image_summary_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *tag = ctx->inputs[0], *t = ctx->inputs[1];
  int64_t max_images = 3;
  const tfc_attr_value *mv = tfc_attrs_find(ctx->attrs, "max_images");
  if (mv && mv->kind == TFC_ATTR_I) max_images = mv->v.i;
  if (max_images >= (1ll << 31)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "max_images must be < 2^31");
    return;
  }
  static const uint8_t red[4] = {255, 0, 0, 255};
  const uint8_t *bad = red;
  int64_t n_bad = 4;
  const tfc_attr_value *bv = tfc_attrs_find(ctx->attrs, "bad_color");
  if (bv && bv->kind == TFC_ATTR_TENSOR && bv->v.tensor) {
    const tfc_tensor *bc = bv->v.tensor;
    char sh[128];
    if (bc->dtype != TFC_DTYPE_UINT8) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "bad_color must be uint8, got %s", tfc_dtype_name(bc->dtype));
      return;
    }
    if (bc->rank != 1) {
      shape_text(bc, sh, sizeof sh);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "bad_color must be a vector, got shape %s", sh);
      return;
    }
    bad = bc->data;
    n_bad = bc->dims[0];
  }
  char sh[256];
  if (!legacy_scalar(tag) || tag->dtype != TFC_DTYPE_STRING) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tags must be a scalar");
    return;
  }
  if (t->rank != 4 || (t->dims[3] != 1 && t->dims[3] != 3 && t->dims[3] != 4)) {
    shape_text(t, sh, sizeof sh);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tensor must be 4-D with last dim 1, 3, or 4, not %s", sh);
    return;
  }
  if (t->dims[0] >= (1ll << 31) || t->dims[1] >= (1ll << 31) || t->dims[2] >= (1ll << 31) ||
      t->dims[1] * t->dims[2] >= (1ll << 29)) {
    shape_text(t, sh, sizeof sh);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tensor too large for summary %s", sh);
    return;
  }
  int batch = (int)t->dims[0], h = (int)t->dims[1], w = (int)t->dims[2], depth = (int)t->dims[3];
  int64_t hw = (int64_t)h * w;
  bool is_u8 = t->dtype == TFC_DTYPE_UINT8;
  if (!is_u8 && n_bad < depth) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "expected depth <= bad_color.size, got depth = %d, bad_color.size = %lld",
                    depth, (long long)n_bad);
    return;
  }
  int n = (int)(max_images < batch ? max_images : batch);
  tfc_summary_media *media = tfc_calloc((size_t)(n ? n : 1), sizeof *media);
  char **tags = tfc_calloc((size_t)(n ? n : 1), sizeof *tags);
  uint8_t *scratch = is_u8 ? NULL : tfc_malloc((size_t)(hw * depth > 0 ? hw * depth : 1));
  bool ok = media && tags && (is_u8 || scratch);
  if (!ok) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM building an image summary");
  for (int i = 0; ok && i < n; i++) {
    tags[i] = tfc_malloc(tag->nelems ? ((const tfc_string *)tag->data)->len + 32 : 32);
    if (!tags[i]) {
      ok = false;
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM building an image summary");
      break;
    }
    const tfc_string *base = tag->data;
    media[i].tag = tags[i];
    media[i].tag_len = media_tag(base, "image", max_images, i, tags[i], base->len + 32);
    const uint8_t *pixels;
    if (is_u8) {
      pixels = (const uint8_t *)t->data + (int64_t)i * hw * depth;
    } else {
      normalize_image(t, (int64_t)i * hw * depth, hw, depth, bad, scratch);
      pixels = scratch;
    }
    char *png = NULL;
    size_t len = 0;
    if (!tfc_png_encode(pixels, h, w, depth, 8, -1, &png, &len, ctx->st)) {
      ok = false;
      break;
    }
    media[i].data = (const uint8_t *)png;
    media[i].len = len;
    media[i].height = h;
    media[i].width = w;
    media[i].colorspace = depth;
  }
  uint8_t *data = NULL;
  size_t len = 0;
  if (ok && tfc_summary_media_values(media, n, false, &data, &len, ctx->st)) emit(ctx, data, len);
  for (int i = 0; media && tags && i < n; i++) {
    tfc_free((void *)media[i].data);
    tfc_free(tags[i]);
  }
  tfc_free(media);
  tfc_free(tags);
  tfc_free(scratch);
}

static void audio_summary_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *tag = ctx->inputs[0], *t = ctx->inputs[1], *rate = ctx->inputs[2];
  int64_t max_outputs = 3;
  const tfc_attr_value *mv = tfc_attrs_find(ctx->attrs, "max_outputs");
  if (mv && mv->kind == TFC_ATTR_I) max_outputs = mv->v.i;
  if (max_outputs <= 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "max_outputs must be > 0");
    return;
  }
  char sh[256];
  if (!legacy_scalar(tag) || tag->dtype != TFC_DTYPE_STRING) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tag must be a scalar");
    return;
  }
  if (t->rank < 2 || t->rank > 3) {
    shape_text(t, sh, sizeof sh);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Tensor must be 3-D or 2-D, got: %s", sh);
    return;
  }
  if (rate->nelems < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "sample_rate must be a scalar");
    return;
  }
  float sample_rate = ((const float *)rate->data)[0];
  if (!(sample_rate > 0.0f)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "sample_rate must be > 0");
    return;
  }
  int64_t batch = t->dims[0], frames = t->dims[1], channels = t->rank == 2 ? 1 : t->dims[2];
  int n = (int)(max_outputs < batch ? max_outputs : batch);
  long rounded = lrintf(sample_rate);
  uint64_t rate_int = rounded <= 0 ? 1 : (uint64_t)rounded;
  tfc_summary_media *media = tfc_calloc((size_t)(n ? n : 1), sizeof *media);
  char **tags = tfc_calloc((size_t)(n ? n : 1), sizeof *tags);
  bool ok = media && tags;
  if (!ok) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM building an audio summary");
  const tfc_string *base = tag->data;
  for (int i = 0; ok && i < n; i++) {
    tags[i] = tfc_malloc(base->len + 32);
    if (!tags[i]) {
      ok = false;
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM building an audio summary");
      break;
    }
    media[i].tag = tags[i];
    media[i].tag_len = media_tag(base, "audio", max_outputs, i, tags[i], base->len + 32);
    uint8_t *wav = NULL;
    size_t len = 0;
    const float *clip = (const float *)t->data + (int64_t)i * frames * channels;
    if (!tfc_wav_encode_s16le(clip, rate_int, (uint64_t)channels, (uint64_t)frames, &wav, &len, ctx->st)) {
      ok = false;
      break;
    }
    media[i].data = wav;
    media[i].len = len;
    media[i].sample_rate = sample_rate;
    media[i].num_channels = channels;
    media[i].length_frames = frames;
  }
  uint8_t *data = NULL;
  size_t len = 0;
  if (ok && tfc_summary_media_values(media, n, true, &data, &len, ctx->st)) emit(ctx, data, len);
  for (int i = 0; media && tags && i < n; i++) {
    tfc_free((void *)media[i].data);
    tfc_free(tags[i]);
  }
  tfc_free(media);
  tfc_free(tags);
}

static const tfc_kernel_def defs[] = {
    {"ScalarSummary", "CPU", NULL, NULL, NULL, scalar_summary_compute, NULL, 0},
    {"HistogramSummary", "CPU", NULL, NULL, NULL, histogram_summary_compute, NULL, 0},
    {"MergeSummary", "CPU", NULL, NULL, NULL, merge_summary_compute, NULL, 0},
    {"TensorSummaryV2", "CPU", NULL, NULL, NULL, tensor_summary_v2_compute, NULL, 0},
    {"ImageSummary", "CPU", NULL, NULL, NULL, image_summary_compute, NULL, 0},
    {"AudioSummaryV2", "CPU", NULL, NULL, NULL, audio_summary_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_summary = {defs, (int)(sizeof defs / sizeof defs[0])};
