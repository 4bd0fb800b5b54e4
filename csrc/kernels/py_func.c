/*
 * py_func.c — CPU kernels for PyFunc, PyFuncStateless and EagerPyFunc
 * (core/ops_script.c): each step hands the inputs to the installed Python
 * hook and takes its outputs. Without a hook (a process with no Python, such
 * as the C tests) the kernels fail with FAILED_PRECONDITION.
 */
#include "kernels/py_func.h"

#include <stdatomic.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

static _Atomic(tfc_py_func_hook) g_hook;

/* Installs the hook. */
void tfc_py_func_set_hook(tfc_py_func_hook hook) { atomic_store(&g_hook, hook); }

/* Runs the registered Python function on the step's inputs. */
static void py_func_compute(tfc_kernel_ctx *ctx) {
  tfc_py_func_hook hook = atomic_load(&g_hook);
  if (!hook) {
    tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION,
                    "No Python interpreter is available to run %s", ctx->op_type);
    return;
  }
  const tfc_string *token = NULL;
  if (!tfc_attrs_get_string(ctx->attrs, "token", &token, ctx->st)) return;
  bool eager = strcmp(ctx->op_type, "EagerPyFunc") == 0;
  tfc_dtype *types = NULL;
  tfc_tensor **outs = NULL;
  if (ctx->n_outputs > 0) {
    types = tfc_calloc((size_t)ctx->n_outputs, sizeof *types);
    outs = tfc_calloc((size_t)ctx->n_outputs, sizeof *outs);
    if (!types || !outs) {
      tfc_free(types);
      tfc_free(outs);
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
    for (int i = 0; i < ctx->n_outputs; i++) types[i] = tfc_dtype_base(ctx->out_types[i]);
  }
  if (hook(token->data ? token->data : "", token->len, eager, ctx->n_inputs, ctx->inputs,
           ctx->n_outputs, types, outs, ctx->st)) {
    for (int i = 0; i < ctx->n_outputs; i++) tfc_kernel_set_output(ctx, i, outs[i]);
  }
  tfc_free(types);
  tfc_free(outs);
}

static const tfc_kernel_def defs[] = {
    {"PyFunc", "CPU", NULL, NULL, NULL, py_func_compute, NULL, 0},
    {"PyFuncStateless", "CPU", NULL, NULL, NULL, py_func_compute, NULL, 0},
    {"EagerPyFunc", "CPU", NULL, NULL, NULL, py_func_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_script = {defs, (int)(sizeof defs / sizeof defs[0])};
