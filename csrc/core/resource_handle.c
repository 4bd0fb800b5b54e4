/*
 * resource_handle.c — hand-written codec of TF's ResourceHandleProto (see
 * resource_handle.h for the fields).
 */
#include "core/resource_handle.h"

#include <stdint.h>
#include <string.h>

#include "base/alloc.h"

/* A growable byte buffer for encoding; oom latches. */
typedef struct hbuf {
  char *data;
  size_t len, cap;
  bool oom;
} hbuf;

/* Appends n bytes. */
static void put(hbuf *b, const void *p, size_t n) {
  if (b->oom || n == 0) return;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 64;
    while (cap < b->len + n) cap *= 2;
    char *d = tfc_realloc(b->data, cap);
    if (!d) {
      b->oom = true;
      return;
    }
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

/* Appends a base-128 varint. */
static void put_varint(hbuf *b, uint64_t v) {
  unsigned char tmp[10];
  size_t n = 0;
  do {
    tmp[n] = (unsigned char)(v & 0x7f);
    v >>= 7;
    if (v) tmp[n] |= 0x80;
    n++;
  } while (v);
  put(b, tmp, n);
}

/* Appends field `f` as a length-delimited string (skipped when empty). */
static void put_string(hbuf *b, int f, const char *s, size_t n) {
  if (n == 0) return;
  put_varint(b, ((uint64_t)f << 3) | 2);
  put_varint(b, n);
  put(b, s, n);
}

/* FNV-1a over container and name: a stable stand-in for TF's hash_code. */
static uint64_t handle_hash(const char *container, const char *name) {
  uint64_t h = 1469598103934665603ull;
  for (const char *p = container; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
  h = (h ^ '/') * 1099511628211ull;
  for (const char *p = name; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
  return h;
}

/* Serializes a handle; see resource_handle.h. */
bool tfc_resource_handle_encode(const char *device, const char *container, const char *name,
                                tfc_dtype dtype, const tfc_shape *shape, char **out,
                                size_t *out_len, tfc_status *st) {
  hbuf b = {0};
  device = device ? device : "";
  put_string(&b, 1, device, strlen(device));
  put_string(&b, 2, container, strlen(container));
  put_string(&b, 3, name, strlen(name));
  put_varint(&b, 4 << 3);
  put_varint(&b, handle_hash(container, name));
  put_string(&b, 5, TFC_RESOURCE_VAR_TYPE_NAME, strlen(TFC_RESOURCE_VAR_TYPE_NAME));
  if (dtype != TFC_DTYPE_INVALID) {
    hbuf shp = {0}, ds = {0};
    if (shape == NULL || shape->rank < 0) {
      put_varint(&shp, (3 << 3) | 0);  /* unknown_rank = true */
      put_varint(&shp, 1);
    } else {
      for (int i = 0; i < shape->rank; i++) {
        hbuf dim = {0};
        put_varint(&dim, 1 << 3);
        put_varint(&dim, (uint64_t)shape->dims[i]);  /* -1 as TF writes it */
        put_string(&shp, 2, dim.data ? dim.data : "", dim.len);
        shp.oom |= dim.oom;
        tfc_free(dim.data);
      }
    }
    put_varint(&ds, 1 << 3);
    put_varint(&ds, (uint64_t)dtype);
    put_varint(&ds, (2 << 3) | 2);
    put_varint(&ds, shp.len);
    put(&ds, shp.data, shp.len);
    ds.oom |= shp.oom;
    put_varint(&b, (6 << 3) | 2);
    put_varint(&b, ds.len);
    put(&b, ds.data, ds.len);
    b.oom |= ds.oom;
    tfc_free(shp.data);
    tfc_free(ds.data);
  }
  if (b.oom) {
    tfc_free(b.data);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory encoding a resource handle");
  }
  *out = b.data;
  *out_len = b.len;
  return true;
}

/* Reads a varint at *p (< end); false when truncated or longer than 10 bytes. */
static bool get_varint(const unsigned char **p, const unsigned char *end, uint64_t *v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 70 && *p < end; shift += 7) {
    unsigned char c = *(*p)++;
    r |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) {
      *v = r;
      return true;
    }
  }
  return false;
}

/* Decodes a handle; see resource_handle.h. Unknown fields are skipped. */
bool tfc_resource_handle_decode(const char *data, size_t len, tfc_resource_handle *h,
                                tfc_status *st) {
  memset(h, 0, sizeof *h);
  const unsigned char *p = (const unsigned char *)data, *end = p + len;
  while (p < end) {
    uint64_t key, v;
    if (!get_varint(&p, end, &key)) goto bad;
    switch (key & 7) {
      case 0:
        if (!get_varint(&p, end, &v)) goto bad;
        break;
      case 1:
        if (end - p < 8) goto bad;
        p += 8;
        break;
      case 5:
        if (end - p < 4) goto bad;
        p += 4;
        break;
      case 2: {
        if (!get_varint(&p, end, &v) || v > (uint64_t)(end - p)) goto bad;
        const char *s = (const char *)p;
        switch (key >> 3) {
          case 1: h->device = s; h->device_len = (size_t)v; break;
          case 2: h->container = s; h->container_len = (size_t)v; break;
          case 3: h->name = s; h->name_len = (size_t)v; break;
          case 5: h->type_name = s; h->type_name_len = (size_t)v; break;
          default: break;
        }
        p += v;
        break;
      }
      default:
        goto bad;
    }
  }
  if (!h->container) h->container = "";
  if (!h->name) h->name = "";
  if (!h->device) h->device = "";
  if (!h->type_name) h->type_name = "";
  return true;
bad:
  return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid resource handle (%zu bytes)", len);
}
