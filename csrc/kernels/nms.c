/*
 * nms.c — CPU kernels of non-max suppression: NonMaxSuppression (V1..V5),
 * NonMaxSuppressionWithOverlaps and CombinedNonMaxSuppression.
 *
 * Greedy selection as TensorFlow does it: candidates whose score is above
 * score_threshold enter a max-heap ordered by score (ties: lower box index
 * first); the best is popped and compared with the already selected boxes,
 * newest first. Hard NMS drops it when a similarity (IoU of the boxes, or
 * the given overlap) exceeds the threshold; soft NMS (V5, sigma > 0) scales
 * its score by exp(-0.5 * sim^2 / sigma) and puts it back in the heap while
 * the score stays above score_threshold. IoU uses min/max of each box's
 * corners (boxes may be given flipped); a box with no area has IoU 0.
 * Half inputs are computed in float rounded to half after every step, like
 * TF's Eigen::half arithmetic. The heap is libstdc++'s binary heap, so the
 * per-class order of equal-score candidates in CombinedNonMaxSuppression is
 * TF's; its final merge over classes is a stable sort (TF's std::sort may
 * order exactly equal scores otherwise).
 */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "kernels/kernel_tables.h"

/* ---------------------------------------------------------------- heap */

typedef struct nms_cand {
  int box;
  float score;
  int suppress_begin;
} nms_cand;

/* "a comes before b" is cmp(b, a): the heap's top is the maximum. */
typedef bool (*nms_less)(const nms_cand *a, const nms_cand *b);

/* Sift `v` up from hole towards top (libstdc++'s __push_heap). */
static void heap_sift_up(nms_cand *h, int64_t hole, int64_t top, nms_cand v, nms_less less) {
  int64_t parent = (hole - 1) / 2;
  while (hole > top && less(&h[parent], &v)) {
    h[hole] = h[parent];
    hole = parent;
    parent = (hole - 1) / 2;
  }
  h[hole] = v;
}

/* Appends v (h has room) and restores the heap. */
static void heap_push(nms_cand *h, int64_t *n, nms_cand v, nms_less less) {
  h[*n] = v;
  (*n)++;
  heap_sift_up(h, *n - 1, 0, v, less);
}

/* Removes and returns the top (libstdc++'s pop_heap + __adjust_heap). */
static nms_cand heap_pop(nms_cand *h, int64_t *n, nms_less less) {
  nms_cand top = h[0];
  int64_t len = *n - 1;
  nms_cand v = h[len];
  *n = len;
  if (len == 0) return top;
  int64_t hole = 0, second = 0;
  while (second < (len - 1) / 2) {
    second = 2 * (second + 1);
    if (less(&h[second], &h[second - 1])) second--;
    h[hole] = h[second];
    hole = second;
  }
  if ((len & 1) == 0 && second == (len - 2) / 2) {
    second = 2 * (second + 1);
    h[hole] = h[second - 1];
    hole = second - 1;
  }
  heap_sift_up(h, hole, 0, v, less);
  return top;
}

/* Order of the single-class NMS: score, then lower index first. */
static bool cand_less(const nms_cand *a, const nms_cand *b) {
  return (a->score == b->score && a->box > b->box) || a->score < b->score;
}

/* Order of CombinedNonMaxSuppression's per-class NMS: score only. */
static bool cand_less_score(const nms_cand *a, const nms_cand *b) { return a->score < b->score; }

/* ---------------------------------------------------------------- similarity */

/* IoU of boxes i and j, each 4 floats at b + 4 * index (TF's IOU). */
static float iou(const float *bi, const float *bj) {
  float ymin_i = fminf(bi[0], bi[2]), xmin_i = fminf(bi[1], bi[3]);
  float ymax_i = fmaxf(bi[0], bi[2]), xmax_i = fmaxf(bi[1], bi[3]);
  float ymin_j = fminf(bj[0], bj[2]), xmin_j = fminf(bj[1], bj[3]);
  float ymax_j = fmaxf(bj[0], bj[2]), xmax_j = fmaxf(bj[1], bj[3]);
  float area_i = (ymax_i - ymin_i) * (xmax_i - xmin_i);
  float area_j = (ymax_j - ymin_j) * (xmax_j - xmin_j);
  if (area_i <= 0 || area_j <= 0) return 0.0f;
  float iy0 = fmaxf(ymin_i, ymin_j), ix0 = fmaxf(xmin_i, xmin_j);
  float iy1 = fminf(ymax_i, ymax_j), ix1 = fminf(xmax_i, xmax_j);
  float inter = fmaxf(iy1 - iy0, 0.0f) * fmaxf(ix1 - ix0, 0.0f);
  return inter / (area_i + area_j - inter);
}

/* ---------------------------------------------------------------- single-class NMS */

typedef struct nms_problem {
  int n;                  /* boxes */
  const float *boxes;     /* [n, 4] as float, or NULL with overlaps */
  const float *overlaps;  /* [n, n], or NULL */
  const float *scores;    /* [n] as float */
  bool half;              /* T is half: round every step */
  float iou_threshold, score_threshold, sigma;
} nms_problem;

/* x rounded to the working type. */
static float rt(const nms_problem *p, float x) {
  return p->half ? tfc_half_to_float(tfc_float_to_half(x)) : x;
}

/* Runs greedy NMS; fills sel/sel_scores (room for min(max_out, n)) and
 * returns the count, or -1 on OOM. */
static int64_t nms_run(const nms_problem *p, int64_t max_out, int32_t *sel, float *sel_scores) {
  nms_cand *heap = tfc_malloc(sizeof(nms_cand) * (size_t)(p->n > 0 ? p->n : 1));
  if (!heap) return -1;
  int64_t hn = 0;
  for (int i = 0; i < p->n; i++)
    if (p->scores[i] > p->score_threshold)
      heap_push(heap, &hn, (nms_cand){i, p->scores[i], 0}, cand_less);
  bool soft = p->sigma > 0;
  float scale = soft ? rt(p, -0.5f / p->sigma) : 0.0f;
  int64_t ns = 0;
  while (ns < max_out && hn > 0) {
    nms_cand c = heap_pop(heap, &hn, cand_less);
    float original = c.score;
    bool hard = false;
    for (int64_t j = ns - 1; j >= c.suppress_begin; j--) {
      float sim = p->overlaps ? p->overlaps[(int64_t)c.box * p->n + sel[j]]
                              : iou(p->boxes + 4 * (int64_t)c.box, p->boxes + 4 * (int64_t)sel[j]);
      float simt = rt(p, sim);
      float w = p->half ? rt(p, expf(rt(p, rt(p, scale * simt) * simt))) : expf(scale * simt * simt);
      if (!soft && !(simt <= p->iou_threshold)) w = 0.0f;
      c.score = rt(p, c.score * w);
      if (!soft && simt > p->iou_threshold) {
        hard = true;
        break;
      }
      if (c.score <= p->score_threshold) break;
    }
    c.suppress_begin = (int)ns;
    if (!hard) {
      if (c.score == original) {
        sel[ns] = c.box;
        sel_scores[ns] = c.score;
        ns++;
        continue;
      }
      if (c.score > p->score_threshold) heap_push(heap, &hn, c, cand_less);
    }
  }
  tfc_free(heap);
  return ns;
}

/* Element i of a float/half tensor as float. */
static float fget(const tfc_tensor *t, int64_t i) {
  if (t->dtype == TFC_DTYPE_HALF) return tfc_half_to_float(((const uint16_t *)t->data)[i]);
  if (t->dtype == TFC_DTYPE_DOUBLE) return (float)((const double *)t->data)[i];
  return ((const float *)t->data)[i];
}

/* Copies a float/half tensor into a new float buffer (NULL + ctx failed on OOM). */
static float *as_float(tfc_kernel_ctx *ctx, const tfc_tensor *t) {
  float *f = tfc_malloc(sizeof(float) * (size_t)(t->nelems > 0 ? t->nelems : 1));
  if (!f) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in non-max suppression");
    return NULL;
  }
  for (int64_t i = 0; i < t->nelems; i++) f[i] = fget(t, i);
  return f;
}

/* Writes t's shape as TF's DebugString into buf. */
static const char *dbg(const tfc_tensor *t, char *buf, size_t cap) {
  tfc_shape s = tfc_tensor_shape(t);
  tfc_shape_debug_string(&s, buf, cap);
  return buf;
}

/* Checks that input i is a scalar, with TF's message for `what`. */
static bool need_scalar(tfc_kernel_ctx *ctx, int i, const char *what) {
  char b[64];
  if (ctx->inputs[i]->rank == 0) return true;
  return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be 0-D, got shape %s", what,
                         dbg(ctx->inputs[i], b, sizeof b));
}

enum { NMS_V1 = 1, NMS_V2, NMS_V3, NMS_V4, NMS_V5, NMS_OVERLAPS };

/* The shared body of the single-class ops (version selects inputs/outputs). */
static void nms_compute(tfc_kernel_ctx *ctx, int version) {
  const tfc_tensor *boxes = ctx->inputs[0], *scores = ctx->inputs[1];
  nms_problem p = {0};
  p.half = boxes->dtype == TFC_DTYPE_HALF;
  p.score_threshold = -INFINITY;
  if (!need_scalar(ctx, 2, "max_output_size")) return;
  if (version == NMS_V1) {
    const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "iou_threshold");
    p.iou_threshold = a && a->kind == TFC_ATTR_F ? a->v.f : 0.5f;
  } else {
    const char *what = version == NMS_OVERLAPS ? "overlap_threshold" : "iou_threshold";
    if (!need_scalar(ctx, 3, what)) return;
    p.iou_threshold = rt(&p, fget(ctx->inputs[3], 0));
  }
  if (version != NMS_OVERLAPS && !(p.iou_threshold >= 0 && p.iou_threshold <= 1)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "iou_threshold must be in [0, 1]");
    return;
  }
  if (version >= NMS_V3) {
    if (!need_scalar(ctx, 4, "score_threshold")) return;
    p.score_threshold = rt(&p, fget(ctx->inputs[4], 0));
  }
  if (version == NMS_V5) {
    if (!need_scalar(ctx, 5, "soft_nms_sigma")) return;
    p.sigma = fget(ctx->inputs[5], 0);
    if (!(p.sigma >= 0)) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "soft_nms_sigma_val must be >= 0");
      return;
    }
  }
  char b[64];
  if (version == NMS_OVERLAPS) {
    if (boxes->rank != 2) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "overlaps must be 2-D%s", dbg(boxes, b, 64));
      return;
    }
    if (boxes->dims[1] != boxes->dims[0]) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "overlaps must be square%s",
                      dbg(boxes, b, 64));
      return;
    }
  } else {
    if (boxes->rank != 2) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "boxes must be 2-D%s (Shape must be rank 2 but is rank %d)",
                      dbg(boxes, b, 64), boxes->rank);
      return;
    }
    if (boxes->dims[1] != 4) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "boxes must have 4 columns (Dimension must be 4 but is %lld)",
                      (long long)boxes->dims[1]);
      return;
    }
  }
  p.n = (int)boxes->dims[0];
  if (scores->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "scores must be 1-D%s (Shape must be rank 1 but is rank %d)",
                    dbg(scores, b, 64), scores->rank);
    return;
  }
  if (scores->dims[0] != p.n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "scores has incompatible shape (Dimensions must be equal, but are %d and %lld)",
                    p.n, (long long)scores->dims[0]);
    return;
  }
  int64_t max_out = ((const int32_t *)ctx->inputs[2]->data)[0];
  if (max_out < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "output size must be non-negative");
    return;
  }
  float *fb = as_float(ctx, boxes);
  float *fs = fb ? as_float(ctx, scores) : NULL;
  int64_t room = max_out < p.n ? max_out : p.n;
  int32_t *sel = fs ? tfc_malloc(sizeof(int32_t) * (size_t)(room + 1)) : NULL;
  float *sel_scores = sel ? tfc_malloc(sizeof(float) * (size_t)(room + 1)) : NULL;
  int64_t ns = -1;
  if (sel_scores) {
    if (version == NMS_OVERLAPS) p.overlaps = fb;
    else p.boxes = fb;
    p.scores = fs;
    ns = nms_run(&p, max_out, sel, sel_scores);
  }
  if (ns < 0) {
    if (tfc_kernel_ok(ctx)) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in NMS");
    goto done;
  }
  bool pad = false;
  if (version == NMS_V4 || version == NMS_V5) {
    const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "pad_to_max_output_size");
    pad = a && a->kind == TFC_ATTR_B && a->v.b;
  }
  int64_t out_n = pad ? max_out : ns;
  tfc_tensor *oi = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT32, 1, &out_n);
  if (!oi) goto done;
  int32_t *oid = oi->data;
  for (int64_t i = 0; i < out_n; i++) oid[i] = i < ns ? sel[i] : 0;
  if (version == NMS_V5) {
    tfc_tensor *os = tfc_kernel_alloc_output(ctx, 1, boxes->dtype, 1, &out_n);
    if (!os) goto done;
    for (int64_t i = 0; i < out_n; i++) {
      float v = i < ns ? sel_scores[i] : 0.0f;
      if (p.half) ((uint16_t *)os->data)[i] = tfc_float_to_half(v);
      else ((float *)os->data)[i] = v;
    }
  }
  if (version == NMS_V4 || version == NMS_V5) {
    tfc_tensor *nv = tfc_kernel_alloc_output(ctx, version == NMS_V5 ? 2 : 1, TFC_DTYPE_INT32, 0, NULL);
    if (!nv) goto done;
    ((int32_t *)nv->data)[0] = (int32_t)ns;
  }
done:
  tfc_free(fb);
  tfc_free(fs);
  tfc_free(sel);
  tfc_free(sel_scores);
}

/* NonMaxSuppression(boxes, scores, max_output_size; iou_threshold attr). */
static void nms_v1_compute(tfc_kernel_ctx *ctx) { nms_compute(ctx, NMS_V1); }
/* NonMaxSuppressionV2(boxes, scores, max_output_size, iou_threshold). */
static void nms_v2_compute(tfc_kernel_ctx *ctx) { nms_compute(ctx, NMS_V2); }
/* NonMaxSuppressionV3(..., score_threshold). */
static void nms_v3_compute(tfc_kernel_ctx *ctx) { nms_compute(ctx, NMS_V3); }
/* NonMaxSuppressionV4: V3 plus padding and valid_outputs. */
static void nms_v4_compute(tfc_kernel_ctx *ctx) { nms_compute(ctx, NMS_V4); }
/* NonMaxSuppressionV5: V4 plus soft-NMS sigma and the selected scores. */
static void nms_v5_compute(tfc_kernel_ctx *ctx) { nms_compute(ctx, NMS_V5); }
/* NonMaxSuppressionWithOverlaps(overlaps, scores, max_output_size, thresholds). */
static void nms_overlaps_compute(tfc_kernel_ctx *ctx) { nms_compute(ctx, NMS_OVERLAPS); }

/* ---------------------------------------------------------------- combined */

typedef struct result_cand {
  int box;
  float score;
  int cls;
  float coord[4];
} result_cand;

/* Stable merge sort of rc[0..n) by descending score (tmp has room for n). */
static void sort_desc(result_cand *rc, result_cand *tmp, int64_t n) {
  for (int64_t w = 1; w < n; w *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * w) {
      int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = (rc[j].score > rc[i].score) ? rc[j++] : rc[i++];
      while (i < mid) tmp[k++] = rc[i++];
      while (j < hi) tmp[k++] = rc[j++];
    }
    memcpy(rc, tmp, sizeof(result_cand) * (size_t)n);
  }
}

/* CombinedNonMaxSuppression(boxes [b,n,q,4], scores [b,n,c], max_output_size_per_class,
 * max_total_size, iou_threshold, score_threshold). */
static void combined_nms_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *boxes = ctx->inputs[0], *scores = ctx->inputs[1];
  char b[64];
  if (boxes->rank != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "boxes must be 4-D [batch, num_boxes, q, 4], got shape %s", dbg(boxes, b, 64));
    return;
  }
  if (scores->rank != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "scores must be 3-D [batch, num_boxes, num_classes], got shape %s",
                    dbg(scores, b, 64));
    return;
  }
  int64_t nb = boxes->dims[1], nc = scores->dims[2], q = boxes->dims[2], batch = boxes->dims[0];
  if (q != 1 && q != nc) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "third dimension of boxes must be either 1 or num classes");
    return;
  }
  if (boxes->dims[3] != 4) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "boxes must have 4 columns");
    return;
  }
  if (scores->dims[1] != nb) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "scores has incompatible shape");
    return;
  }
  if (scores->dims[0] != batch) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "boxes and scores must have same batch size");
    return;
  }
  if (!need_scalar(ctx, 2, "max_size_per_class")) return;
  int64_t per_class = ((const int32_t *)ctx->inputs[2]->data)[0];
  if (per_class <= 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "max_size_per_class must be positive");
    return;
  }
  if (!need_scalar(ctx, 3, "max_total_size")) return;
  int64_t total = ((const int32_t *)ctx->inputs[3]->data)[0];
  if (total <= 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "max_total_size must be > 0");
    return;
  }
  if (!need_scalar(ctx, 4, "iou_threshold") || !need_scalar(ctx, 5, "score_threshold")) return;
  float iou_t = ((const float *)ctx->inputs[4]->data)[0];
  float score_t = ((const float *)ctx->inputs[5]->data)[0];
  if (!(iou_t >= 0 && iou_t <= 1)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "iou_threshold must be in [0, 1]");
    return;
  }
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "pad_per_class");
  bool pad_per_class = a && a->kind == TFC_ATTR_B && a->v.b;
  a = tfc_attrs_find(ctx->attrs, "clip_boxes");
  bool clip = !(a && a->kind == TFC_ATTR_B && !a->v.b);
  int64_t size_per_class = per_class < nb ? per_class : nb;
  int64_t rc_n = size_per_class * nc;
  if (rc_n > 2147483647) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "size_per_class * num_classes causes overflow");
    return;
  }
  int64_t max_total = per_class * nc < 2147483647 ? per_class * nc : 2147483647;
  int64_t per_batch = pad_per_class ? (total < max_total ? total : max_total) : total;
  int64_t od[3] = {batch, per_batch, 4};
  tfc_tensor *t_valid = tfc_kernel_alloc_output(ctx, 3, TFC_DTYPE_INT32, 1, &batch);
  tfc_tensor *t_boxes = t_valid ? tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_FLOAT, 3, od) : NULL;
  tfc_tensor *t_scores = t_boxes ? tfc_kernel_alloc_output(ctx, 1, TFC_DTYPE_FLOAT, 2, od) : NULL;
  tfc_tensor *t_cls = t_scores ? tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_FLOAT, 2, od) : NULL;
  if (!t_cls) return;
  memset(t_boxes->data, 0, sizeof(float) * (size_t)t_boxes->nelems);
  memset(t_scores->data, 0, sizeof(float) * (size_t)t_scores->nelems);
  memset(t_cls->data, 0, sizeof(float) * (size_t)t_cls->nelems);
  result_cand *rc = tfc_malloc(sizeof(result_cand) * (size_t)(rc_n + 1));
  result_cand *tmp = tfc_malloc(sizeof(result_cand) * (size_t)(rc_n + 1));
  nms_cand *heap = tfc_malloc(sizeof(nms_cand) * (size_t)(nb + 1));
  int *sel = tfc_malloc(sizeof(int) * (size_t)(size_per_class + 1));
  if (!rc || !tmp || !heap || !sel) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in CombinedNonMaxSuppression");
    goto done;
  }
  const float *bd = boxes->data, *sd = scores->data;
  for (int64_t bi = 0; bi < batch; bi++) {
    const float *bb = bd + bi * nb * q * 4, *sb = sd + bi * nb * nc;
    for (int64_t k = 0; k < rc_n; k++) rc[k] = (result_cand){-1, -INFINITY, -1, {0, 0, 0, 0}};
    for (int64_t c = 0; c < nc; c++) {
      int64_t hn = 0, ns = 0, cb = q > 1 ? c : 0;
      for (int64_t i = 0; i < nb; i++)
        if (sb[i * nc + c] > score_t)
          heap_push(heap, &hn, (nms_cand){(int)i, sb[i * nc + c], 0}, cand_less_score);
      while (ns < size_per_class && hn > 0) {
        nms_cand cd = heap_pop(heap, &hn, cand_less_score);
        const float *cbox = bb + (cd.box * q + cb) * 4;
        bool keep = true;
        for (int64_t j = ns - 1; j >= 0; j--)
          if (iou(cbox, bb + (sel[j] * q + cb) * 4) > iou_t) {
            keep = false;
            break;
          }
        if (keep) {
          result_cand *r = &rc[ns + size_per_class * c];
          *r = (result_cand){cd.box, cd.score, (int)c, {cbox[0], cbox[1], cbox[2], cbox[3]}};
          sel[ns++] = cd.box;
        }
      }
    }
    sort_desc(rc, tmp, rc_n);
    int64_t valid = 0;
    for (int64_t k = 0; k < rc_n; k++) valid += rc[k].box > -1;
    int64_t max_det = pad_per_class ? (per_batch < valid ? per_batch : valid)
                                    : (valid < total ? valid : total);
    ((int32_t *)t_valid->data)[bi] = (int32_t)max_det;
    float *ob = (float *)t_boxes->data + bi * per_batch * 4;
    float *os = (float *)t_scores->data + bi * per_batch;
    float *oc = (float *)t_cls->data + bi * per_batch;
    for (int64_t k = 0; k < max_det && k < rc_n && k < per_batch; k++) {
      for (int e = 0; e < 4; e++) {
        float v = rc[k].coord[e];
        ob[k * 4 + e] = clip ? fmaxf(fminf(v, 1.0f), 0.0f) : v;
      }
      os[k] = rc[k].score;
      oc[k] = (float)rc[k].cls;
    }
  }
done:
  tfc_free(rc);
  tfc_free(tmp);
  tfc_free(heap);
  tfc_free(sel);
}

#define K(op, fn) {op, "CPU", NULL, NULL, NULL, fn, NULL, 0}

static const tfc_kernel_def defs[] = {
    K("NonMaxSuppression", nms_v1_compute),
    K("NonMaxSuppressionV2", nms_v2_compute),
    K("NonMaxSuppressionV3", nms_v3_compute),
    K("NonMaxSuppressionV4", nms_v4_compute),
    K("NonMaxSuppressionV5", nms_v5_compute),
    K("NonMaxSuppressionWithOverlaps", nms_overlaps_compute),
    K("CombinedNonMaxSuppression", combined_nms_compute),
};

const tfc_kernel_table tfc_kernels_nms = {defs, (int)(sizeof defs / sizeof defs[0])};
