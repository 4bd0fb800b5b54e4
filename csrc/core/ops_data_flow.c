/*
 * ops_data_flow.c — op definitions for queues and readers (TF's
 * data_flow_ops.cc and io_ops.cc, resource-handle forms): FIFOQueueV2,
 * PaddingFIFOQueueV2, RandomShuffleQueueV2, PriorityQueueV2, the Queue*V2
 * ops, the *ReaderV2 ops and the Reader*V2 ops.
 *
 * Dequeued components leave shapes unknown here: the Python queue classes
 * set them from the queue's declared shapes, as TF's do.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* Dequeue: one output per component, shapes unknown. */
static bool dequeue_shape(tfc_shape_ctx *ctx) {
  (void)ctx;
  return true;
}

/* DequeueMany/UpTo: n must be a scalar. */
static bool dequeue_many_shape(tfc_shape_ctx *ctx) {
  return tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 0);
}

/* ReaderReadUpTo: num_records is a scalar; keys and values are vectors. */
static bool read_up_to_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[2], 0)) return false;
  ctx->out_shapes[0] = tfc_shape_unknown_dims(1);
  ctx->out_shapes[1] = tfc_shape_unknown_dims(1);
  return true;
}

#define QUEUE_TAIL "capacity: int = -1; container: string = ''; shared_name: string = ''"

static const tfc_op_spec specs[] = {
    {"FIFOQueueV2", "", "handle: resource",
     "component_types: list(type) >= 1; shapes: list(shape) >= 0 = []; " QUEUE_TAIL, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"PaddingFIFOQueueV2", "", "handle: resource",
     "component_types: list(type) >= 1; shapes: list(shape) >= 0 = []; " QUEUE_TAIL, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"RandomShuffleQueueV2", "", "handle: resource",
     "component_types: list(type) >= 1; shapes: list(shape) >= 0 = []; capacity: int = -1; "
     "min_after_dequeue: int = 0; seed: int = 0; seed2: int = 0; container: string = ''; "
     "shared_name: string = ''",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"PriorityQueueV2", "", "handle: resource",
     "component_types: list(type) >= 0 = []; shapes: list(shape) >= 0; " QUEUE_TAIL, TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"QueueEnqueueV2", "handle: resource; components: Tcomponents", "",
     "Tcomponents: list(type) >= 1; timeout_ms: int = -1", TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"QueueEnqueueManyV2", "handle: resource; components: Tcomponents", "",
     "Tcomponents: list(type) >= 1; timeout_ms: int = -1", TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"QueueDequeueV2", "handle: resource", "components: component_types",
     "component_types: list(type) >= 1; timeout_ms: int = -1", TFC_OP_STATEFUL, dequeue_shape},
    {"QueueDequeueManyV2", "handle: resource; n: int32", "components: component_types",
     "component_types: list(type) >= 1; timeout_ms: int = -1", TFC_OP_STATEFUL, dequeue_many_shape},
    {"QueueDequeueUpToV2", "handle: resource; n: int32", "components: component_types",
     "component_types: list(type) >= 1; timeout_ms: int = -1", TFC_OP_STATEFUL, dequeue_many_shape},
    {"QueueCloseV2", "handle: resource", "", "cancel_pending_enqueues: bool = false", TFC_OP_STATEFUL,
     tfc_shape_fn_none},
    {"QueueSizeV2", "handle: resource", "size: int32", "", TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"QueueIsClosedV2", "handle: resource", "is_closed: bool", "", TFC_OP_STATEFUL, tfc_shape_fn_scalar},

    {"TFRecordReaderV2", "", "reader_handle: resource",
     "container: string = ''; shared_name: string = ''; compression_type: string = ''", TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"WholeFileReaderV2", "", "reader_handle: resource", "container: string = ''; shared_name: string = ''",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"IdentityReaderV2", "", "reader_handle: resource", "container: string = ''; shared_name: string = ''",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"TextLineReaderV2", "", "reader_handle: resource",
     "skip_header_lines: int = 0; container: string = ''; shared_name: string = ''", TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"FixedLengthRecordReaderV2", "", "reader_handle: resource",
     "header_bytes: int = 0; record_bytes: int; footer_bytes: int = 0; hop_bytes: int = 0; "
     "container: string = ''; shared_name: string = ''; encoding: string = ''",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ReaderReadV2", "reader_handle: resource; queue_handle: resource", "key: string; value: string", "",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ReaderReadUpToV2", "reader_handle: resource; queue_handle: resource; num_records: int64",
     "keys: string; values: string", "", TFC_OP_STATEFUL, read_up_to_shape},
    {"ReaderNumRecordsProducedV2", "reader_handle: resource", "records_produced: int64", "", TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"ReaderNumWorkUnitsCompletedV2", "reader_handle: resource", "units_completed: int64", "",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ReaderResetV2", "reader_handle: resource", "", "", TFC_OP_STATEFUL, tfc_shape_fn_none},
};

const tfc_op_table tfc_ops_data_flow = {specs, (int)(sizeof specs / sizeof specs[0])};
