/*
 * ctc_beam.c — the CPU kernel CTCBeamSearchDecoder (TF's CTCBeamSearchDecoder
 * with the default scorer: no language model).
 *
 * A prefix tree of label sequences is grown step by step; each node keeps
 * log probabilities of its prefix ending in a blank, in its last label, and
 * in total, at the previous and the current step. Per step (logits turned
 * into log probabilities by subtracting their log-sum-exp): every beam
 * updates its probabilities (a repeated last label continues only from the
 * parent's blank-ending probability), then
 * every beam, best first, proposes one child per non-blank class; a child
 * enters the beam when its probability beats the beam's worst (which is
 * then dropped). Log additions use TF's LogSumExp. At the end the best
 * top_paths prefixes are returned (repeats merged with merge_repeated) with
 * their total log probabilities. Beams of equal probability may be ordered
 * differently from TF's heap.
 */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "kernels/kernel_tables.h"

typedef struct beam_prob {
  double total, blank, label;
} beam_prob;

typedef struct beam_node {
  struct beam_node *parent;
  int label;
  beam_prob oldp, newp;
  struct beam_node **children;  /* [num_classes - 1], created lazily */
} beam_node;

typedef struct beam_search {
  int64_t classes, width;
  bool dbl;
  beam_node **pool;   /* every node created for the current sequence */
  int64_t n_pool, cap_pool;
  beam_node **leaves; /* the beam: at most width entries */
  int64_t n_leaves;
  bool oom;
} beam_search;

static const beam_prob kZero = {-INFINITY, -INFINITY, -INFINITY};

/* TF's LogSumExp (float-precision correction term). */
static double lse(double a, double b) {
  if (a == -INFINITY) return b;
  if (b == -INFINITY) return a;
  return a > b ? a + (double)log1pf(expf((float)(b - a))) : b + (double)log1pf(expf((float)(a - b)));
}

static double rd(const beam_search *s, double v) { return s->dbl ? v : (double)(float)v; }

/* A new node (parent, label) registered in the pool; NULL on OOM. */
static beam_node *node_new(beam_search *s, beam_node *parent, int label) {
  if (s->n_pool == s->cap_pool) {
    int64_t cap = s->cap_pool ? 2 * s->cap_pool : 64;
    beam_node **p = tfc_realloc(s->pool, sizeof(beam_node *) * (size_t)cap);
    if (!p) return NULL;
    s->pool = p, s->cap_pool = cap;
  }
  beam_node *n = tfc_calloc(1, sizeof *n);
  if (!n) return NULL;
  n->parent = parent, n->label = label, n->oldp = n->newp = kZero;
  s->pool[s->n_pool++] = n;
  return n;
}

/* Frees every node of the current sequence. */
static void pool_clear(beam_search *s) {
  for (int64_t i = 0; i < s->n_pool; i++) {
    tfc_free(s->pool[i]->children);
    tfc_free(s->pool[i]);
  }
  s->n_pool = 0;
  s->n_leaves = 0;
}

/* Index of the worst leaf (lowest current total; the last one on ties). */
static int64_t bottom(const beam_search *s) {
  int64_t w = 0;
  for (int64_t i = 1; i < s->n_leaves; i++)
    if (s->leaves[i]->newp.total <= s->leaves[w]->newp.total) w = i;
  return w;
}

/* Adds n to the beam, evicting the worst leaf when full. */
static void leaves_push(beam_search *s, beam_node *n) {
  if (s->n_leaves < s->width) {
    s->leaves[s->n_leaves++] = n;
    return;
  }
  int64_t w = bottom(s);
  if (n->newp.total > s->leaves[w]->newp.total) s->leaves[w] = n;
}

/* Sorts a list of nodes by decreasing current total (stable). */
static void sort_desc(beam_node **v, int64_t n) {
  for (int64_t i = 1; i < n; i++) {
    beam_node *x = v[i];
    int64_t j = i;
    while (j > 0 && v[j - 1]->newp.total < x->newp.total) {
      v[j] = v[j - 1];
      j--;
    }
    v[j] = x;
  }
}

/* A beam can grow when it is alive and the beam has room or it beats the worst. */
static bool candidate(const beam_search *s, const beam_prob *p) {
  return p->total > -INFINITY &&
         (s->n_leaves < s->width || p->total > s->leaves[bottom(s)]->newp.total);
}

/* One time step over logits x[0..classes) (as doubles). */
static void beam_step(beam_search *s, const double *x, beam_node **branches) {
  int64_t C = s->classes, blank = C - 1;
  double mx = x[0], sum = 0;
  for (int64_t c = 1; c < C; c++) mx = x[c] > mx ? x[c] : mx;
  for (int64_t c = 0; c < C; c++) sum = rd(s, sum + rd(s, exp(rd(s, x[c] - mx))));
  mx = rd(s, mx + rd(s, log(sum)));  /* log-softmax normaliser, as TF's kernel */
  int64_t nb = s->n_leaves;
  memcpy(branches, s->leaves, sizeof(beam_node *) * (size_t)nb);
  sort_desc(branches, nb);
  s->n_leaves = 0;
  for (int64_t i = 0; i < nb; i++) branches[i]->oldp = branches[i]->newp;
  for (int64_t i = 0; i < nb; i++) {
    beam_node *b = branches[i];
    if (b->parent) {
      if (b->parent->newp.total != -INFINITY) {  /* the parent is active */
        double prev = b->label == b->parent->label ? b->parent->oldp.blank : b->parent->oldp.total;
        b->newp.label = rd(s, lse(b->newp.label, prev));
      }
      b->newp.label = rd(s, b->newp.label + rd(s, x[b->label] - mx));
    }
    b->newp.blank = rd(s, b->oldp.total + rd(s, x[blank] - mx));
    b->newp.total = rd(s, lse(b->newp.blank, b->newp.label));
    leaves_push(s, b);
  }
  for (int64_t i = 0; i < nb; i++) {
    beam_node *b = branches[i];
    if (!candidate(s, &b->oldp)) continue;
    for (int64_t label = 0; label < C - 1; label++) {
      if (!b->children) {
        b->children = tfc_calloc((size_t)(C > 1 ? C - 1 : 1), sizeof(beam_node *));
        if (!b->children) {
          s->oom = true;
          return;
        }
      }
      beam_node *c = b->children[label];
      if (!c) {
        c = node_new(s, b, (int)label);
        if (!c) {
          s->oom = true;
          return;
        }
        b->children[label] = c;
      }
      if (c->newp.total != -INFINITY) continue;  /* already in the beam */
      c->newp.blank = -INFINITY;
      double prev = c->label == b->label ? b->oldp.blank : b->oldp.total;
      c->newp.label = rd(s, rd(s, x[label] - mx) + prev);
      c->newp.total = c->newp.label;
      if (candidate(s, &c->newp)) {
        if (s->n_leaves == s->width) s->leaves[bottom(s)]->newp = kZero;
        if (s->n_leaves == s->width) {
          /* the reset bottom is now the worst: replace it */
          s->leaves[bottom(s)] = c;
        } else {
          s->leaves[s->n_leaves++] = c;
        }
      } else {
        c->oldp = kZero;
        c->newp = kZero;
      }
    }
  }
}

/* CTCBeamSearchDecoder(inputs, sequence_length). */
static void ctc_beam_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0], *sl = ctx->inputs[1];
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "beam_width");
  int64_t width = a && a->kind == TFC_ATTR_I ? a->v.i : 1;
  a = tfc_attrs_find(ctx->attrs, "top_paths");
  int64_t paths = a && a->kind == TFC_ATTR_I ? a->v.i : 1;
  a = tfc_attrs_find(ctx->attrs, "merge_repeated");
  bool merge = !(a && a->kind == TFC_ATTR_B && !a->v.b);
  if (in->rank != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "inputs is not a 3-Tensor");
    return;
  }
  if (sl->rank != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "sequence_length is not a vector");
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
  const int32_t *seq = sl->data;
  for (int64_t b = 0; b < B; b++)
    if (seq[b] > Tm) {
      tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION, "sequence_length(%lld) <= %lld",
                      (long long)b, (long long)Tm);
      return;
    }
  if (C == 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_classes cannot be 0");
    return;
  }
  if (paths > width) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "requested more paths than the beam width.");
    return;
  }
  int64_t lpd[2] = {B, paths};
  tfc_tensor *lp = tfc_kernel_alloc_output(ctx, 3 * (int)paths, in->dtype, 2, lpd);
  if (!lp) return;
  beam_search s = {C, width, in->dtype == TFC_DTYPE_DOUBLE, NULL, 0, 0, NULL, 0, false};
  s.leaves = tfc_malloc(sizeof(beam_node *) * (size_t)(width + 1));
  beam_node **branches = tfc_malloc(sizeof(beam_node *) * (size_t)(width + 1));
  double *x = tfc_malloc(sizeof(double) * (size_t)C);
  int64_t **seqs = tfc_calloc((size_t)(paths * B + 1), sizeof(int64_t *));
  int64_t *lens = tfc_calloc((size_t)(paths * B + 1), sizeof(int64_t));
  if (!s.leaves || !branches || !x || !seqs || !lens) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in CTCBeamSearchDecoder");
    goto done;
  }
  for (int64_t b = 0; b < B; b++) {
    pool_clear(&s);
    beam_node *root = node_new(&s, NULL, -1);
    if (!root) {
      s.oom = true;
      break;
    }
    root->newp.total = 0, root->newp.blank = 0;
    s.leaves[s.n_leaves++] = root;
    for (int64_t t = 0; t < seq[b] && !s.oom; t++) {
      for (int64_t c = 0; c < C; c++)
        x[c] = in->dtype == TFC_DTYPE_DOUBLE ? ((const double *)in->data)[(t * B + b) * C + c]
                                             : (double)((const float *)in->data)[(t * B + b) * C + c];
      beam_step(&s, x, branches);
    }
    if (s.oom) break;
    if (paths > s.n_leaves) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Less leaves in the beam search than requested.");
      goto done;
    }
    memcpy(branches, s.leaves, sizeof(beam_node *) * (size_t)s.n_leaves);
    sort_desc(branches, s.n_leaves);
    for (int64_t p = 0; p < paths; p++) {
      beam_node *e = branches[p];
      int64_t depth = 0;
      for (beam_node *c = e; c->parent; c = c->parent) depth++;
      int64_t *out = tfc_malloc(sizeof(int64_t) * (size_t)(depth + 1));
      if (!out) {
        s.oom = true;
        break;
      }
      int64_t n = 0, prev = -1;
      for (beam_node *c = e; c->parent; c = c->parent) {
        if (!merge || c->label != prev) out[n++] = c->label;
        prev = c->label;
      }
      for (int64_t i = 0; i < n / 2; i++) {
        int64_t tmp = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = tmp;
      }
      seqs[p * B + b] = out;
      lens[p * B + b] = n;
      if (lp->dtype == TFC_DTYPE_DOUBLE) ((double *)lp->data)[b * paths + p] = e->newp.total;
      else ((float *)lp->data)[b * paths + p] = (float)e->newp.total;
    }
    if (s.oom) break;
  }
  if (s.oom) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM in CTCBeamSearchDecoder");
    goto done;
  }
  for (int64_t p = 0; p < paths; p++) {
    int64_t total = 0, maxlen = 0;
    for (int64_t b = 0; b < B; b++) {
      total += lens[p * B + b];
      maxlen = lens[p * B + b] > maxlen ? lens[p * B + b] : maxlen;
    }
    int64_t idims[2] = {total, 2}, two = 2;
    tfc_tensor *ti = tfc_kernel_alloc_output(ctx, (int)p, TFC_DTYPE_INT64, 2, idims);
    tfc_tensor *tv = ti ? tfc_kernel_alloc_output(ctx, (int)(paths + p), TFC_DTYPE_INT64, 1, &total) : NULL;
    tfc_tensor *ts = tv ? tfc_kernel_alloc_output(ctx, (int)(2 * paths + p), TFC_DTYPE_INT64, 1, &two) : NULL;
    if (!ts) goto done;
    int64_t *pi = ti->data, *pv = tv->data, k = 0;
    for (int64_t b = 0; b < B; b++)
      for (int64_t j = 0; j < lens[p * B + b]; j++, k++) {
        pi[2 * k] = b;
        pi[2 * k + 1] = j;
        pv[k] = seqs[p * B + b][j];
      }
    ((int64_t *)ts->data)[0] = B;
    ((int64_t *)ts->data)[1] = maxlen;
  }
done:
  pool_clear(&s);
  tfc_free(s.pool);
  tfc_free(s.leaves);
  tfc_free(branches);
  tfc_free(x);
  if (seqs)
    for (int64_t i = 0; i < paths * B; i++) tfc_free(seqs[i]);
  tfc_free(seqs);
  tfc_free(lens);
}

static const tfc_kernel_def defs[] = {
    {"CTCBeamSearchDecoder", "CPU", NULL, NULL, NULL, ctc_beam_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_ctc_beam = {defs, (int)(sizeof defs / sizeof defs[0])};
