/*
 * string_format.c — CPU kernel for StringFormat (core/ops_strings.c): the
 * template with each occurrence of `placeholder` replaced, in order, by the
 * print_v2 summary of the matching input (kernels/summarize.h), at most
 * `summarize` entries at each end of every dimension (-1: all).
 */
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/summarize.h"

typedef struct format_state {
  char *tmpl;
  size_t tmpl_len;
  char *ph;
  size_t ph_len;
  int64_t summarize;
} format_state;

/* Frees a format_state. */
static void format_destroy(void *p) {
  format_state *s = p;
  if (s == NULL) return;
  tfc_free(s->tmpl);
  tfc_free(s->ph);
  tfc_free(s);
}

/* Counts the non-overlapping occurrences of ph (non-empty) in text. */
static int64_t count_placeholders(const char *text, size_t n, const char *ph, size_t m) {
  int64_t count = 0;
  for (size_t i = 0; m > 0 && i + m <= n;) {
    if (memcmp(text + i, ph, m) == 0) {
      count++;
      i += m;
    } else {
      i++;
    }
  }
  return count;
}

/* StringFormat init: copies template, placeholder and summarize; the number
 * of placeholders must equal the number of inputs (else INVALID_ARGUMENT). */
static bool format_init(const tfc_kernel_init *ki, void **state) {
  const tfc_attr_value *t = tfc_attrs_find(ki->attrs, "template");
  const tfc_attr_value *p = tfc_attrs_find(ki->attrs, "placeholder");
  const tfc_attr_value *n = tfc_attrs_find(ki->attrs, "summarize");
  format_state *s = tfc_calloc(1, sizeof *s);
  if (s == NULL) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  s->tmpl_len = (t && t->kind == TFC_ATTR_S) ? t->v.s.len : 2;
  s->tmpl = tfc_strndup((t && t->kind == TFC_ATTR_S && t->v.s.data) ? t->v.s.data : "%s", s->tmpl_len);
  s->ph_len = (p && p->kind == TFC_ATTR_S) ? p->v.s.len : 2;
  s->ph = tfc_strndup((p && p->kind == TFC_ATTR_S && p->v.s.data) ? p->v.s.data : "%s", s->ph_len);
  s->summarize = (n && n->kind == TFC_ATTR_I) ? n->v.i : 3;
  if (s->tmpl == NULL || s->ph == NULL) {
    format_destroy(s);
    return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  int64_t count = count_placeholders(s->tmpl, s->tmpl_len, s->ph, s->ph_len);
  if (count != ki->n_inputs) {
    format_destroy(s);
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "num placeholders in template and num inputs must match: %lld vs. %d",
                          (long long)count, ki->n_inputs);
  }
  *state = s;
  return true;
}

/* StringFormat compute: the formatted scalar string. */
static void format_compute(tfc_kernel_ctx *ctx) {
  format_state *s = ctx->state;
  tfc_strbuf b;
  tfc_strbuf_init(&b);
  size_t start = 0;
  int input = 0;
  for (size_t i = 0; s->ph_len > 0 && i + s->ph_len <= s->tmpl_len;) {
    if (memcmp(s->tmpl + i, s->ph, s->ph_len) != 0) {
      i++;
      continue;
    }
    tfc_strbuf_append(&b, s->tmpl + start, i - start);
    if (input < ctx->n_inputs) tfc_summarize_tensor_v2(ctx->inputs[input++], s->summarize, &b);
    i += s->ph_len;
    start = i;
  }
  tfc_strbuf_append(&b, s->tmpl + start, s->tmpl_len - start);
  if (b.oom) {
    tfc_strbuf_free(&b);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory formatting StringFormat output");
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 0, NULL);
  if (out != NULL) tfc_tensor_set_string(out, 0, b.data ? b.data : "", b.len, ctx->st);
  tfc_strbuf_free(&b);
}

static const tfc_kernel_def defs[] = {
    {"StringFormat", "CPU", NULL, NULL, format_init, format_compute, format_destroy, 0},
};

const tfc_kernel_table tfc_kernels_string_format = {defs, (int)(sizeof defs / sizeof defs[0])};
