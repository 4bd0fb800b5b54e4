/*
 * ctc.c — CPU kernels CTCLoss and CTCGreedyDecoder (inputs [max_time,
 * batch, num_classes] of unnormalised log probabilities, blank = the last
 * class unless the greedy decoder's blank_index says otherwise).
 *
 * CTCLoss is TF's CTCLossCalculator: per sequence a softmax over classes,
 * forward and backward log variables over the label sequence with blanks
 * interleaved (l'), loss = -log p(labels | inputs), and the gradient with
 * respect to the logits, softmax - exp(log(alpha * beta summed per class) -
 * log p). Log additions use TF's LogSumExp (in float precision, also for
 * double, as TF's expf / log1pf do). preprocess_collapse_repeated merges
 * repeated labels first; ctc_merge_repeated=false lets repeated labels be
 * emitted without a blank between them. Sequences of length 0 (or too long
 * label sequences with ignore_longer_outputs_than_inputs) get loss 0 and a
 * zero gradient.
 *
 * CTCGreedyDecoder takes the most likely class per step (the first on
 * ties), drops blanks (and repeats with merge_repeated), and reports
 * -sum of the chosen logits as log_probability.
 */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "kernels/conv_internal.h"
#include "kernels/kernel_tables.h"

/* TF's LogSumExp (float-precision correction term). */
static double log_sum_exp(double a, double b) {
  if (a == -INFINITY) return b;
  if (b == -INFINITY) return a;
  return a > b ? a + (double)log1pf(expf((float)(b - a))) : b + (double)log1pf(expf((float)(a - b)));
}

/* Rounds to the working type (float for T = float). */
static double rnd(bool dbl, double v) { return dbl ? v : (double)(float)v; }

static bool attr_bool(const tfc_attrs *a, const char *name, bool def) {
  const tfc_attr_value *v = tfc_attrs_find(a, name);
  return v && v->kind == TFC_ATTR_B ? v->v.b : def;
}

/* Element i of a float/double tensor. */
static double ld(const tfc_tensor *t, int64_t i) {
  return t->dtype == TFC_DTYPE_DOUBLE ? ((const double *)t->data)[i]
                                      : (double)((const float *)t->data)[i];
}

static void st(tfc_tensor *t, int64_t i, double v) {
  if (t->dtype == TFC_DTYPE_DOUBLE) ((double *)t->data)[i] = v;
  else ((float *)t->data)[i] = (float)v;
}

/* Checks a decoder's inputs [T, B, C] and sequence_length [B] (TF's messages and
 * classes: a sequence longer than max_time is FAILED_PRECONDITION). */
static bool check_inputs(tfc_kernel_ctx *ctx, const tfc_tensor *in, const tfc_tensor *sl) {
  if (in->rank != 3)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "inputs is not a 3-Tensor");
  if (sl->rank != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "sequence_length is not a vector");
  int64_t max_time = in->dims[0], batch = in->dims[1];
  if (batch != sl->dims[0])
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "len(sequence_length) != batch_size.  len(sequence_length):  %lld "
                           "batch_size: %lld",
                           (long long)sl->dims[0], (long long)batch);
  const int32_t *s = sl->data;
  for (int64_t b = 0; b < batch; b++)
    if (s[b] > max_time)
      return tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION, "sequence_length(%lld) <= %lld",
                             (long long)b, (long long)max_time);
  return true;
}

/* ---------------------------------------------------------------- CTCLoss */

/* Loss and gradient of one sequence: y [C x T] softmax (column t at
 * y + t * C), l' of length U; writes the gradient into g (stride rows of
 * gstride between steps). Returns the loss. Work buffers: la/lb [U x T]. */
static double ctc_one(const double *y, int64_t C, int64_t T, const int *lp, int64_t U, int blank,
                      bool merge, bool dbl, double *la, double *lb, double *g, int64_t gstride) {
  for (int64_t i = 0; i < U * T; i++) la[i] = lb[i] = -INFINITY;
#define LA(u, t) la[(u) * T + (t)]
#define LB(u, t) lb[(u) * T + (t)]
#define Y(c, t) y[(t) * C + (c)]
  LA(0, 0) = rnd(dbl, log(Y(blank, 0)));
  int l0 = U > 1 ? lp[1] : blank;
  if (U > 1) LA(1, 0) = rnd(dbl, log(Y(l0, 0)));
  for (int64_t t = 1; t < T; t++) {
    int64_t u0 = U - 2 * (T - t) > 0 ? U - 2 * (T - t) : 0, u1 = U < 2 * (t + 1) ? U : 2 * (t + 1);
    for (int64_t u = u0; u < u1; u++) {
      double s = -INFINITY;
      if (merge || lp[u] == blank) s = LA(u, t - 1);
      if (u > 0) s = rnd(dbl, log_sum_exp(s, LA(u - 1, t - 1)));
      if (u > 1) {
        bool mm = merge && lp[u] == lp[u - 2];
        if (lp[u] != blank && !mm) s = rnd(dbl, log_sum_exp(s, LA(u - 2, t - 1)));
      }
      LA(u, t) = rnd(dbl, rnd(dbl, log(Y(lp[u], t))) + s);
    }
  }
  for (int64_t u = U - 2 > 0 ? U - 2 : 0; u < U; u++) LB(u, T - 1) = 0;
  for (int64_t t = T - 2; t >= 0; t--) {
    int64_t u0 = U - 2 * (T - t) > 0 ? U - 2 * (T - t) : 0, u1 = U < 2 * (t + 1) ? U : 2 * (t + 1);
    for (int64_t u = u0; u < u1; u++) {
      if (merge || lp[u] == blank)
        LB(u, t) = rnd(dbl, log_sum_exp(LB(u, t), rnd(dbl, LB(u, t + 1) + rnd(dbl, log(Y(lp[u], t + 1))))));
      if (u + 1 < U)
        LB(u, t) = rnd(dbl, log_sum_exp(LB(u, t), rnd(dbl, LB(u + 1, t + 1) +
                                                             rnd(dbl, log(Y(lp[u + 1], t + 1))))));
      if (u + 2 < U) {
        bool mm = merge && lp[u] == lp[u + 2];
        if (lp[u] != blank && !mm)
          LB(u, t) = rnd(dbl, log_sum_exp(LB(u, t), rnd(dbl, LB(u + 2, t + 1) +
                                                               rnd(dbl, log(Y(lp[u + 2], t + 1))))));
      }
    }
  }
  double lpzx = -INFINITY;
  for (int64_t u = 0; u < U; u++) lpzx = rnd(dbl, log_sum_exp(lpzx, rnd(dbl, LA(u, 0) + LB(u, 0))));
  if (g) {
    if (lpzx == -INFINITY) {
      for (int64_t t = 0; t < T; t++)
        for (int64_t c = 0; c < C; c++) g[t * gstride + c] = Y(c, t);
    } else {
      double *ps = la + U * T;  /* C scratch entries after the alphas */
      for (int64_t t = 0; t < T; t++) {
        for (int64_t c = 0; c < C; c++) ps[c] = -INFINITY;
        for (int64_t u = 0; u < U; u++)
          ps[lp[u]] = rnd(dbl, log_sum_exp(ps[lp[u]], rnd(dbl, LA(u, t) + LB(u, t))));
        for (int64_t c = 0; c < C; c++)
          g[t * gstride + c] = rnd(dbl, Y(c, t) - (double)expf((float)(ps[c] - lpzx)));
      }
    }
  }
#undef LA
#undef LB
#undef Y
  return -lpzx;
}

/* CTCLoss(inputs, labels_indices, labels_values, sequence_length). */
static void ctc_loss_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0], *li = ctx->inputs[1], *lv = ctx->inputs[2],
                   *sl = ctx->inputs[3];
  if (in->rank != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "inputs is not a 3-Tensor");
    return;
  }
  if (sl->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "sequence_length is not a vector");
    return;
  }
  if (li->rank != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "labels_indices is not a matrix");
    return;
  }
  if (li->dims[1] < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "labels_indices second dimension must be >= 1. Received %lld",
                    (long long)li->dims[1]);
    return;
  }
  if (lv->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "labels_values is not a vector");
    return;
  }
  if (li->dims[0] != lv->dims[0]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "labels_indices and labels_values must contain the same number of rows, but "
                    "got shapes: [%lld,%lld] vs. [%lld]",
                    (long long)li->dims[0], (long long)li->dims[1], (long long)lv->dims[0]);
    return;
  }
  int64_t Tm = in->dims[0], B = in->dims[1], C = in->dims[2];
  if (B != sl->dims[0]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "len(sequence_length) != batch_size.  len(sequence_length):  %lld "
                    "batch_size: %lld",
                    (long long)sl->dims[0], (long long)B);
    return;
  }
  if (B == 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "batch_size must not be 0");
    return;
  }
  if (C <= 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_classes cannot be 0");
    return;
  }
  const int32_t *seq = sl->data;
  for (int64_t b = 0; b < B; b++)
    if (seq[b] > Tm) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "sequence_length(%lld) <= %lld",
                      (long long)b, (long long)Tm);
      return;
    }
  /* Labels: indices must be in order (batch, position) and in range. */
  int64_t n = li->dims[0], ncol = li->dims[1];
  const int64_t *ix = li->data;
  const int32_t *vals = lv->data;
  int64_t *start = tfc_calloc((size_t)(B + 1), sizeof(int64_t));
  int *lpb = NULL;
  double *y = NULL, *la = NULL, *lb = NULL;
  if (!start) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in CTCLoss");
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t b = ix[i * ncol];
    bool ordered = i == 0 || b > ix[(i - 1) * ncol] ||
                   (b == ix[(i - 1) * ncol] && ncol > 1 && ix[i * ncol + 1] > ix[(i - 1) * ncol + 1]);
    if (b < 0 || b >= B || !ordered) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      b < 0 || b >= B ? "labels batch index must be between 0 and %lld, got %lld"
                                      : "label SparseTensor is not valid: indices[%lld] is out of order",
                      (long long)(b < 0 || b >= B ? B - 1 : i), (long long)b);
      goto done;
    }
    start[b + 1]++;
  }
  for (int64_t b = 0; b < B; b++) start[b + 1] += start[b];
  bool collapse = attr_bool(ctx->attrs, "preprocess_collapse_repeated", false);
  bool merge = attr_bool(ctx->attrs, "ctc_merge_repeated", true);
  bool ignore_long = attr_bool(ctx->attrs, "ignore_longer_outputs_than_inputs", false);
  int blank = (int)(C - 1);
  /* Validate every sequence's labels first (TF's PopulateLPrimes). */
  lpb = tfc_malloc(sizeof(int) * (size_t)(2 * n + 2 * B + 1));
  if (!lpb) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in CTCLoss");
    goto done;
  }
  for (int64_t b = 0; b < B; b++) {
    int64_t len = start[b + 1] - start[b];
    if (len == 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Labels length is zero in batch %lld",
                      (long long)b);
      goto done;
    }
    bool finished = false;
    for (int64_t k = 0; k < len; k++) {
      int32_t v = vals[start[b] + k];
      if (k == 0 || !collapse || v != vals[start[b] + k - 1]) {
        if (v >= C - 1) {
          finished = true;
        } else {
          if (finished) {
            tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                            "Saw a non-null label (index >= num_classes - 1) following a null "
                            "label, batch: %lld num_classes: %lld",
                            (long long)b, (long long)C);
            goto done;
          }
          if (v < 0) {
            tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                            "All labels must be nonnegative integers, batch: %lld", (long long)b);
            goto done;
          }
        }
      }
    }
    if (!ignore_long && len > seq[b]) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Not enough time for target transition sequence (required: %lld, "
                      "available: %d)%lldYou can turn this error into a warning by using the flag "
                      "ignore_longer_outputs_than_inputs",
                      (long long)len, seq[b], (long long)b);
      goto done;
    }
  }
  int64_t ld3[3] = {Tm, B, C};
  tfc_tensor *loss = tfc_kernel_alloc_output(ctx, 0, in->dtype, 1, &B);
  tfc_tensor *grad = loss ? tfc_kernel_alloc_output(ctx, 1, in->dtype, 3, ld3) : NULL;
  if (!grad) goto done;
  memset(loss->data, 0, tfc_dtype_size(in->dtype) * (size_t)B);
  memset(grad->data, 0, tfc_dtype_size(in->dtype) * (size_t)grad->nelems);
  bool dbl = in->dtype == TFC_DTYPE_DOUBLE;
  int64_t maxU = 2 * n + 1;
  y = tfc_malloc(sizeof(double) * (size_t)(Tm * C + 1));
  la = tfc_malloc(sizeof(double) * (size_t)(maxU * Tm + C + 1));
  lb = tfc_malloc(sizeof(double) * (size_t)(maxU * Tm + 1));
  double *g = tfc_malloc(sizeof(double) * (size_t)(Tm * C + 1));
  if (!y || !la || !lb || !g) {
    tfc_free(g);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in CTCLoss");
    goto done;
  }
  for (int64_t b = 0; b < B; b++) {
    int64_t T = seq[b], len = start[b + 1] - start[b];
    if (T == 0 || (ignore_long && len > T)) continue;
    int64_t U = 0;
    for (int64_t k = 0; k < len; k++) {
      int32_t v = vals[start[b] + k];
      if (k == 0 || !collapse || v != vals[start[b] + k - 1]) {
        if (v < C - 1) {
          lpb[U++] = blank;
          lpb[U++] = v;
        }
      }
    }
    lpb[U++] = blank;
    for (int64_t t = 0; t < T; t++) {
      double mx = -INFINITY;
      for (int64_t c = 0; c < C; c++) {
        double v = ld(in, (t * B + b) * C + c);
        mx = v > mx ? v : mx;
      }
      double sum = 0;
      for (int64_t c = 0; c < C; c++) {
        double e = rnd(dbl, exp(rnd(dbl, ld(in, (t * B + b) * C + c) - mx)));
        y[t * C + c] = e;
        sum = rnd(dbl, sum + e);
      }
      for (int64_t c = 0; c < C; c++) y[t * C + c] = rnd(dbl, y[t * C + c] / sum);
    }
    double l = ctc_one(y, C, T, lpb, U, blank, merge, dbl, la, lb, g, C);
    st(loss, b, l);
    for (int64_t t = 0; t < T; t++)
      for (int64_t c = 0; c < C; c++) st(grad, (t * B + b) * C + c, g[t * C + c]);
  }
  tfc_free(g);
done:
  tfc_free(start);
  tfc_free(lpb);
  tfc_free(y);
  tfc_free(la);
  tfc_free(lb);
}

/* ---------------------------------------------------------------- greedy */

/* Writes the decoded sequences of one path as TF's sparse triple into
 * outputs (oi, ov, os); seqs[b] has lens[b] entries. */
static bool store_sparse(tfc_kernel_ctx *ctx, int oi, int ov, int os, int64_t B,
                          int64_t *const *seqs, const int64_t *lens) {
  int64_t total = 0, maxlen = 0;
  for (int64_t b = 0; b < B; b++) {
    total += lens[b];
    maxlen = lens[b] > maxlen ? lens[b] : maxlen;
  }
  int64_t idims[2] = {total, 2}, two = 2;
  tfc_tensor *ti = tfc_kernel_alloc_output(ctx, oi, TFC_DTYPE_INT64, 2, idims);
  tfc_tensor *tv = ti ? tfc_kernel_alloc_output(ctx, ov, TFC_DTYPE_INT64, 1, &total) : NULL;
  tfc_tensor *ts = tv ? tfc_kernel_alloc_output(ctx, os, TFC_DTYPE_INT64, 1, &two) : NULL;
  if (!ts) return false;
  int64_t *pi = ti->data, *pv = tv->data, k = 0;
  for (int64_t b = 0; b < B; b++)
    for (int64_t j = 0; j < lens[b]; j++, k++) {
      pi[2 * k] = b;
      pi[2 * k + 1] = j;
      pv[k] = seqs[b][j];
    }
  ((int64_t *)ts->data)[0] = B;
  ((int64_t *)ts->data)[1] = maxlen;
  return true;
}

/* CTCGreedyDecoder(inputs, sequence_length). */
static void ctc_greedy_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0], *sl = ctx->inputs[1];
  if (!check_inputs(ctx, in, sl)) return;
  int64_t B = in->dims[1], C = in->dims[2];
  if (C == 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_classes cannot be 0");
    return;
  }
  const tfc_attr_value *bi = tfc_attrs_find(ctx->attrs, "blank_index");
  int64_t blank_attr = bi && bi->kind == TFC_ATTR_I ? bi->v.i : -1;
  int64_t blank = blank_attr < 0 ? C + blank_attr : blank_attr;
  if (blank < 0 || blank >= C) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "blank_index expected to be between %lld and %lld but was %lld",
                    (long long)-C, (long long)(C - 1), (long long)blank_attr);
    return;
  }
  bool merge = attr_bool(ctx->attrs, "merge_repeated", false);
  int64_t lpd[2] = {B, 1};
  tfc_tensor *lp = tfc_kernel_alloc_output(ctx, 3, in->dtype, 2, lpd);
  if (!lp) return;
  const int32_t *seq = sl->data;
  int64_t **seqs = tfc_calloc((size_t)(B + 1), sizeof(int64_t *));
  int64_t *lens = tfc_calloc((size_t)(B + 1), sizeof(int64_t));
  if (!seqs || !lens) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in CTCGreedyDecoder");
    goto done;
  }
  for (int64_t b = 0; b < B; b++) {
    seqs[b] = tfc_malloc(sizeof(int64_t) * (size_t)(seq[b] + 1));
    if (!seqs[b]) {
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in CTCGreedyDecoder");
      goto done;
    }
    double score = 0;
    int64_t prev = -1;
    for (int64_t t = 0; t < seq[b]; t++) {
      int64_t best = 0;
      double bv = ld(in, (t * B + b) * C);
      for (int64_t c = 1; c < C; c++) {
        double v = ld(in, (t * B + b) * C + c);
        if (v > bv) bv = v, best = c;
      }
      score = rnd(in->dtype == TFC_DTYPE_DOUBLE, score + -bv);
      if (best != blank && !(merge && best == prev)) seqs[b][lens[b]++] = best;
      prev = best;
    }
    st(lp, b, score);
  }
  store_sparse(ctx, 0, 1, 2, B, seqs, lens);
done:
  if (seqs)
    for (int64_t b = 0; b < B; b++) tfc_free(seqs[b]);
  tfc_free(seqs);
  tfc_free(lens);
}

static const tfc_kernel_def defs[] = {
    {"CTCLoss", "CPU", NULL, NULL, NULL, ctc_loss_compute, NULL, 0},
    {"CTCGreedyDecoder", "CPU", NULL, NULL, NULL, ctc_greedy_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_ctc = {defs, (int)(sizeof defs / sizeof defs[0])};
