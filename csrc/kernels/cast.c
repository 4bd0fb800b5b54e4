/*
 * cast.c — dtype conversion loops: half/bfloat16 <-> float arrays (F16C when
 * available) and the src × dst matrix behind the Cast kernel.
 *
 * Float -> integer conversion truncates toward zero like C, and out-of-range
 * or NaN inputs give what TF's CPU build gives (the x86 "integer indefinite"
 * value through a 32- or 64-bit conversion), computed without undefined
 * behaviour: to 8/16/32-bit types through int32, to uint32 through int64.
 * Bool is 0/1 both ways (nonzero, NaN included, is true).
 */
#include <stdint.h>
#include <string.h>

#if defined(__F16C__)
#include <immintrin.h>
#endif

#include "kernels/elementwise_internal.h"

/* ---------------------------------------------------------------- half / bfloat16 arrays */

/* half bits -> float, n elements. */
void tfc_ew_half_to_float(const uint16_t *in, float *out, int64_t n) {
  int64_t i = 0;
#if defined(__F16C__)
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(in + i))));
#endif
  for (; i < n; i++) out[i] = tfc_half_to_float(in[i]);
}

/* float -> half bits (round to nearest even), n elements. */
void tfc_ew_float_to_half(const float *in, uint16_t *out, int64_t n) {
  int64_t i = 0;
#if defined(__F16C__)
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128((__m128i *)(out + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT));
#endif
  for (; i < n; i++) out[i] = tfc_float_to_half(in[i]);
}

typedef union fbits {
  float f;
  uint32_t u;
} fbits;

/* bfloat16 bits -> float (exact), n elements. */
void tfc_ew_bf16_to_float(const uint16_t *in, float *out, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    fbits b = {.u = (uint32_t)in[i] << 16};
    out[i] = b.f;
  }
}

/* float -> bfloat16 bits, round to nearest even, NaN kept quiet; n elements. */
void tfc_ew_float_to_bf16(const float *in, uint16_t *out, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    fbits b = {.f = in[i]};
    uint32_t x = b.u;
    uint32_t r = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
    out[i] = (uint16_t)((x & 0x7fffffffu) > 0x7f800000u ? (x >> 16) | 0x40u : r);
  }
}

/* Widens half (t == HALF) or bfloat16 data to float. */
void tfc_ew_widen(tfc_dtype t, const void *in, float *out, int64_t n) {
  if (t == TFC_DTYPE_HALF) tfc_ew_half_to_float(in, out, n);
  else tfc_ew_bf16_to_float(in, out, n);
}

/* Narrows float data to half (t == HALF) or bfloat16. */
void tfc_ew_narrow(tfc_dtype t, const float *in, void *out, int64_t n) {
  if (t == TFC_DTYPE_HALF) tfc_ew_float_to_half(in, out, n);
  else tfc_ew_float_to_bf16(in, out, n);
}

/* ---------------------------------------------------------------- scalar conversions */

/* Float -> int32 like x86 cvtt*: truncation, INT32_MIN when out of range or NaN. */
static inline int32_t f32_to_i32(float x) {
  return (x >= -2147483648.0f && x < 2147483648.0f) ? (int32_t)x : INT32_MIN;
}
/* Double -> int32, same rule. */
static inline int32_t f64_to_i32(double x) {
  return (x > -2147483649.0 && x < 2147483648.0) ? (int32_t)x : INT32_MIN;
}
/* Integer -> int32: keeps the low 32 bits (two's complement wrap). */
static inline int32_t int_to_i32(int64_t x) { return (int32_t)x; }
/* Float -> int64: truncation, INT64_MIN when out of range or NaN. */
static inline int64_t f32_to_i64(float x) {
  return (x >= -0x1p63f && x < 0x1p63f) ? (int64_t)x : INT64_MIN;
}
/* Double -> int64, same rule. */
static inline int64_t f64_to_i64(double x) {
  return (x >= -0x1p63 && x < 0x1p63) ? (int64_t)x : INT64_MIN;
}
/* Integer -> int64 (uint64 wraps). */
static inline int64_t int_to_i64(int64_t x) { return x; }
/* Float -> uint64 as compiled x86 code does: negative values wrap like
 * int64 -> uint64, values in [2^63, 2^64) go through x - 2^63, and values of
 * 2^64 and above or NaN give 2^63. */
static inline uint64_t f32_to_u64(float x) {
  int64_t a = f32_to_i64(x), b = f32_to_i64(x - 0x1p63f);
  return (uint64_t)a | ((uint64_t)b & (a < 0 ? ~(uint64_t)0 : 0));
}
/* Double -> uint64, same rule as f32_to_u64. */
static inline uint64_t f64_to_u64(double x) {
  int64_t a = f64_to_i64(x), b = f64_to_i64(x - 0x1p63);
  return (uint64_t)a | ((uint64_t)b & (a < 0 ? ~(uint64_t)0 : 0));
}
/* Integer -> uint64 (negative values wrap). */
static inline uint64_t int_to_u64(int64_t x) { return (uint64_t)x; }

#define TO_I32(v) _Generic((v), float: f32_to_i32, double: f64_to_i32, default: int_to_i32)(v)
#define TO_I64(v) _Generic((v), float: f32_to_i64, double: f64_to_i64, default: int_to_i64)(v)
#define TO_U64(v) _Generic((v), float: f32_to_u64, double: f64_to_u64, default: int_to_u64)(v)

#define CVT_FLOAT(v) ((float)(v))
#define CVT_DOUBLE(v) ((double)(v))
#define CVT_INT8(v) ((int8_t)TO_I32(v))
#define CVT_INT16(v) ((int16_t)TO_I32(v))
#define CVT_INT32(v) TO_I32(v)
#define CVT_INT64(v) TO_I64(v)
#define CVT_UINT8(v) ((uint8_t)TO_I32(v))
#define CVT_UINT16(v) ((uint16_t)TO_I32(v))
#define CVT_UINT32(v) ((uint32_t)TO_I64(v))
#define CVT_UINT64(v) TO_U64(v)
#define CVT_BOOL(v) ((uint8_t)((v) != 0))

/* ---------------------------------------------------------------- the plain matrix */

/* The types converted directly (half/bfloat16 go through float). Two copies
 * of the list so it can be crossed with itself. */
#define PLAIN_A(X, ...)                                                                      \
  X(FLOAT, float, __VA_ARGS__) X(DOUBLE, double, __VA_ARGS__) X(INT8, int8_t, __VA_ARGS__)   \
  X(INT16, int16_t, __VA_ARGS__) X(INT32, int32_t, __VA_ARGS__)                              \
  X(INT64, int64_t, __VA_ARGS__) X(UINT8, uint8_t, __VA_ARGS__)                              \
  X(UINT16, uint16_t, __VA_ARGS__) X(UINT32, uint32_t, __VA_ARGS__)                          \
  X(UINT64, uint64_t, __VA_ARGS__) X(BOOL, uint8_t, __VA_ARGS__)
#define PLAIN_B(X, ...)                                                                      \
  X(FLOAT, float, __VA_ARGS__) X(DOUBLE, double, __VA_ARGS__) X(INT8, int8_t, __VA_ARGS__)   \
  X(INT16, int16_t, __VA_ARGS__) X(INT32, int32_t, __VA_ARGS__)                              \
  X(INT64, int64_t, __VA_ARGS__) X(UINT8, uint8_t, __VA_ARGS__)                              \
  X(UINT16, uint16_t, __VA_ARGS__) X(UINT32, uint32_t, __VA_ARGS__)                          \
  X(UINT64, uint64_t, __VA_ARGS__) X(BOOL, uint8_t, __VA_ARGS__)

typedef void (*cast_fn)(const void *in, void *out, int64_t n);

/* cast_<S>_<D>: converts n elements. */
#define DEF_CAST(DDT, DT, SDT, ST)                                                          \
  static void cast_##SDT##_##DDT(const void *in, void *out, int64_t n) {                    \
    const ST *restrict s = in;                                                              \
    DT *restrict d = out;                                                                   \
    for (int64_t i = 0; i < n; i++) d[i] = CVT_##DDT(s[i]);                                 \
  }
#define DEF_ROW(SDT, ST, unused) PLAIN_B(DEF_CAST, SDT, ST)
PLAIN_A(DEF_ROW, _)

#define ENTRY(DDT, DT, SDT) [TFC_DTYPE_##SDT][TFC_DTYPE_##DDT] = cast_##SDT##_##DDT,
#define ROW(SDT, ST, unused) PLAIN_B(ENTRY, SDT)
static const cast_fn k_cast[TFC_DTYPE_NUM][TFC_DTYPE_NUM] = {PLAIN_A(ROW, _)};

/* ---------------------------------------------------------------- Truncate=true */

/* Zeroes the low `bits` mantissa bits of each float (NaN left alone). */
static void zero_low_f32(float *v, int64_t n, int bits) {
  const uint32_t mask = ~((1u << bits) - 1u);
  for (int64_t i = 0; i < n; i++) {
    fbits b = {.f = v[i]};
    uint32_t t = (b.u & 0x7fffffffu) > 0x7f800000u ? b.u : (b.u & mask);
    b.u = t;
    v[i] = b.f;
  }
}

/* Converts doubles to floats after zeroing the low `bits` mantissa bits of each. */
static void f64_truncated_to_f32(const double *in, float *out, int64_t n, int bits) {
  const uint64_t mask = ~((UINT64_C(1) << bits) - 1u);
  for (int64_t i = 0; i < n; i++) {
    uint64_t u;
    memcpy(&u, &in[i], 8);
    if ((u & 0x7fffffffffffffffu) <= 0x7ff0000000000000u) u &= mask;
    double d;
    memcpy(&d, &u, 8);
    out[i] = (float)d;
  }
}

/* ---------------------------------------------------------------- entry points */

/* True for half and bfloat16. */
static bool is_half_like(tfc_dtype t) { return t == TFC_DTYPE_HALF || t == TFC_DTYPE_BFLOAT16; }

/* ---------------------------------------------------------------- complex */

/* True for complex64 and complex128. */
static bool is_complex(tfc_dtype t) {
  return t == TFC_DTYPE_COMPLEX64 || t == TFC_DTYPE_COMPLEX128;
}

/* Converts n elements where src or dst is complex (as TF does: a real source
 * gets a zero imaginary part; a real destination, bool included, is the
 * conversion of the real part). Real halves go through tfc_ew_cast_run in
 * stack-sized chunks. */
static void cast_complex(tfc_dtype src, tfc_dtype dst, const void *in, void *out, int64_t n) {
  if (is_complex(src) && is_complex(dst)) {
    int64_t m = 2 * n;
    if (src == TFC_DTYPE_COMPLEX64) k_cast[TFC_DTYPE_FLOAT][TFC_DTYPE_DOUBLE](in, out, m);
    else k_cast[TFC_DTYPE_DOUBLE][TFC_DTYPE_FLOAT](in, out, m);
    return;
  }
  _Alignas(16) double buf[TFC_EW_CHUNK];
  bool from = is_complex(src);
  tfc_dtype part = (from ? src : dst) == TFC_DTYPE_COMPLEX64 ? TFC_DTYPE_FLOAT : TFC_DTYPE_DOUBLE;
  size_t ssz = tfc_dtype_size(src), dsz = tfc_dtype_size(dst);
  for (int64_t off = 0; off < n; off += TFC_EW_CHUNK) {
    int64_t m = n - off < TFC_EW_CHUNK ? n - off : TFC_EW_CHUNK;
    const char *ip = (const char *)in + (size_t)off * ssz;
    char *op = (char *)out + (size_t)off * dsz;
    if (from) {
      if (part == TFC_DTYPE_FLOAT) {
        const float *c = (const float *)(const void *)ip;
        float *r = (float *)(void *)buf;
        for (int64_t i = 0; i < m; i++) r[i] = c[2 * i];
      } else {
        const double *c = (const double *)(const void *)ip;
        for (int64_t i = 0; i < m; i++) buf[i] = c[2 * i];
      }
      tfc_ew_cast_run(part, dst, false, buf, op, m);
    } else {
      tfc_ew_cast_run(src, part, false, ip, buf, m);
      if (part == TFC_DTYPE_FLOAT) {
        const float *r = (const float *)(const void *)buf;
        float *c = (float *)(void *)op;
        for (int64_t i = 0; i < m; i++) c[2 * i] = r[i], c[2 * i + 1] = 0.0f;
      } else {
        double *c = (double *)(void *)op;
        for (int64_t i = 0; i < m; i++) c[2 * i] = buf[i], c[2 * i + 1] = 0.0;
      }
    }
  }
}

/* ---------------------------------------------------------------- entry points (cont.) */

/* True when tfc_ew_cast_run can convert src to dst. */
bool tfc_ew_cast_supported(tfc_dtype src, tfc_dtype dst) {
  if (is_complex(src) || is_complex(dst)) {
    tfc_dtype s2 = is_complex(src) ? TFC_DTYPE_FLOAT : src;
    tfc_dtype d2 = is_complex(dst) ? TFC_DTYPE_FLOAT : dst;
    return s2 == d2 || tfc_ew_cast_supported(s2, d2);
  }
  bool s = is_half_like(src) || (src > 0 && src < TFC_DTYPE_NUM && k_cast[src][TFC_DTYPE_FLOAT]);
  bool d = is_half_like(dst) || (dst > 0 && dst < TFC_DTYPE_NUM && k_cast[TFC_DTYPE_FLOAT][dst]);
  return s && d;
}

/* Converts n elements (see elementwise_internal.h); the pair must be supported. */
void tfc_ew_cast_run(tfc_dtype src, tfc_dtype dst, bool truncate, const void *in, void *out,
                     int64_t n) {
  if (is_complex(src) || is_complex(dst)) {
    cast_complex(src, dst, in, out, n);
    return;
  }
  bool sh = is_half_like(src), dh = is_half_like(dst);
  bool trunc_float = truncate && (src == TFC_DTYPE_FLOAT || src == TFC_DTYPE_DOUBLE);
  if (!sh && !dh) {
    if (trunc_float && src == TFC_DTYPE_DOUBLE && dst == TFC_DTYPE_FLOAT)
      f64_truncated_to_f32(in, out, n, 29);
    else
      k_cast[src][dst](in, out, n);
    return;
  }
  /* Bits a float keeps for half (10) or bfloat16 (7) mantissas. */
  int drop32 = dst == TFC_DTYPE_HALF ? 13 : 16;
  size_t ssz = tfc_dtype_size(src), dsz = tfc_dtype_size(dst);
  float buf[TFC_EW_CHUNK];
  for (int64_t off = 0; off < n; off += TFC_EW_CHUNK) {
    int64_t m = n - off < TFC_EW_CHUNK ? n - off : TFC_EW_CHUNK;
    const char *ip = (const char *)in + (size_t)off * ssz;
    char *op = (char *)out + (size_t)off * dsz;
    if (sh)
      tfc_ew_widen(src, ip, buf, m);
    else if (trunc_float && dh && src == TFC_DTYPE_DOUBLE)
      f64_truncated_to_f32((const double *)(const void *)ip, buf, m, 29 + drop32);
    else
      k_cast[src][TFC_DTYPE_FLOAT](ip, buf, m);
    if (trunc_float && dh && src == TFC_DTYPE_FLOAT) zero_low_f32(buf, m, drop32);
    if (dh) tfc_ew_narrow(dst, buf, op, m);
    else k_cast[TFC_DTYPE_FLOAT][dst](buf, op, m);
  }
}
