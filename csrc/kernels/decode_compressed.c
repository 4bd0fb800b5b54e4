/*
 * decode_compressed.c — CPU kernel DecodeCompressed (core/ops_encoding.c):
 * inflates every element of a string tensor compressed with zlib (RFC 1950,
 * compression_type "ZLIB") or gzip ("GZIP"); "" passes the bytes through. A
 * damaged stream is DATA_LOSS, as in TF. The streams are io/zstream's.
 */
#include <string.h>

#include "base/alloc.h"
#include "io/zstream.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* Inflates src[0, n) into a new buffer (*out, *len); false + st on failure. */
static bool inflate_all(const void *src, size_t n, tfc_zstream_kind kind, char **out, size_t *len,
                        tfc_status *st) {
  tfc_istream *in = tfc_istream_open_memory(src, n, kind, st);
  if (!in) return false;
  size_t cap = n * 4 + 64, used = 0;
  char *buf = tfc_malloc(cap);
  bool ok = buf != NULL;
  if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  while (ok) {
    if (used == cap) {
      char *nb = tfc_realloc(buf, cap * 2);
      if (!nb) {
        tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
        ok = false;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    size_t got = 0;
    if (!tfc_istream_read(in, buf + used, cap - used, &got, st)) {
      ok = false;
      break;
    }
    if (got == 0) break;
    used += got;
  }
  tfc_istream_free(in);
  if (!ok) {
    tfc_free(buf);
    return false;
  }
  *out = buf;
  *len = used;
  return true;
}

/* Decompresses every element of the input. */
static void decode_compressed_compute(tfc_kernel_ctx *ctx) {
  const tfc_string *type = NULL;
  if (!tfc_attrs_get_string(ctx->attrs, "compression_type", &type, ctx->st)) return;
  const tfc_tensor *in = ctx->inputs[0];
  tfc_zstream_kind kind;
  if (type->len == 0) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  } else if (type->len == 4 && memcmp(type->data, "ZLIB", 4) == 0) {
    kind = TFC_ZSTREAM_ZLIB;
  } else if (type->len == 4 && memcmp(type->data, "GZIP", 4) == 0) {
    kind = TFC_ZSTREAM_GZIP;
  } else {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Only ZLIB, GZIP or NONE are supported compressions");
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, in->rank, in->dims);
  if (!out) return;
  const tfc_string *src = (const tfc_string *)in->data;
  for (int64_t i = 0; i < in->nelems; i++) {
    char *bytes = NULL;
    size_t len = 0;
    if (!inflate_all(src[i].data ? src[i].data : "", src[i].len, kind, &bytes, &len, ctx->st))
      return;
    bool ok = tfc_tensor_set_string(out, i, bytes, len, ctx->st);
    tfc_free(bytes);
    if (!ok) return;
  }
}

static const tfc_kernel_def defs[] = {
    {"DecodeCompressed", "CPU", NULL, NULL, NULL, decode_compressed_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_decode_compressed = {defs, (int)(sizeof defs / sizeof defs[0])};
