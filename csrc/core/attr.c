/*
 * attr.c — owned attribute values and name-sorted attribute maps.
 *
 * String values (S and FUNC, scalar or list elements) made here are always
 * NUL-terminated copies, so `data` can be read as a C string; values built
 * elsewhere may have data == NULL for the empty string, which is accepted.
 * The items array of a tfc_attrs has an implicit capacity (a power of two,
 * at least 4, derived from n), so no capacity field is needed.
 */
#include "core/attr.h"

#include <string.h>

#include "base/alloc.h"

/* Bytes of one list element of kind k (0 for NONE / LIST). */
static size_t elem_size(tfc_attr_kind k) {
  switch (k) {
    case TFC_ATTR_S: case TFC_ATTR_FUNC: return sizeof(tfc_string);
    case TFC_ATTR_I: return sizeof(int64_t);
    case TFC_ATTR_F: return sizeof(float);
    case TFC_ATTR_B: return sizeof(bool);
    case TFC_ATTR_TYPE: return sizeof(tfc_dtype);
    case TFC_ATTR_SHAPE: return sizeof(tfc_shape);
    case TFC_ATTR_TENSOR: return sizeof(tfc_tensor *);
    default: return 0;
  }
}

/* The list storage as an untyped pointer (all union members alias). */
static void *list_data(const tfc_attr_list *l) { return (void *)l->v.i; }

/* Frees what v owns and sets it to NONE. */
void tfc_attr_value_clear(tfc_attr_value *v) {
  switch (v->kind) {
    case TFC_ATTR_S: case TFC_ATTR_FUNC:
      tfc_free(v->v.s.data);
      break;
    case TFC_ATTR_TENSOR:
      tfc_tensor_unref(v->v.tensor);
      break;
    case TFC_ATTR_LIST: {
      tfc_attr_list *l = &v->v.list;
      if (l->kind == TFC_ATTR_S || l->kind == TFC_ATTR_FUNC)
        for (int i = 0; i < l->n; i++) tfc_free(l->v.s[i].data);
      else if (l->kind == TFC_ATTR_TENSOR)
        for (int i = 0; i < l->n; i++) tfc_tensor_unref(l->v.tensor[i]);
      tfc_free(list_data(l));
      break;
    }
    default:
      break;
  }
  memset(v, 0, sizeof *v);
}

/* NUL-terminated heap copy of (s, len) into *dst; false on OOM. */
static bool copy_string(tfc_string *dst, const char *s, size_t len) {
  char *d = tfc_malloc(len + 1);
  if (!d) return false;
  if (len) memcpy(d, s, len);
  d[len] = '\0';
  dst->data = d;
  dst->len = len;
  return true;
}

/* Deep copy of src into *dst (not freed first). false + RESOURCE_EXHAUSTED on
 * OOM, dst then NONE. */
bool tfc_attr_value_copy(tfc_attr_value *dst, const tfc_attr_value *src, tfc_status *st) {
  tfc_attr_value out = *src;
  switch (src->kind) {
    case TFC_ATTR_S: case TFC_ATTR_FUNC:
      if (!copy_string(&out.v.s, src->v.s.data, src->v.s.len)) goto oom;
      break;
    case TFC_ATTR_TENSOR:
      tfc_tensor_ref(out.v.tensor);
      break;
    case TFC_ATTR_LIST: {
      const tfc_attr_list *l = &src->v.list;
      tfc_attr_value nl = tfc_attr_list_new(l->kind, l->n);
      if (nl.kind != TFC_ATTR_LIST) goto oom;
      size_t es = elem_size(l->kind);
      if (l->kind == TFC_ATTR_S || l->kind == TFC_ATTR_FUNC) {
        for (int i = 0; i < l->n; i++) {
          if (!copy_string(&nl.v.list.v.s[i], l->v.s[i].data, l->v.s[i].len)) {
            tfc_attr_value_clear(&nl);
            goto oom;
          }
        }
      } else if (l->kind == TFC_ATTR_TENSOR) {
        for (int i = 0; i < l->n; i++) nl.v.list.v.tensor[i] = tfc_tensor_ref(l->v.tensor[i]);
      } else if (l->n > 0 && es > 0) {
        memcpy(list_data(&nl.v.list), list_data(l), (size_t)l->n * es);
      }
      out = nl;
      break;
    }
    default:
      break;
  }
  *dst = out;
  return true;
oom:
  memset(dst, 0, sizeof *dst);
  return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when copying an attr value");
}

/* Byte equality of two strings (NULL data equals any empty string). */
static bool string_eq(const tfc_string *a, const tfc_string *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* Float equality where NaN equals NaN (structural, not numeric). */
static bool float_eq(float a, float b) { return a == b || (a != a && b != b); }

/* Same pointer, or same dtype, shape and contents. */
static bool tensor_eq(const tfc_tensor *a, const tfc_tensor *b) {
  if (a == b) return true;
  if (!a || !b || a->dtype != b->dtype || !tfc_tensor_same_shape(a, b)) return false;
  if (a->nelems == 0) return true;
  if (a->dtype == TFC_DTYPE_STRING) {
    const tfc_string *x = a->data, *y = b->data;
    for (int64_t i = 0; i < a->nelems; i++)
      if (!string_eq(&x[i], &y[i])) return false;
    return true;
  }
  return memcmp(a->data, b->data, tfc_tensor_nbytes(a)) == 0;
}

/* Structural equality of two lists (empty lists are equal whatever their kind). */
static bool list_eq(const tfc_attr_list *a, const tfc_attr_list *b) {
  if (a->n != b->n) return false;
  if (a->n == 0) return true;
  if (a->kind != b->kind) return false;
  for (int i = 0; i < a->n; i++) {
    bool eq;
    switch (a->kind) {
      case TFC_ATTR_S: case TFC_ATTR_FUNC: eq = string_eq(&a->v.s[i], &b->v.s[i]); break;
      case TFC_ATTR_I: eq = a->v.i[i] == b->v.i[i]; break;
      case TFC_ATTR_F: eq = float_eq(a->v.f[i], b->v.f[i]); break;
      case TFC_ATTR_B: eq = a->v.b[i] == b->v.b[i]; break;
      case TFC_ATTR_TYPE: eq = a->v.type[i] == b->v.type[i]; break;
      case TFC_ATTR_SHAPE: eq = tfc_shape_equal(&a->v.shape[i], &b->v.shape[i]); break;
      case TFC_ATTR_TENSOR: eq = tensor_eq(a->v.tensor[i], b->v.tensor[i]); break;
      default: eq = true; break;
    }
    if (!eq) return false;
  }
  return true;
}

/* Structural equality. */
bool tfc_attr_value_equal(const tfc_attr_value *a, const tfc_attr_value *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
    case TFC_ATTR_NONE: return true;
    case TFC_ATTR_S: case TFC_ATTR_FUNC: return string_eq(&a->v.s, &b->v.s);
    case TFC_ATTR_I: return a->v.i == b->v.i;
    case TFC_ATTR_F: return float_eq(a->v.f, b->v.f);
    case TFC_ATTR_B: return a->v.b == b->v.b;
    case TFC_ATTR_TYPE: return a->v.type == b->v.type;
    case TFC_ATTR_SHAPE: return tfc_shape_equal(&a->v.shape, &b->v.shape);
    case TFC_ATTR_TENSOR: return tensor_eq(a->v.tensor, b->v.tensor);
    case TFC_ATTR_LIST: return list_eq(&a->v.list, &b->v.list);
  }
  return false;
}

/* A zeroed value of kind k. */
static tfc_attr_value value_of(tfc_attr_kind k) {
  tfc_attr_value v;
  memset(&v, 0, sizeof v);
  v.kind = k;
  return v;
}

/* Scalar constructors. */
tfc_attr_value tfc_attr_int(int64_t i) {
  tfc_attr_value v = value_of(TFC_ATTR_I);
  v.v.i = i;
  return v;
}
tfc_attr_value tfc_attr_float(float f) {
  tfc_attr_value v = value_of(TFC_ATTR_F);
  v.v.f = f;
  return v;
}
tfc_attr_value tfc_attr_bool(bool b) {
  tfc_attr_value v = value_of(TFC_ATTR_B);
  v.v.b = b;
  return v;
}
tfc_attr_value tfc_attr_type(tfc_dtype t) {
  tfc_attr_value v = value_of(TFC_ATTR_TYPE);
  v.v.type = t;
  return v;
}
tfc_attr_value tfc_attr_shape(tfc_shape s) {
  tfc_attr_value v = value_of(TFC_ATTR_SHAPE);
  v.v.shape = s;
  return v;
}

/* String value holding a NUL-terminated copy of (s, len); NONE on OOM. */
tfc_attr_value tfc_attr_string(const char *s, size_t len) {
  tfc_attr_value v = value_of(TFC_ATTR_S);
  if (!copy_string(&v.v.s, s, len)) return value_of(TFC_ATTR_NONE);
  return v;
}

/* List of n zeroed elements of `kind` (storage NULL when n == 0); NONE on OOM
 * or for a negative n / non-element kind with n > 0. */
tfc_attr_value tfc_attr_list_new(tfc_attr_kind kind, int n) {
  tfc_attr_value v = value_of(TFC_ATTR_LIST);
  v.v.list.kind = kind;
  v.v.list.n = n;
  if (n < 0) return value_of(TFC_ATTR_NONE);
  if (n == 0) return v;
  size_t es = elem_size(kind);
  if (es == 0) return value_of(TFC_ATTR_NONE);
  void *p = tfc_calloc((size_t)n, es);
  if (!p) return value_of(TFC_ATTR_NONE);
  v.v.list.v.i = p;
  return v;
}

/* Implicit capacity of an items array holding n entries. */
static int attrs_cap(int n) {
  if (n == 0) return 0;
  int c = 4;
  while (c < n) c *= 2;
  return c;
}

/* Empty map. */
void tfc_attrs_init(tfc_attrs *a) {
  a->n = 0;
  a->items = NULL;
}

/* Frees every name and value and empties the map. */
void tfc_attrs_destroy(tfc_attrs *a) {
  for (int i = 0; i < a->n; i++) {
    tfc_free(a->items[i].name);
    tfc_attr_value_clear(&a->items[i].value);
  }
  tfc_free(a->items);
  tfc_attrs_init(a);
}

/* Deep copy of src into dst (dst is overwritten). false + st on OOM, dst empty. */
bool tfc_attrs_copy(tfc_attrs *dst, const tfc_attrs *src, tfc_status *st) {
  tfc_attrs_init(dst);
  if (src->n == 0) return true;
  tfc_attrs out = {0, tfc_calloc((size_t)attrs_cap(src->n), sizeof(tfc_attr))};
  if (!out.items)
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when copying attrs");
  for (int i = 0; i < src->n; i++) {
    char *name = tfc_strdup(src->items[i].name);
    if (!name) {
      tfc_attrs_destroy(&out);
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when copying attrs");
    }
    if (!tfc_attr_value_copy(&out.items[i].value, &src->items[i].value, st)) {
      tfc_free(name);
      tfc_attrs_destroy(&out);
      return false;
    }
    out.items[i].name = name;
    out.n = i + 1;
  }
  *dst = out;
  return true;
}

/* Binary search: index of name, or -(insertion point) - 1. */
static int search(const tfc_attrs *a, const char *name) {
  int lo = 0, hi = a->n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    int c = strcmp(a->items[mid].name, name);
    if (c == 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -lo - 1;
}

/* The value stored under name, or NULL. */
const tfc_attr_value *tfc_attrs_find(const tfc_attrs *a, const char *name) {
  int i = search(a, name);
  return i >= 0 ? &a->items[i].value : NULL;
}

/* Sets name → *value, moving value's contents in (value is zeroed), keeping
 * items sorted. false + RESOURCE_EXHAUSTED on OOM (value cleared). */
bool tfc_attrs_set(tfc_attrs *a, const char *name, tfc_attr_value *value, tfc_status *st) {
  int i = search(a, name);
  if (i >= 0) {
    tfc_attr_value_clear(&a->items[i].value);
    a->items[i].value = *value;
    memset(value, 0, sizeof *value);
    return true;
  }
  int pos = -i - 1;
  char *copy = tfc_strdup(name);
  if (!copy) goto oom;
  if (a->n == attrs_cap(a->n)) {
    int cap = a->n ? a->n * 2 : 4;
    tfc_attr *items = tfc_realloc(a->items, (size_t)cap * sizeof *items);
    if (!items) {
      tfc_free(copy);
      goto oom;
    }
    a->items = items;
  }
  memmove(&a->items[pos + 1], &a->items[pos], (size_t)(a->n - pos) * sizeof *a->items);
  a->items[pos].name = copy;
  a->items[pos].value = *value;
  memset(value, 0, sizeof *value);
  a->n++;
  return true;
oom:
  tfc_attr_value_clear(value);
  return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when setting attr '%s'", name);
}

static const char *const k_kind_names[] = {
    [TFC_ATTR_NONE] = "none", [TFC_ATTR_S] = "string", [TFC_ATTR_I] = "int",
    [TFC_ATTR_F] = "float",   [TFC_ATTR_B] = "bool",   [TFC_ATTR_TYPE] = "type",
    [TFC_ATTR_SHAPE] = "shape", [TFC_ATTR_TENSOR] = "tensor", [TFC_ATTR_FUNC] = "func",
    [TFC_ATTR_LIST] = "list",
};

/* Looks up name expecting kind `want`; NULL + INVALID_ARGUMENT naming the attr otherwise. */
static const tfc_attr_value *get_kind(const tfc_attrs *a, const char *name, tfc_attr_kind want,
                                      tfc_status *st) {
  const tfc_attr_value *v = tfc_attrs_find(a, name);
  if (!v) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "No attr named '%s'", name);
    return NULL;
  }
  if (v->kind != want) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Attr '%s' has type %s, expected %s", name,
                   k_kind_names[v->kind], k_kind_names[want]);
    return NULL;
  }
  return v;
}

/* Typed getters: false + INVALID_ARGUMENT when missing or of another kind. */
bool tfc_attrs_get_int(const tfc_attrs *a, const char *name, int64_t *out, tfc_status *st) {
  const tfc_attr_value *v = get_kind(a, name, TFC_ATTR_I, st);
  if (v) *out = v->v.i;
  return v != NULL;
}
bool tfc_attrs_get_float(const tfc_attrs *a, const char *name, float *out, tfc_status *st) {
  const tfc_attr_value *v = get_kind(a, name, TFC_ATTR_F, st);
  if (v) *out = v->v.f;
  return v != NULL;
}
bool tfc_attrs_get_bool(const tfc_attrs *a, const char *name, bool *out, tfc_status *st) {
  const tfc_attr_value *v = get_kind(a, name, TFC_ATTR_B, st);
  if (v) *out = v->v.b;
  return v != NULL;
}
bool tfc_attrs_get_type(const tfc_attrs *a, const char *name, tfc_dtype *out, tfc_status *st) {
  const tfc_attr_value *v = get_kind(a, name, TFC_ATTR_TYPE, st);
  if (v) *out = v->v.type;
  return v != NULL;
}
bool tfc_attrs_get_shape(const tfc_attrs *a, const char *name, tfc_shape *out, tfc_status *st) {
  const tfc_attr_value *v = get_kind(a, name, TFC_ATTR_SHAPE, st);
  if (v) *out = v->v.shape;
  return v != NULL;
}
/* *out points into the attrs (valid while they live). */
bool tfc_attrs_get_string(const tfc_attrs *a, const char *name, const tfc_string **out,
                          tfc_status *st) {
  const tfc_attr_value *v = get_kind(a, name, TFC_ATTR_S, st);
  if (v) *out = &v->v.s;
  return v != NULL;
}
char *tfc_attrs_dup_string(const tfc_attrs *a, const char *name) {
  const tfc_attr_value *v = tfc_attrs_find(a, name);
  size_t len = v && v->kind == TFC_ATTR_S ? v->v.s.len : 0;
  char *s = tfc_malloc(len + 1);
  if (s) {
    if (len) memcpy(s, v->v.s.data, len);
    s[len] = '\0';
  }
  return s;
}
/* *out is a borrowed reference (valid while the attrs live; tfc_tensor_ref to keep it). */
bool tfc_attrs_get_tensor(const tfc_attrs *a, const char *name, tfc_tensor **out,
                          tfc_status *st) {
  const tfc_attr_value *v = get_kind(a, name, TFC_ATTR_TENSOR, st);
  if (v) *out = v->v.tensor;
  return v != NULL;
}
/* *out points into the attrs; any element kind is accepted (check (*out)->kind). */
bool tfc_attrs_get_list(const tfc_attrs *a, const char *name, const tfc_attr_list **out,
                        tfc_status *st) {
  const tfc_attr_value *v = get_kind(a, name, TFC_ATTR_LIST, st);
  if (v) *out = &v->v.list;
  return v != NULL;
}

/* True when attr `name` is a string equal to s. */
bool tfc_attrs_string_is(const tfc_attrs *a, const char *name, const char *s) {
  const tfc_attr_value *v = tfc_attrs_find(a, name);
  if (!v || v->kind != TFC_ATTR_S) return false;
  size_t n = strlen(s);
  return v->v.s.len == n && (n == 0 || memcmp(v->v.s.data, s, n) == 0);
}
