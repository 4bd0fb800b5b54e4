/*
 * decode_csv.c — CPU kernel DecodeCSV (TF's decode_csv_op.cc behaviour):
 * every record is split into fields on a one-character delimiter, with
 * RFC-4180 quoting when use_quote_delim ("a ""quoted"" field"); each field
 * becomes an element of its column's output (float, double, int32, int64
 * or string), an empty field or one equal to na_value takes the column's
 * default (a column without one is required). select_cols picks columns.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "kernels/kernel.h"
#include "kernels/parsing_internal.h"

/* A field: [p, p + n) of the record, or of the unquoting buffer. */
typedef struct field {
  const char *p;
  size_t n;
} field;

typedef struct csv_opts {
  char delim;
  bool quote;
  const int64_t *select;   /* NULL: all columns */
  int n_select;
} csv_opts;

/* Splits one record into at most max fields (TF's field rules). Quoted
 * fields are unescaped into buf (which may move: field pointers into it are
 * fixed up by the caller via offsets), so fields store offsets when quoted.
 * Returns the field count, or -1 with ctx failed. */
static int split_record(tfc_kernel_ctx *ctx, const char *in, size_t len, const csv_opts *o, field *out,
                        int max, tfc_strbuf *buf, bool *in_buf) {
  size_t i = 0;
  int parsed = 0, sel = 0, n = 0;
  buf->len = 0;
  if (len == 0) return 0;
  while (i < len) {
    if (in[i] == '\n' || in[i] == '\r') {
      i++;
      continue;
    }
    bool include = !o->select || (sel < o->n_select && o->select[sel] == parsed);
    bool quoted = o->quote && in[i] == '"';
    size_t start = i;
    bool unescaped = false;
    size_t bstart = buf->len;
    if (!quoted) {
      while (i < len && in[i] != o->delim) {
        if ((o->quote && in[i] == '"') || in[i] == '\n' || in[i] == '\r') {
          tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Unquoted fields cannot have quotes/CRLFs inside");
          return -1;
        }
        i++;
      }
      if (include && n < max) out[n] = (field){in + start, i - start};
      i++;
    } else {
      i++;
      start = i;
      while (i + 1 < len && (in[i] != '"' || in[i + 1] != o->delim)) {
        if (in[i] != '"') {
          if (include) tfc_strbuf_append(buf, in + i, 1);
          i++;
        } else {
          if (in[i + 1] != '"') {
            tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                            "Quote inside a string has to be escaped by another quote");
            return -1;
          }
          if (include) tfc_strbuf_append(buf, "\"", 1);
          i += 2;
        }
      }
      if (!(i < len && in[i] == '"' && (i == len - 1 || in[i + 1] == o->delim))) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "Quoted field has to end with quote followed by delim or end");
        return -1;
      }
      i += 2;
      unescaped = true;
      if (include && n < max) out[n] = (field){(const char *)(uintptr_t)bstart, buf->len - bstart};
    }
    if (buf->oom) {
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM splitting a CSV record");
      return -1;
    }
    parsed++;
    if (include) {
      if (n < max) in_buf[n] = unescaped;
      n++;
      sel++;
      if (o->select && sel == o->n_select) return n;
    }
  }
  bool include = !o->select || (sel < o->n_select && o->select[sel] == parsed);
  if (include && in[len - 1] == o->delim) {
    if (n < max) {
      out[n] = (field){in + len, 0};
      in_buf[n] = false;
    }
    n++;
  }
  return n;
}

/* Parses a whole field as a number of type t into dst; false if invalid. */
static bool parse_number(const field *f, tfc_dtype t, void *dst) {
  char tmp[128];
  size_t n = f->n;
  const char *p = f->p;
  while (n && (*p == ' ' || *p == '\t')) p++, n--;
  while (n && (p[n - 1] == ' ' || p[n - 1] == '\t')) n--;
  if (n == 0 || n >= sizeof tmp) return false;
  memcpy(tmp, p, n);
  tmp[n] = 0;
  char *end;
  errno = 0;
  switch (t) {
    case TFC_DTYPE_INT32:
    case TFC_DTYPE_INT64: {
      long long v = strtoll(tmp, &end, 10);
      if (*end || errno == ERANGE) return false;
      if (t == TFC_DTYPE_INT32) {
        if (v < INT32_MIN || v > INT32_MAX) return false;
        *(int32_t *)dst = (int32_t)v;
      } else {
        *(int64_t *)dst = v;
      }
      return true;
    }
    case TFC_DTYPE_FLOAT: {
      float v = strtof(tmp, &end);
      if (*end) return false;
      *(float *)dst = v;
      return true;
    }
    case TFC_DTYPE_DOUBLE: {
      double v = strtod(tmp, &end);
      if (*end) return false;
      *(double *)dst = v;
      return true;
    }
    default:
      return false;
  }
}

void tfc_decode_csv_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *rec = ctx->inputs[0];
  int ncols = ctx->n_outputs;
  const tfc_string *delim, *na;
  bool quote = true;
  const tfc_attr_list *sel = NULL;
  if (!tfc_attrs_get_string(ctx->attrs, "field_delim", &delim, ctx->st) ||
      !tfc_attrs_get_string(ctx->attrs, "na_value", &na, ctx->st) ||
      !tfc_attrs_get_bool(ctx->attrs, "use_quote_delim", &quote, ctx->st) ||
      !tfc_attrs_get_list(ctx->attrs, "select_cols", &sel, ctx->st))
    return;
  if (delim->len != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "field_delim should be only 1 char");
    return;
  }
  csv_opts o = {delim->data[0], quote, NULL, 0};
  if (sel->n > 0) {
    for (int i = 0; i < sel->n; i++) {
      if (sel->v.i[i] < 0 || (i > 0 && sel->v.i[i] <= sel->v.i[i - 1])) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "select_cols should be non-negative and strictly increasing");
        return;
      }
    }
    if (sel->n != ncols) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "select_cols should match output size (%d vs. %d)", sel->n, ncols);
      return;
    }
    o.select = sel->v.i;
    o.n_select = sel->n;
  }
  for (int c = 0; c < ncols; c++) {
    const tfc_tensor *d = ctx->inputs[1 + c];
    if (d->rank > 1) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Each record default should be at most rank 1");
      return;
    }
    if (d->nelems > 1) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "There should only be 1 default per field but field %d has %lld", c,
                      (long long)d->nelems);
      return;
    }
  }
  tfc_tensor **outs = tfc_calloc((size_t)ncols, sizeof *outs);
  field *fields = tfc_calloc((size_t)ncols + 1, sizeof *fields);
  bool *in_buf = tfc_calloc((size_t)ncols + 1, sizeof *in_buf);
  if (!outs || !fields || !in_buf) {
    tfc_free(outs);
    tfc_free(fields);
    tfc_free(in_buf);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    return;
  }
  bool ok = true;
  for (int c = 0; ok && c < ncols; c++) {
    outs[c] = tfc_kernel_alloc_output(ctx, c, tfc_dtype_base(ctx->out_types[c]), rec->rank, rec->dims);
    ok = outs[c] != NULL;
  }
  tfc_strbuf buf;
  tfc_strbuf_init(&buf);
  const tfc_string *records = rec->data;
  for (int64_t r = 0; ok && r < rec->nelems; r++) {
    int n = split_record(ctx, records[r].data ? records[r].data : "", records[r].len, &o, fields, ncols,
                         &buf, in_buf);
    if (n < 0) break;
    if (n != ncols) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expect %d fields but have %d in record %lld", ncols,
                      n, (long long)r);
      break;
    }
    for (int c = 0; ok && c < ncols; c++) {
      field f = fields[c];
      if (in_buf[c]) f.p = buf.data ? buf.data + (uintptr_t)f.p : ""; /* "" leaves buf empty */
      tfc_tensor *out = outs[c];
      const tfc_tensor *d = ctx->inputs[1 + c];
      size_t es = tfc_dtype_size(out->dtype);
      bool missing = f.n == 0 || (na->len == f.n && memcmp(na->data, f.p, f.n) == 0);
      if (missing) {
        if (d->nelems != 1) {
          ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Field %d is required but missing in record %lld!",
                               c, (long long)r);
        } else if (out->dtype == TFC_DTYPE_STRING) {
          const tfc_string *s = d->data;
          ok = tfc_tensor_set_string(out, r, s->data, s->len, ctx->st);
        } else {
          memcpy((char *)out->data + (size_t)r * es, d->data, es);
        }
      } else if (out->dtype == TFC_DTYPE_STRING) {
        ok = tfc_tensor_set_string(out, r, f.p, f.n, ctx->st);
      } else if (!parse_number(&f, out->dtype, (char *)out->data + (size_t)r * es)) {
        ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Field %d in record %lld is not a valid %s: %.*s", c,
                             (long long)r, tfc_op_dtype_string(out->dtype), (int)(f.n > 200 ? 200 : f.n), f.p);
      }
    }
  }
  tfc_strbuf_free(&buf);
  tfc_free(outs);
  tfc_free(fields);
  tfc_free(in_buf);
}
