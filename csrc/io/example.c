/*
 * example.c — the wire-format reader of serialized Examples (see example.h).
 * Every read is bounds-checked against the message end; nothing allocates.
 */
#include "io/example.h"

#include <string.h>

#include "io/coding.h"

bool tfc_pb_next_field(const uint8_t **p, const uint8_t *end, uint32_t *field, int *wire,
                       const uint8_t **data, size_t *len) {
  uint64_t tag;
  if (!tfc_get_varint64(p, end, &tag) || tag > UINT32_MAX) return false;
  *field = (uint32_t)(tag >> 3);
  *wire = (int)(tag & 7);
  if (*field == 0) return false;
  const uint8_t *start = *p;
  switch (*wire) {
    case 0: {
      uint64_t v;
      if (!tfc_get_varint64(p, end, &v)) return false;
      break;
    }
    case 1:
      if (end - *p < 8) return false;
      *p += 8;
      break;
    case 5:
      if (end - *p < 4) return false;
      *p += 4;
      break;
    case 2: {
      uint64_t n;
      if (!tfc_get_varint64(p, end, &n) || n > (uint64_t)(end - *p)) return false;
      *data = *p;
      *len = (size_t)n;
      *p += n;
      return true;
    }
    default:
      return false;
  }
  *data = start;
  *len = (size_t)(*p - start);
  return true;
}

void tfc_example_iter_init(tfc_example_iter *it, const uint8_t *data, size_t n) {
  it->p = data;
  it->end = data + n;
  it->fp = it->fend = NULL;
}

bool tfc_feature_init(tfc_feature *f, const uint8_t *data, size_t n) {
  const uint8_t *p = data, *end = data + n;
  f->kind = TFC_FEATURE_NONE;
  f->begin = f->end = end;
  while (p < end) {
    const uint8_t *field_start = p;
    uint32_t field;
    int wire;
    const uint8_t *d;
    size_t len;
    if (!tfc_pb_next_field(&p, end, &field, &wire, &d, &len)) return false;
    if (field < 1 || field > 3) continue;
    if (wire != 2) return false;
    if ((int)field != (int)f->kind) {
      /* a new oneof member replaces whatever came before */
      f->kind = (tfc_feature_kind)field;
      f->begin = field_start;
    }
  }
  return true;
}

int tfc_example_iter_next(tfc_example_iter *it, const uint8_t **key, size_t *klen, tfc_feature *f) {
  for (;;) {
    while (it->fp && it->fp < it->fend) {
      uint32_t field;
      int wire;
      const uint8_t *d;
      size_t len;
      if (!tfc_pb_next_field(&it->fp, it->fend, &field, &wire, &d, &len)) return -1;
      if (field != 1) continue;
      if (wire != 2) return -1;
      /* a map entry: key = 1, value = 2 (both optional) */
      const uint8_t *q = d, *qend = d + len;
      *key = (const uint8_t *)"";
      *klen = 0;
      const uint8_t *fv = qend;
      size_t fvlen = 0;
      while (q < qend) {
        uint32_t ef;
        int ew;
        const uint8_t *ed;
        size_t el;
        if (!tfc_pb_next_field(&q, qend, &ef, &ew, &ed, &el)) return -1;
        if (ef == 1) {
          if (ew != 2) return -1;
          *key = ed;
          *klen = el;
        } else if (ef == 2) {
          if (ew != 2) return -1;
          fv = ed;
          fvlen = el;
        }
      }
      if (!tfc_feature_init(f, fv, fvlen)) return -1;
      return 1;
    }
    if (it->p >= it->end) return 0;
    uint32_t field;
    int wire;
    const uint8_t *d;
    size_t len;
    if (!tfc_pb_next_field(&it->p, it->end, &field, &wire, &d, &len)) return -1;
    if (field != 1) continue;
    if (wire != 2) return -1;
    it->fp = d;
    it->fend = d + len;
  }
}

/* Calls the list visitor for every list message of the feature's run. The
 * visitor gets the list payload; returns false to stop with failure. */
typedef bool (*list_fn)(const uint8_t *d, size_t len, void *arg);

static bool for_each_list(const tfc_feature *f, list_fn fn, void *arg) {
  const uint8_t *p = f->begin;
  while (p < f->end) {
    uint32_t field;
    int wire;
    const uint8_t *d;
    size_t len;
    if (!tfc_pb_next_field(&p, f->end, &field, &wire, &d, &len)) return false;
    if ((int)field != (int)f->kind) continue;
    if (!fn(d, len, arg)) return false;
  }
  return true;
}

/* Counts the values of one list message of the given kind into *(int64_t *)arg. */
typedef struct count_arg {
  tfc_feature_kind kind;
  int64_t n;
} count_arg;

static bool count_list(const uint8_t *d, size_t len, void *arg) {
  count_arg *c = arg;
  const uint8_t *p = d, *end = d + len;
  while (p < end) {
    uint32_t field;
    int wire;
    const uint8_t *v;
    size_t vlen;
    if (!tfc_pb_next_field(&p, end, &field, &wire, &v, &vlen)) return false;
    if (field != 1) continue;
    switch (c->kind) {
      case TFC_FEATURE_BYTES:
        if (wire != 2) return false;
        c->n++;
        break;
      case TFC_FEATURE_FLOAT:
        if (wire == 5) c->n++;
        else if (wire == 2 && vlen % 4 == 0) c->n += (int64_t)(vlen / 4);
        else return false;
        break;
      case TFC_FEATURE_INT64:
        if (wire == 0) {
          c->n++;
        } else if (wire == 2) {
          /* every varint ends with a byte below 0x80 */
          if (vlen && (v[vlen - 1] & 0x80)) return false;
          for (size_t i = 0; i < vlen; i++) c->n += v[i] < 0x80;
        } else {
          return false;
        }
        break;
      default:
        return false;
    }
  }
  return true;
}

int64_t tfc_feature_count(const tfc_feature *f) {
  if (f->kind == TFC_FEATURE_NONE) return 0;
  count_arg c = {f->kind, 0};
  if (!for_each_list(f, count_list, &c)) return -1;
  return c.n;
}

typedef struct fill_arg {
  void *out;
  int64_t n, at;
} fill_arg;

static bool fill_floats(const uint8_t *d, size_t len, void *arg) {
  fill_arg *a = arg;
  float *out = a->out;
  const uint8_t *p = d, *end = d + len;
  while (p < end) {
    uint32_t field;
    int wire;
    const uint8_t *v;
    size_t vlen;
    if (!tfc_pb_next_field(&p, end, &field, &wire, &v, &vlen)) return false;
    if (field != 1) continue;
    if (wire == 5) vlen = 4;
    else if (wire != 2 || vlen % 4) return false;
    int64_t k = (int64_t)(vlen / 4);
    if (k > a->n - a->at) return false;
    memcpy(out + a->at, v, vlen); /* little-endian floats, as the host's */
    a->at += k;
  }
  return true;
}

static bool fill_int64s(const uint8_t *d, size_t len, void *arg) {
  fill_arg *a = arg;
  int64_t *out = a->out;
  const uint8_t *p = d, *end = d + len;
  while (p < end) {
    uint32_t field;
    int wire;
    const uint8_t *v;
    size_t vlen;
    if (!tfc_pb_next_field(&p, end, &field, &wire, &v, &vlen)) return false;
    if (field != 1) continue;
    if (wire != 0 && wire != 2) return false;
    const uint8_t *q = v, *qend = v + vlen;
    while (q < qend) {
      uint64_t x;
      if (a->at >= a->n || !tfc_get_varint64(&q, qend, &x)) return false;
      out[a->at++] = (int64_t)x;
    }
  }
  return true;
}

bool tfc_feature_floats(const tfc_feature *f, float *out, int64_t n) {
  if (f->kind != TFC_FEATURE_FLOAT) return n == 0 && f->kind == TFC_FEATURE_NONE;
  fill_arg a = {out, n, 0};
  return for_each_list(f, fill_floats, &a) && a.at == n;
}

bool tfc_feature_int64s(const tfc_feature *f, int64_t *out, int64_t n) {
  if (f->kind != TFC_FEATURE_INT64) return n == 0 && f->kind == TFC_FEATURE_NONE;
  fill_arg a = {out, n, 0};
  return for_each_list(f, fill_int64s, &a) && a.at == n;
}

void tfc_bytes_iter_init(tfc_bytes_iter *it, const tfc_feature *f) {
  it->p = f->kind == TFC_FEATURE_BYTES ? f->begin : f->end;
  it->end = f->end;
  it->lp = it->lend = NULL;
}

int tfc_bytes_iter_next(tfc_bytes_iter *it, const uint8_t **data, size_t *len) {
  for (;;) {
    while (it->lp && it->lp < it->lend) {
      uint32_t field;
      int wire;
      if (!tfc_pb_next_field(&it->lp, it->lend, &field, &wire, data, len)) return -1;
      if (field != 1) continue;
      if (wire != 2) return -1;
      return 1;
    }
    if (it->p >= it->end) return 0;
    uint32_t field;
    int wire;
    const uint8_t *d;
    size_t l;
    if (!tfc_pb_next_field(&it->p, it->end, &field, &wire, &d, &l)) return -1;
    if (field != TFC_FEATURE_BYTES) continue;
    it->lp = d;
    it->lend = d + l;
  }
}
