/*
 * random.c — CPU kernels for the stateful random ops (core/ops_random.c),
 * reproducing TensorFlow's streams bit for bit.
 *
 * Each kernel owns a tfc_guarded_philox seeded from its seed/seed2 attrs at
 * init, so the stream continues across steps. A compute producing n values
 * reserves n * 256 Philox blocks (TF's ReserveRandomOutputs(n, 256)) and
 * fills its output in groups: group g of a fixed-cost distribution uses the
 * g-th block after the reservation start; group g of TruncatedNormal (which
 * rejects samples) starts at block g * 256 * group_size / 4 and draws single
 * words from there. Groups are independent, so they are filled in parallel
 * and the result does not depend on the thread count.
 *
 * Multinomial follows TF's CPU kernel: it reserves 256 blocks per double it
 * may draw and reads each row's words from a computable offset of one
 * single-word stream (see multinomial_rows).
 *
 * The fills and the Multinomial sampler take the generator's start as an
 * argument, so the stateless kernels (stateless_random.c) share them
 * (random_internal.h).
 */
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "core/dtype.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/philox.h"
#include "kernels/random_internal.h"

#define RESERVE_PER_OUTPUT TFC_RANDOM_RESERVE_PER_OUTPUT

/* ------------------------------------------------------------ kernel state */

/* init: a guarded generator seeded from the seed / seed2 attrs. */
bool tfc_random_state_init(const tfc_kernel_init *ki, void **state) {
  int64_t seed = 0, seed2 = 0;
  const tfc_attr_value *a = tfc_attrs_find(ki->attrs, "seed");
  if (a && a->kind == TFC_ATTR_I) seed = a->v.i;
  a = tfc_attrs_find(ki->attrs, "seed2");
  if (a && a->kind == TFC_ATTR_I) seed2 = a->v.i;
  tfc_guarded_philox *g = tfc_malloc(sizeof *g);
  if (g == NULL) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (!tfc_guarded_philox_init(g, seed, seed2)) {
    tfc_free(g);
    return tfc_status_set(ki->st, TFC_CODE_INTERNAL, "cannot create a lock");
  }
  *state = g;
  return true;
}

/* destroy: frees the generator. */
void tfc_random_state_destroy(void *state) {
  if (state == NULL) return;
  tfc_guarded_philox_destroy(state);
  tfc_free(state);
}

/* ------------------------------------------------------------ shape input */

/* Writes a tensor's shape like TF's DebugString ("[2,2]"). */
void tfc_random_shape_text(const tfc_tensor *t, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < t->rank && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? "," : "", (long long)t->dims[i]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* Reads the 1-D int32/int64 shape input into rank/dims with TF's checks. */
bool tfc_random_read_shape(tfc_kernel_ctx *ctx, const tfc_tensor *t, int *rank, int64_t *dims) {
  char buf[160];
  if (t->rank != 1 || (t->dtype != TFC_DTYPE_INT32 && t->dtype != TFC_DTYPE_INT64)) {
    tfc_random_shape_text(t, buf, sizeof buf);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "shape must be a vector of {int32,int64}, got shape %s", buf);
  }
  if (t->nelems > TFC_MAX_RANK)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "shape has %lld dimensions, at most %d are supported",
                           (long long)t->nelems, TFC_MAX_RANK);
  for (int64_t i = 0; i < t->nelems; i++) {
    dims[i] = tfc_tensor_get_int64(t, i);
    if (dims[i] < 0)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                             (long long)dims[i]);
  }
  *rank = (int)t->nelems;
  return true;
}

/* Allocates output 0 with the shape given by input 0. */
static tfc_tensor *alloc_shaped_output(tfc_kernel_ctx *ctx, tfc_dtype dt) {
  int rank = 0;
  int64_t dims[TFC_MAX_RANK];
  if (!tfc_random_read_shape(ctx, ctx->inputs[0], &rank, dims)) return NULL;
  return tfc_kernel_alloc_output(ctx, 0, dt, rank, dims);
}

/* ------------------------------------------------------------ distributions */

typedef tfc_random_dist dist_kind;
#define DIST_UNIFORM TFC_RANDOM_UNIFORM
#define DIST_NORMAL TFC_RANDOM_NORMAL
#define DIST_TRUNCATED TFC_RANDOM_TRUNCATED
#define DIST_INT TFC_RANDOM_INT
#define DIST_FULL_INT TFC_RANDOM_FULL_INT

typedef struct fill_job {
  dist_kind kind;
  tfc_dtype dtype;
  tfc_philox base;   /* the generator at the start of the reservation */
  void *data;
  int64_t n;         /* values to write */
  int group;         /* values per group */
  int64_t ilo;       /* DIST_INT: minval */
  uint64_t irange;   /* DIST_INT: maxval - minval */
} fill_job;

/* Values produced per group for (kind, dtype), as in TF's distributions. */
static int group_size(dist_kind kind, tfc_dtype dt) {
  if (dt == TFC_DTYPE_DOUBLE || dt == TFC_DTYPE_INT64 || dt == TFC_DTYPE_UINT64) return 2;
  (void)kind;
  return 4;
}

/* Stores float f at out[i] as the job's 16/32-bit type. */
static inline void store_real(const fill_job *j, int64_t i, float f) {
  switch (j->dtype) {
    case TFC_DTYPE_FLOAT: ((float *)j->data)[i] = f; break;
    case TFC_DTYPE_HALF: ((uint16_t *)j->data)[i] = tfc_float_to_half(f); break;
    case TFC_DTYPE_BFLOAT16: ((uint16_t *)j->data)[i] = tfc_float_to_bfloat16(f); break;
    default: break;
  }
}

/* Computes one group of a fixed-cost distribution from block w into vals. */
static void fixed_group(const fill_job *j, const uint32_t w[4], double *dv, float *fv,
                        uint16_t *hv, int64_t *iv) {
  switch (j->kind) {
    case DIST_UNIFORM:
      if (j->dtype == TFC_DTYPE_DOUBLE) {
        dv[0] = tfc_philox_to_double(w[0], w[1]);
        dv[1] = tfc_philox_to_double(w[2], w[3]);
      } else if (j->dtype == TFC_DTYPE_FLOAT) {
        for (int k = 0; k < 4; k++) fv[k] = tfc_philox_to_float(w[k]);
      } else {
        for (int k = 0; k < 4; k++)
          hv[k] = j->dtype == TFC_DTYPE_HALF ? tfc_philox_to_half(w[k]) : tfc_philox_to_bfloat16(w[k]);
      }
      break;
    case DIST_NORMAL:
      if (j->dtype == TFC_DTYPE_DOUBLE) {
        tfc_philox_box_muller_double(w[0], w[1], w[2], w[3], &dv[0], &dv[1]);
      } else {
        tfc_philox_box_muller_float(w[0], w[1], &fv[0], &fv[1]);
        tfc_philox_box_muller_float(w[2], w[3], &fv[2], &fv[3]);
      }
      break;
    case DIST_FULL_INT:
      if (j->dtype == TFC_DTYPE_INT64 || j->dtype == TFC_DTYPE_UINT64) {
        for (int k = 0; k < 2; k++) iv[k] = (int64_t)((uint64_t)w[2 * k] | ((uint64_t)w[2 * k + 1] << 32));
      } else {
        for (int k = 0; k < 4; k++) iv[k] = (int32_t)w[k];
      }
      break;
    case DIST_INT:
      if (j->dtype == TFC_DTYPE_INT64 || j->dtype == TFC_DTYPE_UINT64) {
        for (int k = 0; k < 2; k++) {
          uint64_t bits = (uint64_t)w[2 * k] | ((uint64_t)w[2 * k + 1] << 32);
          iv[k] = (int64_t)((uint64_t)j->ilo + bits % j->irange);
        }
      } else {
        for (int k = 0; k < 4; k++)
          iv[k] = (int32_t)((uint32_t)j->ilo + (uint32_t)(w[k] % (uint32_t)j->irange));
      }
      break;
    default:
      break;
  }
}

/* Computes one TruncatedNormal group: draws normals from single words,
 * keeping those with |x| < 2 until the group is full. */
static void truncated_group(const fill_job *j, tfc_philox *gen, double *dv, float *fv) {
  tfc_philox_single s;
  tfc_philox_single_init(&s, gen);
  int got = 0;
  if (j->dtype == TFC_DTYPE_DOUBLE) {
    while (got < 2) {
      uint32_t x0 = tfc_philox_single_next(&s), x1 = tfc_philox_single_next(&s);
      uint32_t x2 = tfc_philox_single_next(&s), x3 = tfc_philox_single_next(&s);
      double d[2];
      tfc_philox_box_muller_double(x0, x1, x2, x3, &d[0], &d[1]);
      for (int k = 0; k < 2 && got < 2; k++)
        if (d[k] < 2.0 && d[k] > -2.0) dv[got++] = d[k];
    }
  } else {
    while (got < 4) {
      uint32_t x0 = tfc_philox_single_next(&s), x1 = tfc_philox_single_next(&s);
      float f[2];
      tfc_philox_box_muller_float(x0, x1, &f[0], &f[1]);
      for (int k = 0; k < 2 && got < 4; k++)
        if (f[k] < 2.0f && f[k] > -2.0f) fv[got++] = f[k];
    }
  }
}

/* Writes `count` values of one group starting at output index `at`. */
static void store_group(const fill_job *j, int64_t at, int count, const double *dv,
                        const float *fv, const uint16_t *hv, const int64_t *iv) {
  for (int k = 0; k < count; k++) {
    switch (j->dtype) {
      case TFC_DTYPE_DOUBLE: ((double *)j->data)[at + k] = dv[k]; break;
      case TFC_DTYPE_INT32:
      case TFC_DTYPE_UINT32: ((int32_t *)j->data)[at + k] = (int32_t)iv[k]; break;
      case TFC_DTYPE_INT64:
      case TFC_DTYPE_UINT64: ((int64_t *)j->data)[at + k] = iv[k]; break;
      default:
        if (j->kind == DIST_UNIFORM && j->dtype != TFC_DTYPE_FLOAT)
          ((uint16_t *)j->data)[at + k] = hv[k];
        else
          store_real(j, at + k, fv[k]);
        break;
    }
  }
}

/* parallel_for body over groups [lo, hi). */
static void fill_range(void *arg, int64_t lo, int64_t hi) {
  const fill_job *j = arg;
  double dv[4];
  float fv[4];
  uint16_t hv[4];
  int64_t iv[4];
  uint32_t w[4];
  tfc_philox gen = j->base;
  if (j->kind != DIST_TRUNCATED) tfc_philox_skip(&gen, (uint64_t)lo);
  for (int64_t g = lo; g < hi; g++) {
    int64_t at = g * j->group;
    int count = (int)(j->n - at < j->group ? j->n - at : j->group);
    if (j->kind == DIST_TRUNCATED) {
      /* Every group restarts at its own region of the reservation. */
      gen = j->base;
      tfc_philox_skip(&gen, (uint64_t)g * (uint64_t)j->group * RESERVE_PER_OUTPUT / 4);
      truncated_group(j, &gen, dv, fv);
    } else {
      tfc_philox_next(&gen, w);
      fixed_group(j, w, dv, fv, hv, iv);
    }
    store_group(j, at, count, dv, fv, hv, iv);
  }
}

/* Fills out from `base` in groups, in parallel (random_internal.h). */
void tfc_random_fill(tfc_kernel_ctx *ctx, tfc_random_dist kind, tfc_tensor *out,
                     tfc_philox base, int64_t ilo, uint64_t irange) {
  fill_job job = {.kind = kind, .dtype = out->dtype, .data = out->data, .n = out->nelems,
                  .ilo = ilo, .irange = irange, .base = base};
  job.group = group_size(kind, out->dtype);
  int64_t groups = (out->nelems + job.group - 1) / job.group;
  int64_t min_shard = kind == DIST_TRUNCATED ? 256 : 2048;
  tfc_kernel_parallel_for(ctx, groups, min_shard, fill_range, &job);
}

/* Reserves the counters for `out` and fills it with kind's distribution. */
static void fill_output(tfc_kernel_ctx *ctx, dist_kind kind, tfc_tensor *out, int64_t ilo,
                        uint64_t irange) {
  tfc_philox base =
      tfc_guarded_philox_reserve(ctx->state, (uint64_t)out->nelems * RESERVE_PER_OUTPUT);
  tfc_random_fill(ctx, kind, out, base, ilo, irange);
}

/* ------------------------------------------------------------ real-valued */

/* Shared compute of RandomUniform / RandomStandardNormal / TruncatedNormal. */
static void real_compute(tfc_kernel_ctx *ctx, dist_kind kind) {
  tfc_dtype dt = tfc_dtype_base(ctx->out_types[0]);
  if (dt != TFC_DTYPE_FLOAT && dt != TFC_DTYPE_DOUBLE && dt != TFC_DTYPE_HALF &&
      dt != TFC_DTYPE_BFLOAT16) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: unsupported dtype %s", ctx->op_type,
                    tfc_dtype_name(dt));
    return;
  }
  tfc_tensor *out = alloc_shaped_output(ctx, dt);
  if (out == NULL) return;
  fill_output(ctx, kind, out, 0, 0);
}

/* RandomUniform: values in [0, 1). */
static void uniform_compute(tfc_kernel_ctx *ctx) { real_compute(ctx, DIST_UNIFORM); }
/* RandomStandardNormal: N(0, 1) by Box-Muller. */
static void normal_compute(tfc_kernel_ctx *ctx) { real_compute(ctx, DIST_NORMAL); }
/* TruncatedNormal: N(0, 1) restricted to (-2, 2) by rejection. */
static void truncated_compute(tfc_kernel_ctx *ctx) { real_compute(ctx, DIST_TRUNCATED); }

/* ------------------------------------------------------------ integers */

/* RandomUniformInt: integers in [minval, maxval) (modulo reduction, as TF). */
static void uniform_int_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *lo_t = ctx->inputs[1], *hi_t = ctx->inputs[2];
  char buf[160];
  if (lo_t->rank != 0) {
    tfc_random_shape_text(lo_t, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "minval must be 0-D, got shape %s", buf);
    return;
  }
  if (hi_t->rank != 0) {
    tfc_random_shape_text(hi_t, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "maxval must be 0-D, got shape %s", buf);
    return;
  }
  tfc_dtype dt = lo_t->dtype;
  if (dt != TFC_DTYPE_INT32 && dt != TFC_DTYPE_INT64) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "RandomUniformInt: unsupported dtype %s",
                    tfc_dtype_name(dt));
    return;
  }
  tfc_tensor *out = alloc_shaped_output(ctx, dt);
  if (out == NULL || out->nelems == 0) return;
  int64_t lo = tfc_tensor_get_int64(lo_t, 0), hi = tfc_tensor_get_int64(hi_t, 0);
  if (!(lo < hi)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Need minval < maxval: %lld >= %lld",
                    (long long)lo, (long long)hi);
    return;
  }
  uint64_t range = dt == TFC_DTYPE_INT32 ? (uint64_t)((uint32_t)hi - (uint32_t)lo)
                                         : (uint64_t)hi - (uint64_t)lo;
  fill_output(ctx, DIST_INT, out, lo, range);
}

/* ------------------------------------------------------------ RandomShuffle */

/* Permutes the first dimension of `in` into output 0 (Fisher-Yates as TF
 * runs it: position i swaps with i + word % (n - i), one word per position);
 * base NULL: the words come from the kernel's own generator. */
void tfc_random_shuffle(tfc_kernel_ctx *ctx, tfc_tensor *in, const tfc_philox *base) {
  if (in->nelems <= 1 || in->rank == 0 || in->dims[0] <= 1) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  int64_t n = in->dims[0];
  if (n > (int64_t)UINT32_MAX) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "RandomShuffle of more than 2^32 rows");
    return;
  }
  tfc_philox gen =
      base ? *base : tfc_guarded_philox_reserve(ctx->state, (uint64_t)(n - 1 + 3) / 4);
  tfc_philox_single s;
  tfc_philox_single_init(&s, &gen);
  int64_t *perm = tfc_malloc(sizeof(int64_t) * (size_t)n);
  if (perm == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  for (int64_t i = 0; i < n; i++) perm[i] = i;
  for (int64_t i = 0; i < n - 1; i++) {
    int64_t k = i + (int64_t)(tfc_philox_single_next(&s) % (uint32_t)(n - i));
    int64_t t = perm[i];
    perm[i] = perm[k];
    perm[k] = t;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, in->dtype, in->rank, in->dims);
  if (out == NULL) {
    tfc_free(perm);
    return;
  }
  int64_t row = in->nelems / n;
  if (in->dtype == TFC_DTYPE_STRING) {
    const tfc_string *src = in->data;
    for (int64_t i = 0; i < n && tfc_kernel_ok(ctx); i++)
      for (int64_t e = 0; e < row; e++) {
        const tfc_string *x = &src[perm[i] * row + e];
        if (!tfc_tensor_set_string(out, i * row + e, x->data, x->len, ctx->st)) break;
      }
  } else {
    size_t rb = (size_t)row * tfc_dtype_size(in->dtype);
    for (int64_t i = 0; i < n; i++)
      memcpy((char *)out->data + (size_t)i * rb, (const char *)in->data + (size_t)perm[i] * rb, rb);
  }
  tfc_free(perm);
}

/* RandomShuffle: the stateful shuffle over the kernel's own generator. */
static void shuffle_compute(tfc_kernel_ctx *ctx) { tfc_random_shuffle(ctx, ctx->inputs[0], NULL); }

/* ------------------------------------------------------------ Multinomial */

typedef struct multinomial_job {
  const tfc_tensor *logits;   /* [batch, classes] */
  int64_t classes, samples;
  tfc_philox base;            /* the generator at the start of the reservation */
  void *out;                  /* [batch, samples] int32 or int64 */
  bool out64;
  atomic_bool oom;            /* a shard could not allocate its scratch row */
} multinomial_job;

/* Reads row b of the logits into row[0..classes) as doubles. */
static void logits_row(const multinomial_job *j, int64_t b, double *row) {
  const tfc_tensor *t = j->logits;
  int64_t base = b * j->classes;
  if (t->dtype == TFC_DTYPE_FLOAT) {
    const float *x = (const float *)t->data + base;
    for (int64_t c = 0; c < j->classes; c++) row[c] = x[c];
  } else if (t->dtype == TFC_DTYPE_DOUBLE) {
    memcpy(row, (const double *)t->data + base, sizeof(double) * (size_t)j->classes);
  } else {
    for (int64_t c = 0; c < j->classes; c++) row[c] = tfc_tensor_get_double(t, base + c);
  }
}

/* Index of the first cdf entry greater than x (n when none). */
static int64_t upper_bound(const double *cdf, int64_t n, double x) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (cdf[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/* parallel_for body over rows [lo, hi). Each row builds its unnormalised
 * CDF over the finite logits (shifted by their maximum) and draws its samples
 * as uniform doubles (two words each) times the CDF's total. Row b reads the
 * words from position 2 * samples * b of the reservation's single-word
 * stream, so the result is the stream TF produces when one shard does every
 * row, whatever the thread count. */
static void multinomial_rows(void *arg, int64_t lo, int64_t hi) {
  multinomial_job *j = arg;
  double *cdf = tfc_malloc(sizeof(double) * (size_t)j->classes);
  if (cdf == NULL) {
    atomic_store(&j->oom, true);
    return;
  }
  for (int64_t b = lo; b < hi; b++) {
    logits_row(j, b, cdf);
    double max = -DBL_MAX;
    for (int64_t c = 0; c < j->classes; c++)
      if (isfinite(cdf[c]) && cdf[c] > max) max = cdf[c];
    double total = 0;
    for (int64_t c = 0; c < j->classes; c++) {
      double x = cdf[c];
      if (isfinite(x)) total += exp(x - max);
      cdf[c] = total;
    }
    uint64_t word = (uint64_t)b * 2u * (uint64_t)j->samples;
    tfc_philox gen = j->base;
    tfc_philox_skip(&gen, word / 4);
    tfc_philox_single s;
    tfc_philox_single_init(&s, &gen);
    for (uint64_t k = 0; k < word % 4; k++) (void)tfc_philox_single_next(&s);
    for (int64_t k = 0; k < j->samples; k++) {
      uint32_t x0 = tfc_philox_single_next(&s);
      uint32_t x1 = tfc_philox_single_next(&s);
      int64_t cls = upper_bound(cdf, j->classes, tfc_philox_to_double(x0, x1) * total);
      if (j->out64) ((int64_t *)j->out)[b * j->samples + k] = cls;
      else ((int32_t *)j->out)[b * j->samples + k] = (int32_t)cls;
    }
  }
  tfc_free(cdf);
}

/* Multinomial(logits, num_samples): num_samples class indices per batch row,
 * drawn from the softmax of the row's logits (non-finite logits get weight 0;
 * a row without finite logits yields `classes`). Checks and wording as TF. */
void tfc_random_multinomial(tfc_kernel_ctx *ctx, const tfc_tensor *logits,
                            const tfc_tensor *ns_t, const tfc_philox *base) {
  char buf[160];
  if (logits->rank != 2) {
    tfc_random_shape_text(logits, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "logits should be a matrix, got shape %s",
                    buf);
    return;
  }
  if (ns_t->rank != 0) {
    tfc_random_shape_text(ns_t, buf, sizeof buf);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_samples should be a scalar, got shape %s",
                    buf);
    return;
  }
  int64_t samples = tfc_tensor_get_int64(ns_t, 0);
  if (samples < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_samples should be non-negative, got %lld",
                    (long long)samples);
    return;
  }
  for (int i = 0; i < 2; i++) {
    if (logits->dims[i] > INT32_MAX) {
      tfc_random_shape_text(logits, buf, sizeof buf);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "logits.shape = %s too large for int", buf);
      return;
    }
  }
  int64_t batch = logits->dims[0], classes = logits->dims[1];
  if (classes <= 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_classes should be positive, got %lld",
                    (long long)classes);
    return;
  }
  tfc_dtype odt = tfc_dtype_base(ctx->out_types[0]);
  if (odt != TFC_DTYPE_INT32 && odt != TFC_DTYPE_INT64) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Multinomial: unsupported output_dtype %s",
                    tfc_dtype_name(odt));
    return;
  }
  int64_t dims[2] = {batch, samples};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, odt, 2, dims);
  if (out == NULL || out->nelems == 0) return;
  /* TF reserves 256 blocks per output double, two doubles per sample, with
   * the sample count rounded up to a multiple of 4. */
  uint64_t per_row = (uint64_t)((samples + 3) / 4 * 4) * 2u;
  multinomial_job job = {.logits = logits, .classes = classes, .samples = samples,
                         .out = out->data, .out64 = odt == TFC_DTYPE_INT64};
  atomic_init(&job.oom, false);
  job.base = base ? *base
                  : tfc_guarded_philox_reserve(ctx->state,
                                               (uint64_t)batch * per_row * RESERVE_PER_OUTPUT);
  double log2c = log((double)classes) / log(2.0);
  double row_cost = 50.0 * ((double)samples * log2c + (double)classes);
  int64_t min_shard = row_cost >= 10000.0 ? 1 : (int64_t)(10000.0 / row_cost) + 1;
  tfc_kernel_parallel_for(ctx, batch, min_shard, multinomial_rows, &job);
  if (atomic_load(&job.oom))
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
}

/* Multinomial: the stateful sampler over the kernel's own generator. */
static void multinomial_compute(tfc_kernel_ctx *ctx) {
  tfc_random_multinomial(ctx, ctx->inputs[0], ctx->inputs[1], NULL);
}

/* ------------------------------------------------------------ table */

/* Logit types TF has Multinomial CPU kernels for. */
static const tfc_dtype multinomial_types[] = {TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16, TFC_DTYPE_FLOAT,
                                              TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"RandomUniform", "CPU", NULL, NULL, tfc_random_state_init, uniform_compute, tfc_random_state_destroy, 0},
    {"RandomStandardNormal", "CPU", NULL, NULL, tfc_random_state_init, normal_compute, tfc_random_state_destroy, 0},
    {"TruncatedNormal", "CPU", NULL, NULL, tfc_random_state_init, truncated_compute, tfc_random_state_destroy, 0},
    {"RandomUniformInt", "CPU", NULL, NULL, tfc_random_state_init, uniform_int_compute, tfc_random_state_destroy, 0},
    {"RandomShuffle", "CPU", NULL, NULL, tfc_random_state_init, shuffle_compute,
     tfc_random_state_destroy, 0},
    {"Multinomial", "CPU", "T", multinomial_types, tfc_random_state_init, multinomial_compute, tfc_random_state_destroy,
     0},
};

const tfc_kernel_table tfc_kernels_random = {defs, (int)(sizeof defs / sizeof defs[0])};
