/*
 * tensor_proto.h — tensors to and from serialized TensorProto bytes.
 *
 * Decoding follows TensorFlow: a non-empty tensor_content holds the whole
 * tensor (raw little-endian elements; strings as varint lengths followed by
 * the bytes); otherwise the typed field of the dtype is read (float_val,
 * int_val for the small integer and quantized types, half_val holding
 * float16/bfloat16 bit patterns, string_val, ...); when it has fewer values
 * than the shape needs, the last value is repeated; when it is empty, the
 * tensor is zeros (or empty strings). Extra values are ignored.
 *
 * Encoding writes what Python's make_tensor_proto writes, so GraphDefs that
 * tfc exports match TensorFlow's byte for byte: tensor_content for numeric
 * tensors of more than one element, the typed field for 0 or 1 element,
 * string_val for strings.
 *
 *   void *buf; size_t len;
 *   if (tfc_tensor_to_proto(t, &buf, &len, st)) {
 *     tfc_tensor *back = tfc_tensor_from_proto(buf, len, st);
 *     tfc_free(buf);
 *   }
 */
#ifndef TFC_GRAPH_TENSOR_PROTO_H
#define TFC_GRAPH_TENSOR_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"
#include "core/tensor.h"

/* Decodes a serialized TensorProto into a new tensor (refcount 1). NULL with
 * st set: INVALID_ARGUMENT ("Invalid TensorProto: ...") for corrupt bytes, an
 * unsupported dtype, a partial shape, tensor_content of the wrong size, or a
 * tensor (elements plus string bytes) above TFC_TENSOR_PROTO_MAX_BYTES
 * (2^40 unless the build defines it; checked before allocating);
 * RESOURCE_EXHAUSTED on OOM. */
tfc_tensor *tfc_tensor_from_proto(const void *data, size_t len, tfc_status *st);

/* Serializes t as a TensorProto (make_tensor_proto layout, see above) into a
 * new buffer from tfc_malloc: *data (free with tfc_free) and *len.
 * false + RESOURCE_EXHAUSTED on OOM. */
bool tfc_tensor_to_proto(const tfc_tensor *t, void **data, size_t *len, tfc_status *st);

/* Same, but always using tensor_content (TF's AsProtoTensorContent: what its
 * runtime puts on the wire; strings as varint lengths then bytes). */
bool tfc_tensor_to_proto_content(const tfc_tensor *t, void **data, size_t *len, tfc_status *st);

#endif
