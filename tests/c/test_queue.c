/*
 * test_queue.c — the queue resource (csrc/kernels/queue.c) and the step
 * cancellation registry (csrc/core/cancel.c) without an executor: parked
 * requests completed by later enqueues, close and cancellation, the
 * shuffling queue's min_after_dequeue, batching with padding, and the
 * registry's once-only firing.
 */
#include <string.h>

#include "base/alloc.h"
#include "core/cancel.h"
#include "core/object.h"
#include "harness.h"
#include "kernels/queue.h"

typedef struct result {
  int calls;
  tfc_code code;
  int64_t count;
  int64_t first;
} result;

/* Records a completion (and drops the dequeued tensors). */
static void on_done(void *arg, const tfc_status *st, tfc_tensor **elems, int64_t count) {
  result *r = arg;
  r->calls++;
  r->code = st->code;
  r->count = count;
  if (elems && count > 0) r->first = tfc_tensor_get_int64(elems[0], 0);
  for (int64_t i = 0; i < count; i++) tfc_tensor_unref(elems[i]);
  tfc_free(elems);
}

/* A one-component int64 queue of the given kind. */
static tfc_queue *new_queue(tfc_queue_kind kind, int64_t cap, int64_t min_after, tfc_status *st) {
  tfc_dtype t = TFC_DTYPE_INT64;
  tfc_shape s = tfc_shape_scalar();
  tfc_queue_config cfg = {kind, "q", 1, &t, 1, &s, cap, min_after, 7, 3};
  return tfc_queue_new(&cfg, st);
}

/* Enqueues the value v (one tuple). */
static void enqueue_value(tfc_queue *q, int64_t v, tfc_cancel *reg, result *r) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor **tuple = tfc_malloc(sizeof(tfc_tensor *));
  tuple[0] = tfc_tensor_scalar(TFC_DTYPE_INT64, &v, &st);
  tfc_queue_enqueue(q, tuple, 1, reg, on_done, r);
}

TFC_TEST(queue_parked_dequeue_completes_on_enqueue_and_close_wakes_waiters) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_queue *q = new_queue(TFC_QUEUE_FIFO, 2, 0, &st);
  CHECK(q != NULL);
  tfc_cancel reg;
  tfc_cancel_init(&reg);
  result d1 = {0}, d2 = {0}, e = {0};
  tfc_queue_dequeue(q, TFC_DEQUEUE_ONE, 1, &reg, on_done, &d1);
  tfc_queue_dequeue(q, TFC_DEQUEUE_MANY, 2, &reg, on_done, &d2);
  CHECK_EQ_INT(d1.calls, 0);
  enqueue_value(q, 41, &reg, &e);
  CHECK_EQ_INT(e.calls, 1);
  CHECK_EQ_INT(d1.calls, 1);
  CHECK_EQ_INT(d1.first, 41);
  enqueue_value(q, 42, &reg, &e);
  CHECK_EQ_INT(d2.calls, 0); /* holds one of its two */
  tfc_queue_close(q, false);
  CHECK_EQ_INT(d2.calls, 1);
  CHECK_EQ_INT(d2.code, TFC_CODE_OUT_OF_RANGE);
  CHECK_EQ_INT(tfc_queue_size(q), 1); /* the taken element went back */
  result e2 = {0};
  enqueue_value(q, 43, &reg, &e2);
  CHECK_EQ_INT(e2.code, TFC_CODE_CANCELLED);
  result up = {0};
  tfc_queue_dequeue(q, TFC_DEQUEUE_UP_TO, 5, &reg, on_done, &up);
  CHECK_EQ_INT(up.code, TFC_CODE_OK);
  CHECK_EQ_INT(up.count, 1);
  tfc_cancel_destroy(&reg);
  tfc_object_unref((tfc_object *)q);
}

TFC_TEST(queue_cancellation_registry_completes_parked_requests_once) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_queue *q = new_queue(TFC_QUEUE_FIFO, 1, 0, &st);
  tfc_cancel reg;
  tfc_cancel_init(&reg);
  result d = {0}, e1 = {0}, e2 = {0};
  tfc_queue_dequeue(q, TFC_DEQUEUE_MANY, 3, &reg, on_done, &d);
  enqueue_value(q, 1, &reg, &e1);
  enqueue_value(q, 2, &reg, &e2);
  CHECK_EQ_INT(e1.calls + e2.calls, 2); /* the dequeue took both as they came */
  tfc_status why;
  tfc_status_clear(&why);
  tfc_status_set(&why, TFC_CODE_DEADLINE_EXCEEDED, "deadline");
  tfc_cancel_fire(&reg, &why);
  tfc_cancel_fire(&reg, &why); /* once only */
  CHECK_EQ_INT(d.calls, 1);
  CHECK_EQ_INT(d.code, TFC_CODE_DEADLINE_EXCEEDED);
  CHECK_EQ_INT(tfc_queue_size(q), 2); /* restored: more than capacity is fine */
  result late = {0};
  tfc_queue_dequeue(q, TFC_DEQUEUE_MANY, 5, &reg, on_done, &late); /* the registry has fired */
  CHECK_EQ_INT(late.calls, 1);
  CHECK_EQ_INT(late.code, TFC_CODE_DEADLINE_EXCEEDED);
  CHECK_EQ_INT(tfc_queue_size(q), 2);
  tfc_cancel_destroy(&reg);
  tfc_object_unref((tfc_object *)q);
}

TFC_TEST(queue_random_shuffle_keeps_min_after_dequeue_until_closed) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_queue *q = new_queue(TFC_QUEUE_RANDOM_SHUFFLE, 10, 3, &st);
  result e = {0}, d = {0};
  for (int i = 0; i < 4; i++) enqueue_value(q, i, NULL, &e);
  tfc_queue_dequeue(q, TFC_DEQUEUE_MANY, 2, NULL, on_done, &d);
  CHECK_EQ_INT(d.calls, 0); /* took one, waits: 3 must remain */
  CHECK_EQ_INT(tfc_queue_size(q), 3);
  tfc_queue_close(q, false);
  CHECK_EQ_INT(d.calls, 1);
  CHECK_EQ_INT(d.code, TFC_CODE_OK);
  CHECK_EQ_INT(d.count, 2);
  tfc_object_unref((tfc_object *)q);
  tfc_queue_config bad = {TFC_QUEUE_RANDOM_SHUFFLE, "q", 1, (tfc_dtype[]){TFC_DTYPE_INT64}, 0, NULL, 2, 2, 0, 0};
  CHECK(tfc_queue_new(&bad, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
}

TFC_TEST(queue_padding_batch_pads_with_zeros) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_dtype t = TFC_DTYPE_INT32;
  tfc_shape s = tfc_shape_unknown_dims(1);
  tfc_queue_config cfg = {TFC_QUEUE_PADDING_FIFO, "p", 1, &t, 1, &s, -1, 0, 0, 0};
  tfc_queue *q = tfc_queue_new(&cfg, &st);
  CHECK(q != NULL);
  int64_t d1 = 1, d3 = 3;
  tfc_tensor *elems[2] = {tfc_tensor_zeros(TFC_DTYPE_INT32, 1, &d1, &st),
                          tfc_tensor_zeros(TFC_DTYPE_INT32, 1, &d3, &st)};
  ((int32_t *)elems[0]->data)[0] = 5;
  for (int i = 0; i < 3; i++) ((int32_t *)elems[1]->data)[i] = i + 1;
  tfc_tensor *out = NULL;
  CHECK(tfc_queue_batch(q, elems, 2, &out, &st));
  CHECK_EQ_INT(out->rank, 2);
  CHECK_EQ_INT(out->dims[1], 3);
  const int32_t *v = out->data;
  CHECK_EQ_INT(v[0], 5);
  CHECK_EQ_INT(v[1], 0);
  CHECK_EQ_INT(v[2], 0);
  CHECK_EQ_INT(v[5], 3);
  tfc_tensor_unref(out);
  tfc_tensor_unref(elems[0]);
  tfc_tensor_unref(elems[1]);
  tfc_object_unref((tfc_object *)q);
}

TFC_TEST(object_tensors_hold_references) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_queue *q = new_queue(TFC_QUEUE_FIFO, 1, 0, &st);
  tfc_tensor *h = tfc_tensor_object_scalar(TFC_DTYPE_RESOURCE, (tfc_object *)q, &st);
  CHECK(h != NULL);
  tfc_object_unref((tfc_object *)q); /* the tensor keeps it alive */
  CHECK(tfc_queue_from_handle(h, &st) == q);
  CHECK_EQ_INT(tfc_queue_size(q), 0);
  tfc_tensor_unref(h);
  CHECK(tfc_tensor_new_objects(TFC_DTYPE_FLOAT, 0, NULL, &st) == NULL);
}
