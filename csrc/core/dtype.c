/*
 * dtype.c — per-dtype facts (size, names, classes) and half/bfloat16 conversion.
 */
#include "core/dtype.h"

#include <string.h>
#include <strings.h>

typedef struct dtype_info {
  const char *name;      /* TF Python name */
  const char *ref_name;  /* name of the reference type */
  const char *spec_name; /* spelling in op specs / DataTypeString, when different */
  size_t size;           /* 0: cannot be allocated by tfc */
} dtype_info;

static const dtype_info k_info[TFC_DTYPE_NUM] = {
    [TFC_DTYPE_INVALID] = {"invalid", "invalid", NULL, 0},
    [TFC_DTYPE_FLOAT] = {"float32", "float32_ref", "float", 4},
    [TFC_DTYPE_DOUBLE] = {"float64", "float64_ref", "double", 8},
    [TFC_DTYPE_INT32] = {"int32", "int32_ref", NULL, 4},
    [TFC_DTYPE_UINT8] = {"uint8", "uint8_ref", NULL, 1},
    [TFC_DTYPE_INT16] = {"int16", "int16_ref", NULL, 2},
    [TFC_DTYPE_INT8] = {"int8", "int8_ref", NULL, 1},
    [TFC_DTYPE_STRING] = {"string", "string_ref", NULL, sizeof(tfc_string)},
    [TFC_DTYPE_COMPLEX64] = {"complex64", "complex64_ref", NULL, 8},
    [TFC_DTYPE_INT64] = {"int64", "int64_ref", NULL, 8},
    [TFC_DTYPE_BOOL] = {"bool", "bool_ref", NULL, 1},
    [TFC_DTYPE_QINT8] = {"qint8", "qint8_ref", NULL, 1},
    [TFC_DTYPE_QUINT8] = {"quint8", "quint8_ref", NULL, 1},
    [TFC_DTYPE_QINT32] = {"qint32", "qint32_ref", NULL, 4},
    [TFC_DTYPE_BFLOAT16] = {"bfloat16", "bfloat16_ref", NULL, 2},
    [TFC_DTYPE_QINT16] = {"qint16", "qint16_ref", NULL, 2},
    [TFC_DTYPE_QUINT16] = {"quint16", "quint16_ref", NULL, 2},
    [TFC_DTYPE_UINT16] = {"uint16", "uint16_ref", NULL, 2},
    [TFC_DTYPE_COMPLEX128] = {"complex128", "complex128_ref", NULL, 16},
    [TFC_DTYPE_HALF] = {"float16", "float16_ref", "half", 2},
    [TFC_DTYPE_RESOURCE] = {"resource", "resource_ref", NULL, sizeof(tfc_string)},
    [TFC_DTYPE_VARIANT] = {"variant", "variant_ref", NULL, 0},
    [TFC_DTYPE_UINT32] = {"uint32", "uint32_ref", NULL, 4},
    [TFC_DTYPE_UINT64] = {"uint64", "uint64_ref", NULL, 8},
};

/* Index into k_info for t's base type, or 0 (invalid) when out of range. */
static int info_index(tfc_dtype t) {
  int b = (int)tfc_dtype_base(t);
  return (b > 0 && b < TFC_DTYPE_NUM) ? b : 0;
}

/* Bytes per element of t's base type; 0 for invalid and variant. */
size_t tfc_dtype_size(tfc_dtype t) { return k_info[info_index(t)].size; }

/* TF's Python name, with "_ref" for reference types; "invalid" if unknown. */
const char *tfc_dtype_name(tfc_dtype t) {
  int i = info_index(t);
  if (i == 0) return "invalid";
  return tfc_dtype_is_ref(t) ? k_info[i].ref_name : k_info[i].name;
}

/* True when (s, len) equals the NUL-terminated string lit, ignoring ASCII case if `nocase`. */
static bool span_eq(const char *s, size_t len, const char *lit, bool nocase) {
  size_t n = strlen(lit);
  if (n != len) return false;
  return nocase ? strncasecmp(s, lit, n) == 0 : memcmp(s, lit, n) == 0;
}

/* Base-type lookup of one spelling: Python name, op-spec name, or (nocase)
 * the enum spelling without "DT_". INVALID when unknown. */
static tfc_dtype lookup_base(const char *s, size_t len, bool nocase) {
  for (int i = 1; i < TFC_DTYPE_NUM; i++) {
    if (span_eq(s, len, k_info[i].name, nocase)) return (tfc_dtype)i;
    if (k_info[i].spec_name && span_eq(s, len, k_info[i].spec_name, nocase)) return (tfc_dtype)i;
  }
  return TFC_DTYPE_INVALID;
}

/* Parses "float32", "float", "half", "int32", "float32_ref", "DT_FLOAT",
 * "DT_FLOAT_REF", ...; INVALID when unknown. */
tfc_dtype tfc_dtype_from_name(const char *name, size_t len) {
  bool nocase = false, ref = false;
  if (len >= 3 && memcmp(name, "DT_", 3) == 0) {
    name += 3;
    len -= 3;
    nocase = true;
  }
  if (len >= 4 && span_eq(name + len - 4, 4, "_ref", true)) {
    ref = true;
    len -= 4;
  }
  tfc_dtype t = lookup_base(name, len, nocase);
  if (t == TFC_DTYPE_INVALID) return t;
  return ref ? tfc_dtype_ref(t) : t;
}

/* half, bfloat16, float, double. */
bool tfc_dtype_is_float(tfc_dtype t) {
  switch (tfc_dtype_base(t)) {
    case TFC_DTYPE_HALF: case TFC_DTYPE_BFLOAT16: case TFC_DTYPE_FLOAT: case TFC_DTYPE_DOUBLE:
      return true;
    default:
      return false;
  }
}

/* Signed and unsigned integers (not bool, not quantized). */
bool tfc_dtype_is_integer(tfc_dtype t) {
  switch (tfc_dtype_base(t)) {
    case TFC_DTYPE_INT8: case TFC_DTYPE_INT16: case TFC_DTYPE_INT32: case TFC_DTYPE_INT64:
    case TFC_DTYPE_UINT8: case TFC_DTYPE_UINT16: case TFC_DTYPE_UINT32: case TFC_DTYPE_UINT64:
      return true;
    default:
      return false;
  }
}

/* Unsigned integers and unsigned quantized types. */
bool tfc_dtype_is_unsigned(tfc_dtype t) {
  switch (tfc_dtype_base(t)) {
    case TFC_DTYPE_UINT8: case TFC_DTYPE_UINT16: case TFC_DTYPE_UINT32: case TFC_DTYPE_UINT64:
    case TFC_DTYPE_QUINT8: case TFC_DTYPE_QUINT16:
      return true;
    default:
      return false;
  }
}

/* complex64, complex128. */
bool tfc_dtype_is_complex(tfc_dtype t) {
  tfc_dtype b = tfc_dtype_base(t);
  return b == TFC_DTYPE_COMPLEX64 || b == TFC_DTYPE_COMPLEX128;
}

/* True for the quantized types. */
static bool is_quantized(tfc_dtype b) {
  return b == TFC_DTYPE_QINT8 || b == TFC_DTYPE_QUINT8 || b == TFC_DTYPE_QINT16 ||
         b == TFC_DTYPE_QUINT16 || b == TFC_DTYPE_QINT32;
}

/* Float, integer, complex or quantized. */
bool tfc_dtype_is_numeric(tfc_dtype t) {
  return tfc_dtype_is_float(t) || tfc_dtype_is_integer(t) || tfc_dtype_is_complex(t) ||
         is_quantized(tfc_dtype_base(t));
}

/* True when tensors of this (base) type can be allocated: every type with a
 * known element size (all but invalid, resource and variant). */
bool tfc_dtype_is_supported(tfc_dtype t) { return tfc_dtype_size(t) != 0; }

/* Bit casts between float and uint32_t. */
static uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* IEEE binary16 → float (exact: every half is a float). */
float tfc_half_to_float(tfc_half h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0) {
    float v = (float)mant * 0x1p-24f; /* zero or subnormal */
    return u2f(f2u(v) | sign);
  }
  if (exp == 31) return u2f(sign | 0x7f800000u | (mant << 13)); /* inf / nan */
  return u2f(sign | ((exp + 112u) << 23) | (mant << 13));
}

/* float → IEEE binary16, round to nearest even; overflow gives inf, NaN stays
 * NaN (quiet, payload top bits kept), tiny values become subnormals or zero. */
tfc_half tfc_float_to_half(float f) {
  uint32_t x = f2u(f);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u) {
    if (x == 0x7f800000u) return sign | 0x7c00u;
    return (tfc_half)(sign | 0x7e00u | ((x >> 13) & 0x3ffu));
  }
  if (x >= 0x47800000u) return sign | 0x7c00u; /* >= 65536: inf */
  uint32_t e = x >> 23;
  if (e < 113) { /* below 2^-14: subnormal half or zero */
    uint32_t shift = 126 - e; /* value = m * 2^-shift in units of 2^-24 */
    if (e == 0 || shift > 24) return sign;
    uint32_t m = (x & 0x7fffffu) | 0x800000u;
    uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u))) q++;
    return (tfc_half)(sign | q);
  }
  uint32_t h = ((e - 112u) << 10) | ((x >> 13) & 0x3ffu);
  uint32_t rem = x & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++; /* may carry into inf */
  return (tfc_half)(sign | h);
}

/* bfloat16 → float (exact). */
float tfc_bfloat16_to_float(uint16_t b) { return u2f((uint32_t)b << 16); }

/* float → bfloat16, round to nearest even; NaN stays a quiet NaN. */
uint16_t tfc_float_to_bfloat16(float f) {
  uint32_t x = f2u(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}
