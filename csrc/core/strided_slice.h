/*
 * strided_slice.h — TF's StridedSlice index-spec resolution, shared by the
 * StridedSlice / StridedSliceGrad shape functions (partial shapes, possibly
 * unknown begin/end) and their kernels (everything known).
 *
 * A spec is begin/end/strides vectors plus five bit masks. Resolution expands
 * the ellipsis (an implicit one is appended), maps sparse entries onto input
 * dims, clamps begin/end per dimension, and computes
 *   - the processing shape: one entry per input dim (shrunk dims are 1), the
 *     shape of the strided window over the input;
 *   - the final shape: the processing shape with shrunk dims dropped and
 *     new-axis dims (size 1) inserted.
 * Error messages are TensorFlow's ("strides[1] must be non-zero", "slice index
 * 5 of dimension 0 out of bounds.", ...).
 */
#ifndef TFC_CORE_STRIDED_SLICE_H
#define TFC_CORE_STRIDED_SLICE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "core/shape.h"
#include "core/tensor.h"

typedef struct tfc_strided_slice {
  int processing_rank;                 /* == input rank */
  int64_t processing_dims[TFC_MAX_RANK];  /* -1 where unknown */
  int final_rank;
  int64_t final_dims[TFC_MAX_RANK];    /* -1 where unknown */
  /* Per input dim, canonical begin/end/stride (valid where begin and end
   * were known and the dim size known). */
  int64_t begin[TFC_MAX_RANK];
  int64_t end[TFC_MAX_RANK];
  int64_t strides[TFC_MAX_RANK];
  bool is_identity;      /* the slice is the whole input, in order */
  bool is_simple_slice;  /* every stride is 1 */
  bool slice_dim0;       /* only dim 0 is restricted, with stride 1 */
} tfc_strided_slice;

/* Resolves a strided-slice spec against a (partial) input shape of known
 * rank. begin and end may be NULL (values unknown); strides must be given.
 * begin/end/strides are int16/int32/int64 vectors of equal length (< 32).
 * Returns false with INVALID_ARGUMENT in st for an invalid spec. */
bool tfc_strided_slice_resolve(const tfc_tensor *begin, const tfc_tensor *end,
                               const tfc_tensor *strides, const tfc_shape *input,
                               int64_t begin_mask, int64_t end_mask, int64_t ellipsis_mask,
                               int64_t new_axis_mask, int64_t shrink_axis_mask,
                               tfc_strided_slice *out, tfc_status *st);

#endif
