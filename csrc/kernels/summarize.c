/*
 * summarize.c — TF 1.x's Tensor::SummarizeValue text for tfc tensors
 * (see summarize.h for the format).
 */
#include "kernels/summarize.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/dtype.h"

/* Appends a float the way TF's FloatToBuffer writes it: %.6g when that
 * parses back to the same value, %.9g otherwise. */
static bool put_float(tfc_strbuf *out, float f) {
  char buf[48];
  snprintf(buf, sizeof buf, "%.*g", FLT_DIG, (double)f);
  if (strtof(buf, NULL) != f) snprintf(buf, sizeof buf, "%.*g", FLT_DIG + 3, (double)f);
  return tfc_strbuf_puts(out, buf);
}

/* Appends a double like TF's DoubleToBuffer: %.15g, else %.17g. */
static bool put_double(tfc_strbuf *out, double d) {
  char buf[48];
  snprintf(buf, sizeof buf, "%.*g", DBL_DIG, d);
  if (strtod(buf, NULL) != d) snprintf(buf, sizeof buf, "%.*g", DBL_DIG + 2, d);
  return tfc_strbuf_puts(out, buf);
}

/* Appends bytes C-escaped like TF's CEscape: \n \r \t \" \' \\ by name,
 * other non-printable bytes (and all bytes >= 0x80) as 3-digit octal. */
static bool put_escaped(tfc_strbuf *out, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char buf[8];
    switch (c) {
      case '\n': tfc_strbuf_puts(out, "\\n"); break;
      case '\r': tfc_strbuf_puts(out, "\\r"); break;
      case '\t': tfc_strbuf_puts(out, "\\t"); break;
      case '"': tfc_strbuf_puts(out, "\\\""); break;
      case '\'': tfc_strbuf_puts(out, "\\'"); break;
      case '\\': tfc_strbuf_puts(out, "\\\\"); break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          snprintf(buf, sizeof buf, "\\%03o", c);
          tfc_strbuf_puts(out, buf);
        } else {
          tfc_strbuf_append(out, (const char *)&c, 1);
        }
    }
  }
  return !out->oom;
}

/* True for the types SummarizeValue prints value by value. */
static bool regular_type(tfc_dtype t) {
  switch (t) {
    case TFC_DTYPE_HALF: case TFC_DTYPE_BFLOAT16: case TFC_DTYPE_FLOAT: case TFC_DTYPE_DOUBLE:
    case TFC_DTYPE_INT8: case TFC_DTYPE_INT16: case TFC_DTYPE_INT32: case TFC_DTYPE_INT64:
    case TFC_DTYPE_UINT8: case TFC_DTYPE_UINT16: case TFC_DTYPE_UINT32: case TFC_DTYPE_UINT64:
    case TFC_DTYPE_BOOL: case TFC_DTYPE_STRING:
      return true;
    default:
      return false;
  }
}

/* Appends element i of t (see summarize.h). */
bool tfc_summarize_element(const tfc_tensor *t, int64_t i, tfc_strbuf *out) {
  char buf[32];
  const void *d = t->data;
  switch (t->dtype) {
    case TFC_DTYPE_FLOAT: return put_float(out, ((const float *)d)[i]);
    case TFC_DTYPE_HALF: return put_float(out, tfc_half_to_float(((const uint16_t *)d)[i]));
    case TFC_DTYPE_BFLOAT16: return put_float(out, tfc_bfloat16_to_float(((const uint16_t *)d)[i]));
    case TFC_DTYPE_DOUBLE: return put_double(out, ((const double *)d)[i]);
    case TFC_DTYPE_BOOL: return tfc_strbuf_puts(out, ((const bool *)d)[i] ? "1" : "0");
    case TFC_DTYPE_STRING: {
      const tfc_string *s = &((const tfc_string *)d)[i];
      return put_escaped(out, s->data ? s->data : "", s->len);
    }
    case TFC_DTYPE_UINT64:
      snprintf(buf, sizeof buf, "%llu", (unsigned long long)((const uint64_t *)d)[i]);
      return tfc_strbuf_puts(out, buf);
    default:
      if (!regular_type(t->dtype)) return tfc_strbuf_puts(out, "?");
      snprintf(buf, sizeof buf, "%lld", (long long)tfc_tensor_get_int64(t, i));
      return tfc_strbuf_puts(out, buf);
  }
}

/* TF's PrintOneDim: writes dimension `dim` recursively, consuming values from
 * *index until `limit`; brackets open only while values remain. */
static void print_dim(const tfc_tensor *t, int dim, int64_t limit, int64_t *index,
                      tfc_strbuf *out) {
  if (*index >= limit) return;
  int64_t count = t->dims[dim];
  if (dim == t->rank - 1) {
    for (int64_t i = 0; i < count; i++) {
      if (*index >= limit) {
        if (dim != 0) tfc_strbuf_puts(out, "...");
        return;
      }
      if (i > 0) tfc_strbuf_puts(out, " ");
      tfc_summarize_element(t, (*index)++, out);
    }
    return;
  }
  for (int64_t i = 0; i < count; i++) {
    bool opened = false;
    if (*index < limit) {
      tfc_strbuf_puts(out, "[");
      opened = true;
    }
    print_dim(t, dim + 1, limit, index, out);
    if (*index < limit || opened) tfc_strbuf_puts(out, "]");
  }
}

/* Appends the summary of t (see summarize.h). */
bool tfc_summarize_tensor(const tfc_tensor *t, int64_t max_entries, tfc_strbuf *out) {
  int64_t n = t->nelems;
  if (max_entries < 0) max_entries = n;
  int64_t limit = max_entries < n ? max_entries : n;
  if (!regular_type(t->dtype)) {
    for (int64_t i = 0; i < limit; i++) tfc_strbuf_puts(out, i ? " ?" : "?");
    if (max_entries < n) tfc_strbuf_puts(out, "...");
    return !out->oom;
  }
  if (t->rank == 0) {
    for (int64_t i = 0; i < limit; i++) {
      if (i > 0) tfc_strbuf_puts(out, " ");
      tfc_summarize_element(t, i, out);
    }
  } else {
    int64_t index = 0;
    print_dim(t, 0, limit, &index, out);
  }
  if (n > limit) tfc_strbuf_puts(out, "...");
  return !out->oom;
}

/* ------------------------------------------------------------ print_v2 */

/* Appends element i for print_v2: strings in double quotes. */
static void put_element_v2(const tfc_tensor *t, int64_t i, tfc_strbuf *out) {
  if (t->dtype == TFC_DTYPE_STRING) {
    const tfc_string *s = &((const tfc_string *)t->data)[i];
    tfc_strbuf_puts(out, "\"");
    put_escaped(out, s->data ? s->data : "", s->len);
    tfc_strbuf_puts(out, "\"");
  } else if (regular_type(t->dtype)) {
    tfc_summarize_element(t, i, out);
  } else {
    tfc_strbuf_puts(out, "?");
  }
}

/* The separator before an entry of dimension dim (of rank dims): a space in
 * the last dimension, else one newline per inner dimension and dim+1 spaces. */
static void put_spacing_v2(int dim, int rank, tfc_strbuf *out) {
  if (dim == rank - 1) {
    tfc_strbuf_puts(out, " ");
    return;
  }
  for (int j = 0; j < rank - dim - 1; j++) tfc_strbuf_puts(out, "\n");
  for (int j = 0; j <= dim; j++) tfc_strbuf_puts(out, " ");
}

/* Writes dimension dim of t starting at flat element `base`, keeping `ends`
 * entries at each end of every dimension. */
static void print_dim_v2(const tfc_tensor *t, int dim, int64_t ends, int64_t base,
                         tfc_strbuf *out) {
  if (dim == t->rank) {
    put_element_v2(t, base, out);
    return;
  }
  tfc_strbuf_puts(out, "[");
  int64_t count = t->dims[dim];
  int64_t stride = 1;
  for (int d = dim + 1; d < t->rank; d++) stride *= t->dims[d];
  int64_t start_of_end = count - ends > ends ? count - ends : ends;
  for (int64_t i = 0; i < ends && i < count; i++) {
    if (i > 0) put_spacing_v2(dim, t->rank, out);
    print_dim_v2(t, dim + 1, ends, base + stride * i, out);
  }
  if (count > 2 * ends) {
    put_spacing_v2(dim, t->rank, out);
    tfc_strbuf_puts(out, "...");
  }
  for (int64_t i = start_of_end; i < count; i++) {
    put_spacing_v2(dim, t->rank, out);
    print_dim_v2(t, dim + 1, ends, base + stride * i, out);
  }
  tfc_strbuf_puts(out, "]");
}

/* Appends t in print_v2 form (see summarize.h). */
bool tfc_summarize_tensor_v2(const tfc_tensor *t, int64_t max_entries, tfc_strbuf *out) {
  int64_t n = t->nelems;
  if (max_entries < 0 || max_entries > n) max_entries = n;
  if (t->rank == 0) {
    put_element_v2(t, 0, out);
  } else {
    print_dim_v2(t, 0, max_entries, 0, out);
  }
  return !out->oom;
}
