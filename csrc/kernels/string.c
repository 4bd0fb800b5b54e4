/*
 * string.c — CPU kernels of string ops: StringJoin (elementwise join of
 * scalars and same-shaped tensors) and StaticRegexFullMatch (the pattern,
 * compiled once per kernel with POSIX extended regular expressions, must
 * match a whole element; TF uses RE2, whose syntax agrees with POSIX ERE on
 * the common subset: literals, classes, anchors, groups, *, +, ?, {m,n}, |).
 */
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "kernels/kernel.h"

static void string_join_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *shaped = NULL;
  for (int i = 0; i < ctx->n_inputs; i++) {
    const tfc_tensor *t = ctx->inputs[i];
    if (t->rank == 0) continue;
    if (shaped && !tfc_tensor_same_shape(shaped, t)) {
      char a[128], b[128];
      tfc_shape sa = tfc_tensor_shape(shaped), sb = tfc_tensor_shape(t);
      tfc_shape_debug_string(&sa, a, sizeof a);
      tfc_shape_debug_string(&sb, b, sizeof b);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input shapes do not match: %s vs. %s", a, b);
      return;
    }
    if (!shaped) shaped = t;
  }
  const tfc_string *sep;
  if (!tfc_attrs_get_string(ctx->attrs, "separator", &sep, ctx->st)) return;
  tfc_tensor *out = shaped ? tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, shaped->rank, shaped->dims)
                           : tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 0, NULL);
  if (!out) return;
  tfc_strbuf b;
  tfc_strbuf_init(&b);
  for (int64_t k = 0; k < out->nelems; k++) {
    b.len = 0;
    for (int i = 0; i < ctx->n_inputs; i++) {
      const tfc_tensor *t = ctx->inputs[i];
      const tfc_string *s = (const tfc_string *)t->data + (t->rank == 0 ? 0 : k);
      if (i && sep->len) tfc_strbuf_append(&b, sep->data, sep->len);
      if (s->len) tfc_strbuf_append(&b, s->data, s->len);
    }
    if (b.oom) {
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM joining strings");
      break;
    }
    if (!tfc_tensor_set_string(out, k, b.data ? b.data : "", b.len, ctx->st)) break;
  }
  tfc_strbuf_free(&b);
}

/* Compiles ^(pattern)$ once per kernel. */
static bool regex_init(const tfc_kernel_init *ki, void **state) {
  const tfc_string *pat;
  if (!tfc_attrs_get_string(ki->attrs, "pattern", &pat, ki->st)) return false;
  char *src = tfc_malloc(pat->len + 8);
  regex_t *re = tfc_malloc(sizeof *re);
  if (!src || !re) {
    tfc_free(src);
    tfc_free(re);
    return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  }
  if (memchr(pat->data ? pat->data : "", 0, pat->len)) {
    tfc_free(src);
    tfc_free(re);
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Invalid pattern: contains a NUL byte");
  }
  snprintf(src, pat->len + 8, "^(%.*s)$", (int)pat->len, pat->data ? pat->data : "");
  int rc = regcomp(re, src, REG_EXTENDED | REG_NOSUB);
  tfc_free(src);
  if (rc != 0) {
    char err[256];
    regerror(rc, re, err, sizeof err);
    tfc_free(re);
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Invalid pattern: %.*s, error: %s",
                          (int)pat->len, pat->data ? pat->data : "", err);
  }
  *state = re;
  return true;
}

static void regex_destroy(void *state) {
  if (!state) return;
  regfree(state);
  tfc_free(state);
}

static void static_regex_full_match_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_BOOL, in->rank, in->dims);
  if (!out) return;
  const tfc_string *s = in->data;
  bool *o = out->data;
  char small[256];
  for (int64_t i = 0; i < in->nelems; i++) {
    /* regexec needs a NUL-terminated subject; an embedded NUL cannot match the whole element */
    if (s[i].len && memchr(s[i].data, 0, s[i].len)) {
      o[i] = false;
      continue;
    }
    char *subj = s[i].len < sizeof small ? small : tfc_malloc(s[i].len + 1);
    if (!subj) {
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
      return;
    }
    if (s[i].len) memcpy(subj, s[i].data, s[i].len);
    subj[s[i].len] = 0;
    o[i] = regexec(ctx->state, subj, 0, NULL, 0) == 0;
    if (subj != small) tfc_free(subj);
  }
}

static const tfc_kernel_def defs[] = {
    {"StringJoin", "CPU", NULL, NULL, NULL, string_join_compute, NULL, 0},
    {"StaticRegexFullMatch", "CPU", NULL, NULL, regex_init, static_regex_full_match_compute,
     regex_destroy, 0},
};

const tfc_kernel_table tfc_kernels_string = {defs, (int)(sizeof defs / sizeof defs[0])};
