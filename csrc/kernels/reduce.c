/*
 * reduce.c — CPU kernels for Sum, Mean, Prod, Max, Min, All, Any, ArgMax and
 * ArgMin.
 *
 * A reduction first simplifies its shape: size-1 dims are dropped and
 * neighbouring dims that are all reduced (or all kept) are merged, leaving
 * alternating kept/reduced groups. Each pass then reduces the innermost
 * reduced group of a [A, R, B] view:
 *   B == 1  "row" pass: each output is a contiguous run of R elements;
 *   B  > 1  "column" pass: R rows of B contiguous elements are folded
 *           elementwise into B accumulators.
 * Passes repeat until no reduced group is left; each shrinks the data by R,
 * so the total work stays within about twice one read of the input.
 *
 * Accumulators: float sums (and means) accumulate in double; integer sums and
 * products in 64-bit wrapping arithmetic (the result is truncated to the
 * element type, as TF's same-type arithmetic would give; integer means divide
 * the 64-bit sum and truncate toward zero). half/bfloat16 inputs are widened
 * to float first. Max/Min propagate NaN (as TF and NumPy do). complex64 sums
 * (and means) accumulate in complex128; complex products in the element
 * type; complex types have Sum, Mean and Prod only (as in TF).
 *
 * Work is split into items (rows, column tiles, or fixed-size chunks of a
 * long run) and spread over the intra-op pool; how items are cut depends only
 * on the shape, so results do not depend on the number of threads.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/cmplx.h"
#include "kernels/kernel_tables.h"

typedef enum red_op { OP_SUM, OP_MEAN, OP_PROD, OP_MAX, OP_MIN, OP_ALL, OP_ANY } red_op;

/* Elements a row item reduces at most; longer runs are cut into chunks. */
#define ROW_CHUNK ((int64_t)1 << 15)
/* Columns one column item accumulates at once (its accumulators live on the stack). */
#define COL_TILE 512
/* Elements of work one shard should at least get before a pass goes parallel. */
#define MIN_WORK ((int64_t)1 << 15)

/* ---------------------------------------------------------------- typed primitives */

/* One (element type, operation) implementation. `row` reduces n contiguous
 * elements into one accumulator; `col` folds R rows (row stride `stride`
 * elements) of nb contiguous elements into nb accumulators; `combine` folds
 * src accumulators into dst. Accumulators have type `acc` (see acc_dtype). */
typedef struct red_impl {
  void (*row)(const void *x, int64_t n, void *acc);
  void (*col)(const void *x, int64_t rows, int64_t stride, int64_t nb, void *acc);
  void (*combine)(void *dst, const void *src, int64_t n);
} red_impl;

#define ADD_(a, b) ((a) + (b))
#define MUL_(a, b) ((a) * (b))
/* Max/min that keep NaN once seen (integers never are NaN). */
#define MAX_(a, b) (((b) > (a) || (b) != (b)) ? (b) : (a))
#define MIN_(a, b) (((b) < (a) || (b) != (b)) ? (b) : (a))

/* Defines the row function red_<NAME>_row for element type T, accumulator
 * ACC, identity ID and binary operation OP. The loop keeps 16 independent
 * accumulators so the compiler can vectorise it without reassociating a
 * single chain. */
#define DEFINE_ROW(NAME, T, ACC, ID, OP)                                                  \
  static void red_##NAME##_row(const void *xv, int64_t n, void *out) {                    \
    const T *x = xv;                                                                       \
    ACC a[16];                                                                             \
    for (int j = 0; j < 16; j++) a[j] = (ID);                                              \
    int64_t i = 0;                                                                         \
    for (; i + 16 <= n; i += 16)                                                           \
      for (int j = 0; j < 16; j++) a[j] = OP(a[j], (ACC)x[i + j]);                         \
    ACC r = (ID);                                                                          \
    for (; i < n; i++) r = OP(r, (ACC)x[i]);                                               \
    for (int j = 0; j < 16; j += 2) a[j] = OP(a[j], a[j + 1]);                             \
    for (int j = 0; j < 16; j += 4) a[j] = OP(a[j], a[j + 2]);                             \
    r = OP(r, OP(OP(a[0], a[4]), OP(a[8], a[12])));                                        \
    *(ACC *)out = r;                                                                       \
  }

/* Defines red_<NAME>_col and red_<NAME>_combine (see red_impl). The column
 * loop folds four rows per sweep so the accumulators go through memory a
 * quarter as often. */
#define DEFINE_COL(NAME, T, ACC, ID, OP)                                                  \
  static void red_##NAME##_col(const void *xv, int64_t rows, int64_t stride, int64_t nb,   \
                               void *accv) {                                               \
    const T *x = xv;                                                                       \
    ACC *acc = accv;                                                                       \
    for (int64_t b = 0; b < nb; b++) acc[b] = (ID);                                        \
    int64_t r = 0;                                                                         \
    for (; r + 4 <= rows; r += 4) {                                                        \
      const T *r0 = x + r * stride, *r1 = r0 + stride, *r2 = r1 + stride, *r3 = r2 + stride; \
      for (int64_t b = 0; b < nb; b++) {                                                   \
        ACC v = acc[b];                                                                    \
        v = OP(v, (ACC)r0[b]);                                                             \
        v = OP(v, (ACC)r1[b]);                                                             \
        v = OP(v, (ACC)r2[b]);                                                             \
        v = OP(v, (ACC)r3[b]);                                                             \
        acc[b] = v;                                                                        \
      }                                                                                    \
    }                                                                                      \
    for (; r < rows; r++) {                                                                \
      const T *row = x + r * stride;                                                       \
      for (int64_t b = 0; b < nb; b++) acc[b] = OP(acc[b], (ACC)row[b]);                   \
    }                                                                                      \
  }                                                                                        \
  static void red_##NAME##_combine(void *dv, const void *sv, int64_t n) {                  \
    ACC *d = dv;                                                                           \
    const ACC *s = sv;                                                                     \
    for (int64_t i = 0; i < n; i++) d[i] = OP(d[i], s[i]);                                 \
  }

/* Defines the full red_impl red_<NAME>. */
#define DEFINE_IMPL(NAME, T, ACC, ID, OP) \
  DEFINE_ROW(NAME, T, ACC, ID, OP)        \
  DEFINE_COL(NAME, T, ACC, ID, OP)        \
  static const red_impl red_##NAME = {red_##NAME##_row, red_##NAME##_col, red_##NAME##_combine};

/* Sum / Prod / Max / Min for one element type. */
#define DEFINE_TYPE(SUF, T, SUMACC, PRODACC, LOW, HIGH)   \
  DEFINE_IMPL(SUF##_sum, T, SUMACC, 0, ADD_)               \
  DEFINE_IMPL(SUF##_prod, T, PRODACC, 1, MUL_)             \
  DEFINE_IMPL(SUF##_max, T, T, LOW, MAX_)                  \
  DEFINE_IMPL(SUF##_min, T, T, HIGH, MIN_)

/* Float max/min rows written with vector extensions: the compiler does not
 * vectorise the NaN-propagating select on its own. Lanes keep the running
 * extreme (select on a strict compare) and a NaN mask; a NaN anywhere makes
 * the result NaN. Defines red_<NAME>_vrow. */
#define DEFINE_VROW(NAME, T, IT, LANES, CMP, INIT)                                         \
  typedef T NAME##_vt __attribute__((vector_size(sizeof(T) * LANES)));                    \
  typedef IT NAME##_vit __attribute__((vector_size(sizeof(T) * LANES)));                  \
  static void red_##NAME##_vrow(const void *xv, int64_t n, void *out) {                   \
    const T *x = xv;                                                                       \
    NAME##_vt a0, a1;                                                                      \
    NAME##_vit nanm = {0};                                                                 \
    for (int j = 0; j < LANES; j++) a0[j] = a1[j] = (INIT);                                \
    int64_t i = 0;                                                                         \
    for (; i + 2 * LANES <= n; i += 2 * LANES) {                                           \
      NAME##_vt b0, b1;                                                                    \
      memcpy(&b0, x + i, sizeof b0);                                                       \
      memcpy(&b1, x + i + LANES, sizeof b1);                                               \
      NAME##_vit m0 = b0 CMP a0, m1 = b1 CMP a1;                                           \
      a0 = (NAME##_vt)(((NAME##_vit)b0 & m0) | ((NAME##_vit)a0 & ~m0));                    \
      a1 = (NAME##_vt)(((NAME##_vit)b1 & m1) | ((NAME##_vit)a1 & ~m1));                    \
      nanm |= (b0 != b0) | (b1 != b1);                                                     \
    }                                                                                      \
    T r = (INIT);                                                                          \
    bool nan = false;                                                                      \
    for (int j = 0; j < LANES; j++) {                                                      \
      if (a0[j] CMP r) r = a0[j];                                                          \
      if (a1[j] CMP r) r = a1[j];                                                          \
      nan |= nanm[j] != 0;                                                                 \
    }                                                                                      \
    for (; i < n; i++) {                                                                   \
      if (x[i] != x[i]) nan = true;                                                        \
      else if (x[i] CMP r) r = x[i];                                                       \
    }                                                                                      \
    *(T *)out = nan ? (T)NAN : r;                                                          \
  }

DEFINE_VROW(f32_max, float, int32_t, 16, >, -INFINITY)
DEFINE_VROW(f32_min, float, int32_t, 16, <, INFINITY)
DEFINE_VROW(f64_max, double, int64_t, 8, >, -INFINITY)
DEFINE_VROW(f64_min, double, int64_t, 8, <, INFINITY)

/* Like DEFINE_TYPE, with the vector max/min rows. */
#define DEFINE_FLOAT_TYPE(SUF, T, SUMACC, PRODACC)                                         \
  DEFINE_IMPL(SUF##_sum, T, SUMACC, 0, ADD_)                                               \
  DEFINE_IMPL(SUF##_prod, T, PRODACC, 1, MUL_)                                             \
  DEFINE_COL(SUF##_max, T, T, -INFINITY, MAX_)                                             \
  DEFINE_COL(SUF##_min, T, T, INFINITY, MIN_)                                              \
  static const red_impl red_##SUF##_max = {red_##SUF##_max_vrow, red_##SUF##_max_col,      \
                                           red_##SUF##_max_combine};                       \
  static const red_impl red_##SUF##_min = {red_##SUF##_min_vrow, red_##SUF##_min_col,      \
                                           red_##SUF##_min_combine};

DEFINE_FLOAT_TYPE(f32, float, double, float)
DEFINE_FLOAT_TYPE(f64, double, double, double)
DEFINE_TYPE(i8, int8_t, uint64_t, uint64_t, INT8_MIN, INT8_MAX)
DEFINE_TYPE(i16, int16_t, uint64_t, uint64_t, INT16_MIN, INT16_MAX)
DEFINE_TYPE(i32, int32_t, uint64_t, uint64_t, INT32_MIN, INT32_MAX)
DEFINE_TYPE(i64, int64_t, uint64_t, uint64_t, INT64_MIN, INT64_MAX)
DEFINE_TYPE(u8, uint8_t, uint64_t, uint64_t, 0, UINT8_MAX)
DEFINE_TYPE(u16, uint16_t, uint64_t, uint64_t, 0, UINT16_MAX)
DEFINE_TYPE(u32, uint32_t, uint64_t, uint64_t, 0, UINT32_MAX)
DEFINE_TYPE(u64, uint64_t, uint64_t, uint64_t, 0, UINT64_MAX)
/* Complex types: Sum (Mean) and Prod only. */
DEFINE_IMPL(c64_sum, float _Complex, double _Complex, 0, ADD_)
DEFINE_IMPL(c64_prod, float _Complex, float _Complex, 1, MUL_)
DEFINE_IMPL(c128_sum, double _Complex, double _Complex, 0, ADD_)
DEFINE_IMPL(c128_prod, double _Complex, double _Complex, 1, MUL_)

/* The implementation reading dtype t for op (MEAN uses SUM, ALL/ANY use
 * MIN/MAX over bool bytes); NULL when the type is not supported. */
static const red_impl *impl_for(tfc_dtype t, red_op op) {
  int k = op == OP_SUM || op == OP_MEAN ? 0 : op == OP_PROD ? 1 : op == OP_MAX || op == OP_ANY ? 2 : 3;
#define PICK(SUF) \
  return k == 0 ? &red_##SUF##_sum : k == 1 ? &red_##SUF##_prod : k == 2 ? &red_##SUF##_max : &red_##SUF##_min
  switch (t) {
    case TFC_DTYPE_FLOAT: PICK(f32);
    case TFC_DTYPE_DOUBLE: PICK(f64);
    case TFC_DTYPE_INT8: PICK(i8);
    case TFC_DTYPE_INT16: PICK(i16);
    case TFC_DTYPE_INT32: PICK(i32);
    case TFC_DTYPE_INT64: PICK(i64);
    case TFC_DTYPE_UINT8: case TFC_DTYPE_BOOL: PICK(u8);
    case TFC_DTYPE_UINT16: PICK(u16);
    case TFC_DTYPE_UINT32: PICK(u32);
    case TFC_DTYPE_UINT64: PICK(u64);
    case TFC_DTYPE_COMPLEX64: return k == 0 ? &red_c64_sum : k == 1 ? &red_c64_prod : NULL;
    case TFC_DTYPE_COMPLEX128: return k == 0 ? &red_c128_sum : k == 1 ? &red_c128_prod : NULL;
    default: return NULL;
  }
#undef PICK
}

/* The accumulator type of impl_for(t, op). Reading an accumulator array
 * again with impl_for(acc_dtype, op) keeps the same accumulator type, which
 * is what later passes do. */
static tfc_dtype acc_dtype(tfc_dtype t, red_op op) {
  bool sumlike = op == OP_SUM || op == OP_MEAN || op == OP_PROD;
  if (t == TFC_DTYPE_FLOAT) return op == OP_SUM || op == OP_MEAN ? TFC_DTYPE_DOUBLE : TFC_DTYPE_FLOAT;
  if (t == TFC_DTYPE_DOUBLE) return TFC_DTYPE_DOUBLE;
  if (t == TFC_DTYPE_COMPLEX64) return op == OP_PROD ? t : TFC_DTYPE_COMPLEX128;
  if (t == TFC_DTYPE_COMPLEX128) return t;
  if (sumlike) return TFC_DTYPE_UINT64;
  return t;
}

/* Converts n accumulators (of acc_dtype(t, op)) into elements of type t; a
 * mean divides by count first (integer means truncate toward zero; a zero
 * count gives NaN for floats, 0 for integers). */
static void finish(tfc_dtype t, red_op op, const void *accv, int64_t n, void *outv, int64_t count) {
  bool mean = op == OP_MEAN;
  tfc_dtype at = acc_dtype(t, op);
  if (at == t) {
    if (!mean) {
      memcpy(outv, accv, (size_t)n * tfc_dtype_size(t));
      return;
    }
  }
  if (at == TFC_DTYPE_COMPLEX128 || at == TFC_DTYPE_COMPLEX64) {
    if (at == TFC_DTYPE_COMPLEX64) { /* complex64 Prod (mean never lands here) */
      memcpy(outv, accv, (size_t)n * 8);
      return;
    }
    const double _Complex *a = accv;
    double div = mean ? (double)count : 1.0;
    if (t == TFC_DTYPE_COMPLEX64) {
      float _Complex *o = outv;
      for (int64_t i = 0; i < n; i++) o[i] = (float _Complex)(a[i] / div);
    } else {
      double _Complex *o = outv;
      for (int64_t i = 0; i < n; i++) o[i] = a[i] / div;
    }
    return;
  }
  if (at == TFC_DTYPE_DOUBLE) {
    const double *a = accv;
    double div = mean ? (double)count : 1.0;
    if (t == TFC_DTYPE_FLOAT) {
      float *o = outv;
      for (int64_t i = 0; i < n; i++) o[i] = (float)(a[i] / div);
    } else {
      double *o = outv;
      for (int64_t i = 0; i < n; i++) o[i] = a[i] / div;
    }
    return;
  }
  if (at == TFC_DTYPE_FLOAT) { /* float Prod/Max/Min (mean never lands here) */
    memcpy(outv, accv, (size_t)n * sizeof(float));
    return;
  }
  /* 64-bit integer accumulators. */
  const uint64_t *a = accv;
  bool is_signed = t == TFC_DTYPE_INT8 || t == TFC_DTYPE_INT16 || t == TFC_DTYPE_INT32 ||
                   t == TFC_DTYPE_INT64;
  for (int64_t i = 0; i < n; i++) {
    uint64_t v = a[i];
    if (mean) {
      if (count == 0) v = 0;
      else if (is_signed) v = (uint64_t)((int64_t)v / count);
      else v = v / (uint64_t)count;
    }
    switch (t) {
      case TFC_DTYPE_INT8: ((int8_t *)outv)[i] = (int8_t)v; break;
      case TFC_DTYPE_INT16: ((int16_t *)outv)[i] = (int16_t)v; break;
      case TFC_DTYPE_INT32: ((int32_t *)outv)[i] = (int32_t)v; break;
      case TFC_DTYPE_INT64: ((int64_t *)outv)[i] = (int64_t)v; break;
      case TFC_DTYPE_UINT8: ((uint8_t *)outv)[i] = (uint8_t)v; break;
      case TFC_DTYPE_UINT16: ((uint16_t *)outv)[i] = (uint16_t)v; break;
      case TFC_DTYPE_UINT32: ((uint32_t *)outv)[i] = (uint32_t)v; break;
      case TFC_DTYPE_UINT64: ((uint64_t *)outv)[i] = v; break;
      default: break;
    }
  }
}

/* Writes n copies of the identity of op for elements of type t (what a
 * reduction over zero elements gives: 0, 1, lowest, highest, NaN for a float
 * mean, 0 for an integer mean, true for All, false for Any). */
static void fill_identity(tfc_dtype t, red_op op, void *out, int64_t n) {
  double d;
  switch (op) {
    case OP_SUM: d = 0; break;
    case OP_MEAN: d = tfc_dtype_is_float(t) || tfc_dtype_is_complex(t) ? NAN : 0; break;
    case OP_PROD: case OP_ALL: d = 1; break;
    case OP_ANY: d = 0; break;
    case OP_MAX: d = -INFINITY; break;
    default: d = INFINITY; break;
  }
  for (int64_t i = 0; i < n; i++) {
    switch (t) {
      case TFC_DTYPE_FLOAT: ((float *)out)[i] = (float)d; break;
      case TFC_DTYPE_DOUBLE: ((double *)out)[i] = d; break;
      case TFC_DTYPE_HALF: ((uint16_t *)out)[i] = tfc_float_to_half((float)d); break;
      case TFC_DTYPE_BFLOAT16: ((uint16_t *)out)[i] = tfc_float_to_bfloat16((float)d); break;
      case TFC_DTYPE_BOOL: ((uint8_t *)out)[i] = d != 0; break;
      case TFC_DTYPE_COMPLEX64:
        ((float _Complex *)out)[i] = CMPLXF((float)d, op == OP_MEAN ? (float)d : 0.0f);
        break;
      case TFC_DTYPE_COMPLEX128:
        ((double _Complex *)out)[i] = CMPLX(d, op == OP_MEAN ? d : 0.0);
        break;
#define INT_ID(DT, T, LO, HI) \
  case DT: ((T *)out)[i] = op == OP_MAX ? (T)(LO) : op == OP_MIN ? (T)(HI) : (T)d; break;
      INT_ID(TFC_DTYPE_INT8, int8_t, INT8_MIN, INT8_MAX)
      INT_ID(TFC_DTYPE_INT16, int16_t, INT16_MIN, INT16_MAX)
      INT_ID(TFC_DTYPE_INT32, int32_t, INT32_MIN, INT32_MAX)
      INT_ID(TFC_DTYPE_INT64, int64_t, INT64_MIN, INT64_MAX)
      INT_ID(TFC_DTYPE_UINT8, uint8_t, 0, UINT8_MAX)
      INT_ID(TFC_DTYPE_UINT16, uint16_t, 0, UINT16_MAX)
      INT_ID(TFC_DTYPE_UINT32, uint32_t, 0, UINT32_MAX)
      INT_ID(TFC_DTYPE_UINT64, uint64_t, 0, UINT64_MAX)
#undef INT_ID
      default: break;
    }
  }
}

/* ---------------------------------------------------------------- one pass */

/* One [A, R, B] pass: reads `in` (type in_t, read with impl), writes A*B
 * values to `out`: accumulators (when !final) or elements of type final_t
 * finished with final_op/count. */
typedef struct pass {
  const red_impl *im;
  const char *in;
  char *out;
  int64_t A, R, B;
  size_t in_es, acc_es, out_es;
  bool final;
  tfc_dtype final_t;
  red_op final_op;
  int64_t count;
  /* Row mode: K chunks per row (partial holds A*K accumulators when K > 1). */
  int64_t K;
  /* Column mode: nbt tiles per slab, KR row chunks of rchunk rows (partial
   * holds KR * A * B accumulators when KR > 1). */
  int64_t nbt, KR, rchunk;
  char *partial;
} pass;

/* Writes n accumulators as outputs of the pass (finished or copied). */
static void emit(const pass *p, const void *acc, int64_t n, int64_t out_index) {
  char *dst = p->out + (size_t)out_index * p->out_es;
  if (p->final) finish(p->final_t, p->final_op, acc, n, dst, p->count);
  else memcpy(dst, acc, (size_t)n * p->acc_es);
}

/* Row items [b, e): item i is chunk i % K of row i / K. */
static void row_items(void *arg, int64_t b, int64_t e) {
  const pass *p = arg;
  _Alignas(16) char acc[16];
  for (int64_t i = b; i < e; i++) {
    int64_t a = i / p->K, k = i % p->K;
    int64_t start = k * ROW_CHUNK, len = p->R - start < ROW_CHUNK ? p->R - start : ROW_CHUNK;
    const char *x = p->in + (size_t)(a * p->R + start) * p->in_es;
    if (p->K == 1) {
      p->im->row(x, len, acc);
      emit(p, acc, 1, a);
    } else {
      p->im->row(x, len, p->partial + (size_t)i * p->acc_es);
    }
  }
}

/* Column items [b, e): item i is row chunk i % KR of tile (i / KR) % nbt of
 * slab i / (KR * nbt). */
static void col_items(void *arg, int64_t b, int64_t e) {
  const pass *p = arg;
  _Alignas(64) char acc[COL_TILE * 16];
  for (int64_t i = b; i < e; i++) {
    int64_t kr = i % p->KR, t = (i / p->KR) % p->nbt, a = i / (p->KR * p->nbt);
    int64_t b0 = t * COL_TILE, nb = p->B - b0 < COL_TILE ? p->B - b0 : COL_TILE;
    int64_t r0 = kr * p->rchunk, rows = p->R - r0 < p->rchunk ? p->R - r0 : p->rchunk;
    const char *x = p->in + (size_t)((a * p->R + r0) * p->B + b0) * p->in_es;
    if (p->KR == 1) {
      p->im->col(x, rows, p->B, nb, acc);
      emit(p, acc, nb, a * p->B + b0);
    } else {
      p->im->col(x, rows, p->B, nb,
                 p->partial + (size_t)(kr * p->A * p->B + a * p->B + b0) * p->acc_es);
    }
  }
}

/* Runs one pass; false with ctx failed on OOM. */
static bool run_pass(tfc_kernel_ctx *ctx, pass *p) {
  p->partial = NULL;
  if (p->B == 1) {
    p->K = (p->R + ROW_CHUNK - 1) / ROW_CHUNK;
    if (p->K < 1) p->K = 1;
    int64_t items = p->A * p->K, per = p->R < ROW_CHUNK ? p->R : ROW_CHUNK;
    if (p->K > 1) {
      p->partial = tfc_aligned_alloc((size_t)items * p->acc_es);
      if (!p->partial) return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
    int64_t min_shard = MIN_WORK / (per > 0 ? per : 1);
    tfc_kernel_parallel_for(ctx, items, min_shard > 0 ? min_shard : 1, row_items, p);
    if (p->K > 1) {
      for (int64_t a = 0; a < p->A; a++) {
        char *acc = p->partial + (size_t)(a * p->K) * p->acc_es;
        for (int64_t k = 1; k < p->K; k++) p->im->combine(acc, acc + (size_t)k * p->acc_es, 1);
        emit(p, acc, 1, a);
      }
    }
  } else {
    p->nbt = (p->B + COL_TILE - 1) / COL_TILE;
    int64_t tile = p->B < COL_TILE ? p->B : COL_TILE;
    p->KR = 1;
    p->rchunk = p->R;
    if (p->A * p->nbt < 16 && p->R * tile > 4 * MIN_WORK) {
      p->rchunk = (2 * MIN_WORK + tile - 1) / tile;
      p->KR = (p->R + p->rchunk - 1) / p->rchunk;
    }
    if (p->KR > 1) {
      p->partial = tfc_aligned_alloc((size_t)(p->KR * p->A * p->B) * p->acc_es);
      if (!p->partial) return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
    int64_t items = p->A * p->nbt * p->KR;
    int64_t per = (p->rchunk < p->R ? p->rchunk : p->R) * tile;
    int64_t min_shard = MIN_WORK / (per > 0 ? per : 1);
    tfc_kernel_parallel_for(ctx, items, min_shard > 0 ? min_shard : 1, col_items, p);
    if (p->KR > 1) {
      int64_t n = p->A * p->B;
      for (int64_t k = 1; k < p->KR; k++)
        p->im->combine(p->partial, p->partial + (size_t)(k * n) * p->acc_es, n);
      emit(p, p->partial, n, 0);
    }
  }
  tfc_aligned_free(p->partial);
  p->partial = NULL;
  return true;
}

/* ---------------------------------------------------------------- shape handling */

/* Reads and validates the reduction axes of input `in` from tensor `axes`
 * into reduced[] (TF's messages); false with ctx failed. */
static bool read_axes(tfc_kernel_ctx *ctx, const tfc_tensor *in, const tfc_tensor *axes,
                      bool reduced[TFC_MAX_RANK]) {
  for (int i = 0; i < TFC_MAX_RANK; i++) reduced[i] = false;
  if (axes->dtype != TFC_DTYPE_INT32 && axes->dtype != TFC_DTYPE_INT64)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "reduction_indices must be int32 or int64");
  if (axes->rank > 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Invalid reduction arguments: Axes must be a scalar or vector, got rank %d",
                           axes->rank);
  for (int64_t i = 0; i < axes->nelems; i++) {
    int64_t a = axes->dtype == TFC_DTYPE_INT32 ? ((const int32_t *)axes->data)[i]
                                               : ((const int64_t *)axes->data)[i];
    if (a < -in->rank || a >= in->rank)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Invalid reduction dimension (%lld for input with %d dimension(s)",
                             (long long)a, in->rank);
    int d = (int)(a < 0 ? a + in->rank : a);
    if (reduced[d])
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Invalid reduction arguments: Axes contains duplicate dimension: %d", d);
    reduced[d] = true;
  }
  return true;
}

/* Converts n half or bfloat16 values to float. */
static void widen16(tfc_dtype t, const uint16_t *src, float *dst, int64_t n) {
  if (t == TFC_DTYPE_HALF)
    for (int64_t i = 0; i < n; i++) dst[i] = tfc_half_to_float(src[i]);
  else
    for (int64_t i = 0; i < n; i++) dst[i] = tfc_bfloat16_to_float(src[i]);
}

/* Converts n floats to half or bfloat16. */
static void narrow16(tfc_dtype t, const float *src, uint16_t *dst, int64_t n) {
  if (t == TFC_DTYPE_HALF)
    for (int64_t i = 0; i < n; i++) dst[i] = tfc_float_to_half(src[i]);
  else
    for (int64_t i = 0; i < n; i++) dst[i] = tfc_float_to_bfloat16(src[i]);
}

/* Reduces data of type t with dims (rank, dims) over reduced[] into out
 * (elements of type t, laid out in kept-dim order). The data is non-empty
 * and at least one reduced dim has size > 1. false with ctx failed on OOM. */
static bool reduce_data(tfc_kernel_ctx *ctx, red_op op, tfc_dtype t, const void *data, int rank,
                        const int64_t *dims, const bool *reduced, void *out) {
  /* Simplify into alternating groups (size, reduced). */
  int64_t gsize[TFC_MAX_RANK];
  bool gred[TFC_MAX_RANK];
  int ng = 0;
  int64_t count = 1;
  for (int i = 0; i < rank; i++) {
    if (dims[i] == 1) continue;
    if (reduced[i]) count *= dims[i];
    if (ng > 0 && gred[ng - 1] == reduced[i]) {
      gsize[ng - 1] *= dims[i];
    } else {
      gsize[ng] = dims[i];
      gred[ng] = reduced[i];
      ng++;
    }
  }
  tfc_dtype at = acc_dtype(t, op);
  const char *cur = data;
  tfc_dtype cur_t = t;
  char *owned = NULL;
  bool ok = true;
  while (ok) {
    int j = -1;
    for (int g = ng - 1; g >= 0; g--)
      if (gred[g]) {
        j = g;
        break;
      }
    bool last = true;
    for (int g = 0; g < j; g++)
      if (gred[g]) last = false;
    pass p;
    memset(&p, 0, sizeof p);
    p.A = 1;
    p.B = 1;
    for (int g = 0; g < j; g++) p.A *= gsize[g];
    for (int g = j + 1; g < ng; g++) p.B *= gsize[g];
    p.R = gsize[j];
    p.im = impl_for(cur_t, op);
    p.in = cur;
    p.in_es = tfc_dtype_size(cur_t);
    p.acc_es = tfc_dtype_size(at);
    p.final = last;
    p.final_t = t;
    p.final_op = op;
    p.count = count;
    char *next = NULL;
    if (last) {
      p.out = out;
      p.out_es = tfc_dtype_size(t);
    } else {
      next = tfc_aligned_alloc((size_t)(p.A * p.B) * p.acc_es);
      if (!next) {
        ok = tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
        break;
      }
      p.out = next;
      p.out_es = p.acc_es;
    }
    ok = run_pass(ctx, &p);
    if (!ok || last) {
      tfc_aligned_free(next);
      break;
    }
    tfc_aligned_free(owned);
    owned = next;
    cur = next;
    cur_t = at;
    /* Remove group j and merge its (kept) neighbours. */
    if (j > 0 && j + 1 < ng) {
      gsize[j - 1] *= gsize[j + 1];
      for (int g = j; g + 2 < ng; g++) {
        gsize[g] = gsize[g + 2];
        gred[g] = gred[g + 2];
      }
      ng -= 2;
    } else {
      for (int g = j; g + 1 < ng; g++) {
        gsize[g] = gsize[g + 1];
        gred[g] = gred[g + 1];
      }
      ng -= 1;
    }
  }
  tfc_aligned_free(owned);
  return ok;
}

/* The shared compute of the seven reductions. */
static void reduce_compute(tfc_kernel_ctx *ctx, red_op op) {
  tfc_tensor *in = ctx->inputs[0];
  bool keep_dims = false;
  const tfc_attr_value *kv = tfc_attrs_find(ctx->attrs, "keep_dims");
  if (kv && kv->kind == TFC_ATTR_B) keep_dims = kv->v.b;
  bool reduced[TFC_MAX_RANK];
  if (!read_axes(ctx, in, ctx->inputs[1], reduced)) return;

  int64_t odims[TFC_MAX_RANK];
  int orank = 0;
  int64_t rcount = 1, ocount = 1;
  for (int i = 0; i < in->rank; i++) {
    if (reduced[i]) {
      rcount *= in->dims[i];
      if (keep_dims) odims[orank++] = 1;
    } else {
      odims[orank++] = in->dims[i];
      ocount *= in->dims[i];
    }
  }
  tfc_dtype t = in->dtype;
  if (t == TFC_DTYPE_BOOL ? !(op == OP_ALL || op == OP_ANY)
                          : (op == OP_ALL || op == OP_ANY ||
                             (!impl_for(t, op) && t != TFC_DTYPE_HALF && t != TFC_DTYPE_BFLOAT16))) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "%s is not implemented for %s", ctx->op_type,
                    tfc_dtype_name(t));
    return;
  }
  /* Nothing to combine: the output is the input, reshaped. */
  if (rcount == 1 || in->nelems == 0) {
    if (rcount == 1 || ocount == 0) {
      tfc_tensor *o = tfc_tensor_reshaped(in, orank, odims, ctx->st);
      if (o) tfc_kernel_set_output(ctx, 0, o);
      return;
    }
    tfc_tensor *o = tfc_kernel_alloc_output(ctx, 0, t, orank, odims);
    if (o) fill_identity(t, op, o->data, o->nelems);
    return;
  }
  tfc_tensor *o = tfc_kernel_alloc_output(ctx, 0, t, orank, odims);
  if (!o) return;
  if (t == TFC_DTYPE_HALF || t == TFC_DTYPE_BFLOAT16) {
    float *wide = tfc_aligned_alloc((size_t)in->nelems * sizeof(float));
    float *res = tfc_aligned_alloc((size_t)(ocount > 0 ? ocount : 1) * sizeof(float));
    if (!wide || !res) {
      tfc_aligned_free(wide);
      tfc_aligned_free(res);
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
    widen16(t, in->data, wide, in->nelems);
    if (reduce_data(ctx, op, TFC_DTYPE_FLOAT, wide, in->rank, in->dims, reduced, res))
      narrow16(t, res, o->data, ocount);
    tfc_aligned_free(wide);
    tfc_aligned_free(res);
    return;
  }
  reduce_data(ctx, op, t, in->data, in->rank, in->dims, reduced, o->data);
}

/* Sum over the given axes. */
static void sum_compute(tfc_kernel_ctx *ctx) { reduce_compute(ctx, OP_SUM); }
/* Mean over the given axes (integer means truncate). */
static void mean_compute(tfc_kernel_ctx *ctx) { reduce_compute(ctx, OP_MEAN); }
/* Product over the given axes. */
static void prod_compute(tfc_kernel_ctx *ctx) { reduce_compute(ctx, OP_PROD); }
/* Maximum over the given axes (NaN propagates). */
static void max_compute(tfc_kernel_ctx *ctx) { reduce_compute(ctx, OP_MAX); }
/* Minimum over the given axes (NaN propagates). */
static void min_compute(tfc_kernel_ctx *ctx) { reduce_compute(ctx, OP_MIN); }
/* Logical and over the given axes. */
static void all_compute(tfc_kernel_ctx *ctx) { reduce_compute(ctx, OP_ALL); }
/* Logical or over the given axes. */
static void any_compute(tfc_kernel_ctx *ctx) { reduce_compute(ctx, OP_ANY); }

/* ---------------------------------------------------------------- ArgMax / ArgMin */

typedef struct arg_job {
  const void *in;
  void *out;
  tfc_dtype t, out_t;
  bool is_max;
  int64_t A, R, B;
} arg_job;

/* Reads element i of x (type t) as a double (exact for all but 64-bit ints). */
static inline double arg_load_f(tfc_dtype t, const void *x, int64_t i) {
  switch (t) {
    case TFC_DTYPE_FLOAT: return ((const float *)x)[i];
    case TFC_DTYPE_DOUBLE: return ((const double *)x)[i];
    case TFC_DTYPE_HALF: return tfc_half_to_float(((const uint16_t *)x)[i]);
    default: return tfc_bfloat16_to_float(((const uint16_t *)x)[i]);
  }
}

/* Writes index v as element i of an output of type t. */
static inline void arg_store(tfc_dtype t, void *out, int64_t i, int64_t v) {
  switch (t) {
    case TFC_DTYPE_INT64: ((int64_t *)out)[i] = v; break;
    case TFC_DTYPE_INT32: ((int32_t *)out)[i] = (int32_t)v; break;
    case TFC_DTYPE_INT16: ((int16_t *)out)[i] = (int16_t)v; break;
    default: ((uint16_t *)out)[i] = (uint16_t)v; break;
  }
}

/* Scans for the first extreme of R values with stride B, typed. A later
 * element wins only when strictly better, and NaN never wins (TF's order);
 * if nothing beats the starting point (-inf / +inf) the index is 0. */
#define ARG_SCAN_INT(T)                                                            \
  static int64_t arg_scan_##T(const T *x, int64_t R, int64_t B, bool is_max) {     \
    T best = x[0];                                                                 \
    int64_t bi = 0;                                                                \
    if (is_max) {                                                                  \
      for (int64_t r = 1; r < R; r++)                                              \
        if (x[r * B] > best) best = x[r * B], bi = r;                              \
    } else {                                                                       \
      for (int64_t r = 1; r < R; r++)                                              \
        if (x[r * B] < best) best = x[r * B], bi = r;                              \
    }                                                                              \
    return bi;                                                                     \
  }
ARG_SCAN_INT(int8_t)
ARG_SCAN_INT(int16_t)
ARG_SCAN_INT(int32_t)
ARG_SCAN_INT(int64_t)
ARG_SCAN_INT(uint8_t)
ARG_SCAN_INT(uint16_t)
ARG_SCAN_INT(uint32_t)
ARG_SCAN_INT(uint64_t)

#define ARG_SCAN_FLOAT(T)                                                          \
  static int64_t arg_scan_##T(const T *x, int64_t R, int64_t B, bool is_max) {     \
    T best = is_max ? (T)-INFINITY : (T)INFINITY;                                  \
    int64_t bi = 0;                                                                \
    if (is_max) {                                                                  \
      for (int64_t r = 0; r < R; r++)                                              \
        if (x[r * B] > best) best = x[r * B], bi = r;                              \
    } else {                                                                       \
      for (int64_t r = 0; r < R; r++)                                              \
        if (x[r * B] < best) best = x[r * B], bi = r;                              \
    }                                                                              \
    return bi;                                                                     \
  }
ARG_SCAN_FLOAT(float)
ARG_SCAN_FLOAT(double)

/* Generic scan for half/bfloat16 through float conversion. */
static int64_t arg_scan_16(tfc_dtype t, const uint16_t *x, int64_t R, int64_t B, bool is_max) {
  double best = is_max ? -INFINITY : INFINITY;
  int64_t bi = 0;
  for (int64_t r = 0; r < R; r++) {
    double v = arg_load_f(t, x, r * B);
    if (is_max ? v > best : v < best) best = v, bi = r;
  }
  return bi;
}

/* ArgMax/ArgMin over outputs [b, e) of the [A, R, B] view. */
static void arg_items(void *arg, int64_t b, int64_t e) {
  const arg_job *j = arg;
  size_t es = tfc_dtype_size(j->t);
  for (int64_t i = b; i < e; i++) {
    int64_t a = i / j->B, c = i % j->B;
    const void *x = (const char *)j->in + (size_t)(a * j->R * j->B + c) * es;
    int64_t bi;
    switch (j->t) {
      case TFC_DTYPE_FLOAT: bi = arg_scan_float(x, j->R, j->B, j->is_max); break;
      case TFC_DTYPE_DOUBLE: bi = arg_scan_double(x, j->R, j->B, j->is_max); break;
      case TFC_DTYPE_INT8: bi = arg_scan_int8_t(x, j->R, j->B, j->is_max); break;
      case TFC_DTYPE_INT16: bi = arg_scan_int16_t(x, j->R, j->B, j->is_max); break;
      case TFC_DTYPE_INT32: bi = arg_scan_int32_t(x, j->R, j->B, j->is_max); break;
      case TFC_DTYPE_INT64: bi = arg_scan_int64_t(x, j->R, j->B, j->is_max); break;
      case TFC_DTYPE_UINT8: case TFC_DTYPE_BOOL: bi = arg_scan_uint8_t(x, j->R, j->B, j->is_max); break;
      case TFC_DTYPE_UINT16: bi = arg_scan_uint16_t(x, j->R, j->B, j->is_max); break;
      case TFC_DTYPE_UINT32: bi = arg_scan_uint32_t(x, j->R, j->B, j->is_max); break;
      case TFC_DTYPE_UINT64: bi = arg_scan_uint64_t(x, j->R, j->B, j->is_max); break;
      default: bi = arg_scan_16(j->t, x, j->R, j->B, j->is_max); break;
    }
    arg_store(j->out_t, j->out, i, bi);
  }
}

/* Formats dims as TF's "[2,0]" into buf. */
static void dims_str(int rank, const int64_t *dims, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < rank && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? "," : "", (long long)dims[i]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* The shared compute of ArgMax and ArgMin. */
static void arg_compute(tfc_kernel_ctx *ctx, bool is_max) {
  tfc_tensor *in = ctx->inputs[0], *dim = ctx->inputs[1];
  if (dim->nelems != 1 || (dim->dtype != TFC_DTYPE_INT32 && dim->dtype != TFC_DTYPE_INT64 &&
                           dim->dtype != TFC_DTYPE_INT16)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "dim must be a scalar, but received tensor of rank %d",
                    dim->rank);
    return;
  }
  int64_t d = tfc_tensor_get_int64(dim, 0);
  if (d < -in->rank || d >= in->rank) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Expected dimension in the range [%d, %d), but got %lld",
                    -in->rank, in->rank, (long long)d);
    return;
  }
  int ax = (int)(d < 0 ? d + in->rank : d);
  if (in->dims[ax] == 0) {
    char s[256];
    dims_str(in->rank, in->dims, s, sizeof s);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Reduction axis %d is empty in shape %s", ax, s);
    return;
  }
  arg_job j = {.in = in->data, .t = in->dtype, .is_max = is_max, .A = 1, .B = 1};
  int64_t odims[TFC_MAX_RANK];
  int orank = 0;
  for (int i = 0; i < in->rank; i++) {
    if (i < ax) j.A *= in->dims[i];
    if (i > ax) j.B *= in->dims[i];
    if (i != ax) odims[orank++] = in->dims[i];
  }
  j.R = in->dims[ax];
  j.out_t = tfc_dtype_base(ctx->out_types[0]);
  tfc_tensor *o = tfc_kernel_alloc_output(ctx, 0, j.out_t, orank, odims);
  if (!o || o->nelems == 0) return;
  j.out = o->data;
  int64_t min_shard = MIN_WORK / (j.R > 0 ? j.R : 1);
  tfc_kernel_parallel_for(ctx, j.A * j.B, min_shard > 0 ? min_shard : 1, arg_items, &j);
}

/* Index of the largest value along an axis (first one on ties). */
static void argmax_compute(tfc_kernel_ctx *ctx) { arg_compute(ctx, true); }
/* Index of the smallest value along an axis (first one on ties). */
static void argmin_compute(tfc_kernel_ctx *ctx) { arg_compute(ctx, false); }

/* ---------------------------------------------------------------- table */

static const tfc_dtype k_num_types[] = {
    TFC_DTYPE_FLOAT,  TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF,   TFC_DTYPE_BFLOAT16, TFC_DTYPE_INT8,
    TFC_DTYPE_INT16,  TFC_DTYPE_INT32,  TFC_DTYPE_INT64,  TFC_DTYPE_UINT8,    TFC_DTYPE_UINT16,
    TFC_DTYPE_UINT32, TFC_DTYPE_UINT64, TFC_DTYPE_INVALID};
/* Sum, Mean and Prod also take complex types. */
static const tfc_dtype k_sum_types[] = {
    TFC_DTYPE_FLOAT,  TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF,   TFC_DTYPE_BFLOAT16,  TFC_DTYPE_INT8,
    TFC_DTYPE_INT16,  TFC_DTYPE_INT32,  TFC_DTYPE_INT64,  TFC_DTYPE_UINT8,     TFC_DTYPE_UINT16,
    TFC_DTYPE_UINT32, TFC_DTYPE_UINT64, TFC_DTYPE_COMPLEX64, TFC_DTYPE_COMPLEX128,
    TFC_DTYPE_INVALID};
static const tfc_dtype k_arg_types[] = {
    TFC_DTYPE_FLOAT,  TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF,   TFC_DTYPE_BFLOAT16, TFC_DTYPE_INT8,
    TFC_DTYPE_INT16,  TFC_DTYPE_INT32,  TFC_DTYPE_INT64,  TFC_DTYPE_UINT8,    TFC_DTYPE_UINT16,
    TFC_DTYPE_UINT32, TFC_DTYPE_UINT64, TFC_DTYPE_BOOL,   TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"Sum", "CPU", "T", k_sum_types, NULL, sum_compute, NULL, 0},
    {"Mean", "CPU", "T", k_sum_types, NULL, mean_compute, NULL, 0},
    {"Prod", "CPU", "T", k_sum_types, NULL, prod_compute, NULL, 0},
    {"Max", "CPU", "T", k_num_types, NULL, max_compute, NULL, 0},
    {"Min", "CPU", "T", k_num_types, NULL, min_compute, NULL, 0},
    {"All", "CPU", NULL, NULL, NULL, all_compute, NULL, 0},
    {"Any", "CPU", NULL, NULL, NULL, any_compute, NULL, 0},
    {"ArgMax", "CPU", "T", k_arg_types, NULL, argmax_compute, NULL, 0},
    {"ArgMin", "CPU", "T", k_arg_types, NULL, argmin_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_reduce = {defs, (int)(sizeof defs / sizeof defs[0])};
