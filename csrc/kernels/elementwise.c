/*
 * elementwise.c — the CPU kernels of the math family (core/ops_math.c):
 * broadcasting binary ops, comparisons and logical ops, unary ops, Cast,
 * AddN, ZerosLike/OnesLike, the *Grad helpers and BroadcastGradientArgs;
 * Select, SelectV2 and ClipByValue live in elementwise_select.c. The typed
 * loops are in elementwise_{binary,compare,unary}.c and cast.c.
 */
#include <string.h>

#include "base/alloc.h"
#include "kernels/elementwise_internal.h"
#include "kernels/kernel_tables.h"

/* ---------------------------------------------------------------- shared helpers */

/* Turns inner-loop error bits into the kernel's status (TF's messages and
 * codes: TF names integer division by zero only for Div, FloorDiv and
 * FloorMod; TruncateDiv and TruncateMod by zero fail with TF's generic
 * INTERNAL "Unexpected error in binary operator" instead). */
void tfc_ew_report(tfc_kernel_ctx *ctx, int err) {
  if (!err) return;
  if (err & TFC_EW_ERR_OOM)
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when allocating a string result");
  else if ((err & TFC_EW_ERR_DIV0) &&
           (!strcmp(ctx->op_type, "TruncateDiv") || !strcmp(ctx->op_type, "TruncateMod")))
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL,
                    "Unexpected error in binary operator (only integer div and mod should have errors)");
  else if (err & TFC_EW_ERR_DIV0)
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Integer division by zero");
  else if (err & TFC_EW_ERR_NEGPOW)
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Integers to negative integer powers are not allowed");
  else
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "%s: no elementwise loop for dtype %s", ctx->op_type,
                    tfc_dtype_name(ctx->inputs[0]->dtype));
}

/* The arithmetic or comparison row of op. */
const tfc_ew_binary_info *tfc_ew_binary_info_of(tfc_ew_binop op) {
  return tfc_ew_arith_ops[op].fn ? &tfc_ew_arith_ops[op] : &tfc_ew_compare_ops[op];
}

/* Fails ctx with TF's "Incompatible shapes: [a] vs. [b]". */
static void fail_incompatible(tfc_kernel_ctx *ctx, const tfc_tensor *a, const tfc_tensor *b) {
  char sa[160], sb[160];
  tfc_ew_dims_string(a->rank, a->dims, sa, sizeof sa);
  tfc_ew_dims_string(b->rank, b->dims, sb, sizeof sb);
  tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s", sa, sb);
}

/* ---------------------------------------------------------------- binary ops */

typedef struct bin_arg {
  tfc_ew_binary_fn fn;
  tfc_dtype t;
} bin_arg;

/* Plan-driver adapter: picks the loop layout from the inner steps. */
static int bin_inner(void *arg, const char *const *in, const int *step, char *out, int64_t n) {
  const bin_arg *a = arg;
  int mode = step[0] ? (step[1] ? TFC_EW_VV : TFC_EW_VS) : TFC_EW_SV;
  return a->fn(a->t, in[0], in[1], out, n, mode);
}

typedef struct str_arg {
  tfc_tensor *out;
  tfc_ew_binop op;
  char *scratch;
  size_t cap;
} str_arg;

/* String inner loop: Add concatenates into the output tensor, Equal/NotEqual
 * compare bytes. */
static int str_inner(void *arg, const char *const *in, const int *step, char *out, int64_t n) {
  str_arg *a = arg;
  const tfc_string *x = (const tfc_string *)in[0], *y = (const tfc_string *)in[1];
  for (int64_t i = 0; i < n; i++) {
    const tfc_string *xs = &x[step[0] ? i : 0], *ys = &y[step[1] ? i : 0];
    if (a->op == TFC_EW_ADD) {
      size_t len = xs->len + ys->len;
      if (len > a->cap) {
        char *p = tfc_realloc(a->scratch, len);
        if (!p) return TFC_EW_ERR_OOM;
        a->scratch = p;
        a->cap = len;
      }
      if (xs->len) memcpy(a->scratch, xs->data, xs->len);
      if (ys->len) memcpy(a->scratch + xs->len, ys->data, ys->len);
      int64_t idx = (int64_t)(((tfc_string *)(void *)out + i) - (tfc_string *)a->out->data);
      tfc_status st;
      tfc_status_clear(&st);
      if (!tfc_tensor_set_string(a->out, idx, a->scratch, len, &st)) return TFC_EW_ERR_OOM;
    } else {
      bool eq = xs->len == ys->len && (xs->len == 0 || memcmp(xs->data, ys->data, xs->len) == 0);
      ((uint8_t *)out)[i] = (uint8_t)(a->op == TFC_EW_EQUAL ? eq : !eq);
    }
  }
  return 0;
}

/* Computes a broadcasting binary op (arithmetic, comparison or logical) with
 * the loop in info; op is its row (TFC_EW_BINOP_COUNT for loops of other
 * files, which never see strings or incompatible_shape_error). */
static void binary_run(tfc_kernel_ctx *ctx, tfc_ew_binop op, const tfc_ew_binary_info *info) {
  const tfc_tensor *x = ctx->inputs[0], *y = ctx->inputs[1];
  const tfc_tensor *ins[2] = {x, y};
  if (x->dtype != y->dtype) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: inputs have different types %s and %s",
                    ctx->op_type, tfc_dtype_name(x->dtype), tfc_dtype_name(y->dtype));
    return;
  }
  if (x->rank == 0 && y->rank == 0 && x->dtype != TFC_DTYPE_STRING) {
    /* two scalars (loop counters, flags): no broadcast plan, no sharding */
    tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, info->out_bool ? TFC_DTYPE_BOOL : x->dtype, 0, NULL);
    if (out) tfc_ew_report(ctx, info->fn(x->dtype, x->data, y->data, out->data, 1, TFC_EW_VV));
    return;
  }
  tfc_ew_plan plan;
  if (!tfc_ew_plan_make(&plan, 2, ins)) {
    bool strict = true;
    if (op == TFC_EW_EQUAL || op == TFC_EW_NOT_EQUAL) {
      const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "incompatible_shape_error");
      if (v && v->kind == TFC_ATTR_B) strict = v->v.b;
    }
    if (strict) {
      fail_incompatible(ctx, x, y);
      return;
    }
    tfc_tensor *o = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_BOOL, 0, NULL);
    if (o) *(uint8_t *)o->data = op == TFC_EW_NOT_EQUAL;
    return;
  }
  tfc_dtype ot = info->out_bool ? TFC_DTYPE_BOOL : x->dtype;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, ot, plan.out_rank, plan.out_dims);
  if (!out || plan.nelems == 0) return;
  const void *in[2] = {x->data, y->data};
  size_t esz[2] = {tfc_dtype_size(x->dtype), tfc_dtype_size(y->dtype)};
  int err;
  if (x->dtype == TFC_DTYPE_STRING) {
    if (op != TFC_EW_ADD && op != TFC_EW_EQUAL && op != TFC_EW_NOT_EQUAL) {
      tfc_ew_report(ctx, TFC_EW_ERR_TYPE);
      return;
    }
    str_arg sa = {out, op, NULL, 0};
    err = tfc_ew_plan_run(ctx, &plan, in, esz, out->data, tfc_dtype_size(ot), 0, str_inner, &sa);
    tfc_free(sa.scratch);
  } else {
    bin_arg ba = {info->fn, x->dtype};
    err = tfc_ew_plan_run(ctx, &plan, in, esz, out->data, tfc_dtype_size(ot),
                          info->heavy ? TFC_EW_SHARD_HEAVY : TFC_EW_SHARD, bin_inner, &ba);
  }
  tfc_ew_report(ctx, err);
}

/* Computes the broadcasting binary op of row op. */
static void binary_compute(tfc_kernel_ctx *ctx, tfc_ew_binop op) {
  binary_run(ctx, op, tfc_ew_binary_info_of(op));
}

/* Runs a numeric broadcasting binary loop defined outside this file. */
void tfc_ew_binary_kernel(tfc_kernel_ctx *ctx, const tfc_ew_binary_info *info) {
  binary_run(ctx, TFC_EW_BINOP_COUNT, info);
}

/* ---------------------------------------------------------------- same-size binary (*Grad) */

typedef struct flat2_job {
  tfc_ew_binary_fn fn;
  tfc_dtype t;
  const char *x, *y;
  char *z;
  size_t esz;
  atomic_int err;
} flat2_job;

/* Runs elements [b, e) of a same-size binary job. */
static void flat2_shard(void *arg, int64_t b, int64_t e) {
  flat2_job *j = arg;
  size_t o = (size_t)b * j->esz;
  int err = j->fn(j->t, j->x + o, j->y + o, j->z + o, e - b, TFC_EW_VV);
  if (err) atomic_fetch_or(&j->err, err);
}

/* Computes a gradient helper: z = f(y, dy) over equal-size inputs (no broadcasting). */
static void grad_compute(tfc_kernel_ctx *ctx, tfc_ew_binop op) {
  const tfc_tensor *y = ctx->inputs[0], *dy = ctx->inputs[1];
  if (y->nelems != dy->nelems) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "The two arguments to a cwise op must have same number of elements, got %lld "
                    "and %lld",
                    (long long)y->nelems, (long long)dy->nelems);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, y->dtype, y->rank, y->dims);
  if (!out || y->nelems == 0) return;
  flat2_job j = {tfc_ew_arith_ops[op].fn, y->dtype, y->data, dy->data, out->data,
                 tfc_dtype_size(y->dtype), 0};
  tfc_kernel_parallel_for(ctx, y->nelems, TFC_EW_SHARD, flat2_shard, &j);
  tfc_ew_report(ctx, atomic_load(&j.err));
}

/* ---------------------------------------------------------------- unary ops */

typedef struct unary_job {
  tfc_ew_unary_fn fn;
  tfc_dtype t;
  const char *x;
  char *y;
  size_t in_esz, out_esz;
  atomic_int err;
} unary_job;

/* Runs elements [b, e) of a unary job. */
static void unary_shard(void *arg, int64_t b, int64_t e) {
  unary_job *j = arg;
  int err = j->fn(j->t, j->x + (size_t)b * j->in_esz, j->y + (size_t)b * j->out_esz, e - b);
  if (err) atomic_fetch_or(&j->err, err);
}

/* Computes the unary op of row op; the output has the input's shape. */
static void unary_compute(tfc_kernel_ctx *ctx, tfc_ew_unop op) {
  tfc_ew_unary_kernel(ctx, &tfc_ew_unary_ops[op]);
}

/* Runs the unary loop in info over the kernel's input; the output has the
 * input's shape. */
void tfc_ew_unary_kernel(tfc_kernel_ctx *ctx, const tfc_ew_unary_info *info) {
  const tfc_tensor *x = ctx->inputs[0];
  tfc_dtype ot = info->out_bool ? TFC_DTYPE_BOOL : x->dtype;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, ot, x->rank, x->dims);
  if (!out || x->nelems == 0) return;
  unary_job j = {info->fn, x->dtype, x->data, out->data, tfc_dtype_size(x->dtype),
                 tfc_dtype_size(ot), 0};
  tfc_kernel_parallel_for(ctx, x->nelems, info->heavy ? TFC_EW_SHARD_HEAVY : TFC_EW_SHARD,
                          unary_shard, &j);
  tfc_ew_report(ctx, atomic_load(&j.err));
}

/* ---------------------------------------------------------------- Cast */

typedef struct cast_job {
  tfc_dtype src, dst;
  bool truncate;
  const char *in;
  char *out;
  size_t ssz, dsz;
} cast_job;

/* Converts elements [b, e) of a cast job. */
static void cast_shard(void *arg, int64_t b, int64_t e) {
  const cast_job *j = arg;
  tfc_ew_cast_run(j->src, j->dst, j->truncate, j->in + (size_t)b * j->ssz,
                  j->out + (size_t)b * j->dsz, e - b);
}

/* Cast: SrcT -> DstT (identity forwards the input). */
static void cast_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0];
  tfc_dtype dst;
  bool truncate = false;
  if (!tfc_attrs_get_type(ctx->attrs, "DstT", &dst, ctx->st)) return;
  const tfc_attr_value *tv = tfc_attrs_find(ctx->attrs, "Truncate");
  if (tv && tv->kind == TFC_ATTR_B) truncate = tv->v.b;
  dst = tfc_dtype_base(dst);
  if (x->dtype == dst) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  if (!tfc_ew_cast_supported(x->dtype, dst)) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "Cast %s to %s is not supported",
                    tfc_op_dtype_string(x->dtype), tfc_op_dtype_string(dst));
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, dst, x->rank, x->dims);
  if (!out || x->nelems == 0) return;
  cast_job j = {x->dtype, dst, truncate, x->data, out->data, tfc_dtype_size(x->dtype),
                tfc_dtype_size(dst)};
  tfc_kernel_parallel_for(ctx, x->nelems, TFC_EW_SHARD, cast_shard, &j);
}

/* ---------------------------------------------------------------- AddN */

typedef struct addn_job {
  tfc_tensor *const *ins;
  int n;
  char *out;
  size_t esz;
  tfc_dtype t;
} addn_job;

/* Sums elements [b, e) of all inputs chunk by chunk, ping-ponging partial sums
 * between a stack buffer and the output so the last add lands in the output. */
static void addn_shard(void *arg, int64_t b, int64_t e) {
  const addn_job *j = arg;
  _Alignas(64) char tmp[TFC_EW_CHUNK * 16];
  tfc_ew_binary_fn add = tfc_ew_arith_ops[TFC_EW_ADD].fn;
  for (int64_t c = b; c < e; c += TFC_EW_CHUNK) {
    int64_t m = e - c < TFC_EW_CHUNK ? e - c : TFC_EW_CHUNK;
    size_t off = (size_t)c * j->esz;
    char *out = j->out + off;
    const char *acc = (const char *)j->ins[0]->data + off;
    for (int k = 1; k < j->n; k++) {
      char *dst = ((j->n - 1 - k) % 2 == 0) ? out : tmp;
      add(j->t, acc, (const char *)j->ins[k]->data + off, dst, m, TFC_EW_VV);
      acc = dst;
    }
  }
}

/* AddN: elementwise sum of N same-shape tensors. */
static void addn_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x0 = ctx->inputs[0];
  for (int k = 1; k < ctx->n_inputs; k++) {
    if (!tfc_tensor_same_shape(x0, ctx->inputs[k])) {
      char s0[160], sk[160];
      tfc_ew_dims_string(x0->rank, x0->dims, s0, sizeof s0);
      tfc_ew_dims_string(ctx->inputs[k]->rank, ctx->inputs[k]->dims, sk, sizeof sk);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Inputs to operation %s of type AddN must have the same size and shape.  "
                      "Input 0: %s != input %d: %s",
                      ctx->node_name ? ctx->node_name : "AddN", s0, k, sk);
      return;
    }
  }
  if (ctx->n_inputs == 1) {
    tfc_kernel_forward(ctx, 0, 0);
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, x0->dtype, x0->rank, x0->dims);
  if (!out || x0->nelems == 0) return;
  addn_job j = {ctx->inputs, ctx->n_inputs, out->data, tfc_dtype_size(x0->dtype), x0->dtype};
  tfc_kernel_parallel_for(ctx, x0->nelems, TFC_EW_SHARD, addn_shard, &j);
}

/* ---------------------------------------------------------------- ZerosLike / OnesLike */

/* ZerosLike: zeros (empty strings, false) of x's shape and type. */
static void zeros_like_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0];
  tfc_tensor *t = tfc_tensor_zeros(x->dtype, x->rank, x->dims, ctx->st);
  if (t) tfc_kernel_set_output(ctx, 0, t);
}

/* OnesLike: ones of x's shape and type. */
static void ones_like_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *x = ctx->inputs[0];
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, x->dtype, x->rank, x->dims);
  if (!out || x->nelems == 0) return;
  _Alignas(16) unsigned char one[16];
  int32_t i1 = 1;
  tfc_ew_cast_run(TFC_DTYPE_INT32, x->dtype, false, &i1, one, 1);
  size_t esz = tfc_dtype_size(x->dtype);
  char *p = out->data;
  for (int64_t i = 0; i < x->nelems; i++) memcpy(p + (size_t)i * esz, one, esz);
}

/* ---------------------------------------------------------------- BroadcastGradientArgs */

#define BGA_MAX 64

/* Writes n axes as a T vector into output i. */
static void bga_output(tfc_kernel_ctx *ctx, int i, tfc_dtype t, const int64_t *axes, int n) {
  int64_t dim = n;
  tfc_tensor *o = tfc_kernel_alloc_output(ctx, i, t, 1, &dim);
  if (!o) return;
  for (int k = 0; k < n; k++) {
    if (t == TFC_DTYPE_INT32) ((int32_t *)o->data)[k] = (int32_t)axes[k];
    else ((int64_t *)o->data)[k] = axes[k];
  }
}

/* BroadcastGradientArgs(s0, s1) -> (r0, r1): the axes each gradient is summed over. */
static void bga_compute(tfc_kernel_ctx *ctx) {
  int64_t a[BGA_MAX], b[BGA_MAX], ra[BGA_MAX], rb[BGA_MAX];
  int na = tfc_kernel_read_int_vector(ctx, ctx->inputs[0], a, BGA_MAX, "s0");
  if (na < 0) return;
  int nb = tfc_kernel_read_int_vector(ctx, ctx->inputs[1], b, BGA_MAX, "s1");
  if (nb < 0) return;
  int nra, nrb;
  if (!tfc_ew_grad_reduce_axes(a, na, b, nb, ra, &nra, rb, &nrb)) {
    char sa[400], sb[400];
    tfc_ew_dims_string(na, a, sa, sizeof sa);
    tfc_ew_dims_string(nb, b, sb, sizeof sb);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s", sa, sb);
    return;
  }
  tfc_dtype t = ctx->inputs[0]->dtype;
  bga_output(ctx, 0, t, ra, nra);
  if (tfc_kernel_ok(ctx)) bga_output(ctx, 1, t, rb, nrb);
}

/* ---------------------------------------------------------------- the table */

/* k_<Name>(ctx): the compute function of op Name, running the shared
 * binary / gradient-helper / unary kernel on its op id. */
#define BIN_K(Name, OP) \
  static void k_##Name(tfc_kernel_ctx *ctx) { binary_compute(ctx, OP); }
#define GRAD_K(Name, OP) \
  static void k_##Name(tfc_kernel_ctx *ctx) { grad_compute(ctx, OP); }
#define UN_K(Name, OP) \
  static void k_##Name(tfc_kernel_ctx *ctx) { unary_compute(ctx, OP); }

BIN_K(Add, TFC_EW_ADD)
BIN_K(Sub, TFC_EW_SUB)
BIN_K(Mul, TFC_EW_MUL)
BIN_K(Div, TFC_EW_DIV)
BIN_K(RealDiv, TFC_EW_REALDIV)
BIN_K(FloorDiv, TFC_EW_FLOORDIV)
BIN_K(FloorMod, TFC_EW_FLOORMOD)
BIN_K(TruncateDiv, TFC_EW_TRUNCDIV)
BIN_K(TruncateMod, TFC_EW_TRUNCMOD)
BIN_K(Pow, TFC_EW_POW)
BIN_K(Maximum, TFC_EW_MAXIMUM)
BIN_K(Minimum, TFC_EW_MINIMUM)
BIN_K(SquaredDifference, TFC_EW_SQDIFF)
BIN_K(DivNoNan, TFC_EW_DIVNONAN)
BIN_K(Equal, TFC_EW_EQUAL)
BIN_K(NotEqual, TFC_EW_NOT_EQUAL)
BIN_K(Less, TFC_EW_LESS)
BIN_K(LessEqual, TFC_EW_LESS_EQUAL)
BIN_K(Greater, TFC_EW_GREATER)
BIN_K(GreaterEqual, TFC_EW_GREATER_EQUAL)
BIN_K(LogicalAnd, TFC_EW_LOGICAL_AND)
BIN_K(LogicalOr, TFC_EW_LOGICAL_OR)
GRAD_K(SigmoidGrad, TFC_EW_SIGMOID_GRAD)
GRAD_K(TanhGrad, TFC_EW_TANH_GRAD)
GRAD_K(SqrtGrad, TFC_EW_SQRT_GRAD)
GRAD_K(RsqrtGrad, TFC_EW_RSQRT_GRAD)
GRAD_K(ReciprocalGrad, TFC_EW_RECIPROCAL_GRAD)
UN_K(Neg, TFC_EW_NEG)
UN_K(Abs, TFC_EW_ABS)
UN_K(Square, TFC_EW_SQUARE)
UN_K(Sqrt, TFC_EW_SQRT)
UN_K(Rsqrt, TFC_EW_RSQRT)
UN_K(Exp, TFC_EW_EXP)
UN_K(Expm1, TFC_EW_EXPM1)
UN_K(Log, TFC_EW_LOG)
UN_K(Log1p, TFC_EW_LOG1P)
UN_K(Tanh, TFC_EW_TANH)
UN_K(Sigmoid, TFC_EW_SIGMOID)
UN_K(Sign, TFC_EW_SIGN)
UN_K(Reciprocal, TFC_EW_RECIPROCAL)
UN_K(Floor, TFC_EW_FLOOR)
UN_K(Ceil, TFC_EW_CEIL)
UN_K(Round, TFC_EW_ROUND)
UN_K(Sin, TFC_EW_SIN)
UN_K(Cos, TFC_EW_COS)
UN_K(IsNan, TFC_EW_ISNAN)
UN_K(IsInf, TFC_EW_ISINF)
UN_K(IsFinite, TFC_EW_ISFINITE)
UN_K(LogicalNot, TFC_EW_LOGICAL_NOT)

#define F4 TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16
#define SI TFC_DTYPE_INT8, TFC_DTYPE_INT16, TFC_DTYPE_INT32, TFC_DTYPE_INT64
#define UI TFC_DTYPE_UINT8, TFC_DTYPE_UINT16, TFC_DTYPE_UINT32, TFC_DTYPE_UINT64
#define CX TFC_DTYPE_COMPLEX64, TFC_DTYPE_COMPLEX128
static const tfc_dtype t_float[] = {F4, TFC_DTYPE_INVALID};
static const tfc_dtype t_float_c[] = {F4, CX, TFC_DTYPE_INVALID};
static const tfc_dtype t_signed[] = {F4, SI, TFC_DTYPE_INVALID};
static const tfc_dtype t_signed_c[] = {F4, SI, CX, TFC_DTYPE_INVALID};
static const tfc_dtype t_num[] = {F4, SI, UI, TFC_DTYPE_INVALID};
static const tfc_dtype t_num_c[] = {F4, SI, UI, CX, TFC_DTYPE_INVALID};
static const tfc_dtype t_num_str[] = {F4, SI, UI, CX, TFC_DTYPE_STRING, TFC_DTYPE_INVALID};
static const tfc_dtype t_num_bool[] = {F4, SI, UI, CX, TFC_DTYPE_BOOL, TFC_DTYPE_INVALID};
static const tfc_dtype t_all[] = {F4, SI, UI, CX, TFC_DTYPE_BOOL, TFC_DTYPE_STRING,
                                  TFC_DTYPE_INVALID};
static const tfc_dtype t_index[] = {TFC_DTYPE_INT32, TFC_DTYPE_INT64, TFC_DTYPE_INVALID};

/* Kernel defs: op Name on CPU, dtype-constrained through attr ATTR. */
#define K(Name, ATTR, TYPES) {#Name, "CPU", ATTR, TYPES, NULL, k_##Name, NULL, 0}
#define KT(Name, TYPES) K(Name, "T", TYPES)

static const tfc_kernel_def defs[] = {
    KT(Add, t_num_str),
    {"AddV2", "CPU", "T", t_num_c, NULL, k_Add, NULL, 0},
    KT(Sub, t_num_c),
    KT(Mul, t_num_c),
    KT(Div, t_num_c),
    KT(RealDiv, t_float_c),
    KT(FloorDiv, t_num),
    KT(FloorMod, t_num),
    KT(TruncateDiv, t_num),
    KT(TruncateMod, t_num),
    KT(Pow, t_signed_c),
    KT(Maximum, t_num),
    KT(Minimum, t_num),
    KT(SquaredDifference, t_num_c),
    KT(DivNoNan, t_float_c),
    KT(Equal, t_all),
    KT(NotEqual, t_all),
    KT(Less, t_num),
    KT(LessEqual, t_num),
    KT(Greater, t_num),
    KT(GreaterEqual, t_num),
    K(LogicalAnd, NULL, NULL),
    K(LogicalOr, NULL, NULL),
    K(LogicalNot, NULL, NULL),
    KT(SigmoidGrad, t_float_c),
    KT(TanhGrad, t_float_c),
    KT(SqrtGrad, t_float_c),
    KT(RsqrtGrad, t_float_c),
    KT(ReciprocalGrad, t_float_c),
    {"InvGrad", "CPU", "T", t_float_c, NULL, k_ReciprocalGrad, NULL, 0},
    KT(Neg, t_signed_c),
    KT(Abs, t_signed),
    KT(Square, t_num_c),
    KT(Sqrt, t_float_c),
    KT(Rsqrt, t_float_c),
    KT(Exp, t_float_c),
    KT(Expm1, t_float_c),
    KT(Log, t_float_c),
    KT(Log1p, t_float_c),
    KT(Tanh, t_float_c),
    KT(Sigmoid, t_float_c),
    KT(Sign, t_signed_c),
    KT(Reciprocal, t_float_c),
    {"Inv", "CPU", "T", t_float_c, NULL, k_Reciprocal, NULL, 0},
    KT(Floor, t_float),
    KT(Ceil, t_float),
    KT(Round, t_signed),
    KT(Sin, t_float_c),
    KT(Cos, t_float_c),
    KT(IsNan, t_float),
    KT(IsInf, t_float),
    KT(IsFinite, t_float),
    {"Select", "CPU", "T", t_all, NULL, tfc_ew_select_compute, NULL, 0},
    {"SelectV2", "CPU", "T", t_all, NULL, tfc_ew_select_v2_compute, NULL, 0},
    {"ClipByValue", "CPU", "T", t_num, NULL, tfc_ew_clip_compute, NULL, 0},
    {"Cast", "CPU", NULL, NULL, NULL, cast_compute, NULL, 0},
    {"AddN", "CPU", "T", t_num_c, NULL, addn_compute, NULL, 0},
    {"ZerosLike", "CPU", "T", t_all, NULL, zeros_like_compute, NULL, 0},
    {"OnesLike", "CPU", "T", t_num_bool, NULL, ones_like_compute, NULL, 0},
    {"BroadcastGradientArgs", "CPU", "T", t_index, NULL, bga_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_elementwise = {defs, (int)(sizeof defs / sizeof defs[0])};
