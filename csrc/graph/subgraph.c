/*
 * subgraph.c — pruning to fetches/targets and partitioning by device.
 *
 * Pruning walks data and control inputs backwards from the fetches and
 * targets, stopping at fed tensors. Partitioning copies every needed node
 * into its device's partition and rewrites each data edge that crosses
 * devices into a _Send in the producer's partition and a _Recv in the
 * consumer's (one pair per tensor and destination device); a control edge
 * that crosses devices becomes a small Const sent the same way.
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

typedef struct builder {
  tfc_graph *g;
  const tfc_device_set *ds;
  tfc_subgraph *sg;
  int *part_of_dev;     /* device -> partition index or -1 */
  int *local;           /* graph node id -> snode index in its partition */
  tfc_hashmap xfers;    /* xfer_key -> (recv snode index + 1) */
  int n_xfer;
  bool may_be_dead;     /* the graph holds a Switch: received tensors may be dead */
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

/* Returns the _Recv snode index in partition dst_p carrying endpoint (node,index)
 * from partition src_p; index -1 means a control edge. Creates the pair once. */
static int get_recv(builder *b, int node, int index, int src_p, int dst_p) {
  xfer_key key = {node, index, dst_p};
  bool found = false;
  void *v = tfc_hashmap_get(&b->xfers, (const char *)&key, sizeof key, &found);
  if (found) return (int)(intptr_t)v - 1;
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
  if (tfc_hashmap_put(&b->xfers, (const char *)&key, sizeof key, (void *)(intptr_t)(r + 1)) != 0) goto oom;
  return r;
oom:
  tfc_status_set(b->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory partitioning the graph");
  return -1;
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

/* Loop depth of what node i outputs, given the depth d of the node itself. */
static int out_depth(const tfc_node *node, int d) {
  const char *op = node->def->name;
  if (!strcmp(op, "Enter") || !strcmp(op, "RefEnter")) return d + 1;
  if (!strcmp(op, "Exit") || !strcmp(op, "RefExit")) return d > 0 ? d - 1 : 0;
  return d;
}

/* Refuses a while loop whose frame holds nodes on more than one device (an
 * edge inside a loop body crossing devices): partitions do not carry
 * per-device copies of the loop's control structure, so such a loop is
 * UNIMPLEMENTED, naming the two nodes and devices, rather than a confusing
 * frame error from the executor. Nodes' loop depths come from one pass in
 * id order (inputs precede consumers; a Merge's back edge is skipped). */
static bool check_loop_devices(tfc_graph *g, const bool *needed, const int *placement, const tfc_device_set *ds,
                               tfc_status *st) {
  int n = g->n_nodes;
  int *depth = tfc_calloc((size_t)(n ? n : 1), sizeof(int));
  if (!depth) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory partitioning the graph");
  bool any_loop = false;
  for (int i = 0; i < n && !any_loop; i++) {
    const char *op = tfc_graph_node(g, i)->def->name;
    any_loop = needed[i] && (!strcmp(op, "Enter") || !strcmp(op, "RefEnter"));
  }
  bool ok = true;
  for (int i = 0; any_loop && ok && i < n; i++) {
    if (!needed[i]) continue;
    tfc_node *node = tfc_graph_node(g, i);
    int d = -1;
    for (int k = 0; k < node->n_inputs && d < 0; k++)
      if (node->inputs[k].node < i) d = out_depth(tfc_graph_node(g, node->inputs[k].node), depth[node->inputs[k].node]);
    for (int k = 0; k < node->n_control && d < 0; k++)
      if (node->control_inputs[k] < i) d = out_depth(tfc_graph_node(g, node->control_inputs[k]), depth[node->control_inputs[k]]);
    depth[i] = d < 0 ? 0 : d;
    for (int k = 0; ok && k < node->n_inputs + node->n_control; k++) {
      int src = k < node->n_inputs ? node->inputs[k].node : node->control_inputs[k - node->n_inputs];
      if (!needed[src] || placement[src] == placement[i] || src >= i) continue;
      if (out_depth(tfc_graph_node(g, src), depth[src]) == 0) continue;
      tfc_status_set(st, TFC_CODE_UNIMPLEMENTED,
                     "A while loop whose body spans devices is not supported: %s on %s takes an input "
                     "from %s on %s inside the loop",
                     node->name, ds->names[placement[i]], tfc_graph_node(g, src)->name, ds->names[placement[src]]);
      tfc_status_set_node(st, node->name);
      ok = false;
    }
  }
  tfc_free(depth);
  return ok;
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
  if (ok && ds->n > 1) ok = check_loop_devices(g, needed, out->placement, ds, st);
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
      sn->in_types = sn->own_types;
      sn->out_types = sn->own_types + 1;
    }
  tfc_hashmap_destroy(&fed);
  tfc_hashmap_destroy(&b.xfers);
  tfc_free(needed);
  tfc_free(stack);
  tfc_free(b.local);
  tfc_free(b.part_of_dev);
  if (!ok) tfc_subgraph_free(out);
  return ok;
}
