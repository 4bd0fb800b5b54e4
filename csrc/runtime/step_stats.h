/*
 * step_stats.h — RunMetadata.step_stats of a traced local step.
 *
 * A tfc_step_trace collects one NodeExecStats per executed node (through the
 * executor's node_stats callback, from any thread) and encodes them as a
 * StepStats message: one DeviceStepStats per device that ran a partition,
 * named like "/job:localhost/replica:0/task:0/device:CPU:0", each node with
 * all_start_micros (wall clock), op_start/op_end/all_end relative micros
 * (and the nanos fields), its outputs (slot, dtype, shape, bytes requested
 * and allocated) and TF's timeline label "name = Op(input, ...)".
 *
 *   tfc_step_trace *t = tfc_step_trace_new(g, &plan_sg, n_devices, dev_names);
 *   args.node_stats = tfc_step_trace_record; args.node_stats_ctx = t;
 *   tfc_run_step(&args, ...);
 *   tfc_step_trace_encode(t, &buf);   (StepStats bytes)
 *   tfc_step_trace_free(t);
 */
#ifndef TFC_RUNTIME_STEP_STATS_H
#define TFC_RUNTIME_STEP_STATS_H

#include <stdint.h>

#include "base/strbuf.h"
#include "core/tensor.h"
#include "graph/graph.h"
#include "graph/subgraph.h"

typedef struct tfc_step_trace tfc_step_trace;

/* A collector for one step of sg (borrowed, as are g and dev_names: they must
 * outlive it). NULL on out of memory. */
tfc_step_trace *tfc_step_trace_new(tfc_graph *g, const tfc_subgraph *sg, int n_devices,
                                   const char *const *dev_names);
/* The executor's node_stats callback (ctx is the tfc_step_trace); thread-safe. */
void tfc_step_trace_record(void *ctx, const tfc_snode *node, int64_t start_ns, int64_t end_ns,
                           int n_outputs, tfc_tensor *const *outputs);
/* Appends the StepStats message to out. false on out of memory. */
bool tfc_step_trace_encode(tfc_step_trace *t, tfc_strbuf *out);
/* Also keeps what a CostGraphDef needs (each node's last compute time and
 * outputs); call before the step. false on out of memory. */
bool tfc_step_trace_want_cost_graph(tfc_step_trace *t);
/* Appends the CostGraphDef message of the step to out: one Node per node of
 * every partition (ids numbered across partitions in partition order), with
 * its device, data inputs (preceding node and port; feeds have no node),
 * control inputs, outputs (bytes, shape, dtype, alias_input_port -1) and
 * compute_cost in microseconds (at least 1 for a node that ran). false on
 * out of memory. */
bool tfc_step_trace_encode_cost_graph(tfc_step_trace *t, tfc_strbuf *out);
/* Frees the collector (NULL is fine). */
void tfc_step_trace_free(tfc_step_trace *t);

/* Protobuf wire helpers for runtime messages: a varint field, a
 * length-delimited field. false on out of memory. */
bool tfc_pb_put_varint(tfc_strbuf *b, int field, uint64_t v);
bool tfc_pb_put_bytes(tfc_strbuf *b, int field, const void *data, size_t len);

#endif
