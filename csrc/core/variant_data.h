/*
 * variant_data.h — an opaque DT_VARIANT value that can be written to a
 * checkpoint: a type name and a byte string (TF's VariantTensorData without
 * its tensors). Iterator states (SerializeIterator) are values of this kind;
 * the checkpoint bundle writes each as a VariantTensorDataProto and reads
 * them back as such values.
 *
 *     tfc_object *v = tfc_variant_data_new("tfc::IteratorState", bytes, n, st);
 *     tfc_tensor *t = tfc_tensor_object_scalar(TFC_DTYPE_VARIANT, v, st);
 *     tfc_object_unref(v);
 */
#ifndef TFC_CORE_VARIANT_DATA_H
#define TFC_CORE_VARIANT_DATA_H

#include <stddef.h>

#include "base/status.h"
#include "core/object.h"

typedef struct tfc_variant_data {
  tfc_object base;
  char *type_name; /* NUL-terminated */
  char *data;      /* len bytes (plus a NUL) */
  size_t len;
} tfc_variant_data;

/* The object type of these values. */
extern const tfc_object_type tfc_variant_data_type;

/* A new value (one reference) holding copies of type_name and the len bytes
 * at data. NULL + RESOURCE_EXHAUSTED. */
tfc_object *tfc_variant_data_new(const char *type_name, const void *data, size_t len, tfc_status *st);
/* o as a variant data value, or NULL when o is another kind of object. */
const tfc_variant_data *tfc_variant_data_cast(const tfc_object *o);

#endif
