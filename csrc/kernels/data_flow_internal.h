/*
 * data_flow_internal.h — kernels of the data-flow family (queues in
 * queue_ops.c, readers in reader_ops.c, accumulators in accumulator_ops.c) listed by data_flow.c.
 */
#ifndef TFC_KERNELS_DATA_FLOW_INTERNAL_H
#define TFC_KERNELS_DATA_FLOW_INTERNAL_H

#include "kernels/kernel.h"

/* Queue creation ops (FIFOQueueV2, PaddingFIFOQueueV2, RandomShuffleQueueV2, PriorityQueueV2). */
bool tfc_queue_op_init(const tfc_kernel_init *ki, void **state);
void tfc_queue_op_compute(tfc_kernel_ctx *ctx);
void tfc_queue_op_free(void *state);
/* QueueEnqueueV2 / QueueEnqueueManyV2 (async). */
void tfc_queue_enqueue_compute(tfc_kernel_ctx *ctx);
/* QueueDequeueV2 / QueueDequeueManyV2 / QueueDequeueUpToV2 (async). */
void tfc_queue_dequeue_compute(tfc_kernel_ctx *ctx);
void tfc_queue_close_compute(tfc_kernel_ctx *ctx);
void tfc_queue_size_compute(tfc_kernel_ctx *ctx);
void tfc_queue_is_closed_compute(tfc_kernel_ctx *ctx);

/* Reader creation ops (*ReaderV2). */
bool tfc_reader_op_init(const tfc_kernel_init *ki, void **state);
void tfc_reader_op_compute(tfc_kernel_ctx *ctx);
void tfc_reader_op_free(void *state);
/* ReaderReadV2 / ReaderReadUpToV2 (async). */
void tfc_reader_read_compute(tfc_kernel_ctx *ctx);
void tfc_reader_num_records_compute(tfc_kernel_ctx *ctx);
void tfc_reader_num_work_units_compute(tfc_kernel_ctx *ctx);
void tfc_reader_reset_compute(tfc_kernel_ctx *ctx);
/* ReaderSerializeStateV2 / ReaderRestoreStateV2. */
void tfc_reader_serialize_state_compute(tfc_kernel_ctx *ctx);
void tfc_reader_restore_state_compute(tfc_kernel_ctx *ctx);

/* Accumulator creation ops (ConditionalAccumulator, SparseConditionalAccumulator). */
bool tfc_accum_op_init(const tfc_kernel_init *ki, void **state);
void tfc_accum_op_compute(tfc_kernel_ctx *ctx);
void tfc_accum_op_free(void *state);
/* AccumulatorApplyGradient / SparseAccumulatorApplyGradient. */
void tfc_accum_apply_compute(tfc_kernel_ctx *ctx);
/* AccumulatorTakeGradient / SparseAccumulatorTakeGradient (async). */
void tfc_accum_take_compute(tfc_kernel_ctx *ctx);
void tfc_accum_num_compute(tfc_kernel_ctx *ctx);
void tfc_accum_set_step_compute(tfc_kernel_ctx *ctx);

/* A unique resource name for a node's resource when its shared_name is
 * empty ("_<n>_<node>", as TF names them); caller frees. NULL on OOM. */
char *tfc_unique_resource_name(const char *node_name);

#endif
