/*
 * sparse_internal.h — kernels of the sparse family defined outside
 * sparse.c, which registers them in its table.
 */
#ifndef TFC_KERNELS_SPARSE_INTERNAL_H
#define TFC_KERNELS_SPARSE_INTERNAL_H

#include "kernels/kernel.h"

/* SparseSoftmax: softmax over each innermost row of a sparse tensor's entries. */
void sparse_softmax_compute(tfc_kernel_ctx *ctx);
/* SparseSparseMaximum: element-wise maximum of two sparse tensors (union of entries). */
void sparse_sparse_maximum_compute(tfc_kernel_ctx *ctx);
/* SparseSparseMinimum: element-wise minimum of two sparse tensors (union of entries). */
void sparse_sparse_minimum_compute(tfc_kernel_ctx *ctx);

/* SparseReduceMax: dense maximum of the entries over reduction_axes. */
void sparse_reduce_max_compute(tfc_kernel_ctx *ctx);
/* SparseReduceMaxSparse: the same maximum as a sparse tensor. */
void sparse_reduce_max_sparse_compute(tfc_kernel_ctx *ctx);
/* SparseReduceSumSparse: the sum over reduction_axes as a sparse tensor. */
void sparse_reduce_sum_sparse_compute(tfc_kernel_ctx *ctx);

#endif
