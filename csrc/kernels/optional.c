/*
 * optional.c — TF's Optional values and their kernels: OptionalFromValue,
 * OptionalNone, OptionalHasValue, OptionalGetValue (TF's messages: "The
 * optional does not have a value.").
 */
#include <string.h>

#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/optional.h"

typedef struct optional {
  tfc_object base;
  bool has_value;
  int n;
  tfc_tensor **values;
} optional;

static void optional_destroy(tfc_object *o) {
  optional *p = (optional *)o;
  for (int i = 0; i < p->n; i++) tfc_tensor_unref(p->values[i]);
  tfc_free(p->values);
  tfc_free(p);
}

static const tfc_object_type optional_type = {"Optional", optional_destroy};

tfc_object *tfc_optional_new(bool has_value, tfc_tensor *const *values, int n, tfc_status *st) {
  optional *p = tfc_calloc(1, sizeof *p);
  tfc_tensor **v = p ? tfc_calloc((size_t)n + 1, sizeof *v) : NULL;
  if (!v) {
    tfc_free(p);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  tfc_object_init(&p->base, &optional_type);
  p->has_value = has_value;
  p->values = v;
  p->n = n;
  for (int i = 0; i < n; i++) v[i] = tfc_tensor_ref(values[i]);
  return &p->base;
}

/* Sets output 0 to a scalar variant holding o (the caller's reference is dropped). */
static void output_optional(tfc_kernel_ctx *ctx, tfc_object *o) {
  if (!o) return;
  tfc_tensor *t = tfc_tensor_object_scalar(TFC_DTYPE_VARIANT, o, ctx->st);
  tfc_object_unref(o);
  if (t) tfc_kernel_set_output(ctx, 0, t);
}

/* The optional in input 0 (NULL + failed). */
static optional *in_optional(tfc_kernel_ctx *ctx) {
  const tfc_tensor *t = ctx->inputs[0];
  tfc_object *o = t->dtype == TFC_DTYPE_VARIANT && t->nelems == 1 ? tfc_tensor_object_at(t, 0) : NULL;
  if (!o || o->type != &optional_type) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input tensor must be a scalar DT_VARIANT tensor containing an "
                    "Optional object.");
    return NULL;
  }
  return (optional *)o;
}

static void from_value_compute(tfc_kernel_ctx *ctx) {
  output_optional(ctx, tfc_optional_new(true, ctx->inputs, ctx->n_inputs, ctx->st));
}

static void none_compute(tfc_kernel_ctx *ctx) { output_optional(ctx, tfc_optional_new(false, NULL, 0, ctx->st)); }

static void has_value_compute(tfc_kernel_ctx *ctx) {
  optional *p = in_optional(ctx);
  if (!p) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_BOOL, 0, NULL);
  if (out) *(bool *)out->data = p->has_value;
}

static void get_value_compute(tfc_kernel_ctx *ctx) {
  optional *p = in_optional(ctx);
  if (!p) return;
  if (!p->has_value) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "The optional does not have a value.");
    return;
  }
  if (p->n != ctx->n_outputs) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "The expected number of components (%d) does not match the "
                    "optional's (%d)", ctx->n_outputs, p->n);
    return;
  }
  for (int i = 0; i < p->n; i++)
    if (p->values[i]->dtype != tfc_dtype_base(ctx->out_types[i])) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Component %d has type %s, expected %s", i,
                      tfc_dtype_name(p->values[i]->dtype), tfc_dtype_name(ctx->out_types[i]));
      return;
    }
  for (int i = 0; i < p->n; i++) tfc_kernel_set_output(ctx, i, tfc_tensor_ref(p->values[i]));
}

static const tfc_kernel_def defs[] = {
    {"OptionalFromValue", "CPU", NULL, NULL, NULL, from_value_compute, NULL, 0},
    {"OptionalNone", "CPU", NULL, NULL, NULL, none_compute, NULL, 0},
    {"OptionalHasValue", "CPU", NULL, NULL, NULL, has_value_compute, NULL, 0},
    {"OptionalGetValue", "CPU", NULL, NULL, NULL, get_value_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_optional = {defs, (int)(sizeof defs / sizeof defs[0])};
