/*
 * kernel_call.h — runs one CPU kernel by hand, for the kernel-family tests.
 *
 *   call c;
 *   call_init(&c, TFC_DTYPE_FLOAT);        // attr T = float, out_types = float
 *   set_bool(&c, "keep_dims", true);
 *   tfc_tensor *in[2] = {x, axes};
 *   CHECK(call_run(&c, "Sum", 2, in, 1));  // c.out[0] holds the result
 *   call_done(&c);
 *
 * The kernel is looked up in the registry for the call's attrs, exactly as the
 * executor does, but runs without a graph or session.
 */
#ifndef TFC_TESTS_KERNEL_CALL_H
#define TFC_TESTS_KERNEL_CALL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "base/threadpool.h"
#include "core/attr.h"
#include "core/tensor.h"

#define CALL_MAX_OUT 8

/* One kernel invocation: attrs, outputs and status. */
typedef struct call {
  tfc_status st;
  tfc_attrs attrs;
  tfc_tensor *out[CALL_MAX_OUT];         /* owned; released by call_done */
  tfc_dtype out_types[CALL_MAX_OUT];
  tfc_threadpool *pool;                  /* intra-op pool, or NULL */
} call;

/* Starts a call: attr T = t unless t is INVALID; every out_types entry = t. */
void call_init(call *c, tfc_dtype t);
/* Attr setters (errors land in c->st). */
void set_type(call *c, const char *name, tfc_dtype t);
void set_int(call *c, const char *name, int64_t i);
void set_ints(call *c, const char *name, int n, const int64_t *vals);
void set_float(call *c, const char *name, float f);
void set_bool(call *c, const char *name, bool b);
void set_str(call *c, const char *name, const char *s);
/* Runs op's CPU kernel on nin borrowed inputs with nout outputs. Clears the
 * status and drops the previous outputs first; true when the kernel succeeded
 * (NOT_FOUND in c->st when no kernel matches the attrs). */
bool call_run(call *c, const char *op, int nin, tfc_tensor **ins, int nout);
/* Releases the outputs and attrs. */
void call_done(call *c);
/* A tensor of type t and shape dims filled from v converted per type (v NULL:
 * zeros); NULL on failure. */
tfc_tensor *mk(tfc_dtype t, int rank, const int64_t *dims, const double *v);
/* Element i of t as a double (half and bfloat16 widened). */
double at(const tfc_tensor *t, int64_t i);

#endif
