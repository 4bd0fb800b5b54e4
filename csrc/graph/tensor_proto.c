/*
 * tensor_proto.c — TensorProto and TensorShapeProto <-> tfc tensors and
 * shapes, following TensorFlow's decoding rules (see tensor_proto.h).
 */
#include "graph/tensor_proto.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "graph/graphdef_pb.h"

/* Most bytes a decoded tensor may take (elements plus string payloads). The
 * typed fields repeat their last value to fill the shape, so a few bytes can
 * describe a tensor of any size; beyond this limit decoding fails before
 * allocating. Builds that want a tighter bound (the fuzz targets) define it. */
#ifndef TFC_TENSOR_PROTO_MAX_BYTES
#define TFC_TENSOR_PROTO_MAX_BYTES ((uint64_t)1 << 40)
#endif

/* "" for NULL-data byte strings, so protobuf-c never memcpy's from NULL. */
static const uint8_t k_empty[1] = {0};

/* Sets INVALID_ARGUMENT "Invalid TensorProto: <fmt>" and returns false. */
__attribute__((format(printf, 2, 3))) static bool bad(tfc_status *st, const char *fmt, ...) {
  char why[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid TensorProto: %s", why);
}

/* Partial shape of a TensorShapeProto; see graphdef_pb.h. */
bool tfc_shape_from_pb(const Tensorflow__TensorShapeProto *p, tfc_shape *out, tfc_status *st) {
  if (!p) {
    *out = tfc_shape_scalar();
    return true;
  }
  if (p->unknown_rank) {
    if (p->n_dim > 0)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Invalid TensorShapeProto: an unknown-rank shape has %zu dims", p->n_dim);
    *out = tfc_shape_unknown();
    return true;
  }
  if (p->n_dim > TFC_MAX_RANK)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Invalid TensorShapeProto: rank %zu exceeds the maximum of %d", p->n_dim,
                          TFC_MAX_RANK);
  tfc_shape s;
  s.rank = (int)p->n_dim;
  for (int i = 0; i < s.rank; i++) {
    int64_t d = p->dim[i] ? p->dim[i]->size : 0;
    if (d < -1)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Invalid TensorShapeProto: dimension %d has size %lld", i, (long long)d);
    s.dims[i] = d;
  }
  *out = s;
  return true;
}

/* A TensorShapeProto for s in the arena; NULL on OOM. */
Tensorflow__TensorShapeProto *tfc_shape_to_pb(const tfc_shape *s, tfc_pb_arena *arena) {
  Tensorflow__TensorShapeProto *p = tfc_pb_arena_alloc(arena, sizeof *p);
  if (!p) return NULL;
  tensorflow__tensor_shape_proto__init(p);
  if (s->rank < 0) {
    p->unknown_rank = 1;
    return p;
  }
  if (s->rank == 0) return p;
  Tensorflow__TensorShapeProto__Dim *dims = tfc_pb_arena_calloc(arena, (size_t)s->rank, sizeof *dims);
  p->dim = tfc_pb_arena_calloc(arena, (size_t)s->rank, sizeof *p->dim);
  if (!dims || !p->dim) return NULL;
  for (int i = 0; i < s->rank; i++) {
    tensorflow__tensor_shape_proto__dim__init(&dims[i]);
    dims[i].size = s->dims[i];
    p->dim[i] = &dims[i];
  }
  p->n_dim = (size_t)s->rank;
  return p;
}

/* Reads a varint at *p (< end) into *v, advancing *p; false when truncated. */
static bool read_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (*p >= end) return false;
    uint8_t b = *(*p)++;
    r |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = r;
      return true;
    }
  }
  return false;
}

/* Bytes the varint encoding of v takes. */
static size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    n++;
  }
  return n;
}

/* Decodes the string form of tensor_content (n varint lengths, then the
 * bytes) into the n elements of t. */
static bool strings_from_content(tfc_tensor *t, const ProtobufCBinaryData *c, tfc_status *st) {
  const uint8_t *p = c->data, *end = c->data + c->len;
  int64_t n = t->nelems;
  uint64_t *lens = tfc_malloc(sizeof *lens * (size_t)n);
  if (!lens) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "Out of memory decoding a TensorProto");
  bool ok = true;
  uint64_t total = 0;
  for (int64_t i = 0; i < n && ok; i++) {
    ok = read_varint(&p, end, &lens[i]) && lens[i] <= (uint64_t)(end - p);
    total += ok ? lens[i] : 0;
    if (ok && total > (uint64_t)(end - p)) ok = false;
  }
  if (!ok || total != (uint64_t)(end - p)) {
    tfc_free(lens);
    return bad(st, "string tensor_content does not hold %lld length-prefixed strings",
               (long long)n);
  }
  for (int64_t i = 0; i < n; i++) {
    if (!tfc_tensor_set_string(t, i, (const char *)p, (size_t)lens[i], st)) {
      tfc_free(lens);
      return false;
    }
    p += lens[i];
  }
  tfc_free(lens);
  return true;
}

/* False + INVALID_ARGUMENT when a bool tensor_content holds a byte other
 * than 0 or 1. */
static bool bool_content_ok(const ProtobufCBinaryData *c, tfc_status *st) {
  for (size_t i = 0; i < c->len; i++)
    if (c->data[i] > 1) return bad(st, "bool tensor_content byte %zu is %u, not 0 or 1", i, c->data[i]);
  return true;
}

/* Copies the whole tensor from a non-empty tensor_content. */
static bool from_content(tfc_tensor *t, const ProtobufCBinaryData *c, tfc_status *st) {
  if (tfc_dtype_is_stringlike(t->dtype)) return strings_from_content(t, c, st);
  size_t need = tfc_tensor_nbytes(t);
  if (c->len != need)
    return bad(st, "tensor_content holds %zu bytes but %lld %s elements need %zu", c->len,
               (long long)t->nelems, tfc_dtype_name(t->dtype), need);
  if (t->dtype == TFC_DTYPE_BOOL && !bool_content_ok(c, st)) return false;
  memcpy(t->data, c->data, need);
  return true;
}

/* Fills n elements of type CT from k source values of `src`, converting with
 * CONV; element i takes src[min(i, k - 1)]; k == 0 gives zeros. */
#define FILL_FROM(CT, src, k, CONV)                                  \
  do {                                                               \
    CT *d_ = (CT *)t->data;                                          \
    size_t k_ = (k);                                                 \
    if (k_ == 0) {                                                   \
      memset(d_, 0, (size_t)n * sizeof(CT));                         \
    } else {                                                         \
      for (int64_t i_ = 0; i_ < n; i_++) {                           \
        size_t j_ = (uint64_t)i_ < k_ ? (size_t)i_ : k_ - 1;         \
        d_[i_] = (CT)CONV((src)[j_]);                                \
      }                                                              \
    }                                                                \
  } while (0)

/* Same for complex types: pairs of source values per element. */
#define FILL_PAIRS(CT, src, k)                                       \
  do {                                                               \
    CT *d_ = (CT *)t->data;                                          \
    size_t k_ = (k) / 2;                                             \
    if (k_ == 0) {                                                   \
      memset(d_, 0, (size_t)n * 2 * sizeof(CT));                     \
    } else {                                                         \
      for (int64_t i_ = 0; i_ < n; i_++) {                           \
        size_t j_ = (uint64_t)i_ < k_ ? (size_t)i_ : k_ - 1;         \
        d_[2 * i_] = (src)[2 * j_];                                  \
        d_[2 * i_ + 1] = (src)[2 * j_ + 1];                          \
      }                                                              \
    }                                                                \
  } while (0)

#define AS_IS(x) (x)
#define AS_BOOL(x) ((x) ? 1 : 0)

/* Fills t from the typed field of its dtype (TF's repeat-last rule). */
static bool from_typed(tfc_tensor *t, const Tensorflow__TensorProto *p, tfc_status *st) {
  int64_t n = t->nelems;
  switch (t->dtype) {
    case TFC_DTYPE_FLOAT: FILL_FROM(float, p->float_val, p->n_float_val, AS_IS); break;
    case TFC_DTYPE_DOUBLE: FILL_FROM(double, p->double_val, p->n_double_val, AS_IS); break;
    case TFC_DTYPE_INT32:
    case TFC_DTYPE_QINT32: FILL_FROM(int32_t, p->int_val, p->n_int_val, AS_IS); break;
    case TFC_DTYPE_INT16:
    case TFC_DTYPE_QINT16: FILL_FROM(int16_t, p->int_val, p->n_int_val, AS_IS); break;
    case TFC_DTYPE_INT8:
    case TFC_DTYPE_QINT8: FILL_FROM(int8_t, p->int_val, p->n_int_val, AS_IS); break;
    case TFC_DTYPE_UINT8:
    case TFC_DTYPE_QUINT8: FILL_FROM(uint8_t, p->int_val, p->n_int_val, AS_IS); break;
    case TFC_DTYPE_UINT16:
    case TFC_DTYPE_QUINT16: FILL_FROM(uint16_t, p->int_val, p->n_int_val, AS_IS); break;
    case TFC_DTYPE_HALF:
    case TFC_DTYPE_BFLOAT16: FILL_FROM(uint16_t, p->half_val, p->n_half_val, AS_IS); break;
    case TFC_DTYPE_INT64: FILL_FROM(int64_t, p->int64_val, p->n_int64_val, AS_IS); break;
    case TFC_DTYPE_UINT32: FILL_FROM(uint32_t, p->uint32_val, p->n_uint32_val, AS_IS); break;
    case TFC_DTYPE_UINT64: FILL_FROM(uint64_t, p->uint64_val, p->n_uint64_val, AS_IS); break;
    case TFC_DTYPE_BOOL: FILL_FROM(uint8_t, p->bool_val, p->n_bool_val, AS_BOOL); break;
    case TFC_DTYPE_COMPLEX64: FILL_PAIRS(float, p->scomplex_val, p->n_scomplex_val); break;
    case TFC_DTYPE_COMPLEX128: FILL_PAIRS(double, p->dcomplex_val, p->n_dcomplex_val); break;
    case TFC_DTYPE_STRING: {
      size_t k = p->n_string_val;
      for (int64_t i = 0; i < n && k > 0; i++) {
        const ProtobufCBinaryData *s = &p->string_val[(uint64_t)i < k ? (size_t)i : k - 1];
        if (!tfc_tensor_set_string(t, i, (const char *)s->data, s->len, st)) return false;
      }
      break;
    }
    case TFC_DTYPE_RESOURCE: {
      /* each handle is kept as its serialized ResourceHandleProto */
      size_t k = p->n_resource_handle_val;
      for (int64_t i = 0; i < n && k > 0; i++) {
        const Tensorflow__ResourceHandleProto *h = p->resource_handle_val[(uint64_t)i < k ? (size_t)i : k - 1];
        size_t len = protobuf_c_message_get_packed_size(&h->base);
        uint8_t *buf = len ? tfc_malloc(len) : NULL;
        if (len && !buf) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
        if (len) protobuf_c_message_pack(&h->base, buf);
        bool ok = tfc_tensor_set_string(t, i, (const char *)buf, len, st);
        tfc_free(buf);
        if (!ok) return false;
      }
      break;
    }
    default:
      return bad(st, "unsupported dtype %s", tfc_dtype_name(t->dtype));
  }
  return true;
}

/* Bytes the decoded tensor of n elements of p's dtype will take: the
 * elements, plus for strings the bytes every element copies (the lengths
 * framing tensor_content, or string_val with its last value repeated), so
 * both encodings of a tensor count the same. false when the sum overflows
 * 64 bits. */
static bool decoded_bytes(const Tensorflow__TensorProto *p, int64_t n, uint64_t *out) {
  uint64_t total;
  if (__builtin_mul_overflow((uint64_t)n, (uint64_t)tfc_dtype_size((tfc_dtype)p->dtype), &total))
    return false;
  if (tfc_dtype_is_stringlike((tfc_dtype)p->dtype) && n > 0) {
    if (p->tensor_content.len > 0) {
      /* the lengths in front of the bytes; a broken framing fails later */
      const uint8_t *q = p->tensor_content.data, *end = q + p->tensor_content.len;
      uint64_t l;
      for (int64_t i = 0; i < n && read_varint(&q, end, &l); i++)
        if (__builtin_add_overflow(total, l, &total)) return false;
    } else if (p->n_string_val > 0) {
      size_t k = p->n_string_val, used = (uint64_t)n < k ? (size_t)n : k;
      for (size_t i = 0; i < used; i++)
        if (__builtin_add_overflow(total, (uint64_t)p->string_val[i].len, &total)) return false;
      uint64_t extra;
      if (__builtin_mul_overflow((uint64_t)n - used, (uint64_t)p->string_val[k - 1].len, &extra) ||
          __builtin_add_overflow(total, extra, &total))
        return false;
    }
  }
  *out = total;
  return true;
}

/* Decodes p. `take`, when non-NULL, is p's own tensor_content, which the
 * tensor adopts instead of copying when it lies in a block made for that
 * (tfc_pb_bytes_block; never for strings); the field is then left empty. */
static tfc_tensor *decode(const Tensorflow__TensorProto *p, ProtobufCBinaryData *take,
                          tfc_status *st) {
  int dt = (int)p->dtype;
  if (dt <= 0 || dt >= TFC_DTYPE_NUM || !tfc_dtype_is_supported((tfc_dtype)dt)) {
    bad(st, "unsupported dtype %d", dt);
    return NULL;
  }
  tfc_shape s;
  if (!tfc_shape_from_pb(p->tensor_shape, &s, st)) return NULL;
  if (!tfc_shape_is_fully_defined(&s)) {
    char buf[128];
    tfc_shape_to_string(&s, buf, (int)sizeof buf);
    bad(st, "shape %s is not fully defined", buf);
    return NULL;
  }
  /* Check tensor_content against the shape before allocating, so a corrupt
   * shape cannot make a huge allocation that the bytes could never fill. */
  int64_t n = 1;
  for (int i = 0; i < s.rank; i++)
    if (__builtin_mul_overflow(n, s.dims[i], &n)) {
      bad(st, "shape overflows");
      return NULL;
    }
  size_t clen = p->tensor_content.len;
  if (clen > 0) {
    bool fits = tfc_dtype_is_stringlike((tfc_dtype)dt)
                    ? (uint64_t)n <= clen
                    : (uint64_t)n <= clen / tfc_dtype_size((tfc_dtype)dt) &&
                          (size_t)n * tfc_dtype_size((tfc_dtype)dt) == clen;
    if (!fits) {
      bad(st, "tensor_content holds %zu bytes, which cannot encode %lld %s elements", clen,
          (long long)n, tfc_dtype_name((tfc_dtype)dt));
      return NULL;
    }
  }
  uint64_t bytes;
  if (!decoded_bytes(p, n, &bytes) || bytes > TFC_TENSOR_PROTO_MAX_BYTES) {
    char buf[128];
    tfc_shape_to_string(&s, buf, (int)sizeof buf);
    bad(st, "a %s tensor of shape %s exceeds the limit of %llu bytes", tfc_dtype_name((tfc_dtype)dt),
        buf, (unsigned long long)TFC_TENSOR_PROTO_MAX_BYTES);
    return NULL;
  }
  void *block = take && !tfc_dtype_is_stringlike((tfc_dtype)dt) && clen > 0 ? tfc_pb_bytes_block(take) : NULL;
  if (block) {  /* clen == n * dtype size > 0, checked above */
    if (dt == TFC_DTYPE_BOOL && !bool_content_ok(take, st)) return NULL;
    tfc_tensor *t = tfc_tensor_adopt((tfc_dtype)dt, s.rank, s.dims, block, st);
    if (t) {
      take->data = NULL;
      take->len = 0;
    }
    return t;
  }
  tfc_tensor *t = tfc_tensor_new((tfc_dtype)dt, s.rank, s.dims, st);
  if (!t) return NULL;
  if (t->nelems == 0) return t;
  bool ok = p->tensor_content.len > 0 ? from_content(t, &p->tensor_content, st)
                                      : from_typed(t, p, st);
  if (!ok) {
    tfc_tensor_unref(t);
    return NULL;
  }
  return t;
}

/* Decodes a TensorProto message, copying its values; see graphdef_pb.h. */
tfc_tensor *tfc_tensor_from_pb(const Tensorflow__TensorProto *p, tfc_status *st) {
  return decode(p, NULL, st);
}

/* Decodes an unpacked TensorProto, adopting a large tensor_content; see
 * graphdef_pb.h. */
tfc_tensor *tfc_tensor_from_pb_take(Tensorflow__TensorProto *p, tfc_status *st) {
  return decode(p, &p->tensor_content, st);
}

/* Writes the single element of t (n == 1) into its typed field. */
static bool typed_scalar(const tfc_tensor *t, tfc_pb_arena *a, Tensorflow__TensorProto *p) {
  const void *v = t->data;
  switch (t->dtype) {
    case TFC_DTYPE_FLOAT:
      if (!(p->float_val = tfc_pb_arena_alloc(a, sizeof(float)))) return false;
      p->float_val[0] = *(const float *)v;
      p->n_float_val = 1;
      return true;
    case TFC_DTYPE_DOUBLE:
      if (!(p->double_val = tfc_pb_arena_alloc(a, sizeof(double)))) return false;
      p->double_val[0] = *(const double *)v;
      p->n_double_val = 1;
      return true;
    case TFC_DTYPE_INT64:
      if (!(p->int64_val = tfc_pb_arena_alloc(a, sizeof(int64_t)))) return false;
      p->int64_val[0] = *(const int64_t *)v;
      p->n_int64_val = 1;
      return true;
    case TFC_DTYPE_UINT32:
      if (!(p->uint32_val = tfc_pb_arena_alloc(a, sizeof(uint32_t)))) return false;
      p->uint32_val[0] = *(const uint32_t *)v;
      p->n_uint32_val = 1;
      return true;
    case TFC_DTYPE_UINT64:
      if (!(p->uint64_val = tfc_pb_arena_alloc(a, sizeof(uint64_t)))) return false;
      p->uint64_val[0] = *(const uint64_t *)v;
      p->n_uint64_val = 1;
      return true;
    case TFC_DTYPE_BOOL:
      if (!(p->bool_val = tfc_pb_arena_alloc(a, sizeof(protobuf_c_boolean)))) return false;
      p->bool_val[0] = *(const uint8_t *)v ? 1 : 0;
      p->n_bool_val = 1;
      return true;
    case TFC_DTYPE_HALF:
    case TFC_DTYPE_BFLOAT16:
      if (!(p->half_val = tfc_pb_arena_alloc(a, sizeof(int32_t)))) return false;
      p->half_val[0] = *(const uint16_t *)v;
      p->n_half_val = 1;
      return true;
    case TFC_DTYPE_COMPLEX64:
      if (!(p->scomplex_val = tfc_pb_arena_alloc(a, 2 * sizeof(float)))) return false;
      memcpy(p->scomplex_val, v, 2 * sizeof(float));
      p->n_scomplex_val = 2;
      return true;
    case TFC_DTYPE_COMPLEX128:
      if (!(p->dcomplex_val = tfc_pb_arena_alloc(a, 2 * sizeof(double)))) return false;
      memcpy(p->dcomplex_val, v, 2 * sizeof(double));
      p->n_dcomplex_val = 2;
      return true;
    default:  /* the int_val family */
      if (!(p->int_val = tfc_pb_arena_alloc(a, sizeof(int32_t)))) return false;
      p->int_val[0] = (int32_t)tfc_tensor_get_int64(t, 0);
      p->n_int_val = 1;
      return true;
  }
}

/* string_val entries borrowing t's strings. */
static bool strings_to_vals(const tfc_tensor *t, tfc_pb_arena *a, Tensorflow__TensorProto *p) {
  const tfc_string *s = t->data;
  p->string_val = tfc_pb_arena_calloc(a, (size_t)t->nelems, sizeof *p->string_val);
  if (!p->string_val) return false;
  for (int64_t i = 0; i < t->nelems; i++) {
    p->string_val[i].len = s[i].len;
    p->string_val[i].data = s[i].len ? (uint8_t *)s[i].data : (uint8_t *)k_empty;
  }
  p->n_string_val = (size_t)t->nelems;
  return true;
}

/* tensor_content in the string framing (varint lengths, then bytes). */
static bool strings_to_content(const tfc_tensor *t, tfc_pb_arena *a, Tensorflow__TensorProto *p) {
  const tfc_string *s = t->data;
  size_t total = 0;
  for (int64_t i = 0; i < t->nelems; i++) {
    size_t add = varint_size(s[i].len) + s[i].len;
    if (add > SIZE_MAX - total) return false;
    total += add;
  }
  uint8_t *out = tfc_pb_arena_alloc(a, total);
  if (!out) return false;
  size_t w = 0;
  for (int64_t i = 0; i < t->nelems; i++) {
    uint64_t v = s[i].len;
    while (v >= 0x80) {
      out[w++] = (uint8_t)(v | 0x80);
      v >>= 7;
    }
    out[w++] = (uint8_t)v;
  }
  for (int64_t i = 0; i < t->nelems; i++) {
    if (s[i].len) memcpy(out + w, s[i].data, s[i].len);
    w += s[i].len;
  }
  p->tensor_content.data = out;
  p->tensor_content.len = total;
  return true;
}

/* Fills *p from t; see graphdef_pb.h. */
bool tfc_tensor_to_pb(const tfc_tensor *t, tfc_tensor_pb_layout layout, tfc_pb_arena *arena,
                      Tensorflow__TensorProto *p, tfc_status *st) {
  tensorflow__tensor_proto__init(p);
  p->dtype = (Tensorflow__DataType)t->dtype;
  tfc_shape s = tfc_tensor_shape(t);
  p->tensor_shape = tfc_shape_to_pb(&s, arena);
  bool ok = p->tensor_shape != NULL;
  if (ok && t->nelems > 0) {
    if (t->dtype == TFC_DTYPE_RESOURCE) {
      ok = strings_to_content(t, arena, p);  /* TF's framing of serialized handles */
    } else if (t->dtype == TFC_DTYPE_STRING) {
      ok = layout == TFC_TENSOR_PB_CONTENT ? strings_to_content(t, arena, p)
                                           : strings_to_vals(t, arena, p);
    } else if (layout == TFC_TENSOR_PB_CONTENT || t->nelems > 1) {
      p->tensor_content.data = (uint8_t *)t->data;  /* borrowed; never written through */
      p->tensor_content.len = tfc_tensor_nbytes(t);
    } else {
      ok = typed_scalar(t, arena, p);
    }
  }
  if (!ok) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "Out of memory encoding a TensorProto");
  return true;
}

/* Decodes serialized TensorProto bytes; see tensor_proto.h. */
tfc_tensor *tfc_tensor_from_proto(const void *data, size_t len, tfc_status *st) {
  ProtobufCMessage *m = tfc_pb_unpack(&tensorflow__tensor_proto__descriptor, data, len,
                                      "TensorProto", st);
  if (!m) return NULL;
  tfc_tensor *t = tfc_tensor_from_pb_take((Tensorflow__TensorProto *)m, st);
  protobuf_c_message_free_unpacked(m, &tfc_pb_allocator);
  return t;
}

/* Encodes t with the given layout into new bytes. */
static bool encode(const tfc_tensor *t, tfc_tensor_pb_layout layout, void **data, size_t *len,
                   tfc_status *st) {
  if (tfc_tensor_is_local_handle(t))
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "A handle of a process-local %s resource (queue, reader, dataset, iterator, stack "
                          "or tensor array) cannot be serialized",
                          tfc_dtype_name(t->dtype));
  tfc_pb_arena arena;
  tfc_pb_arena_init(&arena);
  Tensorflow__TensorProto p;
  bool ok = tfc_tensor_to_pb(t, layout, &arena, &p, st) &&
            tfc_pb_pack(&p.base, NULL, 0, data, len, st);
  tfc_pb_arena_free(&arena);
  return ok;
}

/* make_tensor_proto layout; see tensor_proto.h. */
bool tfc_tensor_to_proto(const tfc_tensor *t, void **data, size_t *len, tfc_status *st) {
  return encode(t, TFC_TENSOR_PB_COMPACT, data, len, st);
}

/* AsProtoTensorContent layout; see tensor_proto.h. */
bool tfc_tensor_to_proto_content(const tfc_tensor *t, void **data, size_t *len, tfc_status *st) {
  return encode(t, TFC_TENSOR_PB_CONTENT, data, len, st);
}
