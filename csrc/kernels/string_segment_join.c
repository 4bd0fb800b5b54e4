/*
 * string_segment_join.c — CPU kernel for UnsortedSegmentJoin
 * (core/ops_strings.c): output[s, ...] joins, in input order and with
 * `separator`, the strings inputs[i, ...] whose segment_ids[i] == s (i
 * ranging over segment_ids' shape, a prefix of the input's). A separator
 * goes before a string only when the output so far is non-empty, as in TF.
 * Empty segments give "". Ids outside [0, num_segments) fail.
 */
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* UnsortedSegmentJoin compute (see the file comment). */
static void segment_join_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0], *ids = ctx->inputs[1], *ns = ctx->inputs[2];
  if (ns->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Number of segments cannot be empty.");
    return;
  }
  if (ids->rank == 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Segment_id cannot have rank 0");
    return;
  }
  if (ids->rank > in->rank) {
    tfc_kernel_fail(ctx, TFC_CODE_OUT_OF_RANGE, "Invalid segment_id rank %d for input with %d dimension(s)",
                    ids->rank, in->rank);
    return;
  }
  for (int d = 0; d < ids->rank; d++)
    if (ids->dims[d] != in->dims[d]) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Segment dimension is %lld while input dimension is %lld in rank %d",
                      (long long)ids->dims[d], (long long)in->dims[d], d);
      return;
    }
  int64_t num = tfc_tensor_get_int64(ns, 0);
  if (num < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Number of segments must be non-negative, got %lld",
                    (long long)num);
    return;
  }
  int64_t dims[TFC_MAX_RANK + 1];
  dims[0] = num;
  int64_t inner = 1;
  for (int d = ids->rank; d < in->rank; d++) {
    dims[1 + d - ids->rank] = in->dims[d];
    inner *= in->dims[d];
  }
  for (int64_t i = 0; i < ids->nelems; i++) {
    int64_t s = tfc_tensor_get_int64(ids, i);
    if (s < 0 || s >= num) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "segment_ids are not allowed to exceed num_segments or to have negative "
                      "values.");
      return;
    }
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 1 + in->rank - ids->rank, dims);
  if (out == NULL) return;
  int64_t n_out = num * inner;
  tfc_strbuf *bufs = tfc_calloc((size_t)(n_out > 0 ? n_out : 1), sizeof *bufs);
  if (bufs == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory in UnsortedSegmentJoin");
    return;
  }
  for (int64_t k = 0; k < n_out; k++) tfc_strbuf_init(&bufs[k]);
  const tfc_attr_value *sep = tfc_attrs_find(ctx->attrs, "separator");
  const char *sp = (sep && sep->kind == TFC_ATTR_S && sep->v.s.data) ? sep->v.s.data : "";
  size_t sl = (sep && sep->kind == TFC_ATTR_S) ? sep->v.s.len : 0;
  const tfc_string *src = in->data;
  bool oom = false;
  for (int64_t i = 0; i < ids->nelems; i++) {
    int64_t s = tfc_tensor_get_int64(ids, i);
    for (int64_t j = 0; j < inner; j++) {
      tfc_strbuf *b = &bufs[s * inner + j];
      const tfc_string *x = &src[i * inner + j];
      if (b->len > 0) tfc_strbuf_append(b, sp, sl);
      tfc_strbuf_append(b, x->data ? x->data : "", x->len);
      oom |= b->oom;
    }
  }
  for (int64_t k = 0; k < n_out && !oom; k++)
    if (!tfc_tensor_set_string(out, k, bufs[k].data ? bufs[k].data : "", bufs[k].len, ctx->st)) break;
  if (oom) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory in UnsortedSegmentJoin");
  for (int64_t k = 0; k < n_out; k++) tfc_strbuf_free(&bufs[k]);
  tfc_free(bufs);
}

static const tfc_kernel_def defs[] = {
    {"UnsortedSegmentJoin", "CPU", NULL, NULL, NULL, segment_join_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_string_segment_join = {defs, (int)(sizeof defs / sizeof defs[0])};
