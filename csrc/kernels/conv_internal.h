/*
 * conv_internal.h — what the convolution, pooling and batch-norm kernel
 * files (kernels/conv*.c, pool.c, batchnorm.c) share.
 *
 * Everything here works on NHWC tensors (TF's CPU kernels only take NHWC for
 * convolutions and pooling; batch norm handles both layouts itself). A
 * convolution is described once by a tfc_conv_geom; the same geometry drives
 * the fast im2col + GEMM kernels (conv_gemm.c), the direct reference loops
 * (conv_ref.c) that tests compare them with, and the depthwise kernels
 * (conv_depthwise.c).
 */
#ifndef TFC_KERNELS_CONV_INTERNAL_H
#define TFC_KERNELS_CONV_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/dtype.h"
#include "core/tensor.h"
#include "kernels/kernel.h"

/* TF's Padding enum. */
typedef enum tfc_padding { TFC_PAD_VALID, TFC_PAD_SAME, TFC_PAD_EXPLICIT } tfc_padding;

/* The window attrs of a conv or pool node, as written on the node (index
 * order of the node's data_format). */
typedef struct tfc_window_attrs {
  int64_t strides[4];
  int64_t dilations[4];           /* all 1 for ops without the attr */
  int64_t ksize[4];               /* pools only */
  int64_t explicit_paddings[8];   /* all 0 unless padding is EXPLICIT */
  tfc_padding padding;
  bool nchw;                      /* data_format is not NHWC (NCHW, NCHW_VECT_C) */
} tfc_window_attrs;

/* One 2-D convolution in NHWC: input [batch, in_rows, in_cols, in_depth],
 * filter [filter_rows, filter_cols, in_depth, out_depth] (depthwise:
 * [filter_rows, filter_cols, in_depth, depth_mult] with out_depth =
 * in_depth * depth_mult), output [batch, out_rows, out_cols, out_depth].
 * Input pixel (ih, iw) feeds output (oh, ow) through filter tap (kh, kw) when
 * ih = oh * stride_rows - pad_top + kh * dil_rows (and likewise for columns);
 * pad_bottom/pad_right are informative (the output size already encodes them). */
typedef struct tfc_conv_geom {
  int64_t batch, in_rows, in_cols, in_depth;
  int64_t filter_rows, filter_cols, out_depth, depth_mult;
  int64_t out_rows, out_cols;
  int64_t stride_rows, stride_cols, dil_rows, dil_cols;
  int64_t pad_top, pad_bottom, pad_left, pad_right;
} tfc_conv_geom;

/* The three passes of a convolution, with the operand order every pass
 * function takes (a, b -> out). */
typedef enum tfc_conv_pass {
  TFC_CONV_FWD,        /* out = conv(in, filter)              a = in,     b = filter */
  TFC_CONV_BWD_INPUT,  /* dx = input gradient                 a = filter, b = dy */
  TFC_CONV_BWD_FILTER  /* dfilter = filter gradient           a = in,     b = dy */
} tfc_conv_pass;

/* The activation a fused convolution applies to its result. */
typedef enum tfc_conv_act { TFC_CONV_ACT_NONE, TFC_CONV_ACT_RELU, TFC_CONV_ACT_RELU6 } tfc_conv_act;

/* What a forward convolution does besides the convolution itself. */
typedef struct tfc_conv_epilogue {
  const float *bias;   /* [out_depth] added to every output pixel, or NULL */
  const float *residual; /* a tensor of the output's shape added after the
                            bias (never overlapping the output), or NULL */
  tfc_conv_act act;    /* applied after the bias and the residual */
  bool const_filter;   /* the filter's data never changes while the kernel
                          instance lives: its reordered form may be cached */
} tfc_conv_epilogue;

/* Bool attr that the plan builder (runtime/remap.c) sets on a Conv2D,
 * DepthwiseConv2dNative or fused convolution node of a plan whose filter
 * (and, for the fused ops, every extra argument but the residual addend of
 * an Add) comes from a Const node:
 * the kernel may then prepare its weights once and keep them. Never set on
 * nodes of the user's graph. */
#define TFC_CONV_CONST_ATTR "_tfc_const_weights"

/* ---------------------------------------------------------------- conv_params.c */

/* Which checks tfc_window_read_attrs applies (TF's kernels differ in them). */
typedef enum tfc_window_kind {
  TFC_WIN_CONV,       /* strides + dilations + padding (+ explicit) */
  TFC_WIN_DEPTHWISE,  /* strides + dilations + padding (+ explicit); looser stride rule */
  TFC_WIN_POOL        /* ksize + strides + padding (+ explicit for MaxPool/MaxPoolGrad) */
} tfc_window_kind;

/* Reads strides, dilations, ksize, padding, explicit_paddings and
 * data_format from the node's attrs into *a and checks them the way TF's
 * CPU kernel constructors do (sizes, batch/depth entries, positivity,
 * explicit padding validity), failing ctx with TF's message. NCHW is
 * accepted here; callers reject it where TF's CPU kernels do. */
bool tfc_window_read_attrs(tfc_kernel_ctx *ctx, tfc_window_kind kind, tfc_window_attrs *a);

/* Reads a 4-vector from an int tensor (MaxPoolV2's ksize/strides inputs)
 * into out; false + ctx failed unless it has exactly 4 values. */
bool tfc_window_read_vec4(tfc_kernel_ctx *ctx, const tfc_tensor *t, const char *what, int64_t *out);

/* TF's GetWindowedOutputSizeVerboseV2: the output size of one spatial
 * dimension for the padding kind; for SAME it sets *pad_before and *pad_after,
 * for VALID zeroes them, for EXPLICIT reads them. Fails ctx with TF's
 * message ("Stride must be > 0 ...", "Computed output size would be
 * negative ..."). */
bool tfc_windowed_output_size(tfc_kernel_ctx *ctx, int64_t in, int64_t k, int64_t dilation,
                              int64_t stride, tfc_padding p, int64_t *pad_before,
                              int64_t *pad_after, int64_t *out);

/* Writes t's dims in TF's DebugString form ("[2,3]") into buf. */
void tfc_conv_dims_str(const tfc_tensor *t, char *buf, size_t cap);

/* Number of threads the intra-op pool offers, the caller included. */
int tfc_conv_threads(const tfc_kernel_ctx *ctx);

/* True when the dtype is half or bfloat16 (computed through float). */
static inline bool tfc_conv_is16(tfc_dtype t) {
  return t == TFC_DTYPE_HALF || t == TFC_DTYPE_BFLOAT16;
}

/* ---------------------------------------------------------------- conv_convert.c */

/* Widens n half/bfloat16 values (type t) to float, split across the pool. */
void tfc_conv_widen(tfc_kernel_ctx *ctx, tfc_dtype t, const uint16_t *src, float *dst, int64_t n);
/* Rounds n floats to half/bfloat16 (type t), split across the pool. */
void tfc_conv_narrow(tfc_kernel_ctx *ctx, tfc_dtype t, const float *src, uint16_t *dst, int64_t n);
/* A float copy of a half/bfloat16 tensor's data (tfc_aligned_free it);
 * NULL + ctx failed on OOM. */
float *tfc_conv_widen_copy(tfc_kernel_ctx *ctx, const tfc_tensor *x);

/* ---------------------------------------------------------------- conv_gemm.c */

/* Fast Conv2D forward for float or double (type t): im2col tiles multiplied
 * by the filter through the BLAS, 1x1/stride-1/unpadded convolutions as one
 * direct GEMM, tiles split across the intra-op pool. out is fully written.
 * false + ctx failed on OOM. */
bool tfc_conv2d_fwd_gemm(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g, const void *in,
                         const void *filter, void *out);
/* Fast Conv2D input gradient (float/double): dx = col2im(dy x filter^T),
 * band by band. dx is fully written. false + ctx failed on OOM. */
bool tfc_conv2d_bwd_input_gemm(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g,
                               const void *filter, const void *dy, void *dx);
/* Fast Conv2D filter gradient (float/double): dfilter = im2col(in)^T x dy,
 * summed over the batch. dfilter is fully written. false + ctx failed on OOM. */
bool tfc_conv2d_bwd_filter_gemm(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g,
                                const void *in, const void *dy, void *dfilter);

/* ---------------------------------------------------------------- conv_dnn.c */

/* Primitives of the DNN library that one kernel instance has created, keyed
 * by pass and geometry; safe to use from concurrent steps. */
typedef struct tfc_conv_dnn_cache tfc_conv_dnn_cache;

/* True when float convolutions should go through the DNN library: it is
 * usable and the environment does not say TFC_CONV_BACKEND=openblas. */
bool tfc_conv_dnn_wanted(void);
/* An empty cache; NULL on OOM. */
tfc_conv_dnn_cache *tfc_conv_dnn_cache_new(void);
/* Frees a cache and its primitives; NULL is a no-op. */
void tfc_conv_dnn_cache_free(tfc_conv_dnn_cache *c);
/* Runs one float convolution pass (operands as tfc_conv_pass says; depthwise
 * for DepthwiseConv2dNative filters) through the DNN library, the batch split
 * across the intra-op pool, creating and caching primitives in cache.
 * Returns 1 when done (out fully written), 0 when the library should not or
 * cannot do it (cache NULL, a case where the BLAS kernels measured faster,
 * an unsupported shape: the caller uses its own kernel), -1 with
 * ctx failed on a library error. */
int tfc_conv_dnn_run(tfc_kernel_ctx *ctx, tfc_conv_dnn_cache *cache, tfc_conv_pass pass,
                     bool depthwise, const tfc_conv_geom *g, const float *a, const float *b,
                     float *out);

/* Same as tfc_conv_dnn_run for the forward pass, with the epilogue ep
 * (bias, residual add, activation, constant-filter hint) done by the
 * library in the same pass; ep may be NULL. */
int tfc_conv_dnn_fwd(tfc_kernel_ctx *ctx, tfc_conv_dnn_cache *cache, bool depthwise,
                     const tfc_conv_geom *g, const float *in, const float *filter,
                     const tfc_conv_epilogue *ep, float *out);

/* ---------------------------------------------------------------- conv.c */

/* Checks the attrs and the input (0) and filter (1) tensors of a Conv2D-like
 * (depthwise false) or DepthwiseConv2dNative-like node with the messages of
 * TF's CPU kernels (op names the op in the NHWC-only message) and fills *g.
 * false + ctx failed when they do not describe a valid convolution. */
bool tfc_conv_fwd_geom(tfc_kernel_ctx *ctx, bool depthwise, const char *op, tfc_conv_geom *g);

/* ---------------------------------------------------------------- conv_fused.c */

/* Kernel functions of _FusedConv2D and _FusedDepthwiseConv2dNative
 * (convolution + BiasAdd or inference FusedBatchNorm + optional Add of a
 * same-shape tensor + optional Relu/Relu6). */
bool tfc_fused_conv_init(const tfc_kernel_init *ki, void **state);
void tfc_fused_conv_compute(tfc_kernel_ctx *ctx);
void tfc_fused_conv_destroy(void *state);

/* ---------------------------------------------------------------- conv_ref.c */

/* Direct-loop Conv2D forward for float, double or int32 (int32 wraps):
 * the reference the fast kernels are tested against, and the kernel for
 * int32 and for shapes too large for the BLAS. Single-threaded. */
void tfc_conv2d_fwd_ref(tfc_dtype t, const tfc_conv_geom *g, const void *in, const void *filter,
                        void *out);
/* Direct-loop Conv2D input gradient (float, double or int32). */
void tfc_conv2d_bwd_input_ref(tfc_dtype t, const tfc_conv_geom *g, const void *filter,
                              const void *dy, void *dx);
/* Direct-loop Conv2D filter gradient (float, double or int32). */
void tfc_conv2d_bwd_filter_ref(tfc_dtype t, const tfc_conv_geom *g, const void *in,
                               const void *dy, void *dfilter);

/* ---------------------------------------------------------------- conv_depthwise.c */

/* Depthwise convolution forward (float/double), parallel over output rows. */
void tfc_depthwise_fwd(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g, const void *in,
                       const void *filter, void *out);
/* Depthwise input gradient (float/double), parallel over input rows. */
void tfc_depthwise_bwd_input(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g,
                             const void *filter, const void *dy, void *dx);
/* Depthwise filter gradient (float/double); false + ctx failed on OOM. */
bool tfc_depthwise_bwd_filter(tfc_kernel_ctx *ctx, tfc_dtype t, const tfc_conv_geom *g,
                              const void *in, const void *dy, void *dfilter);

/* ---------------------------------------------------------------- pool.c / batchnorm.c */

/* MaxPool and MaxPoolV2 (ksize/strides from inputs 1 and 2). */
void tfc_max_pool_compute(tfc_kernel_ctx *ctx);
/* MaxPoolGrad and MaxPoolGradV2. */
void tfc_max_pool_grad_compute(tfc_kernel_ctx *ctx);
/* AvgPool. */
void tfc_avg_pool_compute(tfc_kernel_ctx *ctx);
/* AvgPoolGrad. */
void tfc_avg_pool_grad_compute(tfc_kernel_ctx *ctx);
/* FusedBatchNorm, FusedBatchNormV2, FusedBatchNormV3. */
void tfc_fused_batch_norm_compute(tfc_kernel_ctx *ctx);
/* FusedBatchNormGrad, FusedBatchNormGradV2, FusedBatchNormGradV3. */
void tfc_fused_batch_norm_grad_compute(tfc_kernel_ctx *ctx);

#endif
