/*
 * decode_raw.c — CPU kernel DecodeRaw: the bytes of every string element
 * reinterpreted as a vector of out_type (TF's decode_raw_op.cc): all elements
 * must have the same length, a multiple of the type's size; the output shape
 * is the input's plus that vector's length. Big-endian input
 * (little_endian=false) has each element's bytes reversed.
 */
#include <string.h>

#include "kernels/kernel.h"
#include "kernels/parsing_internal.h"

void tfc_decode_raw_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  tfc_dtype t;
  bool little = true;
  if (!tfc_attrs_get_type(ctx->attrs, "out_type", &t, ctx->st)) return;
  tfc_attrs_get_bool(ctx->attrs, "little_endian", &little, ctx->st);
  tfc_status_clear(ctx->st);
  size_t es = tfc_dtype_size(t);
  const tfc_string *s = in->data;
  int64_t len = in->nelems > 0 ? (int64_t)s[0].len : 0;
  if (len % (int64_t)es != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Input to DecodeRaw has length %lld that is not a multiple of %zu, the size of %s",
                    (long long)len, es, tfc_op_dtype_string(t));
    return;
  }
  for (int64_t i = 1; i < in->nelems; i++) {
    if ((int64_t)s[i].len != len) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "DecodeRaw requires input strings to all be the same size, but element %lld "
                      "has size %zu != %lld", (long long)i, s[i].len, (long long)len);
      return;
    }
  }
  if (in->rank >= TFC_MAX_RANK) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "DecodeRaw input rank %d is too large", in->rank);
    return;
  }
  int64_t dims[TFC_MAX_RANK];
  for (int i = 0; i < in->rank; i++) dims[i] = in->dims[i];
  dims[in->rank] = len / (int64_t)es;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, t, in->rank + 1, dims);
  if (!out || out->nelems == 0) return;
  uint8_t *o = out->data;
  for (int64_t i = 0; i < in->nelems; i++, o += len) {
    if (little || es == 1) {
      memcpy(o, s[i].data, (size_t)len);
    } else {
      const uint8_t *p = (const uint8_t *)s[i].data;
      for (int64_t e = 0; e < len; e += (int64_t)es)
        for (size_t b = 0; b < es; b++) o[e + (int64_t)b] = p[e + (int64_t)(es - 1 - b)];
    }
  }
  if (t == TFC_DTYPE_BOOL) {
    uint8_t *b = out->data;
    for (int64_t i = 0; i < out->nelems; i++) b[i] = b[i] != 0;
  }
}
