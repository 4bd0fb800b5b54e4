/*
 * bundle_slice.c — keys of tensor slices (TF's order-preserving "ordered
 * code": unsigned numbers as a length byte and big-endian bytes, strings
 * with 0x00/0xff escaped and a 0x00 0x01 terminator, signed numbers with a
 * unary length prefix, negatives complemented) and the assembly of a
 * partitioned tensor from its stored slices.
 */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "io/bundle_internal.h"
#include "io/bundle_slice.h"

/* Unsigned number: length byte, then the big-endian bytes without leading zeros. */
static bool put_num_increasing(tfc_strbuf *out, uint64_t v) {
  char buf[9];
  int n = 0;
  for (uint64_t x = v; x; x >>= 8) n++;
  buf[0] = (char)n;
  for (int i = 0; i < n; i++) buf[1 + i] = (char)(v >> (8 * (n - 1 - i)));
  return tfc_strbuf_append(out, buf, (size_t)n + 1);
}

/* String: 0x00 -> 0x00 0xff, 0xff -> 0xff 0x00, then 0x00 0x01. */
static bool put_string(tfc_strbuf *out, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    bool ok = c == 0x00   ? tfc_strbuf_append(out, "\x00\xff", 2)
              : c == 0xff ? tfc_strbuf_append(out, "\xff\x00", 2)
                          : tfc_strbuf_append(out, s + i, 1);
    if (!ok) return false;
  }
  return tfc_strbuf_append(out, "\x00\x01", 2);
}

/* Signed number: n bytes carry 7n - 1 value bits below a header of n one
 * bits and a zero bit (spilling into the second byte for n >= 8); a negative
 * x is encoded as ~x with every byte complemented. */
static bool put_signed_num_increasing(tfc_strbuf *out, int64_t x) {
  uint64_t u = x < 0 ? ~(uint64_t)x : (uint64_t)x;
  int bits = 0;
  for (uint64_t t = u; t; t >>= 1) bits++;
  int n = 1;
  while (7 * n - 1 < bits) n++;  /* n <= 10 */
  unsigned char buf[10] = {0};
  for (int i = 0; i < n; i++) buf[n - 1 - i] = (unsigned char)(i < 8 ? u >> (8 * i) : 0);
  /* header: n ones then a zero, from the top bit of buf[0] on */
  for (int b = 0; b < n; b++) buf[b / 8] |= (unsigned char)(0x80u >> (b % 8));
  if (x < 0)
    for (int i = 0; i < n; i++) buf[i] = (unsigned char)~buf[i];
  return tfc_strbuf_append(out, (const char *)buf, (size_t)n);
}

bool tfc_bundle_slice_key(const char *name, size_t nlen, const tfc_bundle_slice *s, tfc_strbuf *out) {
  bool ok = put_num_increasing(out, 0) && put_string(out, name, nlen) &&
            put_num_increasing(out, (uint64_t)s->rank);
  for (int d = 0; ok && d < s->rank; d++)
    ok = put_signed_num_increasing(out, s->extent[d].start) &&
         put_signed_num_increasing(out, s->extent[d].length);
  return ok;
}

/* Copies slice `part` (shape = the extents) into full tensor t. */
static bool place_slice(tfc_tensor *t, const tfc_bundle_slice *s, const tfc_tensor *part,
                        tfc_status *st) {
  int rank = t->rank;
  int64_t start[TFC_MAX_RANK], len[TFC_MAX_RANK], idx[TFC_MAX_RANK] = {0};
  for (int d = 0; d < rank; d++) {
    start[d] = s->extent[d].start;
    len[d] = s->extent[d].length < 0 ? t->dims[d] : s->extent[d].length;
  }
  size_t esz = tfc_dtype_size(t->dtype);
  int64_t inner = rank ? len[rank - 1] : 1;
  if (part->nelems == 0) return true;
  const char *src = part->data;
  for (int64_t row = 0; row < part->nelems / (inner ? inner : 1); row++) {
    int64_t off = 0;
    for (int d = 0; d < rank; d++) off = off * t->dims[d] + start[d] + (d == rank - 1 ? 0 : idx[d]);
    if (t->dtype == TFC_DTYPE_STRING) {
      const tfc_string *ps = (const tfc_string *)src;
      for (int64_t i = 0; i < inner; i++)
        if (!tfc_tensor_set_string(t, off + i, ps[i].data, ps[i].len, st)) return false;
    } else {
      memcpy((char *)t->data + (size_t)off * esz, src, (size_t)inner * esz);
    }
    src += (size_t)inner * esz;
    for (int d = rank - 2; d >= 0; d--) {
      if (++idx[d] < len[d]) break;
      idx[d] = 0;
    }
  }
  return true;
}

tfc_tensor *tfc_bundle_read_sliced(tfc_bundle_reader *r, const char *key, size_t klen,
                                   const tfc_bundle_entry *e, tfc_threadpool *pool, tfc_status *st) {
  tfc_tensor *t = tfc_tensor_zeros(e->dtype, e->rank, e->dims, st);
  if (!t) return NULL;
  tfc_strbuf k;
  tfc_strbuf_init(&k);
  bool ok = true;
  for (int i = 0; ok && i < e->n_slices; i++) {
    const tfc_bundle_slice *s = &e->slices[i];
    k.len = 0;
    if (!tfc_bundle_slice_key(key, klen, s, &k)) {
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
      break;
    }
    tfc_bundle_entry se;
    if (!tfc_bundle_reader_lookup(r, k.data, k.len, &se, st)) {
      tfc_status_set(st, TFC_CODE_NOT_FOUND, "Slice %d of %.*s not found in checkpoint", i,
                     (int)klen, key);
      ok = false;
      break;
    }
    bool shape_ok = se.dtype == e->dtype && se.rank == e->rank && se.n_slices == 0;
    for (int d = 0; shape_ok && d < e->rank; d++)
      shape_ok = se.dims[d] == (s->extent[d].length < 0 ? e->dims[d] : s->extent[d].length);
    if (!shape_ok) {
      ok = tfc_status_set(st, TFC_CODE_DATA_LOSS, "Slice %d of %.*s has the wrong shape or type",
                          i, (int)klen, key);
    } else {
      tfc_tensor *part = tfc_bundle_read_entry(r, k.data, k.len, &se, pool, st);
      ok = part && place_slice(t, s, part, st);
      tfc_tensor_unref(part);
    }
    tfc_bundle_entry_clear(&se);
  }
  tfc_strbuf_free(&k);
  if (!ok) {
    tfc_tensor_unref(t);
    return NULL;
  }
  return t;
}

bool tfc_bundle_parse_slice_spec(const char *spec, size_t len, int *rank, int64_t *dims,
                                 tfc_bundle_slice *slice, tfc_status *st) {
  char buf[1024];
  if (len >= sizeof buf)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Slice spec too long");
  memcpy(buf, spec, len);
  buf[len] = 0;
  /* split on spaces: all but the last token are dims */
  char *tok[TFC_MAX_RANK + 2];
  int nt = 0;
  char *save = NULL;
  for (char *p = strtok_r(buf, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
    if (nt == TFC_MAX_RANK + 1) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Slice spec has too many dimensions: %.*s", (int)len, spec);
    tok[nt++] = p;
  }
  if (nt < 2) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid slice spec: %.*s", (int)len, spec);
  *rank = nt - 1;
  for (int d = 0; d < *rank; d++) {
    char *end;
    long long v = strtoll(tok[d], &end, 10);
    if (*end || v < 0) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid slice spec: %.*s", (int)len, spec);
    dims[d] = v;
  }
  slice->rank = *rank;
  char *p = tok[nt - 1];
  for (int d = 0; d < *rank; d++) {
    char *next = strchr(p, ':');
    if (next) *next = 0;
    if (strcmp(p, "-") == 0) {
      slice->extent[d] = (tfc_bundle_extent){0, -1};
    } else {
      char *comma = strchr(p, ','), *end1, *end2;
      if (!comma) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid slice spec: %.*s", (int)len, spec);
      long long s0 = strtoll(p, &end1, 10), l0 = strtoll(comma + 1, &end2, 10);
      if (end1 != comma || *end2 || s0 < 0 || l0 < 0 || s0 > dims[d] || l0 > dims[d] - s0)
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid slice spec: %.*s", (int)len, spec);
      slice->extent[d] = (tfc_bundle_extent){s0, l0};
    }
    if (!next) {
      if (d != *rank - 1) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid slice spec: %.*s", (int)len, spec);
      break;
    }
    p = next + 1;
  }
  return true;
}

tfc_tensor *tfc_bundle_extract_slice(const tfc_tensor *t, const tfc_bundle_slice *s, tfc_status *st) {
  int rank = t->rank;
  int64_t start[TFC_MAX_RANK], len[TFC_MAX_RANK], idx[TFC_MAX_RANK] = {0};
  for (int d = 0; d < rank; d++) {
    start[d] = s->extent[d].start;
    len[d] = s->extent[d].length < 0 ? t->dims[d] : s->extent[d].length;
  }
  tfc_tensor *out = tfc_tensor_new(t->dtype, rank, len, st);
  if (!out || out->nelems == 0) return out;
  size_t esz = tfc_dtype_size(t->dtype);
  int64_t inner = rank ? len[rank - 1] : 1;
  char *dst = out->data;
  for (int64_t row = 0; row < out->nelems / inner; row++) {
    int64_t off = 0;
    for (int d = 0; d < rank; d++) off = off * t->dims[d] + start[d] + (d == rank - 1 ? 0 : idx[d]);
    if (t->dtype == TFC_DTYPE_STRING) {
      const tfc_string *ps = (const tfc_string *)t->data + off;
      for (int64_t i = 0; i < inner; i++)
        if (!tfc_tensor_set_string(out, row * inner + i, ps[i].data, ps[i].len, st)) {
          tfc_tensor_unref(out);
          return NULL;
        }
    } else {
      memcpy(dst, (const char *)t->data + (size_t)off * esz, (size_t)inner * esz);
    }
    dst += (size_t)inner * esz;
    for (int d = rank - 2; d >= 0; d--) {
      if (++idx[d] < len[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}
