/*
 * subgraph.h — what one Session.run signature executes: the graph pruned to
 * the fetches and targets, every node placed on a device, and one partition
 * per device, with a _Send/_Recv pair on every edge that crosses devices.
 *
 * The user's graph is never modified: partitions hold tfc_snode records
 * that point at the original nodes or own the synthesized ones.
 *
 * A while loop whose frame holds nodes on several devices gets, on every
 * device that receives a tensor inside the frame, a copy of the loop's
 * control structure (Enter -> Merge -> Switch -> NextIteration of a dummy
 * float, as TensorFlow builds it), driven by the frame's LoopCond sent over
 * from its device; every _Recv inside the frame takes a control edge from
 * that copy's Merge, so it runs once per iteration and the runtime keys its
 * tensor with the frame instance and the iteration.
 */
#ifndef TFC_GRAPH_SUBGRAPH_H
#define TFC_GRAPH_SUBGRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "graph/device_name.h"
#include "graph/graph.h"

/* A data input of an snode: another snode of the same partition, or a feed. */
typedef struct tfc_sinput {
  int src;    /* snode index in the partition, or -1 for a feed */
  int index;  /* output index of src, or the feed index */
} tfc_sinput;

typedef struct tfc_snode {
  const tfc_node *gnode;      /* original node, or NULL when synthesized */
  const char *name;
  const tfc_op_def *def;
  const tfc_attrs *attrs;     /* &gnode->attrs or &own_attrs */
  int n_inputs;
  tfc_sinput *inputs;
  const tfc_dtype *in_types;  /* gnode->in_types or own_types */
  int n_control;
  int *control;               /* snode indices in the same partition */
  int n_outputs;
  const tfc_dtype *out_types;
  /* storage for synthesized nodes */
  char *own_name;
  tfc_attrs own_attrs;
  tfc_dtype own_types[2];
  bool static_types;          /* synthesized with in_types/out_types in static tables */
} tfc_snode;

typedef struct tfc_partition {
  int device;                 /* index into the device list */
  int n;
  int cap;
  tfc_snode *nodes;
} tfc_partition;

typedef struct tfc_fetch_loc {
  int feed;                   /* >= 0: the fetch is fed; its value is the feed */
  int part;                   /* else: partition, snode and output index */
  int snode;
  int index;
} tfc_fetch_loc;

/* Bool attr the partitioner sets on the _Send and _Recv nodes of a graph that
 * holds a Switch: the tensor may be dead, so both partitions need the
 * control-flow runner even when they hold no control-flow op themselves (a
 * local session runs all partitions of a step with one runner). */
#define TFC_RECV_MAY_BE_DEAD_ATTR "_tfc_may_be_dead"

/* The devices a subgraph may be placed on. */
typedef struct tfc_device_set {
  int n;
  const char *const *names;             /* canonical full names */
  const tfc_device_name *parsed;
  bool allow_soft_placement;
  int64_t incarnation;                  /* written into _Send/_Recv attrs */
  const int64_t *incarnations;          /* per device (the send device's is written); NULL: incarnation */
} tfc_device_set;

typedef struct tfc_subgraph {
  int n_parts;
  tfc_partition *parts;
  int n_fetches;
  tfc_fetch_loc *fetches;
  int n_feeds;
  int *placement;             /* device per graph node id, -1 when pruned away */
  int n_graph_nodes;
} tfc_subgraph;

/* Builds the subgraph. Errors: INVALID_ARGUMENT for unsatisfiable device
 * specs ("Cannot assign a device for operation ..."), NOT_FOUND for bad
 * endpoints, RESOURCE_EXHAUSTED on OOM. On failure *out is left empty. */
bool tfc_subgraph_build(tfc_graph *g, int n_feeds, const tfc_endpoint *feeds, int n_fetches,
                        const tfc_endpoint *fetches, int n_targets, const int *targets,
                        const tfc_device_set *devices, tfc_subgraph *out, tfc_status *st);
/* Frees everything a subgraph owns. */
void tfc_subgraph_free(tfc_subgraph *sg);

/* Places the nodes marked in `needed` (array of n_nodes bools): writes a
 * device index per node into placement (-1 for unneeded). */
bool tfc_place_nodes(tfc_graph *g, const bool *needed, const tfc_device_set *devices, int *placement,
                     tfc_status *st);

#endif
