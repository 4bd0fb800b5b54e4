/*
 * base64.c — CPU kernels EncodeBase64 and DecodeBase64 (core/ops_encoding.c):
 * TF's web-safe base64 (RFC 4648 section 5: '-' and '_' for '+' and '/'),
 * padding with '=' on request when encoding; decoding accepts unpadded input
 * or input padded to a multiple of 4 with at most two '=' (TF's rules and
 * messages: characters are checked before the length).
 */
#include <string.h>

#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

static const char k_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* The 6-bit value of web-safe base64 character c, or -1. */
static int decode_char(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

/* Encodes src[0, n) into dst (room for 4 * ceil(n / 3) bytes); returns the length. */
static size_t encode(const unsigned char *src, size_t n, bool pad, char *dst) {
  size_t o = 0, i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8 | src[i + 2];
    dst[o++] = k_alphabet[v >> 18 & 63];
    dst[o++] = k_alphabet[v >> 12 & 63];
    dst[o++] = k_alphabet[v >> 6 & 63];
    dst[o++] = k_alphabet[v & 63];
  }
  size_t rest = n - i;
  if (rest) {
    uint32_t v = (uint32_t)src[i] << 16 | (rest == 2 ? (uint32_t)src[i + 1] << 8 : 0);
    dst[o++] = k_alphabet[v >> 18 & 63];
    dst[o++] = k_alphabet[v >> 12 & 63];
    if (rest == 2) dst[o++] = k_alphabet[v >> 6 & 63];
    if (pad) {
      dst[o++] = '=';
      if (rest == 1) dst[o++] = '=';
    }
  }
  return o;
}

/* Decodes s[0, n) into dst (room for 3 * n / 4 + 3 bytes); returns the length or
 * -1 with st set (TF's messages). */
static int64_t decode(const unsigned char *s, size_t n, unsigned char *dst, tfc_status *st) {
  if (n % 4 == 0) {
    for (int k = 0; k < 2 && n > 0 && s[n - 1] == '='; k++) n--;
  }
  size_t o = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; i++) {
    int v = decode_char(s[i]);
    if (v < 0) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid character found in base64.");
      return -1;
    }
    acc = acc << 6 | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      dst[o++] = (unsigned char)(acc >> bits & 0xff);
    }
  }
  if (n % 4 == 1) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Base64 string length cannot be 1 modulo 4.");
    return -1;
  }
  return (int64_t)o;
}

/* Encodes or decodes every element of the string input. */
static void base64_compute(tfc_kernel_ctx *ctx, bool encoding) {
  const tfc_tensor *in = ctx->inputs[0];
  bool pad = false;
  if (encoding && !tfc_attrs_get_bool(ctx->attrs, "pad", &pad, ctx->st)) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, in->rank, in->dims);
  if (!out) return;
  const tfc_string *src = (const tfc_string *)in->data;
  size_t cap = 0;
  char *buf = NULL;
  for (int64_t i = 0; i < in->nelems; i++) {
    size_t need = encoding ? 4 * ((src[i].len + 2) / 3) : 3 * (src[i].len / 4) + 3;
    if (need > cap) {
      char *nb = tfc_realloc(buf, need ? need : 1);
      if (!nb) {
        tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
        break;
      }
      buf = nb;
      cap = need;
    }
    const unsigned char *bytes = (const unsigned char *)(src[i].data ? src[i].data : "");
    int64_t len = encoding ? (int64_t)encode(bytes, src[i].len, pad, buf)
                           : decode(bytes, src[i].len, (unsigned char *)buf, ctx->st);
    if (len < 0) break;
    if (!tfc_tensor_set_string(out, i, buf, (size_t)len, ctx->st)) break;
  }
  tfc_free(buf);
}

static void encode_compute(tfc_kernel_ctx *ctx) { base64_compute(ctx, true); }
static void decode_compute(tfc_kernel_ctx *ctx) { base64_compute(ctx, false); }

static const tfc_kernel_def defs[] = {
    {"EncodeBase64", "CPU", NULL, NULL, NULL, encode_compute, NULL, 0},
    {"DecodeBase64", "CPU", NULL, NULL, NULL, decode_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_base64 = {defs, (int)(sizeof defs / sizeof defs[0])};
