/*
 * dataset_state.c — the byte encoding of iterator states (see dataset.h):
 * little-endian 64-bit numbers, length-prefixed bytes, tensors as dtype,
 * rank, dims and their values, and each iterator's tag before its fields.
 */
#include <string.h>

#include "base/alloc.h"
#include "kernels/dataset.h"

/* Makes room for n more bytes. */
static bool grow(tfc_ds_writer *w, size_t n, tfc_status *st) {
  if (w->cap - w->len >= n) return true;
  size_t cap = w->cap ? w->cap : 256;
  while (cap - w->len < n) cap *= 2;
  char *nb = tfc_realloc(w->buf, cap);
  if (!nb) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory saving an iterator");
  w->buf = nb;
  w->cap = cap;
  return true;
}

/* Appends a number. */
bool tfc_ds_put_i64(tfc_ds_writer *w, int64_t v, tfc_status *st) {
  if (!grow(w, 8, st)) return false;
  uint64_t u = (uint64_t)v;
  for (int i = 0; i < 8; i++) w->buf[w->len++] = (char)(u >> (8 * i));
  return true;
}

/* Appends n bytes with their length. */
bool tfc_ds_put_bytes(tfc_ds_writer *w, const void *p, size_t n, tfc_status *st) {
  if (!tfc_ds_put_i64(w, (int64_t)n, st) || !grow(w, n, st)) return false;
  if (n) memcpy(w->buf + w->len, p, n);
  w->len += n;
  return true;
}

/* Appends a dense tensor. */
bool tfc_ds_put_tensor(tfc_ds_writer *w, const tfc_tensor *t, tfc_status *st) {
  if (tfc_dtype_holds_objects(t->dtype) || (t->dtype != TFC_DTYPE_STRING && !tfc_dtype_is_supported(t->dtype)))
    return tfc_status_set(st, TFC_CODE_UNIMPLEMENTED, "Saving an iterator whose elements hold %s tensors is not supported",
                          tfc_dtype_name(t->dtype));
  if (!tfc_ds_put_i64(w, t->dtype, st) || !tfc_ds_put_i64(w, t->rank, st)) return false;
  for (int d = 0; d < t->rank; d++)
    if (!tfc_ds_put_i64(w, t->dims[d], st)) return false;
  if (t->dtype == TFC_DTYPE_STRING) {
    const tfc_string *s = t->data;
    for (int64_t i = 0; i < t->nelems; i++)
      if (!tfc_ds_put_bytes(w, s[i].data, s[i].len, st)) return false;
    return true;
  }
  return tfc_ds_put_bytes(w, t->data, tfc_tensor_nbytes(t), st);
}

/* Appends n tensors. */
bool tfc_ds_put_element(tfc_ds_writer *w, tfc_tensor *const *el, int n, tfc_status *st) {
  for (int c = 0; c < n; c++)
    if (!tfc_ds_put_tensor(w, el[c], st)) return false;
  return true;
}

/* NOT_FOUND for a state that ends early or does not fit. */
static bool short_state(tfc_status *st) {
  return tfc_status_set(st, TFC_CODE_NOT_FOUND, "the saved iterator state ends early or is of another dataset");
}

/* Reads a number. */
bool tfc_ds_get_i64(tfc_ds_reader *r, int64_t *v, tfc_status *st) {
  if (r->end - r->p < 8) return short_state(st);
  uint64_t u = 0;
  for (int i = 0; i < 8; i++) u |= (uint64_t)(unsigned char)r->p[i] << (8 * i);
  r->p += 8;
  *v = (int64_t)u;
  return true;
}

/* Reads length-prefixed bytes (pointing into the state). */
bool tfc_ds_get_bytes(tfc_ds_reader *r, const void **p, size_t *n, tfc_status *st) {
  int64_t len;
  if (!tfc_ds_get_i64(r, &len, st)) return false;
  if (len < 0 || len > r->end - r->p) return short_state(st);
  *p = r->p;
  *n = (size_t)len;
  r->p += len;
  return true;
}

/* Reads a tensor. */
tfc_tensor *tfc_ds_get_tensor(tfc_ds_reader *r, tfc_status *st) {
  int64_t dt, rank, dims[TFC_MAX_RANK];
  if (!tfc_ds_get_i64(r, &dt, st) || !tfc_ds_get_i64(r, &rank, st)) return NULL;
  if (dt <= 0 || dt >= TFC_DTYPE_NUM || rank < 0 || rank > TFC_MAX_RANK ||
      (dt != TFC_DTYPE_STRING && (!tfc_dtype_is_supported((tfc_dtype)dt) || tfc_dtype_holds_objects((tfc_dtype)dt)))) {
    tfc_status_set(st, TFC_CODE_DATA_LOSS, "a tensor in the saved iterator state has a bad dtype or rank");
    return NULL;
  }
  int64_t nelems = 1;
  for (int d = 0; d < rank; d++) {
    if (!tfc_ds_get_i64(r, &dims[d], st)) return NULL;
    if (dims[d] < 0 || (dims[d] && nelems > (r->end - r->p) / dims[d] + 1)) {
      tfc_status_set(st, TFC_CODE_DATA_LOSS, "a tensor in the saved iterator state has a bad shape");
      return NULL;
    }
    nelems *= dims[d];
  }
  if (dt == TFC_DTYPE_STRING && nelems > (r->end - r->p) / 8) {
    short_state(st);
    return NULL;
  }
  tfc_tensor *t = tfc_tensor_new((tfc_dtype)dt, (int)rank, dims, st);
  if (!t) return NULL;
  const void *p;
  size_t n;
  if (dt == TFC_DTYPE_STRING) {
    for (int64_t i = 0; i < t->nelems; i++)
      if (!tfc_ds_get_bytes(r, &p, &n, st) || !tfc_tensor_set_string(t, i, p, n, st)) {
        tfc_tensor_unref(t);
        return NULL;
      }
    return t;
  }
  if (!tfc_ds_get_bytes(r, &p, &n, st) || n != tfc_tensor_nbytes(t)) {
    if (tfc_status_ok(st)) tfc_status_set(st, TFC_CODE_DATA_LOSS, "a tensor in the saved iterator state has the wrong size");
    tfc_tensor_unref(t);
    return NULL;
  }
  if (n) memcpy(t->data, p, n);
  return t;
}

/* Reads n tensors. */
bool tfc_ds_get_element(tfc_ds_reader *r, tfc_tensor **el, int n, tfc_status *st) {
  for (int c = 0; c < n; c++)
    if (!(el[c] = tfc_ds_get_tensor(r, st))) {
      tfc_element_clear(el, c);
      return false;
    }
  return true;
}

/* Writes the tag and the iterator's state. */
bool tfc_iter_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  const tfc_iter_vt *vt = it->vt;
  if (!vt->save && !w->ignore_external)
    return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "%s",
                          vt->unsaveable ? vt->unsaveable : "This iterator's state cannot be saved.");
  const char *name = vt->name ? vt->name : "";
  return tfc_ds_put_bytes(w, name, strlen(name), st) && (!vt->save || vt->save(it, w, st));
}

/* Checks the tag, then restores the iterator's state. */
bool tfc_iter_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  const tfc_iter_vt *vt = it->vt;
  const char *name = vt->name ? vt->name : "";
  const void *p;
  size_t n;
  if (!tfc_ds_get_bytes(r, &p, &n, st)) return false;
  if (n != strlen(name) || memcmp(p, name, n) != 0)
    return tfc_status_set(st, TFC_CODE_NOT_FOUND, "Iterator::%s (the state was saved from a %.*s iterator)", name,
                          (int)(n > 64 ? 64 : n), (const char *)p);
  return !vt->restore || vt->restore(it, r, st);
}

/* A presence flag, then the state. */
bool tfc_iter_save_opt(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  if (!tfc_ds_put_i64(w, it != NULL, st)) return false;
  return !it || tfc_iter_save(it, w, st);
}

/* The counterpart of tfc_iter_save_opt. */
bool tfc_iter_restore_opt(tfc_iter **it, tfc_dataset *ds, tfc_ds_reader *r, tfc_status *st) {
  int64_t has;
  if (!tfc_ds_get_i64(r, &has, st)) return false;
  tfc_iter_free(*it);
  *it = NULL;
  if (!has) return true;
  *it = tfc_dataset_iter(ds, st);
  return *it && tfc_iter_restore(*it, r, st);
}
