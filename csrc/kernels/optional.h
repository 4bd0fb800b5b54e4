/*
 * optional.h — TF's Optional variant value (tf.data.experimental.Optional):
 * either no value or a tuple of tensors, held by a scalar DT_VARIANT tensor.
 */
#ifndef TFC_KERNELS_OPTIONAL_H
#define TFC_KERNELS_OPTIONAL_H

#include "base/status.h"
#include "core/object.h"
#include "core/tensor.h"

/* A new optional (one reference) holding new references to the n tensors
 * (n = 0 with has_value false: no value). NULL + RESOURCE_EXHAUSTED. */
tfc_object *tfc_optional_new(bool has_value, tfc_tensor *const *values, int n, tfc_status *st);

#endif
