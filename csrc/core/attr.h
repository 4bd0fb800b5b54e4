/*
 * attr.h — attribute values (TF's AttrValue) and per-node attribute maps.
 *
 * A tfc_attr_value owns everything it points to (strings, lists, tensor refs).
 * A tfc_attrs is a small array kept sorted by name.
 */
#ifndef TFC_CORE_ATTR_H
#define TFC_CORE_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "core/dtype.h"
#include "core/shape.h"
#include "core/tensor.h"

typedef enum tfc_attr_kind {
  TFC_ATTR_NONE = 0,
  TFC_ATTR_S,       /* string (bytes) */
  TFC_ATTR_I,       /* int */
  TFC_ATTR_F,       /* float */
  TFC_ATTR_B,       /* bool */
  TFC_ATTR_TYPE,    /* type */
  TFC_ATTR_SHAPE,   /* shape */
  TFC_ATTR_TENSOR,  /* tensor */
  TFC_ATTR_FUNC,    /* func: name only (attrs of a NameAttrList are not kept) */
  TFC_ATTR_LIST     /* list(...): element kind in list.kind */
} tfc_attr_kind;

typedef struct tfc_attr_list {
  tfc_attr_kind kind;   /* element kind; NONE only for an empty list of unknown kind */
  int n;
  union {
    tfc_string *s;
    int64_t *i;
    float *f;
    bool *b;
    tfc_dtype *type;
    tfc_shape *shape;
    tfc_tensor **tensor;
    tfc_string *func;
  } v;
} tfc_attr_list;

typedef struct tfc_attr_value {
  tfc_attr_kind kind;
  union {
    tfc_string s;         /* S and FUNC */
    int64_t i;
    float f;
    bool b;
    tfc_dtype type;
    tfc_shape shape;
    tfc_tensor *tensor;   /* owned reference */
    tfc_attr_list list;
  } v;
} tfc_attr_value;

typedef struct tfc_attr {
  char *name;
  tfc_attr_value value;
} tfc_attr;

typedef struct tfc_attrs {
  int n;
  tfc_attr *items;  /* sorted by name */
} tfc_attrs;

/* Frees what v owns and sets it to NONE. */
void tfc_attr_value_clear(tfc_attr_value *v);
/* Deep copy src into *dst (dst is overwritten, not freed first). false + st on OOM. */
bool tfc_attr_value_copy(tfc_attr_value *dst, const tfc_attr_value *src, tfc_status *st);
/* Structural equality. */
bool tfc_attr_value_equal(const tfc_attr_value *a, const tfc_attr_value *b);
/* Constructors of scalar values (no allocation except for strings). */
tfc_attr_value tfc_attr_int(int64_t i);
tfc_attr_value tfc_attr_float(float f);
tfc_attr_value tfc_attr_bool(bool b);
tfc_attr_value tfc_attr_type(tfc_dtype t);
tfc_attr_value tfc_attr_shape(tfc_shape s);
/* A string value copying (s, len); kind NONE on OOM. */
tfc_attr_value tfc_attr_string(const char *s, size_t len);
/* A list of n elements of kind `kind` with zeroed storage; kind NONE on OOM. */
tfc_attr_value tfc_attr_list_new(tfc_attr_kind kind, int n);

/* Empty map. */
void tfc_attrs_init(tfc_attrs *a);
/* Frees all names and values. */
void tfc_attrs_destroy(tfc_attrs *a);
/* Deep copy; false + st on OOM (dst left empty). */
bool tfc_attrs_copy(tfc_attrs *dst, const tfc_attrs *src, tfc_status *st);
/* The value for name or NULL. */
const tfc_attr_value *tfc_attrs_find(const tfc_attrs *a, const char *name);
/* Sets name → *value, taking ownership of value's contents (value is zeroed).
 * Replaces an existing entry. false + st on OOM (value is then cleared). */
bool tfc_attrs_set(tfc_attrs *a, const char *name, tfc_attr_value *value, tfc_status *st);

/* Typed getters: false + INVALID_ARGUMENT (naming the attr) when missing or of another kind. */
bool tfc_attrs_get_int(const tfc_attrs *a, const char *name, int64_t *out, tfc_status *st);
bool tfc_attrs_get_float(const tfc_attrs *a, const char *name, float *out, tfc_status *st);
bool tfc_attrs_get_bool(const tfc_attrs *a, const char *name, bool *out, tfc_status *st);
bool tfc_attrs_get_type(const tfc_attrs *a, const char *name, tfc_dtype *out, tfc_status *st);
bool tfc_attrs_get_shape(const tfc_attrs *a, const char *name, tfc_shape *out, tfc_status *st);
/* String getter: *out points into the attr (valid while the attrs live). */
bool tfc_attrs_get_string(const tfc_attrs *a, const char *name, const tfc_string **out, tfc_status *st);
bool tfc_attrs_get_tensor(const tfc_attrs *a, const char *name, tfc_tensor **out, tfc_status *st);
/* List getter: *out points into the attr; an empty list of unknown kind is accepted. */
bool tfc_attrs_get_list(const tfc_attrs *a, const char *name, const tfc_attr_list **out, tfc_status *st);
/* A NUL-terminated heap copy of string attr `name` ("" when it is absent or not a
 * string; the caller frees it with tfc_free); NULL only on OOM. */
char *tfc_attrs_dup_string(const tfc_attrs *a, const char *name);
/* Convenience: true when attr `name` is a string equal to s. */
bool tfc_attrs_string_is(const tfc_attrs *a, const char *name, const char *s);

#endif
