/*
 * fft_ops.c — CPU kernels of TF's FFT ops: FFT/IFFT (1-3D) on complex
 * tensors and RFFT/IRFFT (1-3D) between real and complex, over the innermost
 * 1, 2 or 3 dims (earlier dims are a batch). Transforms run in double
 * precision on the engine of kernels/fft.h.
 *
 * The real forms follow TF's rules: along each transformed axis the input is
 * cropped to fft_length (for IRFFT the innermost axis to fft_length/2+1
 * complex values) and must not be shorter, unless it is empty (the Python
 * wrappers pad); an empty input gives zeros; RFFT keeps the fft_length/2+1 non-negative
 * frequencies of the innermost axis; IRFFT treats its input as the half
 * spectrum of a real signal (the imaginary parts of the zero and Nyquist
 * frequencies are ignored). Inverse transforms are scaled by 1/N, N the
 * product of the transformed lengths.
 *
 * Data flows through one complex128 buffer of the padded transform shape:
 * filled from the input, transformed axis by axis (lines of each axis spread
 * over the intra-op pool, each shard with its own line and work buffers),
 * then written to the output type.
 */
#include <complex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/fft.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

typedef enum fft_kind { KIND_C2C, KIND_R2C, KIND_C2R } fft_kind;

/* ---------------------------------------------------------------- fill */

/* Reads element i of a float/double/complex64/complex128 buffer as complex. */
static inline double _Complex load(tfc_dtype t, const void *p, int64_t i) {
  switch (t) {
    case TFC_DTYPE_FLOAT: return ((const float *)p)[i];
    case TFC_DTYPE_DOUBLE: return ((const double *)p)[i];
    case TFC_DTYPE_COMPLEX64: return ((const float _Complex *)p)[i];
    default: return ((const double _Complex *)p)[i];
  }
}

/* Copies input x (rank r, innermost k dims cropped or zero-padded) into buf
 * of dims [batch, bd[0..k)]; along the innermost axis only the first `take`
 * buffer entries may come from the input. */
static void fill(const tfc_tensor *x, int k, const int64_t *bd, int64_t take, double _Complex *buf,
                 int64_t batch) {
  int r = x->rank;
  const int64_t *xd = x->dims + (r - k);
  int64_t in_row = xd[k - 1], out_row = bd[k - 1];
  int64_t copy = in_row < out_row ? in_row : out_row;
  if (copy > take) copy = take;
  int64_t rows = batch, in_rows_per_batch = 1;
  for (int i = 0; i < k - 1; i++) rows *= bd[i], in_rows_per_batch *= xd[i];
  int64_t idx[3] = {0, 0, 0}, b = 0;  /* odometer over (batch, outer transform dims) */
  for (int64_t row = 0; row < rows; row++) {
    double _Complex *dst = buf + row * out_row;
    bool inside = true;
    for (int i = 0; i < k - 1; i++)
      if (idx[i] >= xd[i]) inside = false;
    int64_t j = 0;
    if (inside && copy > 0) {
      int64_t off = 0;
      for (int i = 0; i < k - 1; i++) off = off * xd[i] + idx[i];
      int64_t src = (b * in_rows_per_batch + off) * in_row;
      for (; j < copy; j++) dst[j] = load(x->dtype, x->data, src + j);
    }
    for (; j < out_row; j++) dst[j] = 0;
    for (int i = k - 2; i >= 0; i--) {
      if (++idx[i] < bd[i]) goto next;
      idx[i] = 0;
    }
    b++;
  next:;
  }
}

/* ---------------------------------------------------------------- axis passes */

typedef struct axis_job {
  const tfc_fft_plan *plan;
  double _Complex *buf;
  int64_t n, stride;  /* axis length and element stride */
  bool inverse;
  bool hermitian;     /* innermost C2R axis: extend the half spectrum first */
  int64_t half;       /* n/2+1 entries given when hermitian */
  atomic_bool oom;
} axis_job;

/* Transforms lines [b, e) along the job's axis in place. */
static void axis_shard(void *arg, int64_t b, int64_t e) {
  axis_job *j = arg;
  int64_t n = j->n, st = j->stride;
  double _Complex *line = tfc_malloc((size_t)(n + tfc_fft_work_len(j->plan)) * sizeof *line);
  double _Complex *tmp = tfc_malloc((size_t)n * sizeof *tmp);
  if (!line || !tmp) {
    atomic_store(&j->oom, true);
    tfc_free(line);
    tfc_free(tmp);
    return;
  }
  double _Complex *work = line + n;
  for (int64_t l = b; l < e; l++) {
    double _Complex *base = j->buf + (l / st) * n * st + (l % st);
    const double _Complex *src = base;
    int64_t sst = st;
    if (j->hermitian) { /* tmp[n - q] = conj(tmp[q]) above the given half */
      for (int64_t q = 0; q < j->half; q++) tmp[q] = base[q * st];
      for (int64_t q = 1; q <= n - j->half; q++) tmp[n - q] = conj(tmp[q]);
      src = tmp;
      sst = 1;
    }
    tfc_fft_run(j->plan, j->inverse, src, sst, line, work);
    for (int64_t q = 0; q < n; q++) base[q * st] = line[q];
  }
  tfc_free(line);
  tfc_free(tmp);
}

/* Transforms every line of axis a of buf (dims [batch, bd[0..k)]). false
 * with ctx failed when memory runs out. */
static bool transform_axis(tfc_kernel_ctx *ctx, double _Complex *buf, int64_t total, int k,
                           const int64_t *bd, int a, bool inverse, bool hermitian) {
  int64_t n = bd[a];
  if (n <= 1 && !hermitian) return true;
  int64_t stride = 1;
  for (int i = a + 1; i < k; i++) stride *= bd[i];
  tfc_fft_plan *plan = tfc_fft_plan_new(n);
  if (!plan) return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  axis_job j = {plan, buf, n, stride, inverse, hermitian, n / 2 + 1, false};
  int64_t lines = total / n;
  int64_t per_line = n * 8 + 1;
  int64_t min_shard = (int64_t)(1 << 15) / per_line;
  tfc_kernel_parallel_for(ctx, lines, min_shard > 0 ? min_shard : 1, axis_shard, &j);
  tfc_fft_plan_free(plan);
  if (atomic_load(&j.oom))
    return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return true;
}

/* ---------------------------------------------------------------- the kernel */

/* Formats dims as TF's TensorShape::DebugString: "[2,3]". */
static void shape_str(const tfc_tensor *t, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < t->rank && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? "," : "", (long long)t->dims[i]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* The shared compute: a rank-k transform of the given kind and direction. */
static void fft_compute(tfc_kernel_ctx *ctx, int k, fft_kind kind, bool inverse) {
  const tfc_tensor *x = ctx->inputs[0];
  char sx[160];
  if (x->rank < k) {
    shape_str(x, sx, sizeof sx);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Input must have rank of at least %d but got: %s", k, sx);
    return;
  }
  int64_t fft_len[3];
  const int64_t *xd = x->dims + (x->rank - k);
  if (kind == KIND_C2C) {
    for (int i = 0; i < k; i++) fft_len[i] = xd[i];
  } else {
    const tfc_tensor *fl = ctx->inputs[1];
    if (fl->rank != 1 || fl->dims[0] != k) {
      shape_str(fl, sx, sizeof sx);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be 1D and have %d elements", sx, k);
      return;
    }
    for (int i = 0; i < k; i++) {
      fft_len[i] = ((const int32_t *)fl->data)[i];
      if (fft_len[i] < 0) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "fft_length[%d] must >= 0, but got: %lld",
                        i, (long long)fft_len[i]);
        return;
      }
    }
  }
  /* Each transformed input dim must cover fft_length (the innermost one of an
   * IRFFT fft_length/2+1), unless the input is empty; callers pad. */
  if (kind != KIND_C2C) {
    for (int i = 0; i < k; i++) {
      int64_t need = kind == KIND_C2R && i == k - 1 ? fft_len[i] / 2 + 1 : fft_len[i];
      if (xd[i] != 0 && xd[i] < need) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                        "Input dimension %d must have length of at least %lld but got: %lld",
                        x->rank - k + i, (long long)need, (long long)xd[i]);
        return;
      }
    }
  }
  /* Output type and shape. */
  tfc_dtype out_t = x->dtype;
  if (kind != KIND_C2C) {
    const char *attr = kind == KIND_R2C ? "Tcomplex" : "Treal";
    if (!tfc_attrs_get_type(ctx->attrs, attr, &out_t, ctx->st)) return;
  }
  int64_t odims[TFC_MAX_RANK];
  for (int i = 0; i < x->rank; i++) odims[i] = x->dims[i];
  int o0 = x->rank - k;
  for (int i = 0; i < k; i++) odims[o0 + i] = fft_len[i];
  int64_t half = fft_len[k - 1] / 2 + 1;
  if (kind == KIND_R2C) odims[x->rank - 1] = fft_len[k - 1] == 0 ? 0 : half;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, out_t, x->rank, odims);
  if (!out || out->nelems == 0) return;

  int64_t batch = 1, per = 1;
  for (int i = 0; i < o0; i++) batch *= x->dims[i];
  for (int i = 0; i < k; i++) per *= fft_len[i];
  int64_t total = batch * per;
  double _Complex *buf = tfc_aligned_alloc((size_t)total * sizeof *buf);
  if (!buf) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  fill(x, k, fft_len, kind == KIND_C2R ? half : fft_len[k - 1], buf, batch);
  bool ok = true;
  if (kind == KIND_C2R) {
    for (int a = 0; a < k - 1 && ok; a++)
      ok = transform_axis(ctx, buf, total, k, fft_len, a, true, false);
    if (ok) ok = transform_axis(ctx, buf, total, k, fft_len, k - 1, true, true);
  } else {
    for (int a = k - 1; a >= 0 && ok; a--)
      ok = transform_axis(ctx, buf, total, k, fft_len, a, inverse, false);
  }
  if (ok) {
    double scale = inverse ? 1.0 / (double)per : 1.0;
    int64_t row = fft_len[k - 1], rows = total / (row > 0 ? row : 1);
    int64_t keep = kind == KIND_R2C ? half : row;
    for (int64_t r = 0; r < rows; r++) {
      const double _Complex *src = buf + r * row;
      int64_t o = r * keep;
      switch (out_t) {
        case TFC_DTYPE_FLOAT:
          for (int64_t q = 0; q < keep; q++)
            ((float *)out->data)[o + q] = (float)(creal(src[q]) * scale);
          break;
        case TFC_DTYPE_DOUBLE:
          for (int64_t q = 0; q < keep; q++) ((double *)out->data)[o + q] = creal(src[q]) * scale;
          break;
        case TFC_DTYPE_COMPLEX64:
          for (int64_t q = 0; q < keep; q++)
            ((float _Complex *)out->data)[o + q] = (float _Complex)(src[q] * scale);
          break;
        default:
          for (int64_t q = 0; q < keep; q++) ((double _Complex *)out->data)[o + q] = src[q] * scale;
          break;
      }
    }
  }
  tfc_aligned_free(buf);
}

#define FFT_K(NAME, K, KIND, INV) \
  static void k_##NAME(tfc_kernel_ctx *ctx) { fft_compute(ctx, K, KIND, INV); }
FFT_K(FFT, 1, KIND_C2C, false)
FFT_K(IFFT, 1, KIND_C2C, true)
FFT_K(FFT2D, 2, KIND_C2C, false)
FFT_K(IFFT2D, 2, KIND_C2C, true)
FFT_K(FFT3D, 3, KIND_C2C, false)
FFT_K(IFFT3D, 3, KIND_C2C, true)
FFT_K(RFFT, 1, KIND_R2C, false)
FFT_K(IRFFT, 1, KIND_C2R, true)
FFT_K(RFFT2D, 2, KIND_R2C, false)
FFT_K(IRFFT2D, 2, KIND_C2R, true)
FFT_K(RFFT3D, 3, KIND_R2C, false)
FFT_K(IRFFT3D, 3, KIND_C2R, true)

static const tfc_dtype k_complex[] = {TFC_DTYPE_COMPLEX64, TFC_DTYPE_COMPLEX128,
                                      TFC_DTYPE_INVALID};
static const tfc_dtype k_real[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};

#define KC(NAME) {#NAME, "CPU", "Tcomplex", k_complex, NULL, k_##NAME, NULL, 0}
#define KR(NAME) {#NAME, "CPU", "Treal", k_real, NULL, k_##NAME, NULL, 0}

static const tfc_kernel_def defs[] = {
    KC(FFT),  KC(IFFT),  KC(FFT2D),   KC(IFFT2D),  KC(FFT3D),   KC(IFFT3D),
    KR(RFFT), KR(IRFFT), KR(RFFT2D),  KR(IRFFT2D), KR(RFFT3D),  KR(IRFFT3D),
};

const tfc_kernel_table tfc_kernels_fft = {defs, (int)(sizeof defs / sizeof defs[0])};
