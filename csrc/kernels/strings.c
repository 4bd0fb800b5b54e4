/*
 * strings.c — CPU kernels of the tf.strings ops (TF's string_ops.cc beyond
 * StringJoin / StaticRegexFullMatch, which live in string.c): StringLength,
 * Substr, StringStrip, StringUpper, StringLower, StringToNumber, AsString,
 * ReduceJoin, RegexFullMatch, RegexReplace, StaticRegexReplace and
 * StringToHashBucketStrong (SipHash-2-4, as TF's keyed hash).
 *
 * Regular expressions are POSIX extended (regcomp); TF uses RE2, whose
 * syntax agrees on the common subset (literals, classes, anchors, groups,
 * *, +, ?, {m,n}, |); Perl classes such as \d are not POSIX. Rewrites use
 * \0..\9 for groups, as RE2. Positions in UTF8_CHAR units count code points
 * (bytes that are not continuation bytes).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "core/dtype.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* ------------------------------------------------------------------ helpers */

/* True when the string attr `name` equals `want`. */
static bool attr_is(const tfc_kernel_ctx *ctx, const char *name, const char *want) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  if (v == NULL || v->kind != TFC_ATTR_S) return false;
  size_t n = strlen(want);
  return v->v.s.len == n && (n == 0 || memcmp(v->v.s.data, want, n) == 0);
}

/* Bool attr `name`, or dflt. */
static bool attr_bool(const tfc_kernel_ctx *ctx, const char *name, bool dflt) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  return (v && v->kind == TFC_ATTR_B) ? v->v.b : dflt;
}

/* Int attr `name`, or dflt. */
static int64_t attr_int(const tfc_kernel_ctx *ctx, const char *name, int64_t dflt) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  return (v && v->kind == TFC_ATTR_I) ? v->v.i : dflt;
}

/* Number of UTF-8 code points in s[0..n). */
static int64_t utf8_len(const char *s, size_t n) {
  int64_t c = 0;
  for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
  return c;
}

/* Byte offset of code point k (0 <= k <= count) in s[0..n). */
static size_t utf8_offset(const char *s, size_t n, int64_t k) {
  size_t i = 0;
  int64_t c = 0;
  while (i < n) {
    if (((unsigned char)s[i] & 0xC0) != 0x80) {
      if (c == k) return i;
      c++;
    }
    i++;
  }
  return n;
}

/* A NUL-terminated copy of s (for regexec / strtod); NULL on OOM. */
static char *cstr(const tfc_string *s) {
  char *p = tfc_malloc(s->len + 1);
  if (p == NULL) return NULL;
  if (s->len) memcpy(p, s->data, s->len);
  p[s->len] = 0;
  return p;
}

/* Allocates a string output shaped like `like`. */
static tfc_tensor *string_output(tfc_kernel_ctx *ctx, const tfc_tensor *like) {
  return tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, like->rank, like->dims);
}

static bool oom(tfc_kernel_ctx *ctx) {
  return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in %s", ctx->op_type);
}

/* ------------------------------------------------------------- StringLength */

/* StringLength: bytes (unit BYTE) or code points (UTF8_CHAR) per element. */
static void string_length_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT32, in->rank, in->dims);
  if (out == NULL) return;
  bool chars = attr_is(ctx, "unit", "UTF8_CHAR");
  const tfc_string *s = in->data;
  int32_t *o = out->data;
  for (int64_t i = 0; i < in->nelems; i++)
    o[i] = (int32_t)(chars ? utf8_len(s[i].data, s[i].len) : (int64_t)s[i].len);
}

/* -------------------------------------------------------------------- Substr */

/* Substr: elements [pos, pos + len) of each string (pos < 0 counts from the
 * end; len is cut at the end), pos and len scalars or shaped like input. */
static void substr_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0], *pos = ctx->inputs[1], *len = ctx->inputs[2];
  if ((pos->rank != 0 && !tfc_tensor_same_shape(pos, in)) ||
      (len->rank != 0 && !tfc_tensor_same_shape(len, in)) ||
      !(pos->rank == 0) != !(len->rank == 0)) {
    char a[128], b[128];
    tfc_shape sa = tfc_tensor_shape(pos), sb = tfc_tensor_shape(len);
    tfc_shape_debug_string(&sa, a, sizeof a);
    tfc_shape_debug_string(&sb, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "pos and len should have the same shape, got: %s vs. %s", a, b);
    return;
  }
  bool chars = attr_is(ctx, "unit", "UTF8_CHAR");
  tfc_tensor *out = string_output(ctx, in);
  if (out == NULL) return;
  const tfc_string *s = in->data;
  for (int64_t i = 0; i < in->nelems; i++) {
    int64_t p = tfc_tensor_get_int64(pos, pos->rank ? i : 0);
    int64_t l = tfc_tensor_get_int64(len, len->rank ? i : 0);
    int64_t n = chars ? utf8_len(s[i].data, s[i].len) : (int64_t)s[i].len;
    if (p < -n || p > n) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "pos %" PRId64 " out of range for string "
                      "b'%.*s' at index %" PRId64, p, (int)(s[i].len > 64 ? 64 : s[i].len),
                      s[i].data ? s[i].data : "", i);
      return;
    }
    if (p < 0) p += n;
    if (l < 0) l = 0;
    if (l > n - p) l = n - p;
    size_t b0 = (size_t)p, b1 = (size_t)(p + l);
    if (chars) {
      b0 = utf8_offset(s[i].data, s[i].len, p);
      b1 = utf8_offset(s[i].data, s[i].len, p + l);
    }
    if (!tfc_tensor_set_string(out, i, s[i].data ? s[i].data + b0 : "", b1 - b0, ctx->st)) return;
  }
}

/* ----------------------------------------------------- Strip / Upper / Lower */

/* StringStrip: leading and trailing ASCII whitespace removed. */
static void string_strip_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  tfc_tensor *out = string_output(ctx, in);
  if (out == NULL) return;
  const tfc_string *s = in->data;
  for (int64_t i = 0; i < in->nelems; i++) {
    size_t a = 0, b = s[i].len;
    while (a < b && isspace((unsigned char)s[i].data[a])) a++;
    while (b > a && isspace((unsigned char)s[i].data[b - 1])) b--;
    if (!tfc_tensor_set_string(out, i, s[i].data ? s[i].data + a : "", b - a, ctx->st)) return;
  }
}

/* StringUpper / StringLower: ASCII letters changed, other bytes kept. */
static void string_case(tfc_kernel_ctx *ctx, bool upper) {
  const tfc_tensor *in = ctx->inputs[0];
  if (!attr_is(ctx, "encoding", "") && !attr_is(ctx, "encoding", "utf-8")) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "encoding must be '' or 'utf-8'");
    return;
  }
  tfc_tensor *out = string_output(ctx, in);
  if (out == NULL) return;
  const tfc_string *s = in->data;
  for (int64_t i = 0; i < in->nelems; i++) {
    if (!tfc_tensor_set_string(out, i, s[i].data ? s[i].data : "", s[i].len, ctx->st)) return;
    tfc_string *d = (tfc_string *)out->data + i;
    for (size_t k = 0; k < d->len; k++) {
      unsigned char c = (unsigned char)d->data[k];
      if (c < 0x80) d->data[k] = (char)(upper ? toupper(c) : tolower(c));
    }
  }
}

static void string_upper_compute(tfc_kernel_ctx *ctx) { string_case(ctx, true); }
static void string_lower_compute(tfc_kernel_ctx *ctx) { string_case(ctx, false); }

/* ------------------------------------------------------------ StringToNumber */

/* StringToNumber: each element parsed as out_type (surrounding whitespace
 * allowed, the whole rest must be the number; ints must fit). */
static void string_to_number_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  tfc_dtype dt = ctx->out_types[0];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, dt, in->rank, in->dims);
  if (out == NULL) return;
  const tfc_string *s = in->data;
  for (int64_t i = 0; i < in->nelems; i++) {
    char *c = cstr(&s[i]);
    if (c == NULL) {
      oom(ctx);
      return;
    }
    char *end = c;
    errno = 0;
    bool ok = s[i].len > 0 && memchr(c, 0, s[i].len) == NULL;
    double d = 0;
    long long ll = 0;
    if (ok && (dt == TFC_DTYPE_FLOAT || dt == TFC_DTYPE_DOUBLE)) {
      d = strtod(c, &end);
    } else if (ok) {
      ll = strtoll(c, &end, 10);
      if (errno == ERANGE) ok = false;
      if (dt == TFC_DTYPE_INT32 && (ll < INT32_MIN || ll > INT32_MAX)) ok = false;
    }
    if (end == c) ok = false;
    while (ok && *end && isspace((unsigned char)*end)) end++;
    if (ok && *end) ok = false;
    if (!ok) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "StringToNumberOp could not correctly convert string: %s", c);
      tfc_free(c);
      return;
    }
    tfc_free(c);
    switch (dt) {
      case TFC_DTYPE_FLOAT: ((float *)out->data)[i] = (float)d; break;
      case TFC_DTYPE_DOUBLE: ((double *)out->data)[i] = d; break;
      case TFC_DTYPE_INT32: ((int32_t *)out->data)[i] = (int32_t)ll; break;
      default: ((int64_t *)out->data)[i] = (int64_t)ll; break;
    }
  }
}

/* ------------------------------------------------------------------ AsString */

/* AsString: each element formatted as TF does ("%" + fill + width +
 * .precision + d / f / e / g; bools "true"/"false"). */
static void as_string_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  tfc_dtype dt = in->dtype;
  int64_t precision = attr_int(ctx, "precision", -1), width = attr_int(ctx, "width", -1);
  bool scientific = attr_bool(ctx, "scientific", false), shortest = attr_bool(ctx, "shortest", false);
  const tfc_attr_value *fill = tfc_attrs_find(ctx->attrs, "fill");
  bool is_float = dt == TFC_DTYPE_FLOAT || dt == TFC_DTYPE_DOUBLE || dt == TFC_DTYPE_HALF ||
                  dt == TFC_DTYPE_BFLOAT16;
  if (!is_float && (scientific || shortest || precision > -1)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Cannot select %s format or precision for %s", scientific ? "scientific" :
                    shortest ? "shortest" : "a", tfc_dtype_name(dt));
    return;
  }
  if (scientific && shortest) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Cannot select both scientific and shortest notation");
    return;
  }
  char fmt[48];
  size_t n = (size_t)snprintf(fmt, sizeof fmt, "%%");
  if (fill && fill->kind == TFC_ATTR_S && fill->v.s.len) {
    char f = fill->v.s.data[0];
    if (fill->v.s.len > 1 || !strchr(" +-0#", f)) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Fill argument not supported: \"%.*s\"",
                      (int)fill->v.s.len, fill->v.s.data);
      return;
    }
    n += (size_t)snprintf(fmt + n, sizeof fmt - n, "%c", f);
  }
  if (width > -1) n += (size_t)snprintf(fmt + n, sizeof fmt - n, "%d", (int)width);
  if (precision > -1) n += (size_t)snprintf(fmt + n, sizeof fmt - n, ".%d", (int)precision);
  if (is_float)
    snprintf(fmt + n, sizeof fmt - n, "%s", shortest ? "g" : scientific ? "e" : "f");
  else
    snprintf(fmt + n, sizeof fmt - n, "lld");
  tfc_tensor *out = string_output(ctx, in);
  if (out == NULL) return;
  char buf[512];
  for (int64_t i = 0; i < in->nelems; i++) {
    int len;
    if (dt == TFC_DTYPE_BOOL) {
      len = snprintf(buf, sizeof buf, "%s", ((const bool *)in->data)[i] ? "true" : "false");
    } else if (is_float) {
      len = snprintf(buf, sizeof buf, fmt, tfc_tensor_get_double(in, i));
    } else {
      len = snprintf(buf, sizeof buf, fmt, (long long)tfc_tensor_get_int64(in, i));
    }
    if (len < 0) len = 0;
    if ((size_t)len >= sizeof buf) len = (int)sizeof buf - 1;
    if (!tfc_tensor_set_string(out, i, buf, (size_t)len, ctx->st)) return;
  }
}

/* ---------------------------------------------------------------- ReduceJoin */

/* ReduceJoin: the elements along reduction_indices joined with separator;
 * the last listed dimension varies slowest. */
static void reduce_join_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0], *axes_t = ctx->inputs[1];
  bool keep = attr_bool(ctx, "keep_dims", false);
  const tfc_attr_value *sepv = tfc_attrs_find(ctx->attrs, "separator");
  const char *sep = (sepv && sepv->kind == TFC_ATTR_S && sepv->v.s.data) ? sepv->v.s.data : "";
  size_t seplen = (sepv && sepv->kind == TFC_ATTR_S) ? sepv->v.s.len : 0;
  int r = in->rank;
  bool reduced[TFC_MAX_RANK] = {false};
  int order[TFC_MAX_RANK], n_red = 0;
  for (int64_t k = 0; k < axes_t->nelems; k++) {
    int64_t a = tfc_tensor_get_int64(axes_t, k);
    if (a < -r || a >= r) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid reduction dimension %" PRId64
                      " for input with %d dimension(s)", a, r);
      return;
    }
    if (a < 0) a += r;
    if (reduced[a]) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Duplicate reduction dimension %" PRId64,
                      a);
      return;
    }
    reduced[a] = true;
    order[n_red++] = (int)a;
  }
  int64_t odims[TFC_MAX_RANK];
  int orank = 0;
  for (int d = 0; d < r; d++) {
    if (!reduced[d]) odims[orank++] = in->dims[d];
    else if (keep) odims[orank++] = 1;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, orank, odims);
  if (out == NULL) return;
  int64_t strides[TFC_MAX_RANK];
  int64_t acc = 1;
  for (int d = r - 1; d >= 0; d--) {
    strides[d] = acc;
    acc *= in->dims[d];
  }
  int64_t rcount = 1;
  for (int j = 0; j < n_red; j++) rcount *= in->dims[order[j]];
  const tfc_string *s = in->data;
  tfc_strbuf b;
  tfc_strbuf_init(&b);
  int64_t kidx[TFC_MAX_RANK], ridx[TFC_MAX_RANK];
  for (int64_t o = 0; o < out->nelems; o++) {
    /* base offset from the kept coordinates (row-major over kept dims) */
    int64_t rem = o, base = 0;
    for (int d = r - 1; d >= 0; d--) {
      if (reduced[d]) continue;
      kidx[d] = rem % in->dims[d];
      rem /= in->dims[d];
      base += kidx[d] * strides[d];
    }
    b.len = 0;
    for (int64_t k = 0; k < rcount; k++) {
      /* order[0] varies fastest, order[n_red - 1] slowest */
      int64_t q = k, off = base;
      for (int j = 0; j < n_red; j++) {
        ridx[j] = q % in->dims[order[j]];
        q /= in->dims[order[j]];
        off += ridx[j] * strides[order[j]];
      }
      if (k && seplen) tfc_strbuf_append(&b, sep, seplen);
      if (s[off].len) tfc_strbuf_append(&b, s[off].data, s[off].len);
    }
    if (b.oom) {
      oom(ctx);
      break;
    }
    if (!tfc_tensor_set_string(out, o, b.data ? b.data : "", b.len, ctx->st)) break;
  }
  tfc_strbuf_free(&b);
}

/* ------------------------------------------------------ regular expressions */

/* Compiles pattern (whole-string anchored when `full`); false + ctx on error. */
static bool compile(tfc_kernel_ctx *ctx, tfc_status *st, const char *pat, size_t len, bool full,
                    int flags, regex_t *re) {
  if (memchr(pat, 0, len)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid pattern: contains a NUL byte");
    return false;
  }
  char *src = tfc_malloc(len + 8);
  if (src == NULL) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    return false;
  }
  if (full)
    snprintf(src, len + 8, "^(%.*s)$", (int)len, pat);
  else
    snprintf(src, len + 8, "%.*s", (int)len, pat);
  int rc = regcomp(re, src, REG_EXTENDED | flags);
  tfc_free(src);
  if (rc != 0) {
    char err[256];
    regerror(rc, re, err, sizeof err);
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid pattern: %.*s, error: %s", (int)len,
                   pat, err);
    return false;
  }
  (void)ctx;
  return true;
}

/* RegexFullMatch: whether each element matches the scalar pattern input. */
static void regex_full_match_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0], *pt = ctx->inputs[1];
  if (pt->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Pattern must be scalar, but received a "
                    "tensor of rank %d", pt->rank);
    return;
  }
  const tfc_string *p = pt->data;
  regex_t re;
  if (!compile(ctx, ctx->st, p->data ? p->data : "", p->len, true, REG_NOSUB, &re)) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_BOOL, in->rank, in->dims);
  if (out != NULL) {
    const tfc_string *s = in->data;
    bool *o = out->data;
    for (int64_t i = 0; i < in->nelems; i++) {
      if (s[i].len && memchr(s[i].data, 0, s[i].len)) {
        o[i] = false;
        continue;
      }
      char *c = cstr(&s[i]);
      if (c == NULL) {
        oom(ctx);
        break;
      }
      o[i] = regexec(&re, c, 0, NULL, 0) == 0;
      tfc_free(c);
    }
  }
  regfree(&re);
}

/* Appends `rewrite` for one match to b: \0..\9 insert groups, \\ a backslash. */
static void append_rewrite(tfc_strbuf *b, const char *subj, const regmatch_t *m, const char *rw,
                           size_t rwlen) {
  for (size_t k = 0; k < rwlen; k++) {
    if (rw[k] == '\\' && k + 1 < rwlen) {
      char c = rw[k + 1];
      if (c >= '0' && c <= '9') {
        const regmatch_t *g = &m[c - '0'];
        if (g->rm_so >= 0) tfc_strbuf_append(b, subj + g->rm_so, (size_t)(g->rm_eo - g->rm_so));
        k++;
        continue;
      }
      if (c == '\\') {
        tfc_strbuf_append(b, "\\", 1);
        k++;
        continue;
      }
    }
    tfc_strbuf_append(b, rw + k, 1);
  }
}

/* Replaces the first (or every, when global) match of re in each element. */
static void regex_replace_run(tfc_kernel_ctx *ctx, regex_t *re, const char *rw, size_t rwlen,
                              bool global) {
  const tfc_tensor *in = ctx->inputs[0];
  tfc_tensor *out = string_output(ctx, in);
  if (out == NULL) return;
  const tfc_string *s = in->data;
  tfc_strbuf b;
  tfc_strbuf_init(&b);
  regmatch_t m[10];
  for (int64_t i = 0; i < in->nelems; i++) {
    char *c = cstr(&s[i]);
    if (c == NULL) {
      oom(ctx);
      break;
    }
    b.len = 0;
    size_t pos = 0, n = s[i].len;
    bool any = false;
    while (pos <= n) {
      int flags = pos > 0 ? REG_NOTBOL : 0;
      if (regexec(re, c + pos, 10, m, flags) != 0) break;
      for (int g = 0; g < 10; g++)
        if (m[g].rm_so >= 0) {
          m[g].rm_so += (regoff_t)pos;
          m[g].rm_eo += (regoff_t)pos;
        }
      tfc_strbuf_append(&b, c + pos, (size_t)m[0].rm_so - pos);
      append_rewrite(&b, c, m, rw, rwlen);
      any = true;
      if (m[0].rm_eo == m[0].rm_so) {  /* empty match: copy one byte and move on */
        if ((size_t)m[0].rm_eo < n) tfc_strbuf_append(&b, c + m[0].rm_eo, 1);
        pos = (size_t)m[0].rm_eo + 1;
      } else {
        pos = (size_t)m[0].rm_eo;
      }
      if (!global) break;
    }
    if (pos < n) tfc_strbuf_append(&b, c + pos, n - pos);
    tfc_free(c);
    if (b.oom) {
      oom(ctx);
      break;
    }
    if (!any) {
      if (!tfc_tensor_set_string(out, i, s[i].data ? s[i].data : "", s[i].len, ctx->st)) break;
    } else if (!tfc_tensor_set_string(out, i, b.data ? b.data : "", b.len, ctx->st)) {
      break;
    }
  }
  tfc_strbuf_free(&b);
}

/* RegexReplace: pattern and rewrite are scalar string inputs. */
static void regex_replace_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *pt = ctx->inputs[1], *rt = ctx->inputs[2];
  if (pt->rank != 0 || rt->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be scalar",
                    pt->rank != 0 ? "Pattern" : "Rewrite");
    return;
  }
  const tfc_string *p = pt->data, *r = rt->data;
  regex_t re;
  if (!compile(ctx, ctx->st, p->data ? p->data : "", p->len, false, 0, &re)) return;
  regex_replace_run(ctx, &re, r->data ? r->data : "", r->len, attr_bool(ctx, "replace_global", true));
  regfree(&re);
}

/* StaticRegexReplace: pattern and rewrite are attrs (compiled per call). */
static void static_regex_replace_compute(tfc_kernel_ctx *ctx) {
  const tfc_attr_value *p = tfc_attrs_find(ctx->attrs, "pattern");
  const tfc_attr_value *r = tfc_attrs_find(ctx->attrs, "rewrite");
  if (!p || p->kind != TFC_ATTR_S || !r || r->kind != TFC_ATTR_S) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "pattern and rewrite attrs are required");
    return;
  }
  regex_t re;
  if (!compile(ctx, ctx->st, p->v.s.data ? p->v.s.data : "", p->v.s.len, false, 0, &re)) return;
  regex_replace_run(ctx, &re, r->v.s.data ? r->v.s.data : "", r->v.s.len,
                    attr_bool(ctx, "replace_global", true));
  regfree(&re);
}

/* ------------------------------------------------- StringToHashBucketStrong */

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                              \
  do {                                                                        \
    v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);                 \
    v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                                    \
    v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                                    \
    v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);                 \
  } while (0)

/* SipHash-2-4 of data[0..n) with the 128-bit key (k0, k1). */
static uint64_t siphash24(uint64_t k0, uint64_t k1, const unsigned char *data, size_t n) {
  uint64_t v0 = 0x736f6d6570736575ULL ^ k0, v1 = 0x646f72616e646f6dULL ^ k1;
  uint64_t v2 = 0x6c7967656e657261ULL ^ k0, v3 = 0x7465646279746573ULL ^ k1;
  size_t full = n & ~(size_t)7;
  for (size_t i = 0; i < full; i += 8) {
    uint64_t m = 0;
    for (int j = 7; j >= 0; j--) m = (m << 8) | data[i + (size_t)j];
    v3 ^= m;
    SIPROUND;
    SIPROUND;
    v0 ^= m;
  }
  uint64_t b = (uint64_t)n << 56;
  for (size_t j = 0; j < (n & 7); j++) b |= (uint64_t)data[full + j] << (8 * j);
  v3 ^= b;
  SIPROUND;
  SIPROUND;
  v0 ^= b;
  v2 ^= 0xff;
  SIPROUND;
  SIPROUND;
  SIPROUND;
  SIPROUND;
  return v0 ^ v1 ^ v2 ^ v3;
}

/* StringToHashBucketStrong: SipHash-2-4(key) of each element mod num_buckets. */
static void hash_bucket_strong_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  int64_t buckets = attr_int(ctx, "num_buckets", 0);
  const tfc_attr_value *key = tfc_attrs_find(ctx->attrs, "key");
  if (!key || key->kind != TFC_ATTR_LIST || key->v.list.n != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Key must have 2 elements");
    return;
  }
  if (buckets < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_buckets must be >= 1");
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, in->rank, in->dims);
  if (out == NULL) return;
  uint64_t k0 = (uint64_t)key->v.list.v.i[0], k1 = (uint64_t)key->v.list.v.i[1];
  const tfc_string *s = in->data;
  int64_t *o = out->data;
  for (int64_t i = 0; i < in->nelems; i++)
    o[i] = (int64_t)(siphash24(k0, k1, (const unsigned char *)(s[i].data ? s[i].data : ""),
                               s[i].len) % (uint64_t)buckets);
}

/* ------------------------------------------------------------------ table */

static const tfc_kernel_def defs[] = {
    {"StringLength", "CPU", NULL, NULL, NULL, string_length_compute, NULL, 0},
    {"Substr", "CPU", NULL, NULL, NULL, substr_compute, NULL, 0},
    {"StringStrip", "CPU", NULL, NULL, NULL, string_strip_compute, NULL, 0},
    {"StringUpper", "CPU", NULL, NULL, NULL, string_upper_compute, NULL, 0},
    {"StringLower", "CPU", NULL, NULL, NULL, string_lower_compute, NULL, 0},
    {"StringToNumber", "CPU", NULL, NULL, NULL, string_to_number_compute, NULL, 0},
    {"AsString", "CPU", NULL, NULL, NULL, as_string_compute, NULL, 0},
    {"ReduceJoin", "CPU", NULL, NULL, NULL, reduce_join_compute, NULL, 0},
    {"RegexFullMatch", "CPU", NULL, NULL, NULL, regex_full_match_compute, NULL, 0},
    {"RegexReplace", "CPU", NULL, NULL, NULL, regex_replace_compute, NULL, 0},
    {"StaticRegexReplace", "CPU", NULL, NULL, NULL, static_regex_replace_compute, NULL, 0},
    {"StringToHashBucketStrong", "CPU", NULL, NULL, NULL, hash_bucket_strong_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_strings = {defs, (int)(sizeof defs / sizeof defs[0])};
