/*
 * ops_math.c — op definitions of the elementwise math family: broadcasting
 * binary arithmetic, comparisons, logical ops, unary math, Select/SelectV2,
 * Cast, AddN, ZerosLike/OnesLike, ClipByValue, the *Grad helpers of unary ops
 * and BroadcastGradientArgs (the activations Softplus/Softsign/Elu/Selu are
 * defined in ops_nn.c). Names, argument order, attrs, defaults and
 * allowed types are TensorFlow's OpDefs (checked against TF 2.x's registry,
 * which is a superset of TF 1.15's); kernels are in kernels/elementwise*.c.
 */
#include <stdio.h>

#include "core/op_registry.h"
#include "core/op_tables.h"

/* ---------------------------------------------------------------- shape helpers */

/* Writes a partial shape as TF does in shape-function messages: "[2,?]" or "?". */
static void shape_text(const tfc_shape *s, char *buf, int size) {
  if (s->rank < 0) {
    snprintf(buf, (size_t)size, "?");
    return;
  }
  int len = snprintf(buf, (size_t)size, "[");
  for (int i = 0; i < s->rank && len < size; i++) {
    const char *sep = i ? "," : "";
    if (s->dims[i] < 0) len += snprintf(buf + len, (size_t)(size - len), "%s?", sep);
    else len += snprintf(buf + len, (size_t)(size - len), "%s%lld", sep, (long long)s->dims[i]);
  }
  if (len < size) snprintf(buf + len, (size_t)(size - len), "]");
}

/* Merges a and b into *out, failing ctx with TF's Merge messages. */
static bool merge_or_fail(tfc_shape_ctx *ctx, const tfc_shape *a, const tfc_shape *b,
                          tfc_shape *out) {
  if (tfc_shape_merge(a, b, out)) return true;
  if (a->rank != b->rank)
    return tfc_shape_fail(ctx, "Shapes must be equal rank, but are %d and %d", a->rank, b->rank);
  char sa[128], sb[128];
  shape_text(a, sa, sizeof sa);
  shape_text(b, sb, sizeof sb);
  for (int i = 0; i < a->rank; i++) {
    if (a->dims[i] >= 0 && b->dims[i] >= 0 && a->dims[i] != b->dims[i])
      return tfc_shape_fail(ctx,
                            "Dimension %d in both shapes must be equal, but are %lld and %lld. "
                            "Shapes are %s and %s.",
                            i, (long long)a->dims[i], (long long)b->dims[i], sa, sb);
  }
  return tfc_shape_fail(ctx, "Shapes %s and %s are not compatible", sa, sb);
}

/* Broadcasts a and b into *out, failing ctx like TF's broadcasting shape fn. */
static bool broadcast_or_fail(tfc_shape_ctx *ctx, const tfc_shape *a, const tfc_shape *b,
                              tfc_shape *out) {
  if (tfc_shape_broadcast(a, b, out)) return true;
  int rank = a->rank > b->rank ? a->rank : b->rank;
  for (int i = 0; i < rank; i++) {
    int ia = a->rank - rank + i, ib = b->rank - rank + i;
    int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    if (da > 1 && db > 1 && da != db)
      return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld", (long long)da,
                            (long long)db);
  }
  return tfc_shape_fail(ctx, "Shapes are not broadcast-compatible");
}

/* Equal / NotEqual: broadcast; with incompatible_shape_error=false, shapes
 * that cannot broadcast give an unknown output (the kernel returns a scalar). */
static bool equal_shape_fn(tfc_shape_ctx *ctx) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "incompatible_shape_error");
  if (v && v->kind == TFC_ATTR_B && !v->v.b) {
    if (!tfc_shape_broadcast(&ctx->in_shapes[0], &ctx->in_shapes[1], &ctx->out_shapes[0]))
      ctx->out_shapes[0] = tfc_shape_unknown();
    return true;
  }
  return tfc_shape_fn_broadcast(ctx);
}

/* Both inputs have the output's shape (the *Grad helpers). */
static bool merge_both_shape_fn(tfc_shape_ctx *ctx) {
  return merge_or_fail(ctx, &ctx->in_shapes[0], &ctx->in_shapes[1], &ctx->out_shapes[0]);
}

/* AddN: every input has the output's shape. */
static bool addn_shape_fn(tfc_shape_ctx *ctx) {
  tfc_shape cur = ctx->in_shapes[0];
  for (int i = 1; i < ctx->n_inputs; i++) {
    tfc_shape next;
    if (!merge_or_fail(ctx, &cur, &ctx->in_shapes[i], &next)) return false;
    cur = next;
  }
  ctx->out_shapes[0] = cur;
  return true;
}

/* Select (TF1): then and else share a shape; the condition is a scalar, has
 * that shape, or is a vector over its first dimension. */
static bool select_shape_fn(tfc_shape_ctx *ctx) {
  const tfc_shape *cond = &ctx->in_shapes[0];
  tfc_shape data;
  if (!merge_or_fail(ctx, &ctx->in_shapes[1], &ctx->in_shapes[2], &data)) return false;
  if (cond->rank <= 0 || data.rank < 0) {
    ctx->out_shapes[0] = data;
    return true;
  }
  if (cond->rank != 1 || data.rank == 0) {
    tfc_shape m;
    if (!merge_or_fail(ctx, &data, cond, &m)) return false;
    ctx->out_shapes[0] = m;
    return true;
  }
  /* Vector condition over the first dimension of then/else. */
  tfc_shape first = tfc_shape_make(1, data.dims), m;
  if (!merge_or_fail(ctx, cond, &first, &m)) return false;
  if (data.dims[0] < 0) data.dims[0] = m.dims[0];
  ctx->out_shapes[0] = data;
  return true;
}

/* SelectV2: condition, then and else broadcast together. */
static bool select_v2_shape_fn(tfc_shape_ctx *ctx) {
  tfc_shape te;
  if (!broadcast_or_fail(ctx, &ctx->in_shapes[1], &ctx->in_shapes[2], &te)) return false;
  return broadcast_or_fail(ctx, &ctx->in_shapes[0], &te, &ctx->out_shapes[0]);
}

/* BroadcastGradientArgs: two shape vectors in, two index vectors of unknown length out. */
static bool bga_shape_fn(tfc_shape_ctx *ctx) {
  for (int i = 0; i < 2; i++) {
    int r = ctx->in_shapes[i].rank;
    if (r >= 0 && r != 1) return tfc_shape_fail(ctx, "Shape must be rank 1 but is rank %d", r);
  }
  int64_t unknown = -1;
  ctx->out_shapes[0] = tfc_shape_make(1, &unknown);
  ctx->out_shapes[1] = tfc_shape_make(1, &unknown);
  return true;
}

/* ---------------------------------------------------------------- specs */

#define T_FLOAT "T: {bfloat16, half, float, double}"
#define T_FLOAT_C "T: {bfloat16, half, float, double, complex64, complex128}"
#define T_SIGNED_C                                                                           \
  "T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128}"
#define T_NUM                                                                                \
  "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, "   \
  "int64, complex64, complex128}"
#define T_REAL                                                                               \
  "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "    \
  "uint64}"
#define T_MINMAX                                                                             \
  "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, "    \
  "uint64}"

#define BINARY(NAME, ATTRS, FLAGS) \
  {NAME, "x: T; y: T", "z: T", ATTRS, FLAGS, tfc_shape_fn_broadcast}
#define COMPARE(NAME) {NAME, "x: T; y: T", "z: bool", T_REAL, 0, tfc_shape_fn_broadcast}
#define UNARY(NAME, ATTRS) {NAME, "x: T", "y: T", ATTRS, 0, tfc_shape_fn_unchanged}
#define PREDICATE(NAME) {NAME, "x: T", "y: bool", T_FLOAT, 0, tfc_shape_fn_unchanged}
#define GRAD(NAME) {NAME, "y: T; dy: T", "z: T", T_FLOAT_C, 0, merge_both_shape_fn}

static const tfc_op_spec specs[] = {
    /* Binary arithmetic (broadcasting). */
    BINARY("Add",
           "T: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64, "
           "complex128, string}",
           0),
    BINARY("AddV2",
           "T: {bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, int16, int32, "
           "int64, complex64, complex128}",
           TFC_OP_COMMUTATIVE | TFC_OP_AGGREGATE),
    BINARY("Sub",
           "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, int64, "
           "complex64, complex128, uint32, uint64}",
           0),
    BINARY("Mul", T_NUM, TFC_OP_COMMUTATIVE),
    BINARY("Div", T_NUM, 0),
    BINARY("RealDiv", T_NUM, 0),
    BINARY("FloorDiv", T_NUM, 0),
    BINARY("FloorMod",
           "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, half, float, "
           "double}",
           0),
    BINARY("TruncateDiv", T_NUM, 0),
    BINARY("TruncateMod", "T: {int32, int64, bfloat16, half, float, double}", 0),
    BINARY("Pow",
           "T: {bfloat16, float, half, double, int8, int16, int32, int64, complex64, complex128}",
           0),
    BINARY("Maximum", T_MINMAX, 0),
    BINARY("Minimum", T_MINMAX, 0),
    BINARY("SquaredDifference",
           "T: {bfloat16, half, float, double, int32, int64, complex64, complex128}",
           TFC_OP_COMMUTATIVE),
    BINARY("DivNoNan", "T: {half, float, bfloat16, double, complex64, complex128}", 0),

    /* Comparisons and logical ops. */
    {"Equal", "x: T; y: T", "z: bool", "T: type; incompatible_shape_error: bool = true",
     TFC_OP_COMMUTATIVE, equal_shape_fn},
    {"NotEqual", "x: T; y: T", "z: bool", "T: type; incompatible_shape_error: bool = true",
     TFC_OP_COMMUTATIVE, equal_shape_fn},
    COMPARE("Less"),
    COMPARE("LessEqual"),
    COMPARE("Greater"),
    COMPARE("GreaterEqual"),
    {"LogicalAnd", "x: bool; y: bool", "z: bool", "", TFC_OP_COMMUTATIVE, tfc_shape_fn_broadcast},
    {"LogicalOr", "x: bool; y: bool", "z: bool", "", TFC_OP_COMMUTATIVE, tfc_shape_fn_broadcast},
    {"LogicalNot", "x: bool", "y: bool", "", 0, tfc_shape_fn_unchanged},

    /* Unary math. */
    UNARY("Neg", T_SIGNED_C),
    UNARY("Abs", "T: {bfloat16, half, float, double, int8, int16, int32, int64}"),
    UNARY("Square",
          "T: {bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, uint32, "
          "uint64, complex64, complex128}"),
    UNARY("Sqrt", T_FLOAT_C),
    UNARY("Rsqrt", T_FLOAT_C),
    UNARY("Exp", T_FLOAT_C),
    UNARY("Expm1", T_FLOAT_C),
    UNARY("Log", T_FLOAT_C),
    UNARY("Log1p", T_FLOAT_C),
    UNARY("Tanh", T_FLOAT_C),
    UNARY("Sigmoid", T_FLOAT_C),
    UNARY("Sign", T_SIGNED_C),
    UNARY("Reciprocal", T_SIGNED_C),
    UNARY("Inv", T_SIGNED_C),
    UNARY("Floor", T_FLOAT),
    UNARY("Ceil", T_FLOAT),
    UNARY("Round", T_SIGNED_C),
    UNARY("Sin", T_FLOAT_C),
    UNARY("Cos", T_FLOAT_C),
    PREDICATE("IsNan"),
    PREDICATE("IsInf"),
    PREDICATE("IsFinite"),
    /* Softplus, Softsign, Elu and Selu belong to the NN family (ops_nn.c). */

    /* Gradient helpers of unary ops: z = f'(y) * dy from the op's output y. */
    GRAD("SigmoidGrad"),
    GRAD("TanhGrad"),
    GRAD("SqrtGrad"),
    GRAD("RsqrtGrad"),
    GRAD("ReciprocalGrad"),
    GRAD("InvGrad"),

    /* Selection, conversion, sums, fills. */
    {"Select", "condition: bool; t: T; e: T", "output: T", "T: type", 0, select_shape_fn},
    {"SelectV2", "condition: bool; t: T; e: T", "output: T", "T: type", 0, select_v2_shape_fn},
    {"Cast", "x: SrcT", "y: DstT", "SrcT: type; DstT: type; Truncate: bool = false", 0,
     tfc_shape_fn_unchanged},
    {"AddN", "inputs: N * T", "sum: T",
     "N: int >= 1; T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
     "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, variant}",
     TFC_OP_COMMUTATIVE | TFC_OP_AGGREGATE, addn_shape_fn},
    {"ZerosLike", "x: T", "y: T", "T: type", 0, tfc_shape_fn_unchanged},
    {"OnesLike", "x: T", "y: T",
     "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64, "
     "complex64, complex128, bool}",
     0, tfc_shape_fn_unchanged},
    {"ClipByValue", "t: T; clip_value_min: T; clip_value_max: T", "output: T",
     "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
     "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}",
     0, tfc_shape_fn_unchanged},
    {"BroadcastGradientArgs", "s0: T; s1: T", "r0: T; r1: T", "T: {int32, int64} = int32", 0,
     bga_shape_fn},
};

const tfc_op_table tfc_ops_math = {specs, (int)(sizeof specs / sizeof specs[0])};
