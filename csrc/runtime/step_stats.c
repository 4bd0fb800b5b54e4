/*
 * step_stats.c — collects and encodes RunMetadata.step_stats (see step_stats.h).
 */
#include "runtime/step_stats.h"

#include <pthread.h>
#include <string.h>

#include "base/alloc.h"
#include "core/dtype.h"
#include "io/coding.h"

struct tfc_step_trace {
  tfc_graph *g;
  const tfc_subgraph *sg;
  int n_devices;
  const char *const *dev_names;
  pthread_mutex_t mu;
  tfc_strbuf *per_part;   /* encoded NodeExecStats entries (DeviceStepStats field 2) per partition */
  /* cost graph (tfc_step_trace_want_cost_graph): per partition, per node */
  int64_t **cost_ns;      /* summed compute time, -1 when the node did not run */
  tfc_strbuf **cost_outs; /* encoded OutputInfo entries (Node field 5) of its last run */
};

/* Appends a field key (field number and wire type). */
static bool put_key(tfc_strbuf *b, int field, int wire) {
  uint8_t tmp[10];
  size_t n = tfc_put_varint64(tmp, ((uint64_t)field << 3) | (uint64_t)wire);
  return tfc_strbuf_append(b, (const char *)tmp, n);
}

/* A varint field (skipped when v is 0, as proto3 does). */
bool tfc_pb_put_varint(tfc_strbuf *b, int field, uint64_t v) {
  if (v == 0) return !b->oom;
  uint8_t tmp[10];
  size_t n = tfc_put_varint64(tmp, v);
  return put_key(b, field, 0) && tfc_strbuf_append(b, (const char *)tmp, n);
}

/* A length-delimited field (bytes, string or sub-message). */
bool tfc_pb_put_bytes(tfc_strbuf *b, int field, const void *data, size_t len) {
  uint8_t tmp[10];
  size_t n = tfc_put_varint64(tmp, (uint64_t)len);
  return put_key(b, field, 2) && tfc_strbuf_append(b, (const char *)tmp, n) &&
         (len == 0 || tfc_strbuf_append(b, data, len));
}

/* Creates a collector (see step_stats.h). */
tfc_step_trace *tfc_step_trace_new(tfc_graph *g, const tfc_subgraph *sg, int n_devices,
                                   const char *const *dev_names) {
  tfc_step_trace *t = tfc_calloc(1, sizeof *t);
  if (!t) return NULL;
  t->per_part = tfc_calloc((size_t)(sg->n_parts > 0 ? sg->n_parts : 1), sizeof(tfc_strbuf));
  if (!t->per_part) {
    tfc_free(t);
    return NULL;
  }
  for (int p = 0; p < sg->n_parts; p++) tfc_strbuf_init(&t->per_part[p]);
  t->g = g;
  t->sg = sg;
  t->n_devices = n_devices;
  t->dev_names = dev_names;
  pthread_mutex_init(&t->mu, NULL);
  return t;
}

/* The partition holding snode sn (by address), or -1. */
static int part_of(const tfc_subgraph *sg, const tfc_snode *sn) {
  for (int p = 0; p < sg->n_parts; p++) {
    const tfc_partition *pt = &sg->parts[p];
    if (pt->n > 0 && sn >= pt->nodes && sn < pt->nodes + pt->n) return p;
  }
  return -1;
}

/* Appends "src" or "src:k" of a graph endpoint to b. */
static void put_endpoint(tfc_strbuf *b, const char *name, int index) {
  if (index == 0)
    tfc_strbuf_puts(b, name);
  else
    tfc_strbuf_printf(b, "%s:%d", name, index);
}

/* TF's timeline label: "name = Op(in0, in1, ^ctrl)". Inputs come from the
 * original node when there is one (the names the user gave), else from the
 * partition (synthesized _Send/_Recv). */
static void timeline_label(tfc_step_trace *t, int part, const tfc_snode *sn, tfc_strbuf *b) {
  tfc_strbuf_printf(b, "%s = %s(", sn->name, sn->def->name);
  int k = 0;
  if (sn->gnode) {
    const tfc_node *n = sn->gnode;
    for (int i = 0; i < n->n_inputs; i++, k++) {
      if (k) tfc_strbuf_puts(b, ", ");
      put_endpoint(b, tfc_graph_node(t->g, n->inputs[i].node)->name, n->inputs[i].index);
    }
    for (int i = 0; i < n->n_control; i++, k++) {
      tfc_strbuf_puts(b, k ? ", ^" : "^");
      tfc_strbuf_puts(b, tfc_graph_node(t->g, n->control_inputs[i])->name);
    }
  } else if (part >= 0) {
    const tfc_partition *pt = &t->sg->parts[part];
    for (int i = 0; i < sn->n_inputs; i++, k++) {
      if (k) tfc_strbuf_puts(b, ", ");
      if (sn->inputs[i].src >= 0)
        put_endpoint(b, pt->nodes[sn->inputs[i].src].name, sn->inputs[i].index);
      else
        tfc_strbuf_printf(b, "_feed_%d", sn->inputs[i].index);
    }
  }
  tfc_strbuf_puts(b, ")");
}

/* NodeOutput{slot, tensor_description{dtype, shape, allocation_description}}. */
static void put_output(tfc_strbuf *b, int slot, const tfc_tensor *t) {
  tfc_strbuf shape, alloc, desc, out;
  tfc_strbuf_init(&shape);
  tfc_strbuf_init(&alloc);
  tfc_strbuf_init(&desc);
  tfc_strbuf_init(&out);
  for (int d = 0; d < t->rank; d++) {
    tfc_strbuf dim;
    tfc_strbuf_init(&dim);
    tfc_pb_put_varint(&dim, 1, (uint64_t)t->dims[d]);
    tfc_pb_put_bytes(&shape, 2, dim.data, dim.len);
    if (dim.oom) shape.oom = true;
    tfc_strbuf_free(&dim);
  }
  uint64_t bytes = t->dtype == TFC_DTYPE_STRING ? (uint64_t)t->nelems * sizeof(tfc_string)
                                                : (uint64_t)t->nelems * tfc_dtype_size(t->dtype);
  uint64_t allocated = t->buf ? (uint64_t)t->buf->size : 0;
  tfc_pb_put_varint(&alloc, 1, bytes);
  tfc_pb_put_varint(&alloc, 2, allocated > bytes ? allocated : bytes);
  tfc_pb_put_bytes(&alloc, 3, "cpu", 3);
  tfc_pb_put_varint(&alloc, 6, (uint64_t)(uintptr_t)t->data);
  tfc_pb_put_varint(&desc, 1, (uint64_t)t->dtype);
  tfc_pb_put_bytes(&desc, 2, shape.data, shape.len);
  tfc_pb_put_bytes(&desc, 4, alloc.data, alloc.len);
  tfc_pb_put_varint(&out, 1, (uint64_t)slot);
  tfc_pb_put_bytes(&out, 3, desc.data, desc.len);
  tfc_pb_put_bytes(b, 7, out.data, out.len);
  if (shape.oom || alloc.oom || desc.oom || out.oom) b->oom = true;
  tfc_strbuf_free(&shape);
  tfc_strbuf_free(&alloc);
  tfc_strbuf_free(&desc);
  tfc_strbuf_free(&out);
}

/* TensorShapeProto of t into b (field `field`). */
static void put_shape(tfc_strbuf *b, int field, const tfc_tensor *t) {
  tfc_strbuf shape;
  tfc_strbuf_init(&shape);
  for (int d = 0; d < t->rank; d++) {
    tfc_strbuf dim;
    tfc_strbuf_init(&dim);
    tfc_pb_put_varint(&dim, 1, (uint64_t)t->dims[d]);
    tfc_pb_put_bytes(&shape, 2, dim.data, dim.len);
    if (dim.oom) shape.oom = true;
    tfc_strbuf_free(&dim);
  }
  tfc_pb_put_bytes(b, field, shape.data, shape.len);
  if (shape.oom) b->oom = true;
  tfc_strbuf_free(&shape);
}

/* Keeps node sn's compute time and outputs for the cost graph (lock held). */
static void record_cost_locked(tfc_step_trace *t, int part, const tfc_snode *sn, int64_t ns, int n_outputs,
                               tfc_tensor *const *outputs) {
  int i = (int)(sn - t->sg->parts[part].nodes);
  int64_t *c = &t->cost_ns[part][i];
  *c = (*c < 0 ? 0 : *c) + ns;
  tfc_strbuf *b = &t->cost_outs[part][i];
  b->len = 0;
  for (int j = 0; j < n_outputs; j++) {
    tfc_strbuf info;
    tfc_strbuf_init(&info);
    const tfc_tensor *o = outputs ? outputs[j] : NULL;
    if (o) {
      uint64_t bytes = o->dtype == TFC_DTYPE_STRING ? (uint64_t)o->nelems * sizeof(tfc_string)
                                                    : (uint64_t)o->nelems * tfc_dtype_size(o->dtype);
      tfc_pb_put_varint(&info, 1, bytes);
    }
    tfc_pb_put_varint(&info, 2, (uint64_t)(int64_t)-1); /* alias_input_port: none */
    if (o) put_shape(&info, 3, o);
    tfc_pb_put_varint(&info, 4, (uint64_t)(o ? o->dtype : tfc_dtype_base(sn->out_types[j])));
    tfc_pb_put_bytes(b, 5, info.data, info.len);
    if (info.oom) b->oom = true;
    tfc_strbuf_free(&info);
  }
}

/* Records one executed node (see step_stats.h). */
void tfc_step_trace_record(void *ctx, const tfc_snode *sn, int64_t start_ns, int64_t end_ns,
                           int n_outputs, tfc_tensor *const *outputs) {
  tfc_step_trace *t = ctx;
  int part = part_of(t->sg, sn);
  if (part < 0) return;
  int64_t rel = end_ns > start_ns ? end_ns - start_ns : 0;
  if (t->cost_ns) {
    pthread_mutex_lock(&t->mu);
    record_cost_locked(t, part, sn, rel, n_outputs, outputs);
    pthread_mutex_unlock(&t->mu);
  }
  tfc_strbuf n, label;
  tfc_strbuf_init(&n);
  tfc_strbuf_init(&label);
  tfc_pb_put_bytes(&n, 1, sn->name, strlen(sn->name));
  tfc_pb_put_varint(&n, 2, (uint64_t)(start_ns / 1000));
  tfc_pb_put_varint(&n, 4, (uint64_t)(rel / 1000));
  tfc_pb_put_varint(&n, 5, (uint64_t)(rel / 1000));
  uint64_t total = 0;
  for (int j = 0; j < n_outputs; j++) {
    if (!outputs || !outputs[j]) continue;
    put_output(&n, j, outputs[j]);
    if (outputs[j]->buf) total += (uint64_t)outputs[j]->buf->size;
  }
  if (total) {
    /* AllocatorMemoryUsed of the outputs: the "cpu" allocator */
    tfc_strbuf mem;
    tfc_strbuf_init(&mem);
    tfc_pb_put_bytes(&mem, 1, "cpu", 3);
    tfc_pb_put_varint(&mem, 2, total);
    tfc_pb_put_varint(&mem, 3, total);
    tfc_pb_put_bytes(&n, 6, mem.data, mem.len);
    if (mem.oom) n.oom = true;
    tfc_strbuf_free(&mem);
  }
  timeline_label(t, part, sn, &label);
  tfc_pb_put_bytes(&n, 8, label.data ? label.data : "", label.len);
  tfc_pb_put_varint(&n, 13, (uint64_t)start_ns);
  tfc_pb_put_varint(&n, 15, (uint64_t)rel);
  tfc_pb_put_varint(&n, 16, (uint64_t)rel);
  if (label.oom) n.oom = true;
  pthread_mutex_lock(&t->mu);
  if (n.oom)
    t->per_part[part].oom = true;
  else
    tfc_pb_put_bytes(&t->per_part[part], 2, n.data, n.len);
  pthread_mutex_unlock(&t->mu);
  tfc_strbuf_free(&n);
  tfc_strbuf_free(&label);
}

/* Encodes StepStats: one DeviceStepStats per device, in device order. */
bool tfc_step_trace_encode(tfc_step_trace *t, tfc_strbuf *out) {
  bool ok = true;
  pthread_mutex_lock(&t->mu);
  for (int d = 0; ok && d < t->n_devices; d++) {
    bool used = false;
    tfc_strbuf dev;
    tfc_strbuf_init(&dev);
    tfc_pb_put_bytes(&dev, 1, t->dev_names[d], strlen(t->dev_names[d]));
    for (int p = 0; p < t->sg->n_parts; p++) {
      if (t->sg->parts[p].device != d) continue;
      used = true;
      if (t->per_part[p].oom) dev.oom = true;
      if (t->per_part[p].len) tfc_strbuf_append(&dev, t->per_part[p].data, t->per_part[p].len);
    }
    if (used) tfc_pb_put_bytes(out, 1, dev.data, dev.len);
    ok = !dev.oom && !out->oom;
    tfc_strbuf_free(&dev);
  }
  pthread_mutex_unlock(&t->mu);
  return ok;
}

/* Allocates the cost graph's per-node records (see step_stats.h). */
bool tfc_step_trace_want_cost_graph(tfc_step_trace *t) {
  int np = t->sg->n_parts;
  t->cost_ns = tfc_calloc((size_t)(np > 0 ? np : 1), sizeof *t->cost_ns);
  t->cost_outs = tfc_calloc((size_t)(np > 0 ? np : 1), sizeof *t->cost_outs);
  if (!t->cost_ns || !t->cost_outs) return false;
  for (int p = 0; p < np; p++) {
    int n = t->sg->parts[p].n;
    t->cost_ns[p] = tfc_malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    t->cost_outs[p] = tfc_calloc((size_t)(n > 0 ? n : 1), sizeof(tfc_strbuf));
    if (!t->cost_ns[p] || !t->cost_outs[p]) return false;
    for (int i = 0; i < n; i++) {
      t->cost_ns[p][i] = -1;
      tfc_strbuf_init(&t->cost_outs[p][i]);
    }
  }
  return true;
}

/* Encodes the CostGraphDef (see step_stats.h). */
bool tfc_step_trace_encode_cost_graph(tfc_step_trace *t, tfc_strbuf *out) {
  if (!t->cost_ns) return true;
  bool ok = true;
  pthread_mutex_lock(&t->mu);
  int base = 0;
  for (int p = 0; ok && p < t->sg->n_parts; p++) {
    const tfc_partition *pt = &t->sg->parts[p];
    const char *dev = t->dev_names[pt->device];
    for (int i = 0; ok && i < pt->n; i++) {
      const tfc_snode *sn = &pt->nodes[i];
      tfc_strbuf n;
      tfc_strbuf_init(&n);
      tfc_pb_put_bytes(&n, 1, sn->name, strlen(sn->name));
      tfc_pb_put_bytes(&n, 2, dev, strlen(dev));
      tfc_pb_put_varint(&n, 3, (uint64_t)(base + i));
      for (int k = 0; k < sn->n_inputs; k++) {
        if (sn->inputs[k].src < 0) continue; /* a feed: no node in the plan */
        tfc_strbuf in;
        tfc_strbuf_init(&in);
        tfc_pb_put_varint(&in, 1, (uint64_t)(base + sn->inputs[k].src));
        tfc_pb_put_varint(&in, 2, (uint64_t)sn->inputs[k].index);
        tfc_pb_put_bytes(&n, 4, in.data, in.len);
        if (in.oom) n.oom = true;
        tfc_strbuf_free(&in);
      }
      const tfc_strbuf *outs = &t->cost_outs[p][i];
      if (outs->oom) n.oom = true;
      if (outs->len) tfc_strbuf_append(&n, outs->data, outs->len);
      for (int k = 0; k < sn->n_control; k++) tfc_pb_put_varint(&n, 8, (uint64_t)(base + sn->control[k]));
      int64_t ns = t->cost_ns[p][i];
      if (ns >= 0) tfc_pb_put_varint(&n, 9, (uint64_t)(ns / 1000 > 0 ? ns / 1000 : 1));
      ok = !n.oom && tfc_pb_put_bytes(out, 1, n.data, n.len);
      tfc_strbuf_free(&n);
    }
    base += pt->n;
  }
  pthread_mutex_unlock(&t->mu);
  return ok && !out->oom;
}

/* Frees a collector. */
void tfc_step_trace_free(tfc_step_trace *t) {
  if (!t) return;
  for (int p = 0; t->cost_outs && p < t->sg->n_parts; p++) {
    for (int i = 0; t->cost_outs[p] && i < t->sg->parts[p].n; i++) tfc_strbuf_free(&t->cost_outs[p][i]);
    tfc_free(t->cost_outs[p]);
  }
  for (int p = 0; t->cost_ns && p < t->sg->n_parts; p++) tfc_free(t->cost_ns[p]);
  tfc_free(t->cost_outs);
  tfc_free(t->cost_ns);
  for (int p = 0; p < t->sg->n_parts; p++) tfc_strbuf_free(&t->per_part[p]);
  tfc_free(t->per_part);
  pthread_mutex_destroy(&t->mu);
  tfc_free(t);
}
