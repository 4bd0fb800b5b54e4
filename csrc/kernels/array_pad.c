/*
 * array_pad.c — Pad, PadV2 (constant padding) and MirrorPad (REFLECT /
 * SYMMETRIC).
 *
 * Constant padding of plain (non-string) data writes every output element
 * once, in one pass in memory order: for a fixed prefix of indices the pad
 * before and after an input row is one contiguous block, and the dims after
 * the last padded one are copied as whole runs (pad_once). Strings fill the
 * output with the pad value and copy the input into the interior. Mirror padding copies the input into the interior, then
 * for each dim from the innermost out copies the mirrored hyperplanes with one
 * negative-stride strided copy per side (the regions read are already final).
 */
#include <string.h>

#include "kernels/array_internal.h"

/* Reads and checks paddings ([rank, 2], non-negative) into before/after and
 * computes out_dims. `sep` separates the two shapes in the rank message. */
static bool read_paddings(tfc_kernel_ctx *ctx, const tfc_tensor *in, const tfc_tensor *p,
                          const char *sep, const char *neg_prefix, int64_t *before, int64_t *after,
                          int64_t *out_dims, bool *all_zero) {
  char a[64], b[64];
  if (p->rank != 2 || p->dims[1] != 2) {
    arr_dims_str(p->rank, p->dims, a, sizeof a);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "paddings must be a matrix with 2 columns: %s", a);
  }
  if (p->dims[0] != in->rank) {
    arr_dims_str(p->rank, p->dims, a, sizeof a);
    arr_dims_str(in->rank, in->dims, b, sizeof b);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "The first dimension of paddings must be the rank of inputs%s%s%s", a, sep, b);
  }
  *all_zero = true;
  for (int d = 0; d < in->rank; d++) {
    before[d] = tfc_tensor_get_int64(p, 2 * d);
    after[d] = tfc_tensor_get_int64(p, 2 * d + 1);
    if (before[d] < 0 || after[d] < 0)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be non-negative: %lld %lld",
                             neg_prefix, (long long)before[d], (long long)after[d]);
    out_dims[d] = before[d] + in->dims[d] + after[d];
    *all_zero &= before[d] == 0 && after[d] == 0;
  }
  return true;
}

/* Copies the input into the interior of out (offset by before). */
static bool copy_interior(tfc_kernel_ctx *ctx, tfc_tensor *out, const tfc_tensor *in,
                          const int64_t *before) {
  if (in->nelems == 0) return true;
  int rank = in->rank;
  int64_t in_strides[TFC_MAX_RANK], out_strides[TFC_MAX_RANK], off = 0;
  arr_strides(rank, in->dims, in_strides);
  arr_strides(rank, out->dims, out_strides);
  for (int d = 0; d < rank; d++) off += before[d] * out_strides[d];
  return arr_strided_copy(ctx, in->dtype, rank, in->dims,
                          (char *)out->data + off * (int64_t)tfc_dtype_size(in->dtype), out_strides,
                          in->data, in_strides);
}

/* One constant pad in a single pass (see the file comment). */
typedef struct pad_job {
  int last;                   /* last dim with padding; later dims are one run */
  int64_t before[TFC_MAX_RANK], in_dims[TFC_MAX_RANK];
  int64_t os[TFC_MAX_RANK];   /* output strides, in elements (in: the same past `last`) */
  int64_t is[TFC_MAX_RANK];   /* input strides, in elements */
  int64_t odims[TFC_MAX_RANK];
  size_t es;                  /* element size */
  const char *value;          /* the pad element */
  bool zero;                  /* the pad element is all zero bytes */
  char *out;
  const char *in;
} pad_job;

/* Writes n pad elements at dst. */
static void pad_fill(const pad_job *j, char *dst, int64_t n) {
  if (n <= 0) return;
  if (j->zero) {
    memset(dst, 0, (size_t)n * j->es);
  } else if (j->es == 4) {
    uint32_t v;
    memcpy(&v, j->value, 4);
    for (int64_t i = 0; i < n; i++) memcpy(dst + 4 * i, &v, 4);
  } else {
    for (int64_t i = 0; i < n; i++) memcpy(dst + (size_t)i * j->es, j->value, j->es);
  }
}

/* Writes the output block of dims d.. at out from the input block at in
 * (both already offset by the indices of dims before d). */
static void pad_rec(const pad_job *j, int d, char *out, const char *in) {
  size_t es = j->es;
  int64_t b = j->before[d], n = j->in_dims[d], a = j->odims[d] - b - n;
  pad_fill(j, out, b * j->os[d]);
  char *o = out + (size_t)(b * j->os[d]) * es;
  if (d == j->last) {
    memcpy(o, in, (size_t)(n * j->os[d]) * es);
  } else {
    for (int64_t i = 0; i < n; i++)
      pad_rec(j, d + 1, o + (size_t)(i * j->os[d]) * es, in + (size_t)(i * j->is[d]) * es);
  }
  pad_fill(j, o + (size_t)(n * j->os[d]) * es, a * j->os[d]);
}

/* Output units [b, e) of dim 0 (or the whole tensor when last is 0). */
static void pad_units(void *arg, int64_t b, int64_t e) {
  const pad_job *j = arg;
  size_t es = j->es;
  if (j->last == 0) { /* one unit: only dim 0 is padded */
    pad_rec(j, 0, j->out, j->in);
    return;
  }
  for (int64_t u = b; u < e; u++) {
    char *o = j->out + (size_t)(u * j->os[0]) * es;
    int64_t i = u - j->before[0];
    if (i < 0 || i >= j->in_dims[0]) pad_fill(j, o, j->os[0]);
    else pad_rec(j, 1, o, j->in + (size_t)(i * j->is[0]) * es);
  }
}

/* Pads plain data in one pass (see pad_rec); out has the padded dims. */
static void pad_once(tfc_kernel_ctx *ctx, tfc_tensor *out, const tfc_tensor *in,
                     const int64_t *before, const void *value) {
  pad_job j = {.es = tfc_dtype_size(in->dtype), .value = value, .out = out->data, .in = in->data};
  int rank = in->rank;
  j.last = 0;
  for (int d = 0; d < rank; d++) {
    j.before[d] = before[d];
    j.in_dims[d] = in->dims[d];
    j.odims[d] = out->dims[d];
    if (out->dims[d] != in->dims[d]) j.last = d;
  }
  arr_strides(rank, out->dims, j.os);
  arr_strides(rank, in->dims, j.is);
  j.zero = true;
  for (size_t k = 0; k < j.es; k++) j.zero &= ((const char *)value)[k] == 0;
  int64_t units = j.last == 0 ? 1 : out->dims[0];
  int64_t per_unit = j.last == 0 ? out->nelems : j.os[0];
  int64_t min_shard = per_unit >= ((int64_t)1 << 15) ? 1 : ((int64_t)1 << 15) / (per_unit + 1) + 1;
  tfc_kernel_parallel_for(ctx, units, min_shard, pad_units, &j);
}

/* Pads with the element *value. */
static void pad_constant(tfc_kernel_ctx *ctx, const void *value) {
  tfc_tensor *in = ctx->inputs[0];
  int64_t before[TFC_MAX_RANK], after[TFC_MAX_RANK], dims[TFC_MAX_RANK];
  bool all_zero;
  if (!read_paddings(ctx, in, ctx->inputs[1], " ", "Paddings", before, after, dims, &all_zero)) return;
  if (all_zero) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, in->rank, dims);
  if (!out || out->nelems == 0) return;
  if (!tfc_dtype_is_stringlike(in->dtype) && in->dtype != TFC_DTYPE_VARIANT && in->nelems > 0) {
    pad_once(ctx, out, in, before, value);
    return;
  }
  if (!arr_fill(ctx, in->dtype, out->data, value, out->nelems)) return;
  copy_interior(ctx, out, in, before);
}

/* Pad(input, paddings): pads with zeros (empty strings, false). */
void arr_pad_compute(tfc_kernel_ctx *ctx) {
  static const tfc_string empty = {NULL, 0};
  pad_constant(ctx, ctx->inputs[0]->dtype == TFC_DTYPE_STRING ? (const void *)&empty
                                                               : (const void *)arr_zero_element);
}

/* PadV2(input, paddings, constant_values). */
void arr_pad_v2_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *cv = ctx->inputs[2];
  if (cv->rank != 0) {
    char s[64];
    arr_dims_str(cv->rank, cv->dims, s, sizeof s);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "constant_values must be a scalar. Got: %s", s);
    return;
  }
  pad_constant(ctx, cv->data);
}

/* MirrorPad(input, paddings) with mode REFLECT or SYMMETRIC. */
void arr_mirror_pad_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *in = ctx->inputs[0];
  int rank = in->rank;
  bool reflect = tfc_attrs_string_is(ctx->attrs, "mode", "REFLECT");
  if (!reflect && !tfc_attrs_string_is(ctx->attrs, "mode", "SYMMETRIC")) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "mode must be either REFLECT or SYMMETRIC.");
    return;
  }
  int64_t before[TFC_MAX_RANK], after[TFC_MAX_RANK], dims[TFC_MAX_RANK];
  bool all_zero;
  if (!read_paddings(ctx, in, ctx->inputs[1], ", ", "paddings", before, after, dims, &all_zero)) return;
  for (int d = 0; d < rank; d++) {
    int64_t n = in->dims[d];
    if (reflect && (before[d] >= n || after[d] >= n)) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "paddings must be less than the dimension size: %lld, %lld not less than %lld",
                      (long long)before[d], (long long)after[d], (long long)n);
      return;
    }
    if (!reflect && (before[d] > n || after[d] > n)) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "paddings must be no greater than the dimension size: %lld, %lld greater than %lld",
                      (long long)before[d], (long long)after[d], (long long)n);
      return;
    }
  }
  if (all_zero) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, rank, dims);
  if (!out || out->nelems == 0) return;
  if (!copy_interior(ctx, out, in, before)) return;
  int64_t es = (int64_t)tfc_dtype_size(in->dtype);
  int64_t os[TFC_MAX_RANK];
  arr_strides(rank, dims, os);
  char *base = out->data;
  int shift = reflect ? 0 : 1;  /* SYMMETRIC repeats the edge element */
  for (int d = rank - 1; d >= 0; d--) {
    /* Region: dims before d restricted to the interior, dims after d full. */
    int64_t rdims[TFC_MAX_RANK], dst_s[TFC_MAX_RANK], src_s[TFC_MAX_RANK], off = 0;
    for (int j = 0; j < rank; j++) {
      rdims[j] = j < d ? in->dims[j] : dims[j];
      dst_s[j] = src_s[j] = os[j];
      if (j < d) off += before[j] * os[j];
    }
    src_s[d] = -os[d];
    if (before[d] > 0) {
      rdims[d] = before[d];
      int64_t src0 = 2 * before[d] - shift;  /* mirror of output coord 0 */
      if (!arr_strided_copy(ctx, in->dtype, rank, rdims, base + off * es, dst_s,
                            base + (off + src0 * os[d]) * es, src_s))
        return;
    }
    if (after[d] > 0) {
      rdims[d] = after[d];
      int64_t dst0 = before[d] + in->dims[d];
      int64_t src0 = dst0 - 2 + shift;  /* mirror of output coord dst0 */
      if (!arr_strided_copy(ctx, in->dtype, rank, rdims, base + (off + dst0 * os[d]) * es, dst_s,
                            base + (off + src0 * os[d]) * es, src_s))
        return;
    }
  }
}
