/*
 * shape_fns_array.c — shape functions of the array op family.
 *
 * Partial shapes are tfc_shape values (rank -1 = unknown rank, dim -1 =
 * unknown). The helpers below mirror TF's InferenceContext operations
 * (WithRank, Merge, Subshape, Concatenate, ...) with TF's error texts, so the
 * shape functions read like TF's and fail with the same messages.
 */
#include "core/shape_fns_array.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strided_slice.h"

#define END_OF_SHAPE INT64_MAX

/* ------------------------------------------------------------------ helpers */

/* Writes a partial shape as TF's DebugString: "[2,?]", "[]" or "?". */
static void shape_text(const tfc_shape *s, char *buf, size_t cap) {
  if (s->rank < 0) {
    snprintf(buf, cap, "?");
    return;
  }
  size_t pos = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < s->rank && pos < cap; i++) {
    if (s->dims[i] < 0) pos += (size_t)snprintf(buf + pos, cap - pos, "%s?", i ? "," : "");
    else pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? "," : "", (long long)s->dims[i]);
  }
  if (pos < cap) snprintf(buf + pos, cap - pos, "]");
}

/* The constant value of input i known at build time, or NULL. */
static const tfc_tensor *cval(const tfc_shape_ctx *c, int i) {
  if (!c->in_values || i < 0 || i >= c->n_inputs) return NULL;
  return c->in_values[i];
}

/* Fails when a computed rank exceeds what tfc_shape can hold. */
static bool check_rank(tfc_shape_ctx *c, int64_t rank) {
  if (rank > TFC_MAX_RANK)
    return tfc_shape_fail(c, "Shape of rank %lld exceeds the maximum rank %d", (long long)rank,
                          TFC_MAX_RANK);
  return true;
}

/* TF's WithRank: s must have exactly `rank` dims (unknown rank becomes that many unknown dims). */
static bool with_rank(tfc_shape_ctx *c, const tfc_shape *s, int64_t rank, tfc_shape *out) {
  tfc_shape in = *s;
  *out = tfc_shape_unknown();
  s = &in;
  if (s->rank < 0) {
    if (!check_rank(c, rank)) return false;
    *out = tfc_shape_unknown_dims((int)rank);
    return true;
  }
  if (s->rank != rank)
    return tfc_shape_fail(c, "Shape must be rank %lld but is rank %d", (long long)rank, s->rank);
  *out = *s;
  return true;
}

/* TF's WithRankAtLeast (unknown rank passes through). */
static bool with_rank_at_least(tfc_shape_ctx *c, const tfc_shape *s, int64_t rank) {
  if (s->rank >= 0 && s->rank < rank)
    return tfc_shape_fail(c, "Shape must be at least rank %lld but is rank %d", (long long)rank,
                          s->rank);
  return true;
}

/* TF's WithRankAtMost (unknown rank passes through). */
static bool with_rank_at_most(tfc_shape_ctx *c, const tfc_shape *s, int64_t rank) {
  if (s->rank >= 0 && s->rank > rank)
    return tfc_shape_fail(c, "Shape must be at most rank %lld but is rank %d", (long long)rank,
                          s->rank);
  return true;
}

/* TF's Merge of two dimensions. */
static bool merge_dim(tfc_shape_ctx *c, int64_t a, int64_t b, int64_t *out) {
  if (a < 0) *out = b;
  else if (b < 0 || a == b) *out = a;
  else
    return tfc_shape_fail(c, "Dimensions must be equal, but are %lld and %lld", (long long)a,
                          (long long)b);
  return true;
}

/* TF's Merge of two shapes. */
static bool merge_shape(tfc_shape_ctx *c, const tfc_shape *a_in, const tfc_shape *b_in,
                        tfc_shape *out) {
  tfc_shape a_copy = *a_in, b_copy = *b_in;
  const tfc_shape *a = &a_copy, *b = &b_copy;
  *out = tfc_shape_unknown();
  if (a->rank < 0) {
    *out = *b;
    return true;
  }
  if (b->rank < 0) {
    *out = *a;
    return true;
  }
  if (a->rank != b->rank)
    return tfc_shape_fail(c, "Shapes must be equal rank, but are %d and %d", a->rank, b->rank);
  tfc_shape r = *a;
  for (int i = 0; i < a->rank; i++) {
    int64_t x = a->dims[i], y = b->dims[i];
    if (x >= 0 && y >= 0 && x != y) {
      char sa[128], sb[128];
      shape_text(a, sa, sizeof sa);
      shape_text(b, sb, sizeof sb);
      return tfc_shape_fail(c,
                            "Dimension %d in both shapes must be equal, but are %lld and %lld. "
                            "Shapes are %s and %s.",
                            i, (long long)x, (long long)y, sa, sb);
    }
    r.dims[i] = x >= 0 ? x : y;
  }
  *out = r;
  return true;
}

/* TF's WithValue: a known dim must equal v. */
static bool with_value(tfc_shape_ctx *c, int64_t dim, int64_t v, int64_t *out) {
  if (dim >= 0 && dim != v)
    return tfc_shape_fail(c, "Dimension must be %lld but is %lld", (long long)v, (long long)dim);
  if (out) *out = v;
  return true;
}

/* TF's Add of a dim and a constant (unknown stays unknown). */
static int64_t add_dim(int64_t a, int64_t b) { return a < 0 || b < 0 ? -1 : a + b; }

/* TF's Subtract: a - b, failing when the result would be negative. */
static bool sub_dim(tfc_shape_ctx *c, int64_t a, int64_t b, int64_t *out) {
  *out = -1;
  if (b == 0) {
    *out = a;
    return true;
  }
  if (a < 0 || b < 0) {
    *out = -1;
    return true;
  }
  if (a < b)
    return tfc_shape_fail(c, "Negative dimension size caused by subtracting %lld from %lld",
                          (long long)b, (long long)a);
  *out = a - b;
  return true;
}

/* TF's Multiply of two dims: 0 and 1 are absorbing / neutral even next to unknowns. */
static int64_t mul_dim(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  if (a == 1) return b;
  if (b == 1) return a;
  if (a < 0 || b < 0) return -1;
  return a * b;
}

/* TF's Divide with evenly_divisible = true. */
static bool div_dim(tfc_shape_ctx *c, int64_t a, int64_t d, int64_t *out) {
  *out = -1;
  if (d == 1 || a < 0) {
    *out = d == 1 ? a : -1;
    return true;
  }
  if (d <= 0) return tfc_shape_fail(c, "Divisor must be positive but is %lld", (long long)d);
  if (a % d != 0)
    return tfc_shape_fail(c, "Dimension size must be evenly divisible by %lld but is %lld",
                          (long long)d, (long long)a);
  *out = a / d;
  return true;
}

/* TF's Subshape(s, start, end) with stride 1 (END_OF_SHAPE = to the end). */
static bool subshape(tfc_shape_ctx *c, const tfc_shape *s, int64_t start, int64_t end,
                     tfc_shape *out) {
  int64_t start_in = start, end_in = end;
  if (start == 0 && ((s->rank >= 0 && end >= s->rank) || end == END_OF_SHAPE)) {
    *out = *s;
    return true;
  }
  if (s->rank < 0) {
    *out = tfc_shape_unknown();
    return true;
  }
  int64_t rank = s->rank;
  if (start > rank) start = rank;
  if (end > rank) end = rank;
  if (start < 0) {
    start += rank;
    if (start < 0)
      return tfc_shape_fail(c, "Subshape start out of bounds: %lld, for shape with rank %lld",
                            (long long)start_in, (long long)rank);
  }
  if (end < 0) {
    end += rank;
    if (end < 0)
      return tfc_shape_fail(c, "Subshape end out of bounds: %lld, for shape with rank %lld",
                            (long long)end_in, (long long)rank);
  }
  if (start > end)
    return tfc_shape_fail(c,
                          "Subshape must have computed start <= end, but is %lld and %lld "
                          "(computed from start %lld and end %lld over shape with rank %lld)",
                          (long long)start, (long long)end, (long long)start_in,
                          (long long)end_in, (long long)rank);
  tfc_shape r = tfc_shape_scalar();
  r.rank = (int)(end - start);
  for (int64_t i = start; i < end; i++) r.dims[i - start] = s->dims[i];
  *out = r;
  return true;
}

/* TF's Concatenate (unknown if either side has unknown rank). */
static bool concat_shapes(tfc_shape_ctx *c, const tfc_shape *a, const tfc_shape *b, tfc_shape *out) {
  if (a->rank < 0 || b->rank < 0) {
    *out = tfc_shape_unknown();
    return true;
  }
  if (!check_rank(c, (int64_t)a->rank + b->rank)) return false;
  tfc_shape r = *a;
  for (int i = 0; i < b->rank; i++) r.dims[a->rank + i] = b->dims[i];
  r.rank = a->rank + b->rank;
  *out = r;
  return true;
}

/* TF's NumElements: 0 when a known dim is 0, -1 when otherwise unknown, else the product. */
static int64_t num_elements(const tfc_shape *s) {
  if (s->rank < 0) return -1;
  int64_t n = 1;
  bool unknown = false;
  for (int i = 0; i < s->rank; i++) {
    if (s->dims[i] == 0) return 0;
    if (s->dims[i] < 0) unknown = true;
    else n *= s->dims[i];
  }
  return unknown ? -1 : n;
}

/* A rank-1 shape [d]. */
static tfc_shape vector_of(int64_t d) {
  tfc_shape s = tfc_shape_scalar();
  s.rank = 1;
  s.dims[0] = d;
  return s;
}

/* TF's MakeShapeFromShapeTensor: input i is a 1-D shape tensor; a constant
 * gives its values (-1 = unknown dim), otherwise its length gives the rank. */
static bool shape_from_shape_tensor(tfc_shape_ctx *c, int i, tfc_shape *out) {
  tfc_shape vec = tfc_shape_unknown();
  *out = vec;
  if (!with_rank(c, &c->in_shapes[i], 1, &vec)) return false;
  const tfc_tensor *t = cval(c, i);
  if (t && t->rank == 1) {
    if (!check_rank(c, t->nelems)) return false;
    tfc_shape r = tfc_shape_scalar();
    r.rank = (int)t->nelems;
    for (int64_t k = 0; k < t->nelems; k++) {
      int64_t v = tfc_tensor_get_int64(t, k);
      if (v < -1) return tfc_shape_fail(c, "Invalid value in tensor used for shape: %lld", (long long)v);
      r.dims[k] = v;
    }
    *out = r;
    return true;
  }
  if (vec.dims[0] >= 0) {
    if (!check_rank(c, vec.dims[0])) return false;
    *out = tfc_shape_unknown_dims((int)vec.dims[0]);
  } else {
    *out = tfc_shape_unknown();
  }
  return true;
}

/* Reads an int attr, defaulting to dflt when absent. */
static int64_t attr_int(const tfc_shape_ctx *c, const char *name, int64_t dflt) {
  const tfc_attr_value *v = tfc_attrs_find(c->attrs, name);
  return v && v->kind == TFC_ATTR_I ? v->v.i : dflt;
}

/* TF's MakeDimForScalarInputWithNegativeIndexing: a constant scalar input
 * normalised against input_rank; *known false when not constant. */
static bool scalar_axis(tfc_shape_ctx *c, int i, int input_rank, int64_t *axis, bool *known) {
  *axis = 0;
  const tfc_tensor *t = cval(c, i);
  *known = false;
  if (!t) return true;
  if (t->rank != 0)
    return tfc_shape_fail(c, "Input must be scalar but has rank %d", t->rank);
  int64_t v = tfc_tensor_get_int64(t, 0);
  if (v < 0) {
    if (input_rank < 0) return true;
    if (v + input_rank < 0)
      return tfc_shape_fail(c, "Dimension size, given by scalar input %lld must be in range [-%d, %d)",
                            (long long)v, input_rank, input_rank);
    v += input_rank;
  } else if (input_rank > 0 && v >= input_rank) {
    return tfc_shape_fail(c, "Dimension size, given by scalar input %lld must be in range [-%d, %d)",
                          (long long)v, input_rank, input_rank);
  }
  *axis = v;
  *known = true;
  return true;
}

/* ------------------------------------------------------------------ simple ops */

/* Const: the shape of the `value` attr tensor. */
bool tfc_shape_fn_const(tfc_shape_ctx *ctx) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "value");
  if (v && v->kind == TFC_ATTR_TENSOR && v->v.tensor) ctx->out_shapes[0] = tfc_tensor_shape(v->v.tensor);
  return true;
}

/* Placeholder: the `shape` attr (unknown rank when absent). */
bool tfc_shape_fn_placeholder(tfc_shape_ctx *ctx) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "shape");
  ctx->out_shapes[0] = v && v->kind == TFC_ATTR_SHAPE ? v->v.shape : tfc_shape_unknown();
  return true;
}

/* PlaceholderWithDefault: the input must be compatible with `shape`; the
 * output is `shape` (which may be less precise than the input). */
bool tfc_shape_fn_placeholder_with_default(tfc_shape_ctx *ctx) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "shape");
  tfc_shape out = v && v->kind == TFC_ATTR_SHAPE ? v->v.shape : tfc_shape_unknown();
  tfc_shape unused;
  if (!merge_shape(ctx, &ctx->in_shapes[0], &out, &unused)) return false;
  ctx->out_shapes[0] = out;
  return true;
}

/* IdentityN: each output has the shape of the matching input. */
bool tfc_shape_fn_identity_n(tfc_shape_ctx *ctx) {
  for (int i = 0; i < ctx->n_outputs && i < ctx->n_inputs; i++) ctx->out_shapes[i] = ctx->in_shapes[i];
  return true;
}

/* Shape: a vector of length rank(input). */
bool tfc_shape_fn_shape(tfc_shape_ctx *ctx) {
  ctx->out_shapes[0] = vector_of(ctx->in_shapes[0].rank);
  return true;
}

/* ShapeN: output i is a vector of length rank(input i). */
bool tfc_shape_fn_shape_n(tfc_shape_ctx *ctx) {
  for (int i = 0; i < ctx->n_outputs && i < ctx->n_inputs; i++)
    ctx->out_shapes[i] = vector_of(ctx->in_shapes[i].rank);
  return true;
}

/* InvertPermutation: input must be a vector; output has its shape. */
bool tfc_shape_fn_invert_permutation(tfc_shape_ctx *ctx) {
  return with_rank(ctx, &ctx->in_shapes[0], 1, &ctx->out_shapes[0]);
}

/* Ops whose single input must be a vector and whose output has that shape. */
bool tfc_shape_fn_vector_rank1(tfc_shape_ctx *ctx) {
  return with_rank(ctx, &ctx->in_shapes[0], 1, &ctx->out_shapes[0]);
}

/* Unique: x is a vector; y is a vector of unknown length, idx has x's shape. */
bool tfc_shape_fn_unique(tfc_shape_ctx *ctx) {
  tfc_shape x;
  if (!with_rank(ctx, &ctx->in_shapes[0], 1, &x)) return false;
  ctx->out_shapes[0] = vector_of(-1);
  if (ctx->n_outputs > 1) ctx->out_shapes[1] = x;
  if (ctx->n_outputs > 2) ctx->out_shapes[2] = vector_of(-1);
  return true;
}

/* ListDiff: x and y vectors; out and idx vectors of unknown length. */
bool tfc_shape_fn_list_diff(tfc_shape_ctx *ctx) {
  tfc_shape x, y;
  if (!with_rank(ctx, &ctx->in_shapes[0], 1, &x) || !with_rank(ctx, &ctx->in_shapes[1], 1, &y))
    return false;
  ctx->out_shapes[0] = vector_of(-1);
  ctx->out_shapes[1] = vector_of(-1);
  return true;
}

/* Where: [num_true, rank(input)], num_true unknown. */
bool tfc_shape_fn_where(tfc_shape_ctx *ctx) {
  tfc_shape s = tfc_shape_scalar();
  s.rank = 2;
  s.dims[0] = -1;
  s.dims[1] = ctx->in_shapes[0].rank;
  ctx->out_shapes[0] = s;
  return true;
}

/* ------------------------------------------------------------------ reshaping */

/* Reshape: TF's SetOutputShapeForReshape, inferring one unknown dim from the
 * element counts when possible and checking them when fully known. */
bool tfc_shape_fn_reshape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  tfc_shape out;
  if (!shape_from_shape_tensor(ctx, 1, &out)) return false;
  if (out.rank < 0 || in->rank < 0) {
    ctx->out_shapes[0] = out;
    return true;
  }
  bool too_many_unknown = false;
  int out_unknown = -1, in_unknown = -1;
  int64_t known_out = num_elements(&out), known_in = num_elements(in);
  if (known_out < 0) {
    known_out = 1;
    for (int i = 0; i < out.rank; i++) {
      if (out.dims[i] < 0) {
        if (out_unknown >= 0) too_many_unknown = true;
        out_unknown = i;
      } else {
        known_out *= out.dims[i];
      }
    }
  }
  if (known_in < 0) {
    known_in = 1;
    for (int i = 0; i < in->rank; i++) {
      if (in->dims[i] < 0) {
        if (in_unknown >= 0) too_many_unknown = true;
        in_unknown = i;
      } else {
        known_in *= in->dims[i];
      }
    }
  }
  if (!too_many_unknown) {
    if (in_unknown < 0 && out_unknown < 0) {
      if (known_in != known_out) {
        char so[128];
        shape_text(&out, so, sizeof so);
        return tfc_shape_fail(ctx, "Cannot reshape a tensor with %lld elements to shape %s (%lld elements)",
                              (long long)known_in, so, (long long)known_out);
      }
    } else if (in_unknown < 0 && out_unknown >= 0 && known_out > 0) {
      int64_t d;
      if (!div_dim(ctx, known_in, known_out, &d)) return false;
      out.dims[out_unknown] = d;
    } else if (in_unknown >= 0 && out_unknown < 0 && known_in != 0) {
      int64_t d;
      if (!div_dim(ctx, known_out, known_in, &d)) return false;
    } else if (in_unknown >= 0 && out_unknown >= 0) {
      if (known_in == known_out) out.dims[out_unknown] = in->dims[in_unknown];
    }
  }
  ctx->out_shapes[0] = out;
  return true;
}

/* Squeeze: drops the listed size-1 dims (or every known size-1 dim). */
bool tfc_shape_fn_squeeze(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  if (in->rank < 0) return true;
  int rank = in->rank;
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "squeeze_dims");
  int n = a && a->kind == TFC_ATTR_LIST && a->v.list.kind == TFC_ATTR_I ? a->v.list.n : 0;
  bool explicit_dim[TFC_MAX_RANK] = {false};
  for (int i = 0; i < n; i++) {
    int64_t d = a->v.list.v.i[i];
    if (d < -rank || d >= rank)
      return tfc_shape_fail(ctx, "squeeze_dims[%d] not in [%d,%d).", i, -rank, rank);
    explicit_dim[d < 0 ? d + rank : d] = true;
  }
  tfc_shape r = tfc_shape_scalar();
  for (int i = 0; i < rank; i++) {
    int64_t d = in->dims[i];
    if (d < 0) {
      if (explicit_dim[i]) continue;
      if (n == 0) return true; /* unknown: might be 1 */
    } else if (d == 1) {
      if (explicit_dim[i] || n == 0) continue;
    } else if (explicit_dim[i]) {
      return tfc_shape_fail(ctx, "Can not squeeze dim[%d], expected a dimension of 1, got %lld", i,
                            (long long)d);
    }
    r.dims[r.rank++] = d;
  }
  ctx->out_shapes[0] = r;
  return true;
}

/* ExpandDims: inserts a 1 at the constant `dim`. */
bool tfc_shape_fn_expand_dims(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  const tfc_tensor *t = cval(ctx, 1);
  if (t && t->nelems != 1)
    return tfc_shape_fail(ctx, "'dim' input must be a tensor with a single value");
  if (!t || in->rank < 0) return true;
  int64_t dim = tfc_tensor_get_int64(t, 0);
  int rank = in->rank;
  if (dim < -rank - 1 || dim > rank)
    return tfc_shape_fail(ctx, "dim %lld not in the interval [%d, %d].", (long long)dim, -rank - 1, rank);
  if (dim < 0) dim += rank + 1;
  if (!check_rank(ctx, rank + 1)) return false;
  tfc_shape r = tfc_shape_scalar();
  r.rank = rank + 1;
  for (int i = 0, k = 0; i < rank + 1; i++) r.dims[i] = i == dim ? 1 : in->dims[k++];
  ctx->out_shapes[0] = r;
  return true;
}

/* Transpose: output dim i is input dim perm[i]; rank from input or perm. */
bool tfc_shape_fn_transpose(tfc_shape_ctx *ctx) {
  tfc_shape in = ctx->in_shapes[0];
  tfc_shape perm_shape = ctx->in_shapes[1];
  const tfc_tensor *perm = cval(ctx, 1);
  int64_t perm_elems = perm_shape.rank == 1 ? perm_shape.dims[0] : perm_shape.rank == 0 ? 1 : -1;
  if (in.rank < 0 && perm_elems < 0 && !perm) return true;
  int64_t rank = in.rank >= 0 ? in.rank : perm_elems >= 0 ? perm_elems : perm->nelems;
  if (in.rank < 0 && rank < 2) {
    ctx->out_shapes[0] = in;
    return true;
  }
  if (!with_rank(ctx, &in, rank, &in)) return false;
  if (!with_rank(ctx, &perm_shape, 1, &perm_shape)) return false;
  if (!with_value(ctx, perm_shape.dims[0], rank, NULL)) return false;
  tfc_shape r = tfc_shape_unknown_dims((int)rank);
  if (perm) {
    for (int i = 0; i < rank; i++) {
      int64_t k = tfc_tensor_get_int64(perm, i);
      if (k >= rank)
        return tfc_shape_fail(ctx, "perm dim %lld is out of range of input rank %lld", (long long)k,
                              (long long)rank);
      if (k < -rank)
        return tfc_shape_fail(ctx, "perm dim %lld is out of range of input rank %lld", (long long)k,
                              (long long)rank);
      r.dims[i] = in.dims[k < 0 ? k + rank : k];
    }
  }
  ctx->out_shapes[0] = r;
  return true;
}

/* ------------------------------------------------------------------ concat / split */

/* TF's ConcatShapeHelper over value inputs [start, end) with the axis at input axis_i. */
static bool concat_helper(tfc_shape_ctx *ctx, int start, int end, int axis_i) {
  tfc_shape unused;
  if (!with_rank(ctx, &ctx->in_shapes[axis_i], 0, &unused)) return false;
  const tfc_tensor *axis_t = cval(ctx, axis_i);
  /* All inputs must share the first known rank; scalars cannot be concatenated. */
  int rank = -1;
  for (int i = start; i < end && rank < 0; i++) rank = ctx->in_shapes[i].rank;
  if (rank == 0) return tfc_shape_fail(ctx, "Can't concatenate scalars (use tf.stack instead)");
  if (rank > 0)
    for (int i = start; i < end; i++)
      if (!with_rank(ctx, &ctx->in_shapes[i], rank, &unused)) return false;
  if (!axis_t) {
    if (rank > 0) ctx->out_shapes[0] = tfc_shape_unknown_dims(rank);
    return true;
  }
  int64_t axis = tfc_tensor_get_int64(axis_t, 0);
  int64_t min_rank = axis < 0 ? -axis : axis + 1;
  tfc_shape before_out, after_out, s;
  const tfc_shape *in = &ctx->in_shapes[end - 1];
  if (!with_rank_at_least(ctx, in, min_rank)) return false;
  if (!subshape(ctx, in, 0, axis, &before_out)) return false;
  int64_t middle = in->rank < 0 ? -1 : in->dims[axis < 0 ? axis + in->rank : axis];
  if (axis == -1) after_out = tfc_shape_scalar();
  else if (!subshape(ctx, in, axis + 1, END_OF_SHAPE, &after_out)) return false;
  for (int i = end - 2; i >= start; i--) {
    tfc_shape before, after;
    in = &ctx->in_shapes[i];
    if (!with_rank_at_least(ctx, in, min_rank)) return false;
    if (!subshape(ctx, in, 0, axis, &before)) return false;
    int64_t mid = in->rank < 0 ? -1 : in->dims[axis < 0 ? axis + in->rank : axis];
    if (axis == -1) after = tfc_shape_scalar();
    else if (!subshape(ctx, in, axis + 1, END_OF_SHAPE, &after)) return false;
    if (!merge_shape(ctx, &before, &before_out, &before_out)) return false;
    middle = add_dim(middle, mid);
    if (!merge_shape(ctx, &after, &after_out, &after_out)) return false;
  }
  tfc_shape mid_v = vector_of(middle);
  if (!concat_shapes(ctx, &before_out, &mid_v, &s)) return false;
  return concat_shapes(ctx, &s, &after_out, &ctx->out_shapes[0]);
}

/* ConcatV2(values..., axis). */
bool tfc_shape_fn_concat_v2(tfc_shape_ctx *ctx) {
  return concat_helper(ctx, 0, ctx->n_inputs - 1, ctx->n_inputs - 1);
}

/* Concat(concat_dim, values...). */
bool tfc_shape_fn_concat(tfc_shape_ctx *ctx) { return concat_helper(ctx, 1, ctx->n_inputs, 0); }

/* ConcatOffset(concat_dim, shapes...): offset i has the shape of shape i. */
bool tfc_shape_fn_concat_offset(tfc_shape_ctx *ctx) {
  for (int i = 1; i < ctx->n_inputs && i - 1 < ctx->n_outputs; i++)
    if (!with_rank(ctx, &ctx->in_shapes[i], 1, &ctx->out_shapes[i - 1])) return false;
  return true;
}

/* TF's GetAxisForPackAndUnpack. */
static bool pack_axis(tfc_shape_ctx *ctx, int rank_after, int64_t *axis) {
  *axis = 0;
  int64_t a = attr_int(ctx, "axis", 0);
  if (a < -rank_after || a >= rank_after)
    return tfc_shape_fail(ctx, "Invalid axis: %lld; must be in [%d,%d)", (long long)a, -rank_after,
                          rank_after);
  *axis = a < 0 ? a + rank_after : a;
  return true;
}

/* Pack: all inputs merge; a dim of N is inserted at axis. */
bool tfc_shape_fn_pack(tfc_shape_ctx *ctx) {
  tfc_shape cur = ctx->in_shapes[ctx->n_inputs - 1];
  for (int i = ctx->n_inputs - 2; i >= 0; i--)
    if (!merge_shape(ctx, &ctx->in_shapes[i], &cur, &cur)) return false;
  if (cur.rank < 0) return true;
  int64_t axis;
  if (!pack_axis(ctx, cur.rank + 1, &axis)) return false;
  if (!check_rank(ctx, cur.rank + 1)) return false;
  tfc_shape r = tfc_shape_scalar();
  r.rank = cur.rank + 1;
  for (int i = 0, k = 0; i < r.rank; i++) r.dims[i] = i == axis ? ctx->n_inputs : cur.dims[k++];
  ctx->out_shapes[0] = r;
  return true;
}

/* Unpack: the axis dim must equal num; every output drops it. */
bool tfc_shape_fn_unpack(tfc_shape_ctx *ctx) {
  const tfc_shape *s = &ctx->in_shapes[0];
  tfc_shape out = tfc_shape_unknown();
  if (s->rank >= 0) {
    int64_t axis;
    if (!pack_axis(ctx, s->rank, &axis)) return false;
    if (!with_value(ctx, s->dims[axis], ctx->n_outputs, NULL)) return false;
    out = tfc_shape_scalar();
    for (int i = 0; i < s->rank; i++)
      if (i != axis) out.dims[out.rank++] = s->dims[i];
  }
  for (int i = 0; i < ctx->n_outputs; i++) ctx->out_shapes[i] = out;
  return true;
}

/* Split(split_dim, value): num_split equal pieces along split_dim. */
bool tfc_shape_fn_split(tfc_shape_ctx *ctx) {
  tfc_shape in = ctx->in_shapes[1];
  int64_t axis;
  bool known;
  if (!scalar_axis(ctx, 0, in.rank, &axis, &known)) return false;
  int n = ctx->n_outputs;
  tfc_shape out;
  if (!known) {
    out = in.rank >= 0 ? tfc_shape_unknown_dims(in.rank) : tfc_shape_unknown();
  } else {
    if (!with_rank_at_least(ctx, &in, axis + 1)) return false;
    if (in.rank < 0) {
      out = tfc_shape_unknown();
    } else {
      int64_t d;
      if (!div_dim(ctx, in.dims[axis], n, &d)) return false;
      out = in;
      out.dims[axis] = d;
    }
  }
  for (int i = 0; i < n; i++) ctx->out_shapes[i] = out;
  return true;
}

/* SplitV(value, size_splits, split_dim): pieces of the given sizes (one may be -1). */
bool tfc_shape_fn_split_v(tfc_shape_ctx *ctx) {
  tfc_shape in = ctx->in_shapes[0];
  int64_t axis;
  bool known;
  if (!scalar_axis(ctx, 2, in.rank, &axis, &known)) return false;
  int n = ctx->n_outputs;
  const tfc_tensor *sizes = cval(ctx, 1);
  if (in.rank < 0) return true;
  if (in.rank == 0) return tfc_shape_fail(ctx, "Can't split scalars");
  if (!known) {
    for (int i = 0; i < n; i++) ctx->out_shapes[i] = tfc_shape_unknown_dims(in.rank);
    return true;
  }
  if (!sizes) {
    tfc_shape out = in;
    out.dims[axis] = -1;
    for (int i = 0; i < n; i++) ctx->out_shapes[i] = out;
    return true;
  }
  if (!with_rank_at_least(ctx, &in, axis + 1)) return false;
  if (sizes->nelems != n)
    return tfc_shape_fail(ctx, "Length of size_splits should be equal to the number of outputs (%d)", n);
  int64_t total = 0;
  bool has_neg_one = false;
  for (int i = 0; i < n; i++) {
    int64_t v = tfc_tensor_get_int64(sizes, i);
    if (v == -1) {
      if (has_neg_one) return tfc_shape_fail(ctx, "size_splits can only have one -1");
      has_neg_one = true;
    } else {
      total += v;
    }
  }
  int64_t dim = in.dims[axis];
  for (int i = 0; i < n; i++) {
    int64_t v = tfc_tensor_get_int64(sizes, i);
    if (v == -1 && dim >= 0) v = dim - total;
    tfc_shape out = in;
    out.dims[axis] = v < 0 ? -1 : v;
    ctx->out_shapes[i] = out;
  }
  if (dim >= 0 && (has_neg_one ? total > dim : total != dim)) {
    char buf[256];
    size_t pos = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && pos < sizeof buf; i++)
      pos += (size_t)snprintf(buf + pos, sizeof buf - pos, "%s%lld", i ? "," : "",
                              (long long)tfc_tensor_get_int64(sizes, i));
    return tfc_shape_fail(ctx, "can't split axis of size %lld into pieces of size [%s]", (long long)dim, buf);
  }
  return true;
}

/* ------------------------------------------------------------------ slicing */

/* Slice(input, begin, size). */
bool tfc_shape_fn_slice(tfc_shape_ctx *ctx) {
  tfc_shape in = ctx->in_shapes[0];
  tfc_shape begin_shape, sizes_shape;
  if (!with_rank(ctx, &ctx->in_shapes[1], 1, &begin_shape)) return false;
  if (!with_rank(ctx, &ctx->in_shapes[2], 1, &sizes_shape)) return false;
  if (!merge_shape(ctx, &begin_shape, &sizes_shape, &begin_shape)) return false;
  int64_t ndims = begin_shape.dims[0];
  if (ndims >= 0 && !with_rank(ctx, &in, ndims, &in)) return false;
  tfc_shape begin_value;
  if (!shape_from_shape_tensor(ctx, 1, &begin_value)) return false;
  const tfc_tensor *sizes = cval(ctx, 2);
  if (sizes) {
    for (int64_t i = 0; i < sizes->nelems; i++) {
      int64_t v = tfc_tensor_get_int64(sizes, i);
      if (v < -1) return tfc_shape_fail(ctx, "Invalid value in tensor used for shape: %lld", (long long)v);
    }
    if (!with_rank(ctx, &begin_value, sizes->nelems, &begin_value)) return false;
    tfc_shape r = tfc_shape_scalar();
    r.rank = (int)sizes->nelems;
    for (int i = 0; i < r.rank; i++) {
      int64_t dim = in.rank < 0 ? -1 : in.dims[i];
      int64_t s = tfc_tensor_get_int64(sizes, i);
      if (s != -1) {
        if (s < 0)
          return tfc_shape_fail(ctx,
                                "Out of bounds slicing on dimension %d of length %lld: sizes vector "
                                "cannot be < -1, but was %lld",
                                i, (long long)dim, (long long)s);
        r.dims[i] = s;
      } else if (!sub_dim(ctx, dim, begin_value.dims[i], &r.dims[i])) {
        return false;
      }
    }
    ctx->out_shapes[0] = r;
    return true;
  }
  tfc_shape sizes_value;
  if (!shape_from_shape_tensor(ctx, 2, &sizes_value)) return false;
  if (sizes_value.rank >= 0) {
    if (!with_rank(ctx, &begin_value, sizes_value.rank, &begin_value)) return false;
    ctx->out_shapes[0] = sizes_value;
    return true;
  }
  if (in.rank >= 0) ctx->out_shapes[0] = tfc_shape_unknown_dims(in.rank);
  return true;
}

/* StridedSlice(input, begin, end, strides): precise when strides (and
 * begin/end) are constants and the input rank is known. */
bool tfc_shape_fn_strided_slice(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  tfc_shape b, e, s;
  if (!with_rank(ctx, &ctx->in_shapes[1], 1, &b)) return false;
  if (!with_rank(ctx, &ctx->in_shapes[2], 1, &e)) return false;
  if (!with_rank(ctx, &ctx->in_shapes[3], 1, &s)) return false;
  if (!merge_shape(ctx, &b, &e, &b)) return false;
  if (!merge_shape(ctx, &b, &s, &b)) return false;
  const tfc_tensor *strides = cval(ctx, 3);
  if (in->rank < 0 || b.dims[0] < 0 || !strides) return true;
  tfc_strided_slice ss;
  tfc_status st;
  tfc_status_clear(&st);
  if (!tfc_strided_slice_resolve(cval(ctx, 1), cval(ctx, 2), strides, in,
                                 attr_int(ctx, "begin_mask", 0), attr_int(ctx, "end_mask", 0),
                                 attr_int(ctx, "ellipsis_mask", 0), attr_int(ctx, "new_axis_mask", 0),
                                 attr_int(ctx, "shrink_axis_mask", 0), &ss, &st))
    return tfc_shape_fail(ctx, "%s", st.msg);
  ctx->out_shapes[0] = tfc_shape_make(ss.final_rank, ss.final_dims);
  return true;
}

/* StridedSliceGrad(shape, begin, end, strides, dy): the shape given by `shape`. */
bool tfc_shape_fn_strided_slice_grad(tfc_shape_ctx *ctx) {
  return shape_from_shape_tensor(ctx, 0, &ctx->out_shapes[0]);
}

/* ------------------------------------------------------------------ tiling and padding */

/* Tile(input, multiples): dim i is input dim i * multiples[i]. */
bool tfc_shape_fn_tile(tfc_shape_ctx *ctx) {
  tfc_shape in = ctx->in_shapes[0];
  tfc_shape mult;
  if (!shape_from_shape_tensor(ctx, 1, &mult)) return false;
  if (in.rank >= 0) {
    if (!with_rank(ctx, &mult, in.rank, &mult)) return false;
    tfc_shape v = vector_of(in.rank), unused;
    if (!merge_shape(ctx, &ctx->in_shapes[1], &v, &unused)) return false;
  }
  if (mult.rank < 0) return true;
  if (!with_rank(ctx, &in, mult.rank, &in)) return false;
  tfc_shape r = tfc_shape_unknown_dims(mult.rank);
  for (int i = 0; i < mult.rank; i++) r.dims[i] = mul_dim(in.dims[i], mult.dims[i]);
  ctx->out_shapes[0] = r;
  return true;
}

/* TF's PadShapeFn for Pad and PadV2 (paddings is input 1). */
static bool pad_shape(tfc_shape_ctx *ctx) {
  tfc_shape paddings;
  if (!with_rank(ctx, &ctx->in_shapes[1], 2, &paddings)) return false;
  if (!with_value(ctx, paddings.dims[1], 2, NULL)) return false;
  tfc_shape in = ctx->in_shapes[0];
  int64_t n_dim = paddings.dims[0];
  if (n_dim >= 0) {
    if (!with_rank(ctx, &in, n_dim, &in)) return false;
  } else if (in.rank >= 0) {
    n_dim = in.rank;
  }
  const tfc_tensor *p = cval(ctx, 1);
  if (!p) {
    if (n_dim >= 0) ctx->out_shapes[0] = tfc_shape_unknown_dims((int)n_dim);
    return true;
  }
  int64_t num_dims = p->rank >= 1 ? p->dims[0] : 0;
  if (!with_rank(ctx, &in, num_dims, &in)) return false;
  if (!with_value(ctx, n_dim, num_dims, NULL)) return false;
  tfc_shape r = tfc_shape_unknown_dims((int)num_dims);
  for (int i = 0; i < num_dims; i++) {
    int64_t p0 = tfc_tensor_get_int64(p, 2 * i), p1 = tfc_tensor_get_int64(p, 2 * i + 1);
    if (p0 < 0 || p1 < 0) return tfc_shape_fail(ctx, "Paddings must be non-negative");
    r.dims[i] = add_dim(in.dims[i], p0 + p1);
  }
  ctx->out_shapes[0] = r;
  return true;
}

/* Pad(input, paddings). */
bool tfc_shape_fn_pad(tfc_shape_ctx *ctx) { return pad_shape(ctx); }

/* PadV2(input, paddings, constant_values): as Pad (the kernel checks constant_values). */
bool tfc_shape_fn_pad_v2(tfc_shape_ctx *ctx) { return pad_shape(ctx); }

/* MirrorPad(input, paddings). */
bool tfc_shape_fn_mirror_pad(tfc_shape_ctx *ctx) {
  tfc_shape paddings;
  if (!with_rank(ctx, &ctx->in_shapes[1], 2, &paddings)) return false;
  int64_t rank = paddings.dims[0];
  if (rank < 0) return true;
  tfc_shape in, m = tfc_shape_scalar();
  if (!with_rank(ctx, &ctx->in_shapes[0], rank, &in)) return false;
  m.rank = 2;
  m.dims[0] = rank;
  m.dims[1] = 2;
  if (!merge_shape(ctx, &paddings, &m, &paddings)) return false;
  const tfc_tensor *p = cval(ctx, 1);
  if (!p) {
    ctx->out_shapes[0] = tfc_shape_unknown_dims((int)rank);
    return true;
  }
  tfc_shape r = tfc_shape_unknown_dims((int)rank);
  for (int i = 0; i < rank; i++) {
    int64_t p0 = tfc_tensor_get_int64(p, 2 * i), p1 = tfc_tensor_get_int64(p, 2 * i + 1);
    if (p0 < 0 || p1 < 0) return tfc_shape_fail(ctx, "Paddings must be non-negative");
    r.dims[i] = add_dim(in.dims[i], p0 + p1);
  }
  ctx->out_shapes[0] = r;
  return true;
}

/* BroadcastTo(input, shape). */
bool tfc_shape_fn_broadcast_to(tfc_shape_ctx *ctx) {
  tfc_shape unused, out;
  if (!with_rank(ctx, &ctx->in_shapes[1], 1, &unused)) return false;
  if (!shape_from_shape_tensor(ctx, 1, &out)) return false;
  const tfc_shape *in = &ctx->in_shapes[0];
  if (out.rank < 0 || in->rank < 0) {
    ctx->out_shapes[0] = out;
    return true;
  }
  if (!with_rank_at_most(ctx, in, out.rank)) return false;
  for (int i = 0; i < in->rank; i++) {
    int64_t d = in->dims[in->rank - 1 - i];
    if (d > 1) {
      int64_t *o = &out.dims[out.rank - 1 - i];
      if (!merge_dim(ctx, d, *o, o)) return false;
    }
  }
  ctx->out_shapes[0] = out;
  return true;
}

/* ------------------------------------------------------------------ gather / one_hot */

/* GatherV2(params, indices, axis) with batch_dims. */
bool tfc_shape_fn_gather_v2(tfc_shape_ctx *ctx) {
  const tfc_shape *params = &ctx->in_shapes[0], *indices = &ctx->in_shapes[1];
  tfc_shape unused;
  if (!with_rank_at_least(ctx, params, 1)) return false;
  if (!with_rank(ctx, &ctx->in_shapes[2], 0, &unused)) return false;
  int64_t batch_dims = attr_int(ctx, "batch_dims", 0);
  const tfc_tensor *axis_t = cval(ctx, 2);
  if (!axis_t) {
    if (params->rank >= 0 && indices->rank >= 0) {
      int64_t bd = batch_dims < 0 ? batch_dims + indices->rank : batch_dims;
      int64_t r = params->rank + indices->rank - 1 - bd;
      if (r < 0) return tfc_shape_fail(ctx, "Invalid batch_dims %lld", (long long)batch_dims);
      if (!check_rank(ctx, r)) return false;
      ctx->out_shapes[0] = tfc_shape_unknown_dims((int)r);
    }
    return true;
  }
  int64_t axis = tfc_tensor_get_int64(axis_t, 0);
  if (!with_rank_at_least(ctx, params, axis < 0 ? -axis : axis + 1)) return false;
  if (!with_rank_at_least(ctx, indices, batch_dims < 0 ? -batch_dims : batch_dims)) return false;
  if (batch_dims < 0) {
    if (indices->rank < 0) return true;
    batch_dims += indices->rank;
  }
  if (!with_rank_at_least(ctx, params, batch_dims + 1)) return false;
  tfc_shape outer, inner, out;
  if (!subshape(ctx, params, 0, axis, &outer)) return false;
  if (!subshape(ctx, indices, batch_dims, END_OF_SHAPE, &inner)) return false;
  if (!concat_shapes(ctx, &outer, &inner, &out)) return false;
  if (axis != -1) {
    tfc_shape rest;
    if (!subshape(ctx, params, axis + 1, END_OF_SHAPE, &rest)) return false;
    if (!concat_shapes(ctx, &out, &rest, &out)) return false;
  }
  ctx->out_shapes[0] = out;
  return true;
}

/* Gather(params, indices): indices.shape + params.shape[1:]. */
bool tfc_shape_fn_gather(tfc_shape_ctx *ctx) {
  const tfc_shape *params = &ctx->in_shapes[0];
  if (!with_rank_at_least(ctx, params, 1)) return false;
  tfc_shape sub;
  if (!subshape(ctx, params, 1, END_OF_SHAPE, &sub)) return false;
  return concat_shapes(ctx, &ctx->in_shapes[1], &sub, &ctx->out_shapes[0]);
}

/* UnsortedSegmentSum(data, segment_ids, num_segments): segment_ids' shape is
 * a prefix of data's; the output is [num_segments] + data.shape[rank(ids):]
 * (unknown when either rank is). */
bool tfc_shape_fn_unsorted_segment(tfc_shape_ctx *ctx) {
  tfc_shape unused;
  if (!with_rank(ctx, &ctx->in_shapes[2], 0, &unused)) return false;
  const tfc_shape *data = &ctx->in_shapes[0], *ids = &ctx->in_shapes[1];
  ctx->out_shapes[0] = tfc_shape_unknown();
  if (ids->rank < 0) return true;
  if (!with_rank_at_least(ctx, data, ids->rank)) return false;
  int64_t merged[TFC_MAX_RANK];
  for (int d = 0; data->rank >= 0 && d < ids->rank; d++)
    if (!tfc_shape_merge_dim_ctx(ctx, data->dims[d], ids->dims[d], &merged[d])) return false;
  int64_t n = -1;
  const tfc_tensor *v = cval(ctx, 2);
  if (v) {
    n = tfc_tensor_get_int64(v, 0);
    if (n < 0)
      return tfc_shape_fail(ctx,
                            "Dimension size, given by scalar input 2, must be non-negative but "
                            "is %lld",
                            (long long)n);
  }
  if (data->rank < 0) return true;
  tfc_shape out = tfc_shape_unknown_dims(1 + data->rank - ids->rank);
  out.dims[0] = n;
  for (int d = ids->rank; d < data->rank; d++) out.dims[1 + d - ids->rank] = data->dims[d];
  ctx->out_shapes[0] = out;
  return true;
}

/* OneHot(indices, depth, on, off): depth inserted at axis. */
bool tfc_shape_fn_one_hot(tfc_shape_ctx *ctx) {
  int64_t axis = attr_int(ctx, "axis", -1);
  if (axis < -1) return tfc_shape_fail(ctx, "axis must be >= -1");
  int64_t depth = -1;
  const tfc_tensor *d = cval(ctx, 1);
  if (d) {
    if (d->rank != 0) return tfc_shape_fail(ctx, "Input must be scalar but has rank %d", d->rank);
    depth = tfc_tensor_get_int64(d, 0);
    if (depth < 0)
      return tfc_shape_fail(ctx, "Dimension size, given by scalar input 1, must be non-negative but is %lld",
                            (long long)depth);
  } else {
    tfc_shape unused;
    if (!with_rank(ctx, &ctx->in_shapes[1], 0, &unused)) return false;
  }
  const tfc_shape *ind = &ctx->in_shapes[0];
  if (ind->rank < 0) return true;
  int new_rank = ind->rank + 1;
  if (!check_rank(ctx, new_rank)) return false;
  int depth_index = (int)((axis + new_rank) % new_rank);
  tfc_shape r = tfc_shape_scalar();
  r.rank = new_rank;
  for (int i = 0, k = 0; i < new_rank; i++) r.dims[i] = i == depth_index ? depth : ind->dims[k++];
  ctx->out_shapes[0] = r;
  return true;
}

/* ------------------------------------------------------------------ fill / range */

/* Fill(dims, value): the shape given by dims; dims must be >= 0. */
bool tfc_shape_fn_fill(tfc_shape_ctx *ctx) {
  tfc_shape unused;
  if (!with_rank(ctx, &ctx->in_shapes[0], 1, &unused)) return false;
  if (!with_rank(ctx, &ctx->in_shapes[1], 0, &unused)) return false;
  const tfc_tensor *t = cval(ctx, 0);
  if (t)
    for (int64_t i = 0; i < t->nelems; i++)
      if (tfc_tensor_get_int64(t, i) < 0) return tfc_shape_fail(ctx, "Fill dimensions must be >= 0");
  return shape_from_shape_tensor(ctx, 0, &ctx->out_shapes[0]);
}

/* Rounds a float to the precision of dtype (half / bfloat16 / float). */
static double round_to(tfc_dtype t, double v) {
  switch (t) {
    case TFC_DTYPE_HALF: return tfc_half_to_float(tfc_float_to_half((float)v));
    case TFC_DTYPE_BFLOAT16: return tfc_bfloat16_to_float(tfc_float_to_bfloat16((float)v));
    case TFC_DTYPE_FLOAT: return (float)v;
    default: return v;
  }
}

/* Formats a float the way TF's StrCat does: shortest of 6 / 9 (float) or
 * 15 / 17 (double) significant digits that round-trips. */
static void fmt_float(double v, bool is_double, char *buf, size_t cap) {
  int lo = is_double ? 15 : 6, hi = is_double ? 17 : 9;
  snprintf(buf, cap, "%.*g", lo, v);
  double back = strtod(buf, NULL);
  if (is_double ? back != v : (float)back != (float)v) snprintf(buf, cap, "%.*g", hi, v);
}

/* Formats a Range argument for messages. */
static void fmt_arg(tfc_dtype t, double d, int64_t i, char *buf, size_t cap) {
  if (tfc_dtype_is_float(t)) fmt_float(d, t == TFC_DTYPE_DOUBLE, buf, cap);
  else if (t == TFC_DTYPE_UINT64) snprintf(buf, cap, "%llu", (unsigned long long)i);
  else snprintf(buf, cap, "%lld", (long long)i);
}

/* See shape_fns_array.h. */
bool tfc_array_range_size(tfc_dtype t, const tfc_tensor *start, const tfc_tensor *limit,
                          const tfc_tensor *delta, int64_t *size, tfc_status *st) {
  bool is_float = tfc_dtype_is_float(t);
  double fs = tfc_tensor_get_double(start, 0), fl = tfc_tensor_get_double(limit, 0);
  double fd = tfc_tensor_get_double(delta, 0);
  int64_t is = tfc_tensor_get_int64(start, 0), il = tfc_tensor_get_int64(limit, 0);
  int64_t id = tfc_tensor_get_int64(delta, 0);
  bool unsig = tfc_dtype_is_unsigned(t);
  bool gt, lt, dpos, dneg, dzero;
  if (is_float) {
    gt = fs > fl;
    lt = fs < fl;
    dpos = fd > 0;
    dneg = fd < 0;
    dzero = fd == 0;
  } else if (unsig) {
    gt = (uint64_t)is > (uint64_t)il;
    lt = (uint64_t)is < (uint64_t)il;
    dpos = id != 0;
    dneg = false;
    dzero = id == 0;
  } else {
    gt = is > il;
    lt = is < il;
    dpos = id > 0;
    dneg = id < 0;
    dzero = id == 0;
  }
  char a[48], b[48];
  if ((gt && dpos) || (lt && dneg)) {
    fmt_arg(t, fs, is, a, sizeof a);
    fmt_arg(t, fl, il, b, sizeof b);
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Requires start %s limit when delta %s 0: %s/%s",
                          gt ? "<=" : ">=", gt ? ">" : "<", a, b);
  }
  if (dzero) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Requires delta != 0");
  if (is_float) {
    double q = round_to(t, round_to(t, fl - fs) / fd);
    double n = ceil(fabs(round_to(t, q)));
    if (!(n < 9.2e18))
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Requires ((limit - start) / delta) <= %lld",
                            (long long)INT64_MAX);
    *size = (int64_t)n;
  } else if (unsig) {
    uint64_t diff = (uint64_t)il - (uint64_t)is, ad = (uint64_t)id;
    *size = (int64_t)((diff + ad - 1) / ad);
  } else {
    /* |limit - start| may overflow int64; compute in unsigned. */
    uint64_t diff = il >= is ? (uint64_t)il - (uint64_t)is : (uint64_t)is - (uint64_t)il;
    uint64_t ad = id < 0 ? (uint64_t)0 - (uint64_t)id : (uint64_t)id;
    uint64_t n = diff / ad + (diff % ad != 0);
    if (n > (uint64_t)INT64_MAX)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Range size exceeds int64");
    *size = (int64_t)n;
  }
  return true;
}

/* Range(start, limit, delta): a vector whose length is known when all three are constant. */
bool tfc_shape_fn_range(tfc_shape_ctx *ctx) {
  static const char *const names[3] = {"start", "limit", "delta"};
  for (int i = 0; i < 3; i++) {
    const tfc_shape *s = &ctx->in_shapes[i];
    if (s->rank > 0)
      return tfc_shape_fail(ctx, "Shape must be rank 0 but is rank %d for '%s'", s->rank, names[i]);
  }
  ctx->out_shapes[0] = vector_of(-1);
  const tfc_tensor *s = cval(ctx, 0), *l = cval(ctx, 1), *d = cval(ctx, 2);
  if (!s || !l || !d) return true;
  int64_t n;
  tfc_status st;
  tfc_status_clear(&st);
  if (!tfc_array_range_size(s->dtype, s, l, d, &n, &st)) return tfc_shape_fail(ctx, "%s", st.msg);
  ctx->out_shapes[0] = vector_of(n);
  return true;
}

/* ------------------------------------------------------------------ reverse */

/* Reverse(tensor, dims: bool vector). */
bool tfc_shape_fn_reverse(tfc_shape_ctx *ctx) {
  tfc_shape in = ctx->in_shapes[0], dims;
  if (!with_rank(ctx, &ctx->in_shapes[1], 1, &dims)) return false;
  if (dims.dims[0] >= 0 && !with_rank(ctx, &in, dims.dims[0], &in)) return false;
  if (in.rank > 8) return tfc_shape_fail(ctx, "reverse does not work on tensors with more than 8 dimensions");
  ctx->out_shapes[0] = in;
  return true;
}

/* ReverseV2(tensor, axis): axis entries must be distinct and in range. */
bool tfc_shape_fn_reverse_v2(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  tfc_shape axis;
  if (!with_rank(ctx, &ctx->in_shapes[1], 1, &axis)) return false;
  if (in->rank > 8) return tfc_shape_fail(ctx, "reverse does not work on tensors with more than 8 dimensions");
  const tfc_tensor *a = cval(ctx, 1);
  if (a && in->rank >= 0) {
    int rank = in->rank;
    bool seen[TFC_MAX_RANK] = {false};
    for (int64_t i = 0; i < a->nelems; i++) {
      int64_t v = tfc_tensor_get_int64(a, i);
      int64_t c = v < 0 ? v + rank : v;
      if (c < 0 || c >= rank)
        return tfc_shape_fail(ctx, "'axis'[%lld] = %lld is out of valid range [0, %d", (long long)i,
                              (long long)v, rank - 1);
      if (seen[c]) return tfc_shape_fail(ctx, "axis %lld specified more than once.", (long long)c);
      seen[c] = true;
    }
  }
  ctx->out_shapes[0] = *in;
  return true;
}
