/*
 * conv_winograd.h — Winograd F(4x4, 3x3) forward convolution
 * (kernels/conv_winograd.c) for 3x3, stride-1, undilated float NHWC
 * convolutions with a constant filter: the filter is transformed once,
 * each call transforms the input tiles, multiplies through the BLAS and
 * transforms back with the bias, residual and activation of the fused ops.
 */
#ifndef TFC_KERNELS_CONV_WINOGRAD_H
#define TFC_KERNELS_CONV_WINOGRAD_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/conv_internal.h"

/* True when the kernel can compute geometry *g: a 3x3 filter, stride 1,
 * dilation 1, input and output depths multiples of 8, a non-empty output. */
bool tfc_wino_supported(const tfc_conv_geom *g);

/* True when *g is supported and of a shape where the kernel measured faster
 * than the DNN library (docs/compute.md), unless TFC_CONV_WINOGRAD=0. */
bool tfc_wino_wanted(const tfc_conv_geom *g);

/* Writes the transformed filter u [36][C][K] of w [3][3][C][K] (HWIO). */
void tfc_wino_filter(const float *w, int64_t C, int64_t K, float *u);

/* Output tiles (4x4 pixel blocks, batch included) of geometry *g. */
int64_t tfc_wino_tiles(const tfc_conv_geom *g);

/* Floats of scratch tfc_wino_run needs for tiles [t0, t1). */
int64_t tfc_wino_scratch_floats(const tfc_conv_geom *g, int64_t t0, int64_t t1);

/* Computes output tiles [t0, t1) (numbered image by image, row-major) of
 * the convolution of in (NHWC) with the filter transformed into u, adding
 * bias [K] (or NULL) and residual (a tensor of the output's shape, or
 * NULL), then applying act, into out (NHWC). scratch holds
 * tfc_wino_scratch_floats(g, t0, t1) floats. Tile ranges are independent:
 * threads may run disjoint ones at once. */
void tfc_wino_run(const tfc_conv_geom *g, const float *in, const float *u, const float *bias,
                  const float *residual, tfc_conv_act act, int64_t t0, int64_t t1, float *scratch,
                  float *out);

#endif
