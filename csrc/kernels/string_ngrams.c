/*
 * string_ngrams.c — CPU kernel for StringNGrams (core/ops_strings.c): the
 * n-grams of each row of a ragged string vector (data, data_splits), with
 * TF's padding rules.
 *
 * For each row and each width w of ngram_widths (in order) the row gets
 * max(0, len + 2p - w + 1) n-grams, p = min(pad_width < 0 ? w - 1 :
 * pad_width, w - 1): windows over the row padded with p copies of left_pad
 * and right_pad, tokens joined by `separator`. With
 * preserve_short_sequences, a non-empty row that got none gets one n-gram of
 * all its tokens and pad_width pads on each side.
 */
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* The node's settings. */
typedef struct ngram_cfg {
  tfc_string sep, lpad, rpad;
  int64_t pad_width;
  bool preserve;
  const int64_t *widths;
  int n_widths;
} ngram_cfg;

/* The padding on each side for width w. */
static int64_t pad_for(const ngram_cfg *c, int64_t w) {
  int64_t p = c->pad_width < 0 ? w - 1 : c->pad_width;
  return p < w - 1 ? p : w - 1;
}

/* The number of n-grams of width w over a row of len tokens. */
static int64_t count_for(const ngram_cfg *c, int64_t len, int64_t w) {
  int64_t n = len + 2 * pad_for(c, w) - w + 1;
  return n > 0 ? n : 0;
}

/* Appends a tfc_string. */
static void put(tfc_strbuf *b, const tfc_string *s) { tfc_strbuf_append(b, s->data ? s->data : "", s->len); }

/* Writes the `num` n-grams of width w (padding p) of the row `data` to
 * out[0..num). false on OOM (st set). */
static bool make_ngrams(const ngram_cfg *c, const tfc_string *data, int64_t num, int64_t w,
                        int64_t p, tfc_tensor *out, int64_t at, tfc_status *st) {
  for (int64_t k = 0; k < num; k++) {
    int64_t left = p - k > 0 ? p - k : 0;
    int64_t right = p - (num - (k + 1)) > 0 ? p - (num - (k + 1)) : 0;
    int64_t ntok = w - (left + right);
    int64_t start = left > 0 ? 0 : k - p;
    tfc_strbuf b;
    tfc_strbuf_init(&b);
    for (int64_t n = 0; n < left; n++) {
      put(&b, &c->lpad);
      put(&b, &c->sep);
    }
    for (int64_t n = 0; n < ntok - 1; n++) {
      put(&b, &data[start + n]);
      put(&b, &c->sep);
    }
    if (ntok > 0) {
      put(&b, &data[start + ntok - 1]);
      for (int64_t n = 0; n < right; n++) {
        put(&b, &c->sep);
        put(&b, &c->rpad);
      }
    } else {
      for (int64_t n = 0; n < right - 1; n++) {
        put(&b, &c->rpad);
        put(&b, &c->sep);
      }
      put(&b, &c->rpad);
    }
    bool ok = !b.oom && tfc_tensor_set_string(out, at + k, b.data ? b.data : "", b.len, st);
    if (b.oom) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory in StringNGrams");
    tfc_strbuf_free(&b);
    if (!ok) return false;
  }
  return true;
}

/* Reads a string attr into *out (empty when absent). */
static void str_attr(const tfc_kernel_ctx *ctx, const char *name, tfc_string *out) {
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, name);
  if (a && a->kind == TFC_ATTR_S) *out = a->v.s;
  else memset(out, 0, sizeof *out);
}

/* StringNGrams compute (see the file comment). */
static void ngrams_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *data = ctx->inputs[0], *splits = ctx->inputs[1];
  ngram_cfg c;
  memset(&c, 0, sizeof c);
  str_attr(ctx, "separator", &c.sep);
  str_attr(ctx, "left_pad", &c.lpad);
  str_attr(ctx, "right_pad", &c.rpad);
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "pad_width");
  c.pad_width = a && a->kind == TFC_ATTR_I ? a->v.i : 0;
  a = tfc_attrs_find(ctx->attrs, "preserve_short_sequences");
  c.preserve = a && a->kind == TFC_ATTR_B && a->v.b;
  a = tfc_attrs_find(ctx->attrs, "ngram_widths");
  if (a && a->kind == TFC_ATTR_LIST && a->v.list.kind == TFC_ATTR_I) {
    c.widths = a->v.list.v.i;
    c.n_widths = a->v.list.n;
  }
  for (int k = 0; k < c.n_widths; k++)
    if (c.widths[k] <= 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "ngram_widths must contain positive values");
      return;
    }
  if (data->rank != 1 || splits->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "data and data_splits must be vectors");
    return;
  }
  int64_t rows = splits->nelems > 0 ? splits->nelems - 1 : 0;
  int64_t prev = 0;
  for (int64_t i = 0; i < splits->nelems; i++) {
    int64_t s = tfc_tensor_get_int64(splits, i);
    if (s < prev || s > data->nelems || (i == 0 && s != 0)) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid split value %lld, must be in [%lld,%lld]",
                      (long long)s, (long long)prev, (long long)data->nelems);
      return;
    }
    prev = s;
  }
  int64_t nsplits = splits->nelems;
  tfc_tensor *out_splits = tfc_kernel_alloc_output(ctx, 1, splits->dtype, 1, &nsplits);
  if (out_splits == NULL) return;
  int64_t *counts = tfc_calloc((size_t)(rows + 1), sizeof *counts);
  if (counts == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory in StringNGrams");
    return;
  }
  int64_t total = 0;
  for (int64_t i = 0; i < rows; i++) {
    int64_t len = tfc_tensor_get_int64(splits, i + 1) - tfc_tensor_get_int64(splits, i);
    int64_t n = 0;
    for (int k = 0; k < c.n_widths; k++) n += count_for(&c, len, c.widths[k]);
    if (c.preserve && len > 0 && n == 0) n = 1;
    counts[i] = n;
    total += n;
  }
  int64_t acc = 0;
  for (int64_t i = 0; i < nsplits; i++) {
    if (splits->dtype == TFC_DTYPE_INT32) ((int32_t *)out_splits->data)[i] = (int32_t)acc;
    else ((int64_t *)out_splits->data)[i] = acc;
    if (i < rows) acc += counts[i];
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 1, &total);
  const tfc_string *d = data->data;
  int64_t at = 0;
  for (int64_t i = 0; out != NULL && i < rows; i++) {
    int64_t start = tfc_tensor_get_int64(splits, i);
    int64_t len = tfc_tensor_get_int64(splits, i + 1) - start;
    int64_t row_start = at;
    for (int k = 0; k < c.n_widths; k++) {
      int64_t w = c.widths[k], num = count_for(&c, len, w);
      if (!make_ngrams(&c, d + start, num, w, pad_for(&c, w), out, at, ctx->st)) goto done;
      at += num;
    }
    if (c.preserve && at == row_start && len > 0) {
      int64_t w = len + 2 * c.pad_width;
      ngram_cfg short_cfg = c;
      short_cfg.pad_width = c.pad_width;
      if (!make_ngrams(&short_cfg, d + start, 1, w, pad_for(&short_cfg, w), out, at, ctx->st)) goto done;
      at += 1;
    }
  }
done:
  tfc_free(counts);
}

static const tfc_kernel_def defs[] = {
    {"StringNGrams", "CPU", NULL, NULL, NULL, ngrams_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_string_ngrams = {defs, (int)(sizeof defs / sizeof defs[0])};
