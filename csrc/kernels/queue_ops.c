/*
 * queue_ops.c — kernels of the queue ops: the four queue constructors (a
 * session resource per (container, shared_name), or per node), enqueue and
 * dequeue as async kernels over queue.c's requests, close, size, is_closed.
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "core/object.h"
#include "kernels/data_flow_internal.h"
#include "kernels/queue.h"

static atomic_llong next_resource_id;

/* "_<n>_<node>" (see data_flow_internal.h). */
char *tfc_unique_resource_name(const char *node_name) {
  long long id = atomic_fetch_add(&next_resource_id, 1);
  size_t len = strlen(node_name) + 32;
  char *s = tfc_malloc(len);
  if (s) snprintf(s, len, "_%lld_%s", id, node_name);
  return s;
}

typedef struct queue_op {
  tfc_queue_config cfg;
  char *container;
  char *name;
  tfc_dtype types[64];
  tfc_shape *shapes;
} queue_op;

/* Frees a constructor's parsed attrs. */
void tfc_queue_op_free(void *state) {
  queue_op *op = state;
  if (!op) return;
  tfc_free(op->container);
  tfc_free(op->name);
  tfc_free(op->shapes);
  tfc_free(op);
}

/* Int attr `name` or dflt. */
static int64_t attr_i(const tfc_attrs *a, const char *name, int64_t dflt) {
  const tfc_attr_value *v = tfc_attrs_find(a, name);
  return v && v->kind == TFC_ATTR_I ? v->v.i : dflt;
}

/* Parses a queue constructor's attrs once. */
bool tfc_queue_op_init(const tfc_kernel_init *ki, void **state) {
  queue_op *op = tfc_calloc(1, sizeof *op);
  if (!op) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  *state = op;
  const char *t = ki->op_type;
  op->cfg.kind = strcmp(t, "PaddingFIFOQueueV2") == 0     ? TFC_QUEUE_PADDING_FIFO
                 : strcmp(t, "RandomShuffleQueueV2") == 0 ? TFC_QUEUE_RANDOM_SHUFFLE
                 : strcmp(t, "PriorityQueueV2") == 0      ? TFC_QUEUE_PRIORITY
                                                          : TFC_QUEUE_FIFO;
  bool prio = op->cfg.kind == TFC_QUEUE_PRIORITY;
  const tfc_attr_value *types = tfc_attrs_find(ki->attrs, "component_types");
  const tfc_attr_value *shapes = tfc_attrs_find(ki->attrs, "shapes");
  int nt = types && types->kind == TFC_ATTR_LIST ? types->v.list.n : 0;
  int ns = shapes && shapes->kind == TFC_ATTR_LIST ? shapes->v.list.n : 0;
  if (nt + 1 > 64) return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "too many queue components (%d)", nt);
  int n = nt + (prio ? 1 : 0);
  if (prio) op->types[0] = TFC_DTYPE_INT64;
  for (int i = 0; i < nt; i++) op->types[i + (prio ? 1 : 0)] = types->v.list.v.type[i];
  if (prio && ns != nt)
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "PriorityQueue requires one shape per component type (%d types, %d shapes)", nt, ns);
  op->shapes = tfc_calloc((size_t)n + 1, sizeof(tfc_shape));
  op->container = tfc_attrs_dup_string(ki->attrs, "container");
  op->name = tfc_attrs_dup_string(ki->attrs, "shared_name");
  if (!op->shapes || !op->container || !op->name)
    return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (!op->name[0]) {
    tfc_free(op->name);
    op->name = tfc_unique_resource_name(ki->node_name);
    if (!op->name) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  int n_shapes = 0;
  if (ns > 0) {
    n_shapes = n;
    if (prio) op->shapes[0] = tfc_shape_scalar();
    for (int i = 0; i < ns; i++) op->shapes[i + (prio ? 1 : 0)] = shapes->v.list.v.shape[i];
  }
  op->cfg.name = op->name;
  op->cfg.n = n;
  op->cfg.types = op->types;
  op->cfg.n_shapes = n_shapes;
  op->cfg.shapes = op->shapes;
  op->cfg.capacity = attr_i(ki->attrs, "capacity", -1);
  op->cfg.min_after_dequeue = attr_i(ki->attrs, "min_after_dequeue", 0);
  op->cfg.seed = attr_i(ki->attrs, "seed", 0);
  op->cfg.seed2 = attr_i(ki->attrs, "seed2", 0);
  if (n_shapes && n_shapes != n)
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "Number of shapes (%d) must match the number of component types (%d)", ns, nt);
  if (!prio && nt < 1) return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT, "A queue needs component_types");
  return true;
}

/* Creates the queue for tfc_resource_object. */
static tfc_object *create_queue(void *arg, tfc_status *st) {
  tfc_queue *q = tfc_queue_new(arg, st);
  return q ? (tfc_object *)q : NULL;
}

/* Outputs the handle of this node's queue, creating it on first use. */
void tfc_queue_op_compute(tfc_kernel_ctx *ctx) {
  queue_op *op = ctx->state;
  tfc_status *st = ctx->st;
  tfc_object *o = tfc_resource_object(ctx->step->resources, op->container, op->name,
                                      tfc_queue_object_type(op->cfg.kind), create_queue, &op->cfg, st);
  if (!o) return;
  tfc_tensor *h = tfc_tensor_object_scalar(TFC_DTYPE_RESOURCE, o, st);
  tfc_object_unref(o);
  if (h) tfc_kernel_set_output(ctx, 0, h);
}

/* Completion of an enqueue: records the status and finishes the kernel. */
static void enqueue_done(void *arg, const tfc_status *st, tfc_tensor **elems, int64_t count) {
  (void)elems;
  (void)count;
  tfc_kernel_ctx *ctx = arg;
  if (st->code != TFC_CODE_OK) tfc_status_copy(ctx->st, st);
  tfc_kernel_async_done(ctx);
}

/* QueueEnqueueV2 / QueueEnqueueManyV2. */
void tfc_queue_enqueue_compute(tfc_kernel_ctx *ctx) {
  tfc_queue *q = tfc_queue_from_handle(ctx->inputs[0], ctx->st);
  bool many = strcmp(ctx->op_type, "QueueEnqueueManyV2") == 0;
  tfc_tensor *const *comps = ctx->inputs + 1;
  int nc = ctx->n_inputs - 1;
  if (!q || !tfc_queue_validate(q, comps, nc, many, ctx->st)) {
    tfc_kernel_async_done(ctx);
    return;
  }
  int64_t m = many ? comps[0]->dims[0] : 1;
  tfc_tensor **tuples = tfc_malloc(sizeof(tfc_tensor *) * (size_t)(m * nc + 1));
  if (!tuples) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory enqueueing %lld elements", (long long)m);
    tfc_kernel_async_done(ctx);
    return;
  }
  if (many) {
    if (!tfc_queue_unbatch(comps, nc, m, tuples, ctx->st)) {
      tfc_free(tuples);
      tfc_kernel_async_done(ctx);
      return;
    }
  } else {
    for (int c = 0; c < nc; c++) {
      tfc_tensor *t = comps[c];
      /* a fed NumPy array may change after the run: the queue keeps a copy */
      if (t->buf && t->buf->release) {
        t = tfc_tensor_copy(t, ctx->st);
        if (!t) {
          for (int k = 0; k < c; k++) tfc_tensor_unref(tuples[k]);
          tfc_free(tuples);
          tfc_kernel_async_done(ctx);
          return;
        }
      } else {
        tfc_tensor_ref(t);
      }
      tuples[c] = t;
    }
  }
  tfc_queue_enqueue(q, tuples, m, ctx->step->cancel_reg, enqueue_done, ctx);
}

/* Completion of a dequeue: outputs the tuple or the stacked batch. */
static void dequeue_done(void *arg, const tfc_status *st, tfc_tensor **elems, int64_t count) {
  tfc_kernel_ctx *ctx = arg;
  if (st->code != TFC_CODE_OK) {
    tfc_status_copy(ctx->st, st);
    tfc_kernel_async_done(ctx);
    return;
  }
  tfc_queue *q = tfc_queue_from_handle(ctx->inputs[0], ctx->st);
  int n = tfc_queue_ncomponents(q);
  if (strcmp(ctx->op_type, "QueueDequeueV2") == 0) {
    for (int c = 0; c < n; c++) tfc_kernel_set_output(ctx, c, elems[c]);
  } else {
    tfc_tensor *outs[64];
    if (tfc_queue_batch(q, elems, count, outs, ctx->st))
      for (int c = 0; c < n; c++) tfc_kernel_set_output(ctx, c, outs[c]);
    for (int64_t i = 0; i < count * n; i++) tfc_tensor_unref(elems[i]);
  }
  tfc_free(elems);
  tfc_kernel_async_done(ctx);
}

/* QueueDequeueV2 / QueueDequeueManyV2 / QueueDequeueUpToV2. */
void tfc_queue_dequeue_compute(tfc_kernel_ctx *ctx) {
  tfc_queue *q = tfc_queue_from_handle(ctx->inputs[0], ctx->st);
  if (!q) {
    tfc_kernel_async_done(ctx);
    return;
  }
  int n = tfc_queue_ncomponents(q);
  const tfc_dtype *types = tfc_queue_dtypes(q);
  bool match = ctx->n_outputs == n;
  for (int c = 0; match && c < n; c++) match = tfc_dtype_base(ctx->out_types[c]) == types[c];
  if (!match) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dequeue output types do not match the component types of %s '%s'",
                    tfc_queue_kind_name(q), tfc_queue_name(q));
    tfc_kernel_async_done(ctx);
    return;
  }
  tfc_dequeue_mode mode = TFC_DEQUEUE_ONE;
  int64_t want = 1;
  if (strcmp(ctx->op_type, "QueueDequeueV2") != 0) {
    mode = strcmp(ctx->op_type, "QueueDequeueManyV2") == 0 ? TFC_DEQUEUE_MANY : TFC_DEQUEUE_UP_TO;
    want = tfc_tensor_get_int64(ctx->inputs[1], 0);
    if (want < 0) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Dequeue%s requested %lld < 0 elements",
                      mode == TFC_DEQUEUE_MANY ? "ManyOp" : "UpToOp", (long long)want);
      tfc_kernel_async_done(ctx);
      return;
    }
    if (!tfc_queue_has_shapes(q)) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "%s's DequeueMany and DequeueUpTo require the components to have specified shapes.",
                      tfc_queue_kind_name(q));
      tfc_kernel_async_done(ctx);
      return;
    }
    if (want == 0 && mode == TFC_DEQUEUE_MANY) {
      tfc_tensor *outs[64];
      if (tfc_queue_batch(q, NULL, 0, outs, ctx->st))
        for (int c = 0; c < n; c++) tfc_kernel_set_output(ctx, c, outs[c]);
      tfc_kernel_async_done(ctx);
      return;
    }
  }
  tfc_queue_dequeue(q, mode, want, ctx->step->cancel_reg, dequeue_done, ctx);
}

/* QueueCloseV2. */
void tfc_queue_close_compute(tfc_kernel_ctx *ctx) {
  tfc_queue *q = tfc_queue_from_handle(ctx->inputs[0], ctx->st);
  if (!q) return;
  bool cancel = false;
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "cancel_pending_enqueues");
  if (v && v->kind == TFC_ATTR_B) cancel = v->v.b;
  tfc_queue_close(q, cancel);
}

/* QueueSizeV2. */
void tfc_queue_size_compute(tfc_kernel_ctx *ctx) {
  tfc_queue *q = tfc_queue_from_handle(ctx->inputs[0], ctx->st);
  if (!q) return;
  int32_t n = (int32_t)tfc_queue_size(q);
  tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_INT32, &n, ctx->st);
  if (t) tfc_kernel_set_output(ctx, 0, t);
}

/* QueueIsClosedV2. */
void tfc_queue_is_closed_compute(tfc_kernel_ctx *ctx) {
  tfc_queue *q = tfc_queue_from_handle(ctx->inputs[0], ctx->st);
  if (!q) return;
  bool c = tfc_queue_is_closed(q);
  tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_BOOL, &c, ctx->st);
  if (t) tfc_kernel_set_output(ctx, 0, t);
}
