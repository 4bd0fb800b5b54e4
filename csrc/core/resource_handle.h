/*
 * resource_handle.h — the value of a DT_RESOURCE tensor element: TF's
 * ResourceHandleProto in its serialized form (device = 1, container = 2,
 * name = 3, hash_code = 4, maybe_type_name = 5, dtypes_and_shapes = 6), so a
 * handle tensor travels in tensor_content exactly as TensorFlow frames it.
 *
 * Encoding and decoding are by hand (five small fields), which keeps this
 * layer free of protobuf. Kernels decode a handle to find the variable it
 * names in the step's resource manager (core/resource.h).
 */
#ifndef TFC_CORE_RESOURCE_HANDLE_H
#define TFC_CORE_RESOURCE_HANDLE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"
#include "core/dtype.h"
#include "core/shape.h"

/* TF's type name of a resource variable's resource (maybe_type_name). */
#define TFC_RESOURCE_VAR_TYPE_NAME "N10tensorflow3VarE"

/* A decoded handle: views into the bytes it was decoded from (not
 * NUL-terminated). */
typedef struct tfc_resource_handle {
  const char *device, *container, *name, *type_name;
  size_t device_len, container_len, name_len, type_name_len;
} tfc_resource_handle;

/* Serializes a handle naming (container, name) on device, with one
 * (dtype, shape) entry when dtype is valid, into a fresh tfc_malloc'd buffer
 * (*out, *out_len). false + RESOURCE_EXHAUSTED on OOM. */
bool tfc_resource_handle_encode(const char *device, const char *container, const char *name,
                                tfc_dtype dtype, const tfc_shape *shape, char **out,
                                size_t *out_len, tfc_status *st);
/* Decodes serialized handle bytes into *h (views into data). false +
 * INVALID_ARGUMENT when the bytes are not a ResourceHandleProto. */
bool tfc_resource_handle_decode(const char *data, size_t len, tfc_resource_handle *h,
                                tfc_status *st);

#endif
