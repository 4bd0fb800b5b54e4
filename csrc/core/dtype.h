/*
 * dtype.h — TensorFlow's DataType numbering and per-type facts.
 *
 * Values equal tensorflow/core/framework/types.proto so GraphDefs and wire
 * tensors need no translation. Reference types are value + 100.
 * float16 and bfloat16 are stored as uint16_t bit patterns.
 */
#ifndef TFC_CORE_DTYPE_H
#define TFC_CORE_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum tfc_dtype {
  TFC_DTYPE_INVALID = 0,
  TFC_DTYPE_FLOAT = 1,
  TFC_DTYPE_DOUBLE = 2,
  TFC_DTYPE_INT32 = 3,
  TFC_DTYPE_UINT8 = 4,
  TFC_DTYPE_INT16 = 5,
  TFC_DTYPE_INT8 = 6,
  TFC_DTYPE_STRING = 7,
  TFC_DTYPE_COMPLEX64 = 8,
  TFC_DTYPE_INT64 = 9,
  TFC_DTYPE_BOOL = 10,
  TFC_DTYPE_QINT8 = 11,
  TFC_DTYPE_QUINT8 = 12,
  TFC_DTYPE_QINT32 = 13,
  TFC_DTYPE_BFLOAT16 = 14,
  TFC_DTYPE_QINT16 = 15,
  TFC_DTYPE_QUINT16 = 16,
  TFC_DTYPE_UINT16 = 17,
  TFC_DTYPE_COMPLEX128 = 18,
  TFC_DTYPE_HALF = 19,
  TFC_DTYPE_RESOURCE = 20,
  TFC_DTYPE_VARIANT = 21,
  TFC_DTYPE_UINT32 = 22,
  TFC_DTYPE_UINT64 = 23,
  TFC_DTYPE_NUM = 24, /* one past the last base type */
  TFC_DTYPE_REF_OFFSET = 100
} tfc_dtype;

typedef uint16_t tfc_half;

/* One element of a DT_STRING tensor: a heap byte string owned by the tensor. */
typedef struct tfc_string {
  char *data;   /* NULL when len == 0 is allowed */
  size_t len;
} tfc_string;

/* Bytes per element (sizeof(tfc_string) for STRING and RESOURCE); 0 for invalid/unsupported. */
size_t tfc_dtype_size(tfc_dtype t);
/* TF's Python name ("float32", "int64", "string", "float32_ref"); "invalid" if unknown. */
const char *tfc_dtype_name(tfc_dtype t);
/* Parses a name as written in op specs or by Python ("float", "float32", "int32", "half", ...);
 * returns TFC_DTYPE_INVALID when unknown. */
tfc_dtype tfc_dtype_from_name(const char *name, size_t len);
/* True for x + 100 reference types. */
static inline bool tfc_dtype_is_ref(tfc_dtype t) { return (int)t > TFC_DTYPE_REF_OFFSET; }
/* The base type of a reference type (identity otherwise). */
static inline tfc_dtype tfc_dtype_base(tfc_dtype t) {
  return tfc_dtype_is_ref(t) ? (tfc_dtype)((int)t - TFC_DTYPE_REF_OFFSET) : t;
}
/* The reference type of a base type. */
static inline tfc_dtype tfc_dtype_ref(tfc_dtype t) {
  return tfc_dtype_is_ref(t) ? t : (tfc_dtype)((int)t + TFC_DTYPE_REF_OFFSET);
}
/* Classification helpers on the base type. */
bool tfc_dtype_is_float(tfc_dtype t);    /* half, bfloat16, float, double */
bool tfc_dtype_is_integer(tfc_dtype t);  /* signed and unsigned ints (not bool, not quantized) */
bool tfc_dtype_is_unsigned(tfc_dtype t);
bool tfc_dtype_is_complex(tfc_dtype t);
bool tfc_dtype_is_numeric(tfc_dtype t);  /* float, integer, complex, quantized */
/* True when tfc can allocate and compute on this type. */
bool tfc_dtype_is_supported(tfc_dtype t);
/* True for the types whose elements are tfc_string byte strings owned by the
 * buffer: STRING, and RESOURCE (each element a serialized ResourceHandleProto). */
static inline bool tfc_dtype_is_stringlike(tfc_dtype t) {
  tfc_dtype b = tfc_dtype_base(t);
  return b == TFC_DTYPE_STRING || b == TFC_DTYPE_RESOURCE;
}

/* IEEE half <-> float conversion (round to nearest even). */
float tfc_half_to_float(tfc_half h);
tfc_half tfc_float_to_half(float f);
/* bfloat16 <-> float conversion (round to nearest even). */
float tfc_bfloat16_to_float(uint16_t b);
uint16_t tfc_float_to_bfloat16(float f);

#endif
