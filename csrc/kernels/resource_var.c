/*
 * resource_var.c — CPU kernels for TF's resource variables (ops in
 * core/ops_resource.c).
 *
 * VarHandleOp outputs a scalar DT_RESOURCE tensor holding a serialized
 * ResourceHandleProto (core/resource_handle.h) that names the variable by
 * container and shared name. Every other kernel decodes the handle in its
 * resource inputs and finds the variable in the step's resource manager
 * (core/resource.h) — the same store the ref variables use, so Session.reset,
 * containers and the copy-on-write rule for values are shared. A resource
 * variable comes into existence with its first AssignVariableOp.
 *
 * The updates (AssignAdd/Sub, Scatter*, Apply*, SparseApply*) run the
 * ref-variable kernels of kernels/state.c on the resolved variables, so both
 * families compute bit-identical results and report the same errors; the
 * sparse ones read and write only the rows their indices name.
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "core/resource_handle.h"
#include "kernels/array_internal.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/state_internal.h"

#define MAX_INPUTS 16

/* ----------------------------------------------------------- VarHandleOp */

typedef struct handle_state {
  tfc_tensor *handle;   /* the scalar DT_RESOURCE output, built once */
} handle_state;

/* Frees a handle_state. */
static void handle_destroy(void *p) {
  handle_state *s = p;
  if (s == NULL) return;
  tfc_tensor_unref(s->handle);
  tfc_free(s);
}

/* The string attr `name` as a fresh C string ("" when absent); NULL on OOM. */
static char *string_attr(const tfc_attrs *attrs, const char *name) {
  const tfc_attr_value *v = tfc_attrs_find(attrs, name);
  if (v == NULL || v->kind != TFC_ATTR_S || v->v.s.len == 0) return tfc_strdup("");
  return tfc_strndup(v->v.s.data, v->v.s.len);
}

/* VarHandleOp init: encodes the handle (container "" is TF's "localhost";
 * an empty shared_name names the variable after the node). */
static bool var_handle_init(const tfc_kernel_init *ki, void **state) {
  tfc_dtype dtype;
  tfc_shape shape;
  if (!tfc_attrs_get_type(ki->attrs, "dtype", &dtype, ki->st)) return false;
  if (!tfc_attrs_get_shape(ki->attrs, "shape", &shape, ki->st)) return false;
  char *container = string_attr(ki->attrs, "container");
  char *name = string_attr(ki->attrs, "shared_name");
  handle_state *s = tfc_calloc(1, sizeof *s);
  char *bytes = NULL;
  size_t len = 0;
  bool ok = container && name && s;
  if (!ok) tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (ok)
    ok = tfc_resource_handle_encode("", container[0] ? container : TFC_RESOURCE_DEFAULT_CONTAINER,
                                    name[0] ? name : ki->node_name, tfc_dtype_base(dtype), &shape,
                                    &bytes, &len, ki->st);
  if (ok) {
    tfc_string str = {bytes, len};
    s->handle = tfc_tensor_scalar(TFC_DTYPE_RESOURCE, &str, ki->st);
    ok = s->handle != NULL;
  }
  tfc_free(bytes);
  tfc_free(container);
  tfc_free(name);
  if (!ok) {
    handle_destroy(s);
    return false;
  }
  *state = s;
  return true;
}

/* VarHandleOp compute: outputs the handle (shared, never written). */
static void var_handle_compute(tfc_kernel_ctx *ctx) {
  handle_state *s = ctx->state;
  tfc_kernel_set_output(ctx, 0, tfc_tensor_ref(s->handle));
}

/* ------------------------------------------------------- handle lookups */

/* A handle decoded from input i with NUL-terminated copies of its names. */
typedef struct named_handle {
  char container[256];
  char name[512];
} named_handle;

/* Decodes input i into h; false + ctx failed when it is not one handle. */
static bool decode_input(tfc_kernel_ctx *ctx, int i, named_handle *h) {
  const tfc_tensor *t = ctx->inputs[i];
  if (t == NULL || t->dtype != TFC_DTYPE_RESOURCE || t->nelems != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "%s: input %d must be one resource handle", ctx->op_type, i);
  const tfc_string *e = t->data;
  tfc_resource_handle rh;
  if (!tfc_resource_handle_decode(e->data ? e->data : "", e->len, &rh, ctx->st)) return false;
  if (rh.container_len >= sizeof h->container || rh.name_len >= sizeof h->name)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s: resource name too long",
                           ctx->op_type);
  if (rh.type_name_len && (rh.type_name_len != strlen(TFC_RESOURCE_VAR_TYPE_NAME) ||
                           memcmp(rh.type_name, TFC_RESOURCE_VAR_TYPE_NAME, rh.type_name_len) != 0))
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Trying to access resource of type %.*s as a variable",
                           (int)rh.type_name_len, rh.type_name);
  memcpy(h->container, rh.container, rh.container_len);
  h->container[rh.container_len] = '\0';
  if (h->container[0] == '\0') strcpy(h->container, TFC_RESOURCE_DEFAULT_CONTAINER);
  memcpy(h->name, rh.name, rh.name_len);
  h->name[rh.name_len] = '\0';
  return true;
}

/* The step's resource manager, failing ctx when there is none. */
static tfc_resource_mgr *resources(tfc_kernel_ctx *ctx) {
  if (ctx->step == NULL || ctx->step->resources == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "No resource manager for %s", ctx->op_type);
    return NULL;
  }
  return ctx->step->resources;
}

/* A new reference to the initialized variable behind input i, or NULL with
 * ctx failed: NOT_FOUND when it does not exist (FAILED_PRECONDITION with
 * TF's longer message for reads). */
static tfc_var *lookup_var(tfc_kernel_ctx *ctx, int i, bool for_read) {
  named_handle h;
  tfc_resource_mgr *m = resources(ctx);
  if (m == NULL || !decode_input(ctx, i, &h)) return NULL;
  tfc_var *v = tfc_resource_lookup(m, h.container, h.name);
  bool init = false;
  if (v) {
    pthread_mutex_lock(&v->mu);
    init = v->value != NULL;
    pthread_mutex_unlock(&v->mu);
  }
  if (init) return v;
  tfc_var_unref(v);
  if (for_read)
    tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION,
                    "Could not find variable %s. This could mean that the variable has been "
                    "deleted. In TF1, it can also mean the variable is uninitialized. Debug info: "
                    "container=%s, status error message=Resource %s/%s/%s does not exist.",
                    h.name, h.container, h.container, h.name, TFC_RESOURCE_VAR_TYPE_NAME);
  else
    tfc_kernel_fail(ctx, TFC_CODE_NOT_FOUND, "Resource %s/%s/%s does not exist.", h.container,
                    h.name, TFC_RESOURCE_VAR_TYPE_NAME);
  return NULL;
}

/* Fails ctx unless the `dtype` attr matches the variable's type. */
static bool check_dtype(tfc_kernel_ctx *ctx, const tfc_var *v, const char *what) {
  tfc_dtype want;
  if (!tfc_attrs_get_type(ctx->attrs, "dtype", &want, ctx->st)) return false;
  if (tfc_dtype_base(want) == v->dtype) return true;
  return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                         "Trying to %s variable %s with wrong dtype. Expected %s got %s", what,
                         v->name ? v->name : "", tfc_op_dtype_string(v->dtype),
                         tfc_op_dtype_string(tfc_dtype_base(want)));
}

/* ------------------------------------------------------ reads and writes */

/* ReadVariableOp: outputs the current value (shared; later updates copy). */
static void read_variable_compute(tfc_kernel_ctx *ctx) {
  tfc_var *v = lookup_var(ctx, 0, true);
  if (v == NULL) return;
  if (check_dtype(ctx, v, "read")) {
    tfc_tensor *t = tfc_var_read(v);
    if (t) tfc_kernel_set_output(ctx, 0, t);
    else tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION, "Variable %s is uninitialized", v->name);
  }
  tfc_var_unref(v);
}

/* AssignVariableOp: creates the variable on first use, then replaces its
 * value (in place when the old buffer is private and of the same shape).
 * With validate_shape an initialized variable keeps its shape. */
static void assign_variable_compute(tfc_kernel_ctx *ctx) {
  named_handle h;
  tfc_resource_mgr *m = resources(ctx);
  if (m == NULL || !decode_input(ctx, 0, &h)) return;
  tfc_tensor *rhs = ctx->inputs[1];
  tfc_dtype dtype;
  if (!tfc_attrs_get_type(ctx->attrs, "dtype", &dtype, ctx->st)) return;
  if (rhs->dtype != tfc_dtype_base(dtype)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Value has type %s but dtype attr is %s",
                    tfc_op_dtype_string(rhs->dtype), tfc_op_dtype_string(dtype));
    return;
  }
  tfc_var *v = tfc_resource_lookup(m, h.container, h.name);
  if (v == NULL) {
    tfc_shape unknown = tfc_shape_unknown();
    tfc_status ignore;
    tfc_status_clear(&ignore);
    v = tfc_resource_var(m, h.container, h.name, rhs->dtype, &unknown, &ignore);
    if (v == NULL) v = tfc_resource_lookup(m, h.container, h.name);  /* raced with another step */
    if (v == NULL) {
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating variable %s", h.name);
      return;
    }
  }
  if (v->dtype != rhs->dtype) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Trying to assign variable with wrong dtype. Expected %s got %s",
                    tfc_op_dtype_string(v->dtype), tfc_op_dtype_string(rhs->dtype));
    tfc_var_unref(v);
    return;
  }
  bool validate = false;
  const tfc_attr_value *av = tfc_attrs_find(ctx->attrs, "validate_shape");
  if (av && av->kind == TFC_ATTR_B) validate = av->v.b;
  tfc_tensor *old = NULL;
  pthread_mutex_lock(&v->mu);
  if (validate && v->value && !tfc_tensor_same_shape(v->value, rhs)) {
    char a[160], b[160];
    tfc_shape sa = tfc_tensor_shape(v->value), sb = tfc_tensor_shape(rhs);
    tfc_shape_to_string(&sa, a, (int)sizeof a);
    tfc_shape_to_string(&sb, b, (int)sizeof b);
    pthread_mutex_unlock(&v->mu);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Trying to assign to variable with tensor with wrong shape. Expected %s got %s",
                    a, b);
    tfc_var_unref(v);
    return;
  }
  if (v->value != rhs) {
    if (v->value && !tfc_dtype_is_stringlike(rhs->dtype) && tfc_tensor_same_shape(v->value, rhs) &&
        tfc_var_value_writable(v, 0)) {
      if (rhs->nelems > 0) memcpy(v->value->data, rhs->data, tfc_tensor_nbytes(rhs));
    } else {
      /* a fed NumPy array is copied: the caller may write to it later */
      tfc_tensor *nv = (rhs->buf && rhs->buf->release) ? tfc_tensor_copy(rhs, ctx->st) : tfc_tensor_ref(rhs);
      if (nv) {
        old = v->value;
        v->value = nv;
      }
    }
  }
  pthread_mutex_unlock(&v->mu);
  tfc_tensor_unref(old);
  tfc_var_unref(v);
}

/* VarIsInitializedOp: whether the handle names an existing, assigned variable. */
static void var_is_initialized_compute(tfc_kernel_ctx *ctx) {
  named_handle h;
  tfc_resource_mgr *m = resources(ctx);
  if (m == NULL || !decode_input(ctx, 0, &h)) return;
  tfc_var *v = tfc_resource_lookup(m, h.container, h.name);
  bool init = false;
  if (v) {
    pthread_mutex_lock(&v->mu);
    init = v->value != NULL;
    pthread_mutex_unlock(&v->mu);
    tfc_var_unref(v);
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_BOOL, 0, NULL);
  if (out) *(bool *)out->data = init;
}

/* DestroyResourceOp: deletes the variable; NOT_FOUND when absent unless
 * ignore_lookup_error. */
static void destroy_resource_compute(tfc_kernel_ctx *ctx) {
  named_handle h;
  tfc_resource_mgr *m = resources(ctx);
  if (m == NULL || !decode_input(ctx, 0, &h)) return;
  bool ignore = true;
  const tfc_attr_value *av = tfc_attrs_find(ctx->attrs, "ignore_lookup_error");
  if (av && av->kind == TFC_ATTR_B) ignore = av->v.b;
  if (!tfc_resource_remove(m, h.container, h.name) && !ignore)
    tfc_kernel_fail(ctx, TFC_CODE_NOT_FOUND, "Resource %s/%s/%s does not exist.", h.container,
                    h.name, TFC_RESOURCE_VAR_TYPE_NAME);
}

/* ResourceGather: GatherV2(value, indices, axis = batch_dims) on the current value. */
static void resource_gather_compute(tfc_kernel_ctx *ctx) {
  tfc_var *v = lookup_var(ctx, 0, false);
  if (v == NULL) return;
  if (!check_dtype(ctx, v, "gather from")) {
    tfc_var_unref(v);
    return;
  }
  tfc_tensor *value = tfc_var_read(v);
  tfc_var_unref(v);
  if (value == NULL) {
    tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION, "Variable is uninitialized");
    return;
  }
  int64_t bd = 0;
  const tfc_attr_value *av = tfc_attrs_find(ctx->attrs, "batch_dims");
  if (av && av->kind == TFC_ATTR_I) bd = av->v.i;
  int32_t axis_value = (int32_t)bd;
  tfc_tensor *axis = tfc_tensor_scalar(TFC_DTYPE_INT32, &axis_value, ctx->st);
  if (axis == NULL) {
    tfc_tensor_unref(value);
    return;
  }
  tfc_tensor *ins[3] = {value, ctx->inputs[1], axis};
  tfc_kernel_ctx sub = *ctx;
  sub.n_inputs = 3;
  sub.inputs = ins;
  sub.ref_inputs = NULL;
  arr_gather_v2_compute(&sub);
  tfc_tensor_unref(axis);
  tfc_tensor_unref(value);
}

/* ----------------------------------------- updates through ref kernels */

/* Runs state.c's kernel `ref_op` with the first n_res inputs (handles)
 * resolved to their variables. */
static void run_ref_kernel(tfc_kernel_ctx *ctx, const char *ref_op, int n_res) {
  tfc_kernel_compute_fn fn = tfc_state_ref_compute(ref_op);
  if (fn == NULL || ctx->n_inputs > MAX_INPUTS || n_res > ctx->n_inputs) {
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "%s: no kernel %s", ctx->op_type, ref_op);
    return;
  }
  tfc_var *refs[MAX_INPUTS] = {NULL};
  tfc_tensor *ins[MAX_INPUTS] = {NULL};
  tfc_var *out_ref[1] = {NULL};
  int got = 0;
  for (; got < n_res; got++)
    if ((refs[got] = lookup_var(ctx, got, false)) == NULL) break;
  if (got == n_res) {
    for (int i = n_res; i < ctx->n_inputs; i++) ins[i] = ctx->inputs[i];
    tfc_kernel_ctx sub = *ctx;
    sub.inputs = ins;
    sub.ref_inputs = refs;
    sub.ref_outputs = out_ref;
    fn(&sub);
    tfc_var_unref(out_ref[0]);
  }
  for (int i = 0; i < got; i++) tfc_var_unref(refs[i]);
}

#define REF_KERNEL(fn_name, ref_op, n_res) \
  static void fn_name(tfc_kernel_ctx *ctx) { run_ref_kernel(ctx, ref_op, n_res); }

REF_KERNEL(assign_add_variable_compute, "AssignAdd", 1)
REF_KERNEL(assign_sub_variable_compute, "AssignSub", 1)
REF_KERNEL(scatter_update_compute, "ScatterUpdate", 1)
REF_KERNEL(scatter_add_compute, "ScatterAdd", 1)
REF_KERNEL(scatter_sub_compute, "ScatterSub", 1)
REF_KERNEL(scatter_mul_compute, "ScatterMul", 1)
REF_KERNEL(scatter_div_compute, "ScatterDiv", 1)
REF_KERNEL(scatter_min_compute, "ScatterMin", 1)
REF_KERNEL(scatter_max_compute, "ScatterMax", 1)
REF_KERNEL(apply_gd_compute, "ApplyGradientDescent", 1)
REF_KERNEL(apply_momentum_compute, "ApplyMomentum", 2)
REF_KERNEL(apply_adam_compute, "ApplyAdam", 3)
REF_KERNEL(apply_adagrad_compute, "ApplyAdagrad", 2)
REF_KERNEL(apply_rmsprop_compute, "ApplyRMSProp", 3)
REF_KERNEL(apply_centered_rmsprop_compute, "ApplyCenteredRMSProp", 4)
REF_KERNEL(sparse_apply_momentum_compute, "SparseApplyMomentum", 2)
REF_KERNEL(sparse_apply_adagrad_compute, "SparseApplyAdagrad", 2)
REF_KERNEL(sparse_apply_rmsprop_compute, "SparseApplyRMSProp", 3)
REF_KERNEL(sparse_apply_centered_rmsprop_compute, "SparseApplyCenteredRMSProp", 4)
REF_KERNEL(apply_adadelta_compute, "ApplyAdadelta", 3)
REF_KERNEL(apply_proximal_adagrad_compute, "ApplyProximalAdagrad", 2)
REF_KERNEL(apply_proximal_gd_compute, "ApplyProximalGradientDescent", 1)
REF_KERNEL(apply_ftrl_compute, "ApplyFtrl", 3)
REF_KERNEL(apply_ftrl_v2_compute, "ApplyFtrlV2", 3)

/* ResourceCountUpTo: CountUpTo on a resource variable whose dtype is T
 * (NOT_FOUND when it does not exist, OUT_OF_RANGE at the limit). */
static void resource_count_up_to_compute(tfc_kernel_ctx *ctx) {
  tfc_dtype want;
  if (!tfc_attrs_get_type(ctx->attrs, "T", &want, ctx->st)) return;
  tfc_var *v = lookup_var(ctx, 0, false);
  if (v == NULL) return;
  bool ok = v->dtype == tfc_dtype_base(want);
  if (!ok)
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Trying to count up variable %s with wrong dtype. Expected %s got %s",
                    v->name ? v->name : "", tfc_op_dtype_string(v->dtype),
                    tfc_op_dtype_string(tfc_dtype_base(want)));
  tfc_var_unref(v);
  if (ok) run_ref_kernel(ctx, "CountUpTo", 1);
}

/* ------------------------------------------------------------------ table */

static const tfc_dtype real_types[] = {TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16, TFC_DTYPE_FLOAT,
                                       TFC_DTYPE_DOUBLE, TFC_DTYPE_INVALID};
static const tfc_dtype arith_types[] = {
    TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32, TFC_DTYPE_UINT8, TFC_DTYPE_INT16,
    TFC_DTYPE_INT8, TFC_DTYPE_COMPLEX64, TFC_DTYPE_INT64, TFC_DTYPE_BFLOAT16, TFC_DTYPE_UINT16,
    TFC_DTYPE_COMPLEX128, TFC_DTYPE_HALF, TFC_DTYPE_UINT32, TFC_DTYPE_UINT64, TFC_DTYPE_INVALID};
static const tfc_dtype count_types[] = {TFC_DTYPE_INT32, TFC_DTYPE_INT64, TFC_DTYPE_INVALID};
static const tfc_dtype minmax_types[] = {TFC_DTYPE_HALF, TFC_DTYPE_BFLOAT16, TFC_DTYPE_FLOAT,
                                         TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32, TFC_DTYPE_INT64,
                                         TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"VarHandleOp", "CPU", NULL, NULL, var_handle_init, var_handle_compute, handle_destroy, 0},
    {"ReadVariableOp", "CPU", NULL, NULL, NULL, read_variable_compute, NULL, 0},
    {"AssignVariableOp", "CPU", NULL, NULL, NULL, assign_variable_compute, NULL, 0},
    {"AssignAddVariableOp", "CPU", "dtype", arith_types, NULL, assign_add_variable_compute, NULL, 0},
    {"AssignSubVariableOp", "CPU", "dtype", arith_types, NULL, assign_sub_variable_compute, NULL, 0},
    {"VarIsInitializedOp", "CPU", NULL, NULL, NULL, var_is_initialized_compute, NULL, 0},
    {"ResourceCountUpTo", "CPU", "T", count_types, NULL, resource_count_up_to_compute, NULL, 0},
    {"DestroyResourceOp", "CPU", NULL, NULL, NULL, destroy_resource_compute, NULL, 0},
    {"ResourceGather", "CPU", NULL, NULL, NULL, resource_gather_compute, NULL, 0},
    {"ResourceScatterUpdate", "CPU", NULL, NULL, NULL, scatter_update_compute, NULL, 0},
    {"ResourceScatterAdd", "CPU", "dtype", arith_types, NULL, scatter_add_compute, NULL, 0},
    {"ResourceScatterSub", "CPU", "dtype", arith_types, NULL, scatter_sub_compute, NULL, 0},
    {"ResourceScatterMul", "CPU", "dtype", arith_types, NULL, scatter_mul_compute, NULL, 0},
    {"ResourceScatterDiv", "CPU", "dtype", arith_types, NULL, scatter_div_compute, NULL, 0},
    {"ResourceScatterMin", "CPU", "dtype", minmax_types, NULL, scatter_min_compute, NULL, 0},
    {"ResourceScatterMax", "CPU", "dtype", minmax_types, NULL, scatter_max_compute, NULL, 0},
    {"ResourceApplyGradientDescent", "CPU", "T", real_types, NULL, apply_gd_compute, NULL, 0},
    {"ResourceApplyMomentum", "CPU", "T", real_types, NULL, apply_momentum_compute, NULL, 0},
    {"ResourceApplyAdam", "CPU", "T", real_types, NULL, apply_adam_compute, NULL, 0},
    {"ResourceApplyAdagrad", "CPU", "T", real_types, NULL, apply_adagrad_compute, NULL, 0},
    {"ResourceApplyRMSProp", "CPU", "T", real_types, NULL, apply_rmsprop_compute, NULL, 0},
    {"ResourceApplyCenteredRMSProp", "CPU", "T", real_types, NULL, apply_centered_rmsprop_compute,
     NULL, 0},
    {"ResourceSparseApplyMomentum", "CPU", "T", real_types, NULL, sparse_apply_momentum_compute,
     NULL, 0},
    {"ResourceSparseApplyAdagrad", "CPU", "T", real_types, NULL, sparse_apply_adagrad_compute,
     NULL, 0},
    {"ResourceSparseApplyRMSProp", "CPU", "T", real_types, NULL, sparse_apply_rmsprop_compute,
     NULL, 0},
    {"ResourceSparseApplyCenteredRMSProp", "CPU", "T", real_types, NULL,
     sparse_apply_centered_rmsprop_compute, NULL, 0},
    {"ResourceApplyAdadelta", "CPU", "T", real_types, NULL, apply_adadelta_compute, NULL, 0},
    {"ResourceApplyProximalAdagrad", "CPU", "T", real_types, NULL, apply_proximal_adagrad_compute,
     NULL, 0},
    {"ResourceApplyProximalGradientDescent", "CPU", "T", real_types, NULL,
     apply_proximal_gd_compute, NULL, 0},
    {"ResourceApplyFtrl", "CPU", "T", real_types, NULL, apply_ftrl_compute, NULL, 0},
    {"ResourceApplyFtrlV2", "CPU", "T", real_types, NULL, apply_ftrl_v2_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_resource = {defs, (int)(sizeof defs / sizeof defs[0])};
