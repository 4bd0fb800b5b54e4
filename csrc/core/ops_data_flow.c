/*
 * ops_data_flow.c — op definitions of TF's data_flow_ops.cc and io_ops.cc
 * (resource-handle forms), with TF's names, attrs and shape functions:
 * stacks (StackV2, StackPushV2, StackPopV2, StackCloseV2: what while-loop
 * gradients save forward values on) and tensor arrays (TensorArrayV3 and its
 * Read/Write/Gather/Scatter/Concat/Split/Size/Close/Grad ops; kernels in
 * kernels/stack.c, kernels/tensor_array.c); queues and readers: FIFOQueueV2,
 * PaddingFIFOQueueV2, RandomShuffleQueueV2, PriorityQueueV2, the Queue*V2
 * ops, the *ReaderV2 ops and the Reader*V2 ops; the conditional accumulators
 * (ConditionalAccumulator, SparseConditionalAccumulator and the Accumulator*
 * / SparseAccumulator* ops, kernels in kernels/accumulator_ops.c), whose
 * handle is TF's Ref(string) vector [container, name]; the Resource* forms
 * of the dense ones take a resource handle.
 *
 * Dequeued components leave shapes unknown here: the Python queue classes
 * set them from the queue's declared shapes, as TF's do.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* StackPushV2: the output is the pushed element (input 1). */
static bool push_shape(tfc_shape_ctx *ctx) {
  ctx->out_shapes[0] = ctx->in_shapes[1];
  return true;
}

/* TensorArrayV3 / TensorArrayGradV3: a scalar handle and a scalar flow. */
static bool ta_create_shape(tfc_shape_ctx *ctx) {
  if (ctx->n_inputs > 0 && ctx->def && ctx->in_types[0] == TFC_DTYPE_INT32 &&
      !tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0))
    return false;
  ctx->out_shapes[0] = tfc_shape_scalar();
  ctx->out_shapes[1] = tfc_shape_scalar();
  return true;
}

/* TensorArrayGatherV3: [len(indices)] + element_shape. */
static bool ta_gather_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *idx = &ctx->in_shapes[1];
  if (!tfc_shape_rank_is(ctx, idx, 1)) return false;
  tfc_shape es;
  if (!tfc_attrs_get_shape(ctx->attrs, "element_shape", &es, ctx->st)) return false;
  if (es.rank < 0 || es.rank + 1 > TFC_MAX_RANK) return true;
  tfc_shape out = tfc_shape_unknown_dims(es.rank + 1);
  out.dims[0] = idx->rank == 1 ? idx->dims[0] : -1;
  for (int i = 0; i < es.rank; i++) out.dims[i + 1] = es.dims[i];
  ctx->out_shapes[0] = out;
  return true;
}

/* TensorArrayConcatV3: [?] + element_shape_except0; lengths is a vector. */
static bool ta_concat_shape(tfc_shape_ctx *ctx) {
  tfc_shape es;
  if (!tfc_attrs_get_shape(ctx->attrs, "element_shape_except0", &es, ctx->st)) return false;
  if (es.rank >= 0 && es.rank + 1 <= TFC_MAX_RANK) {
    tfc_shape out = tfc_shape_unknown_dims(es.rank + 1);
    for (int i = 0; i < es.rank; i++) out.dims[i + 1] = es.dims[i];
    ctx->out_shapes[0] = out;
  }
  ctx->out_shapes[1] = tfc_shape_unknown_dims(1);
  return true;
}

#define TA_ATTRS                                                                               \
  "dtype: type; element_shape: shape = <unknown>; dynamic_size: bool = false; "               \
  "clear_after_read: bool = true; identical_element_shapes: bool = false; "                   \
  "tensor_array_name: string = ''"

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

/* ConditionalAccumulator / SparseConditionalAccumulator: the handle is a 2-vector. */
static bool accum_handle_shape(tfc_shape_ctx *ctx) {
  int64_t two = 2;
  ctx->out_shapes[0] = tfc_shape_make(1, &two);
  return true;
}

/* AccumulatorSetGlobalStep: the step is a scalar. */
static bool accum_set_step_shape(tfc_shape_ctx *ctx) { return tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 0); }

/* SparseAccumulatorTakeGradient: indices and shape are vectors. */
static bool sparse_take_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 0)) return false;
  ctx->out_shapes[0] = tfc_shape_unknown_dims(1);
  ctx->out_shapes[2] = tfc_shape_unknown_dims(1);
  return true;
}

/* AccumulatorTakeGradient: num_required is a scalar; the result's shape is the accumulator's. */
static bool take_shape(tfc_shape_ctx *ctx) { return tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 0); }

#define ACCUM_ATTRS                                                                                   \
  "dtype: numbertype; shape: shape; container: string = ''; shared_name: string = ''; "               \
  "reduction_type: {'MEAN', 'SUM'} = 'MEAN'"

#define QUEUE_TAIL "capacity: int = -1; container: string = ''; shared_name: string = ''"

static const tfc_op_spec specs[] = {
    {"StackV2", "max_size: int32", "handle: resource", "elem_type: type; stack_name: string = ''",
     TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"StackPushV2", "handle: resource; elem: T", "output: T", "T: type; swap_memory: bool = false",
     TFC_OP_STATEFUL, push_shape},
    {"StackPopV2", "handle: resource", "elem: elem_type", "elem_type: type", TFC_OP_STATEFUL, NULL},
    {"StackCloseV2", "handle: resource", "", "", TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"TensorArrayV3", "size: int32", "handle: resource; flow: float", TA_ATTRS, TFC_OP_STATEFUL,
     ta_create_shape},
    {"TensorArrayGradV3", "handle: resource; flow_in: float", "grad_handle: resource; flow_out: float",
     "source: string", TFC_OP_STATEFUL, ta_create_shape},
    {"TensorArrayWriteV3", "handle: resource; index: int32; value: T; flow_in: float",
     "flow_out: float", "T: type", TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"TensorArrayReadV3", "handle: resource; index: int32; flow_in: float", "value: dtype",
     "dtype: type", TFC_OP_STATEFUL, NULL},
    {"TensorArrayGatherV3", "handle: resource; indices: int32; flow_in: float", "value: dtype",
     "dtype: type; element_shape: shape = <unknown>", TFC_OP_STATEFUL, ta_gather_shape},
    {"TensorArrayScatterV3", "handle: resource; indices: int32; value: T; flow_in: float",
     "flow_out: float", "T: type", TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"TensorArrayConcatV3", "handle: resource; flow_in: float", "value: dtype; lengths: int64",
     "dtype: type; element_shape_except0: shape = <unknown>", TFC_OP_STATEFUL, ta_concat_shape},
    {"TensorArraySplitV3", "handle: resource; value: T; lengths: int64; flow_in: float",
     "flow_out: float", "T: type", TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"TensorArraySizeV3", "handle: resource; flow_in: float", "size: int32", "", TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"TensorArrayCloseV3", "handle: resource", "", "", TFC_OP_STATEFUL, tfc_shape_fn_none},
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
    {"ConditionalAccumulator", "", "handle: Ref(string)", ACCUM_ATTRS, TFC_OP_STATEFUL, accum_handle_shape},
    {"SparseConditionalAccumulator", "", "handle: Ref(string)", ACCUM_ATTRS, TFC_OP_STATEFUL, accum_handle_shape},
    {"AccumulatorNumAccumulated", "handle: Ref(string)", "num_accumulated: int32", "", TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"AccumulatorSetGlobalStep", "handle: Ref(string); new_global_step: int64", "", "", TFC_OP_STATEFUL,
     accum_set_step_shape},
    {"AccumulatorApplyGradient", "handle: Ref(string); local_step: int64; gradient: dtype", "",
     "dtype: numbertype", TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"AccumulatorTakeGradient", "handle: Ref(string); num_required: int32", "average: dtype",
     "dtype: numbertype", TFC_OP_STATEFUL, take_shape},
    {"SparseAccumulatorApplyGradient",
     "handle: Ref(string); local_step: int64; gradient_indices: int64; gradient_values: dtype; "
     "gradient_shape: int64",
     "", "dtype: numbertype; has_known_shape: bool", TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"SparseAccumulatorTakeGradient", "handle: Ref(string); num_required: int32",
     "indices: int64; values: dtype; shape: int64", "dtype: numbertype", TFC_OP_STATEFUL, sparse_take_shape},
    {"ResourceConditionalAccumulator", "", "handle: resource", ACCUM_ATTRS, TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ResourceAccumulatorNumAccumulated", "handle: resource", "num_accumulated: int32", "", TFC_OP_STATEFUL,
     tfc_shape_fn_scalar},
    {"ResourceAccumulatorSetGlobalStep", "handle: resource; new_global_step: int64", "", "", TFC_OP_STATEFUL,
     accum_set_step_shape},
    {"ResourceAccumulatorApplyGradient", "handle: resource; local_step: int64; gradient: dtype", "",
     "dtype: numbertype", TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"ResourceAccumulatorTakeGradient", "handle: resource; num_required: int32", "average: dtype",
     "dtype: numbertype", TFC_OP_STATEFUL, take_shape},

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
    {"ReaderSerializeStateV2", "reader_handle: resource", "state: string", "", TFC_OP_STATEFUL, tfc_shape_fn_scalar},
    {"ReaderRestoreStateV2", "reader_handle: resource; state: string", "", "", TFC_OP_STATEFUL, tfc_shape_fn_none},
};

const tfc_op_table tfc_ops_data_flow = {specs, (int)(sizeof specs / sizeof specs[0])};
