/*
 * subgraph.c — pruning to fetches/targets and partitioning by device.
 *
 * Pruning walks data and control inputs backwards from the fetches and
 * targets, stopping at fed tensors. Partitioning copies every needed node
 * into its device's partition and rewrites each data edge that crosses
 * devices into a _Send in the producer's partition and a _Recv in the
 * consumer's (one pair per tensor and destination device); a control edge
 * that crosses devices becomes a small Const sent the same way. An edge that
 * crosses devices inside a while loop's frame gets the frame's control loop
 * on the receiving device (see subgraph.h and add_control_loop below).
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "graph/subgraph.h"

/* Key bytes for an endpoint (node, index) in hash maps. */
typedef struct ep_key {
  int32_t node;
  int32_t index;
} ep_key;

/* Key for a cross-device transfer: producer endpoint (index -1 for control) and destination. */
typedef struct xfer_key {
  int32_t node;
  int32_t index;
  int32_t dst;
} xfer_key;

/* Appends a zeroed snode to p; returns its index or -1 on OOM. */
static int part_add(tfc_partition *p) {
  if (p->n == p->cap) {
    int cap = p->cap ? p->cap * 2 : 16;
    tfc_snode *nn = tfc_realloc(p->nodes, sizeof(tfc_snode) * (size_t)cap);
    if (!nn) return -1;
    p->nodes = nn;
    p->cap = cap;
  }
  memset(&p->nodes[p->n], 0, sizeof(tfc_snode));
  return p->n++;
}

/* Frees what one snode owns. */
static void snode_free(tfc_snode *s) {
  tfc_free(s->inputs);
  tfc_free(s->control);
  tfc_free(s->own_name);
  tfc_attrs_destroy(&s->own_attrs);
}

/* Frees a subgraph (see subgraph.h). */
void tfc_subgraph_free(tfc_subgraph *sg) {
  for (int p = 0; p < sg->n_parts; p++) {
    for (int i = 0; i < sg->parts[p].n; i++) snode_free(&sg->parts[p].nodes[i]);
    tfc_free(sg->parts[p].nodes);
  }
  tfc_free(sg->parts);
  tfc_free(sg->fetches);
  tfc_free(sg->placement);
  memset(sg, 0, sizeof *sg);
}

/* Sets a string attr on a synthesized node. */
static bool set_str(tfc_attrs *a, const char *name, const char *s, tfc_status *st) {
  tfc_attr_value v = tfc_attr_string(s, strlen(s));
  if (v.kind == TFC_ATTR_NONE)
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory building _Send/_Recv");
  return tfc_attrs_set(a, name, &v, st);
}

/* Sets a scalar attr on a synthesized node. */
static bool set_val(tfc_attrs *a, const char *name, tfc_attr_value v, tfc_status *st) {
  return tfc_attrs_set(a, name, &v, st);
}

/* Fills the common _Send/_Recv attrs. */
static bool sendrecv_attrs(tfc_attrs *a, const char *tensor_name, const tfc_device_set *ds, int src_dev,
                           int dst_dev, tfc_status *st) {
  return set_str(a, "tensor_name", tensor_name, st) && set_str(a, "send_device", ds->names[src_dev], st) &&
         set_str(a, "recv_device", ds->names[dst_dev], st) &&
         set_val(a, "send_device_incarnation",
                 tfc_attr_int(ds->incarnations ? ds->incarnations[src_dev] : ds->incarnation), st) &&
         set_val(a, "client_terminated", tfc_attr_bool(false), st);
}

/* A while loop frame of the pruned graph (index 0: the root frame). */
typedef struct lframe {
  const char *name;     /* the Enter nodes' frame_name (borrowed) */
  int parent;           /* frame index, -1 for the root */
  int cond;             /* graph node id of the frame's LoopCond, -1 when none is needed */
  int64_t par_iters;    /* parallel_iterations of the Enter that started it */
} lframe;

/* Key of a control loop: frame index and partition. */
typedef struct cloop_key {
  int32_t frame;
  int32_t part;
} cloop_key;

typedef struct builder {
  tfc_graph *g;
  const tfc_device_set *ds;
  tfc_subgraph *sg;
  int *part_of_dev;     /* device -> partition index or -1 */
  int *local;           /* graph node id -> snode index in its partition */
  tfc_hashmap xfers;    /* xfer_key -> (recv snode index + 1) */
  int n_xfer;
  bool may_be_dead;     /* the graph holds a Switch: received tensors may be dead */
  /* while loop frames, only when the graph holds loops and several devices */
  int *oframe;          /* graph node id -> frame its outputs are in (NULL: no loops) */
  lframe *frames;
  int n_frames;
  tfc_hashmap cloops;   /* cloop_key -> (control Merge snode index + 1) */
  tfc_status *st;
} builder;

/* Returns the partition index for device d, creating it. -1 on OOM. */
static int part_for(builder *b, int d) {
  if (b->part_of_dev[d] >= 0) return b->part_of_dev[d];
  tfc_partition *np = tfc_realloc(b->sg->parts, sizeof(tfc_partition) * (size_t)(b->sg->n_parts + 1));
  if (!np) return -1;
  b->sg->parts = np;
  memset(&np[b->sg->n_parts], 0, sizeof(tfc_partition));
  np[b->sg->n_parts].device = d;
  b->part_of_dev[d] = b->sg->n_parts;
  return b->sg->n_parts++;
}

/* Makes a synthesized node named "<base>/_<k>" of op `op` in partition p. Returns its index or -1. */
static int synth(builder *b, int p, const char *op, const char *base) {
  tfc_partition *part = &b->sg->parts[p];
  int k = part_add(part);
  if (k < 0) return -1;
  tfc_snode *s = &part->nodes[k];
  char name[512];
  snprintf(name, sizeof name, "%s/_%d", base, b->n_xfer++);
  s->own_name = tfc_strdup(name);
  s->def = tfc_op_lookup(op);
  if (!s->own_name || !s->def) return -1;
  s->name = s->own_name;
  s->attrs = &s->own_attrs;
  s->in_types = s->own_types;
  s->out_types = s->own_types + 1;
  return k;
}

static int control_loop(builder *b, int f, int p);

/* Returns the _Recv snode index in partition dst_p carrying endpoint (node,index)
 * from partition src_p; index -1 means a control edge (then the index of an
 * Identity of the received value, TF's construction). Creates the pair once.
 * Inside a while loop frame the _Recv runs after the frame's control loop's
 * Merge on the receiving device, once per iteration. */
static int get_recv(builder *b, int node, int index, int src_p, int dst_p) {
  xfer_key key = {node, index, dst_p};
  bool found = false;
  void *v = tfc_hashmap_get(&b->xfers, (const char *)&key, sizeof key, &found);
  if (found) return (int)(intptr_t)v - 1;
  int frame = b->oframe ? b->oframe[node] : 0;
  int cmerge = -1;
  if (frame > 0) {
    cmerge = control_loop(b, frame, dst_p);
    if (cmerge < 0) return -1;
    /* building the control loop may have received this very tensor (the LoopCond) */
    v = tfc_hashmap_get(&b->xfers, (const char *)&key, sizeof key, &found);
    if (found) return (int)(intptr_t)v - 1;
  }
  tfc_node *gn = tfc_graph_node(b->g, node);
  int src_dev = b->sg->parts[src_p].device, dst_dev = b->sg->parts[dst_p].device;
  char tname[512];
  tfc_dtype dt = TFC_DTYPE_INT32;
  int src_local = b->local[node];
  int send_input_node = src_local, send_input_index = index;
  if (index >= 0) {
    snprintf(tname, sizeof tname, "edge_%d_%s:%d", b->n_xfer, gn->name, index);
    dt = tfc_dtype_base(gn->out_types[index]);
  } else {
    /* control edge: a scalar Const in the source partition, run after the node */
    snprintf(tname, sizeof tname, "edge_%d_%s/_control", b->n_xfer, gn->name);
    int c = synth(b, src_p, "Const", gn->name);
    if (c < 0) goto oom;
    tfc_snode *cs = &b->sg->parts[src_p].nodes[c];
    int32_t zero = 0;
    tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_INT32, &zero, b->st);
    if (!t) return -1;
    tfc_attr_value tv = {.kind = TFC_ATTR_TENSOR, .v.tensor = t};
    if (!tfc_attrs_set(&cs->own_attrs, "value", &tv, b->st) ||
        !set_val(&cs->own_attrs, "dtype", tfc_attr_type(TFC_DTYPE_INT32), b->st))
      return -1;
    cs->own_types[1] = TFC_DTYPE_INT32;
    cs->n_outputs = 1;
    cs->control = tfc_malloc(sizeof(int));
    if (!cs->control) goto oom;
    cs->control[0] = src_local;
    cs->n_control = 1;
    send_input_node = c;
    send_input_index = 0;
  }
  int s = synth(b, src_p, "_Send", gn->name);
  if (s < 0) goto oom;
  tfc_snode *sn = &b->sg->parts[src_p].nodes[s];
  sn->inputs = tfc_malloc(sizeof(tfc_sinput));
  if (!sn->inputs) goto oom;
  sn->inputs[0].src = send_input_node;
  sn->inputs[0].index = send_input_index;
  sn->n_inputs = 1;
  sn->own_types[0] = dt;
  if (!set_val(&sn->own_attrs, "T", tfc_attr_type(dt), b->st) ||
      !sendrecv_attrs(&sn->own_attrs, tname, b->ds, src_dev, dst_dev, b->st) ||
      (b->may_be_dead && !set_val(&sn->own_attrs, TFC_RECV_MAY_BE_DEAD_ATTR, tfc_attr_bool(true), b->st)))
    return -1;
  int r = synth(b, dst_p, "_Recv", gn->name);
  if (r < 0) goto oom;
  tfc_snode *rn = &b->sg->parts[dst_p].nodes[r];
  rn->own_types[1] = dt;
  rn->n_outputs = 1;
  if (!set_val(&rn->own_attrs, "tensor_type", tfc_attr_type(dt), b->st) ||
      !sendrecv_attrs(&rn->own_attrs, tname, b->ds, src_dev, dst_dev, b->st) ||
      (b->may_be_dead && !set_val(&rn->own_attrs, TFC_RECV_MAY_BE_DEAD_ATTR, tfc_attr_bool(true), b->st)))
    return -1;
  if (cmerge >= 0) {
    rn->control = tfc_malloc(sizeof(int));
    if (!rn->control) goto oom;
    rn->control[0] = cmerge;
    rn->n_control = 1;
  }
  if (index < 0) {
    /* a control edge leaves from an Identity of the received value, as in
     * TF: a dead tensor makes the Identity dead, and a dead node's control
     * edges carry the deadness (a _Recv's own would not) */
    int id = synth(b, dst_p, "Identity", gn->name);
    if (id < 0) goto oom;
    tfc_snode *in = &b->sg->parts[dst_p].nodes[id];
    in->inputs = tfc_malloc(sizeof(tfc_sinput));
    if (!in->inputs) goto oom;
    in->inputs[0] = (tfc_sinput){r, 0};
    in->n_inputs = 1;
    in->n_outputs = 1;
    in->own_types[0] = dt;
    in->own_types[1] = dt;
    if (!set_val(&in->own_attrs, "T", tfc_attr_type(dt), b->st)) return -1;
    r = id;
  }
  if (tfc_hashmap_put(&b->xfers, (const char *)&key, sizeof key, (void *)(intptr_t)(r + 1)) != 0) goto oom;
  return r;
oom:
  tfc_status_set(b->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory partitioning the graph");
  return -1;
}

static const tfc_dtype k_f1[1] = {TFC_DTYPE_FLOAT};
static const tfc_dtype k_ff[2] = {TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT};
static const tfc_dtype k_fb[2] = {TFC_DTYPE_FLOAT, TFC_DTYPE_BOOL};
static const tfc_dtype k_fi[2] = {TFC_DTYPE_FLOAT, TFC_DTYPE_INT32};

/* Makes a control-loop node of op `op` in partition p with n_in inputs (left
 * for the caller to fill) and static types; returns its index or -1 (status set). */
static int cloop_node(builder *b, int p, const char *op, const char *frame, int n_in, const tfc_dtype *in,
                      int n_out, const tfc_dtype *out) {
  char base[400];
  snprintf(base, sizeof base, "_cloop/%s", frame);
  int k = synth(b, p, op, base);
  tfc_snode *s = k < 0 ? NULL : &b->sg->parts[p].nodes[k];
  if (s && n_in > 0) s->inputs = tfc_calloc((size_t)n_in, sizeof(tfc_sinput));
  if (!s || (n_in > 0 && !s->inputs)) {
    tfc_status_set(b->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory partitioning the graph");
    return -1;
  }
  s->n_inputs = n_in;
  s->n_outputs = n_out;
  s->in_types = in;
  s->out_types = out;
  s->static_types = true;
  if (n_in > 0 && !set_val(&s->own_attrs, "T", tfc_attr_type(TFC_DTYPE_FLOAT), b->st)) return -1;
  return k;
}

/* Returns the control Merge of frame f's control loop in partition p,
 * building the loop the first time (and those of the enclosing frames: a
 * nested frame's control Enter runs after its parent's control Merge, the
 * outermost one's after an empty float Const). The loop is
 *   Enter(frame) -> Merge(Enter, NextIteration) -> Switch(Merge, LoopCond)
 *   -> NextIteration(Switch:1)
 * with the frame's LoopCond taken locally or received from its device.
 * -1 with the status set on error (INVALID_ARGUMENT when the frame has no
 * LoopCond to follow). */
static int control_loop(builder *b, int f, int p) {
  cloop_key key = {f, p};
  bool found = false;
  void *v = tfc_hashmap_get(&b->cloops, (const char *)&key, sizeof key, &found);
  if (found) return (int)(intptr_t)v - 1;
  const lframe *fr = &b->frames[f];
  if (fr->cond < 0) {
    tfc_status_set(b->st, TFC_CODE_INVALID_ARGUMENT, "A cross-device loop must have a pivot predicate: %s",
                   fr->name);
    return -1;
  }
  int src;
  if (fr->parent <= 0) {
    src = cloop_node(b, p, "Const", fr->name, 0, NULL, 1, k_f1);
    if (src < 0) return -1;
    int64_t zero = 0;
    tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_FLOAT, 1, &zero, b->st);
    if (!t) return -1;
    tfc_attr_value tv = {.kind = TFC_ATTR_TENSOR, .v.tensor = t};
    tfc_snode *cs = &b->sg->parts[p].nodes[src];
    if (!tfc_attrs_set(&cs->own_attrs, "value", &tv, b->st) ||
        !set_val(&cs->own_attrs, "dtype", tfc_attr_type(TFC_DTYPE_FLOAT), b->st))
      return -1;
  } else {
    src = control_loop(b, fr->parent, p);
    if (src < 0) return -1;
  }
  int enter = cloop_node(b, p, "Enter", fr->name, 1, k_f1, 1, k_f1);
  if (enter < 0) return -1;
  tfc_snode *en = &b->sg->parts[p].nodes[enter];
  en->inputs[0] = (tfc_sinput){src, 0};
  if (!set_str(&en->own_attrs, "frame_name", fr->name, b->st) ||
      !set_val(&en->own_attrs, "is_constant", tfc_attr_bool(false), b->st) ||
      !set_val(&en->own_attrs, "parallel_iterations", tfc_attr_int(fr->par_iters), b->st))
    return -1;
  int merge = cloop_node(b, p, "Merge", fr->name, 2, k_ff, 2, k_fi);
  if (merge < 0) return -1;
  if (!set_val(&b->sg->parts[p].nodes[merge].own_attrs, "N", tfc_attr_int(2), b->st)) return -1;
  if (tfc_hashmap_put(&b->cloops, (const char *)&key, sizeof key, (void *)(intptr_t)(merge + 1)) != 0) {
    tfc_status_set(b->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory partitioning the graph");
    return -1;
  }
  tfc_sinput pred = {b->local[fr->cond], 0};
  int q = b->part_of_dev[b->sg->placement[fr->cond]];
  if (q != p) {
    pred.src = get_recv(b, fr->cond, 0, q, p);
    if (pred.src < 0) return -1;
  }
  int sw = cloop_node(b, p, "Switch", fr->name, 2, k_fb, 2, k_ff);
  if (sw < 0) return -1;
  b->sg->parts[p].nodes[sw].inputs[0] = (tfc_sinput){merge, 0};
  b->sg->parts[p].nodes[sw].inputs[1] = pred;
  int next = cloop_node(b, p, "NextIteration", fr->name, 1, k_f1, 1, k_f1);
  if (next < 0) return -1;
  b->sg->parts[p].nodes[next].inputs[0] = (tfc_sinput){sw, 1};
  tfc_snode *mn = &b->sg->parts[p].nodes[merge];
  mn->inputs[0] = (tfc_sinput){enter, 0};
  mn->inputs[1] = (tfc_sinput){next, 0};
  return merge;
}

/* Finds the frame called name or adds it under parent; -1 on OOM. */
static int frame_index(builder *b, const char *name, int parent, int64_t par_iters) {
  for (int f = 1; f < b->n_frames; f++)
    if (strcmp(b->frames[f].name, name) == 0) return f;
  lframe *nf = tfc_realloc(b->frames, sizeof *nf * (size_t)(b->n_frames + 1));
  if (!nf) return -1;
  b->frames = nf;
  nf[b->n_frames] = (lframe){name, parent, -1, par_iters};
  return b->n_frames++;
}

/* The frame of node i's inputs: that of any needed input whose frame is
 * known (0 when it has no needed input; -1 when none is known yet). */
static int input_frame(builder *b, const bool *needed, const tfc_node *node) {
  bool any = false;
  for (int k = 0; k < node->n_inputs + node->n_control; k++) {
    int src = k < node->n_inputs ? node->inputs[k].node : node->control_inputs[k - node->n_inputs];
    if (!needed[src]) continue;
    any = true;
    if (b->oframe[src] >= 0) return b->oframe[src];
  }
  return any ? -1 : 0;
}

/* Finds the while loop frame of every needed node when the graph holds loops
 * (b->oframe stays NULL otherwise), as the executor does: a node is in the
 * frame of its inputs' outputs; an Enter's outputs are in the frame it names,
 * an Exit's in the parent of its own. Node ids are not always topological (a
 * cond rewires an op's input to a Switch made after it), so passes repeat
 * until nothing changes. Records each frame's LoopCond. */
static bool find_frames(builder *b, const bool *needed) {
  tfc_graph *g = b->g;
  int n = g->n_nodes;
  bool any = false;
  for (int i = 0; i < n && !any; i++) {
    const char *op = tfc_graph_node(g, i)->def->name;
    any = needed[i] && (!strcmp(op, "Enter") || !strcmp(op, "RefEnter"));
  }
  if (!any) return true;
  b->oframe = tfc_malloc(sizeof(int) * (size_t)n);
  b->frames = tfc_malloc(sizeof(lframe));
  if (!b->oframe || !b->frames)
    return tfc_status_set(b->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory partitioning the graph");
  for (int i = 0; i < n; i++) b->oframe[i] = -1;
  b->frames[0] = (lframe){"", -1, -1, 10};
  b->n_frames = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < n; i++) {
      if (!needed[i] || b->oframe[i] >= 0) continue;
      tfc_node *node = tfc_graph_node(g, i);
      int f = input_frame(b, needed, node);
      if (f < 0) continue;
      const char *op = node->def->name;
      if (!strcmp(op, "Enter") || !strcmp(op, "RefEnter")) {
        const tfc_attr_value *a = tfc_attrs_find(&node->attrs, "frame_name");
        const tfc_attr_value *pi = tfc_attrs_find(&node->attrs, "parallel_iterations");
        if (a && a->kind == TFC_ATTR_S && a->v.s.data && a->v.s.len > 0) {
          f = frame_index(b, a->v.s.data, f, pi && pi->kind == TFC_ATTR_I && pi->v.i > 0 ? pi->v.i : 10);
          if (f < 0)
            return tfc_status_set(b->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory partitioning the graph");
        }
      } else if (!strcmp(op, "Exit") || !strcmp(op, "RefExit")) {
        f = b->frames[f].parent > 0 ? b->frames[f].parent : 0;
      } else if (!strcmp(op, "LoopCond") && f > 0) {
        b->frames[f].cond = i;
      }
      b->oframe[i] = f;
      changed = true;
    }
  }
  for (int i = 0; i < n; i++)
    if (b->oframe[i] < 0) b->oframe[i] = 0;
  return true;
}

/* True when a control edge from node c is satisfied by a feed, as in TF: c is
 * a Placeholder whose output is fed, so the placeholder itself does not run
 * (its control edges leave from the fed value, which is there from the start). */
static bool fed_placeholder(tfc_graph *g, tfc_hashmap *fed, int c) {
  const char *op = tfc_graph_node(g, c)->def->name;
  if (strcmp(op, "Placeholder") != 0 && strcmp(op, "PlaceholderV2") != 0) return false;
  ep_key key = {c, 0};
  bool f = false;
  tfc_hashmap_get(fed, (const char *)&key, sizeof key, &f);
  return f;
}

/* Builds the subgraph (see subgraph.h). */
bool tfc_subgraph_build(tfc_graph *g, int n_feeds, const tfc_endpoint *feeds, int n_fetches,
                        const tfc_endpoint *fetches, int n_targets, const int *targets,
                        const tfc_device_set *ds, tfc_subgraph *out, tfc_status *st) {
  memset(out, 0, sizeof *out);
  int n = g->n_nodes;
  builder b = {.g = g, .ds = ds, .sg = out, .st = st};
  tfc_hashmap fed;
  tfc_hashmap_init(&fed);
  tfc_hashmap_init(&b.xfers);
  bool *needed = tfc_calloc((size_t)(n ? n : 1), sizeof(bool));
  int *stack = tfc_malloc(sizeof(int) * (size_t)(n ? n : 1));
  out->placement = tfc_malloc(sizeof(int) * (size_t)(n ? n : 1));
  out->fetches = tfc_malloc(sizeof(tfc_fetch_loc) * (size_t)(n_fetches ? n_fetches : 1));
  b.local = tfc_malloc(sizeof(int) * (size_t)(n ? n : 1));
  b.part_of_dev = tfc_malloc(sizeof(int) * (size_t)(ds->n ? ds->n : 1));
  out->n_graph_nodes = n;
  out->n_fetches = n_fetches;
  out->n_feeds = n_feeds;
  bool ok = needed && stack && out->placement && out->fetches && b.local && b.part_of_dev;
  if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory pruning the graph");
  for (int i = 0; ok && i < ds->n; i++) b.part_of_dev[i] = -1;
  /* feeds */
  for (int i = 0; ok && i < n_feeds; i++) {
    ep_key k = {feeds[i].node, feeds[i].index};
    if (tfc_hashmap_put(&fed, (const char *)&k, sizeof k, (void *)(intptr_t)(i + 1)) != 0) {
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory pruning the graph");
    }
  }
  /* prune */
  int sp = 0;
  for (int i = 0; ok && i < n_fetches; i++) {
    ep_key k = {fetches[i].node, fetches[i].index};
    bool f = false;
    tfc_hashmap_get(&fed, (const char *)&k, sizeof k, &f);
    if (!f && !needed[fetches[i].node]) {
      needed[fetches[i].node] = true;
      stack[sp++] = fetches[i].node;
    }
  }
  for (int i = 0; ok && i < n_targets; i++) {
    if (!needed[targets[i]]) {
      needed[targets[i]] = true;
      stack[sp++] = targets[i];
    }
  }
  while (ok && sp > 0) {
    tfc_node *node = tfc_graph_node(g, stack[--sp]);
    for (int k = 0; k < node->n_inputs; k++) {
      ep_key key = {node->inputs[k].node, node->inputs[k].index};
      bool f = false;
      tfc_hashmap_get(&fed, (const char *)&key, sizeof key, &f);
      if (f && !tfc_dtype_is_ref(node->in_types[k])) continue;
      if (!needed[key.node]) {
        needed[key.node] = true;
        stack[sp++] = key.node;
      }
    }
    for (int k = 0; k < node->n_control; k++) {
      int c = node->control_inputs[k];
      if (fed_placeholder(g, &fed, c)) continue;
      if (!needed[c]) {
        needed[c] = true;
        stack[sp++] = c;
      }
    }
  }
  if (ok) ok = tfc_place_nodes(g, needed, ds, out->placement, st);
  tfc_hashmap_init(&b.cloops);
  if (ok && ds->n > 1) ok = find_frames(&b, needed);
  for (int i = 0; ok && i < n && !b.may_be_dead; i++) {
    if (!needed[i]) continue;
    const char *op = tfc_graph_node(g, i)->def->name;
    b.may_be_dead = !strcmp(op, "Switch") || !strcmp(op, "RefSwitch") || !strcmp(op, "_SwitchN");
  }
  /* create snodes in id order (ids are topological: inputs precede consumers) */
  for (int i = 0; ok && i < n; i++) {
    if (!needed[i]) continue;
    int p = part_for(&b, out->placement[i]);
    int k = p < 0 ? -1 : part_add(&out->parts[p]);
    if (k < 0) {
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory partitioning the graph");
      break;
    }
    tfc_node *node = tfc_graph_node(g, i);
    tfc_snode *s = &out->parts[p].nodes[k];
    s->gnode = node;
    s->name = node->name;
    s->def = node->def;
    s->attrs = &node->attrs;
    s->in_types = node->in_types;
    s->out_types = node->out_types;
    s->n_outputs = node->n_outputs;
    s->n_inputs = node->n_inputs;
    b.local[i] = k;
  }
  /* wire inputs (after all snodes exist, so indices are final per partition) */
  for (int i = 0; ok && i < n; i++) {
    if (!needed[i]) continue;
    tfc_node *node = tfc_graph_node(g, i);
    int p = b.part_of_dev[out->placement[i]];
    tfc_sinput *ins = tfc_malloc(sizeof(tfc_sinput) * (size_t)(node->n_inputs ? node->n_inputs : 1));
    int *ctl = tfc_malloc(sizeof(int) * (size_t)(node->n_control ? node->n_control : 1));
    if (!ins || !ctl) {
      tfc_free(ins);
      tfc_free(ctl);
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory partitioning the graph");
      break;
    }
    for (int k = 0; ok && k < node->n_inputs; k++) {
      ep_key key = {node->inputs[k].node, node->inputs[k].index};
      bool f = false;
      void *fv = tfc_hashmap_get(&fed, (const char *)&key, sizeof key, &f);
      if (f && !tfc_dtype_is_ref(node->in_types[k])) {
        ins[k].src = -1;
        ins[k].index = (int)(intptr_t)fv - 1;
        continue;
      }
      int q = b.part_of_dev[out->placement[key.node]];
      if (q == p) {
        ins[k].src = b.local[key.node];
        ins[k].index = key.index;
      } else {
        int r = get_recv(&b, key.node, key.index, q, p);
        if (r < 0) ok = false;
        ins[k].src = r;
        ins[k].index = 0;
      }
    }
    int nc = 0;
    for (int k = 0; ok && k < node->n_control; k++) {
      int c = node->control_inputs[k];
      if (fed_placeholder(g, &fed, c)) continue;
      int q = b.part_of_dev[out->placement[c]];
      if (q == p) {
        ctl[nc++] = b.local[c];
      } else {
        int r = get_recv(&b, c, -1, q, p);
        if (r < 0) ok = false;
        ctl[nc++] = r;
      }
    }
    /* the partition array may have moved while adding Send/Recv nodes */
    tfc_snode *s = &out->parts[p].nodes[b.local[i]];
    s->inputs = ins;
    s->control = ctl;
    s->n_control = nc;
  }
  for (int i = 0; ok && i < n_fetches; i++) {
    ep_key k = {fetches[i].node, fetches[i].index};
    bool f = false;
    void *fv = tfc_hashmap_get(&fed, (const char *)&k, sizeof k, &f);
    tfc_fetch_loc *loc = &out->fetches[i];
    if (f) {
      loc->feed = (int)(intptr_t)fv - 1;
      loc->part = loc->snode = loc->index = -1;
    } else {
      loc->feed = -1;
      loc->part = b.part_of_dev[out->placement[k.node]];
      loc->snode = b.local[k.node];
      loc->index = k.index;
    }
  }
  /* synthesized nodes point into themselves; partitions may have moved since */
  for (int p = 0; ok && p < out->n_parts; p++)
    for (int i = 0; i < out->parts[p].n; i++) {
      tfc_snode *sn = &out->parts[p].nodes[i];
      if (sn->gnode) continue;
      sn->attrs = &sn->own_attrs;
      if (sn->static_types) continue;
      sn->in_types = sn->own_types;
      sn->out_types = sn->own_types + 1;
    }
  tfc_hashmap_destroy(&fed);
  tfc_hashmap_destroy(&b.xfers);
  tfc_hashmap_destroy(&b.cloops);
  tfc_free(b.oframe);
  tfc_free(b.frames);
  tfc_free(needed);
  tfc_free(stack);
  tfc_free(b.local);
  tfc_free(b.part_of_dev);
  if (!ok) tfc_subgraph_free(out);
  return ok;
}
