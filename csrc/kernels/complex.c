/*
 * complex.c — CPU kernels of the complex-number ops: Complex (real and
 * imaginary parts, NumPy-broadcast, into complex64/complex128), Real, Imag,
 * Angle (atan2(imag, real)), ComplexAbs (hypot), Conj and ConjugateTranspose
 * (Transpose's kernel, then the conjugate for complex types).
 *
 * The part types follow the complex type (complex64 <-> float, complex128 <->
 * double), as TF's attrs T/Tout require; a mismatched pair is refused with
 * TF's kernel-lookup error by the type lists below and the op's attrs.
 */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "kernels/array_internal.h"
#include "kernels/elementwise_internal.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* ---------------------------------------------------------------- Complex */

/* Plan-driver inner loop of Complex: out[i] = re[i] + i*im[i]. arg points to
 * the element type (float or double). */
static int complex_inner(void *arg, const char *const *in, const int *step, char *out, int64_t n) {
  tfc_dtype part = *(const tfc_dtype *)arg;
  if (part == TFC_DTYPE_FLOAT) {
    const float *re = (const float *)(const void *)in[0], *im = (const float *)(const void *)in[1];
    float *o = (float *)(void *)out;
    for (int64_t i = 0; i < n; i++) o[2 * i] = re[i * step[0]], o[2 * i + 1] = im[i * step[1]];
  } else {
    const double *re = (const double *)(const void *)in[0],
                 *im = (const double *)(const void *)in[1];
    double *o = (double *)(void *)out;
    for (int64_t i = 0; i < n; i++) o[2 * i] = re[i * step[0]], o[2 * i + 1] = im[i * step[1]];
  }
  return 0;
}

/* Complex(real, imag) -> out of type Tout, broadcasting real against imag. */
static void complex_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *re = ctx->inputs[0], *im = ctx->inputs[1];
  tfc_dtype out_t;
  if (!tfc_attrs_get_type(ctx->attrs, "Tout", &out_t, ctx->st)) return;
  tfc_dtype want = out_t == TFC_DTYPE_COMPLEX64 ? TFC_DTYPE_FLOAT : TFC_DTYPE_DOUBLE;
  if (re->dtype != want) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Complex: parts of type %s cannot build %s",
                    tfc_dtype_name(re->dtype), tfc_dtype_name(out_t));
    return;
  }
  const tfc_tensor *ins[2] = {re, im};
  tfc_ew_plan plan;
  if (!tfc_ew_plan_make(&plan, 2, ins)) {
    char sa[400], sb[400];
    tfc_ew_dims_string(re->rank, re->dims, sa, sizeof sa);
    tfc_ew_dims_string(im->rank, im->dims, sb, sizeof sb);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s", sa, sb);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, out_t, plan.out_rank, plan.out_dims);
  if (!out || plan.nelems == 0) return;
  const void *in[2] = {re->data, im->data};
  size_t esz[2] = {tfc_dtype_size(want), tfc_dtype_size(want)};
  tfc_ew_report(ctx, tfc_ew_plan_run(ctx, &plan, in, esz, out->data, tfc_dtype_size(out_t),
                                     TFC_EW_SHARD, complex_inner, &want));
}

/* ---------------------------------------------------------------- complex -> real */

typedef enum part_op { PART_REAL, PART_IMAG, PART_ANGLE, PART_ABS } part_op;

typedef struct part_job {
  part_op op;
  tfc_dtype t;  /* the complex input type */
  const void *in;
  void *out;
} part_job;

/* Computes elements [b, e) of a complex -> real job. */
static void part_shard(void *arg, int64_t b, int64_t e) {
  const part_job *j = arg;
  if (j->t == TFC_DTYPE_COMPLEX64) {
    const float *x = j->in;
    float *o = j->out;
    for (int64_t i = b; i < e; i++) {
      float re = x[2 * i], im = x[2 * i + 1];
      o[i] = j->op == PART_REAL ? re : j->op == PART_IMAG ? im
                                   : j->op == PART_ANGLE ? atan2f(im, re) : hypotf(re, im);
    }
  } else {
    const double *x = j->in;
    double *o = j->out;
    for (int64_t i = b; i < e; i++) {
      double re = x[2 * i], im = x[2 * i + 1];
      o[i] = j->op == PART_REAL ? re : j->op == PART_IMAG ? im
                                   : j->op == PART_ANGLE ? atan2(im, re) : hypot(re, im);
    }
  }
}

/* The shared compute of Real, Imag, Angle and ComplexAbs. */
static void part_compute(tfc_kernel_ctx *ctx, part_op op) {
  const tfc_tensor *x = ctx->inputs[0];
  tfc_dtype out_t;
  if (!tfc_attrs_get_type(ctx->attrs, "Tout", &out_t, ctx->st)) return;
  tfc_dtype want = x->dtype == TFC_DTYPE_COMPLEX64 ? TFC_DTYPE_FLOAT : TFC_DTYPE_DOUBLE;
  if (out_t != want) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: the part of %s is %s, not %s",
                    ctx->op_type, tfc_dtype_name(x->dtype), tfc_dtype_name(want),
                    tfc_dtype_name(out_t));
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, out_t, x->rank, x->dims);
  if (!out || x->nelems == 0) return;
  part_job j = {op, x->dtype, x->data, out->data};
  tfc_kernel_parallel_for(ctx, x->nelems,
                          op == PART_REAL || op == PART_IMAG ? TFC_EW_SHARD : TFC_EW_SHARD_HEAVY,
                          part_shard, &j);
}

/* Real: the real parts. */
static void real_compute(tfc_kernel_ctx *ctx) { part_compute(ctx, PART_REAL); }
/* Imag: the imaginary parts. */
static void imag_compute(tfc_kernel_ctx *ctx) { part_compute(ctx, PART_IMAG); }
/* Angle: the arguments atan2(imag, real). */
static void angle_compute(tfc_kernel_ctx *ctx) { part_compute(ctx, PART_ANGLE); }
/* ComplexAbs: the magnitudes, without intermediate overflow. */
static void complex_abs_compute(tfc_kernel_ctx *ctx) { part_compute(ctx, PART_ABS); }

/* ---------------------------------------------------------------- Conj */

typedef struct conj_job {
  const char *in;
  char *out;
  size_t part;  /* bytes of one part (4 or 8) */
} conj_job;

/* Conjugates elements [b, e). */
static void conj_shard(void *arg, int64_t b, int64_t e) {
  const conj_job *j = arg;
  if (j->part == 4) {
    const float *x = (const float *)(const void *)j->in;
    float *o = (float *)(void *)j->out;
    for (int64_t i = b; i < e; i++) o[2 * i] = x[2 * i], o[2 * i + 1] = -x[2 * i + 1];
  } else {
    const double *x = (const double *)(const void *)j->in;
    double *o = (double *)(void *)j->out;
    for (int64_t i = b; i < e; i++) o[2 * i] = x[2 * i], o[2 * i + 1] = -x[2 * i + 1];
  }
}

/* Conj: complex conjugate, same type and shape. */
static void conj_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, x->dtype, x->rank, x->dims);
  if (!out || x->nelems == 0) return;
  conj_job j = {x->data, out->data, tfc_dtype_size(x->dtype) / 2};
  tfc_kernel_parallel_for(ctx, x->nelems, TFC_EW_SHARD, conj_shard, &j);
}

/* ConjugateTranspose(x, perm): Transpose, conjugated for complex types (into
 * a fresh buffer when the transpose only relabelled the input's). */
static void conjugate_transpose_compute(tfc_kernel_ctx *ctx) {
  arr_transpose_compute(ctx);
  const tfc_tensor *x = ctx->inputs[0];
  tfc_tensor *t = ctx->outputs[0];
  if (!tfc_kernel_ok(ctx) || !t || t->nelems == 0 || !tfc_dtype_is_complex(x->dtype)) return;
  conj_job j = {t->data, t->data, tfc_dtype_size(x->dtype) / 2};
  if (t->data == x->data) {
    tfc_tensor *fresh = tfc_tensor_new(t->dtype, t->rank, t->dims, ctx->st);
    if (!fresh) return;
    j.out = fresh->data;
    tfc_kernel_parallel_for(ctx, t->nelems, TFC_EW_SHARD, conj_shard, &j);
    tfc_kernel_set_output(ctx, 0, fresh);
    return;
  }
  tfc_kernel_parallel_for(ctx, t->nelems, TFC_EW_SHARD, conj_shard, &j);
}

/* ---------------------------------------------------------------- table */

static const tfc_dtype k_parts[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};
static const tfc_dtype k_complex[] = {TFC_DTYPE_COMPLEX64, TFC_DTYPE_COMPLEX128,
                                      TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"Complex", "CPU", "T", k_parts, NULL, complex_compute, NULL, 0},
    {"Real", "CPU", "T", k_complex, NULL, real_compute, NULL, 0},
    {"Imag", "CPU", "T", k_complex, NULL, imag_compute, NULL, 0},
    {"Angle", "CPU", "T", k_complex, NULL, angle_compute, NULL, 0},
    {"ComplexAbs", "CPU", "T", k_complex, NULL, complex_abs_compute, NULL, 0},
    {"Conj", "CPU", "T", k_complex, NULL, conj_compute, NULL, 0},
    {"ConjugateTranspose", "CPU", NULL, NULL, NULL, conjugate_transpose_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_complex = {defs, (int)(sizeof defs / sizeof defs[0])};
