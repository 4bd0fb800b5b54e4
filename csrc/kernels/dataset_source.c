/*
 * dataset_source.c — datasets that produce elements: TensorDataset,
 * TensorSliceDataset, RangeDataset, TFRecordDataset, TextLineDataset and
 * FixedLengthRecordDataset (files read in order, each iterator opening its
 * own streams).
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "io/record.h"
#include "io/zstream.h"
#include "kernels/dataset_internal.h"

/* ---- TensorDataset / TensorSliceDataset ---- */

typedef struct tensors_ds {
  tfc_dataset ds;
  bool slices;
  int64_t rows;
  tfc_tensor **comps;
} tensors_ds;

typedef struct tensors_it {
  tfc_iter it;
  tensors_ds *ds;
  int64_t pos;
} tensors_it;

static int tensors_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  tensors_it *ti = (tensors_it *)it;
  tensors_ds *d = ti->ds;
  if (ti->pos >= d->rows) return 0;
  for (int c = 0; c < d->ds.n; c++) {
    out[c] = d->slices ? tfc_ds_row(d->comps[c], ti->pos, st) : tfc_tensor_ref(d->comps[c]);
    if (!out[c]) {
      tfc_element_clear(out, c);
      return -1;
    }
  }
  ti->pos++;
  return 1;
}

static void tensors_it_free(tfc_iter *it) {
  tensors_it *ti = (tensors_it *)it;
  tfc_object_unref(&ti->ds->ds.base);
  tfc_free(ti);
}

/* State: the next row. */
static bool tensors_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  return tfc_ds_put_i64(w, ((tensors_it *)it)->pos, st);
}

static bool tensors_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  tensors_it *ti = (tensors_it *)it;
  int64_t pos;
  if (!tfc_ds_get_i64(r, &pos, st)) return false;
  if (pos < 0 || pos > ti->ds->rows)
    return tfc_status_set(st, TFC_CODE_NOT_FOUND, "Iterator::TensorSlice::i (%lld of %lld rows)", (long long)pos,
                          (long long)ti->ds->rows);
  ti->pos = pos;
  return true;
}

static const tfc_iter_vt tensors_it_vt = {tensors_next, tensors_it_free, tensors_save, tensors_restore, "Tensors",
                                          NULL};

static tfc_iter *tensors_make(tfc_dataset *ds, tfc_status *st) {
  tensors_it *ti = tfc_calloc(1, sizeof *ti);
  if (!ti) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  ti->it.vt = &tensors_it_vt;
  ti->ds = (tensors_ds *)tfc_object_ref(&ds->base);
  return &ti->it;
}

static void tensors_destroy(tfc_dataset *ds) {
  tensors_ds *d = (tensors_ds *)ds;
  for (int c = 0; c < ds->n && d->comps; c++) tfc_tensor_unref(d->comps[c]);
  tfc_free(d->comps);
}

static const tfc_dataset_vt tensors_vt = {"TensorDataset", tensors_make, tensors_destroy};
static const tfc_dataset_vt slices_vt = {"TensorSliceDataset", tensors_make, tensors_destroy};

/* TensorDataset (one element) or TensorSliceDataset (the rows). */
tfc_dataset *tfc_ds_tensors(tfc_tensor *const *comps, int n, bool slices, const tfc_shape *shapes,
                            tfc_status *st) {
  tfc_dtype types[64];
  if (n > 64) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "too many components (%d)", n);
    return NULL;
  }
  int64_t rows = 1;
  for (int c = 0; c < n; c++) {
    types[c] = comps[c]->dtype;
    if (slices) {
      if (comps[c]->rank < 1) {
        tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Component %d of a TensorSliceDataset must have rank >= 1",
                       c);
        return NULL;
      }
      if (c > 0 && comps[c]->dims[0] != rows) {
        tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                       "Dimension 0 in both shapes must be equal: component 0 has %lld rows, component %d has %lld",
                       (long long)rows, c, (long long)comps[c]->dims[0]);
        return NULL;
      }
      rows = comps[c]->dims[0];
    }
  }
  tensors_ds *d = (tensors_ds *)tfc_dataset_alloc(sizeof *d, NULL, n, types, shapes, st);
  if (!d) return NULL;
  d->comps = tfc_calloc((size_t)n + 1, sizeof(tfc_tensor *));
  d->ds.vt = slices ? &slices_vt : &tensors_vt;
  if (!d->comps) {
    tfc_object_unref(&d->ds.base);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  for (int c = 0; c < n; c++) d->comps[c] = tfc_tensor_ref(comps[c]);
  d->slices = slices;
  d->rows = rows;
  d->ds.cardinality = slices ? rows : 1;
  return &d->ds;
}

/* ---- RangeDataset ---- */

typedef struct range_ds {
  tfc_dataset ds;
  int64_t start, stop, step;
} range_ds;

typedef struct range_it {
  tfc_iter it;
  int64_t next, stop, step;
  tfc_dtype dtype;
} range_it;

static int range_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  range_it *r = (range_it *)it;
  if ((r->step > 0 && r->next >= r->stop) || (r->step < 0 && r->next <= r->stop)) return 0;
  tfc_tensor *t = tfc_tensor_new(r->dtype, 0, NULL, st);
  if (!t) return -1;
  switch (r->dtype) {
    case TFC_DTYPE_INT32: *(int32_t *)t->data = (int32_t)r->next; break;
    case TFC_DTYPE_FLOAT: *(float *)t->data = (float)r->next; break;
    case TFC_DTYPE_DOUBLE: *(double *)t->data = (double)r->next; break;
    default: *(int64_t *)t->data = r->next; break;
  }
  out[0] = t;
  r->next += r->step;
  return 1;
}

static void range_it_free(tfc_iter *it) { tfc_free(it); }

/* State: the next value. */
static bool range_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  return tfc_ds_put_i64(w, ((range_it *)it)->next, st);
}

static bool range_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  return tfc_ds_get_i64(r, &((range_it *)it)->next, st);
}

static const tfc_iter_vt range_it_vt = {range_next, range_it_free, range_save, range_restore, "Range", NULL};

static tfc_iter *range_make(tfc_dataset *ds, tfc_status *st) {
  range_ds *d = (range_ds *)ds;
  range_it *r = tfc_calloc(1, sizeof *r);
  if (!r) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  r->it.vt = &range_it_vt;
  r->next = d->start;
  r->stop = d->stop;
  r->step = d->step;
  r->dtype = ds->types[0];
  return &r->it;
}

static const tfc_dataset_vt range_vt = {"RangeDataset", range_make, NULL};

/* RangeDataset over [start, stop) by step (!= 0). */
tfc_dataset *tfc_ds_range(int64_t start, int64_t stop, int64_t step, tfc_dtype dtype, tfc_status *st) {
  if (step == 0) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "step must be a non-zero integer.");
    return NULL;
  }
  tfc_shape scalar = tfc_shape_scalar();
  range_ds *d = (range_ds *)tfc_dataset_alloc(sizeof *d, NULL, 1, &dtype, &scalar, st);
  if (!d) return NULL;
  d->ds.vt = &range_vt;
  d->start = start;
  d->stop = stop;
  d->step = step;
  d->ds.cardinality = tfc_ds_card_range(start, stop, step);
  return &d->ds;
}

/* ---- file datasets ---- */

typedef struct files_ds {
  tfc_dataset ds;
  tfc_ds_file_kind kind;
  tfc_zstream_kind comp;
  int nfiles;
  char **files;
  int64_t header, record, footer;
} files_ds;

typedef struct files_it {
  tfc_iter it;
  files_ds *ds;
  int file;                 /* index of the open file, or next to open */
  int64_t consumed;         /* records already returned from the open file */
  tfc_record_reader *rec;
  tfc_istream *in;
  char *buf;
  size_t cap, pos, len;
  bool eof;
  char *whole;              /* fixed-length: the file's bytes */
  size_t whole_len, whole_pos, whole_end;
} files_it;

/* Closes the current file. */
static void files_close(files_it *f) {
  tfc_record_reader_free(f->rec);
  tfc_istream_free(f->in);
  f->rec = NULL;
  f->in = NULL;
  f->pos = f->len = 0;
  f->eof = false;
  tfc_free(f->whole);
  f->whole = NULL;
}

/* A scalar string tensor holding (p, n). */
static tfc_tensor *string_scalar(const void *p, size_t n, tfc_status *st) {
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_STRING, 0, NULL, st);
  if (t && !tfc_tensor_set_string(t, 0, p, n, st)) {
    tfc_tensor_unref(t);
    return NULL;
  }
  return t;
}

/* Reads more of the text file into buf; false + st on error. */
static bool text_fill(files_it *f, tfc_status *st) {
  if (f->pos) {
    memmove(f->buf, f->buf + f->pos, f->len - f->pos);
    f->len -= f->pos;
    f->pos = 0;
  }
  if (f->len == f->cap) {
    size_t ncap = f->cap ? f->cap * 2 : (1u << 20);
    char *nb = tfc_realloc(f->buf, ncap);
    if (!nb) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory reading lines");
    f->buf = nb;
    f->cap = ncap;
  }
  size_t got = 0;
  if (!tfc_istream_read(f->in, f->buf + f->len, f->cap - f->len, &got, st)) return false;
  if (got == 0) f->eof = true;
  f->len += got;
  return true;
}

/* Opens file f->file; false + st. */
static bool files_open(files_it *f, tfc_status *st) {
  files_ds *d = f->ds;
  const char *path = d->files[f->file];
  if (d->kind == TFC_DS_TFRECORD) {
    f->rec = tfc_record_reader_open(path, d->comp, st);
    f->consumed = 0;
    return f->rec != NULL;
  }
  f->in = tfc_istream_open_file(path, d->comp, st);
  if (!f->in) return false;
  f->consumed = 0;
  if (d->kind == TFC_DS_FIXED_LENGTH) {
    size_t cap = 1u << 16, len = 0;
    char *data = tfc_malloc(cap);
    for (;;) {
      if (!data) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory reading %s", path);
      if (len == cap) {
        char *nd = tfc_realloc(data, cap * 2);
        if (!nd) {
          tfc_free(data);
          return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory reading %s", path);
        }
        data = nd;
        cap *= 2;
      }
      size_t got = 0;
      if (!tfc_istream_read(f->in, data + len, cap - len, &got, st)) {
        tfc_free(data);
        return false;
      }
      if (!got) break;
      len += got;
    }
    f->whole = data;
    f->whole_len = len;
    f->whole_pos = (size_t)d->header;
    f->whole_end = len > (size_t)d->footer ? len - (size_t)d->footer : 0;
  }
  return true;
}

static int files_next_record(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  files_it *f = (files_it *)it;
  files_ds *d = f->ds;
  for (;;) {
    if (!f->rec && !f->in) {
      if (f->file >= d->nfiles) return 0;
      if (!files_open(f, st)) {
        files_close(f);
        return -1;
      }
    }
    if (d->kind == TFC_DS_TFRECORD) {
      const uint8_t *data;
      size_t len;
      int rc = tfc_record_reader_next(f->rec, &data, &len, st);
      if (rc < 0) return -1;
      if (rc == 1) return (out[0] = string_scalar(data, len, st)) ? 1 : -1;
    } else if (d->kind == TFC_DS_FIXED_LENGTH) {
      if (f->whole_pos + (size_t)d->record <= f->whole_end) {
        out[0] = string_scalar(f->whole + f->whole_pos, (size_t)d->record, st);
        f->whole_pos += (size_t)d->record;
        return out[0] ? 1 : -1;
      }
    } else {
      for (;;) {
        char *nl = f->len > f->pos ? memchr(f->buf + f->pos, '\n', f->len - f->pos) : NULL;
        if (nl || (f->eof && f->len > f->pos)) {
          const char *line = f->buf + f->pos;
          size_t n = nl ? (size_t)(nl - line) : f->len - f->pos;
          f->pos += nl ? n + 1 : n;
          if (n && line[n - 1] == '\r') n--;
          return (out[0] = string_scalar(line, n, st)) ? 1 : -1;
        }
        if (f->eof) break;
        if (!text_fill(f, st)) return -1;
      }
    }
    files_close(f);
    f->file++;
  }
}

static void files_it_free(tfc_iter *it) {
  files_it *f = (files_it *)it;
  files_close(f);
  tfc_free(f->buf);
  tfc_object_unref(&f->ds->ds.base);
  tfc_free(f);
}

/* The next record, counted in the open file. */
static int files_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  int rc = files_next_record(it, out, st);
  if (rc == 1) ((files_it *)it)->consumed++;
  return rc;
}

/* State: the file's index and how many of its records were returned. */
static bool files_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  files_it *f = (files_it *)it;
  bool open = f->rec || f->in;
  return tfc_ds_put_i64(w, f->file, st) && tfc_ds_put_i64(w, open ? f->consumed : 0, st);
}

/* Reopens the saved file and reads past the records already returned. */
static bool files_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  files_it *f = (files_it *)it;
  int64_t file, consumed;
  if (!tfc_ds_get_i64(r, &file, st) || !tfc_ds_get_i64(r, &consumed, st)) return false;
  if (file < 0 || file > f->ds->nfiles || consumed < 0)
    return tfc_status_set(st, TFC_CODE_NOT_FOUND, "Iterator::%s::current_file_index (%lld of %d files)",
                          f->ds->ds.vt->name, (long long)file, f->ds->nfiles);
  files_close(f);
  f->file = (int)file;
  for (int64_t i = 0; i < consumed; i++) {
    tfc_tensor *rec = NULL;
    int rc = files_next(it, &rec, st);
    if (rc < 0) return false;
    if (rc == 0) break;
    tfc_tensor_unref(rec);
  }
  return true;
}

static const tfc_iter_vt files_it_vt = {files_next, files_it_free, files_save, files_restore, "Files", NULL};

static tfc_iter *files_make(tfc_dataset *ds, tfc_status *st) {
  files_it *f = tfc_calloc(1, sizeof *f);
  if (!f) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  f->it.vt = &files_it_vt;
  f->ds = (files_ds *)tfc_object_ref(&ds->base);
  return &f->it;
}

static void files_destroy(tfc_dataset *ds) {
  files_ds *d = (files_ds *)ds;
  for (int i = 0; i < d->nfiles && d->files; i++) tfc_free(d->files[i]);
  tfc_free(d->files);
}

static const tfc_dataset_vt tfrecord_vt = {"TFRecordDataset", files_make, files_destroy};
static const tfc_dataset_vt textline_vt = {"TextLineDataset", files_make, files_destroy};
static const tfc_dataset_vt fixed_vt = {"FixedLengthRecordDataset", files_make, files_destroy};

/* TFRecord / text-line / fixed-length record files, in order. */
tfc_dataset *tfc_ds_files(tfc_ds_file_kind kind, const tfc_tensor *filenames, const char *compression,
                          int64_t header, int64_t record, int64_t footer, tfc_status *st) {
  if (filenames->dtype != TFC_DTYPE_STRING || filenames->rank > 1) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "`filenames` must be a scalar or a vector of strings.");
    return NULL;
  }
  tfc_zstream_kind comp;
  if (!tfc_record_compression_parse(compression, &comp, st)) return NULL;
  if (kind == TFC_DS_FIXED_LENGTH && (record <= 0 || header < 0 || footer < 0)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "record_bytes must be positive, header/footer bytes >= 0");
    return NULL;
  }
  tfc_dtype t = TFC_DTYPE_STRING;
  tfc_shape scalar = tfc_shape_scalar();
  files_ds *d = (files_ds *)tfc_dataset_alloc(sizeof *d, NULL, 1, &t, &scalar, st);
  if (!d) return NULL;
  d->ds.vt = kind == TFC_DS_TFRECORD ? &tfrecord_vt : kind == TFC_DS_TEXT_LINE ? &textline_vt : &fixed_vt;
  d->files = tfc_calloc((size_t)filenames->nelems + 1, sizeof(char *));
  if (!d->files) goto oom;
  const tfc_string *s = filenames->data;
  for (int64_t i = 0; i < filenames->nelems; i++) {
    d->files[i] = tfc_malloc(s[i].len + 1);
    if (!d->files[i]) goto oom;
    d->nfiles++;
    if (s[i].len) memcpy(d->files[i], s[i].data, s[i].len);
    d->files[i][s[i].len] = '\0';
  }
  d->kind = kind;
  d->comp = comp;
  d->header = header;
  d->record = record;
  d->footer = footer;
  return &d->ds;
oom:
  tfc_object_unref(&d->ds.base);
  tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return NULL;
}
