/*
 * state_internal.h — what kernels/state.c shares with kernels/resource_var.c.
 *
 * The resource-variable kernels (ResourceApplyAdam, ResourceScatterAdd,
 * AssignAddVariableOp, ...) do exactly what their ref-variable counterparts
 * do once the handle has been resolved to its tfc_var: they run the ref
 * kernel's compute with ctx->ref_inputs filled from the handles.
 */
#ifndef TFC_KERNELS_STATE_INTERNAL_H
#define TFC_KERNELS_STATE_INTERNAL_H

#include "kernels/kernel.h"

typedef void (*tfc_kernel_compute_fn)(tfc_kernel_ctx *ctx);

/* The compute function of the ref-variable kernel registered by state.c for
 * op ("ApplyAdam", "ScatterAdd", "AssignAdd", ...), or NULL. It expects each
 * variable input i in ctx->ref_inputs[i] (ctx->inputs[i] may be NULL there)
 * and sets ctx->ref_outputs[0] to a new reference to the first variable. */
tfc_kernel_compute_fn tfc_state_ref_compute(const char *op);

#endif
