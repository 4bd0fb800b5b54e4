/*
 * data_flow.c — the kernel table of the data-flow family: queues, accumulators and readers.
 */
#include "kernels/data_flow_internal.h"
#include "kernels/kernel_tables.h"

/* Element types the accumulators sum. */
static const tfc_dtype k_accum_types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32, TFC_DTYPE_INT64,
                                          TFC_DTYPE_INVALID};

static const tfc_kernel_def defs[] = {
    {"FIFOQueueV2", "CPU", NULL, NULL, tfc_queue_op_init, tfc_queue_op_compute, tfc_queue_op_free, 0},
    {"PaddingFIFOQueueV2", "CPU", NULL, NULL, tfc_queue_op_init, tfc_queue_op_compute, tfc_queue_op_free, 0},
    {"RandomShuffleQueueV2", "CPU", NULL, NULL, tfc_queue_op_init, tfc_queue_op_compute, tfc_queue_op_free, 0},
    {"PriorityQueueV2", "CPU", NULL, NULL, tfc_queue_op_init, tfc_queue_op_compute, tfc_queue_op_free, 0},
    {"QueueEnqueueV2", "CPU", NULL, NULL, NULL, tfc_queue_enqueue_compute, NULL, TFC_KERNEL_ASYNC},
    {"QueueEnqueueManyV2", "CPU", NULL, NULL, NULL, tfc_queue_enqueue_compute, NULL, TFC_KERNEL_ASYNC},
    {"QueueDequeueV2", "CPU", NULL, NULL, NULL, tfc_queue_dequeue_compute, NULL, TFC_KERNEL_ASYNC},
    {"QueueDequeueManyV2", "CPU", NULL, NULL, NULL, tfc_queue_dequeue_compute, NULL, TFC_KERNEL_ASYNC},
    {"QueueDequeueUpToV2", "CPU", NULL, NULL, NULL, tfc_queue_dequeue_compute, NULL, TFC_KERNEL_ASYNC},
    {"QueueCloseV2", "CPU", NULL, NULL, NULL, tfc_queue_close_compute, NULL, 0},
    {"QueueSizeV2", "CPU", NULL, NULL, NULL, tfc_queue_size_compute, NULL, 0},
    {"QueueIsClosedV2", "CPU", NULL, NULL, NULL, tfc_queue_is_closed_compute, NULL, 0},
    {"ConditionalAccumulator", "CPU", NULL, NULL, tfc_accum_op_init, tfc_accum_op_compute, tfc_accum_op_free, 0},
    {"SparseConditionalAccumulator", "CPU", NULL, NULL, tfc_accum_op_init, tfc_accum_op_compute, tfc_accum_op_free,
     0},
    {"AccumulatorApplyGradient", "CPU", "dtype", k_accum_types, NULL, tfc_accum_apply_compute, NULL, 0},
    {"SparseAccumulatorApplyGradient", "CPU", "dtype", k_accum_types, NULL, tfc_accum_apply_compute, NULL, 0},
    {"AccumulatorTakeGradient", "CPU", "dtype", k_accum_types, NULL, tfc_accum_take_compute, NULL, TFC_KERNEL_ASYNC},
    {"SparseAccumulatorTakeGradient", "CPU", "dtype", k_accum_types, NULL, tfc_accum_take_compute, NULL,
     TFC_KERNEL_ASYNC},
    {"ResourceConditionalAccumulator", "CPU", NULL, NULL, tfc_accum_op_init, tfc_accum_op_compute, tfc_accum_op_free,
     0},
    {"ResourceAccumulatorApplyGradient", "CPU", "dtype", k_accum_types, NULL, tfc_accum_apply_compute, NULL, 0},
    {"ResourceAccumulatorTakeGradient", "CPU", "dtype", k_accum_types, NULL, tfc_accum_take_compute, NULL,
     TFC_KERNEL_ASYNC},
    {"ResourceAccumulatorNumAccumulated", "CPU", NULL, NULL, NULL, tfc_accum_num_compute, NULL, 0},
    {"ResourceAccumulatorSetGlobalStep", "CPU", NULL, NULL, NULL, tfc_accum_set_step_compute, NULL, 0},
    {"AccumulatorNumAccumulated", "CPU", NULL, NULL, NULL, tfc_accum_num_compute, NULL, 0},
    {"AccumulatorSetGlobalStep", "CPU", NULL, NULL, NULL, tfc_accum_set_step_compute, NULL, 0},
    {"TFRecordReaderV2", "CPU", NULL, NULL, tfc_reader_op_init, tfc_reader_op_compute, tfc_reader_op_free, 0},
    {"WholeFileReaderV2", "CPU", NULL, NULL, tfc_reader_op_init, tfc_reader_op_compute, tfc_reader_op_free, 0},
    {"IdentityReaderV2", "CPU", NULL, NULL, tfc_reader_op_init, tfc_reader_op_compute, tfc_reader_op_free, 0},
    {"TextLineReaderV2", "CPU", NULL, NULL, tfc_reader_op_init, tfc_reader_op_compute, tfc_reader_op_free, 0},
    {"FixedLengthRecordReaderV2", "CPU", NULL, NULL, tfc_reader_op_init, tfc_reader_op_compute, tfc_reader_op_free,
     0},
    {"ReaderReadV2", "CPU", NULL, NULL, NULL, tfc_reader_read_compute, NULL, TFC_KERNEL_ASYNC},
    {"ReaderReadUpToV2", "CPU", NULL, NULL, NULL, tfc_reader_read_compute, NULL, TFC_KERNEL_ASYNC},
    {"ReaderNumRecordsProducedV2", "CPU", NULL, NULL, NULL, tfc_reader_num_records_compute, NULL, 0},
    {"ReaderNumWorkUnitsCompletedV2", "CPU", NULL, NULL, NULL, tfc_reader_num_work_units_compute, NULL, 0},
    {"ReaderResetV2", "CPU", NULL, NULL, NULL, tfc_reader_reset_compute, NULL, 0},
    {"ReaderSerializeStateV2", "CPU", NULL, NULL, NULL, tfc_reader_serialize_state_compute, NULL, 0},
    {"ReaderRestoreStateV2", "CPU", NULL, NULL, NULL, tfc_reader_restore_state_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_data_flow = {defs, (int)(sizeof defs / sizeof defs[0])};
