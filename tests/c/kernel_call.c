/*
 * kernel_call.c — the hand-run kernel harness (see kernel_call.h).
 */
#include "kernel_call.h"

#include <string.h>

#include "kernels/kernel.h"

/* Starts a call (see kernel_call.h). */
void call_init(call *c, tfc_dtype t) {
  memset(c, 0, sizeof *c);
  tfc_status_clear(&c->st);
  tfc_attrs_init(&c->attrs);
  if (t != TFC_DTYPE_INVALID) set_type(c, "T", t);
  for (int i = 0; i < CALL_MAX_OUT; i++) c->out_types[i] = t;
}

/* Stores v under name, taking its contents. */
static void set_value(call *c, const char *name, tfc_attr_value v) {
  tfc_attrs_set(&c->attrs, name, &v, &c->st);
}

/* Sets type attr `name`. */
void set_type(call *c, const char *name, tfc_dtype t) { set_value(c, name, tfc_attr_type(t)); }
/* Sets int attr `name`. */
void set_int(call *c, const char *name, int64_t i) { set_value(c, name, tfc_attr_int(i)); }
/* Sets float attr `name`. */
void set_float(call *c, const char *name, float f) { set_value(c, name, tfc_attr_float(f)); }
/* Sets bool attr `name`. */
void set_bool(call *c, const char *name, bool b) { set_value(c, name, tfc_attr_bool(b)); }
/* Sets string attr `name`. */
void set_str(call *c, const char *name, const char *s) { set_value(c, name, tfc_attr_string(s, strlen(s))); }

/* Sets list(int) attr `name` to n values. */
void set_ints(call *c, const char *name, int n, const int64_t *vals) {
  tfc_attr_value v = tfc_attr_list_new(TFC_ATTR_I, n);
  for (int i = 0; i < n && v.kind == TFC_ATTR_LIST; i++) v.v.list.v.i[i] = vals[i];
  set_value(c, name, v);
}

/* Runs op's kernel (see kernel_call.h). */
bool call_run(call *c, const char *op, int nin, tfc_tensor **ins, int nout) {
  tfc_status_clear(&c->st);
  for (int i = 0; i < CALL_MAX_OUT; i++) {
    tfc_tensor_unref(c->out[i]);
    c->out[i] = NULL;
  }
  if (nout > CALL_MAX_OUT) return tfc_status_set(&c->st, TFC_CODE_INTERNAL, "too many outputs");
  const tfc_kernel_def *def = tfc_kernel_lookup(op, "CPU", &c->attrs);
  if (!def) return tfc_status_set(&c->st, TFC_CODE_NOT_FOUND, "no kernel for %s", op);
  tfc_kernel_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.node_name = op;
  ctx.op_type = op;
  ctx.attrs = &c->attrs;
  ctx.n_inputs = nin;
  ctx.inputs = ins;
  ctx.n_outputs = nout;
  ctx.outputs = c->out;
  ctx.out_types = c->out_types;
  ctx.st = &c->st;
  ctx.intra_pool = c->pool;
  def->compute(&ctx);
  return tfc_status_ok(&c->st);
}

/* Releases outputs and attrs. */
void call_done(call *c) {
  for (int i = 0; i < CALL_MAX_OUT; i++) {
    tfc_tensor_unref(c->out[i]);
    c->out[i] = NULL;
  }
  tfc_attrs_destroy(&c->attrs);
}

/* A filled tensor (see kernel_call.h). */
tfc_tensor *mk(tfc_dtype t, int rank, const int64_t *dims, const double *v) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *x = tfc_tensor_new(t, rank, dims, &st);
  if (!x) return NULL;
  for (int64_t i = 0; i < x->nelems; i++) {
    double d = v ? v[i] : 0;
    switch (t) {
      case TFC_DTYPE_FLOAT: ((float *)x->data)[i] = (float)d; break;
      case TFC_DTYPE_DOUBLE: ((double *)x->data)[i] = d; break;
      case TFC_DTYPE_HALF: ((uint16_t *)x->data)[i] = tfc_float_to_half((float)d); break;
      case TFC_DTYPE_BFLOAT16: ((uint16_t *)x->data)[i] = tfc_float_to_bfloat16((float)d); break;
      case TFC_DTYPE_INT8: ((int8_t *)x->data)[i] = (int8_t)d; break;
      case TFC_DTYPE_INT16: ((int16_t *)x->data)[i] = (int16_t)d; break;
      case TFC_DTYPE_INT32: ((int32_t *)x->data)[i] = (int32_t)d; break;
      case TFC_DTYPE_INT64: ((int64_t *)x->data)[i] = (int64_t)d; break;
      case TFC_DTYPE_UINT8: ((uint8_t *)x->data)[i] = (uint8_t)d; break;
      case TFC_DTYPE_UINT16: ((uint16_t *)x->data)[i] = (uint16_t)d; break;
      case TFC_DTYPE_UINT32: ((uint32_t *)x->data)[i] = (uint32_t)d; break;
      case TFC_DTYPE_UINT64: ((uint64_t *)x->data)[i] = (uint64_t)d; break;
      case TFC_DTYPE_BOOL: ((uint8_t *)x->data)[i] = d != 0; break;
      default: break;
    }
  }
  return x;
}

/* Element i as a double (see kernel_call.h). */
double at(const tfc_tensor *t, int64_t i) {
  if (t->dtype == TFC_DTYPE_HALF) return tfc_half_to_float(((const uint16_t *)t->data)[i]);
  if (t->dtype == TFC_DTYPE_BFLOAT16) return tfc_bfloat16_to_float(((const uint16_t *)t->data)[i]);
  return tfc_tensor_get_double(t, i);
}
