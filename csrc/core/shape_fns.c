/*
 * shape_fns.c — shape-function helpers shared by the op tables, and the
 * TF-style node and op summaries that shape and attr errors quote:
 *   "Dimensions must be equal, but are 2 and 3 for '{{node add}} =
 *    AddV2[T=DT_FLOAT](x, y)' with input shapes: [2], [3]."
 * Nothing here allocates.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/op_registry.h"

/* TF's DataTypeString names, indexed by base dtype. */
static const char *const k_type_names[TFC_DTYPE_NUM] = {
    "invalid", "float",  "double",  "int32",   "uint8",  "int16",      "int8",
    "string",  "complex64", "int64", "bool",   "qint8",  "quint8",     "qint32",
    "bfloat16", "qint16", "quint16", "uint16", "complex128", "half", "resource",
    "variant", "uint32", "uint64"};
static const char *const k_ref_names[TFC_DTYPE_NUM] = {
    "invalid",      "float_ref",  "double_ref",  "int32_ref",   "uint8_ref",  "int16_ref",
    "int8_ref",     "string_ref", "complex64_ref", "int64_ref", "bool_ref",   "qint8_ref",
    "quint8_ref",   "qint32_ref", "bfloat16_ref", "qint16_ref", "quint16_ref", "uint16_ref",
    "complex128_ref", "half_ref", "resource_ref", "variant_ref", "uint32_ref", "uint64_ref"};

/* TF's C++ DataTypeString of t ("float", "float_ref"); "invalid" if unknown. */
const char *tfc_op_dtype_string(tfc_dtype t) {
  int b = (int)tfc_dtype_base(t);
  if (b <= 0 || b >= TFC_DTYPE_NUM) return "invalid";
  return tfc_dtype_is_ref(t) ? k_ref_names[b] : k_type_names[b];
}

/* A bounded writer into a fixed buffer; output is truncated silently. */
typedef struct out {
  char *buf;
  int cap, len;
} out;

/* printf-appends to o (truncating at o->cap - 1). */
static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...) {
  if (o->len >= o->cap - 1) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(o->buf + o->len, (size_t)(o->cap - o->len), fmt, ap);
  va_end(ap);
  if (n < 0) return;
  o->len += n;
  if (o->len > o->cap - 1) o->len = o->cap - 1;
}

/* Writes "DT_FLOAT" style enum names. */
static void put_dt_enum(out *o, tfc_dtype t) {
  const char *s = tfc_op_dtype_string(t);
  put(o, "DT_");
  for (const char *p = s; *p; p++) put(o, "%c", *p >= 'a' && *p <= 'z' ? *p - 32 : *p);
}

/* Writes a shape as TF's shape DebugString: "[2,?]", "[]" or "?" (unknown rank). */
static void put_shape(out *o, const tfc_shape *s) {
  if (s->rank < 0) {
    put(o, "?");
    return;
  }
  put(o, "[");
  for (int i = 0; i < s->rank; i++) {
    if (i) put(o, ",");
    if (s->dims[i] < 0) put(o, "?");
    else put(o, "%lld", (long long)s->dims[i]);
  }
  put(o, "]");
}

/* Writes a byte string quoted, escaping quotes, backslashes and non-printables. */
static void put_quoted(out *o, const char *s, size_t n) {
  put(o, "\"");
  for (size_t i = 0; i < n && o->len < o->cap - 1; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') put(o, "\\%c", c);
    else if (c == '\n') put(o, "\\n");
    else if (c < 32 || c >= 127) put(o, "\\%03o", c);
    else put(o, "%c", c);
  }
  put(o, "\"");
}

/* Writes one scalar element of a list of kind k at index i. */
static void put_list_elem(out *o, const tfc_attr_list *l, int i) {
  switch (l->kind) {
    case TFC_ATTR_I: put(o, "%lld", (long long)l->v.i[i]); break;
    case TFC_ATTR_F: put(o, "%g", (double)l->v.f[i]); break;
    case TFC_ATTR_B: put(o, "%s", l->v.b[i] ? "true" : "false"); break;
    case TFC_ATTR_TYPE: put_dt_enum(o, l->v.type[i]); break;
    case TFC_ATTR_SHAPE: put_shape(o, &l->v.shape[i]); break;
    case TFC_ATTR_S: put_quoted(o, l->v.s[i].data ? l->v.s[i].data : "", l->v.s[i].len); break;
    case TFC_ATTR_FUNC: put(o, "%.*s", (int)l->v.func[i].len, l->v.func[i].data ? l->v.func[i].data : ""); break;
    case TFC_ATTR_TENSOR: put(o, "<Tensor>"); break;
    default: break;
  }
}

/* Writes an attr value the way TF's SummarizeAttrValue does (approximately). */
static void put_attr_value(out *o, const tfc_attr_value *v) {
  switch (v->kind) {
    case TFC_ATTR_I: put(o, "%lld", (long long)v->v.i); break;
    case TFC_ATTR_F: put(o, "%g", (double)v->v.f); break;
    case TFC_ATTR_B: put(o, "%s", v->v.b ? "true" : "false"); break;
    case TFC_ATTR_TYPE: put_dt_enum(o, v->v.type); break;
    case TFC_ATTR_SHAPE:
      if (v->v.shape.rank < 0) put(o, "<unknown>");
      else put_shape(o, &v->v.shape);
      break;
    case TFC_ATTR_S: put_quoted(o, v->v.s.data ? v->v.s.data : "", v->v.s.len); break;
    case TFC_ATTR_FUNC: put(o, "%.*s", (int)v->v.s.len, v->v.s.data ? v->v.s.data : ""); break;
    case TFC_ATTR_TENSOR: {
      const tfc_tensor *t = v->v.tensor;
      if (!t) {
        put(o, "Tensor<>");
        break;
      }
      tfc_shape s = tfc_tensor_shape(t);
      put(o, "Tensor<type: %s shape: ", tfc_op_dtype_string(t->dtype));
      put_shape(o, &s);
      put(o, " values: ");
      int64_t n = t->nelems < 10 ? t->nelems : 10;
      for (int64_t i = 0; i < n; i++) {
        if (i) put(o, " ");
        if (t->dtype == TFC_DTYPE_STRING) {
          const tfc_string *e = &((const tfc_string *)t->data)[i];
          put_quoted(o, e->data ? e->data : "", e->len);
        } else if (tfc_dtype_is_float(t->dtype)) {
          put(o, "%g", tfc_tensor_get_double(t, i));
        } else if (tfc_dtype_is_numeric(t->dtype) || t->dtype == TFC_DTYPE_BOOL) {
          put(o, "%lld", (long long)tfc_tensor_get_int64(t, i));
        }
      }
      if (t->nelems > n) put(o, "...");
      put(o, ">");
      break;
    }
    case TFC_ATTR_LIST:
      put(o, "[");
      for (int i = 0; i < v->v.list.n; i++) {
        if (i) put(o, ", ");
        put_list_elem(o, &v->v.list, i);
      }
      put(o, "]");
      break;
    default: put(o, "<none>"); break;
  }
}

/* Writes "{{node NAME}} = Op[attrs](inputs)". See op_registry.h. */
void tfc_op_summarize_node(const tfc_op_def *def, const char *node_name, const tfc_attrs *attrs,
                           int n_inputs, const char *const *in_names, char *buf, int bufsize) {
  if (!buf || bufsize <= 0) return;
  out o = {buf, bufsize, 0};
  buf[0] = '\0';
  put(&o, "{{node %s}} = %s", node_name ? node_name : "", def && def->name ? def->name : "?");
  if (attrs && attrs->n > 0) {
    put(&o, "[");
    for (int i = 0; i < attrs->n; i++) {
      if (i) put(&o, ", ");
      put(&o, "%s=", attrs->items[i].name);
      put_attr_value(&o, &attrs->items[i].value);
    }
    put(&o, "]");
  }
  put(&o, "(");
  for (int i = 0; in_names && i < n_inputs; i++) put(&o, "%s%s", i ? ", " : "", in_names[i]);
  put(&o, ")");
}

/* Writes one arg of a signature: "x:T", "values:N*T", "ref:Ref(T)", "shape:int32". */
static void put_arg(out *o, const tfc_arg_def *a) {
  put(o, "%s:", a->name);
  if (a->is_ref) put(o, "Ref(");
  if (a->number_attr) put(o, "%s*", a->number_attr);
  if (a->type_attr) put(o, "%s", a->type_attr);
  else if (a->type_list_attr) put(o, "%s", a->type_list_attr);
  else put(o, "%s", tfc_op_dtype_string(a->type));
  if (a->is_ref) put(o, ")");
}

/* Writes TF's OpDef summary. See op_registry.h. */
void tfc_op_summarize_def(const tfc_op_def *def, char *buf, int bufsize) {
  if (!buf || bufsize <= 0) return;
  out o = {buf, bufsize, 0};
  buf[0] = '\0';
  put(&o, "Op<name=%s; signature=", def->name);
  for (int i = 0; i < def->n_inputs; i++) {
    if (i) put(&o, ", ");
    put_arg(&o, &def->inputs[i]);
  }
  put(&o, " -> ");
  for (int i = 0; i < def->n_outputs; i++) {
    if (i) put(&o, ", ");
    put_arg(&o, &def->outputs[i]);
  }
  for (int i = 0; i < def->n_attrs; i++) {
    const tfc_attr_def *a = &def->attrs[i];
    put(&o, "; attr=%s:%s", a->name, a->type);
    if (a->has_default) {
      put(&o, ",default=");
      put_attr_value(&o, &a->default_value);
    }
    if (a->has_minimum) put(&o, ",min=%lld", (long long)a->minimum);
    if (a->n_allowed_types > 0) {
      put(&o, ",allowed=[");
      for (int k = 0; k < a->n_allowed_types; k++) {
        if (k) put(&o, ", ");
        put_dt_enum(&o, a->allowed_types[k]);
      }
      put(&o, "]");
    }
    if (a->n_allowed_strings > 0) {
      put(&o, ",allowed=[");
      for (int k = 0; k < a->n_allowed_strings; k++) {
        if (k) put(&o, ", ");
        put_quoted(&o, a->allowed_strings[k], strlen(a->allowed_strings[k]));
      }
      put(&o, "]");
    }
  }
  if (def->flags & TFC_OP_COMMUTATIVE) put(&o, "; is_commutative=true");
  if (def->flags & TFC_OP_AGGREGATE) put(&o, "; is_aggregate=true");
  if (def->flags & TFC_OP_STATEFUL) put(&o, "; is_stateful=true");
  if (def->flags & TFC_OP_ALLOWS_UNINIT) put(&o, "; allows_uninitialized_input=true");
  put(&o, ">");
}

/* Fails ctx with INVALID_ARGUMENT "<message> for '<summary>' with input shapes: ...". */
bool tfc_shape_fail(tfc_shape_ctx *ctx, const char *fmt, ...) {
  char msg[TFC_STATUS_MSG_MAX];
  out o = {msg, (int)sizeof msg, 0};
  msg[0] = '\0';
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  o.len = n < 0 ? 0 : n < (int)sizeof msg ? n : (int)sizeof msg - 1;
  char summary[512];
  tfc_op_summarize_node(ctx->def, ctx->node_name, ctx->attrs, ctx->n_inputs, ctx->in_names, summary,
                        (int)sizeof summary);
  put(&o, " for '%s' with input shapes: ", summary);
  for (int i = 0; i < ctx->n_inputs; i++) {
    if (i) put(&o, ", ");
    put_shape(&o, &ctx->in_shapes[i]);
  }
  put(&o, ".");
  tfc_status_set(ctx->st, TFC_CODE_INVALID_ARGUMENT, "%s", msg);
  if (ctx->node_name) tfc_status_set_node(ctx->st, ctx->node_name);
  return false;
}

/* out[0] = in[0]: for elementwise unary ops. */
bool tfc_shape_fn_unchanged(tfc_shape_ctx *ctx) {
  if (ctx->n_outputs > 0 && ctx->n_inputs > 0) ctx->out_shapes[0] = ctx->in_shapes[0];
  return true;
}

/* out[0] = NumPy-style broadcast of in[0] and in[1]; fails like TF's
 * BroadcastBinaryOpShapeFn on known, unequal, non-1 dimensions. */
bool tfc_shape_fn_broadcast(tfc_shape_ctx *ctx) {
  if (ctx->n_outputs < 1 || ctx->n_inputs < 2) return true;
  const tfc_shape *x = &ctx->in_shapes[0], *y = &ctx->in_shapes[1];
  if (x->rank < 0 || y->rank < 0) {
    ctx->out_shapes[0] = tfc_shape_unknown();
    return true;
  }
  int rank = x->rank > y->rank ? x->rank : y->rank;
  tfc_shape r = tfc_shape_unknown_dims(rank);
  for (int i = 0; i < rank; i++) {
    int xi = x->rank - rank + i, yi = y->rank - rank + i;
    int64_t dx = xi >= 0 ? x->dims[xi] : 1, dy = yi >= 0 ? y->dims[yi] : 1;
    int64_t d;
    if (dx == 1) d = dy;
    else if (dy == 1) d = dx;
    else if (dx < 0 && dy < 0) d = -1;
    else if (dx < 0) d = dy;
    else if (dy < 0) d = dx;
    else if (dx == dy) d = dx;
    else
      return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld", (long long)dx,
                            (long long)dy);
    r.dims[i] = d;
  }
  ctx->out_shapes[0] = r;
  return true;
}

/* Every output is a scalar. */
bool tfc_shape_fn_scalar(tfc_shape_ctx *ctx) {
  for (int i = 0; i < ctx->n_outputs; i++) ctx->out_shapes[i] = tfc_shape_scalar();
  return true;
}

/* Leaves every output unknown (ops with no or data-dependent outputs). */
bool tfc_shape_fn_none(tfc_shape_ctx *ctx) {
  (void)ctx;
  return true;
}

/* Reads constant input i as a partial shape. See op_registry.h. */
bool tfc_shape_from_const_input(tfc_shape_ctx *ctx, int i, tfc_shape *out) {
  *out = tfc_shape_unknown();
  if (i < 0 || i >= ctx->n_inputs) return false;
  const tfc_tensor *v = ctx->in_values ? ctx->in_values[i] : NULL;
  if (v && (v->dtype == TFC_DTYPE_INT32 || v->dtype == TFC_DTYPE_INT64)) {
    if (v->rank == 1 && v->nelems <= TFC_MAX_RANK) {
      tfc_shape s = tfc_shape_scalar();
      s.rank = (int)v->nelems;
      for (int64_t k = 0; k < v->nelems; k++) {
        int64_t d = tfc_tensor_get_int64(v, k);
        s.dims[k] = d < 0 ? -1 : d;
      }
      *out = s;
      return true;
    }
    if (v->rank == 0 && tfc_tensor_get_int64(v, 0) == -1) return true; /* unknown rank */
  }
  const tfc_shape *in = &ctx->in_shapes[i];
  if (in->rank == 1 && in->dims[0] >= 0 && in->dims[0] <= TFC_MAX_RANK)
    *out = tfc_shape_unknown_dims((int)in->dims[0]);
  return false;
}

/* TF's shape DebugString (see op_registry.h). */
void tfc_shape_debug_string(const tfc_shape *s, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  if (s->rank < 0) {
    snprintf(buf, cap, "?");
    return;
  }
  len += (size_t)snprintf(buf + len, cap - len, "[");
  for (int i = 0; i < s->rank && len < cap; i++) {
    if (s->dims[i] < 0) len += (size_t)snprintf(buf + len, cap - len, "%s?", i ? "," : "");
    else len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? "," : "", (long long)s->dims[i]);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* Dimension merge (see op_registry.h). */
bool tfc_shape_merge_dim_ctx(tfc_shape_ctx *ctx, int64_t a, int64_t b, int64_t *out) {
  if (a >= 0 && b >= 0 && a != b)
    return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld", (long long)a, (long long)b);
  *out = a >= 0 ? a : b;
  return true;
}

/* Shape merge (see op_registry.h). */
bool tfc_shape_merge_ctx(tfc_shape_ctx *ctx, const tfc_shape *a, const tfc_shape *b, tfc_shape *out) {
  if (a->rank < 0) {
    *out = *b;
    return true;
  }
  if (b->rank < 0) {
    *out = *a;
    return true;
  }
  if (a->rank != b->rank) {
    if (!ctx) return false;
    return tfc_shape_fail(ctx, "Shapes must be equal rank, but are %d and %d", a->rank, b->rank);
  }
  tfc_shape r = *a;
  for (int i = 0; i < a->rank; i++) {
    int64_t x = a->dims[i], y = b->dims[i];
    if (x >= 0 && y >= 0 && x != y) {
      if (!ctx) return false;
      char sa[160], sb[160];
      tfc_shape_debug_string(a, sa, sizeof sa);
      tfc_shape_debug_string(b, sb, sizeof sb);
      return tfc_shape_fail(ctx,
                            "Dimension %d in both shapes must be equal, but are %lld and %lld. "
                            "Shapes are %s and %s.",
                            i, (long long)x, (long long)y, sa, sb);
    }
    r.dims[i] = x >= 0 ? x : y;
  }
  *out = r;
  return true;
}

/* Minimum-rank check (see op_registry.h). */
bool tfc_shape_rank_at_least(tfc_shape_ctx *ctx, const tfc_shape *s, int min) {
  if (s->rank >= 0 && s->rank < min)
    return tfc_shape_fail(ctx, "Shape must be at least rank %d but is rank %d", min, s->rank);
  return true;
}

/* Exact-rank check (see op_registry.h). */
bool tfc_shape_rank_is(tfc_shape_ctx *ctx, const tfc_shape *s, int r) {
  if (s->rank >= 0 && s->rank != r)
    return tfc_shape_fail(ctx, "Shape must be rank %d but is rank %d", r, s->rank);
  return true;
}
