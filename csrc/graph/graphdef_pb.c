/*
 * graphdef_pb.c — the protobuf-c code generated from proto/<name>.proto, compiled
 * here as one translation unit, and the glue the codec files share: the
 * allocator funnel, depth-checked unpacking, packing and a build arena.
 *
 * The build generates build/gen/<name>.pb-c.{c,h} for every proto/<name>.proto
 * and build/gen/tfc_protos.inc, which includes every generated .c file.
 * Generated initialisers of oneof messages trip -Wmissing-braces, so that
 * warning (only) is silenced for the generated code.
 */
#include "graph/graphdef_pb.h"

#include <stdint.h>
#include <string.h>

#include "base/alloc.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-braces"
#include "tfc_protos.inc"
#pragma GCC diagnostic pop

/* Every block protobuf-c gets carries a tag just in front of the pointer it
 * sees, so the free hook knows how the block was made. Small blocks come from
 * tfc_malloc with PB_SMALL_HEADER bytes in front; blocks of PB_BLOCK_MIN
 * bytes and more come from tfc_aligned_alloc(TFC_ALIGN + size) with the
 * pointer TFC_ALIGN bytes in (64-byte aligned): the layout a tensor can adopt
 * (tfc_tensor_adopt), which is what lets a large tensor_content become a
 * tensor's buffer without a copy. */
#define PB_SMALL_HEADER ((size_t)16)
#define PB_BLOCK_MIN ((size_t)4096)
#define PB_TAG_SMALL ((uint64_t)0x7466632d706253ull)
#define PB_TAG_BLOCK ((uint64_t)0x7466632d706242ull)

_Static_assert(PB_SMALL_HEADER % _Alignof(max_align_t) == 0 && PB_SMALL_HEADER >= sizeof(uint64_t),
               "the small-block header keeps protobuf-c's pointers aligned for any type");

/* Reads the tag in front of a pointer from pb_alloc. */
static uint64_t pb_tag(const void *p) {
  uint64_t tag;
  memcpy(&tag, (const char *)p - sizeof tag, sizeof tag);
  return tag;
}

/* protobuf-c allocation hook: a tagged block (see above); NULL on failure
 * (protobuf-c's signal). ctx, when non-NULL, is a bool set to true once an
 * allocation failed. */
static void *pb_alloc(void *ctx, size_t size) {
  char *p = NULL;
  uint64_t tag;
  if (size >= PB_BLOCK_MIN) {
    char *b = size <= SIZE_MAX - TFC_ALIGN ? tfc_aligned_alloc(TFC_ALIGN + size) : NULL;
    p = b ? b + TFC_ALIGN : NULL;
    tag = PB_TAG_BLOCK;
  } else {
    char *b = tfc_malloc(PB_SMALL_HEADER + size);
    p = b ? b + PB_SMALL_HEADER : NULL;
    tag = PB_TAG_SMALL;
  }
  if (!p) {
    if (ctx) *(bool *)ctx = true;
    return NULL;
  }
  memcpy(p - sizeof tag, &tag, sizeof tag);
  return p;
}

/* protobuf-c free hook: frees a block from pb_alloc the way it was made. */
static void pb_free(void *ctx, void *p) {
  (void)ctx;
  if (!p) return;
  if (pb_tag(p) == PB_TAG_BLOCK)
    tfc_aligned_free((char *)p - TFC_ALIGN);
  else
    tfc_free((char *)p - PB_SMALL_HEADER);
}

/* The adoptable block under a bytes field; see graphdef_pb.h. */
void *tfc_pb_bytes_block(const ProtobufCBinaryData *b) {
  if (!b->data || b->len < PB_BLOCK_MIN || pb_tag(b->data) != PB_TAG_BLOCK) return NULL;
  return b->data - TFC_ALIGN;
}

ProtobufCAllocator tfc_pb_allocator = {pb_alloc, pb_free, NULL};

/* Reads a varint at *p (< end) into *v, advancing *p. false when truncated
 * or longer than 10 bytes. */
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

/* Walks `len` bytes of wire format as message `desc`, descending into
 * sub-message fields; false when the framing is broken, nesting exceeds
 * TFC_PB_MAX_DEPTH or a string field holds a NUL byte. Recursion depth is
 * bounded by that limit. */
static bool wire_ok(const ProtobufCMessageDescriptor *desc, const uint8_t *p, size_t len,
                    int depth) {
  if (depth > TFC_PB_MAX_DEPTH) return false;
  const uint8_t *end = p + len;
  while (p < end) {
    uint64_t tag, n;
    if (!read_varint(&p, end, &tag)) return false;
    switch (tag & 7) {
      case 0:
        if (!read_varint(&p, end, &n)) return false;
        break;
      case 1:
        if ((size_t)(end - p) < 8) return false;
        p += 8;
        break;
      case 5:
        if ((size_t)(end - p) < 4) return false;
        p += 4;
        break;
      case 2: {
        if (!read_varint(&p, end, &n) || n > (uint64_t)(end - p)) return false;
        const ProtobufCFieldDescriptor *f =
            (tag >> 3) <= UINT32_MAX ? protobuf_c_message_descriptor_get_field(desc, (unsigned)(tag >> 3))
                                     : NULL;
        if (f && f->type == PROTOBUF_C_TYPE_MESSAGE &&
            !wire_ok((const ProtobufCMessageDescriptor *)f->descriptor, p, (size_t)n, depth + 1))
          return false;
        /* protobuf-c hands `string` fields over NUL-terminated: one holding
         * a NUL byte would silently lose its tail ("a\0b" read as "a"). */
        if (f && f->type == PROTOBUF_C_TYPE_STRING && n > 0 && memchr(p, 0, (size_t)n))
          return false;
        p += n;
        break;
      }
      default:  /* groups (3, 4) and invalid wire types */
        return false;
    }
  }
  return true;
}

/* Depth-checked unpack through the tfc allocator; see graphdef_pb.h. */
ProtobufCMessage *tfc_pb_unpack(const ProtobufCMessageDescriptor *desc, const void *data,
                                size_t len, const char *what, tfc_status *st) {
  if (len > 0 && !data) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid %s: no data", what);
    return NULL;
  }
  const uint8_t *bytes = len ? data : (const uint8_t *)"";
  if (!wire_ok(desc, bytes, len, 0)) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                   "Invalid %s: the data is not a valid serialized %s (corrupt, truncated, "
                   "nested too deeply or a string with a NUL byte)", what, desc->name);
    return NULL;
  }
  bool oom = false;
  ProtobufCAllocator al = {pb_alloc, pb_free, &oom};
  ProtobufCMessage *m = protobuf_c_message_unpack(desc, &al, len, bytes);
  if (!m && oom)
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "Out of memory decoding %s", what);
  else if (!m)
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid %s: the data is not a valid serialized %s",
                   what, desc->name);
  return m;
}

/* Appends the varint encoding of v at p; returns the bytes written. */
static size_t put_varint(uint8_t *p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}

/* Packs m followed by the extra length-delimited fields into a new buffer;
 * see graphdef_pb.h. */
bool tfc_pb_pack(const ProtobufCMessage *m, const tfc_pb_field *extra, int n_extra, void **data,
                 size_t *len, tfc_status *st) {
  size_t total = protobuf_c_message_get_packed_size(m);
  for (int i = 0; i < n_extra; i++) {
    if (extra[i].len > SIZE_MAX - total - 21)
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "Serialized message too large");
    total += extra[i].len + 20;
  }
  uint8_t *buf = tfc_malloc(total + 1);
  if (!buf) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "Out of memory serializing %s",
                                  m->descriptor->name);
  size_t w = protobuf_c_message_pack(m, buf);
  for (int i = 0; i < n_extra; i++) {
    w += put_varint(buf + w, ((uint64_t)extra[i].number << 3) | 2u);
    w += put_varint(buf + w, extra[i].len);
    if (extra[i].len) memcpy(buf + w, extra[i].data, extra[i].len);
    w += extra[i].len;
  }
  *data = buf;
  *len = w;
  return true;
}

/* ---------------------------------------------------------------- arena */

struct tfc_pb_block {
  struct tfc_pb_block *next;
  max_align_t align[];  /* data follows, suitably aligned */
};

#define ARENA_BLOCK (64 * 1024)

/* Empty arena. */
void tfc_pb_arena_init(tfc_pb_arena *a) {
  a->head = NULL;
  a->used = 0;
  a->cap = 0;
}

/* Bump-allocates n zeroed bytes, opening a new block when the current one is
 * full (a request larger than a block gets a block of its own). */
void *tfc_pb_arena_alloc(tfc_pb_arena *a, size_t n) {
  const size_t al = _Alignof(max_align_t);
  if (n > SIZE_MAX - 2 * al - sizeof(struct tfc_pb_block)) return NULL;
  size_t need = (n + al - 1) / al * al;
  if (need == 0) need = al;
  if (!a->head || a->cap - a->used < need) {
    size_t cap = need > ARENA_BLOCK ? need : ARENA_BLOCK;
    struct tfc_pb_block *b = tfc_malloc(sizeof *b + cap);
    if (!b) return NULL;
    b->next = a->head;
    a->head = b;
    a->used = 0;
    a->cap = cap;
  }
  char *p = (char *)a->head->align + a->used;
  a->used += need;
  memset(p, 0, n);
  return p;
}

/* n * size zeroed bytes with an overflow check. */
void *tfc_pb_arena_calloc(tfc_pb_arena *a, size_t n, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow(n, size, &bytes)) return NULL;
  return tfc_pb_arena_alloc(a, bytes);
}

/* NUL-terminated copy of (s, len) in the arena. */
char *tfc_pb_arena_strndup(tfc_pb_arena *a, const char *s, size_t len) {
  char *d = tfc_pb_arena_alloc(a, len + 1);
  if (d && len) memcpy(d, s, len);
  return d;
}

/* Frees every block and leaves the arena empty. */
void tfc_pb_arena_free(tfc_pb_arena *a) {
  struct tfc_pb_block *b = a->head;
  while (b) {
    struct tfc_pb_block *next = b->next;
    tfc_free(b);
    b = next;
  }
  tfc_pb_arena_init(a);
}
