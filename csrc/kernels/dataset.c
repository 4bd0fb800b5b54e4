/*
 * dataset.c — the dataset object (see dataset.h) and element helpers
 * shared by the dataset kinds: row slicing and batching with padding.
 */
#include "kernels/dataset.h"

#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/dataset_internal.h"

/* Destroys a dataset through its kind, then the common fields. */
static void dataset_destroy(tfc_object *o) {
  tfc_dataset *ds = (tfc_dataset *)o;
  if (ds->vt && ds->vt->destroy) ds->vt->destroy(ds);
  tfc_free(ds->types);
  tfc_free(ds->shapes);
  tfc_free(ds);
}

const tfc_object_type tfc_dataset_object_type = {"Dataset", dataset_destroy};

/* Allocates a dataset (see dataset.h). */
tfc_dataset *tfc_dataset_alloc(size_t size, const tfc_dataset_vt *vt, int n, const tfc_dtype *types,
                               const tfc_shape *shapes, tfc_status *st) {
  tfc_dataset *ds = tfc_calloc(1, size);
  if (ds) {
    ds->types = tfc_malloc(sizeof(tfc_dtype) * (size_t)(n + 1));
    ds->shapes = tfc_malloc(sizeof(tfc_shape) * (size_t)(n + 1));
  }
  if (!ds || !ds->types || !ds->shapes) {
    if (ds) {
      tfc_free(ds->types);
      tfc_free(ds->shapes);
    }
    tfc_free(ds);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a dataset");
    return NULL;
  }
  tfc_object_init(&ds->base, &tfc_dataset_object_type);
  ds->vt = NULL; /* set by the caller once its fields are valid (destroy may run first) */
  (void)vt;
  ds->n = n;
  ds->cardinality = TFC_DS_UNKNOWN;
  if (n) memcpy(ds->types, types, sizeof(tfc_dtype) * (size_t)n);
  for (int i = 0; i < n; i++) ds->shapes[i] = shapes ? shapes[i] : tfc_shape_unknown();
  return ds;
}

/* The dataset held by a variant tensor. */
tfc_dataset *tfc_dataset_from_tensor(const tfc_tensor *t, tfc_status *st) {
  tfc_object *o = tfc_tensor_object_at(t, 0);
  if (!o || o->type != &tfc_dataset_object_type) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Input is not a dataset variant tensor");
    return NULL;
  }
  return (tfc_dataset *)o;
}

/* Unrefs and clears an element. */
void tfc_element_clear(tfc_tensor **el, int n) {
  for (int i = 0; i < n; i++) {
    tfc_tensor_unref(el[i]);
    el[i] = NULL;
  }
}

/* Copies row i of t (shape t.dims[1:]). */
tfc_tensor *tfc_ds_row(const tfc_tensor *t, int64_t i, tfc_status *st) {
  tfc_tensor *r = tfc_tensor_new(t->dtype, t->rank - 1, t->dims + 1, st);
  if (!r) return NULL;
  int64_t per = r->nelems;
  if (t->dtype == TFC_DTYPE_STRING) {
    const tfc_string *s = (const tfc_string *)t->data + i * per;
    for (int64_t k = 0; k < per; k++)
      if (!tfc_tensor_set_string(r, k, s[k].data, s[k].len, st)) {
        tfc_tensor_unref(r);
        return NULL;
      }
  } else if (per) {
    size_t esz = tfc_dtype_size(t->dtype);
    memcpy(r->data, (const char *)t->data + (size_t)(i * per) * esz, (size_t)per * esz);
  }
  return r;
}

/* Writes "[d0,d1]" into buf. */
static void dims_str(int rank, const int64_t *d, char *buf, size_t cap) {
  size_t pos = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < rank && pos < cap; i++) pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? "," : "", (long long)d[i]);
  if (pos < cap) snprintf(buf + pos, cap - pos, "]");
}

/* Copies element e into a padded slot (dims od) of a zero/pad-filled batch. */
static bool copy_into(const tfc_tensor *e, char *dst, const int64_t *od, size_t esz, tfc_status *st) {
  int r = e->rank;
  if (e->nelems == 0) return true;
  int64_t inner = r ? e->dims[r - 1] : 1;
  int64_t outer = e->nelems / inner;
  int64_t idx[TFC_MAX_RANK] = {0};
  for (int64_t o = 0; o < outer; o++) {
    int64_t off = 0;
    for (int d = 0; d < r - 1; d++) off = off * od[d] + idx[d];
    off *= r ? od[r - 1] : 1;
    if (e->dtype == TFC_DTYPE_STRING) {
      const tfc_string *s = (const tfc_string *)e->data + o * inner;
      tfc_string *t = (tfc_string *)dst + off;
      for (int64_t k = 0; k < inner; k++) {
        tfc_free(t[k].data);
        t[k].data = NULL;
        t[k].len = 0;
        if (s[k].len) {
          t[k].data = tfc_malloc(s[k].len + 1);
          if (!t[k].data) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory batching");
          memcpy(t[k].data, s[k].data, s[k].len);
          t[k].data[s[k].len] = '\0';
          t[k].len = s[k].len;
        }
      }
    } else {
      memcpy(dst + (size_t)off * esz, (const char *)e->data + (size_t)(o * inner) * esz, (size_t)inner * esz);
    }
    for (int d = r - 2; d >= 0; d--) {
      if (++idx[d] < e->dims[d]) break;
      idx[d] = 0;
    }
  }
  return true;
}

/* Stacks component c of count elements (see dataset_internal.h). */
tfc_tensor *tfc_ds_stack(tfc_tensor *const *elems, int64_t count, int n, int c, const int64_t *pad_dims,
                         int pad_rank, const tfc_tensor *pad_value, tfc_status *st) {
  const tfc_tensor *e0 = elems[c];
  int rank = e0->rank;
  int64_t dims[TFC_MAX_RANK + 1];
  if (rank + 1 > TFC_MAX_RANK) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Batching component %d would exceed the maximum rank", c);
    return NULL;
  }
  for (int d = 0; d < rank; d++) dims[d + 1] = e0->dims[d];
  bool padded = pad_dims != NULL;
  for (int64_t i = 0; i < count; i++) {
    const tfc_tensor *e = elems[i * n + c];
    if (e->rank != rank || e->dtype != e0->dtype) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                     "Cannot batch tensors with different shapes in component %d. First element had rank %d "
                     "and element %lld had rank %d.",
                     c, rank, (long long)i, e->rank);
      return NULL;
    }
    for (int d = 0; d < rank; d++) {
      if (padded) {
        if (e->dims[d] > dims[d + 1]) dims[d + 1] = e->dims[d];
      } else if (e->dims[d] != e0->dims[d]) {
        char a[128], b[128];
        dims_str(e0->rank, e0->dims, a, sizeof a);
        dims_str(e->rank, e->dims, b, sizeof b);
        tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                       "Cannot batch tensors with different shapes in component %d. First element had shape %s "
                       "and element %lld had shape %s.",
                       c, a, (long long)i, b);
        return NULL;
      }
    }
  }
  if (padded) {
    if (pad_rank != rank) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                     "The padded shape of component %d has rank %d but its elements have rank %d", c, pad_rank,
                     rank);
      return NULL;
    }
    for (int d = 0; d < rank; d++) {
      if (pad_dims[d] >= 0) {
        if (dims[d + 1] > pad_dims[d]) {
          tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                         "Attempted to pad to a smaller size than the input element.");
          return NULL;
        }
        dims[d + 1] = pad_dims[d];
      }
    }
  }
  dims[0] = count;
  tfc_tensor *out = tfc_tensor_new(e0->dtype, rank + 1, dims, st);
  if (!out) return NULL;
  size_t esz = tfc_dtype_size(e0->dtype);
  int64_t per = count ? out->nelems / count : 0;
  bool any_pad = false;
  for (int64_t i = 0; i < count && padded; i++)
    if (elems[i * n + c]->nelems != per) any_pad = true;
  if (any_pad && out->nelems) {
    /* fill with the padding value */
    if (e0->dtype == TFC_DTYPE_STRING) {
      const tfc_string *pv = pad_value && pad_value->nelems ? pad_value->data : NULL;
      for (int64_t k = 0; pv && pv->len && k < out->nelems; k++)
        if (!tfc_tensor_set_string(out, k, pv->data, pv->len, st)) {
          tfc_tensor_unref(out);
          return NULL;
        }
    } else if (pad_value && pad_value->nelems) {
      for (int64_t k = 0; k < out->nelems; k++) memcpy((char *)out->data + (size_t)k * esz, pad_value->data, esz);
    } else {
      memset(out->data, 0, (size_t)out->nelems * esz);
    }
  }
  for (int64_t i = 0; i < count; i++) {
    tfc_tensor *e = elems[i * n + c];
    char *dst = (char *)out->data + (size_t)(i * per) * esz;
    if (!any_pad && e0->dtype != TFC_DTYPE_STRING) {
      if (per) memcpy(dst, e->data, (size_t)per * esz);
    } else if (!any_pad && tfc_tensor_is_exclusive(e)) {
      /* strings of an element no one else holds move into the batch */
      memcpy(dst, e->data, (size_t)per * esz);
      memset(e->data, 0, (size_t)per * esz);
    } else if (!copy_into(e, dst, dims + 1, esz, st)) {
      tfc_tensor_unref(out);
      return NULL;
    }
  }
  return out;
}
