/*
 * lookup_text.c — InitializeTableFromTextFileV2: fills a HashTable from a
 * text file, one entry per line, as TF's TextFileLineIterator does. A line
 * ends at '\n' (a '\r' before it is dropped; the last line needs no '\n').
 * key_index / value_index pick what each entry takes: -2 the whole line,
 * -1 the line number (+ offset; int64 only), n >= 0 the n-th field of the
 * line split at every `delimiter` (one char). int32 fields get `offset`
 * added (as TF). vocab_size >= 0 reads that many lines and fails when the
 * file has fewer; an empty line, a missing field or a field that does not
 * parse is INVALID_ARGUMENT with TF's message. A table that is already
 * initialized stays as it is.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/op_registry.h"
#include "kernels/lookup_ops.h"

/* A growing column of parsed cells (one per line) of one dtype. */
typedef struct column {
  tfc_dtype dtype;
  int64_t n, cap;
  void *data;     /* elements of dtype (tfc_string owned for STRING) */
} column;

/* Appends one zeroed cell; its address, or NULL on OOM. */
static void *column_push(column *c) {
  size_t sz = tfc_dtype_size(c->dtype);
  if (c->n == c->cap) {
    int64_t cap = c->cap ? c->cap * 2 : 256;
    void *d = tfc_realloc(c->data, (size_t)cap * sz);
    if (!d) return NULL;
    c->data = d;
    c->cap = cap;
  }
  void *p = (char *)c->data + (size_t)c->n * sz;
  memset(p, 0, sz);
  c->n++;
  return p;
}

/* Frees a column's cells. */
static void column_free(column *c) {
  if (c->dtype == TFC_DTYPE_STRING)
    for (int64_t i = 0; i < c->n; i++) tfc_free(((tfc_string *)c->data)[i].data);
  tfc_free(c->data);
}

/* The column as a new 1-D tensor (strings are moved into it). */
static tfc_tensor *column_tensor(column *c, tfc_status *st) {
  int64_t d = c->n;
  tfc_tensor *t = tfc_tensor_new(c->dtype, 1, &d, st);
  if (!t) return NULL;
  if (c->dtype == TFC_DTYPE_STRING) {
    for (int64_t i = 0; i < c->n; i++) {
      tfc_string *s = (tfc_string *)c->data + i;
      if (!tfc_tensor_set_string(t, i, s->data, s->len, st)) {
        tfc_tensor_unref(t);
        return NULL;
      }
    }
  } else if (c->n) {
    memcpy(t->data, c->data, (size_t)c->n * tfc_dtype_size(c->dtype));
  }
  return t;
}

/* Copies (s, n) into a NUL-terminated buffer trimmed of surrounding blanks
 * (TF's safe_strto* accept them); buf has room for 64 bytes. false when too long. */
static bool trimmed(const char *s, size_t n, char *buf) {
  while (n && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v')) s++, n--;
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\f' || s[n - 1] == '\v'))
    n--;
  if (n == 0 || n >= 64) return false;
  memcpy(buf, s, n);
  buf[n] = '\0';
  return true;
}

/* Parses field (s, n) of line `line_no` as dtype into cell; false + st with TF's message. */
static bool parse_cell(tfc_dtype dt, const char *s, size_t n, int64_t line_no, int64_t offset, void *cell,
                       tfc_status *st) {
  char buf[64], *end = NULL;
  bool ok = trimmed(s, n, buf);
  errno = 0;
  switch (dt) {
    case TFC_DTYPE_STRING: {
      tfc_string *c = cell;
      if (n) {
        c->data = tfc_malloc(n);
        if (!c->data) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM reading a vocabulary file");
        memcpy(c->data, s, n);
      }
      c->len = n;
      return true;
    }
    case TFC_DTYPE_INT32: {
      long long v = ok ? strtoll(buf, &end, 10) : 0;
      ok = ok && *end == '\0' && errno == 0 && v >= INT32_MIN && v <= INT32_MAX;
      if (ok) *(int32_t *)cell = (int32_t)((uint32_t)v + (uint32_t)offset); /* wraps as TF's int32 sum */
      break;
    }
    case TFC_DTYPE_INT64: {
      long long v = ok ? strtoll(buf, &end, 10) : 0;
      ok = ok && *end == '\0' && errno == 0;
      if (ok) *(int64_t *)cell = v;
      break;
    }
    case TFC_DTYPE_FLOAT: {
      float v = ok ? strtof(buf, &end) : 0;
      ok = ok && *end == '\0' && (errno == 0 || fabsf(v) < 1);
      if (ok) *(float *)cell = v;
      break;
    }
    case TFC_DTYPE_DOUBLE: {
      double v = ok ? strtod(buf, &end) : 0;
      ok = ok && *end == '\0' && (errno == 0 || fabs(v) < 1);
      if (ok) *(double *)cell = v;
      break;
    }
    default:
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Data type %s not supported.", tfc_op_dtype_string(dt));
  }
  if (!ok)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Field %.*s in line %lld is not a valid %s.",
                          n > 200 ? 200 : (int)n, s, (long long)line_no, tfc_op_dtype_string(dt));
  return true;
}

/* Reads the whole file at path into *buf / *len; false with ctx failed. */
static bool read_file(tfc_kernel_ctx *ctx, const char *path, char **buf, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    int e = errno;
    return tfc_kernel_fail(ctx, tfc_errno_code(e), "%s; %s", path, strerror(e));
  }
  size_t cap = 1 << 16, n = 0;
  char *b = tfc_malloc(cap);
  while (b) {
    size_t r = fread(b + n, 1, cap - n, f);
    n += r;
    if (n < cap) break;
    char *nb = tfc_realloc(b, cap * 2);
    if (!nb) {
      tfc_free(b);
      b = NULL;
      break;
    }
    b = nb;
    cap *= 2;
  }
  bool err = ferror(f);
  fclose(f);
  if (!b) return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM reading %s", path);
  if (err) {
    tfc_free(b);
    return tfc_kernel_fail(ctx, TFC_CODE_DATA_LOSS, "%s; read error", path);
  }
  *buf = b;
  *len = n;
  return true;
}

/* Parses what index selects of one line into column c (see the file comment). */
static bool take(column *c, int64_t index, const char *line, size_t len, const char *const *fs, const size_t *fl,
                 int64_t line_no, int64_t offset, tfc_status *st) {
  void *cell = column_push(c);
  if (!cell) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM reading a vocabulary file");
  if (index == -1) {
    *(int64_t *)cell = (int64_t)((uint64_t)line_no + (uint64_t)offset);
    return true;
  }
  if (index == -2) return parse_cell(c->dtype, line, len, line_no, offset, cell, st);
  return parse_cell(c->dtype, fs[index], fl[index], line_no, offset, cell, st);
}

/* Checks the index / dtype pairs TF refuses. */
static bool check_indices(tfc_kernel_ctx *ctx, int64_t ki, int64_t vi, tfc_dtype kd, tfc_dtype vd) {
  bool kint = kd == TFC_DTYPE_INT32 || kd == TFC_DTYPE_INT64, vint = vd == TFC_DTYPE_INT32 || vd == TFC_DTYPE_INT64;
  if (ki == -1 && kd != TFC_DTYPE_INT64)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Key index for line number requires table key dtype of int64, got %s",
                           tfc_op_dtype_string(kd));
  if (ki == -2 && !kint && kd != TFC_DTYPE_STRING)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Key index for whole line requires string or integer table key, got %s",
                           tfc_op_dtype_string(kd));
  if (vi == -1 && vd != TFC_DTYPE_INT64)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Value index for line number requires table value dtype of int64, got %s",
                           tfc_op_dtype_string(vd));
  if (vi == -2 && !vint && vd != TFC_DTYPE_STRING)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Value index for whole line requires table value dtype of integer or string, got %s",
                           tfc_op_dtype_string(vd));
  return true;
}

/* Parses every line of buf[0..len) into the key and value columns. */
static bool parse_lines(tfc_kernel_ctx *ctx, const char *path, const char *buf, size_t len, int64_t ki, int64_t vi,
                        int64_t vocab, char delim, int64_t offset, column *keys, column *values) {
  int64_t need = (ki > vi ? ki : vi) + 1;
  const char **fs = NULL;
  size_t *fl = NULL;
  if (need > 0) {
    fs = tfc_malloc((size_t)need * sizeof *fs);
    fl = tfc_malloc((size_t)need * sizeof *fl);
    if (!fs || !fl) {
      tfc_free(fs);
      tfc_free(fl);
      return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM reading %s", path);
    }
  }
  bool ok = true;
  size_t pos = 0;
  int64_t line_no = 0;
  while (ok && pos < len) {
    const char *line = buf + pos;
    const char *nl = memchr(line, '\n', len - pos);
    size_t ll = nl ? (size_t)(nl - line) : len - pos;
    pos += ll + (nl ? 1 : 0);
    if (ll && line[ll - 1] == '\r') ll--;
    if (!nl && ll == 0) break;
    if (vocab != -1 && line_no >= vocab) break;
    if (ll == 0) {
      ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid content in %s: empty line found at position %zu.",
                           path, pos);
      break;
    }
    if (need > 0) {
      int64_t nf = 0;
      size_t start = 0;
      for (size_t i = 0; i <= ll; i++) {
        if (i == ll || line[i] == delim) {
          if (nf < need) {
            fs[nf] = line + start;
            fl[nf] = i - start;
          }
          nf++;
          start = i + 1;
        }
      }
      if (nf < need) {
        ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Invalid number of columns in %s line %lld (%.*s) : expected at least %lld got %lld",
                             path, (long long)line_no, ll > 200 ? 200 : (int)ll, line, (long long)need, (long long)nf);
        break;
      }
    }
    ok = take(keys, ki, line, ll, fs, fl, line_no, offset, ctx->st) &&
         take(values, vi, line, ll, fs, fl, line_no, offset, ctx->st);
    line_no++;
  }
  if (ok && vocab != -1 && line_no != vocab)
    ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid vocab_size in %s: expected %lld but got %lld", path,
                         (long long)vocab, (long long)line_no);
  tfc_free(fs);
  tfc_free(fl);
  return ok;
}

void tfc_lookup_init_from_text_compute(tfc_kernel_ctx *ctx) {
  tfc_lookup_table *t = tfc_lookup_from_input(ctx);
  if (!t) return;
  const tfc_tensor *fn = ctx->inputs[1];
  if (fn->rank != 0) {
    tfc_shape s = tfc_tensor_shape(fn);
    char b[64];
    tfc_shape_debug_string(&s, b, sizeof b);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "filename should be a single string, but got %s", b);
    return;
  }
  int64_t ki = 0, vi = 0, vocab = -1, offset = 0;
  const tfc_string *delim = NULL;
  if (!tfc_attrs_get_int(ctx->attrs, "key_index", &ki, ctx->st) ||
      !tfc_attrs_get_int(ctx->attrs, "value_index", &vi, ctx->st) ||
      !tfc_attrs_get_int(ctx->attrs, "vocab_size", &vocab, ctx->st) ||
      !tfc_attrs_get_string(ctx->attrs, "delimiter", &delim, ctx->st))
    return;
  if (tfc_attrs_find(ctx->attrs, "offset") && !tfc_attrs_get_int(ctx->attrs, "offset", &offset, ctx->st)) return;
  if (!delim || delim->len != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "delimiter should be only 1 char");
    return;
  }
  if (tfc_lookup_kind_of(t) != TFC_LOOKUP_HASH) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Table is not initializable");
    return;
  }
  tfc_dtype kd = tfc_lookup_key_dtype(t), vd = tfc_lookup_value_dtype(t);
  if (!check_indices(ctx, ki, vi, kd, vd)) return;
  const tfc_string *f = fn->data;
  char *path = tfc_malloc(f->len + 1);
  if (!path) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  if (f->len) memcpy(path, f->data, f->len);
  path[f->len] = '\0';
  char *buf = NULL;
  size_t len = 0;
  column keys = {kd, 0, 0, NULL}, values = {vd, 0, 0, NULL};
  if (read_file(ctx, path, &buf, &len) &&
      parse_lines(ctx, path, buf, len, ki, vi, vocab, delim->data[0], offset, &keys, &values)) {
    tfc_tensor *k = column_tensor(&keys, ctx->st);
    tfc_tensor *v = k ? column_tensor(&values, ctx->st) : NULL;
    if (v && !tfc_lookup_initialize(t, k, v, ctx->st) && ctx->st->code == TFC_CODE_FAILED_PRECONDITION &&
        tfc_lookup_is_initialized(t))
      tfc_status_clear(ctx->st);
    tfc_tensor_unref(k);
    tfc_tensor_unref(v);
  }
  column_free(&keys);
  column_free(&values);
  tfc_free(buf);
  tfc_free(path);
}
