/*
 * dataset_csv.c — TF's CSVDataset (tf.data.experimental.CsvDataset): the
 * records of CSV files, one scalar per selected column. Each file is read
 * whole (decompressed on the fly for ZLIB/GZIP) and parsed from a byte
 * offset, which is also the saved position. Fields follow TF's rules:
 * RFC-4180 quoting when use_quote_delim (delimiters and newlines inside
 * quotes, "" for a quote), records end at \n or \r\n, numbers may be padded
 * with blanks, an empty field or na_value takes the column's default (an
 * empty default makes it required), and TF's messages for every error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "io/zstream.h"
#include "kernels/dataset_internal.h"

#define MAXC 64

typedef struct csv_ds {
  tfc_dataset ds;
  char **files;
  int nfiles;
  tfc_zstream_kind comp;
  bool header, quote;
  char delim;
  char *na;
  size_t na_len;
  int64_t *select; /* n_select column indices, or NULL: all */
  int n_select;
  int64_t *exclude; /* n_exclude column indices left out (CSVDatasetV2), or NULL */
  int n_exclude;
  tfc_tensor **defaults; /* ds.n */
} csv_ds;

static void csv_destroy(tfc_dataset *ds) {
  csv_ds *d = (csv_ds *)ds;
  for (int i = 0; i < d->nfiles; i++) tfc_free(d->files[i]);
  tfc_free(d->files);
  tfc_free(d->na);
  tfc_free(d->select);
  tfc_free(d->exclude);
  for (int i = 0; d->defaults && i < ds->n; i++) tfc_tensor_unref(d->defaults[i]);
  tfc_free(d->defaults);
}

typedef struct csv_it {
  tfc_iter it;
  csv_ds *d;
  int file;       /* the open file, or the next to open */
  char *data;     /* its bytes (NULL: none open) */
  size_t len, pos;
  tfc_strbuf field;
} csv_it;

static void csv_it_free(tfc_iter *it) {
  csv_it *c = (csv_it *)it;
  tfc_free(c->data);
  tfc_strbuf_free(&c->field);
  tfc_object_unref(&c->d->ds.base);
  tfc_free(c);
}

/* Reads file c->file whole into c->data; false + st. */
static bool open_file(csv_it *c, tfc_status *st) {
  tfc_istream *in = tfc_istream_open_file(c->d->files[c->file], c->d->comp, st);
  if (!in) return false;
  size_t cap = 1u << 16, len = 0;
  char *data = tfc_malloc(cap);
  for (;;) {
    if (!data) {
      tfc_istream_free(in);
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory reading %s", c->d->files[c->file]);
    }
    if (len == cap) {
      char *nd = tfc_realloc(data, cap * 2);
      if (!nd) tfc_free(data);
      data = nd;
      cap *= 2;
      continue;
    }
    size_t got = 0;
    if (!tfc_istream_read(in, data + len, cap - len, &got, st)) {
      tfc_free(data);
      tfc_istream_free(in);
      return false;
    }
    if (!got) break;
    len += got;
  }
  tfc_istream_free(in);
  c->data = data;
  c->len = len;
  c->pos = 0;
  if (c->d->header) { /* skip the first line */
    while (c->pos < len && data[c->pos] != '\n') c->pos++;
    if (c->pos < len) c->pos++;
  }
  return true;
}

/* Converts field text (p, n) of column col (output c) into out[c]. */
static bool convert(csv_it *c, int c_out, int64_t col, const char *p, size_t n, tfc_tensor **out, tfc_status *st) {
  csv_ds *d = c->d;
  tfc_dtype t = d->ds.types[c_out];
  const tfc_tensor *def = d->defaults[c_out];
  if (n == 0 || (d->na_len == n && memcmp(d->na, p, n) == 0)) {
    if (def->nelems == 0)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Field %lld is required but missing in record!",
                            (long long)col);
    out[c_out] = tfc_tensor_new(t, 0, NULL, st);
    if (!out[c_out]) return false;
    if (t == TFC_DTYPE_STRING) {
      const tfc_string *s = def->data;
      return tfc_tensor_set_string(out[c_out], 0, s->data, s->len, st);
    }
    memcpy(out[c_out]->data, def->data, tfc_dtype_size(t));
    return true;
  }
  out[c_out] = tfc_tensor_new(t, 0, NULL, st);
  if (!out[c_out]) return false;
  if (t == TFC_DTYPE_STRING) return tfc_tensor_set_string(out[c_out], 0, p, n, st);
  char tmp[128];
  const char *q = p;
  size_t m = n;
  while (m && (*q == ' ' || *q == '\t')) q++, m--;
  while (m && (q[m - 1] == ' ' || q[m - 1] == '\t')) m--;
  bool ok = m > 0 && m < sizeof tmp;
  if (ok) {
    memcpy(tmp, q, m);
    tmp[m] = 0;
    char *end;
    errno = 0;
    if (t == TFC_DTYPE_INT32 || t == TFC_DTYPE_INT64) {
      long long v = strtoll(tmp, &end, 10);
      ok = !*end && errno != ERANGE && (t == TFC_DTYPE_INT64 || (v >= INT32_MIN && v <= INT32_MAX));
      if (ok && t == TFC_DTYPE_INT32) *(int32_t *)out[c_out]->data = (int32_t)v;
      else if (ok) *(int64_t *)out[c_out]->data = v;
    } else if (t == TFC_DTYPE_FLOAT) {
      float v = strtof(tmp, &end);
      ok = !*end;
      *(float *)out[c_out]->data = v;
    } else {
      double v = strtod(tmp, &end);
      ok = !*end;
      *(double *)out[c_out]->data = v;
    }
  }
  if (!ok)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Field %lld in record is not a valid %s: %.*s",
                          (long long)col,
                          t == TFC_DTYPE_FLOAT ? "float" : t == TFC_DTYPE_DOUBLE ? "double" : tfc_dtype_name(t), (int)n, p);
  return true;
}

/* Parses one field at c->pos into c->field; *end_rec tells whether the
 * record ended after it. false + st on a quoting error. */
static bool read_field(csv_it *c, bool *end_rec, tfc_status *st) {
  csv_ds *d = c->d;
  const char *s = c->data;
  size_t i = c->pos, n = c->len;
  c->field.len = 0;
  if (d->quote && i < n && s[i] == '"') {
    i++;
    for (;;) {
      if (i >= n)
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                              "Reached end of file without closing quoted field in record");
      if (s[i] == '"') {
        if (i + 1 < n && s[i + 1] == '"') {
          tfc_strbuf_append(&c->field, "\"", 1);
          i += 2;
          continue;
        }
        if (i + 1 >= n || s[i + 1] == d->delim || s[i + 1] == '\n' || s[i + 1] == '\r') {
          i++;
          break;
        }
        i++; /* a lone quote inside quotes: dropped, as TF */
        continue;
      }
      tfc_strbuf_append(&c->field, s + i, 1);
      i++;
    }
  } else {
    size_t start = i;
    while (i < n && s[i] != d->delim && s[i] != '\n' && s[i] != '\r') {
      if (d->quote && s[i] == '"')
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Unquoted fields cannot have quotes inside");
      i++;
    }
    tfc_strbuf_append(&c->field, s + start, i - start);
  }
  if (c->field.oom) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory parsing CSV");
  if (i < n && s[i] == d->delim) {
    *end_rec = false;
    i++;
  } else {
    *end_rec = true;
    if (i < n && s[i] == '\r') i++;
    if (i < n && s[i] == '\n') i++;
  }
  c->pos = i;
  return true;
}

/* Skips to the start of the next record. */
static void skip_record(csv_it *c) {
  bool quoted = false;
  while (c->pos < c->len) {
    char ch = c->data[c->pos++];
    if (c->d->quote && ch == '"') quoted = !quoted;
    else if (ch == '\n' && !quoted) return;
  }
}

static int csv_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  csv_it *c = (csv_it *)it;
  csv_ds *d = c->d;
  int n = d->ds.n;
  while (!c->data || c->pos >= c->len) {
    if (c->data) {
      tfc_free(c->data);
      c->data = NULL;
      c->file++;
    }
    if (c->file >= d->nfiles) return 0;
    if (!open_file(c, st)) return -1;
  }
  for (int i = 0; i < n; i++) out[i] = NULL;
  int got = 0;
  int64_t col = 0;
  bool end_rec = false;
  while (!end_rec) {
    if (!read_field(c, &end_rec, st)) goto fail;
    bool take = d->select ? (got < d->n_select && d->select[got] == col) : true;
    for (int k = 0; take && k < d->n_exclude; k++) take = d->exclude[k] != col;
    if (take) {
      if (got >= n) {
        tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Expect %d fields but have more in record", n);
        goto fail;
      }
      if (!convert(c, got, col, c->field.data ? c->field.data : "", c->field.len, out, st)) goto fail;
      got++;
      if (d->select && got == d->n_select && !end_rec) {
        skip_record(c);
        break;
      }
    }
    col++;
  }
  if (got < n) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Expect %d fields but have %d in record", n, got);
    goto fail;
  }
  return 1;
fail:
  tfc_element_clear(out, n);
  skip_record(c);
  return -1;
}

/* State: the file index and the offset of the next record in it. */
static bool csv_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  csv_it *c = (csv_it *)it;
  return tfc_ds_put_i64(w, c->file, st) && tfc_ds_put_i64(w, c->data ? (int64_t)c->pos : -1, st);
}

static bool csv_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  csv_it *c = (csv_it *)it;
  int64_t file, pos;
  if (!tfc_ds_get_i64(r, &file, st) || !tfc_ds_get_i64(r, &pos, st)) return false;
  if (file < 0 || file > c->d->nfiles) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad CSV position");
  c->file = (int)file;
  if (pos < 0 || file == c->d->nfiles) return true;
  if (!open_file(c, st)) return false;
  if ((size_t)pos > c->len) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad CSV offset");
  c->pos = (size_t)pos;
  return true;
}

static const tfc_iter_vt csv_it_vt = {csv_next, csv_it_free, csv_save, csv_restore, "CSV", NULL};

static tfc_iter *csv_make(tfc_dataset *ds, tfc_status *st) {
  csv_it *c = tfc_calloc(1, sizeof *c);
  if (!c) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  c->it.vt = &csv_it_vt;
  c->d = (csv_ds *)tfc_object_ref(&ds->base);
  tfc_strbuf_init(&c->field);
  return &c->it;
}

static const tfc_dataset_vt csv_vt = {"CSVDataset", csv_make, csv_destroy};

tfc_dataset *tfc_ds_csv(const tfc_tensor *filenames, int comp, bool header, char delim, bool quote,
                        const char *na, size_t na_len, const int64_t *select, int n_select, const int64_t *exclude,
                        int n_exclude, tfc_tensor *const *defaults, int n, const tfc_shape *shapes, tfc_status *st) {
  tfc_dtype types[MAXC];
  if (n < 1 || n > MAXC) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "CSVDataset needs 1 to %d record_defaults", MAXC);
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    types[i] = defaults[i]->dtype;
    if (defaults[i]->nelems > 1) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "There should only be 1 default per field but field %d has %lld",
                     i, (long long)defaults[i]->nelems);
      return NULL;
    }
  }
  if (select && n_select != n) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                   "Expected len(select_cols) to be equal to len(record_defaults), got %d vs %d", n_select, n);
    return NULL;
  }
  for (int i = 1; select && i < n_select; i++)
    if (select[i] <= select[i - 1]) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "select_cols is not strictly increasing.");
      return NULL;
    }
  if (select && n_select && select[0] < 0) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "select_cols should be non-negative");
    return NULL;
  }
  csv_ds *d = (csv_ds *)tfc_dataset_alloc(sizeof *d, NULL, n, types, shapes, st);
  if (!d) return NULL;
  d->files = tfc_calloc((size_t)filenames->nelems + 1, sizeof(char *));
  d->defaults = tfc_calloc((size_t)n, sizeof(tfc_tensor *));
  d->na = tfc_malloc(na_len + 1);
  d->select = select ? tfc_malloc(sizeof(int64_t) * (size_t)(n_select + 1)) : NULL;
  d->exclude = n_exclude ? tfc_malloc(sizeof(int64_t) * (size_t)n_exclude) : NULL;
  bool ok = d->files && d->defaults && d->na && (!select || d->select) && (!n_exclude || d->exclude);
  const tfc_string *names = filenames->data;
  for (int64_t i = 0; ok && i < filenames->nelems; i++) {
    d->files[i] = tfc_malloc(names[i].len + 1);
    ok = d->files[i] != NULL;
    if (ok) {
      if (names[i].len) memcpy(d->files[i], names[i].data, names[i].len);
      d->files[i][names[i].len] = 0;
      d->nfiles = (int)(i + 1);
    }
  }
  if (!ok) {
    tfc_object_unref(&d->ds.base);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  for (int i = 0; i < n; i++) d->defaults[i] = tfc_tensor_ref(defaults[i]);
  if (na_len) memcpy(d->na, na, na_len);
  d->na_len = na_len;
  if (select) memcpy(d->select, select, sizeof(int64_t) * (size_t)n_select);
  d->n_select = select ? n_select : 0;
  if (n_exclude) memcpy(d->exclude, exclude, sizeof(int64_t) * (size_t)n_exclude);
  d->n_exclude = n_exclude;
  d->comp = (tfc_zstream_kind)comp;
  d->header = header;
  d->delim = delim;
  d->quote = quote;
  d->ds.vt = &csv_vt;
  return &d->ds;
}
