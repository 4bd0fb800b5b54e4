/*
 * function_ops.c — kernels that run functions of the graph's library:
 * PartitionedCall / StatefulPartitionedCall and calls by function name,
 * If / StatelessIf, Case / StatelessCase, While / StatelessWhile, and
 * SymbolicGradient, which runs the gradient function the library records for
 * its function `f` (a GradientDef: arguments and result gradients in, argument
 * gradients out).
 *
 * Every kernel instantiates its functions once, in init (the plan), through
 * core/function.h, and checks their signatures against the node's input and
 * output types there, so arity and type mismatches are plan-build errors
 * naming the node. compute() runs the functions on the calling thread.
 * While checks the step's cancellation and deadline between iterations.
 * States hold handles of the plan's function runtime, so they are never
 * shared through the kernel cache (TFC_KERNEL_PER_PLAN): on a worker, graphs
 * registered in one session have runtimes of their own.
 */
#include "runtime/function.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"

typedef struct fstate {
  int n;                          /* functions */
  const tfc_fhandle **fns;        /* call: [f]; If: [then, else]; While: [cond, body]; Case: branches */
} fstate;

/* Frees a state. */
static void fstate_destroy(void *p) {
  fstate *s = p;
  if (!s) return;
  tfc_free(s->fns);
  tfc_free(s);
}

/* Checks that f's signature takes types in[0..n_in) and gives out[0..n_out). */
static bool check_sig(const tfc_kernel_init *ki, const tfc_fhandle *f, int n_in, const tfc_dtype *in,
                      int n_out, const tfc_dtype *out, const char *what) {
  if (f->n_inputs != n_in)
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "%s '%s' takes %d argument(s), but node '%s' passes %d", what, f->name,
                          f->n_inputs, ki->node_name, n_in);
  for (int i = 0; i < n_in; i++)
    if (f->in_types[i] != tfc_dtype_base(in[i]))
      return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                            "%s '%s': argument %d has type %s, but node '%s' passes %s", what, f->name, i,
                            tfc_dtype_name(f->in_types[i]), ki->node_name,
                            tfc_dtype_name(tfc_dtype_base(in[i])));
  if (out && f->n_outputs != n_out)
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "%s '%s' returns %d value(s), but node '%s' expects %d", what, f->name,
                          f->n_outputs, ki->node_name, n_out);
  for (int i = 0; out && i < n_out; i++)
    if (f->out_types[i] != tfc_dtype_base(out[i]))
      return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                            "%s '%s': result %d has type %s, but node '%s' expects %s", what, f->name, i,
                            tfc_dtype_name(f->out_types[i]), ki->node_name,
                            tfc_dtype_name(tfc_dtype_base(out[i])));
  return true;
}

/* A new state with room for n functions. */
static fstate *fstate_new(const tfc_kernel_init *ki, int n) {
  fstate *s = tfc_calloc(1, sizeof *s);
  if (s) s->fns = tfc_calloc((size_t)(n ? n : 1), sizeof *s->fns);
  if (!s || !s->fns) {
    fstate_destroy(s);
    tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  s->n = n;
  return s;
}

/* The name of func attr `attr`, or NULL with st set. */
static const char *func_attr(const tfc_kernel_init *ki, const char *attr) {
  const tfc_attr_value *v = tfc_attrs_find(ki->attrs, attr);
  if (!v || (v->kind != TFC_ATTR_FUNC && v->kind != TFC_ATTR_S)) {
    tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Node '%s' has no function attr '%s'",
                   ki->node_name, attr);
    return NULL;
  }
  return v->v.s.data ? v->v.s.data : "";
}

/* ---- calls ---- */

/* PartitionedCall / StatefulPartitionedCall (attr f) or a call by name
 * (op = function name, the node's attrs instantiate it). */
static bool call_init(const tfc_kernel_init *ki, void **state) {
  bool by_name = strcmp(ki->op_type, "PartitionedCall") != 0 &&
                 strcmp(ki->op_type, "StatefulPartitionedCall") != 0;
  const char *name = by_name ? ki->op_type : func_attr(ki, "f");
  if (!name) return false;
  const tfc_fhandle *f = tfc_func_instantiate(ki->flib, name, by_name ? ki->attrs : NULL, ki->st);
  if (!f || !check_sig(ki, f, ki->n_inputs, ki->in_types, ki->n_outputs, ki->out_types, "Function"))
    return false;
  fstate *s = fstate_new(ki, 1);
  if (!s) return false;
  s->fns[0] = f;
  *state = s;
  return true;
}

/* Runs function fn on the node's inputs from `first` into its outputs. */
static void run_into_outputs(tfc_kernel_ctx *ctx, const tfc_fhandle *fn, int first) {
  tfc_tensor *small[16];
  tfc_tensor **rets = fn->n_outputs <= 16 ? small : tfc_calloc((size_t)fn->n_outputs, sizeof *rets);
  if (!rets) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  if (tfc_func_run(ctx->step->flib, fn, ctx->step, ctx->inputs + first, rets, ctx->st))
    for (int i = 0; i < fn->n_outputs && i < ctx->n_outputs; i++) tfc_kernel_set_output(ctx, i, rets[i]);
  if (rets != small) tfc_free(rets);
}

/* Runs the called function. */
static void call_compute(tfc_kernel_ctx *ctx) {
  const fstate *s = ctx->state;
  run_into_outputs(ctx, s->fns[0], 0);
}

/* SymbolicGradient: instantiates the gradient function recorded for attr f
 * and checks it maps the node's inputs to its outputs. */
static bool symbolic_gradient_init(const tfc_kernel_init *ki, void **state) {
  const char *name = func_attr(ki, "f");
  if (!name) return false;
  if (!tfc_func_exists(ki->flib, name))
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "Failed to find function '%s' in the graph's function library "
                          "(node '%s')", name, ki->node_name);
  const char *grad = tfc_func_gradient(ki->flib, name);
  if (!grad)
    return tfc_status_set(ki->st, TFC_CODE_UNIMPLEMENTED,
                          "No gradient function is recorded for function '%s' (node '%s'); "
                          "import the graph with tfc's import_graph_def, which derives one "
                          "from the function's body", name, ki->node_name);
  const tfc_fhandle *f = tfc_func_instantiate(ki->flib, grad, NULL, ki->st);
  if (!f || !check_sig(ki, f, ki->n_inputs, ki->in_types, ki->n_outputs, ki->out_types,
                       "Gradient function"))
    return false;
  fstate *s = fstate_new(ki, 1);
  if (!s) return false;
  s->fns[0] = f;
  *state = s;
  return true;
}

/* ---- conditionals ---- */

/* TF's truth value of a tensor: a scalar is true when non-zero (non-empty
 * for strings); any other tensor is true when it has elements. */
static bool to_bool(tfc_kernel_ctx *ctx, const tfc_tensor *t, bool *out) {
  if (t->rank != 0) {
    *out = t->nelems > 0;
    return true;
  }
  switch (t->dtype) {
    case TFC_DTYPE_BOOL: *out = *(const bool *)t->data; return true;
    case TFC_DTYPE_FLOAT: *out = *(const float *)t->data != 0; return true;
    case TFC_DTYPE_DOUBLE: *out = *(const double *)t->data != 0; return true;
    case TFC_DTYPE_INT32: *out = *(const int32_t *)t->data != 0; return true;
    case TFC_DTYPE_INT64: *out = *(const int64_t *)t->data != 0; return true;
    case TFC_DTYPE_INT16: *out = *(const int16_t *)t->data != 0; return true;
    case TFC_DTYPE_INT8: *out = *(const int8_t *)t->data != 0; return true;
    case TFC_DTYPE_UINT8: *out = *(const uint8_t *)t->data != 0; return true;
    case TFC_DTYPE_UINT16: *out = *(const uint16_t *)t->data != 0; return true;
    case TFC_DTYPE_UINT32: *out = *(const uint32_t *)t->data != 0; return true;
    case TFC_DTYPE_UINT64: *out = *(const uint64_t *)t->data != 0; return true;
    case TFC_DTYPE_STRING: *out = ((const tfc_string *)t->data)->len > 0; return true;
    default:
      return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Invalid predicate type %s",
                             tfc_dtype_name(t->dtype));
  }
}

/* If / StatelessIf: input 0 the predicate, the rest the branches' args. */
static bool if_init(const tfc_kernel_init *ki, void **state) {
  const char *then_name = func_attr(ki, "then_branch");
  const char *else_name = then_name ? func_attr(ki, "else_branch") : NULL;
  if (!else_name) return false;
  fstate *s = fstate_new(ki, 2);
  if (!s) return false;
  const char *names[2] = {then_name, else_name};
  for (int i = 0; i < 2; i++) {
    s->fns[i] = tfc_func_instantiate(ki->flib, names[i], NULL, ki->st);
    if (!s->fns[i] || !check_sig(ki, s->fns[i], ki->n_inputs - 1, ki->in_types + 1, ki->n_outputs,
                                 ki->out_types, i ? "Else branch" : "Then branch")) {
      fstate_destroy(s);
      return false;
    }
  }
  *state = s;
  return true;
}

/* Runs the branch the predicate selects. */
static void if_compute(tfc_kernel_ctx *ctx) {
  const fstate *s = ctx->state;
  bool pred = false;
  if (!to_bool(ctx, ctx->inputs[0], &pred)) return;
  run_into_outputs(ctx, s->fns[pred ? 0 : 1], 1);
}

/* Case / StatelessCase: input 0 the branch index, the rest the args. */
static bool case_init(const tfc_kernel_init *ki, void **state) {
  const tfc_attr_value *v = tfc_attrs_find(ki->attrs, "branches");
  if (!v || v->kind != TFC_ATTR_LIST || v->v.list.n < 1 ||
      (v->v.list.kind != TFC_ATTR_FUNC && v->v.list.kind != TFC_ATTR_S))
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "Node '%s' needs at least one branch",
                          ki->node_name);
  fstate *s = fstate_new(ki, v->v.list.n);
  if (!s) return false;
  for (int i = 0; i < v->v.list.n; i++) {
    const char *name = v->v.list.v.func[i].data ? v->v.list.v.func[i].data : "";
    s->fns[i] = tfc_func_instantiate(ki->flib, name, NULL, ki->st);
    if (!s->fns[i] || !check_sig(ki, s->fns[i], ki->n_inputs - 1, ki->in_types + 1, ki->n_outputs,
                                 ki->out_types, "Branch")) {
      fstate_destroy(s);
      return false;
    }
  }
  *state = s;
  return true;
}

/* Runs branch `index` (out of range: the last one, TF's default branch). */
static void case_compute(tfc_kernel_ctx *ctx) {
  const fstate *s = ctx->state;
  const tfc_tensor *t = ctx->inputs[0];
  if (t->rank != 0 || t->dtype != TFC_DTYPE_INT32) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "branch_index must be a scalar int32");
    return;
  }
  int32_t i = *(const int32_t *)t->data;
  if (i < 0 || i >= s->n) i = s->n - 1;
  run_into_outputs(ctx, s->fns[i], 1);
}

/* ---- loops ---- */

/* While / StatelessWhile: cond(vars) -> bool, body(vars) -> vars. */
static bool while_init(const tfc_kernel_init *ki, void **state) {
  const char *cond = func_attr(ki, "cond");
  const char *body = cond ? func_attr(ki, "body") : NULL;
  if (!body) return false;
  if (ki->n_inputs != ki->n_outputs)
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "Node '%s' has %d inputs but %d outputs", ki->node_name, ki->n_inputs,
                          ki->n_outputs);
  fstate *s = fstate_new(ki, 2);
  if (!s) return false;
  s->fns[0] = tfc_func_instantiate(ki->flib, cond, NULL, ki->st);
  bool ok = s->fns[0] && check_sig(ki, s->fns[0], ki->n_inputs, ki->in_types, 0, NULL, "Loop condition");
  if (ok && s->fns[0]->n_outputs != 1)
    ok = tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                        "Loop condition '%s' of node '%s' must return one value, not %d",
                        s->fns[0]->name, ki->node_name, s->fns[0]->n_outputs);
  if (ok) {
    s->fns[1] = tfc_func_instantiate(ki->flib, body, NULL, ki->st);
    ok = s->fns[1] && check_sig(ki, s->fns[1], ki->n_inputs, ki->in_types, ki->n_outputs, ki->out_types,
                                "Loop body");
  }
  if (!ok) {
    fstate_destroy(s);
    return false;
  }
  *state = s;
  return true;
}

/* CLOCK_MONOTONIC in nanoseconds. */
static int64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* False (with ctx failed) when the step was cancelled or is past its deadline. */
static bool still_running(tfc_kernel_ctx *ctx, const tfc_step_args *pa, int64_t iter) {
  if (atomic_load(&ctx->step->cancelled) || (pa && pa->cancel && atomic_load(pa->cancel)))
    return tfc_kernel_fail(ctx, TFC_CODE_CANCELLED, "Session has been closed or the step was cancelled.");
  if (pa && pa->deadline_ns > 0 && (iter & 15) == 0 && mono_ns() > pa->deadline_ns)
    return tfc_kernel_fail(ctx, TFC_CODE_DEADLINE_EXCEEDED, "Timed out waiting for the loop to finish "
                           "(RunOptions.timeout_in_ms)");
  return true;
}

/* Runs the loop. */
static void while_compute(tfc_kernel_ctx *ctx) {
  const fstate *s = ctx->state;
  const tfc_fhandle *cond = s->fns[0], *body = s->fns[1];
  int n = ctx->n_inputs;
  const tfc_step_args *pa = (const tfc_step_args *)ctx->step->runtime;
  tfc_tensor *small[32];
  tfc_tensor **vars = n <= 16 ? small : tfc_calloc((size_t)(2 * n), sizeof *vars);
  if (!vars) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  tfc_tensor **next = vars + n;
  for (int i = 0; i < n; i++) vars[i] = tfc_tensor_ref(ctx->inputs[i]);
  bool ok = true;
  for (int64_t iter = 0;; iter++) {
    if (!(ok = still_running(ctx, pa, iter))) break;
    tfc_tensor *c = NULL;
    if (!(ok = tfc_func_run(ctx->step->flib, cond, ctx->step, vars, &c, ctx->st))) break;
    bool go = false;
    ok = to_bool(ctx, c, &go);
    tfc_tensor_unref(c);
    if (!ok || !go) break;
    if (!(ok = tfc_func_run(ctx->step->flib, body, ctx->step, vars, next, ctx->st))) break;
    for (int i = 0; i < n; i++) {
      tfc_tensor_unref(vars[i]);
      vars[i] = next[i];
      next[i] = NULL;
    }
  }
  for (int i = 0; i < n; i++) {
    if (ok)
      tfc_kernel_set_output(ctx, i, vars[i]);
    else
      tfc_tensor_unref(vars[i]);
  }
  if (vars != small) tfc_free(vars);
}

static const tfc_kernel_def defs[] = {
    {"PartitionedCall", "CPU", NULL, NULL, call_init, call_compute, fstate_destroy, TFC_KERNEL_PER_PLAN},
    {"StatefulPartitionedCall", "CPU", NULL, NULL, call_init, call_compute, fstate_destroy, TFC_KERNEL_PER_PLAN},
    {"If", "CPU", NULL, NULL, if_init, if_compute, fstate_destroy, TFC_KERNEL_PER_PLAN},
    {"StatelessIf", "CPU", NULL, NULL, if_init, if_compute, fstate_destroy, TFC_KERNEL_PER_PLAN},
    {"Case", "CPU", NULL, NULL, case_init, case_compute, fstate_destroy, TFC_KERNEL_PER_PLAN},
    {"StatelessCase", "CPU", NULL, NULL, case_init, case_compute, fstate_destroy, TFC_KERNEL_PER_PLAN},
    {"While", "CPU", NULL, NULL, while_init, while_compute, fstate_destroy, TFC_KERNEL_PER_PLAN},
    {"StatelessWhile", "CPU", NULL, NULL, while_init, while_compute, fstate_destroy, TFC_KERNEL_PER_PLAN},
    {"SymbolicGradient", "CPU", NULL, NULL, symbolic_gradient_init, call_compute, fstate_destroy,
     TFC_KERNEL_PER_PLAN},
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool registered;

/* pthread_once body. */
static void do_register(void) {
  registered = tfc_kernel_register_table(defs, (int)(sizeof defs / sizeof defs[0]));
}

/* Registers the function kernels once. */
bool tfc_function_kernels_register(void) {
  pthread_once(&once, do_register);
  return registered;
}
