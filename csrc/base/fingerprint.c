/*
 * fingerprint.c — FarmHash Fingerprint64 (the farmhashna 64-bit hash with
 * its fixed seed handling) and TF's legacy Hash64, written from the
 * published algorithms. Pure functions of the bytes: no state, thread-safe.
 */
#include "base/fingerprint.h"

#include <string.h>

static const uint64_t K0 = 0xc3a5c85c97cb3127ull;
static const uint64_t K1 = 0xb492b66fbe98f273ull;
static const uint64_t K2 = 0x9ae16a3b2f90404full;

/* Little-endian 64-bit load from p (any alignment). */
static uint64_t load64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

/* Little-endian 32-bit load from p (any alignment). */
static uint64_t load32(const unsigned char *p) {
  return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24);
}

/* Rotates v right by s bits (0 < s < 64). */
static uint64_t rotr(uint64_t v, int s) { return (v >> s) | (v << (64 - s)); }

/* Folds the high bits down (x ^ x>>47). */
static uint64_t shift_mix(uint64_t v) { return v ^ (v >> 47); }

/* The two-word mixer of FarmHash (a Murmur-style finaliser with multiplier mul). */
static uint64_t mix16(uint64_t u, uint64_t v, uint64_t mul) {
  uint64_t a = (u ^ v) * mul;
  a ^= a >> 47;
  uint64_t b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}

/* Hash of 0..16 bytes. */
static uint64_t len0to16(const unsigned char *s, size_t n) {
  if (n >= 8) {
    uint64_t mul = K2 + n * 2;
    uint64_t a = load64(s) + K2;
    uint64_t b = load64(s + n - 8);
    uint64_t c = rotr(b, 37) * mul + a;
    uint64_t d = (rotr(a, 25) + b) * mul;
    return mix16(c, d, mul);
  }
  if (n >= 4) {
    uint64_t mul = K2 + n * 2;
    uint64_t a = load32(s);
    return mix16(n + (a << 3), load32(s + n - 4), mul);
  }
  if (n > 0) {
    uint32_t a = s[0], b = s[n >> 1], c = s[n - 1];
    uint32_t y = a + (b << 8);
    uint32_t z = (uint32_t)n + (c << 2);
    return shift_mix((uint64_t)y * K2 ^ (uint64_t)z * K0) * K2;
  }
  return K2;
}

/* Hash of 17..32 bytes. */
static uint64_t len17to32(const unsigned char *s, size_t n) {
  uint64_t mul = K2 + n * 2;
  uint64_t a = load64(s) * K1;
  uint64_t b = load64(s + 8);
  uint64_t c = load64(s + n - 8) * mul;
  uint64_t d = load64(s + n - 16) * K2;
  return mix16(rotr(a + b, 43) + rotr(c, 30) + d, a + rotr(b + K2, 18) + c, mul);
}

/* Hash of 33..64 bytes. */
static uint64_t len33to64(const unsigned char *s, size_t n) {
  uint64_t mul = K2 + n * 2;
  uint64_t a = load64(s) * K2;
  uint64_t b = load64(s + 8);
  uint64_t c = load64(s + n - 8) * mul;
  uint64_t d = load64(s + n - 16) * K2;
  uint64_t y = rotr(a + b, 43) + rotr(c, 30) + d;
  uint64_t z = mix16(y, a + rotr(b + K2, 18) + c, mul);
  uint64_t e = load64(s + 16) * mul;
  uint64_t f = load64(s + 24);
  uint64_t g = (y + load64(s + n - 32)) * mul;
  uint64_t h = (z + load64(s + n - 24)) * mul;
  return mix16(rotr(e + f, 43) + rotr(g, 30) + h, e + rotr(f + a, 18) + g, mul);
}

/* FarmHash's weak 32-byte hash of s with seeds (a, b), into out[0], out[1]. */
static void weak32(const unsigned char *s, uint64_t a, uint64_t b, uint64_t out[2]) {
  uint64_t w = load64(s), x = load64(s + 8), y = load64(s + 16), z = load64(s + 24);
  a += w;
  b = rotr(b + a + z, 21);
  uint64_t c = a;
  a += x;
  a += y;
  b += rotr(a, 44);
  out[0] = a + z;
  out[1] = b + c;
}

/* One 64-byte round of the long-input loop (mul: K1 inside the loop, the
 * final multiplier for the last block, scaled by `nine` there). */
static void round64(const unsigned char *s, uint64_t mul, uint64_t nine, uint64_t *x, uint64_t *y, uint64_t *z,
                    uint64_t v[2], uint64_t w[2]) {
  *x = rotr(*x + *y + v[0] + load64(s + 8), 37) * mul;
  *y = rotr(*y + v[1] + load64(s + 48), 42) * mul;
  *x ^= w[1] * nine;
  *y += v[0] * nine + load64(s + 40);
  *z = rotr(*z + w[0], 33) * mul;
  weak32(s, v[1] * mul, *x + w[0], v);
  weak32(s + 32, *z + w[1], *y + load64(s + 16), w);
  uint64_t t = *z;
  *z = *x;
  *x = t;
}

uint64_t tfc_fingerprint64(const void *data, size_t n) {
  const unsigned char *s = data ? data : (const unsigned char *)"";
  if (n <= 16) return len0to16(s, n);
  if (n <= 32) return len17to32(s, n);
  if (n <= 64) return len33to64(s, n);
  const uint64_t seed = 81;
  uint64_t x = seed, y = seed * K1 + 113, z = shift_mix(y * K2 + 113) * K2;
  uint64_t v[2] = {0, 0}, w[2] = {0, 0};
  x = x * K2 + load64(s);
  const unsigned char *end = s + ((n - 1) / 64) * 64;
  const unsigned char *last64 = end + ((n - 1) & 63) - 63;
  do {
    round64(s, K1, 1, &x, &y, &z, v, w);
    s += 64;
  } while (s != end);
  uint64_t mul = K1 + ((z & 0xff) << 1);
  w[0] += (n - 1) & 63;
  v[0] += w[0];
  w[0] += v[0];
  round64(last64, mul, 9, &x, &y, &z, v, w);
  return mix16(mix16(v[0], w[0], mul) + shift_mix(y) * K0 + z, mix16(v[1], w[1], mul) + x, mul);
}

uint64_t tfc_hash64(const void *data, size_t n, uint64_t seed) {
  const unsigned char *p = data ? data : (const unsigned char *)"";
  const uint64_t m = 0xc6a4a7935bd1e995ull;
  uint64_t h = seed ^ (n * m);
  while (n >= 8) {
    uint64_t k = load64(p) * m;
    k ^= k >> 47;
    h ^= k * m;
    h *= m;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    for (size_t i = n; i-- > 0;) h ^= (uint64_t)p[i] << (8 * i);
    h *= m;
  }
  h ^= h >> 47;
  h *= m;
  h ^= h >> 47;
  return h;
}

uint64_t tfc_fingerprint_cat64(uint64_t fp1, uint64_t fp2) {
  const uint64_t mul = 0xc6a4a7935bd1e995ull;
  uint64_t r = fp1 ^ mul;
  r ^= shift_mix(fp2 * mul) * mul;
  r *= mul;
  r = shift_mix(r) * mul;
  return shift_mix(r);
}
