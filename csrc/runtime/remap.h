/*
 * remap.h — plan-level rewrites of a subgraph before its kernels are built.
 *
 * The user's graph never changes: the rewrite works on the partitions'
 * snodes (graph/subgraph.h), so a GraphDef exported from the graph, and
 * every fetch of it, stay what the user built. Two rewrites:
 *
 *  - fusion (TF's remapper): a float NHWC Conv2D or DepthwiseConv2dNative
 *    whose only consumer is a BiasAdd or an inference FusedBatchNorm (V1,
 *    V2, V3) or a BiasAdd whose only consumer is such a batch norm,
 *    optionally followed by the only consumer Add/AddV2 with a float
 *    operand of the same (static, rank-4) shape (the residual, any tensor:
 *    it becomes the last fused argument and is only read), then optionally
 *    by the only consumer Relu or Relu6,
 *    becomes one _FusedConv2D / _FusedDepthwiseConv2dNative node with TF's
 *    attrs (fused_ops, num_args, epsilon), named after the last node of the
 *    chain. An intermediate that is fetched, consumed elsewhere, a control
 *    input of anything or that has control inputs itself keeps the chain
 *    unfused there; a fed tensor cuts the chain by construction (its
 *    consumers read the feed). Off when the environment says TFC_FUSION=0.
 *  - constant weights: a convolution (fused or not) whose filter, and for
 *    the fused ops every argument, comes from a Const node of the same
 *    partition (possibly through Identity nodes) gets the internal attr
 *    TFC_CONV_CONST_ATTR, so its kernel prepares those weights once.
 */
#ifndef TFC_RUNTIME_REMAP_H
#define TFC_RUNTIME_REMAP_H

#include <stdbool.h>

#include "base/status.h"
#include "graph/subgraph.h"

/* True unless the environment variable TFC_FUSION is "0". */
bool tfc_remap_fusion_enabled(void);

/* Rewrites every partition of sg in place as described above (fusion only
 * when fuse is true). Fetch locations are updated with the snodes. false +
 * st (RESOURCE_EXHAUSTED) on OOM; sg is then still valid to free but may be
 * half rewritten, so the caller discards it. */
bool tfc_remap_subgraph(tfc_subgraph *sg, bool fuse, tfc_status *st);

#endif
