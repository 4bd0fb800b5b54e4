/*
 * coding.h — little-endian fixed-width and varint encodings shared by the
 * table and bundle files (LevelDB's coding, as TF's tables use it). Decoders
 * are bounds-checked: they never read past `end`.
 */
#ifndef TFC_IO_CODING_H
#define TFC_IO_CODING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Writes v as 4 little-endian bytes at p. */
static inline void tfc_put_fixed32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

/* Reads 4 little-endian bytes at p. */
static inline uint32_t tfc_get_fixed32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* Writes v as a varint at p (at most 10 bytes); returns the byte count. */
static inline size_t tfc_put_varint64(uint8_t *p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}

/* Decodes a varint of at most 64 bits from [*p, end); advances *p. false when
 * it is truncated or longer than 10 bytes. */
static inline bool tfc_get_varint64(const uint8_t **p, const uint8_t *end, uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift <= 63 && *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

/* A varint that must fit in 32 bits. */
static inline bool tfc_get_varint32(const uint8_t **p, const uint8_t *end, uint32_t *out) {
  uint64_t v;
  if (!tfc_get_varint64(p, end, &v) || v > UINT32_MAX) return false;
  *out = (uint32_t)v;
  return true;
}

#endif
