/*
 * wire.c — protobuf wire-format helpers (see wire.h).
 */
#include "distributed/wire.h"

#include <string.h>

#include "base/alloc.h"
#include "graph/tensor_proto.h"

/* Empty buffer. */
void tfc_wbuf_init(tfc_wbuf *b) { memset(b, 0, sizeof *b); }

/* Frees the bytes. */
void tfc_wbuf_free(tfc_wbuf *b) {
  tfc_free(b->data);
  tfc_wbuf_init(b);
}

/* Hands the bytes to the caller. */
uint8_t *tfc_wbuf_take(tfc_wbuf *b, size_t *len) {
  uint8_t *p = b->data;
  *len = b->len;
  tfc_wbuf_init(b);
  return p;
}

/* Makes room for n more bytes; false (and b->oom) on OOM. */
static bool reserve(tfc_wbuf *b, size_t n) {
  if (b->oom) return false;
  if (b->len + n <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + n) cap *= 2;
  uint8_t *p = tfc_realloc(b->data, cap);
  if (!p) {
    b->oom = true;
    return false;
  }
  b->data = p;
  b->cap = cap;
  return true;
}

/* Appends raw bytes. */
void tfc_wbuf_bytes(tfc_wbuf *b, const void *p, size_t n) {
  if (!n || !reserve(b, n)) return;
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

/* Appends a varint. */
void tfc_wbuf_raw_varint(tfc_wbuf *b, uint64_t v) {
  uint8_t tmp[10];
  size_t k = 0;
  do {
    tmp[k] = (uint8_t)(v & 0x7f);
    v >>= 7;
    if (v) tmp[k] |= 0x80;
    k++;
  } while (v);
  tfc_wbuf_bytes(b, tmp, k);
}

/* Varint field (skipped when zero). */
void tfc_wbuf_varint_field(tfc_wbuf *b, unsigned number, uint64_t v) {
  if (!v) return;
  tfc_wbuf_raw_varint(b, ((uint64_t)number << 3) | 0);
  tfc_wbuf_raw_varint(b, v);
}

/* Tag + length of a length-delimited field. */
void tfc_wbuf_ld_header(tfc_wbuf *b, unsigned number, size_t n) {
  tfc_wbuf_raw_varint(b, ((uint64_t)number << 3) | 2);
  tfc_wbuf_raw_varint(b, n);
}

/* Length-delimited field. */
void tfc_wbuf_ld(tfc_wbuf *b, unsigned number, const void *p, size_t n) {
  tfc_wbuf_ld_header(b, number, n);
  tfc_wbuf_bytes(b, p, n);
}

/* String field (skipped when empty). */
void tfc_wbuf_string(tfc_wbuf *b, unsigned number, const char *s) {
  if (s && s[0]) tfc_wbuf_ld(b, number, s, strlen(s));
}

/* Reads a varint at *pos; false when truncated or longer than 10 bytes. */
static bool read_varint(const uint8_t *d, size_t len, size_t *pos, uint64_t *v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 70 && *pos < len; shift += 7) {
    uint8_t c = d[(*pos)++];
    r |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) {
      *v = r;
      return true;
    }
  }
  return false;
}

/* Iterates top-level fields (see wire.h). */
bool tfc_wire_next(const uint8_t *d, size_t len, size_t *pos, tfc_wfield *f) {
  if (*pos >= len) return false;
  uint64_t key;
  if (!read_varint(d, len, pos, &key) || (key >> 3) == 0 || (key >> 3) > 0x1fffffff) goto bad;
  f->number = (unsigned)(key >> 3);
  f->wire = (int)(key & 7);
  f->v = 0;
  f->p = NULL;
  f->n = 0;
  switch (f->wire) {
    case 0:
      if (!read_varint(d, len, pos, &f->v)) goto bad;
      return true;
    case 1:
    case 5: {
      size_t k = f->wire == 1 ? 8 : 4;
      if (len - *pos < k) goto bad;
      f->p = d + *pos;
      f->n = k;
      uint64_t v = 0;
      for (size_t i = 0; i < k; i++) v |= (uint64_t)d[*pos + i] << (8 * i);
      f->v = v;
      *pos += k;
      return true;
    }
    case 2: {
      uint64_t n;
      if (!read_varint(d, len, pos, &n) || n > len - *pos) goto bad;
      f->p = d + *pos;
      f->n = (size_t)n;
      *pos += (size_t)n;
      return true;
    }
    default:
      goto bad;
  }
bad:
  *pos = len + 1;
  return false;
}

/* First length-delimited field with that number. */
bool tfc_wire_find_ld(const uint8_t *data, size_t len, unsigned number, const uint8_t **p, size_t *n) {
  size_t pos = 0;
  tfc_wfield f;
  while (tfc_wire_next(data, len, &pos, &f)) {
    if (f.number == number && f.wire == 2) {
      *p = f.p;
      *n = f.n;
      return true;
    }
  }
  return false;
}

/* Writes a TensorShapeProto body for t's dims into b. */
static void shape_body(tfc_wbuf *b, const tfc_tensor *t) {
  for (int i = 0; i < t->rank; i++) {
    uint8_t tmp[16];
    tfc_wbuf dim;
    tfc_wbuf_init(&dim);
    dim.data = tmp;
    dim.cap = sizeof tmp; /* a dim body fits: tag + 10-byte varint */
    tfc_wbuf_varint_field(&dim, 1, (uint64_t)t->dims[i]);
    tfc_wbuf_ld(b, 2, tmp, dim.len);
  }
}

/* TensorProto header bytes up to (and including) the tensor_content length. */
static void tensor_head(tfc_wbuf *b, const tfc_tensor *t, size_t content_len) {
  tfc_wbuf_varint_field(b, 1, (uint64_t)t->dtype);
  if (t->rank > 0) {
    tfc_wbuf shp;
    tfc_wbuf_init(&shp);
    shape_body(&shp, t);
    if (shp.oom) b->oom = true;
    tfc_wbuf_ld(b, 2, shp.data, shp.len);
    tfc_wbuf_free(&shp);
  }
  tfc_wbuf_ld_header(b, 4, content_len);
}

/* TensorProto bytes with tensor_content (see wire.h). */
bool tfc_wire_tensor_proto(const tfc_tensor *t, tfc_wbuf *out, tfc_status *st) {
  if (tfc_tensor_is_local_handle(t))
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "A handle of a process-local %s resource cannot be sent to another task",
                          tfc_dtype_name(t->dtype));
  if (tfc_dtype_is_stringlike(t->dtype)) {
    void *p;
    size_t n;
    if (!tfc_tensor_to_proto_content(t, &p, &n, st)) return false;
    tfc_wbuf_bytes(out, p, n);
    tfc_free(p);
  } else {
    size_t nb = tfc_tensor_nbytes(t);
    tensor_head(out, t, nb);
    tfc_wbuf_bytes(out, t->data, nb);
  }
  if (out->oom) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory encoding a tensor");
  return true;
}

/* RecvTensorResponse head + borrowed body (see wire.h). */
bool tfc_wire_recv_tensor_response(const tfc_tensor *t, bool is_dead, tfc_wbuf *head, const void **body,
                                   size_t *body_len, tfc_status *st) {
  *body = NULL;
  *body_len = 0;
  if (tfc_tensor_is_local_handle(t))
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "A handle of a process-local %s resource cannot be sent to another task",
                          tfc_dtype_name(t->dtype));
  if (is_dead) tfc_wbuf_varint_field(head, 2, 1);
  if (tfc_dtype_is_stringlike(t->dtype)) {
    tfc_wbuf tp;
    tfc_wbuf_init(&tp);
    if (!tfc_wire_tensor_proto(t, &tp, st)) {
      tfc_wbuf_free(&tp);
      return false;
    }
    tfc_wbuf_ld(head, 1, tp.data, tp.len);
    tfc_wbuf_free(&tp);
  } else {
    size_t nb = tfc_tensor_nbytes(t);
    tfc_wbuf th;
    tfc_wbuf_init(&th);
    tensor_head(&th, t, nb);
    if (th.oom) {
      tfc_wbuf_free(&th);
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory encoding a tensor");
    }
    tfc_wbuf_ld_header(head, 1, th.len + nb);
    tfc_wbuf_bytes(head, th.data, th.len);
    tfc_wbuf_free(&th);
    *body = t->data;
    *body_len = nb;
  }
  if (head->oom) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory encoding a tensor");
  return true;
}

/* dtype + shape only (see wire.h). */
void tfc_wire_tensor_meta(const tfc_tensor *t, tfc_wbuf *out) {
  tfc_wbuf_varint_field(out, 1, (uint64_t)t->dtype);
  if (t->rank > 0) {
    tfc_wbuf shp;
    tfc_wbuf_init(&shp);
    shape_body(&shp, t);
    if (shp.oom) out->oom = true;
    tfc_wbuf_ld(out, 2, shp.data, shp.len);
    tfc_wbuf_free(&shp);
  }
}

/* Parses dtype and shape (see wire.h). */
bool tfc_wire_parse_tensor_meta(const uint8_t *p, size_t n, tfc_dtype *dtype, int *rank, int64_t *dims) {
  *dtype = TFC_DTYPE_INVALID;
  *rank = 0;
  size_t pos = 0;
  tfc_wfield f;
  while (tfc_wire_next(p, n, &pos, &f)) {
    if (f.number == 1 && f.wire == 0) {
      *dtype = (tfc_dtype)f.v;
    } else if (f.number == 2 && f.wire == 2) {
      size_t q = 0;
      tfc_wfield d;
      *rank = 0;
      while (tfc_wire_next(f.p, f.n, &q, &d)) {
        if (d.number != 2 || d.wire != 2) continue;
        if (*rank >= TFC_MAX_RANK) return false;
        int64_t size = 0;
        size_t r = 0;
        tfc_wfield e;
        while (tfc_wire_next(d.p, d.n, &r, &e))
          if (e.number == 1 && e.wire == 0) size = (int64_t)e.v;
        if (size < 0) return false;
        dims[(*rank)++] = size;
      }
      if (!tfc_wire_ok(f.n, q)) return false;
    }
  }
  return tfc_wire_ok(n, pos) && *dtype != TFC_DTYPE_INVALID;
}
