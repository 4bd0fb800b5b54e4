/*
 * shape.c — partial tensor shapes: construction, compatibility, merge,
 * broadcasting and TF-style text.
 */
#include "core/shape.h"

#include <stdio.h>
#include <string.h>

/* The unknown-rank shape. */
tfc_shape tfc_shape_unknown(void) {
  tfc_shape s;
  memset(&s, 0, sizeof s);
  s.rank = -1;
  return s;
}

/* The scalar shape. */
tfc_shape tfc_shape_scalar(void) {
  tfc_shape s;
  memset(&s, 0, sizeof s);
  return s;
}

/* A shape of `rank` dims copied from dims; negative dims become -1 (unknown).
 * A negative rank or one above TFC_MAX_RANK gives the unknown-rank shape. */
tfc_shape tfc_shape_make(int rank, const int64_t *dims) {
  if (rank < 0 || rank > TFC_MAX_RANK) return tfc_shape_unknown();
  tfc_shape s = tfc_shape_scalar();
  s.rank = rank;
  for (int i = 0; i < rank; i++) s.dims[i] = dims[i] < 0 ? -1 : dims[i];
  return s;
}

/* A shape of `rank` unknown dims (unknown rank when rank is out of range). */
tfc_shape tfc_shape_unknown_dims(int rank) {
  if (rank < 0 || rank > TFC_MAX_RANK) return tfc_shape_unknown();
  tfc_shape s = tfc_shape_scalar();
  s.rank = rank;
  for (int i = 0; i < rank; i++) s.dims[i] = -1;
  return s;
}

/* Known rank and every dim known. */
bool tfc_shape_is_fully_defined(const tfc_shape *s) {
  if (s->rank < 0) return false;
  for (int i = 0; i < s->rank; i++)
    if (s->dims[i] < 0) return false;
  return true;
}

/* Product of the dims (1 for a scalar); -1 when not fully defined or when
 * the product overflows int64. */
int64_t tfc_shape_num_elements(const tfc_shape *s) {
  if (!tfc_shape_is_fully_defined(s)) return -1;
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++)
    if (__builtin_mul_overflow(n, s->dims[i], &n)) return -1;
  return n;
}

/* Unknown rank or dims match anything; known facts must agree. */
bool tfc_shape_compatible(const tfc_shape *a, const tfc_shape *b) {
  if (a->rank < 0 || b->rank < 0) return true;
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] >= 0 && b->dims[i] >= 0 && a->dims[i] != b->dims[i]) return false;
  return true;
}

/* The most specific shape compatible with both; out may alias a or b.
 * false (out untouched) when incompatible. */
bool tfc_shape_merge(const tfc_shape *a, const tfc_shape *b, tfc_shape *out) {
  if (!tfc_shape_compatible(a, b)) return false;
  if (a->rank < 0) {
    *out = *b;
    return true;
  }
  if (b->rank < 0) {
    *out = *a;
    return true;
  }
  tfc_shape r = *a;
  for (int i = 0; i < a->rank; i++)
    if (r.dims[i] < 0) r.dims[i] = b->dims[i];
  *out = r;
  return true;
}

/* TF's TensorShape text: "<unknown>", "()", "(3,)", "(2, ?, 3)". Always
 * NUL-terminates when bufsize > 0, truncating if needed. */
void tfc_shape_to_string(const tfc_shape *s, char *buf, int bufsize) {
  if (bufsize <= 0) return;
  if (s->rank < 0) {
    snprintf(buf, (size_t)bufsize, "<unknown>");
    return;
  }
  size_t cap = (size_t)bufsize, pos = 0;
  buf[0] = '\0';
#define TFC_PUT(...)                                                     \
  do {                                                                   \
    if (pos < cap) {                                                     \
      int n_ = snprintf(buf + pos, cap - pos, __VA_ARGS__);              \
      pos = n_ < 0 ? cap : pos + (size_t)n_;                             \
    }                                                                    \
  } while (0)
  TFC_PUT("(");
  for (int i = 0; i < s->rank; i++) {
    if (i) TFC_PUT(", ");
    if (s->dims[i] < 0) TFC_PUT("?");
    else TFC_PUT("%lld", (long long)s->dims[i]);
  }
  TFC_PUT(s->rank == 1 ? ",)" : ")");
#undef TFC_PUT
}

/* Same rank and identical dims (unknowns must line up too). */
bool tfc_shape_equal(const tfc_shape *a, const tfc_shape *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

/* NumPy broadcasting of partial shapes, following TF's shape function for
 * binary ops: unknown rank on either side gives unknown rank; per dim, two
 * known dims must be equal or one of them 1; an unknown dim against a known
 * dim > 1 gives that dim, against 1 stays unknown, otherwise unknown.
 * out may alias a or b; false (out untouched) on a conflict. */
bool tfc_shape_broadcast(const tfc_shape *a, const tfc_shape *b, tfc_shape *out) {
  if (a->rank < 0 || b->rank < 0) {
    *out = tfc_shape_unknown();
    return true;
  }
  int rank = a->rank > b->rank ? a->rank : b->rank;
  tfc_shape r = tfc_shape_unknown_dims(rank);
  for (int i = 0; i < rank; i++) {
    int ia = i - (rank - a->rank), ib = i - (rank - b->rank);
    int64_t x = ia >= 0 ? a->dims[ia] : 1, y = ib >= 0 ? b->dims[ib] : 1;
    int64_t d;
    if (x >= 0 && y >= 0) {
      if (x == y || y == 1) d = x;
      else if (x == 1) d = y;
      else return false;
    } else if (x > 1) {
      d = x;
    } else if (y > 1) {
      d = y;
    } else if (x == 1) {
      d = y;
    } else if (y == 1) {
      d = x;
    } else {
      d = -1;
    }
    r.dims[i] = d;
  }
  *out = r;
  return true;
}
