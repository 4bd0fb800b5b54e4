/*
 * control.c — CPU kernels for version-1 control flow (core/ops_control.c).
 *
 * The executor gives these kernels their special meaning: an output a kernel
 * leaves unset is a dead tensor; a dead input of Merge arrives as NULL (both
 * ctx->inputs[k] and ctx->ref_inputs[k]); Enter, Exit and NextIteration move
 * values between frames and iterations while the kernels only forward them.
 *
 *   Switch(data, pred)  -> output_true = data when pred, else output_false
 *   Merge(inputs...)    -> (first live input, its index)
 *   Enter / Exit / NextIteration / LoopCond -> the input, unchanged
 * The Ref variants forward the variable itself.
 */
#include <stdio.h>

#include "core/resource.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* Forwards input 0 to output `out`: the variable for a Ref input, else the tensor. */
static void forward_any(tfc_kernel_ctx *ctx, int out) {
  if (ctx->ref_inputs && ctx->ref_inputs[0] && tfc_dtype_is_ref(ctx->out_types[out]))
    ctx->ref_outputs[out] = tfc_var_ref(ctx->ref_inputs[0]);
  else
    tfc_kernel_forward(ctx, 0, out);
}

/* Switch / RefSwitch: data goes to output 1 when pred is true, else output 0;
 * the other output stays unset (dead). pred must be a bool scalar. */
static void switch_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *pred = ctx->inputs[1];
  if (pred->rank != 0) {
    char dims[128];
    int n = snprintf(dims, sizeof dims, "[");
    for (int i = 0; i < pred->rank && n < (int)sizeof dims - 24; i++)
      n += snprintf(dims + n, sizeof dims - (size_t)n, "%s%lld", i ? "," : "", (long long)pred->dims[i]);
    snprintf(dims + n, sizeof dims - (size_t)n, "]");
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "The second input must be a scalar, but it has shape %s",
                    dims);
    return;
  }
  bool p = *(const bool *)pred->data;
  forward_any(ctx, p ? 1 : 0);
}

/* Merge / RefMerge: forwards the first live input and writes its index. */
static void merge_compute(tfc_kernel_ctx *ctx) {
  for (int k = 0; k < ctx->n_inputs; k++) {
    bool live = ctx->inputs[k] != NULL || (ctx->ref_inputs && ctx->ref_inputs[k] != NULL);
    if (!live) continue;
    if (ctx->ref_inputs && ctx->ref_inputs[k] && tfc_dtype_is_ref(ctx->out_types[0]))
      ctx->ref_outputs[0] = tfc_var_ref(ctx->ref_inputs[k]);
    else
      tfc_kernel_forward(ctx, k, 0);
    int32_t idx = k;
    tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_INT32, &idx, ctx->st);
    if (t) tfc_kernel_set_output(ctx, 1, t);
    return;
  }
  tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "Merge was run without a live input");
}

/* Enter, Exit, NextIteration, LoopCond and their Ref forms: forward input 0. */
static void forward_compute(tfc_kernel_ctx *ctx) { forward_any(ctx, 0); }

static const tfc_kernel_def defs[] = {
    {"Switch", "CPU", NULL, NULL, NULL, switch_compute, NULL, 0},
    {"RefSwitch", "CPU", NULL, NULL, NULL, switch_compute, NULL, 0},
    {"Merge", "CPU", NULL, NULL, NULL, merge_compute, NULL, 0},
    {"RefMerge", "CPU", NULL, NULL, NULL, merge_compute, NULL, 0},
    {"Enter", "CPU", NULL, NULL, NULL, forward_compute, NULL, 0},
    {"RefEnter", "CPU", NULL, NULL, NULL, forward_compute, NULL, 0},
    {"Exit", "CPU", NULL, NULL, NULL, forward_compute, NULL, 0},
    {"RefExit", "CPU", NULL, NULL, NULL, forward_compute, NULL, 0},
    {"NextIteration", "CPU", NULL, NULL, NULL, forward_compute, NULL, 0},
    {"RefNextIteration", "CPU", NULL, NULL, NULL, forward_compute, NULL, 0},
    {"LoopCond", "CPU", NULL, NULL, NULL, forward_compute, NULL, 0},
    {"RefIdentity", "CPU", NULL, NULL, NULL, forward_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_control = {defs, (int)(sizeof defs / sizeof defs[0])};
