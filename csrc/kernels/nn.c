/*
 * nn.c — CPU kernels for the NN activation family: Relu, Relu6, Elu, Selu,
 * LeakyRelu, Softplus, Softsign and their gradients, Softmax, LogSoftmax,
 * BiasAdd(V1), BiasAddGrad, L2Loss, SoftmaxCrossEntropyWithLogits and
 * SparseSoftmaxCrossEntropyWithLogits.
 *
 * Math is done in float for float/half/bfloat16 (16-bit types are widened in
 * small stack blocks) and in double for double; Relu, Relu6 and their
 * gradients also take integer types. Softmax-like ops work row by row along
 * the last axis with the max subtracted first, so they do not overflow.
 * Sums that produce a single value (L2Loss, BiasAddGrad) accumulate in double.
 * Big loops are split over the intra-op pool.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* Elements per shard of an elementwise loop. */
#define EW_SHARD ((int64_t)1 << 14)
/* Floats converted at a time for 16-bit types. */
#define BLK 256

static const double kSeluScale = 1.0507009873554804934193349852946;
static const double kSeluAlpha = 1.6732632423543772848170429916717;

/* ---------------------------------------------------------------- small helpers */

/* Formats t's dims as TF's "[2,3]" into buf. */
static void dims_str(const tfc_tensor *t, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < t->rank && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? "," : "", (long long)t->dims[i]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* Widens n half/bfloat16 values to float. */
static void widen16(tfc_dtype t, const uint16_t *src, float *dst, int64_t n) {
  if (t == TFC_DTYPE_HALF)
    for (int64_t i = 0; i < n; i++) dst[i] = tfc_half_to_float(src[i]);
  else
    for (int64_t i = 0; i < n; i++) dst[i] = tfc_bfloat16_to_float(src[i]);
}

/* Rounds n floats to half/bfloat16. */
static void narrow16(tfc_dtype t, const float *src, uint16_t *dst, int64_t n) {
  if (t == TFC_DTYPE_HALF)
    for (int64_t i = 0; i < n; i++) dst[i] = tfc_float_to_half(src[i]);
  else
    for (int64_t i = 0; i < n; i++) dst[i] = tfc_float_to_bfloat16(src[i]);
}

/* True for half and bfloat16. */
static inline bool is16(tfc_dtype t) { return t == TFC_DTYPE_HALF || t == TFC_DTYPE_BFLOAT16; }

/* The float attr `alpha` (0.2 when absent). */
static float attr_alpha(const tfc_kernel_ctx *ctx) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "alpha");
  return v && v->kind == TFC_ATTR_F ? v->v.f : 0.2f;
}

/* ---------------------------------------------------------------- activations */

typedef enum act_kind {
  A_RELU, A_RELU6, A_ELU, A_SELU, A_LEAKY, A_SOFTPLUS, A_SOFTSIGN,
  /* gradients: out = f(g, x) */
  G_RELU, G_RELU6, G_ELU, G_SELU, G_LEAKY, G_SOFTPLUS, G_SOFTSIGN
} act_kind;

/* ---------------------------------------------------------------- exp */

/* 16 floats as one vector (GCC/Clang vector extensions); the compiler maps
 * it onto AVX-512, AVX2 or SSE registers. */
typedef float v16sf __attribute__((vector_size(64)));
typedef int32_t v16si __attribute__((vector_size(64)));

/* Lane-wise m ? a : b for an all-ones/all-zeros mask m. (Vectors are only
 * ever locals or passed by pointer: passing 64-byte vectors by value would
 * depend on the target's ABI when AVX-512 is not enabled.) */
#define VSEL(m, a, b) ((v16sf)(((v16si)(a) & (m)) | ((v16si)(b) & ~(m))))

/* exp of 16 floats in place, within 1 ulp of the true value: Cody-Waite
 * reduction x = n ln2 + r, a degree-6 polynomial for exp(r), and 2^n applied
 * in two halves so results down to the denormals are right. Overflow gives
 * inf, deep underflow 0, NaN stays NaN. (glibc's expf is not vectorised
 * without -ffast-math; this is about 3x faster.) */
static inline void vexp16(v16sf *v) {
  const v16sf hi = (v16sf){0} + 88.7228394f, lo = (v16sf){0} + -104.0f;
  v16sf x = *v;
  v16si nan = x != x;
  v16sf xc = (v16sf)((v16si)x & ~nan);
  xc = VSEL(xc > hi, hi, xc);
  xc = VSEL(xc < lo, lo, xc);
  v16sf t = xc * 1.44269504088896341f + 0.5f;
  v16si ti = __builtin_convertvector(t, v16si);
  ti += (v16si)(__builtin_convertvector(ti, v16sf) > t); /* truncation -> floor */
  v16sf n = __builtin_convertvector(ti, v16sf);
  v16sf r = xc - n * 0.693359375f;
  r = r + n * 2.12194440e-4f;
  v16sf p = r * 1.9875691500e-4f + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  v16si n1 = ti >> 1, n2 = ti - n1;
  v16sf y = p * (v16sf)((n1 + 127) << 23) * (v16sf)((n2 + 127) << 23);
  y = VSEL(x > hi, (v16sf){0} + INFINITY, y);
  *v = VSEL(nan, x, y);
}

/* y[i] = exp(x[i]) for n floats (x and y may be the same array). */
static void exp_f32(const float *x, float *y, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    v16sf v;
    memcpy(&v, x + i, sizeof v);
    vexp16(&v);
    memcpy(y + i, &v, sizeof v);
  }
  if (i < n) {
    v16sf v = {0};
    memcpy(&v, x + i, (size_t)(n - i) * sizeof(float));
    vexp16(&v);
    memcpy(y + i, &v, (size_t)(n - i) * sizeof(float));
  }
}

/* y[i] = exp(x[i]) for n doubles (libm). */
static void exp_f64(const double *x, double *y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = exp(x[i]);
}

/* Largest of n >= 1 floats; NaN if any is NaN. */
static float max_f32(const float *x, int64_t n) {
  v16sf m = (v16sf){0} + -INFINITY;
  v16si nan = {0};
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    v16sf v;
    memcpy(&v, x + i, sizeof v);
    m = VSEL(v > m, v, m);
    nan |= v != v;
  }
  float r = -INFINITY;
  bool has_nan = false;
  for (int j = 0; j < 16; j++) {
    if (m[j] > r) r = m[j];
    has_nan |= nan[j] != 0;
  }
  for (; i < n; i++) {
    if (x[i] > r) r = x[i];
    has_nan |= x[i] != x[i];
  }
  return has_nan ? NAN : r;
}

/* Largest of n >= 1 doubles; NaN if any is NaN. */
static double max_f64(const double *x, int64_t n) {
  double r = x[0];
  for (int64_t i = 1; i < n; i++)
    if (x[i] > r || x[i] != x[i]) r = x[i];
  return r;
}

/* Sum of n floats, in double with 16 independent accumulators. */
static double sum_f32(const float *x, int64_t n) {
  double a[16] = {0};
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 16; j++) a[j] += x[i + j];
  double s = 0;
  for (; i < n; i++) s += x[i];
  for (int j = 0; j < 16; j++) s += a[j];
  return s;
}

/* Sum of n doubles with 8 independent accumulators. */
static double sum_f64(const double *x, int64_t n) {
  double a[8] = {0};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; j++) a[j] += x[i + j];
  double s = 0;
  for (; i < n; i++) s += x[i];
  for (int j = 0; j < 8; j++) s += a[j];
  return s;
}

/* Defines act_<SUF>(k, x, g, y, n, alpha): the activation k of x into y, or
 * for gradient kinds the backprop from gradients g and x (features, or the
 * forward outputs for Elu/Selu), for a floating type T whose array exp is
 * EXPV, with scalar LOG1P. Formulas follow TF's functors (NaN passes through
 * Relu and Relu6; Elu is exp(x) - 1 as in TF). Exponentials are taken in
 * blocks of BLK into a stack buffer. */
#define DEFINE_ACT(SUF, T, EXPV, LOG1P)                                                      \
  static void act_##SUF(act_kind k, const T *x, const T *g, T *y, int64_t n, T alpha) {      \
    const T scale = (T)kSeluScale, salpha = (T)(kSeluScale * kSeluAlpha);                    \
    const T th = (T)(log(sizeof(T) == 4 ? 1.1920928955078125e-07 : 2.220446049250313e-16) + 2); \
    T e[BLK];                                                                                 \
    switch (k) {                                                                              \
      case A_RELU: for (int64_t i = 0; i < n; i++) y[i] = x[i] < 0 ? 0 : x[i]; break;         \
      case A_RELU6:                                                                           \
        for (int64_t i = 0; i < n; i++) y[i] = x[i] < 0 ? 0 : x[i] > 6 ? 6 : x[i];            \
        break;                                                                                \
      case A_LEAKY: for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : x[i] * alpha; break; \
      case A_SOFTSIGN:                                                                        \
        for (int64_t i = 0; i < n; i++) y[i] = x[i] / (1 + (x[i] < 0 ? -x[i] : x[i]));        \
        break;                                                                                \
      case A_ELU: case A_SELU: case A_SOFTPLUS: case G_SOFTPLUS:                              \
        for (int64_t i0 = 0; i0 < n; i0 += BLK) {                                             \
          int64_t m = n - i0 < BLK ? n - i0 : BLK;                                            \
          const T *xb = x + i0;                                                               \
          T *yb = y + i0;                                                                     \
          if (k == G_SOFTPLUS) {                                                              \
            for (int64_t i = 0; i < m; i++) e[i] = -xb[i];                                    \
            EXPV(e, e, m);                                                                    \
          } else {                                                                            \
            EXPV(xb, e, m);                                                                   \
          }                                                                                   \
          if (k == A_ELU)                                                                     \
            for (int64_t i = 0; i < m; i++) yb[i] = xb[i] < 0 ? e[i] - 1 : xb[i];             \
          else if (k == A_SELU)                                                               \
            for (int64_t i = 0; i < m; i++) yb[i] = xb[i] < 0 ? salpha * (e[i] - 1) : scale * xb[i]; \
          else if (k == A_SOFTPLUS)                                                           \
            for (int64_t i = 0; i < m; i++)                                                   \
              yb[i] = xb[i] > -th ? xb[i] : xb[i] < th ? e[i] : LOG1P(e[i]);                  \
          else                                                                                \
            for (int64_t i = 0; i < m; i++) yb[i] = g[i0 + i] / (1 + e[i]);                   \
        }                                                                                     \
        break;                                                                                \
      case G_RELU: for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? g[i] : 0; break;         \
      case G_RELU6:                                                                           \
        for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 && x[i] < 6 ? g[i] : 0;               \
        break;                                                                                \
      case G_ELU: for (int64_t i = 0; i < n; i++) y[i] = x[i] < 0 ? g[i] * (x[i] + 1) : g[i]; break; \
      case G_SELU:                                                                            \
        for (int64_t i = 0; i < n; i++)                                                       \
          y[i] = x[i] < 0 ? g[i] * (x[i] + salpha) : g[i] * scale;                            \
        break;                                                                                \
      case G_LEAKY: for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? g[i] : g[i] * alpha; break; \
      case G_SOFTSIGN:                                                                        \
        for (int64_t i = 0; i < n; i++) {                                                     \
          T d = 1 + (x[i] < 0 ? -x[i] : x[i]);                                                \
          y[i] = g[i] / (d * d);                                                              \
        }                                                                                     \
        break;                                                                                \
    }                                                                                         \
  }

DEFINE_ACT(f32, float, exp_f32, log1pf)
DEFINE_ACT(f64, double, exp_f64, log1p)

/* Defines act_<SUF> for an integer type (Relu, Relu6 and their gradients). */
#define DEFINE_ACT_INT(SUF, T)                                                              \
  static void act_##SUF(act_kind k, const T *x, const T *g, T *y, int64_t n) {              \
    switch (k) {                                                                            \
      case A_RELU: for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0; break;       \
      case A_RELU6: for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? (x[i] > 6 ? 6 : x[i]) : 0; break; \
      case G_RELU: for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? g[i] : 0; break;       \
      case G_RELU6: for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 && x[i] < 6 ? g[i] : 0; break; \
      default: break;                                                                       \
    }                                                                                       \
  }
DEFINE_ACT_INT(i8, int8_t)
DEFINE_ACT_INT(i16, int16_t)
DEFINE_ACT_INT(i32, int32_t)
DEFINE_ACT_INT(i64, int64_t)
DEFINE_ACT_INT(u8, uint8_t)
DEFINE_ACT_INT(u16, uint16_t)
DEFINE_ACT_INT(u32, uint32_t)
DEFINE_ACT_INT(u64, uint64_t)

typedef struct act_job {
  act_kind k;
  tfc_dtype t;
  const void *x, *g;
  void *y;
  float alpha;
} act_job;

/* Elements [b, e) of an activation job. */
static void act_shard(void *arg, int64_t b, int64_t e) {
  const act_job *j = arg;
  size_t es = tfc_dtype_size(j->t);
  const char *x = (const char *)j->x + (size_t)b * es;
  const char *g = j->g ? (const char *)j->g + (size_t)b * es : NULL;
  char *y = (char *)j->y + (size_t)b * es;
  int64_t n = e - b;
  switch (j->t) {
    case TFC_DTYPE_FLOAT: act_f32(j->k, (const float *)x, (const float *)g, (float *)y, n, j->alpha); break;
    case TFC_DTYPE_DOUBLE:
      act_f64(j->k, (const double *)x, (const double *)g, (double *)y, n, (double)j->alpha);
      break;
    case TFC_DTYPE_HALF: case TFC_DTYPE_BFLOAT16: {
      float xb[BLK], gb[BLK], yb[BLK];
      for (int64_t i = 0; i < n; i += BLK) {
        int64_t m = n - i < BLK ? n - i : BLK;
        widen16(j->t, (const uint16_t *)x + i, xb, m);
        if (g) widen16(j->t, (const uint16_t *)g + i, gb, m);
        act_f32(j->k, xb, gb, yb, m, j->alpha);
        narrow16(j->t, yb, (uint16_t *)y + i, m);
      }
      break;
    }
#define INT_CASE(DT, SUF, T) \
  case DT: act_##SUF(j->k, (const T *)x, (const T *)g, (T *)y, n); break;
    INT_CASE(TFC_DTYPE_INT8, i8, int8_t)
    INT_CASE(TFC_DTYPE_INT16, i16, int16_t)
    INT_CASE(TFC_DTYPE_INT32, i32, int32_t)
    INT_CASE(TFC_DTYPE_INT64, i64, int64_t)
    INT_CASE(TFC_DTYPE_UINT8, u8, uint8_t)
    INT_CASE(TFC_DTYPE_UINT16, u16, uint16_t)
    INT_CASE(TFC_DTYPE_UINT32, u32, uint32_t)
    INT_CASE(TFC_DTYPE_UINT64, u64, uint64_t)
#undef INT_CASE
    default: break;
  }
}

/* Runs activation (or, with two inputs, gradient) kind k over the inputs. */
static void act_compute(tfc_kernel_ctx *ctx, act_kind k) {
  tfc_tensor *x = ctx->inputs[k >= G_RELU ? 1 : 0];
  tfc_tensor *g = k >= G_RELU ? ctx->inputs[0] : NULL;
  if (g && !tfc_tensor_same_shape(g, x)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "g and a must be the same size");
    return;
  }
  tfc_dtype t = x->dtype;
  bool is_float = t == TFC_DTYPE_FLOAT || t == TFC_DTYPE_DOUBLE || is16(t);
  if (!is_float && !(k == A_RELU || k == A_RELU6 || k == G_RELU || k == G_RELU6)) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "%s is not implemented for %s", ctx->op_type,
                    tfc_dtype_name(t));
    return;
  }
  tfc_tensor *y = tfc_kernel_alloc_output(ctx, 0, t, x->rank, x->dims);
  if (!y || y->nelems == 0) return;
  act_job j = {.k = k, .t = t, .x = x->data, .g = g ? g->data : NULL, .y = y->data,
               .alpha = attr_alpha(ctx)};
  bool cheap = k == A_RELU || k == A_RELU6 || k == A_LEAKY || k == G_RELU || k == G_RELU6 || k == G_LEAKY;
  tfc_kernel_parallel_for(ctx, x->nelems, cheap && !is16(t) ? 4 * EW_SHARD : EW_SHARD / 4, act_shard, &j);
}

/* Relu: max(x, 0). */
static void relu_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, A_RELU); }
/* Relu6: min(max(x, 0), 6). */
static void relu6_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, A_RELU6); }
/* Elu: x < 0 ? exp(x) - 1 : x. */
static void elu_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, A_ELU); }
/* Selu: scale * (x < 0 ? alpha * (exp(x) - 1) : x). */
static void selu_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, A_SELU); }
/* LeakyRelu: x > 0 ? x : alpha * x. */
static void leaky_relu_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, A_LEAKY); }
/* Softplus: log(1 + exp(x)), computed without overflow. */
static void softplus_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, A_SOFTPLUS); }
/* Softsign: x / (1 + |x|). */
static void softsign_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, A_SOFTSIGN); }
/* ReluGrad: gradients where features > 0. */
static void relu_grad_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, G_RELU); }
/* Relu6Grad: gradients where 0 < features < 6. */
static void relu6_grad_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, G_RELU6); }
/* EluGrad: from the forward outputs. */
static void elu_grad_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, G_ELU); }
/* SeluGrad: from the forward outputs. */
static void selu_grad_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, G_SELU); }
/* LeakyReluGrad: gradients, scaled by alpha where features <= 0. */
static void leaky_relu_grad_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, G_LEAKY); }
/* SoftplusGrad: gradients * sigmoid(features). */
static void softplus_grad_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, G_SOFTPLUS); }
/* SoftsignGrad: gradients / (1 + |features|)^2. */
static void softsign_grad_compute(tfc_kernel_ctx *ctx) { act_compute(ctx, G_SOFTSIGN); }

/* ---------------------------------------------------------------- softmax */

/* Defines softmax_row_<SUF>(x, y, n, log): a numerically stable (log-)softmax
 * of one row of n values in type T (array exp EXPV, sum SUMV, max MAXV), with the max
 * subtracted first and the sum accumulated in double. */
#define DEFINE_SOFTMAX_ROW(SUF, T, EXPV, SUMV, MAXV)                          \
  static void softmax_row_##SUF(const T *x, T *y, int64_t n, bool log_sm) {   \
    T mx = MAXV(x, n);                                                        \
    double sum = 0;                                                           \
    if (log_sm) {                                                             \
      T e[BLK];                                                               \
      for (int64_t i0 = 0; i0 < n; i0 += BLK) {                               \
        int64_t m = n - i0 < BLK ? n - i0 : BLK;                              \
        for (int64_t i = 0; i < m; i++) y[i0 + i] = x[i0 + i] - mx;           \
        EXPV(y + i0, e, m);                                                   \
        sum += SUMV(e, m);                                                    \
      }                                                                       \
      T ls = (T)log(sum);                                                     \
      for (int64_t i = 0; i < n; i++) y[i] -= ls;                             \
    } else {                                                                  \
      for (int64_t i = 0; i < n; i++) y[i] = x[i] - mx;                       \
      EXPV(y, y, n);                                                          \
      sum = SUMV(y, n);                                                       \
      T inv = (T)(1 / sum);                                                   \
      for (int64_t i = 0; i < n; i++) y[i] *= inv;                            \
    }                                                                         \
  }
DEFINE_SOFTMAX_ROW(f32, float, exp_f32, sum_f32, max_f32)
DEFINE_SOFTMAX_ROW(f64, double, exp_f64, sum_f64, max_f64)

typedef struct softmax_job {
  tfc_dtype t;
  const void *x;
  void *y;
  int64_t n;  /* row length */
  bool log_sm;
  atomic_int oom; /* set when a shard could not get its scratch row */
} softmax_job;

/* Rows [b, e) of a softmax job (16-bit types go through a float scratch row
 * pair owned by the shard). */
static void softmax_shard(void *arg, int64_t b, int64_t e) {
  softmax_job *j = arg;
  int64_t n = j->n;
  if (j->t == TFC_DTYPE_FLOAT) {
    for (int64_t r = b; r < e; r++)
      softmax_row_f32((const float *)j->x + r * n, (float *)j->y + r * n, n, j->log_sm);
  } else if (j->t == TFC_DTYPE_DOUBLE) {
    for (int64_t r = b; r < e; r++)
      softmax_row_f64((const double *)j->x + r * n, (double *)j->y + r * n, n, j->log_sm);
  } else {
    float *xs = tfc_aligned_alloc((size_t)(2 * n) * sizeof(float));
    if (!xs) {
      atomic_store(&j->oom, 1);
      return;
    }
    for (int64_t r = b; r < e; r++) {
      widen16(j->t, (const uint16_t *)j->x + r * n, xs, n);
      softmax_row_f32(xs, xs + n, n, j->log_sm);
      narrow16(j->t, xs + n, (uint16_t *)j->y + r * n, n);
    }
    tfc_aligned_free(xs);
  }
}

/* Softmax / LogSoftmax along the last axis. */
static void softmax_impl(tfc_kernel_ctx *ctx, bool log_sm) {
  tfc_tensor *x = ctx->inputs[0];
  if (x->rank < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "logits must have >= 1 dimension, got []");
    return;
  }
  tfc_tensor *y = tfc_kernel_alloc_output(ctx, 0, x->dtype, x->rank, x->dims);
  if (!y || y->nelems == 0) return;
  softmax_job j = {.t = x->dtype, .x = x->data, .y = y->data, .n = x->dims[x->rank - 1],
                   .log_sm = log_sm};
  atomic_init(&j.oom, 0);
  int64_t rows = x->nelems / j.n;
  int64_t min_shard = EW_SHARD / 4 / j.n;
  tfc_kernel_parallel_for(ctx, rows, min_shard > 0 ? min_shard : 1, softmax_shard, &j);
  if (atomic_load(&j.oom)) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
}

/* Softmax: exp(x - max) / sum along the last axis. */
static void softmax_compute(tfc_kernel_ctx *ctx) { softmax_impl(ctx, false); }
/* LogSoftmax: (x - max) - log(sum(exp(x - max))) along the last axis. */
static void log_softmax_compute(tfc_kernel_ctx *ctx) { softmax_impl(ctx, true); }

/* ---------------------------------------------------------------- BiasAdd */

typedef struct bias_job {
  tfc_dtype t;
  const void *x, *bias;
  void *y;
  int64_t C, inner;  /* rows of `inner` elements share bias[row % C] */
} bias_job;

/* Defines bias_rows_<SUF>: rows [b, e) of y = x + bias for type T computed in CT. */
#define DEFINE_BIAS(SUF, T, CT)                                                            \
  static void bias_rows_##SUF(const bias_job *j, int64_t b, int64_t e) {                   \
    const T *x = j->x, *bias = j->bias;                                                    \
    T *y = j->y;                                                                           \
    if (j->inner == 1) {                                                                   \
      int64_t C = j->C;                                                                    \
      /* b, e count rows of C elements here. */                                           \
      for (int64_t r = b; r < e; r++)                                                      \
        for (int64_t c = 0; c < C; c++) y[r * C + c] = (T)((CT)x[r * C + c] + (CT)bias[c]); \
    } else {                                                                               \
      for (int64_t r = b; r < e; r++) {                                                    \
        CT bv = (CT)bias[r % j->C];                                                        \
        const T *xr = x + r * j->inner;                                                    \
        T *yr = y + r * j->inner;                                                          \
        for (int64_t i = 0; i < j->inner; i++) yr[i] = (T)((CT)xr[i] + bv);                \
      }                                                                                    \
    }                                                                                      \
  }
DEFINE_BIAS(f32, float, float)
DEFINE_BIAS(f64, double, double)
DEFINE_BIAS(i8, int8_t, uint32_t)
DEFINE_BIAS(i16, int16_t, uint32_t)
DEFINE_BIAS(i32, int32_t, uint32_t)
DEFINE_BIAS(i64, int64_t, uint64_t)
DEFINE_BIAS(u8, uint8_t, uint32_t)
DEFINE_BIAS(u16, uint16_t, uint32_t)
DEFINE_BIAS(u32, uint32_t, uint32_t)
DEFINE_BIAS(u64, uint64_t, uint64_t)

/* Rows [b, e) of a bias job, by type. */
static void bias_shard(void *arg, int64_t b, int64_t e) {
  const bias_job *j = arg;
  switch (j->t) {
    case TFC_DTYPE_FLOAT: bias_rows_f32(j, b, e); break;
    case TFC_DTYPE_DOUBLE: bias_rows_f64(j, b, e); break;
    case TFC_DTYPE_INT8: bias_rows_i8(j, b, e); break;
    case TFC_DTYPE_INT16: bias_rows_i16(j, b, e); break;
    case TFC_DTYPE_INT32: bias_rows_i32(j, b, e); break;
    case TFC_DTYPE_INT64: bias_rows_i64(j, b, e); break;
    case TFC_DTYPE_UINT8: bias_rows_u8(j, b, e); break;
    case TFC_DTYPE_UINT16: bias_rows_u16(j, b, e); break;
    case TFC_DTYPE_UINT32: bias_rows_u32(j, b, e); break;
    case TFC_DTYPE_UINT64: bias_rows_u64(j, b, e); break;
    default: { /* half / bfloat16 */
      int64_t len = j->inner == 1 ? j->C : j->inner;
      float xb[BLK], yb[BLK], bb[BLK];
      for (int64_t r = b; r < e; r++) {
        const uint16_t *xr = (const uint16_t *)j->x + r * len;
        uint16_t *yr = (uint16_t *)j->y + r * len;
        for (int64_t i = 0; i < len; i += BLK) {
          int64_t m = len - i < BLK ? len - i : BLK;
          widen16(j->t, xr + i, xb, m);
          if (j->inner == 1) {
            widen16(j->t, (const uint16_t *)j->bias + i, bb, m);
            for (int64_t q = 0; q < m; q++) yb[q] = xb[q] + bb[q];
          } else {
            float bv;
            widen16(j->t, (const uint16_t *)j->bias + r % j->C, &bv, 1);
            for (int64_t q = 0; q < m; q++) yb[q] = xb[q] + bv;
          }
          narrow16(j->t, yb, yr + i, m);
        }
      }
    }
  }
}

/* BiasAdd / BiasAddV1: adds a vector along the channel dim (last for NHWC,
 * dim 1 for NCHW). */
static void bias_add_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *x = ctx->inputs[0], *bias = ctx->inputs[1];
  bool nchw = tfc_attrs_string_is(ctx->attrs, "data_format", "NCHW");
  char sx[160], sb[160];
  dims_str(x, sx, sizeof sx);
  dims_str(bias, sb, sizeof sb);
  if (x->rank < 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input tensor must be at least 2D: %s", sx);
    return;
  }
  if (bias->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Biases must be 1D: %s", sb);
    return;
  }
  int cdim = nchw ? 1 : x->rank - 1;
  if (bias->dims[0] != x->dims[cdim]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Must provide as many biases as the last dimension of the input tensor: %s vs. %s",
                    sb, sx);
    return;
  }
  tfc_tensor *y = tfc_kernel_alloc_output(ctx, 0, x->dtype, x->rank, x->dims);
  if (!y || y->nelems == 0) return;
  bias_job j = {.t = x->dtype, .x = x->data, .bias = bias->data, .y = y->data, .C = bias->dims[0],
                .inner = 1};
  if (nchw)
    for (int i = 2; i < x->rank; i++) j.inner *= x->dims[i];
  int64_t row_len = j.inner == 1 ? j.C : j.inner;
  int64_t rows = x->nelems / row_len;
  if (nchw && j.inner == 1) {
    /* [N, C] NCHW is NHWC-shaped: one row of C per batch item. */
    rows = x->nelems / j.C;
  }
  int64_t min_shard = 4 * EW_SHARD / (row_len > 0 ? row_len : 1);
  tfc_kernel_parallel_for(ctx, rows, min_shard > 0 ? min_shard : 1, bias_shard, &j);
}

/* ---------------------------------------------------------------- BiasAddGrad */

/* Reads element i of x (type t) as double; integers are exact up to 2^53. */
static inline double load_d(tfc_dtype t, const void *x, int64_t i) {
  switch (t) {
    case TFC_DTYPE_FLOAT: return ((const float *)x)[i];
    case TFC_DTYPE_DOUBLE: return ((const double *)x)[i];
    case TFC_DTYPE_HALF: return tfc_half_to_float(((const uint16_t *)x)[i]);
    case TFC_DTYPE_BFLOAT16: return tfc_bfloat16_to_float(((const uint16_t *)x)[i]);
    default: return 0;
  }
}

/* Reads element i of integer x (type t), wrapped into 64 bits. */
static inline uint64_t load_u(tfc_dtype t, const void *x, int64_t i) {
  switch (t) {
    case TFC_DTYPE_INT8: return (uint64_t)(int64_t)((const int8_t *)x)[i];
    case TFC_DTYPE_INT16: return (uint64_t)(int64_t)((const int16_t *)x)[i];
    case TFC_DTYPE_INT32: return (uint64_t)(int64_t)((const int32_t *)x)[i];
    case TFC_DTYPE_INT64: return (uint64_t)((const int64_t *)x)[i];
    case TFC_DTYPE_UINT8: return ((const uint8_t *)x)[i];
    case TFC_DTYPE_UINT16: return ((const uint16_t *)x)[i];
    case TFC_DTYPE_UINT32: return ((const uint32_t *)x)[i];
    default: return ((const uint64_t *)x)[i];
  }
}

/* Stores v into element i of x (type t): floats from d, integers from u. */
static inline void store_du(tfc_dtype t, void *x, int64_t i, double d, uint64_t u) {
  switch (t) {
    case TFC_DTYPE_FLOAT: ((float *)x)[i] = (float)d; break;
    case TFC_DTYPE_DOUBLE: ((double *)x)[i] = d; break;
    case TFC_DTYPE_HALF: ((uint16_t *)x)[i] = tfc_float_to_half((float)d); break;
    case TFC_DTYPE_BFLOAT16: ((uint16_t *)x)[i] = tfc_float_to_bfloat16((float)d); break;
    case TFC_DTYPE_INT8: ((int8_t *)x)[i] = (int8_t)u; break;
    case TFC_DTYPE_INT16: ((int16_t *)x)[i] = (int16_t)u; break;
    case TFC_DTYPE_INT32: ((int32_t *)x)[i] = (int32_t)u; break;
    case TFC_DTYPE_INT64: ((int64_t *)x)[i] = (int64_t)u; break;
    case TFC_DTYPE_UINT8: ((uint8_t *)x)[i] = (uint8_t)u; break;
    case TFC_DTYPE_UINT16: ((uint16_t *)x)[i] = (uint16_t)u; break;
    case TFC_DTYPE_UINT32: ((uint32_t *)x)[i] = (uint32_t)u; break;
    default: ((uint64_t *)x)[i] = u; break;
  }
}

typedef struct bgrad_job {
  tfc_dtype t;
  const void *x;
  int64_t N, C, inner;  /* x is [N, C, inner] */
  int64_t chunk;        /* batch items per partial */
  double *pd;           /* partial sums: nchunks x C (floats) */
  uint64_t *pu;         /* partial sums: nchunks x C (integers) */
} bgrad_job;

/* Partial channel sums of batch chunks [b, e). */
static void bgrad_shard(void *arg, int64_t b, int64_t e) {
  const bgrad_job *j = arg;
  bool flt = tfc_dtype_is_float(j->t);
  for (int64_t ch = b; ch < e; ch++) {
    int64_t n0 = ch * j->chunk, n1 = n0 + j->chunk < j->N ? n0 + j->chunk : j->N;
    double *pd = flt ? j->pd + ch * j->C : NULL;
    uint64_t *pu = flt ? NULL : j->pu + ch * j->C;
    for (int64_t c = 0; c < j->C; c++) {
      if (pd) pd[c] = 0;
      else pu[c] = 0;
    }
    for (int64_t n = n0; n < n1; n++) {
      if (j->inner == 1 && j->t == TFC_DTYPE_FLOAT) {
        const float *row = (const float *)j->x + n * j->C;
        for (int64_t c = 0; c < j->C; c++) pd[c] += row[c];
        continue;
      }
      for (int64_t c = 0; c < j->C; c++) {
        int64_t base = (n * j->C + c) * j->inner;
        if (pd) {
          double s = 0;
          for (int64_t i = 0; i < j->inner; i++) s += load_d(j->t, j->x, base + i);
          pd[c] += s;
        } else {
          uint64_t s = 0;
          for (int64_t i = 0; i < j->inner; i++) s += load_u(j->t, j->x, base + i);
          pu[c] += s;
        }
      }
    }
  }
}

/* BiasAddGrad: sums out_backprop over every dim but the channel dim. */
static void bias_add_grad_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *x = ctx->inputs[0];
  bool nchw = tfc_attrs_string_is(ctx->attrs, "data_format", "NCHW");
  if (x->rank < 2) {
    char sx[160];
    dims_str(x, sx, sizeof sx);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input tensor must be at least 2D: %s", sx);
    return;
  }
  int cdim = nchw ? 1 : x->rank - 1;
  int64_t C = x->dims[cdim];
  tfc_tensor *y = tfc_kernel_alloc_output(ctx, 0, x->dtype, 1, &C);
  if (!y || C == 0) return;
  bgrad_job j = {.t = x->dtype, .x = x->data, .C = C, .N = 1, .inner = 1};
  for (int i = 0; i < cdim; i++) j.N *= x->dims[i];
  for (int i = cdim + 1; i < x->rank; i++) j.inner *= x->dims[i];
  int64_t per = C * j.inner;
  j.chunk = per > 0 ? ((int64_t)1 << 16) / per : j.N;
  if (j.chunk < 1) j.chunk = 1;
  int64_t nch = j.N > 0 ? (j.N + j.chunk - 1) / j.chunk : 1;
  bool flt = tfc_dtype_is_float(x->dtype);
  void *partial = tfc_aligned_alloc((size_t)(nch * C) * 8);
  if (!partial) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  if (flt) j.pd = partial;
  else j.pu = partial;
  if (j.N == 0) memset(partial, 0, (size_t)C * 8);
  else tfc_kernel_parallel_for(ctx, nch, 1, bgrad_shard, &j);
  for (int64_t ch = 1; ch < nch; ch++)
    for (int64_t c = 0; c < C; c++) {
      if (flt) j.pd[c] += j.pd[ch * C + c];
      else j.pu[c] += j.pu[ch * C + c];
    }
  for (int64_t c = 0; c < C; c++) store_du(x->dtype, y->data, c, flt ? j.pd[c] : 0, flt ? 0 : j.pu[c]);
  tfc_aligned_free(partial);
}

/* ---------------------------------------------------------------- L2Loss */

typedef struct l2_job {
  tfc_dtype t;
  const void *x;
  int64_t n, chunk;
  double *partial;
} l2_job;

/* Sums of squares of chunks [b, e). */
static void l2_shard(void *arg, int64_t b, int64_t e) {
  const l2_job *j = arg;
  for (int64_t ch = b; ch < e; ch++) {
    int64_t i0 = ch * j->chunk, i1 = i0 + j->chunk < j->n ? i0 + j->chunk : j->n;
    double acc[8] = {0};
    int64_t i = i0;
    if (j->t == TFC_DTYPE_FLOAT) {
      const float *x = j->x;
      for (; i + 8 <= i1; i += 8)
        for (int q = 0; q < 8; q++) acc[q] += (double)x[i + q] * (double)x[i + q];
    } else if (j->t == TFC_DTYPE_DOUBLE) {
      const double *x = j->x;
      for (; i + 8 <= i1; i += 8)
        for (int q = 0; q < 8; q++) acc[q] += x[i + q] * x[i + q];
    }
    double s = 0;
    for (; i < i1; i++) {
      double v = load_d(j->t, j->x, i);
      s += v * v;
    }
    for (int q = 0; q < 8; q++) s += acc[q];
    j->partial[ch] = s;
  }
}

/* L2Loss: sum(t ** 2) / 2 as a scalar. */
static void l2_loss_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *x = ctx->inputs[0];
  tfc_tensor *y = tfc_kernel_alloc_output(ctx, 0, x->dtype, 0, NULL);
  if (!y) return;
  l2_job j = {.t = x->dtype, .x = x->data, .n = x->nelems, .chunk = (int64_t)1 << 15};
  int64_t nch = (j.n + j.chunk - 1) / j.chunk;
  double total = 0;
  if (nch > 0) {
    j.partial = tfc_malloc((size_t)nch * sizeof(double));
    if (!j.partial) {
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
    tfc_kernel_parallel_for(ctx, nch, 1, l2_shard, &j);
    for (int64_t c = 0; c < nch; c++) total += j.partial[c];
    tfc_free(j.partial);
  }
  store_du(x->dtype, y->data, 0, total / 2, 0);
}

/* ---------------------------------------------------------------- cross entropy */

typedef struct xent_job {
  tfc_dtype t, lt;
  const void *logits, *labels;  /* labels: dense (same type) or sparse indices */
  int64_t C;
  int64_t lstride_r, lstride_c;  /* dense: element strides of labels per row / class */
  int64_t xstride_r, xstride_c;  /* logits strides (0 for broadcast dims) */
  bool sparse;
  void *loss, *backprop;
} xent_job;

/* Loads m shifted logits (logit - mx) of row r starting at class c0 into
 * s (as double) and their exponentials into e, in float math for float,
 * half and bfloat16 (vectorised exp) and double math for double. */
static void xent_block(const xent_job *j, int64_t r, int64_t c0, int64_t m, double mx, double *s,
                       double *e) {
  if (m <= 0) return;
  for (int64_t q = 0; q < m; q++)
    s[q] = load_d(j->t, j->logits, r * j->xstride_r + (c0 + q) * j->xstride_c) - mx;
  if (j->t == TFC_DTYPE_DOUBLE) {
    exp_f64(s, e, m);
  } else {
    float sf[BLK] = {0}, ef[BLK];
    for (int64_t q = 0; q < m; q++) sf[q] = (float)s[q];
    exp_f32(sf, ef, m);
    for (int64_t q = 0; q < m; q++) {
      s[q] = sf[q];
      e[q] = ef[q];
    }
  }
}

/* Rows [b, e) of a cross-entropy job. loss = sum(labels * (log(sum(exp(s)))
 * - s)) with s the shifted logits; backprop = softmax - labels. */
static void xent_shard(void *arg, int64_t b, int64_t e) {
  const xent_job *j = arg;
  int64_t C = j->C;
  double sb[BLK], eb[BLK];
  bool fast = j->t == TFC_DTYPE_FLOAT && j->xstride_c == 1 && j->xstride_r == C &&
              (j->sparse || j->lstride_c == 1);
  for (int64_t r = b; fast && r < e; r++) {
    /* Contiguous float rows: softmax straight into the backprop row. */
    const float *xr = (const float *)j->logits + r * C;
    float *bp = (float *)j->backprop + r * C;
    float mx = max_f32(xr, C);
    for (int64_t c = 0; c < C; c++) bp[c] = xr[c] - mx;
    exp_f32(bp, bp, C);
    double sum = sum_f32(bp, C), lse = log(sum);
    float inv = (float)(1 / sum);
    double loss = 0;
    if (j->sparse) {
      int64_t lab = j->lt == TFC_DTYPE_INT32 ? ((const int32_t *)j->labels)[r]
                                             : ((const int64_t *)j->labels)[r];
      for (int64_t c = 0; c < C; c++) bp[c] *= inv;
      bp[lab] -= 1;
      loss = lse - ((double)xr[lab] - mx);
    } else {
      const float *lr = (const float *)j->labels + r * j->lstride_r;
      for (int64_t c = 0; c < C; c++) {
        float l = lr[c];
        if (l != 0) loss += l * (lse - ((double)xr[c] - mx));
        bp[c] = bp[c] * inv - l;
      }
    }
    ((float *)j->loss)[r] = (float)loss;
  }
  for (int64_t r = b; !fast && r < e; r++) {
    double mx = -INFINITY;
    for (int64_t c = 0; c < C; c++) {
      double v = load_d(j->t, j->logits, r * j->xstride_r + c * j->xstride_c);
      if (v > mx || v != v) mx = v;
    }
    double sum = 0;
    for (int64_t c0 = 0; c0 < C; c0 += BLK) {
      int64_t m = C - c0 < BLK ? C - c0 : BLK;
      xent_block(j, r, c0, m, mx, sb, eb);
      for (int64_t q = 0; q < m; q++) sum += eb[q];
    }
    double lse = log(sum);
    int64_t lab = -1;
    if (j->sparse)
      lab = j->lt == TFC_DTYPE_INT32 ? ((const int32_t *)j->labels)[r] : ((const int64_t *)j->labels)[r];
    double loss = 0;
    for (int64_t c0 = 0; c0 < C; c0 += BLK) {
      int64_t m = C - c0 < BLK ? C - c0 : BLK;
      xent_block(j, r, c0, m, mx, sb, eb);
      for (int64_t q = 0; q < m; q++) {
        int64_t c = c0 + q;
        double l = j->sparse ? (c == lab ? 1.0 : 0.0)
                             : load_d(j->t, j->labels, r * j->lstride_r + c * j->lstride_c);
        if (l != 0) loss += l * (lse - sb[q]);
        store_du(j->t, j->backprop, r * C + c, eb[q] / sum - l, 0);
      }
    }
    store_du(j->t, j->loss, r, loss, 0);
  }
}

/* SoftmaxCrossEntropyWithLogits: features and labels of rank <= 2 that
 * broadcast to [batch, classes]. */
static void xent_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *x = ctx->inputs[0], *l = ctx->inputs[1];
  char sx[160], sl[160];
  dims_str(x, sx, sizeof sx);
  dims_str(l, sl, sizeof sl);
  int64_t xd[2] = {1, 1}, ld[2] = {1, 1};
  bool ok = x->rank <= 2 && l->rank <= 2;
  for (int i = 0; ok && i < x->rank; i++) xd[2 - x->rank + i] = x->dims[i];
  for (int i = 0; ok && i < l->rank; i++) ld[2 - l->rank + i] = l->dims[i];
  int64_t od[2];
  for (int i = 0; ok && i < 2; i++) {
    if (xd[i] != ld[i] && xd[i] != 1 && ld[i] != 1) ok = false;
    od[i] = xd[i] == 1 ? ld[i] : xd[i];
  }
  if (!ok) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "logits and labels must be broadcastable: logits_size=%s labels_size=%s", sx, sl);
    return;
  }
  if (x->rank != 2 && l->rank != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "logits and labels must be either 2-dimensional, or broadcasted to be "
                    "2-dimensional");
    return;
  }
  tfc_tensor *loss = tfc_kernel_alloc_output(ctx, 0, x->dtype, 1, od);
  tfc_tensor *bp = loss ? tfc_kernel_alloc_output(ctx, 1, x->dtype, 2, od) : NULL;
  if (!bp) return;
  if (bp->nelems == 0) { /* no classes: every loss is an empty sum */
    for (int64_t i = 0; i < loss->nelems; i++) store_du(x->dtype, loss->data, i, 0, 0);
    return;
  }
  xent_job j = {.t = x->dtype, .logits = x->data, .labels = l->data, .C = od[1],
                .xstride_r = xd[0] == 1 ? 0 : xd[1], .xstride_c = xd[1] == 1 ? 0 : 1,
                .lstride_r = ld[0] == 1 ? 0 : ld[1], .lstride_c = ld[1] == 1 ? 0 : 1,
                .loss = loss->data, .backprop = bp->data};
  int64_t min_shard = EW_SHARD / 8 / j.C;
  tfc_kernel_parallel_for(ctx, od[0], min_shard > 0 ? min_shard : 1, xent_shard, &j);
}

/* SparseSoftmaxCrossEntropyWithLogits: features [batch, classes], labels
 * [batch] of class indices (checked to lie in [0, classes)). */
static void sparse_xent_compute(tfc_kernel_ctx *ctx) {
  tfc_tensor *x = ctx->inputs[0], *l = ctx->inputs[1];
  char sx[160], sl[160];
  dims_str(x, sx, sizeof sx);
  dims_str(l, sl, sizeof sl);
  if (x->rank != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "logits must be 2-D, but got shape %s", sx);
    return;
  }
  if (l->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "labels must be 1-D, but got shape %s", sl);
    return;
  }
  if (x->dims[0] != l->dims[0]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "logits and labels must have the same first dimension, got logits shape %s and "
                    "labels shape %s",
                    sx, sl);
    return;
  }
  if (x->dims[1] <= 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Must have at least one class, but got logits shape %s", sx);
    return;
  }
  int64_t B = x->dims[0], C = x->dims[1];
  for (int64_t i = 0; i < B; i++) {
    int64_t v = tfc_tensor_get_int64(l, i);
    if (v < 0 || v >= C) {
      char vals[640];
      size_t len = 0;
      vals[0] = '\0';
      for (int64_t q = 0; q < B && len + 24 < sizeof vals; q++)
        len += (size_t)snprintf(vals + len, sizeof vals - len, "%s%lld", q ? " " : "",
                                (long long)tfc_tensor_get_int64(l, q));
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Received a label value of %lld which is outside the valid range of [0, %lld).  "
                      "Label values: %s",
                      (long long)v, (long long)C, vals);
      return;
    }
  }
  tfc_tensor *loss = tfc_kernel_alloc_output(ctx, 0, x->dtype, 1, &B);
  tfc_tensor *bp = loss ? tfc_kernel_alloc_output(ctx, 1, x->dtype, 2, x->dims) : NULL;
  if (!bp || B == 0) return;
  xent_job j = {.t = x->dtype, .lt = l->dtype, .logits = x->data, .labels = l->data, .C = C,
                .xstride_r = C, .xstride_c = 1, .sparse = true, .loss = loss->data,
                .backprop = bp->data};
  int64_t min_shard = EW_SHARD / 8 / C;
  tfc_kernel_parallel_for(ctx, B, min_shard > 0 ? min_shard : 1, xent_shard, &j);
}

/* ---------------------------------------------------------------- table */

#define F16 TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16
static const tfc_dtype k_float_types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, F16, TFC_DTYPE_INVALID};
static const tfc_dtype k_real_types[] = {
    TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, F16,           TFC_DTYPE_INT8,   TFC_DTYPE_INT16,
    TFC_DTYPE_INT32, TFC_DTYPE_INT64,  TFC_DTYPE_UINT8, TFC_DTYPE_UINT16, TFC_DTYPE_UINT32,
    TFC_DTYPE_UINT64, TFC_DTYPE_INVALID};
static const tfc_dtype k_label_types[] = {TFC_DTYPE_INT32, TFC_DTYPE_INT64, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"Relu", "CPU", "T", k_real_types, NULL, relu_compute, NULL, 0},
    {"Relu6", "CPU", "T", k_real_types, NULL, relu6_compute, NULL, 0},
    {"Elu", "CPU", "T", k_float_types, NULL, elu_compute, NULL, 0},
    {"Selu", "CPU", "T", k_float_types, NULL, selu_compute, NULL, 0},
    {"LeakyRelu", "CPU", "T", k_float_types, NULL, leaky_relu_compute, NULL, 0},
    {"Softplus", "CPU", "T", k_float_types, NULL, softplus_compute, NULL, 0},
    {"Softsign", "CPU", "T", k_float_types, NULL, softsign_compute, NULL, 0},
    {"Softmax", "CPU", "T", k_float_types, NULL, softmax_compute, NULL, 0},
    {"LogSoftmax", "CPU", "T", k_float_types, NULL, log_softmax_compute, NULL, 0},
    {"BiasAdd", "CPU", "T", k_real_types, NULL, bias_add_compute, NULL, 0},
    {"BiasAddV1", "CPU", "T", k_real_types, NULL, bias_add_compute, NULL, 0},
    {"L2Loss", "CPU", "T", k_float_types, NULL, l2_loss_compute, NULL, 0},
    {"SoftmaxCrossEntropyWithLogits", "CPU", "T", k_float_types, NULL, xent_compute, NULL, 0},
    {"SparseSoftmaxCrossEntropyWithLogits", "CPU", "Tlabels", k_label_types, NULL, sparse_xent_compute,
     NULL, 0},
    {"ReluGrad", "CPU", "T", k_real_types, NULL, relu_grad_compute, NULL, 0},
    {"Relu6Grad", "CPU", "T", k_real_types, NULL, relu6_grad_compute, NULL, 0},
    {"EluGrad", "CPU", "T", k_float_types, NULL, elu_grad_compute, NULL, 0},
    {"SeluGrad", "CPU", "T", k_float_types, NULL, selu_grad_compute, NULL, 0},
    {"LeakyReluGrad", "CPU", "T", k_float_types, NULL, leaky_relu_grad_compute, NULL, 0},
    {"SoftplusGrad", "CPU", "T", k_float_types, NULL, softplus_grad_compute, NULL, 0},
    {"SoftsignGrad", "CPU", "T", k_float_types, NULL, softsign_grad_compute, NULL, 0},
    {"BiasAddGrad", "CPU", "T", k_real_types, NULL, bias_add_grad_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_nn = {defs, (int)(sizeof defs / sizeof defs[0])};
