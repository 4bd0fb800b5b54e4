/*
 * string_split.c — CPU kernels StringSplit and StringSplitV2: a vector of
 * strings into the SparseTensor (indices [n, 2], values [n], dense_shape
 * [batch, longest]) of their tokens.
 *
 *  StringSplit:   every byte of `delimiter` separates tokens (an empty
 *                 delimiter splits into single bytes); skip_empty drops empty
 *                 tokens.
 *  StringSplitV2: `sep` as a whole separates tokens, empty tokens kept; an
 *                 empty sep splits on runs of ASCII whitespace and drops
 *                 leading and trailing whitespace (Python's str.split());
 *                 maxsplit >= 0 limits the number of splits.
 */
#include <string.h>

#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/parsing_internal.h"

/* A token: bytes [off, off + len) of element row. */
typedef struct token {
  int64_t row;
  size_t off, len;
} token;

typedef struct tokens {
  token *v;
  int64_t n, cap;
  bool oom;
} tokens;

static void push(tokens *t, int64_t row, size_t off, size_t len) {
  if (t->oom) return;
  if (t->n == t->cap) {
    int64_t ncap = t->cap ? t->cap * 2 : 256;
    token *nv = tfc_realloc(t->v, sizeof *nv * (size_t)ncap);
    if (!nv) {
      t->oom = true;
      return;
    }
    t->v = nv;
    t->cap = ncap;
  }
  t->v[t->n++] = (token){row, off, len};
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

/* StringSplit's tokens of s. */
static void split_v1(tokens *t, int64_t row, const char *s, size_t n, const tfc_string *delim, bool skip_empty) {
  if (delim->len == 0) {
    for (size_t i = 0; i < n; i++) push(t, row, i, 1);
    return;
  }
  size_t start = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i == n || memchr(delim->data, s[i], delim->len)) {
      if (!skip_empty || i > start) push(t, row, start, i - start);
      start = i + 1;
    }
  }
}

/* StringSplitV2's tokens of s. */
static void split_v2(tokens *t, int64_t row, const char *s, size_t n, const tfc_string *sep, int64_t maxsplit) {
  int64_t splits = 0;
  if (sep->len == 0) {
    /* leading whitespace skipped; once maxsplit tokens are out, the rest
     * (trailing whitespace included, possibly empty) is the last token */
    size_t i = 0;
    while (i < n && is_space(s[i])) i++;
    while (i < n && (maxsplit < 0 || splits < maxsplit)) {
      size_t start = i;
      while (i < n && !is_space(s[i])) i++;
      push(t, row, start, i - start);
      splits++;
      while (i < n && is_space(s[i])) i++;
    }
    if (maxsplit >= 0 && splits == maxsplit) push(t, row, i, n - i);
    return;
  }
  size_t start = 0; /* like Python's str.split(sep): "" gives one empty token */
  for (;;) {
    const char *hit = NULL;
    if (maxsplit < 0 || splits < maxsplit)
      hit = n - start >= sep->len ? memmem(s + start, n - start, sep->data, sep->len) : NULL;
    if (!hit) {
      push(t, row, start, n - start);
      return;
    }
    size_t at = (size_t)(hit - s);
    push(t, row, start, at - start);
    splits++;
    start = at + sep->len;
  }
}

void tfc_string_split_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0], *d = ctx->inputs[1];
  bool v2 = strcmp(ctx->op_type, "StringSplitV2") == 0;
  if (in->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input must be a vector, got shape: rank %d", in->rank);
    return;
  }
  if (d->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be a scalar, got shape: rank %d",
                    v2 ? "sep" : "delimiter", d->rank);
    return;
  }
  bool skip_empty = true;
  int64_t maxsplit = -1;
  if (v2) tfc_attrs_get_int(ctx->attrs, "maxsplit", &maxsplit, ctx->st);
  else tfc_attrs_get_bool(ctx->attrs, "skip_empty", &skip_empty, ctx->st);
  tfc_status_clear(ctx->st);
  const tfc_string *sep = d->data, *s = in->data;
  tokens t = {0};
  int64_t longest = 0;
  for (int64_t r = 0; r < in->nelems; r++) {
    int64_t before = t.n;
    const char *p = s[r].data ? s[r].data : "";
    if (v2) split_v2(&t, r, p, s[r].len, sep, maxsplit);
    else split_v1(&t, r, p, s[r].len, sep, skip_empty);
    if (t.n - before > longest) longest = t.n - before;
  }
  if (t.oom) {
    tfc_free(t.v);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM splitting strings");
    return;
  }
  int64_t idims[2] = {t.n, 2}, two = 2;
  tfc_tensor *idx = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, 2, idims);
  tfc_tensor *vals = idx ? tfc_kernel_alloc_output(ctx, 1, TFC_DTYPE_STRING, 1, &t.n) : NULL;
  tfc_tensor *shape = vals ? tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_INT64, 1, &two) : NULL;
  if (shape) {
    int64_t *ip = idx->data, col = 0;
    for (int64_t i = 0; i < t.n; i++) {
      col = i > 0 && t.v[i].row == t.v[i - 1].row ? col + 1 : 0;
      ip[2 * i] = t.v[i].row;
      ip[2 * i + 1] = col;
      const char *base = s[t.v[i].row].data ? s[t.v[i].row].data : "";
      if (!tfc_tensor_set_string(vals, i, base + t.v[i].off, t.v[i].len, ctx->st)) break;
    }
    ((int64_t *)shape->data)[0] = in->nelems;
    ((int64_t *)shape->data)[1] = longest;
  }
  tfc_free(t.v);
}
