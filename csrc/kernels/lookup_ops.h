/*
 * lookup_ops.h — what the lookup-table kernel files share: reading the table
 * a kernel's input 0 names, and the text-file initializer kernel
 * (lookup_text.c) that lookup_ops.c registers.
 */
#ifndef TFC_KERNELS_LOOKUP_OPS_H
#define TFC_KERNELS_LOOKUP_OPS_H

#include "kernels/kernel.h"
#include "kernels/lookup_table.h"

/* The table behind input 0 (borrowed: the handle keeps it alive), or NULL
 * with ctx failed (INVALID_ARGUMENT) when input 0 is not a table handle. */
tfc_lookup_table *tfc_lookup_from_input(tfc_kernel_ctx *ctx);
/* InitializeTableFromTextFileV2(table, filename). */
void tfc_lookup_init_from_text_compute(tfc_kernel_ctx *ctx);

#endif
