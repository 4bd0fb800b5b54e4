/*
 * elementwise_select.c — the three-input elementwise kernels: Select (TF1
 * rules: scalar, batch-vector or same-shape condition), SelectV2 (NumPy
 * broadcasting of all three) and ClipByValue (bounds scalar or same shape).
 * All run through the broadcast plan driver (broadcast.c).
 */
#include <string.h>

#include "kernels/elementwise_internal.h"

/* ---------------------------------------------------------------- select loops */

typedef struct sel_arg {
  size_t esz;
  tfc_tensor *out;  /* for STRING: deep copies go through tfc_tensor_set_string */
} sel_arg;

/* A 16-byte element (complex128) moved as a whole. */
typedef struct tfc_ew_pair64 {
  uint64_t lo, hi;
} tfc_ew_pair64;

#define SEL(T)                                                                               \
  {                                                                                          \
    const T *restrict x = (const T *)(const void *)in[1];                                    \
    const T *restrict y = (const T *)(const void *)in[2];                                    \
    T *restrict o = (T *)(void *)out;                                                        \
    if (step[0] && step[1] && step[2]) {                                                     \
      for (int64_t i = 0; i < n; i++) o[i] = c[i] ? x[i] : y[i];                             \
    } else {                                                                                 \
      const int64_t sc = step[0], sx = step[1], sy = step[2];                                \
      for (int64_t i = 0; i < n; i++) o[i] = c[i * sc] ? x[i * sx] : y[i * sy];              \
    }                                                                                        \
    return 0;                                                                                \
  }

/* Plan-driver inner loop: out[i] = cond[i] ? then[i] : else[i]. */
static int sel_inner(void *arg, const char *const *in, const int *step, char *out, int64_t n) {
  const sel_arg *a = arg;
  const uint8_t *c = (const uint8_t *)in[0];
  if (a->out->dtype == TFC_DTYPE_STRING) {
    const tfc_string *x = (const tfc_string *)(const void *)in[1];
    const tfc_string *y = (const tfc_string *)(const void *)in[2];
    int64_t base = (int64_t)((tfc_string *)(void *)out - (tfc_string *)a->out->data);
    for (int64_t i = 0; i < n; i++) {
      const tfc_string *s = c[i * step[0]] ? &x[i * step[1]] : &y[i * step[2]];
      tfc_status st;
      tfc_status_clear(&st);
      if (!tfc_tensor_set_string(a->out, base + i, s->data, s->len, &st)) return TFC_EW_ERR_OOM;
    }
    return 0;
  }
  if (!step[0] && step[1] && step[2]) {
    memcpy(out, c[0] ? in[1] : in[2], (size_t)n * a->esz);
    return 0;
  }
  switch (a->esz) {
    case 1: SEL(uint8_t)
    case 2: SEL(uint16_t)
    case 4: SEL(uint32_t)
    case 8: SEL(uint64_t)
    case 16: SEL(tfc_ew_pair64)
    default: return TFC_EW_ERR_TYPE;
  }
}

/* Runs the select loop for a plan over (cond, then, else) into a new output. */
static void run_select(tfc_kernel_ctx *ctx, const tfc_ew_plan *plan, const tfc_tensor *cond,
                       const tfc_tensor *t, const tfc_tensor *e) {
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, t->dtype, plan->out_rank, plan->out_dims);
  if (!out || plan->nelems == 0) return;
  size_t esz = tfc_dtype_size(t->dtype);
  sel_arg a = {esz, out};
  const void *in[3] = {cond->data, t->data, e->data};
  size_t in_esz[3] = {1, esz, esz};
  int64_t shard = t->dtype == TFC_DTYPE_STRING ? 0 : TFC_EW_SHARD;
  tfc_ew_report(ctx, tfc_ew_plan_run(ctx, plan, in, in_esz, out->data, esz, shard, sel_inner, &a));
}

/* Fails ctx unless a and b have the same shape, with TF's Select message. */
static bool same_size_or_fail(tfc_kernel_ctx *ctx, const tfc_tensor *a, const tfc_tensor *b) {
  if (tfc_tensor_same_shape(a, b)) return true;
  char sa[160], sb[160];
  tfc_ew_dims_string(a->rank, a->dims, sa, sizeof sa);
  tfc_ew_dims_string(b->rank, b->dims, sb, sizeof sb);
  return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                         "'then' and 'else' must have the same size.  but received: %s vs. %s", sa,
                         sb);
}

/* Select(condition, t, e): TF1 semantics. */
void tfc_ew_select_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *cond = ctx->inputs[0], *t = ctx->inputs[1], *e = ctx->inputs[2];
  if (cond->rank == 0) {
    if (!same_size_or_fail(ctx, t, e)) return;
    tfc_kernel_forward(ctx, *(const uint8_t *)cond->data ? 1 : 2, 0);
    return;
  }
  tfc_ew_plan plan;
  if (cond->rank == 1 && t->rank != 1) {
    if (t->rank == 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "'then' must be at least a vector, but saw shape: []");
      return;
    }
    if (!same_size_or_fail(ctx, t, e)) return;
    if (t->dims[0] != cond->dims[0]) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Number of batches of 'then' must match size of 'cond', but saw: %lld vs. "
                      "%lld",
                      (long long)t->dims[0], (long long)cond->dims[0]);
      return;
    }
    /* The condition as a [n, 1, ..., 1] header broadcast along the rows. */
    tfc_tensor c2 = {.dtype = cond->dtype, .rank = t->rank, .nelems = cond->nelems,
                     .data = cond->data};
    c2.dims[0] = cond->dims[0];
    for (int i = 1; i < t->rank; i++) c2.dims[i] = 1;
    const tfc_tensor *ins[3] = {&c2, t, e};
    if (!tfc_ew_plan_make(&plan, 3, ins)) {
      tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "Select: bad batch plan");
      return;
    }
    run_select(ctx, &plan, cond, t, e);
    return;
  }
  const tfc_tensor *ins[3] = {cond, t, e};
  for (int k = 1; k < 3; k++) {
    if (!tfc_tensor_same_shape(cond, ins[k])) {
      char s0[160], sk[160];
      tfc_ew_dims_string(cond->rank, cond->dims, s0, sizeof s0);
      tfc_ew_dims_string(ins[k]->rank, ins[k]->dims, sk, sizeof sk);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Inputs to operation %s of type Select must have the same size and shape.  "
                      "Input 0: %s != input %d: %s",
                      ctx->node_name ? ctx->node_name : "Select", s0, k, sk);
      return;
    }
  }
  if (!tfc_ew_plan_make(&plan, 3, ins)) {
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "Select: bad plan");
    return;
  }
  run_select(ctx, &plan, cond, t, e);
}

/* SelectV2(condition, t, e): all three broadcast together. */
void tfc_ew_select_v2_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *cond = ctx->inputs[0], *t = ctx->inputs[1], *e = ctx->inputs[2];
  const tfc_tensor *ins[3] = {cond, t, e};
  tfc_ew_plan plan;
  if (!tfc_ew_plan_make(&plan, 3, ins)) {
    char sc[160], st[160], se[160];
    tfc_ew_dims_string(cond->rank, cond->dims, sc, sizeof sc);
    tfc_ew_dims_string(t->rank, t->dims, st, sizeof st);
    tfc_ew_dims_string(e->rank, e->dims, se, sizeof se);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "condition %s, then %s, and else %s must be broadcastable", sc, st, se);
    return;
  }
  run_select(ctx, &plan, cond, t, e);
}

/* ---------------------------------------------------------------- ClipByValue */

/* Eigen's cwiseMin(hi).cwiseMax(lo): NaN inputs stay NaN, lo wins over hi. */
#define CLIP_EXPR(v, l, h, m) (m = (h) < (v) ? (h) : (v), (m) < (l) ? (l) : (m))

#define CLIP_CASE(DT, E)                                                                     \
  case TFC_DTYPE_##DT: {                                                                     \
    const E *restrict x = (const E *)(const void *)in[0];                                    \
    const E *restrict lo = (const E *)(const void *)in[1];                                   \
    const E *restrict hi = (const E *)(const void *)in[2];                                   \
    E *restrict o = (E *)(void *)out;                                                        \
    for (int64_t i = 0; i < n; i++) {                                                        \
      E m;                                                                                   \
      o[i] = CLIP_EXPR(x[i], lo[i * sl], hi[i * sh], m);                                     \
    }                                                                                        \
    return 0;                                                                                \
  }

/* Plan-driver inner loop of ClipByValue; arg points to the dtype. */
static int clip_inner(void *arg, const char *const *in, const int *step, char *out, int64_t n) {
  tfc_dtype t = *(const tfc_dtype *)arg;
  const int64_t sl = step[1], sh = step[2];
  switch (t) {
    CLIP_CASE(FLOAT, float)
    CLIP_CASE(DOUBLE, double)
    CLIP_CASE(INT8, int8_t)
    CLIP_CASE(INT16, int16_t)
    CLIP_CASE(INT32, int32_t)
    CLIP_CASE(INT64, int64_t)
    CLIP_CASE(UINT8, uint8_t)
    CLIP_CASE(UINT16, uint16_t)
    CLIP_CASE(UINT32, uint32_t)
    CLIP_CASE(UINT64, uint64_t)
    case TFC_DTYPE_HALF:
    case TFC_DTYPE_BFLOAT16: {
      float xb[TFC_EW_CHUNK], lb[TFC_EW_CHUNK], hb[TFC_EW_CHUNK];
      const uint16_t *x = (const uint16_t *)(const void *)in[0];
      const uint16_t *lo = (const uint16_t *)(const void *)in[1];
      const uint16_t *hi = (const uint16_t *)(const void *)in[2];
      for (int64_t off = 0; off < n; off += TFC_EW_CHUNK) {
        int64_t m = n - off < TFC_EW_CHUNK ? n - off : TFC_EW_CHUNK;
        tfc_ew_widen(t, x + off, xb, m);
        tfc_ew_widen(t, lo + off * sl, lb, sl ? m : 1);
        tfc_ew_widen(t, hi + off * sh, hb, sh ? m : 1);
        for (int64_t i = 0; i < m; i++) {
          float mm;
          xb[i] = CLIP_EXPR(xb[i], lb[i * sl], hb[i * sh], mm);
        }
        tfc_ew_narrow(t, xb, (uint16_t *)(void *)out + off, m);
      }
      return 0;
    }
    default:
      return TFC_EW_ERR_TYPE;
  }
}

/* ClipByValue(t, clip_value_min, clip_value_max). */
void tfc_ew_clip_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *t = ctx->inputs[0], *lo = ctx->inputs[1], *hi = ctx->inputs[2];
  bool ok_lo = tfc_tensor_same_shape(t, lo) || lo->rank == 0;
  bool ok_hi = tfc_tensor_same_shape(t, hi) || hi->rank == 0;
  if (!ok_lo || !ok_hi) {
    char s0[160], s1[160], s2[160];
    tfc_ew_dims_string(t->rank, t->dims, s0, sizeof s0);
    tfc_ew_dims_string(lo->rank, lo->dims, s1, sizeof s1);
    tfc_ew_dims_string(hi->rank, hi->dims, s2, sizeof s2);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "clip_value_min and clip_value_max must be either of the same shape as input, "
                    "or a scalar. input shape: %sclip_value_min shape: %sclip_value_max shape: %s",
                    s0, s1, s2);
    return;
  }
  const tfc_tensor *ins[3] = {t, lo, hi};
  tfc_ew_plan plan;
  if (!tfc_ew_plan_make(&plan, 3, ins)) {
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "ClipByValue: bad plan");
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, t->dtype, t->rank, t->dims);
  if (!out || plan.nelems == 0) return;
  size_t esz = tfc_dtype_size(t->dtype);
  const void *in[3] = {t->data, lo->data, hi->data};
  size_t in_esz[3] = {esz, esz, esz};
  tfc_dtype dt = t->dtype;
  tfc_ew_report(ctx, tfc_ew_plan_run(ctx, &plan, in, in_esz, out->data, esz, TFC_EW_SHARD,
                                     clip_inner, &dt));
}
