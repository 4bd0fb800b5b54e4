/*
 * strided_slice.c — resolution of StridedSlice specs (see strided_slice.h).
 *
 * Follows the semantics of TensorFlow's ValidateStridedSliceOp: a sparse spec
 * (the user's begin/end/strides entries, with ellipsis and new-axis entries)
 * is expanded into a dense spec with one entry per input dimension, then each
 * dimension is canonicalised and bounds-checked.
 */
#include "core/strided_slice.h"

#include <stdio.h>
#include <string.h>

#define SS_MAX_SPARSE 33   /* 32 user entries + the implicit ellipsis */
#define SS_NEW_AXIS (-1)
#define SS_SHRINK_AXIS (-2)

/* Writes a concrete tensor shape as "[2,3]" into buf. */
static void dims_text(const tfc_tensor *t, char *buf, size_t cap) {
  size_t pos = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < t->rank && pos < cap; i++)
    pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? "," : "", (long long)t->dims[i]);
  if (pos < cap) snprintf(buf + pos, cap - pos, "]");
}

/* True when t is a vector of an integer index type. */
static bool is_index_vector(const tfc_tensor *t) {
  return t->rank == 1 && (t->dtype == TFC_DTYPE_INT16 || t->dtype == TFC_DTYPE_INT32 ||
                          t->dtype == TFC_DTYPE_INT64);
}

/* The dense spec: one entry per input dim, after ellipsis expansion. */
typedef struct dense_spec {
  int dims;
  uint64_t begin_mask, end_mask, shrink_mask;
  int64_t begin[TFC_MAX_RANK], end[TFC_MAX_RANK], strides[TFC_MAX_RANK];
  int n_gather;
  int gather[SS_MAX_SPARSE + TFC_MAX_RANK];  /* dense index, SS_NEW_AXIS or SS_SHRINK_AXIS */
} dense_spec;

/* Expands the sparse spec into *d (TF's BuildDenseSpec). false + st when a
 * sparse entry would index past the input's rank. */
static bool build_dense(const tfc_tensor *begin, const tfc_tensor *end, const tfc_tensor *strides,
                        int sparse_dims, int n_add_after_ellipsis, uint64_t begin_mask,
                        uint64_t end_mask, uint64_t ellipsis_mask, uint64_t new_axis_mask,
                        uint64_t shrink_mask, dense_spec *d, tfc_status *st) {
  int full = 0;
  for (int i = 0; i < sparse_dims; i++) {
    uint64_t bit = (uint64_t)1 << i;
    if (ellipsis_mask & bit) {
      int next = d->dims - (sparse_dims - i) + 1 + n_add_after_ellipsis;
      if (next > d->dims) next = d->dims;
      for (; full < next; full++) {
        d->begin[full] = d->end[full] = 0;
        d->strides[full] = 1;
        d->begin_mask |= (uint64_t)1 << full;
        d->end_mask |= (uint64_t)1 << full;
        d->gather[d->n_gather++] = full;
      }
    } else if (new_axis_mask & bit) {
      d->gather[d->n_gather++] = SS_NEW_AXIS;
    } else {
      if (full == d->dims && d->dims == 0)
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Attempting to slice scalar input.");
      if (full == d->dims)
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                              "Index out of range using input dim %d; input has only %d dims",
                              full, d->dims);
      d->begin[full] = begin ? tfc_tensor_get_int64(begin, i) : 0;
      d->end[full] = end ? tfc_tensor_get_int64(end, i) : 0;
      d->strides[full] = tfc_tensor_get_int64(strides, i);
      if (begin_mask & bit) d->begin_mask |= (uint64_t)1 << full;
      if (end_mask & bit) d->end_mask |= (uint64_t)1 << full;
      if (shrink_mask & bit) {
        d->gather[d->n_gather++] = SS_SHRINK_AXIS;
        d->shrink_mask |= (uint64_t)1 << full;
      } else {
        d->gather[d->n_gather++] = full;
      }
      full++;
    }
  }
  return true;
}

/* Clamps x (possibly negative) into the valid range of end point c
 * (0 = begin, 1 = end) of a dimension of size dim with stride s; a masked
 * end point takes the extreme in the stride's direction. */
static int64_t canonical(int64_t x, int c, bool masked, int64_t s, int64_t dim) {
  int64_t lo = s > 0 ? 0 : -1, hi = s > 0 ? dim : dim - 1;
  if (masked) {
    if (s > 0) return c == 0 ? lo : hi;
    return c == 0 ? hi : lo;
  }
  int64_t fwd = x < 0 ? dim + x : x;
  return fwd < lo ? lo : fwd > hi ? hi : fwd;
}

/* Resolves a spec (see strided_slice.h). */
bool tfc_strided_slice_resolve(const tfc_tensor *begin, const tfc_tensor *end,
                               const tfc_tensor *strides, const tfc_shape *input,
                               int64_t begin_mask_spec, int64_t end_mask_spec,
                               int64_t ellipsis_mask_spec, int64_t new_axis_mask_spec,
                               int64_t shrink_axis_mask_spec, tfc_strided_slice *out,
                               tfc_status *st) {
  memset(out, 0, sizeof *out);
  bool strides_ok = is_index_vector(strides) && strides->nelems < 32;
  bool begin_wrong = begin && !(is_index_vector(begin) && begin->nelems == strides->nelems &&
                                begin->nelems < 32);
  bool end_wrong = end && !(is_index_vector(end) && end->nelems == strides->nelems);
  if (begin_wrong || end_wrong || !strides_ok) {
    char b[64], e[64], s[64];
    dims_text(strides, s, sizeof s);
    if (begin && end) {
      dims_text(begin, b, sizeof b);
      dims_text(end, e, sizeof e);
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Expected begin, end, and strides to be 1D equal size tensors, but "
                            "got shapes %s, %s, and %s instead.", b, e, s);
    }
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Expected begin, end, and strides to be 1D equal size tensors, but got "
                          "shape %s for strides.", s);
  }
  uint64_t begin_mask = (uint32_t)begin_mask_spec, end_mask = (uint32_t)end_mask_spec;
  uint64_t ellipsis_mask = (uint32_t)ellipsis_mask_spec;
  uint64_t new_axis_mask = (uint32_t)new_axis_mask_spec;
  uint64_t shrink_mask = (uint32_t)shrink_axis_mask_spec;
  if (ellipsis_mask && (ellipsis_mask & (ellipsis_mask - 1)) != 0)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Multiple ellipses in slice spec not allowed");
  if (input->rank < 0 || input->rank > TFC_MAX_RANK)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "StridedSlice needs an input of known rank <= %d", TFC_MAX_RANK);

  /* Step 1: count new axes after the ellipsis; append an implicit ellipsis. */
  int sparse_dims = (int)strides->nelems;
  int n_add_after_ellipsis = 0;
  bool ellipsis_seen = false;
  for (int i = 0; i < sparse_dims; i++) {
    uint64_t bit = (uint64_t)1 << i;
    if (ellipsis_seen && (new_axis_mask & bit)) n_add_after_ellipsis++;
    if (ellipsis_mask & bit) ellipsis_seen = true;
  }
  if (!ellipsis_seen) {
    ellipsis_mask |= (uint64_t)1 << sparse_dims;
    sparse_dims++;
  }

  /* Step 2: dense spec. */
  dense_spec d;
  memset(&d, 0, sizeof d);
  d.dims = input->rank;
  if (!build_dense(begin, end, strides, sparse_dims, n_add_after_ellipsis, begin_mask, end_mask,
                   ellipsis_mask, new_axis_mask, shrink_mask, &d, st))
    return false;
  bool begin_valid = begin != NULL, end_valid = end != NULL;

  /* Step 3: canonicalise each dimension and compute the processing shape. */
  out->is_identity = out->slice_dim0 = out->is_simple_slice = true;
  out->processing_rank = input->rank;
  for (int i = 0; i < input->rank; i++) {
    uint64_t bit = (uint64_t)1 << i;
    int64_t b = d.begin[i], e = d.end[i], s = d.strides[i];
    int64_t dim = input->dims[i];
    if (s == 0)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "strides[%d] must be non-zero", i);
    bool shrink = (d.shrink_mask & bit) != 0;
    out->strides[i] = s;
    if (dim < 0) {
      out->processing_dims[i] = shrink ? 1 : -1;
      out->begin[i] = b;
      out->end[i] = e;
      continue;
    }
    bool bmask = (d.begin_mask & bit) != 0, emask = (d.end_mask & bit) != 0;
    if (shrink && s <= 0)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "only stride 1 allowed on non-range indexing.");
    out->is_simple_slice &= s == 1;
    bool both_masked = bmask && emask;
    if (begin_valid && end_valid) {
      if (shrink) {
        int64_t fwd = b < 0 ? dim + b : b;
        b = fwd;
        e = b + 1;
        if (fwd < 0 || fwd >= dim)
          return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                                "slice index %lld of dimension %d out of bounds.", (long long)b, i);
      } else {
        b = canonical(b, 0, bmask, s, dim);
        e = canonical(e, 1, emask, s, dim);
      }
      bool take_all = s == 1 && b == 0 && e == dim;
      out->is_identity &= take_all;
      out->slice_dim0 &= (i == 0 && s == 1) || take_all;
    } else {
      out->is_identity &= s == 1 && both_masked;
      out->slice_dim0 &= (i == 0 && s == 1) || both_masked;
    }
    out->begin[i] = b;
    out->end[i] = e;
    int64_t len = 0;
    bool known = false;
    if (begin_valid && end_valid) {
      len = e - b;
      known = true;
    } else if (shrink) {
      len = 1;
      known = true;
    } else if (both_masked) {
      len = s < 0 ? -dim : dim;
      known = true;
    }
    if (known) {
      int64_t size;
      if (len == 0 || ((len < 0) != (s < 0))) size = 0;
      else size = len / s + (len % s != 0 ? 1 : 0);
      out->processing_dims[i] = size;
    } else {
      out->processing_dims[i] = -1;
    }
  }

  /* Step 4: the final shape. */
  out->final_rank = 0;
  for (int k = 0; k < d.n_gather; k++) {
    int g = d.gather[k];
    if (g == SS_SHRINK_AXIS) continue;
    if (out->final_rank >= TFC_MAX_RANK)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "StridedSlice output would have more than %d dimensions",
                            TFC_MAX_RANK);
    out->final_dims[out->final_rank++] = g >= 0 ? out->processing_dims[g] : 1;
  }
  return true;
}
