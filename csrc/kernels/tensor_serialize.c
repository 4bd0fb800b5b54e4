/*
 * tensor_serialize.c — CPU kernels SerializeTensor and ParseTensor
 * (core/ops_encoding.c): a tensor as the bytes of a TensorProto and back, in
 * TF's layout (strings in string_val, every other dtype in tensor_content).
 */
#include <string.h>

#include "base/alloc.h"
#include "graph/tensor_proto.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* Serializes the input tensor to a scalar string. */
static void serialize_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *t = ctx->inputs[0];
  void *data = NULL;
  size_t len = 0;
  bool ok = t->dtype == TFC_DTYPE_STRING ? tfc_tensor_to_proto(t, &data, &len, ctx->st)
                                         : tfc_tensor_to_proto_content(t, &data, &len, ctx->st);
  if (!ok) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 0, NULL);
  if (out) tfc_tensor_set_string(out, 0, data, len, ctx->st);
  tfc_free(data);
}

/* Writes the standard base64 of s[0, n) (with padding) into dst (4 * ceil(n / 3) + 1 bytes). */
static void base64_std(const unsigned char *s, size_t n, char *dst) {
  static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0) |
                 (i + 2 < n ? s[i + 2] : 0);
    dst[o++] = a[v >> 18 & 63];
    dst[o++] = a[v >> 12 & 63];
    dst[o++] = i + 1 < n ? a[v >> 6 & 63] : '=';
    dst[o++] = i + 2 < n ? a[v & 63] : '=';
  }
  dst[o] = '\0';
}

/* TF's C++ name of a dtype in messages (DataTypeString: "float", "double", ...). */
static const char *tf_type_name(tfc_dtype t) {
  switch (t) {
    case TFC_DTYPE_FLOAT: return "float";
    case TFC_DTYPE_DOUBLE: return "double";
    case TFC_DTYPE_HALF: return "half";
    default: return tfc_dtype_name(t);
  }
}

/* Parses a scalar string holding a TensorProto of dtype out_type. */
static void parse_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  if (in->rank != 0) {
    tfc_shape s = tfc_tensor_shape(in);
    char buf[128];
    tfc_shape_debug_string(&s, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Expected `serialized` to be a scalar, got shape: %s", buf);
    return;
  }
  tfc_dtype want;
  if (!tfc_attrs_get_type(ctx->attrs, "out_type", &want, ctx->st)) return;
  const tfc_string *s = (const tfc_string *)in->data;
  tfc_status pst;
  tfc_status_clear(&pst);
  tfc_tensor *t = tfc_tensor_from_proto(s->data ? s->data : "", s->len, &pst);
  if (!t) {
    size_t shown = s->len < 96 ? s->len : 96;
    char *b64 = tfc_malloc(4 * ((shown + 2) / 3) + 1);
    if (b64) base64_std((const unsigned char *)(s->data ? s->data : ""), shown, b64);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Could not parse `serialized` as TensorProto, base64: %s%s",
                    b64 ? b64 : "", shown < s->len ? "..." : "");
    tfc_free(b64);
    return;
  }
  if (t->dtype != want) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Type mismatch between parsed tensor (%s) and dtype (%s)",
                    tf_type_name(t->dtype), tf_type_name(want));
    tfc_tensor_unref(t);
    return;
  }
  tfc_kernel_set_output(ctx, 0, t);
}

static const tfc_kernel_def defs[] = {
    {"SerializeTensor", "CPU", NULL, NULL, NULL, serialize_compute, NULL, 0},
    {"ParseTensor", "CPU", NULL, NULL, NULL, parse_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_tensor_serialize = {defs, (int)(sizeof defs / sizeof defs[0])};
