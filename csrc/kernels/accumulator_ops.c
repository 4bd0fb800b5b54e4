/*
 * accumulator_ops.c — kernels of the accumulator ops: ConditionalAccumulator
 * and SparseConditionalAccumulator (a session resource per (container,
 * shared_name), or per node, reached through TF's handle: a string vector
 * [container, name]), the Accumulator* and SparseAccumulator* ops that apply,
 * take (async, over accumulator.c's parked takes), count and set the global
 * step. ResourceConditionalAccumulator and the ResourceAccumulator* ops are
 * the same over a resource handle holding the accumulator object.
 */
#include <string.h>

#include "base/alloc.h"
#include "kernels/accumulator.h"
#include "kernels/data_flow_internal.h"

typedef struct accum_op {
  tfc_accum_config cfg;
  char *container;
  char *name;
  bool resource;        /* ResourceConditionalAccumulator: output the object, not [container, name] */
} accum_op;

/* Frees a constructor's parsed attrs. */
void tfc_accum_op_free(void *state) {
  accum_op *op = state;
  if (!op) return;
  tfc_free(op->container);
  tfc_free(op->name);
  tfc_free(op);
}

/* Parses a constructor's attrs once (dtype, shape, container, shared_name, reduction_type). */
bool tfc_accum_op_init(const tfc_kernel_init *ki, void **state) {
  accum_op *op = tfc_calloc(1, sizeof *op);
  if (!op) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  *state = op;
  op->cfg.sparse = strcmp(ki->op_type, "SparseConditionalAccumulator") == 0;
  op->resource = strcmp(ki->op_type, "ResourceConditionalAccumulator") == 0;
  const tfc_attr_value *dt = tfc_attrs_find(ki->attrs, "dtype");
  if (!dt || dt->kind != TFC_ATTR_TYPE)
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "%s needs a dtype", ki->op_type);
  op->cfg.dtype = dt->v.type;
  tfc_dtype t = dt->v.type;
  if (t != TFC_DTYPE_FLOAT && t != TFC_DTYPE_DOUBLE && t != TFC_DTYPE_INT32 && t != TFC_DTYPE_INT64)
    return tfc_status_set(ki->st, TFC_CODE_UNIMPLEMENTED, "%s of %s is not supported (float, double, int32, int64)",
                          ki->op_type, tfc_dtype_name(t));
  op->cfg.shape = tfc_shape_unknown();
  if (tfc_attrs_find(ki->attrs, "shape") && !tfc_attrs_get_shape(ki->attrs, "shape", &op->cfg.shape, ki->st))
    return false;
  char *red = tfc_attrs_dup_string(ki->attrs, "reduction_type");
  if (!red) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  op->cfg.mean = red[0] == '\0' || strcmp(red, "MEAN") == 0;
  bool red_ok = op->cfg.mean || strcmp(red, "SUM") == 0;
  tfc_free(red);
  if (!red_ok)
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "reduction_type must be 'MEAN' or 'SUM'");
  op->container = tfc_attrs_dup_string(ki->attrs, "container");
  op->name = tfc_attrs_dup_string(ki->attrs, "shared_name");
  if (!op->container || !op->name) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (!op->container[0]) {
    tfc_free(op->container);
    op->container = tfc_strdup(TFC_RESOURCE_DEFAULT_CONTAINER);
  }
  if (!op->name[0]) {
    tfc_free(op->name);
    op->name = tfc_unique_resource_name(ki->node_name);
  }
  if (!op->container || !op->name) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  op->cfg.name = op->name;
  return true;
}

/* Creates the accumulator for tfc_resource_object. */
static tfc_object *create_accum(void *arg, tfc_status *st) {
  tfc_accum *a = tfc_accum_new(arg, st);
  return a ? (tfc_object *)a : NULL;
}

/* Outputs the handle [container, name] of this node's accumulator, creating it on first use. */
void tfc_accum_op_compute(tfc_kernel_ctx *ctx) {
  accum_op *op = ctx->state;
  tfc_object *o = tfc_resource_object(ctx->step->resources, op->container, op->name,
                                      tfc_accum_object_type(op->cfg.sparse), create_accum, &op->cfg, ctx->st);
  if (!o) return;
  tfc_accum *a = (tfc_accum *)o;
  if (tfc_accum_dtype(a) != op->cfg.dtype) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Shared accumulator %s/%s holds %s, not %s", op->container,
                    op->name, tfc_dtype_name(tfc_accum_dtype(a)), tfc_dtype_name(op->cfg.dtype));
    tfc_object_unref(o);
    return;
  }
  if (op->resource) {
    tfc_tensor *rh = tfc_tensor_object_scalar(TFC_DTYPE_RESOURCE, o, ctx->st);
    tfc_object_unref(o);
    if (rh) tfc_kernel_set_output(ctx, 0, rh);
    return;
  }
  tfc_object_unref(o);
  int64_t two = 2;
  tfc_tensor *h = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 1, &two);
  if (!h) return;
  if (tfc_tensor_set_string(h, 0, op->container, strlen(op->container), ctx->st))
    tfc_tensor_set_string(h, 1, op->name, strlen(op->name), ctx->st);
}

/* Missing-resource constructor: an accumulator is only made by its own op. */
static tfc_object *no_create(void *arg, tfc_status *st) {
  const char *const *cn = arg;
  tfc_status_set(st, TFC_CODE_NOT_FOUND, "Resource %s/%s does not exist.", cn[0], cn[1]);
  return NULL;
}

/* The accumulator a handle names (a new reference), or NULL with ctx failed. */
static tfc_accum *accum_from_handle(tfc_kernel_ctx *ctx, bool sparse) {
  const tfc_tensor *h = ctx->inputs[0];
  if (h && h->dtype == TFC_DTYPE_RESOURCE) {
    tfc_object *o = tfc_tensor_object_at(h, 0);
    if (!o || o->type != tfc_accum_object_type(sparse)) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input is not a %s handle%s%s",
                      tfc_accum_object_type(sparse)->name, o ? " but a " : "", o ? o->type->name : "");
      return NULL;
    }
    return (tfc_accum *)tfc_object_ref(o);
  }
  if (!h || h->dtype != TFC_DTYPE_STRING || h->nelems != 2) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "An accumulator handle must be a string vector of 2 elements");
    return NULL;
  }
  const tfc_string *s = h->data;
  char *c = tfc_malloc(s[0].len + 1), *n = tfc_malloc(s[1].len + 1);
  if (!c || !n) {
    tfc_free(c);
    tfc_free(n);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  if (s[0].len) memcpy(c, s[0].data, s[0].len);
  c[s[0].len] = '\0';
  if (s[1].len) memcpy(n, s[1].data, s[1].len);
  n[s[1].len] = '\0';
  const char *cn[2] = {c, n};
  tfc_object *o = tfc_resource_object(ctx->step->resources, c, n, tfc_accum_object_type(sparse), no_create,
                                      (void *)cn, ctx->st);
  tfc_free(c);
  tfc_free(n);
  return (tfc_accum *)o;
}

/* AccumulatorApplyGradient / SparseAccumulatorApplyGradient. */
void tfc_accum_apply_compute(tfc_kernel_ctx *ctx) {
  bool sparse = strcmp(ctx->op_type, "SparseAccumulatorApplyGradient") == 0;
  tfc_accum *a = accum_from_handle(ctx, sparse);
  if (!a) return;
  if (ctx->inputs[1]->nelems != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "local_step must be a scalar");
  } else if (!sparse) {
    tfc_accum_apply_dense(a, tfc_tensor_get_int64(ctx->inputs[1], 0), ctx->inputs[2], ctx->st);
  } else {
    const tfc_attr_value *k = tfc_attrs_find(ctx->attrs, "has_known_shape");
    bool known = k && k->kind == TFC_ATTR_B && k->v.b;
    const tfc_tensor *shape = known ? ctx->inputs[4] : NULL;
    if (shape && shape->rank > 1)
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "gradient_shape must be a vector");
    else
      tfc_accum_apply_sparse(a, tfc_tensor_get_int64(ctx->inputs[1], 0), ctx->inputs[2], ctx->inputs[3], shape,
                             ctx->st);
  }
  tfc_object_unref((tfc_object *)a);
}

/* Completion of a take: outputs the result and finishes the kernel. */
static void take_done(void *arg, const tfc_status *st, tfc_tensor **outs, int nouts) {
  tfc_kernel_ctx *ctx = arg;
  if (st->code != TFC_CODE_OK) tfc_status_copy(ctx->st, st);
  for (int i = 0; i < nouts; i++) {
    if (i < ctx->n_outputs) tfc_kernel_set_output(ctx, i, outs[i]);
    else tfc_tensor_unref(outs[i]);
  }
  tfc_kernel_async_done(ctx);
}

/* AccumulatorTakeGradient / SparseAccumulatorTakeGradient (async). */
void tfc_accum_take_compute(tfc_kernel_ctx *ctx) {
  bool sparse = strcmp(ctx->op_type, "SparseAccumulatorTakeGradient") == 0;
  tfc_accum *a = accum_from_handle(ctx, sparse);
  if (!a) {
    tfc_kernel_async_done(ctx);
    return;
  }
  tfc_dtype want = tfc_dtype_base(ctx->out_types[sparse ? 1 : 0]);
  if (tfc_accum_dtype(a) != want) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Accumulator holds %s, the op takes %s",
                    tfc_dtype_name(tfc_accum_dtype(a)), tfc_dtype_name(want));
    tfc_object_unref((tfc_object *)a);
    tfc_kernel_async_done(ctx);
    return;
  }
  if (ctx->inputs[1]->nelems != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_required must be a scalar");
    tfc_object_unref((tfc_object *)a);
    tfc_kernel_async_done(ctx);
    return;
  }
  int64_t n = tfc_tensor_get_int64(ctx->inputs[1], 0);
  /* the take holds its own reference to the accumulator while it waits */
  tfc_accum_take(a, n, ctx->step->cancel_reg, take_done, ctx);
  tfc_object_unref((tfc_object *)a);
}

/* AccumulatorNumAccumulated. */
void tfc_accum_num_compute(tfc_kernel_ctx *ctx) {
  tfc_accum *a = accum_from_handle(ctx, false);
  if (!a) {
    /* the op serves both kinds */
    tfc_status_clear(ctx->st);
    a = accum_from_handle(ctx, true);
    if (!a) return;
  }
  int32_t n = (int32_t)tfc_accum_num_accumulated(a);
  tfc_object_unref((tfc_object *)a);
  tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_INT32, &n, ctx->st);
  if (t) tfc_kernel_set_output(ctx, 0, t);
}

/* AccumulatorSetGlobalStep. */
void tfc_accum_set_step_compute(tfc_kernel_ctx *ctx) {
  tfc_accum *a = accum_from_handle(ctx, false);
  if (!a) {
    tfc_status_clear(ctx->st);
    a = accum_from_handle(ctx, true);
    if (!a) return;
  }
  if (ctx->inputs[1]->nelems != 1)
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "new_global_step must be a scalar");
  else
    tfc_accum_set_global_step(a, tfc_tensor_get_int64(ctx->inputs[1], 0));
  tfc_object_unref((tfc_object *)a);
}
