/*
 * state.c — CPU kernels for TF 1.x ref variables and the dense training
 * updates that act on them (ops in core/ops_state.c), plus the sparse row
 * updates Scatter{Update,Add,Sub,Mul,Div,Min,Max} and SparseApply{Momentum,
 * Adagrad,RMSProp,CenteredRMSProp}.
 *
 * A VariableV2 kernel finds or creates its tfc_var in the session's resource
 * manager and hands it on as a ref output. Ops with Ref inputs get the
 * variable in ctx->ref_inputs[i] and update it under v->mu, following the
 * copy-on-write rule of core/resource.h: a value is written in place only
 * when nobody else can observe it, otherwise a new tensor replaces it.
 *
 * The executor passes, for each Ref input, ctx->inputs[i] = a reference it
 * holds to the value it read (or NULL). Those references are accounted for
 * when deciding whether a value is exclusive (known_refs below); if the
 * executor stops holding them nothing breaks, in-place updates just stop.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/dtype.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/state_internal.h"

/* ------------------------------------------------------------------ helpers */

/* Writes a shape like TF's TensorShape::DebugString ("[2,3]", "[]"). */
static void shape_text(int rank, const int64_t *dims, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < rank && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? "," : "", (long long)dims[i]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* The TF debug string of a tensor's shape into buf. */
static void tensor_shape_text(const tfc_tensor *t, char *buf, size_t cap) {
  shape_text(t->rank, t->dims, buf, cap);
}

/* The variable behind Ref input i, failing ctx when the executor gave none. */
static tfc_var *ref_input(tfc_kernel_ctx *ctx, int i) {
  tfc_var *v = ctx->ref_inputs ? ctx->ref_inputs[i] : NULL;
  if (v == NULL)
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "%s: input %d must be a variable reference",
                    ctx->op_type, i);
  return v;
}

/* References to v->value that the executor holds on this kernel's behalf:
 * one per Ref input of v whose input value is the current value. */
static int known_refs(const tfc_kernel_ctx *ctx, const tfc_var *v) {
  int n = 0;
  if (v->value == NULL || ctx->ref_inputs == NULL) return 0;
  for (int i = 0; i < ctx->n_inputs; i++)
    if (ctx->ref_inputs[i] == v && ctx->inputs[i] == v->value) n++;
  return n;
}

/* Fails ctx with TF's message for reading an uninitialized variable. */
static void fail_uninitialized(tfc_kernel_ctx *ctx, const tfc_var *v) {
  tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION, "Attempting to use uninitialized value %s",
                  v->name ? v->name : ctx->node_name);
}

/* Caller holds v->mu and v->value is set. Ensures v->value may be written in
 * place, replacing it by a private copy when others can observe it. The old
 * value is dropped (the caller's readers keep theirs). false + ctx on OOM. */
static bool make_writable(tfc_kernel_ctx *ctx, tfc_var *v) {
  if (tfc_var_value_writable(v, known_refs(ctx, v))) return true;
  tfc_tensor *copy = tfc_tensor_copy(v->value, ctx->st);
  if (copy == NULL) return false;
  tfc_tensor *old = v->value;
  v->value = copy;
  tfc_tensor_unref(old);
  return true;
}

/* Locks the distinct variables of vars[0..n) in address order (so two
 * kernels sharing variables cannot deadlock); unlock_vars undoes it. */
static void lock_vars(tfc_var **vars, int n) {
  tfc_var *sorted[8];
  int m = 0;
  for (int i = 0; i < n && m < 8; i++) {
    bool dup = false;
    for (int j = 0; j < m; j++) dup |= sorted[j] == vars[i];
    if (!dup) sorted[m++] = vars[i];
  }
  for (int i = 1; i < m; i++)
    for (int j = i; j > 0 && (uintptr_t)sorted[j] < (uintptr_t)sorted[j - 1]; j--) {
      tfc_var *t = sorted[j];
      sorted[j] = sorted[j - 1];
      sorted[j - 1] = t;
    }
  for (int i = 0; i < m; i++) pthread_mutex_lock(&sorted[i]->mu);
}

/* Unlocks what lock_vars locked. */
static void unlock_vars(tfc_var **vars, int n) {
  for (int i = 0; i < n; i++) {
    bool dup = false;
    for (int j = 0; j < i; j++) dup |= vars[j] == vars[i];
    if (!dup) pthread_mutex_unlock(&vars[i]->mu);
  }
}

/* ------------------------------------------------------------ VariableV2 */

typedef struct var_state {
  tfc_dtype dtype;
  tfc_shape shape;     /* declared; unknown rank kept as such */
  char *container;
  char *name;          /* shared_name, or the node name when empty */
} var_state;

/* Frees a var_state (also TemporaryVariable's). */
static void var_destroy(void *p) {
  var_state *s = p;
  if (s == NULL) return;
  tfc_free(s->container);
  tfc_free(s->name);
  tfc_free(s);
}

/* Reads the dtype and shape attrs; a shape with known rank must be fully
 * defined (TF converts it to a concrete TensorShape at kernel creation). */
static bool read_dtype_shape(const tfc_kernel_init *ki, var_state *s) {
  if (!tfc_attrs_get_type(ki->attrs, "dtype", &s->dtype, ki->st)) return false;
  if (!tfc_attrs_get_shape(ki->attrs, "shape", &s->shape, ki->st)) return false;
  s->dtype = tfc_dtype_base(s->dtype);
  if (s->shape.rank >= 0 && !tfc_shape_is_fully_defined(&s->shape)) {
    char buf[160];
    size_t len = (size_t)snprintf(buf, sizeof buf, "[");
    for (int i = 0; i < s->shape.rank && len < sizeof buf; i++) {
      if (s->shape.dims[i] < 0) len += (size_t)snprintf(buf + len, sizeof buf - len, "%s?", i ? "," : "");
      else len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld", i ? "," : "",
                                   (long long)s->shape.dims[i]);
    }
    if (len < sizeof buf) snprintf(buf + len, sizeof buf - len, "]");
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Shape %s is not fully defined", buf);
  }
  return true;
}

/* Copies a string attr into a fresh C string ("" when absent). NULL on OOM. */
static char *string_attr(const tfc_kernel_init *ki, const char *name) {
  const tfc_attr_value *v = tfc_attrs_find(ki->attrs, name);
  if (v == NULL || v->kind != TFC_ATTR_S || v->v.s.len == 0) return tfc_strdup("");
  return tfc_strndup(v->v.s.data, v->v.s.len);
}

/* VariableV2 init: parses dtype, shape, container and shared_name. */
static bool variable_init(const tfc_kernel_init *ki, void **state) {
  var_state *s = tfc_calloc(1, sizeof *s);
  if (s == NULL) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (!read_dtype_shape(ki, s)) {
    var_destroy(s);
    return false;
  }
  s->container = string_attr(ki, "container");
  s->name = string_attr(ki, "shared_name");
  if (s->name != NULL && s->name[0] == '\0') {
    tfc_free(s->name);
    s->name = tfc_strdup(ki->node_name);
  }
  if (s->container == NULL || s->name == NULL) {
    var_destroy(s);
    return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  *state = s;
  return true;
}

/* VariableV2 compute: output 0 is a reference to the (possibly new) variable. */
static void variable_compute(tfc_kernel_ctx *ctx) {
  var_state *s = ctx->state;
  if (ctx->step == NULL || ctx->step->resources == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "No resource manager for variable %s", s->name);
    return;
  }
  tfc_var *v = tfc_resource_var(ctx->step->resources, s->container, s->name, s->dtype, &s->shape,
                                ctx->st);
  if (v == NULL) return;
  ctx->ref_outputs[0] = v;
}

/* ------------------------------------------------- TemporaryVariable pair */

/* The per-step container holding temporary variables of step `id`. */
static void tmp_container(const tfc_kernel_ctx *ctx, char *buf, size_t cap) {
  snprintf(buf, cap, "_tmp_step_%lld", (long long)(ctx->step ? ctx->step->step_id : 0));
}

/* TemporaryVariable init: dtype, fully defined shape, var_name (or node name). */
static bool tmpvar_init(const tfc_kernel_init *ki, void **state) {
  var_state *s = tfc_calloc(1, sizeof *s);
  if (s == NULL) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (!read_dtype_shape(ki, s)) {
    var_destroy(s);
    return false;
  }
  if (s->shape.rank < 0) s->shape = tfc_shape_scalar();
  s->name = string_attr(ki, "var_name");
  if (s->name != NULL && s->name[0] == '\0') {
    tfc_free(s->name);
    s->name = tfc_strdup(ki->node_name);
  }
  if (s->name == NULL) {
    var_destroy(s);
    return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  *state = s;
  return true;
}

/* TemporaryVariable compute: a zero-filled variable living in this step's
 * temporary container until DestroyTemporaryVariable removes it. */
static void tmpvar_compute(tfc_kernel_ctx *ctx) {
  var_state *s = ctx->state;
  if (ctx->step == NULL || ctx->step->resources == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "No per-step resource manager.");
    return;
  }
  char cont[64];
  tmp_container(ctx, cont, sizeof cont);
  tfc_var *v = tfc_resource_var(ctx->step->resources, cont, s->name, s->dtype, &s->shape, ctx->st);
  if (v == NULL) return;
  tfc_tensor *t = tfc_tensor_zeros(s->dtype, s->shape.rank, s->shape.dims, ctx->st);
  if (t == NULL) {
    tfc_var_unref(v);
    return;
  }
  tfc_var_set(v, t);
  ctx->ref_outputs[0] = v;
}

/* DestroyTemporaryVariable: outputs the value and removes the variable. */
static void destroy_tmpvar_compute(tfc_kernel_ctx *ctx) {
  tfc_var *v = ref_input(ctx, 0);
  if (v == NULL) return;
  const tfc_string *name = NULL;
  if (!tfc_attrs_get_string(ctx->attrs, "var_name", &name, ctx->st)) return;
  tfc_tensor *t = tfc_var_read(v);
  if (t == NULL) {
    fail_uninitialized(ctx, v);
    return;
  }
  char cont[64];
  tmp_container(ctx, cont, sizeof cont);
  char *cname = tfc_strndup(name->data ? name->data : "", name->len);
  if (cname == NULL) {
    tfc_tensor_unref(t);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  bool removed = ctx->step && ctx->step->resources &&
                 tfc_resource_remove(ctx->step->resources, cont, cname[0] ? cname : v->name);
  tfc_free(cname);
  if (!removed) {
    tfc_tensor_unref(t);
    tfc_kernel_fail(ctx, TFC_CODE_NOT_FOUND, "Temporary variable %s not found", v->name);
    return;
  }
  tfc_kernel_set_output(ctx, 0, t);
}

/* ------------------------------------------------------------------ Assign */

/* Assign: v = value, checking shapes when validate_shape (TF's rule: the
 * lhs shape is the current value's, else the declared one, [] if unknown).
 * Copies into the existing buffer when it is private and of the same shape;
 * otherwise the variable takes a reference to the value. */
static void assign_compute(tfc_kernel_ctx *ctx) {
  tfc_var *v = ref_input(ctx, 0);
  tfc_tensor *rhs = ctx->inputs[1];
  if (v == NULL) return;
  bool validate = true;
  const tfc_attr_value *av = tfc_attrs_find(ctx->attrs, "validate_shape");
  if (av && av->kind == TFC_ATTR_B) validate = av->v.b;
  if (rhs->dtype != v->dtype) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Assign: value has type %s, variable %s is %s",
                    tfc_dtype_name(rhs->dtype), v->name, tfc_dtype_name(v->dtype));
    return;
  }
  tfc_tensor *old = NULL;
  pthread_mutex_lock(&v->mu);
  if (validate) {
    int lrank = 0;
    const int64_t *ldims = NULL;
    if (v->value) {
      lrank = v->value->rank;
      ldims = v->value->dims;
    } else if (v->shape.rank >= 0) {
      lrank = v->shape.rank;
      ldims = v->shape.dims;
    }
    bool same = lrank == rhs->rank;
    for (int i = 0; same && i < lrank; i++) same = ldims[i] == rhs->dims[i];
    if (!same) {
      char ls[160], rs[160];
      shape_text(lrank, ldims, ls, sizeof ls);
      tensor_shape_text(rhs, rs, sizeof rs);
      pthread_mutex_unlock(&v->mu);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Assign requires shapes of both tensors to match. lhs shape= %s rhs shape= %s",
                      ls, rs);
      return;
    }
  }
  if (v->value != rhs) {
    if (v->value && rhs->dtype != TFC_DTYPE_STRING && tfc_tensor_same_shape(v->value, rhs) &&
        tfc_var_value_writable(v, known_refs(ctx, v))) {
      if (rhs->nelems > 0) memcpy(v->value->data, rhs->data, tfc_tensor_nbytes(rhs));
    } else {
      /* memory borrowed from the caller (a fed NumPy array) is copied: the
       * variable must not change when the caller later writes to its array */
      tfc_tensor *nv = (rhs->buf && rhs->buf->release) ? tfc_tensor_copy(rhs, ctx->st) : tfc_tensor_ref(rhs);
      if (!nv) {
        pthread_mutex_unlock(&v->mu);
        return;
      }
      old = v->value;
      v->value = nv;
    }
  }
  pthread_mutex_unlock(&v->mu);
  tfc_tensor_unref(old);
  ctx->ref_outputs[0] = tfc_var_ref(v);
}

/* ------------------------------------------------- AssignAdd / AssignSub */

typedef struct add_job {
  tfc_dtype dtype;
  bool sub;
  void *dst;
  const void *a, *b;
} add_job;

#define ADD_LOOP(T)                                                      \
  do {                                                                   \
    T *d = (T *)j->dst;                                                  \
    const T *x = (const T *)j->a, *y = (const T *)j->b;                  \
    if (j->sub)                                                          \
      for (int64_t i = lo; i < hi; i++) d[i] = x[i] - y[i];              \
    else                                                                 \
      for (int64_t i = lo; i < hi; i++) d[i] = x[i] + y[i];              \
  } while (0)

/* Signed integers wrap like TF's (two's complement) without C's UB. */
#define ADD_LOOP_WRAP(T, U)                                              \
  do {                                                                   \
    T *d = (T *)j->dst;                                                  \
    const T *x = (const T *)j->a, *y = (const T *)j->b;                  \
    if (j->sub)                                                          \
      for (int64_t i = lo; i < hi; i++) d[i] = (T)(U)((U)x[i] - (U)y[i]); \
    else                                                                 \
      for (int64_t i = lo; i < hi; i++) d[i] = (T)(U)((U)x[i] + (U)y[i]); \
  } while (0)

/* dst[lo..hi) = a +/- b elementwise for the job's dtype (complex types are
 * handled as twice as many reals by the caller's range). */
static void add_range(void *arg, int64_t lo, int64_t hi) {
  const add_job *j = arg;
  switch (j->dtype) {
    case TFC_DTYPE_FLOAT: case TFC_DTYPE_COMPLEX64: ADD_LOOP(float); break;
    case TFC_DTYPE_DOUBLE: case TFC_DTYPE_COMPLEX128: ADD_LOOP(double); break;
    case TFC_DTYPE_INT32: case TFC_DTYPE_QINT32: ADD_LOOP_WRAP(int32_t, uint32_t); break;
    case TFC_DTYPE_INT64: ADD_LOOP_WRAP(int64_t, uint64_t); break;
    case TFC_DTYPE_INT16: case TFC_DTYPE_QINT16: ADD_LOOP_WRAP(int16_t, uint16_t); break;
    case TFC_DTYPE_INT8: case TFC_DTYPE_QINT8: ADD_LOOP_WRAP(int8_t, uint8_t); break;
    case TFC_DTYPE_UINT8: case TFC_DTYPE_QUINT8: ADD_LOOP_WRAP(uint8_t, uint8_t); break;
    case TFC_DTYPE_UINT16: case TFC_DTYPE_QUINT16: ADD_LOOP_WRAP(uint16_t, uint16_t); break;
    case TFC_DTYPE_UINT32: ADD_LOOP(uint32_t); break;
    case TFC_DTYPE_UINT64: ADD_LOOP(uint64_t); break;
    case TFC_DTYPE_HALF: {
      uint16_t *d = j->dst;
      const uint16_t *x = j->a, *y = j->b;
      for (int64_t i = lo; i < hi; i++) {
        float fx = tfc_half_to_float(x[i]), fy = tfc_half_to_float(y[i]);
        d[i] = tfc_float_to_half(j->sub ? fx - fy : fx + fy);
      }
      break;
    }
    case TFC_DTYPE_BFLOAT16: {
      uint16_t *d = j->dst;
      const uint16_t *x = j->a, *y = j->b;
      for (int64_t i = lo; i < hi; i++) {
        float fx = tfc_bfloat16_to_float(x[i]), fy = tfc_bfloat16_to_float(y[i]);
        d[i] = tfc_float_to_bfloat16(j->sub ? fx - fy : fx + fy);
      }
      break;
    }
    default: break;
  }
}

/* True when add_range supports dtype. */
static bool add_supported(tfc_dtype t) {
  switch (t) {
    case TFC_DTYPE_FLOAT: case TFC_DTYPE_DOUBLE: case TFC_DTYPE_INT32: case TFC_DTYPE_UINT8:
    case TFC_DTYPE_INT16: case TFC_DTYPE_INT8: case TFC_DTYPE_COMPLEX64: case TFC_DTYPE_INT64:
    case TFC_DTYPE_QINT8: case TFC_DTYPE_QUINT8: case TFC_DTYPE_QINT32: case TFC_DTYPE_BFLOAT16:
    case TFC_DTYPE_QINT16: case TFC_DTYPE_QUINT16: case TFC_DTYPE_UINT16:
    case TFC_DTYPE_COMPLEX128: case TFC_DTYPE_HALF: case TFC_DTYPE_UINT32: case TFC_DTYPE_UINT64:
      return true;
    default:
      return false;
  }
}

/* AssignAdd / AssignSub: v = v +/- value, in place when v's value is private. */
static void assign_update_compute(tfc_kernel_ctx *ctx, bool sub) {
  tfc_var *v = ref_input(ctx, 0);
  tfc_tensor *rhs = ctx->inputs[1];
  if (v == NULL) return;
  if (!add_supported(rhs->dtype) || rhs->dtype != v->dtype) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: unsupported type %s for variable %s",
                    ctx->op_type, tfc_dtype_name(rhs->dtype), v->name);
    return;
  }
  tfc_tensor *old = NULL;
  pthread_mutex_lock(&v->mu);
  tfc_tensor *cur = v->value;
  if (cur == NULL) {
    pthread_mutex_unlock(&v->mu);
    fail_uninitialized(ctx, v);
    return;
  }
  if (!tfc_tensor_same_shape(cur, rhs)) {
    pthread_mutex_unlock(&v->mu);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Parameters and update must be the same size");
    return;
  }
  tfc_tensor *dst = cur;
  if (!tfc_var_value_writable(v, known_refs(ctx, v))) {
    dst = tfc_tensor_new(cur->dtype, cur->rank, cur->dims, ctx->st);
    if (dst == NULL) {
      pthread_mutex_unlock(&v->mu);
      return;
    }
  }
  int64_t n = cur->nelems;
  if (cur->dtype == TFC_DTYPE_COMPLEX64 || cur->dtype == TFC_DTYPE_COMPLEX128) n *= 2;
  add_job job = {cur->dtype, sub, dst->data, cur->data, rhs->data};
  tfc_kernel_parallel_for(ctx, n, 1 << 15, add_range, &job);
  if (dst != cur) {
    old = cur;
    v->value = dst;
  }
  pthread_mutex_unlock(&v->mu);
  tfc_tensor_unref(old);
  ctx->ref_outputs[0] = tfc_var_ref(v);
}

/* AssignAdd compute. */
static void assign_add_compute(tfc_kernel_ctx *ctx) { assign_update_compute(ctx, false); }
/* AssignSub compute. */
static void assign_sub_compute(tfc_kernel_ctx *ctx) { assign_update_compute(ctx, true); }

/* --------------------------------------------------- IsVariableInitialized */

/* Outputs a bool scalar: whether the variable has a value. */
static void is_initialized_compute(tfc_kernel_ctx *ctx) {
  tfc_var *v = ctx->ref_inputs ? ctx->ref_inputs[0] : NULL;
  bool init;
  if (v != NULL) {
    pthread_mutex_lock(&v->mu);
    init = v->value != NULL;
    pthread_mutex_unlock(&v->mu);
  } else {
    init = ctx->inputs[0] != NULL;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_BOOL, 0, NULL);
  if (out) *(bool *)out->data = init;
}

/* --------------------------------------------------------------- CountUpTo */

/* Outputs the scalar variable's value and increments it; OUT_OF_RANGE once
 * the value has reached `limit`. */
static void count_up_to_compute(tfc_kernel_ctx *ctx) {
  tfc_var *v = ref_input(ctx, 0);
  if (v == NULL) return;
  int64_t limit;
  if (!tfc_attrs_get_int(ctx->attrs, "limit", &limit, ctx->st)) return;
  pthread_mutex_lock(&v->mu);
  tfc_tensor *cur = v->value;
  if (cur == NULL) {
    pthread_mutex_unlock(&v->mu);
    fail_uninitialized(ctx, v);
    return;
  }
  if (cur->rank != 0) {
    char s[160];
    tensor_shape_text(cur, s, sizeof s);
    pthread_mutex_unlock(&v->mu);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "input is not a scalar: %s", s);
    return;
  }
  int64_t before = tfc_tensor_get_int64(cur, 0);
  if (before >= limit) {
    pthread_mutex_unlock(&v->mu);
    tfc_kernel_fail(ctx, TFC_CODE_OUT_OF_RANGE, "Reached limit of %lld", (long long)limit);
    return;
  }
  if (!make_writable(ctx, v)) {
    pthread_mutex_unlock(&v->mu);
    return;
  }
  if (v->dtype == TFC_DTYPE_INT32) *(int32_t *)v->value->data = (int32_t)(before + 1);
  else *(int64_t *)v->value->data = before + 1;
  pthread_mutex_unlock(&v->mu);
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, v->dtype, 0, NULL);
  if (out == NULL) return;
  if (v->dtype == TFC_DTYPE_INT32) *(int32_t *)out->data = (int32_t)before;
  else *(int64_t *)out->data = before;
}

/* ------------------------------------------------------------ Scatter* */

/* Which row update a scatter_job applies. */
typedef enum scatter_kind {
  SCATTER_UPDATE, SCATTER_ADD, SCATTER_SUB, SCATTER_MUL, SCATTER_DIV, SCATTER_MIN, SCATTER_MAX
} scatter_kind;

typedef struct scatter_job {
  scatter_kind kind;
  tfc_dtype dtype;
  size_t esize;                /* bytes per element */
  char *params;                /* the variable's (writable) value */
  const char *updates;
  bool broadcast;              /* updates is a scalar applied to every element */
  const tfc_tensor *indices;   /* int32 / int64, already validated */
  int64_t n;                   /* number of indices */
  int64_t slice;               /* elements per row of params */
} scatter_job;

/* Index k of an int32/int64 indices tensor. */
static inline int64_t scatter_index(const tfc_tensor *t, int64_t k) {
  return t->dtype == TFC_DTYPE_INT32 ? ((const int32_t *)t->data)[k]
                                     : ((const int64_t *)t->data)[k];
}

/* Runs BODY over j in [0, m) with x bound to updates element j, or to the
 * single element u[0] when bc (hoisted so both loops vectorize). */
#define SCATTER_LOOP(T, BODY)                                  \
  do {                                                         \
    if (bc) {                                                  \
      const T x = u[0];                                        \
      for (int64_t j = 0; j < m; j++) { BODY; }                \
    } else {                                                   \
      for (int64_t j = 0; j < m; j++) { const T x = u[j]; BODY; } \
    }                                                          \
  } while (0)

/* Row updates for a real type T (float / double): IEEE arithmetic; min / max
 * keep the current value when the comparison fails (a NaN update is ignored). */
#define DEFINE_SCATTER_FLOAT(T, SUF)                                                  \
  static void scatter_row_##SUF(scatter_kind k, T *p, const T *u, int64_t m, bool bc) { \
    switch (k) {                                                                      \
      case SCATTER_UPDATE: SCATTER_LOOP(T, p[j] = x); break;                          \
      case SCATTER_ADD: SCATTER_LOOP(T, p[j] = p[j] + x); break;                      \
      case SCATTER_SUB: SCATTER_LOOP(T, p[j] = p[j] - x); break;                      \
      case SCATTER_MUL: SCATTER_LOOP(T, p[j] = p[j] * x); break;                      \
      case SCATTER_DIV: SCATTER_LOOP(T, p[j] = p[j] / x); break;                      \
      case SCATTER_MIN: SCATTER_LOOP(T, p[j] = x < p[j] ? x : p[j]); break;           \
      case SCATTER_MAX: SCATTER_LOOP(T, p[j] = p[j] < x ? x : p[j]); break;           \
    }                                                                                 \
  }

/* Row updates for an integer type T whose arithmetic wraps through the
 * unsigned type W (at least as wide as int, so no promotion overflows).
 * Division by zero is rejected before any row is touched; x / -1 is computed
 * as a wrapping negation (so INT_MIN / -1 == INT_MIN instead of trapping). */
#define DEFINE_SCATTER_INT(T, W, SUF, SIGNED)                                         \
  static void scatter_row_##SUF(scatter_kind k, T *p, const T *u, int64_t m, bool bc) { \
    switch (k) {                                                                      \
      case SCATTER_UPDATE: SCATTER_LOOP(T, p[j] = x); break;                          \
      case SCATTER_ADD: SCATTER_LOOP(T, p[j] = (T)((W)p[j] + (W)x)); break;           \
      case SCATTER_SUB: SCATTER_LOOP(T, p[j] = (T)((W)p[j] - (W)x)); break;           \
      case SCATTER_MUL: SCATTER_LOOP(T, p[j] = (T)((W)p[j] * (W)x)); break;           \
      case SCATTER_DIV:                                                               \
        if (SIGNED) SCATTER_LOOP(T, p[j] = x == (T)-1 ? (T)((W)0 - (W)p[j]) : (T)(p[j] / x)); \
        else SCATTER_LOOP(T, p[j] = (T)(p[j] / x));                                   \
        break;                                                                        \
      case SCATTER_MIN: SCATTER_LOOP(T, p[j] = x < p[j] ? x : p[j]); break;           \
      case SCATTER_MAX: SCATTER_LOOP(T, p[j] = p[j] < x ? x : p[j]); break;           \
    }                                                                                 \
  }

/* Row updates for a complex type stored as (re, im) pairs of R. */
#define DEFINE_SCATTER_COMPLEX(R, SUF)                                                \
  static void scatter_row_##SUF(scatter_kind k, R *p, const R *u, int64_t m, bool bc) { \
    for (int64_t j = 0; j < m; j++) {                                                 \
      const R *y = bc ? u : u + 2 * j;                                                \
      R *z = p + 2 * j;                                                               \
      R a = z[0], b = z[1], c = y[0], d = y[1];                                       \
      switch (k) {                                                                    \
        case SCATTER_UPDATE: z[0] = c; z[1] = d; break;                               \
        case SCATTER_ADD: z[0] = a + c; z[1] = b + d; break;                          \
        case SCATTER_SUB: z[0] = a - c; z[1] = b - d; break;                          \
        case SCATTER_MUL: z[0] = a * c - b * d; z[1] = a * d + b * c; break;          \
        case SCATTER_DIV: {                                                           \
          R den = c * c + d * d;                                                      \
          z[0] = (a * c + b * d) / den;                                               \
          z[1] = (b * c - a * d) / den;                                               \
          break;                                                                      \
        }                                                                             \
        default: break; /* no ordering on complex numbers */                          \
      }                                                                               \
    }                                                                                 \
  }

DEFINE_SCATTER_FLOAT(float, f32)
DEFINE_SCATTER_FLOAT(double, f64)
DEFINE_SCATTER_INT(int8_t, uint32_t, i8, true)
DEFINE_SCATTER_INT(int16_t, uint32_t, i16, true)
DEFINE_SCATTER_INT(int32_t, uint32_t, i32, true)
DEFINE_SCATTER_INT(int64_t, uint64_t, i64, true)
DEFINE_SCATTER_INT(uint8_t, uint32_t, u8, false)
DEFINE_SCATTER_INT(uint16_t, uint32_t, u16, false)
DEFINE_SCATTER_INT(uint32_t, uint32_t, u32, false)
DEFINE_SCATTER_INT(uint64_t, uint64_t, u64, false)
DEFINE_SCATTER_COMPLEX(float, c64)
DEFINE_SCATTER_COMPLEX(double, c128)

/* Row updates for half / bfloat16: each element is widened to float,
 * updated with float arithmetic and rounded back. */
static void scatter_row_f16(scatter_kind k, uint16_t *p, const uint16_t *u, int64_t m, bool bc,
                            bool bf16) {
  for (int64_t j = 0; j < m; j++) {
    uint16_t xb = bc ? u[0] : u[j];
    if (k == SCATTER_UPDATE) {
      p[j] = xb;
      continue;
    }
    float a = bf16 ? tfc_bfloat16_to_float(p[j]) : tfc_half_to_float(p[j]);
    float x = bf16 ? tfc_bfloat16_to_float(xb) : tfc_half_to_float(xb);
    scatter_row_f32(k, &a, &x, 1, false);
    p[j] = bf16 ? tfc_float_to_bfloat16(a) : tfc_float_to_half(a);
  }
}

/* ScatterUpdate of any fixed-size type (bool, quantized, ...): copies bytes. */
static void scatter_row_bytes(char *p, const char *u, int64_t m, bool bc, size_t es) {
  if (!bc) {
    memcpy(p, u, (size_t)m * es);
    return;
  }
  for (int64_t j = 0; j < m; j++) memcpy(p + (size_t)j * es, u, es);
}

/* Applies the job's update to m elements of one row: p and u point at the
 * first element (u at the scalar when broadcasting). */
static void scatter_row(const scatter_job *jb, void *p, const void *u, int64_t m) {
  scatter_kind k = jb->kind;
  bool bc = jb->broadcast;
  switch (jb->dtype) {
    case TFC_DTYPE_FLOAT: scatter_row_f32(k, p, u, m, bc); return;
    case TFC_DTYPE_DOUBLE: scatter_row_f64(k, p, u, m, bc); return;
    case TFC_DTYPE_INT32: scatter_row_i32(k, p, u, m, bc); return;
    case TFC_DTYPE_INT64: scatter_row_i64(k, p, u, m, bc); return;
    case TFC_DTYPE_INT16: scatter_row_i16(k, p, u, m, bc); return;
    case TFC_DTYPE_INT8: scatter_row_i8(k, p, u, m, bc); return;
    case TFC_DTYPE_UINT8: scatter_row_u8(k, p, u, m, bc); return;
    case TFC_DTYPE_UINT16: scatter_row_u16(k, p, u, m, bc); return;
    case TFC_DTYPE_UINT32: scatter_row_u32(k, p, u, m, bc); return;
    case TFC_DTYPE_UINT64: scatter_row_u64(k, p, u, m, bc); return;
    case TFC_DTYPE_COMPLEX64: scatter_row_c64(k, p, u, m, bc); return;
    case TFC_DTYPE_COMPLEX128: scatter_row_c128(k, p, u, m, bc); return;
    case TFC_DTYPE_HALF: scatter_row_f16(k, p, u, m, bc, false); return;
    case TFC_DTYPE_BFLOAT16: scatter_row_f16(k, p, u, m, bc, true); return;
    default:
      if (k == SCATTER_UPDATE) scatter_row_bytes(p, u, m, bc, jb->esize);
      return;
  }
}

/* parallel_for body over the columns [lo, hi) of every row: the indices are
 * walked in order, so duplicate indices accumulate (or, for ScatterUpdate,
 * the last one wins) exactly as in a sequential loop. */
static void scatter_columns(void *arg, int64_t lo, int64_t hi) {
  const scatter_job *jb = arg;
  size_t es = jb->esize;
  const char *u = jb->updates + (size_t)lo * es;
  for (int64_t i = 0; i < jb->n; i++) {
    int64_t row = scatter_index(jb->indices, i);
    char *p = jb->params + (size_t)(row * jb->slice + lo) * es;
    const char *ui = jb->broadcast ? jb->updates : u + (size_t)(i * jb->slice) * es;
    scatter_row(jb, p, ui, hi - lo);
  }
}

/* Writes "[1,2]" (or "" for a scalar) for flat position k of t's shape, as
 * TF names a bad index ("indices[1,2] = 7 ..."). */
static void index_position(const tfc_tensor *t, int64_t k, char *buf, size_t cap) {
  buf[0] = '\0';
  if (t->rank == 0) return;
  int64_t pos[TFC_MAX_RANK];
  for (int d = t->rank - 1; d >= 0; d--) {
    pos[d] = t->dims[d] ? k % t->dims[d] : 0;
    k = t->dims[d] ? k / t->dims[d] : 0;
  }
  size_t n = (size_t)snprintf(buf, cap, "[");
  for (int d = 0; d < t->rank && n < cap; d++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%lld", d ? "," : "", (long long)pos[d]);
  if (n < cap) snprintf(buf + n, cap - n, "]");
}

/* TF's shape rule: updates is a scalar, or has shape indices.shape + params.shape[1:]. */
static bool scatter_shapes_ok(const tfc_tensor *params, const tfc_tensor *indices,
                              const tfc_tensor *updates) {
  if (updates->rank == 0) return true;
  if (updates->rank != indices->rank + params->rank - 1) return false;
  for (int d = 0; d < indices->rank; d++)
    if (updates->dims[d] != indices->dims[d]) return false;
  for (int d = 1; d < params->rank; d++)
    if (params->dims[d] != updates->dims[d - 1 + indices->rank]) return false;
  return true;
}

/* True when an integer division update would divide by zero. */
static bool scatter_divides_by_zero(const tfc_tensor *updates) {
  if (!tfc_dtype_is_integer(updates->dtype)) return false;
  size_t es = tfc_dtype_size(updates->dtype);
  static const unsigned char zero[8];
  for (int64_t i = 0; i < updates->nelems; i++)
    if (memcmp((const char *)updates->data + (size_t)i * es, zero, es) == 0) return true;
  return false;
}

/* Checks params, indices and updates like TF (same order and wording);
 * caller holds v->mu. false + ctx failed when they do not fit. Unlike TF,
 * every index is checked before any row changes, so a failing update leaves
 * the variable as it was. */
static bool scatter_validate(tfc_kernel_ctx *ctx, scatter_kind kind, const tfc_var *v,
                             const tfc_tensor *indices, const tfc_tensor *updates) {
  const tfc_tensor *params = v->value;
  char a[160], b[160], c[160];
  if (params == NULL) {
    fail_uninitialized(ctx, v);
    return false;
  }
  if (params->dtype != updates->dtype)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "%s: updates has type %s, variable %s is %s", ctx->op_type, tfc_dtype_name(updates->dtype), v->name,
                           tfc_dtype_name(params->dtype));
  if (params->rank < 1) {
    tensor_shape_text(params, a, sizeof a);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "params must be at least 1-D, got shape %s", a);
  }
  if (!scatter_shapes_ok(params, indices, updates)) {
    tensor_shape_text(updates, a, sizeof a);
    tensor_shape_text(indices, b, sizeof b);
    tensor_shape_text(params, c, sizeof c);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Must have updates.shape = indices.shape + params.shape[1:] or "
                           "updates.shape = [], got updates.shape %s, indices.shape %s, "
                           "params.shape %s", a, b, c);
  }
  if (indices->dtype != TFC_DTYPE_INT32 && indices->dtype != TFC_DTYPE_INT64)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "%s: indices must be int32 or int64, got %s", ctx->op_type, tfc_dtype_name(indices->dtype));
  int64_t limit = params->dims[0];
  for (int64_t i = 0; i < indices->nelems; i++) {
    int64_t ix = scatter_index(indices, i);
    if (ix < 0 || ix >= limit) {
      index_position(indices, i, a, sizeof a);
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "indices%s = %lld is not in [0, %lld)",
                             a, (long long)ix, (long long)limit);
    }
  }
  if (kind == SCATTER_DIV && indices->nelems > 0 && scatter_divides_by_zero(updates))
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Integer division by zero");
  return true;
}

/* ScatterUpdate on DT_STRING: deep-copies each updated element, in order. */
static void scatter_strings(tfc_kernel_ctx *ctx, tfc_tensor *params, const tfc_tensor *indices,
                            const tfc_tensor *updates, int64_t slice) {
  const tfc_string *u = updates->data;
  bool bc = updates->rank == 0;
  for (int64_t i = 0; i < indices->nelems; i++) {
    int64_t row = scatter_index(indices, i);
    for (int64_t j = 0; j < slice; j++) {
      const tfc_string *x = bc ? &u[0] : &u[i * slice + j];
      if (!tfc_tensor_set_string(params, row * slice + j, x->data, x->len, ctx->st)) return;
    }
  }
}

/* Shared compute of the Scatter* kernels: ref[indices[i], ...] op= updates[i, ...]
 * under v->mu, in place when the value is private, else on a fresh copy that
 * then becomes the variable's value. Always locks (use_locking only asks for
 * what tfc does anyway). */
static void scatter_compute(tfc_kernel_ctx *ctx, scatter_kind kind) {
  tfc_var *v = ref_input(ctx, 0);
  if (v == NULL) return;
  const tfc_tensor *indices = ctx->inputs[1], *updates = ctx->inputs[2];
  pthread_mutex_lock(&v->mu);
  if (!scatter_validate(ctx, kind, v, indices, updates)) {
    pthread_mutex_unlock(&v->mu);
    return;
  }
  const tfc_tensor *params = v->value;
  int64_t n = indices->nelems;
  int64_t slice = params->dims[0] > 0 ? params->nelems / params->dims[0] : 0;
  if (n > 0 && slice > 0) {
    if (!make_writable(ctx, v)) {
      pthread_mutex_unlock(&v->mu);
      return;
    }
    if (v->dtype == TFC_DTYPE_STRING) {
      scatter_strings(ctx, v->value, indices, updates, slice);
    } else {
      scatter_job job = {.kind = kind, .dtype = v->dtype, .esize = tfc_dtype_size(v->dtype),
                         .params = v->value->data, .updates = updates->data,
                         .broadcast = updates->rank == 0, .indices = indices, .n = n,
                         .slice = slice};
      int64_t min_shard = (1 << 15) / n;
      tfc_kernel_parallel_for(ctx, slice, min_shard > 0 ? min_shard : 1, scatter_columns, &job);
    }
  }
  pthread_mutex_unlock(&v->mu);
  if (tfc_kernel_ok(ctx)) ctx->ref_outputs[0] = tfc_var_ref(v);
}

/* ScatterUpdate: ref[indices] = updates. */
static void scatter_update_compute(tfc_kernel_ctx *ctx) { scatter_compute(ctx, SCATTER_UPDATE); }
/* ScatterAdd: ref[indices] += updates. */
static void scatter_add_compute(tfc_kernel_ctx *ctx) { scatter_compute(ctx, SCATTER_ADD); }
/* ScatterSub: ref[indices] -= updates. */
static void scatter_sub_compute(tfc_kernel_ctx *ctx) { scatter_compute(ctx, SCATTER_SUB); }
/* ScatterMul: ref[indices] *= updates. */
static void scatter_mul_compute(tfc_kernel_ctx *ctx) { scatter_compute(ctx, SCATTER_MUL); }
/* ScatterDiv: ref[indices] /= updates. */
static void scatter_div_compute(tfc_kernel_ctx *ctx) { scatter_compute(ctx, SCATTER_DIV); }
/* ScatterMin: ref[indices] = min(ref[indices], updates). */
static void scatter_min_compute(tfc_kernel_ctx *ctx) { scatter_compute(ctx, SCATTER_MIN); }
/* ScatterMax: ref[indices] = max(ref[indices], updates). */
static void scatter_max_compute(tfc_kernel_ctx *ctx) { scatter_compute(ctx, SCATTER_MAX); }

/* --------------------------------------------------- dense training updates */

/* Which update an apply_job performs. */
typedef enum apply_kind {
  APPLY_GD,
  APPLY_MOMENTUM,
  APPLY_ADAM,
  APPLY_ADAGRAD,
  APPLY_RMSPROP,
  APPLY_CENTERED_RMSPROP,
  APPLY_ADADELTA,
  APPLY_PROXIMAL_ADAGRAD,
  APPLY_PROXIMAL_GD,
  APPLY_FTRL,
  APPLY_FTRL_V2
} apply_kind;

typedef struct apply_job {
  apply_kind kind;
  tfc_dtype dtype;
  void *var, *s1, *s2, *s3; /* variable and up to three slots (accum / m, v / ms, mom /
                             mg, ms, mom) */
  const void *grad;
  double c[8];           /* scalar hyper-parameters, in the op's input order */
  bool flag;             /* use_nesterov / update_slots */
} apply_job;

/* Per-element update rules in TF's evaluation order, for one real type. */
#define DEFINE_APPLY(T, SUF, SQRT, POW)                                                     \
  static inline void gd_##SUF(T *var, T g, T alpha) { *var -= g * alpha; }             \
  static inline void momentum_##SUF(T *var, T *accum, T g, T lr, T mom, bool nesterov) { \
    *accum = *accum * mom + g;                                                         \
    if (nesterov) *var -= g * lr + *accum * mom * lr;                                  \
    else *var -= *accum * lr;                                                          \
  }                                                                                    \
  static inline void adam_##SUF(T *var, T *m, T *v, T g, T alpha, T beta1, T beta2,    \
                                T eps, bool nesterov) {                                \
    *m += (g - *m) * ((T)1 - beta1);                                                   \
    *v += (g * g - *v) * ((T)1 - beta2);                                               \
    if (nesterov) *var -= ((g * ((T)1 - beta1) + beta1 * *m) * alpha) / (SQRT(*v) + eps); \
    else *var -= (*m * alpha) / (SQRT(*v) + eps);                                      \
  }                                                                                    \
  static inline void adagrad_##SUF(T *var, T *accum, T g, T lr, bool update_slots) {   \
    if (update_slots) *accum += g * g;                                                 \
    *var -= g * lr * ((T)1 / SQRT(*accum));                                            \
  }                                                                                    \
  static inline void rmsprop_##SUF(T *var, T *ms, T *mom, T g, T lr, T rho, T momentum, \
                                   T eps) {                                            \
    *ms += (g * g - *ms) * ((T)1 - rho);                                               \
    *mom = *mom * momentum + (g * lr) / SQRT(*ms + eps);                               \
    *var -= *mom;                                                                      \
  }                                                                                    \
  static inline void centered_rmsprop_##SUF(T *var, T *mg, T *ms, T *mom, T g, T lr,   \
                                            T rho, T momentum, T eps) {                \
    *ms += (g * g - *ms) * ((T)1 - rho);                                               \
    *mg += (g - *mg) * ((T)1 - rho);                                                   \
    *mom = *mom * momentum + (g * lr) / SQRT(*ms - *mg * *mg + eps);                   \
    *var -= *mom;                                                                      \
  }                                                                                    \
  static inline void adadelta_##SUF(T *var, T *accum, T *accum_update, T g, T lr, T rho, \
                                    T eps) {                                           \
    *accum = *accum * rho + g * g * ((T)1 - rho);                                      \
    T update = SQRT(*accum_update + eps) * ((T)1 / SQRT(*accum + eps)) * g;            \
    *accum_update = *accum_update * rho + update * update * ((T)1 - rho);              \
    *var -= update * lr;                                                               \
  }                                                                                    \
  /* The proximal step shared by ProximalAdagrad and ProximalGradientDescent. */       \
  static inline T proximal_##SUF(T prox, T step, T l1, T l2) {                         \
    if (l1 > (T)0) {                                                                   \
      T mag = (prox < (T)0 ? -prox : prox) - step * l1;                                \
      T sgn = prox > (T)0 ? (T)1 : (prox < (T)0 ? (T)-1 : (T)0);                       \
      return sgn * (mag > (T)0 ? mag : (T)0) / ((T)1 + l2 * step);                     \
    }                                                                                  \
    return prox / ((T)1 + l2 * step);                                                  \
  }                                                                                    \
  static inline void proximal_adagrad_##SUF(T *var, T *accum, T g, T lr, T l1, T l2) { \
    *accum += g * g;                                                                   \
    T step = lr * ((T)1 / SQRT(*accum));                                               \
    *var = proximal_##SUF(*var - g * step, step, l1, l2);                              \
  }                                                                                    \
  static inline void ftrl_##SUF(T *var, T *accum, T *linear, T g, T g_shrunk, T lr,    \
                                T l1, T l2, T lr_power) {                              \
    T new_accum = *accum + g * g;                                                      \
    T sigma, quadratic;                                                                \
    if (lr_power == (T)-0.5) {                                                         \
      sigma = (SQRT(new_accum) - SQRT(*accum)) / lr;                                   \
      quadratic = SQRT(new_accum) / lr + (T)2 * l2;                                    \
    } else {                                                                           \
      sigma = (POW(new_accum, -lr_power) - POW(*accum, -lr_power)) / lr;               \
      quadratic = POW(new_accum, -lr_power) / lr + (T)2 * l2;                          \
    }                                                                                  \
    *linear += g_shrunk - sigma * *var;                                                \
    T lin = *linear;                                                                   \
    T abs_lin = lin < (T)0 ? -lin : lin;                                               \
    T sgn = lin > (T)0 ? (T)1 : (lin < (T)0 ? (T)-1 : (T)0);                           \
    *var = abs_lin > l1 ? (sgn * l1 - lin) / quadratic : (T)0;                         \
    *accum = new_accum;                                                                \
  }                                                                                    \
  /* Applies j's update to elements [lo, hi) of arrays of T. */                        \
  static void apply_range_##SUF(const apply_job *j, int64_t lo, int64_t hi) {          \
    T *var = j->var, *s1 = j->s1, *s2 = j->s2, *s3 = j->s3;                            \
    const T *g = j->grad;                                                              \
    const T c0 = (T)j->c[0], c1 = (T)j->c[1], c2 = (T)j->c[2], c3 = (T)j->c[3];        \
    switch (j->kind) {                                                                 \
      case APPLY_GD:                                                                   \
        for (int64_t i = lo; i < hi; i++) gd_##SUF(&var[i], g[i], c0);                 \
        break;                                                                         \
      case APPLY_MOMENTUM:                                                             \
        for (int64_t i = lo; i < hi; i++)                                              \
          momentum_##SUF(&var[i], &s1[i], g[i], c0, c1, j->flag);                      \
        break;                                                                         \
      case APPLY_ADAM:                                                                 \
        for (int64_t i = lo; i < hi; i++)                                              \
          adam_##SUF(&var[i], &s1[i], &s2[i], g[i], c0, c1, c2, c3, j->flag);          \
        break;                                                                         \
      case APPLY_ADAGRAD:                                                              \
        for (int64_t i = lo; i < hi; i++) adagrad_##SUF(&var[i], &s1[i], g[i], c0, j->flag); \
        break;                                                                         \
      case APPLY_RMSPROP:                                                              \
        for (int64_t i = lo; i < hi; i++)                                              \
          rmsprop_##SUF(&var[i], &s1[i], &s2[i], g[i], c0, c1, c2, c3);                \
        break;                                                                         \
      case APPLY_CENTERED_RMSPROP:                                                     \
        for (int64_t i = lo; i < hi; i++)                                              \
          centered_rmsprop_##SUF(&var[i], &s1[i], &s2[i], &s3[i], g[i], c0, c1, c2, c3); \
        break;                                                                         \
      case APPLY_ADADELTA:                                                             \
        for (int64_t i = lo; i < hi; i++)                                              \
          adadelta_##SUF(&var[i], &s1[i], &s2[i], g[i], c0, c1, c2);                   \
        break;                                                                         \
      case APPLY_PROXIMAL_ADAGRAD:                                                     \
        for (int64_t i = lo; i < hi; i++)                                              \
          proximal_adagrad_##SUF(&var[i], &s1[i], g[i], c0, c1, c2);                   \
        break;                                                                         \
      case APPLY_PROXIMAL_GD:                                                          \
        for (int64_t i = lo; i < hi; i++)                                              \
          var[i] = proximal_##SUF(var[i] - g[i] * c0, c0, c1, c2);                     \
        break;                                                                         \
      case APPLY_FTRL:                                                                 \
        for (int64_t i = lo; i < hi; i++)                                              \
          ftrl_##SUF(&var[i], &s1[i], &s2[i], g[i], g[i], c0, c1, c2, c3);             \
        break;                                                                         \
      case APPLY_FTRL_V2: {                                                            \
        const T c4 = (T)j->c[4];                                                       \
        for (int64_t i = lo; i < hi; i++)                                              \
          ftrl_##SUF(&var[i], &s1[i], &s2[i], g[i], g[i] + (T)2 * c3 * var[i], c0, c1, c2, \
                     c4);                                                              \
        break;                                                                         \
      }                                                                                \
    }                                                                                  \
  }

DEFINE_APPLY(float, f32, sqrtf, powf)
DEFINE_APPLY(double, f64, sqrt, pow)

/* 16-bit floats: each element is widened to float, updated, and rounded back. */
static void apply_range_f16(const apply_job *j, int64_t lo, int64_t hi, bool bf16) {
  uint16_t *var = j->var, *s1 = j->s1, *s2 = j->s2, *s3 = j->s3;
  const uint16_t *g = j->grad;
  for (int64_t i = lo; i < hi; i++) {
    float fv = bf16 ? tfc_bfloat16_to_float(var[i]) : tfc_half_to_float(var[i]);
    float f1 = 0, f2 = 0, f3 = 0;
    if (s1) f1 = bf16 ? tfc_bfloat16_to_float(s1[i]) : tfc_half_to_float(s1[i]);
    if (s2) f2 = bf16 ? tfc_bfloat16_to_float(s2[i]) : tfc_half_to_float(s2[i]);
    if (s3) f3 = bf16 ? tfc_bfloat16_to_float(s3[i]) : tfc_half_to_float(s3[i]);
    float fg = bf16 ? tfc_bfloat16_to_float(g[i]) : tfc_half_to_float(g[i]);
    apply_job one = *j;
    one.var = &fv;
    one.s1 = &f1;
    one.s2 = &f2;
    one.s3 = &f3;
    one.grad = &fg;
    apply_range_f32(&one, 0, 1);
    var[i] = bf16 ? tfc_float_to_bfloat16(fv) : tfc_float_to_half(fv);
    if (s1) s1[i] = bf16 ? tfc_float_to_bfloat16(f1) : tfc_float_to_half(f1);
    if (s2) s2[i] = bf16 ? tfc_float_to_bfloat16(f2) : tfc_float_to_half(f2);
    if (s3) s3[i] = bf16 ? tfc_float_to_bfloat16(f3) : tfc_float_to_half(f3);
  }
}

/* parallel_for body: dispatches on the job's dtype. */
static void apply_range(void *arg, int64_t lo, int64_t hi) {
  const apply_job *j = arg;
  switch (j->dtype) {
    case TFC_DTYPE_FLOAT: apply_range_f32(j, lo, hi); break;
    case TFC_DTYPE_DOUBLE: apply_range_f64(j, lo, hi); break;
    case TFC_DTYPE_HALF: apply_range_f16(j, lo, hi, false); break;
    case TFC_DTYPE_BFLOAT16: apply_range_f16(j, lo, hi, true); break;
    default: break;
  }
}

/* Describes one Apply* op: which inputs are variables, which are scalars. */
typedef struct apply_spec {
  apply_kind kind;
  int n_vars;                 /* inputs 0..n_vars-1 are Ref */
  int n_scalars;              /* then n_scalars scalar inputs */
  int grad_index;             /* input index of the gradient */
  const char *var_names[4];   /* for shape messages: "var", "accum", ... */
  const char *scalar_names[6];
  const char *flag_attr;      /* "use_nesterov" / "update_slots" / NULL */
  bool flag_default;
} apply_spec;

static const apply_spec spec_gd = {APPLY_GD, 1, 1, 2, {"var"}, {"alpha"}, NULL, false};
static const apply_spec spec_momentum = {APPLY_MOMENTUM, 2, 2, 3, {"var", "accum"},
                                         {"lr", "momentum"}, "use_nesterov", false};
static const apply_spec spec_adam = {APPLY_ADAM, 3, 6, 9, {"var", "m", "v"},
                                     {"beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon"},
                                     "use_nesterov", false};
static const apply_spec spec_adagrad = {APPLY_ADAGRAD, 2, 1, 3, {"var", "accum"}, {"lr"},
                                        "update_slots", true};
static const apply_spec spec_rmsprop = {APPLY_RMSPROP, 3, 4, 7, {"var", "ms", "mom"},
                                        {"lr", "rho", "momentum", "epsilon"}, NULL, false};
static const apply_spec spec_centered_rmsprop = {APPLY_CENTERED_RMSPROP, 4, 4, 8,
                                                 {"var", "mg", "ms", "mom"},
                                                 {"lr", "rho", "momentum", "epsilon"}, NULL, false};
static const apply_spec spec_adadelta = {APPLY_ADADELTA, 3, 3, 6, {"var", "accum", "accum_update"},
                                         {"lr", "rho", "epsilon"}, NULL, false};
static const apply_spec spec_proximal_adagrad = {APPLY_PROXIMAL_ADAGRAD, 2, 3, 5, {"var", "accum"},
                                                 {"lr", "l1", "l2"}, NULL, false};
static const apply_spec spec_proximal_gd = {APPLY_PROXIMAL_GD, 1, 3, 4, {"var"},
                                            {"alpha", "l1", "l2"}, NULL, false};
static const apply_spec spec_ftrl = {APPLY_FTRL, 3, 4, 3, {"var", "accum", "linear"},
                                     {"lr", "l1", "l2", "lr_power"}, NULL, false};
static const apply_spec spec_ftrl_v2 = {APPLY_FTRL_V2, 3, 5, 3, {"var", "accum", "linear"},
                                        {"lr", "l1", "l2", "l2_shrinkage", "lr_power"}, NULL,
                                        false};

/* Input index of scalar k (momentum's scalars are lr at 2 and momentum at 4). */
static int scalar_index(const apply_spec *sp, int k) {
  if (sp->kind == APPLY_MOMENTUM) return k == 0 ? 2 : 4;
  if (sp->kind == APPLY_FTRL || sp->kind == APPLY_FTRL_V2) return 4 + k;  /* after grad */
  return sp->n_vars + k;
}

/* True for TF's IsLegacyScalar: rank 0, or rank 1 with one element. */
static bool legacy_scalar(const tfc_tensor *t) {
  return t->rank == 0 || (t->rank == 1 && t->dims[0] == 1);
}

/* Shared compute of the Apply* kernels: checks like TF's training_ops (same
 * order and wording), makes each variable private, then updates in place. */
static void apply_compute(tfc_kernel_ctx *ctx, const apply_spec *sp) {
  tfc_var *vars[4] = {NULL, NULL, NULL, NULL};
  for (int i = 0; i < sp->n_vars; i++)
    if ((vars[i] = ref_input(ctx, i)) == NULL) return;
  const tfc_tensor *grad = ctx->inputs[sp->grad_index];
  tfc_dtype dt = vars[0]->dtype;
  char a[160], b[160];
  lock_vars(vars, sp->n_vars);
  for (int i = 0; i < sp->n_vars; i++) {
    if (vars[i]->value == NULL) {
      unlock_vars(vars, sp->n_vars);
      fail_uninitialized(ctx, vars[i]);
      return;
    }
  }
  const tfc_tensor *var0 = vars[0]->value;
  double c[8] = {0};
  for (int k = 0; k < sp->n_scalars; k++) {
    const tfc_tensor *s = ctx->inputs[scalar_index(sp, k)];
    if (!legacy_scalar(s)) {
      tensor_shape_text(s, a, sizeof a);
      unlock_vars(vars, sp->n_vars);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s is not a scalar: %s", sp->scalar_names[k],
                      a);
      return;
    }
    c[k] = tfc_tensor_get_double(s, 0);
  }
  for (int i = 1; i <= sp->n_vars; i++) {
    const tfc_tensor *other = i < sp->n_vars ? vars[i]->value : grad;
    const char *oname = i < sp->n_vars ? sp->var_names[i] : "grad";
    if (sp->kind == APPLY_GD) oname = "delta";
    if (!tfc_tensor_same_shape(var0, other)) {
      tensor_shape_text(var0, a, sizeof a);
      tensor_shape_text(other, b, sizeof b);
      unlock_vars(vars, sp->n_vars);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "var and %s do not have the same shape%s %s",
                      oname, a, b);
      return;
    }
  }
  for (int i = 0; i < sp->n_vars; i++) {
    if (vars[i]->value->dtype != dt || !make_writable(ctx, vars[i])) {
      unlock_vars(vars, sp->n_vars);
      if (tfc_kernel_ok(ctx))
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: variables must all be %s",
                        ctx->op_type, tfc_dtype_name(dt));
      return;
    }
  }
  apply_job job = {.kind = sp->kind, .dtype = dt, .grad = grad->data, .flag = sp->flag_default};
  job.var = vars[0]->value->data;
  job.s1 = sp->n_vars > 1 ? vars[1]->value->data : NULL;
  job.s2 = sp->n_vars > 2 ? vars[2]->value->data : NULL;
  job.s3 = sp->n_vars > 3 ? vars[3]->value->data : NULL;
  if (sp->flag_attr) {
    const tfc_attr_value *f = tfc_attrs_find(ctx->attrs, sp->flag_attr);
    if (f && f->kind == TFC_ATTR_B) job.flag = f->v.b;
  }
  memcpy(job.c, c, sizeof c);
  if (sp->kind == APPLY_ADAM) {
    /* alpha = lr * sqrt(1 - beta2_power) / (1 - beta1_power), computed in T. */
    if (dt == TFC_DTYPE_DOUBLE) {
      job.c[0] = c[2] * sqrt(1.0 - c[1]) / (1.0 - c[0]);
    } else {
      float b1p = (float)c[0], b2p = (float)c[1], lr = (float)c[2];
      job.c[0] = (double)(lr * sqrtf(1.0f - b2p) / (1.0f - b1p));
    }
    job.c[1] = c[3];
    job.c[2] = c[4];
    job.c[3] = c[5];
  }
  if (var0->nelems > 0) tfc_kernel_parallel_for(ctx, var0->nelems, 1 << 14, apply_range, &job);
  unlock_vars(vars, sp->n_vars);
  ctx->ref_outputs[0] = tfc_var_ref(vars[0]);
}

/* ApplyGradientDescent: var -= alpha * delta. */
static void apply_gd_compute(tfc_kernel_ctx *ctx) { apply_compute(ctx, &spec_gd); }
/* ApplyMomentum: accum = accum * momentum + grad; var -= accum * lr (or Nesterov). */
static void apply_momentum_compute(tfc_kernel_ctx *ctx) { apply_compute(ctx, &spec_momentum); }
/* ApplyAdam: TF's Adam update with bias-corrected step size. */
static void apply_adam_compute(tfc_kernel_ctx *ctx) { apply_compute(ctx, &spec_adam); }
/* ApplyAdagrad: accum += grad^2; var -= lr * grad / sqrt(accum). */
static void apply_adagrad_compute(tfc_kernel_ctx *ctx) { apply_compute(ctx, &spec_adagrad); }
/* ApplyRMSProp: ms, mom and var updated as in TF's ApplyRMSProp. */
static void apply_rmsprop_compute(tfc_kernel_ctx *ctx) { apply_compute(ctx, &spec_rmsprop); }
/* ApplyAdadelta: TF's Adadelta update of var, accum and accum_update. */
static void apply_adadelta_compute(tfc_kernel_ctx *ctx) { apply_compute(ctx, &spec_adadelta); }
/* ApplyProximalAdagrad: Adagrad step then the l1/l2 proximal operator. */
static void apply_proximal_adagrad_compute(tfc_kernel_ctx *ctx) {
  apply_compute(ctx, &spec_proximal_adagrad);
}
/* ApplyProximalGradientDescent: gradient step then the l1/l2 proximal operator. */
static void apply_proximal_gd_compute(tfc_kernel_ctx *ctx) { apply_compute(ctx, &spec_proximal_gd); }
/* ApplyFtrl / ApplyFtrlV2: refuses multiply_linear_by_lr (TF 2's variant), then the
 * FTRL-proximal update of var, accum and linear. */
static void apply_ftrl_check(tfc_kernel_ctx *ctx, const apply_spec *sp) {
  const tfc_attr_value *m = tfc_attrs_find(ctx->attrs, "multiply_linear_by_lr");
  if (m && m->kind == TFC_ATTR_B && m->v.b) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "%s: multiply_linear_by_lr=true is not supported",
                    ctx->op_type);
    return;
  }
  apply_compute(ctx, sp);
}
static void apply_ftrl_compute(tfc_kernel_ctx *ctx) { apply_ftrl_check(ctx, &spec_ftrl); }
/* ApplyFtrlV2: FTRL with the l2 shrinkage term in the linear update. */
static void apply_ftrl_v2_compute(tfc_kernel_ctx *ctx) { apply_ftrl_check(ctx, &spec_ftrl_v2); }
/* ApplyCenteredRMSProp: RMSProp normalised by the centred second moment ms - mg^2. */
static void apply_centered_rmsprop_compute(tfc_kernel_ctx *ctx) {
  apply_compute(ctx, &spec_centered_rmsprop);
}

/* -------------------------------------------------- sparse training updates */

/* Describes one SparseApply* op: the Ref inputs, the scalar inputs (by input
 * index), the gradient rows and their indices. */
typedef struct sparse_apply_spec {
  apply_kind kind;
  int n_vars;                 /* inputs 0..n_vars-1 are Ref */
  int grad_index, indices_index;
  int n_scalars;
  int scalar_inputs[4];
  const char *scalar_names[4];
  const char *var_names[4];
  const char *flag_attr;      /* "use_nesterov" / "update_slots" / NULL */
  bool flag_default;
} sparse_apply_spec;

static const sparse_apply_spec sspec_momentum = {
    APPLY_MOMENTUM, 2, 3, 4, 2, {2, 5}, {"lr", "momentum"}, {"var", "accum"}, "use_nesterov",
    false};
static const sparse_apply_spec sspec_adagrad = {
    APPLY_ADAGRAD, 2, 3, 4, 1, {2}, {"lr"}, {"var", "accum"}, "update_slots", true};
static const sparse_apply_spec sspec_rmsprop = {
    APPLY_RMSPROP, 3, 7, 8, 4, {3, 4, 5, 6}, {"lr", "rho", "momentum", "epsilon"},
    {"var", "ms", "mom"}, NULL, false};
static const sparse_apply_spec sspec_centered_rmsprop = {
    APPLY_CENTERED_RMSPROP, 4, 8, 9, 4, {4, 5, 6, 7}, {"lr", "rho", "momentum", "epsilon"},
    {"var", "mg", "ms", "mom"}, NULL, false};

/* Validates a SparseApply* call like TF's training_ops (same order and
 * wording) with the variables locked; fills c[] with the scalars. false (ctx
 * failed) on a bad input. */
static bool sparse_apply_validate(tfc_kernel_ctx *ctx, const sparse_apply_spec *sp,
                                  tfc_var **vars, double *c) {
  char a[160], b[160];
  for (int i = 0; i < sp->n_vars; i++) {
    if (vars[i]->value == NULL) {
      fail_uninitialized(ctx, vars[i]);
      return false;
    }
  }
  const tfc_tensor *var0 = vars[0]->value;
  for (int i = 1; i < sp->n_vars; i++) {
    if (!tfc_tensor_same_shape(var0, vars[i]->value)) {
      tensor_shape_text(var0, a, sizeof a);
      tensor_shape_text(vars[i]->value, b, sizeof b);
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "var and %s do not have the same shape%s %s", sp->var_names[i], a, b);
    }
    if (vars[i]->value->dtype != var0->dtype)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: variables must all be %s",
                             ctx->op_type, tfc_dtype_name(var0->dtype));
  }
  for (int k = 0; k < sp->n_scalars; k++) {
    const tfc_tensor *t = ctx->inputs[sp->scalar_inputs[k]];
    if (!legacy_scalar(t)) {
      tensor_shape_text(t, a, sizeof a);
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s is not a scalar: %s",
                             sp->scalar_names[k], a);
    }
    c[k] = tfc_tensor_get_double(t, 0);
  }
  const tfc_tensor *grad = ctx->inputs[sp->grad_index];
  const tfc_tensor *indices = ctx->inputs[sp->indices_index];
  if (var0->rank < 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "var must be at least 1 dimensional");
  if (indices->rank != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "indices must be one-dimensional");
  if (grad->rank != var0->rank) {
    tensor_shape_text(var0, a, sizeof a);
    tensor_shape_text(grad, b, sizeof b);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "var and grad must have the same rank: %s %s", a, b);
  }
  for (int d = 1; d < var0->rank; d++) {
    if (var0->dims[d] != grad->dims[d])
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "var and grad must match in dimension %d", d);
  }
  if (grad->dims[0] != indices->dims[0])
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "grad must be the same size as indices in the first dimension.");
  if (grad->dtype != var0->dtype)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "grad must be %s, got %s",
                           tfc_dtype_name(var0->dtype), tfc_dtype_name(grad->dtype));
  int64_t rows = var0->dims[0];
  for (int64_t i = 0; i < indices->dims[0]; i++) {
    int64_t r = scatter_index(indices, i);
    if (r < 0 || r >= rows)
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                             "Index %lld at offset %lld in indices is out of range",
                             (long long)r, (long long)i);
  }
  return true;
}

/* Shared compute of the SparseApply* kernels: for each i, the dense update
 * rule of the op applied to row indices[i] of the variable and its slots with
 * gradient row i, in order (a repeated index is updated once per
 * occurrence, as TF's kernels do). Only the touched rows are read or written. */
static void sparse_apply_compute(tfc_kernel_ctx *ctx, const sparse_apply_spec *sp) {
  tfc_var *vars[4] = {NULL, NULL, NULL, NULL};
  for (int i = 0; i < sp->n_vars; i++)
    if ((vars[i] = ref_input(ctx, i)) == NULL) return;
  double c[8] = {0};
  lock_vars(vars, sp->n_vars);
  if (!sparse_apply_validate(ctx, sp, vars, c)) {
    unlock_vars(vars, sp->n_vars);
    return;
  }
  for (int i = 0; i < sp->n_vars; i++) {
    if (!make_writable(ctx, vars[i])) {
      unlock_vars(vars, sp->n_vars);
      return;
    }
  }
  const tfc_tensor *var0 = vars[0]->value;
  const tfc_tensor *grad = ctx->inputs[sp->grad_index];
  const tfc_tensor *indices = ctx->inputs[sp->indices_index];
  tfc_dtype dt = var0->dtype;
  size_t es = tfc_dtype_size(dt);
  int64_t inner = var0->dims[0] > 0 ? var0->nelems / var0->dims[0] : 0;
  apply_job job = {.kind = sp->kind, .dtype = dt, .flag = sp->flag_default};
  if (sp->flag_attr) {
    const tfc_attr_value *f = tfc_attrs_find(ctx->attrs, sp->flag_attr);
    if (f && f->kind == TFC_ATTR_B) job.flag = f->v.b;
  }
  memcpy(job.c, c, sizeof c);
  char *base[4] = {NULL, NULL, NULL, NULL};
  for (int i = 0; i < sp->n_vars; i++) base[i] = vars[i]->value->data;
  size_t row_bytes = (size_t)inner * es;
  for (int64_t i = 0; i < indices->dims[0] && inner > 0; i++) {
    size_t off = (size_t)scatter_index(indices, i) * row_bytes;
    job.var = base[0] + off;
    job.s1 = base[1] ? base[1] + off : NULL;
    job.s2 = base[2] ? base[2] + off : NULL;
    job.s3 = base[3] ? base[3] + off : NULL;
    job.grad = (const char *)grad->data + (size_t)i * row_bytes;
    apply_range(&job, 0, inner);
  }
  unlock_vars(vars, sp->n_vars);
  ctx->ref_outputs[0] = tfc_var_ref(vars[0]);
}

/* SparseApplyMomentum: ApplyMomentum's rule on the rows `indices`. */
static void sparse_apply_momentum_compute(tfc_kernel_ctx *ctx) {
  sparse_apply_compute(ctx, &sspec_momentum);
}
/* SparseApplyAdagrad: ApplyAdagrad's rule on the rows `indices`. */
static void sparse_apply_adagrad_compute(tfc_kernel_ctx *ctx) {
  sparse_apply_compute(ctx, &sspec_adagrad);
}
/* SparseApplyRMSProp: ApplyRMSProp's rule on the rows `indices`. */
static void sparse_apply_rmsprop_compute(tfc_kernel_ctx *ctx) {
  sparse_apply_compute(ctx, &sspec_rmsprop);
}
/* SparseApplyCenteredRMSProp: ApplyCenteredRMSProp's rule on the rows `indices`. */
static void sparse_apply_centered_rmsprop_compute(tfc_kernel_ctx *ctx) {
  sparse_apply_compute(ctx, &sspec_centered_rmsprop);
}

/* ------------------------------------------------------------------ table */

static const tfc_dtype real_types[] = {TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16, TFC_DTYPE_FLOAT,
                                       TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};
static const tfc_dtype count_types[] = {TFC_DTYPE_INT32, TFC_DTYPE_INT64, TFC_DTYPE_INVALID};
/* TF's number types without the quantized ones (TF has no CPU kernels for those). */
static const tfc_dtype scatter_arith_types[] = {
    TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32, TFC_DTYPE_UINT8, TFC_DTYPE_INT16,
    TFC_DTYPE_INT8, TFC_DTYPE_COMPLEX64, TFC_DTYPE_INT64, TFC_DTYPE_BFLOAT16, TFC_DTYPE_UINT16,
    TFC_DTYPE_COMPLEX128, TFC_DTYPE_HALF, TFC_DTYPE_UINT32, TFC_DTYPE_UINT64, TFC_DTYPE_INVALID};
static const tfc_dtype scatter_minmax_types[] = {
    TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16, TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE,
    TFC_DTYPE_INT32, TFC_DTYPE_INT64, TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"VariableV2", "CPU", NULL, NULL, variable_init, variable_compute, var_destroy, 0},
    {"Variable", "CPU", NULL, NULL, variable_init, variable_compute, var_destroy, 0},
    {"TemporaryVariable", "CPU", NULL, NULL, tmpvar_init, tmpvar_compute, var_destroy, 0},
    {"DestroyTemporaryVariable", "CPU", NULL, NULL, NULL, destroy_tmpvar_compute, NULL, 0},
    {"Assign", "CPU", NULL, NULL, NULL, assign_compute, NULL, 0},
    {"AssignAdd", "CPU", NULL, NULL, NULL, assign_add_compute, NULL, 0},
    {"AssignSub", "CPU", NULL, NULL, NULL, assign_sub_compute, NULL, 0},
    {"ScatterUpdate", "CPU", NULL, NULL, NULL, scatter_update_compute, NULL, 0},
    {"ScatterAdd", "CPU", "T", scatter_arith_types, NULL, scatter_add_compute, NULL, 0},
    {"ScatterSub", "CPU", "T", scatter_arith_types, NULL, scatter_sub_compute, NULL, 0},
    {"ScatterMul", "CPU", "T", scatter_arith_types, NULL, scatter_mul_compute, NULL, 0},
    {"ScatterDiv", "CPU", "T", scatter_arith_types, NULL, scatter_div_compute, NULL, 0},
    {"ScatterMin", "CPU", "T", scatter_minmax_types, NULL, scatter_min_compute, NULL, 0},
    {"ScatterMax", "CPU", "T", scatter_minmax_types, NULL, scatter_max_compute, NULL, 0},
    {"IsVariableInitialized", "CPU", NULL, NULL, NULL, is_initialized_compute, NULL, 0},
    {"CountUpTo", "CPU", "T", count_types, NULL, count_up_to_compute, NULL, 0},
    {"ApplyGradientDescent", "CPU", "T", real_types, NULL, apply_gd_compute, NULL, 0},
    {"ApplyMomentum", "CPU", "T", real_types, NULL, apply_momentum_compute, NULL, 0},
    {"ApplyAdam", "CPU", "T", real_types, NULL, apply_adam_compute, NULL, 0},
    {"ApplyAdagrad", "CPU", "T", real_types, NULL, apply_adagrad_compute, NULL, 0},
    {"ApplyAdadelta", "CPU", "T", real_types, NULL, apply_adadelta_compute, NULL, 0},
    {"ApplyProximalAdagrad", "CPU", "T", real_types, NULL, apply_proximal_adagrad_compute, NULL, 0},
    {"ApplyProximalGradientDescent", "CPU", "T", real_types, NULL, apply_proximal_gd_compute, NULL,
     0},
    {"ApplyFtrl", "CPU", "T", real_types, NULL, apply_ftrl_compute, NULL, 0},
    {"ApplyFtrlV2", "CPU", "T", real_types, NULL, apply_ftrl_v2_compute, NULL, 0},
    {"ApplyRMSProp", "CPU", "T", real_types, NULL, apply_rmsprop_compute, NULL, 0},
    {"ApplyCenteredRMSProp", "CPU", "T", real_types, NULL, apply_centered_rmsprop_compute, NULL, 0},
    {"SparseApplyMomentum", "CPU", "T", real_types, NULL, sparse_apply_momentum_compute, NULL, 0},
    {"SparseApplyAdagrad", "CPU", "T", real_types, NULL, sparse_apply_adagrad_compute, NULL, 0},
    {"SparseApplyRMSProp", "CPU", "T", real_types, NULL, sparse_apply_rmsprop_compute, NULL, 0},
    {"SparseApplyCenteredRMSProp", "CPU", "T", real_types, NULL,
     sparse_apply_centered_rmsprop_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_state = {defs, (int)(sizeof defs / sizeof defs[0])};

/* The compute function of this file's kernel for op (see state_internal.h). */
tfc_kernel_compute_fn tfc_state_ref_compute(const char *op) {
  for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
    if (strcmp(defs[i].op, op) == 0) return defs[i].compute;
  return NULL;
}
