/*
 * dnn_backend.h — the only door to the DNN primitive library (oneDNN).
 *
 * Kernels describe a float convolution by its tfc_conv_geom and get back an
 * opaque, immutable primitive that can be run any number of times, from
 * several threads at once, on different data of that exact shape. Creating a
 * primitive is expensive (the library picks an implementation and JIT-compiles
 * it), so callers create it once per shape and keep it (kernels/conv_dnn.c).
 * Only kernels/dnn_backend.c includes the library's header, and it loads
 * the library on first use rather than linking it (see there).
 *
 * Threading: the library is built on the OpenMP runtime (GNU libgomp), which
 * is not fork-safe once it has started worker threads. Every call here runs
 * on the calling thread with the OpenMP thread count set to one for its
 * duration (and restored afterwards), so OpenMP never starts a thread and
 * intra-op parallelism stays tfc's own (callers split the batch across the
 * intra-op pool). Importing tfc therefore still starts no threads.
 *
 * Tensors are tfc's: NHWC activations, HWIO Conv2D filters, [KH, KW, C, M]
 * depthwise filters, all dense float.
 */
#ifndef TFC_KERNELS_DNN_BACKEND_H
#define TFC_KERNELS_DNN_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels/conv_internal.h"

typedef struct tfc_dnn_conv tfc_dnn_conv;

/* True when the library could be loaded (dlopen, on the first call) and its
 * CPU engine created (once; thread-safe). Every other function here needs
 * a primitive made after this returned true, except tfc_dnn_sgemm and
 * tfc_dnn_describe, which load the library themselves. */
bool tfc_dnn_available(void);

/* A primitive for one pass of the convolution of geometry *g; depthwise
 * selects DepthwiseConv2dNative semantics (a per-channel convolution with
 * a [KH, KW, C, M] filter). NULL when the library is
 * unavailable, does not support the shape, or memory runs out (callers then
 * use another path). Free with tfc_dnn_conv_free. */
tfc_dnn_conv *tfc_dnn_conv_new(tfc_conv_pass pass, bool depthwise, const tfc_conv_geom *g);

/* A forward primitive that also adds a bias ([out_depth] floats, when bias),
 * then (when residual) a tensor of the output's shape and layout, and
 * applies act to the result, in the same pass over the output. NULL as for
 * tfc_dnn_conv_new (also when the library refuses the post-ops). */
tfc_dnn_conv *tfc_dnn_conv_new_fwd(bool depthwise, const tfc_conv_geom *g, bool bias,
                                   bool residual, tfc_conv_act act);

/* Bytes of p's filter operand in the layout the library's kernel wants;
 * 0 when that is tfc's own layout (or p is a filter-gradient primitive), so
 * there is nothing to prepare. */
size_t tfc_dnn_conv_weights_bytes(const tfc_dnn_conv *p);

/* Writes filter (tfc's layout) into dst (tfc_dnn_conv_weights_bytes(p)
 * bytes, 64-byte aligned) in the library's layout, for
 * tfc_dnn_conv_run_fwd's w_lib: a filter that never changes is reordered
 * once instead of on every call. False on a library error or when there is
 * nothing to prepare. */
bool tfc_dnn_conv_prepare_weights(const tfc_dnn_conv *p, const float *filter, void *dst);

/* Runs the forward primitive p:
 * out = act(conv(in, filter) + bias + residual). w_lib, when not NULL, is
 * the filter already prepared by tfc_dnn_conv_prepare_weights and filter is
 * then not read; bias and residual (the output's shape, only read; it may
 * not overlap out) must be given exactly when p was created with them. Same
 * threading and error contract as tfc_dnn_conv_run. */
bool tfc_dnn_conv_run_fwd(const tfc_dnn_conv *p, const float *in, const float *filter,
                          const void *w_lib, const float *bias, const float *residual,
                          float *out);

/* Runs p on the calling thread with operands a, b (see tfc_conv_pass)
 * into out, which is fully written. Safe to call concurrently on the same p.
 * Returns false when the library reports an error (out is then undefined). */
bool tfc_dnn_conv_run(const tfc_dnn_conv *p, const float *a, const float *b, float *out);

/* The name of the implementation the library picked ("brg:avx512_core",
 * "jit:avx512_core", ...), for benchmarks; static storage, never NULL. */
const char *tfc_dnn_conv_impl(const tfc_dnn_conv *p);

/* Releases p; NULL is a no-op. */
void tfc_dnn_conv_free(tfc_dnn_conv *p);

/* Row-major single-precision GEMM through the library, same contract as
 * tfc_blas_sgemm (kernels/blas.h), on the calling thread. For measurement:
 * tools/bench_conv_backends.c compares it with the BLAS. Returns false on a
 * library error. */
bool tfc_dnn_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                   const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                   int64_t ldc);

/* A short description ("oneDNN 2.6.3 (cpu runtime OpenMP)"), static storage. */
const char *tfc_dnn_describe(void);

#endif
