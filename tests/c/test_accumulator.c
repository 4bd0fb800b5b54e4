/*
 * test_accumulator.c — the conditional accumulator (csrc/kernels/accumulator.c)
 * without an executor: parked takes completed by later applies, the staleness
 * rule, MEAN and SUM, the sparse merge with per-row means, shape errors, and
 * cancellation of a waiting take through the step's registry.
 */
#include <string.h>

#include "base/alloc.h"
#include "core/cancel.h"
#include "harness.h"
#include "kernels/accumulator.h"

typedef struct take_result {
  int calls;
  tfc_code code;
  int nouts;
  tfc_tensor *outs[3];
} take_result;

/* Records a take's completion (keeps the outputs for the test to check). */
static void on_take(void *arg, const tfc_status *st, tfc_tensor **outs, int nouts) {
  take_result *r = arg;
  r->calls++;
  r->code = st->code;
  r->nouts = nouts;
  for (int i = 0; i < nouts; i++) r->outs[i] = outs[i];
}

/* Drops a result's outputs. */
static void drop(take_result *r) {
  for (int i = 0; i < r->nouts; i++) tfc_tensor_unref(r->outs[i]);
  r->nouts = 0;
}

/* A float vector tensor of n values. */
static tfc_tensor *vec(const float *v, int64_t n) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_FLOAT, 1, &n, &st);
  memcpy(t->data, v, sizeof(float) * (size_t)n);
  return t;
}

/* An accumulator of float gradients. */
static tfc_accum *new_accum(bool sparse, bool mean, tfc_shape shape) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_accum_config cfg = {sparse, TFC_DTYPE_FLOAT, shape, mean, "acc"};
  return tfc_accum_new(&cfg, &st);
}

TFC_TEST(accumulator_parked_take_completes_on_apply_and_drops_stale_gradients) {
  int64_t two = 2;
  tfc_accum *a = new_accum(false, true, tfc_shape_make(1, &two));
  CHECK(a != NULL);
  tfc_status st;
  tfc_status_clear(&st);
  take_result r = {0};
  tfc_accum_take(a, 2, NULL, on_take, &r);
  CHECK(r.calls == 0);
  tfc_tensor *g1 = vec((float[]){1, 2}, 2), *g2 = vec((float[]){3, 6}, 2), *g3 = vec((float[]){1, 2, 3}, 3);
  CHECK(tfc_accum_apply_dense(a, 0, g1, &st));
  CHECK(r.calls == 0 && tfc_accum_num_accumulated(a) == 1);
  CHECK(!tfc_accum_apply_dense(a, 0, g3, &st) && st.code == TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  CHECK(tfc_accum_apply_dense(a, 0, g2, &st));
  CHECK(r.calls == 1 && r.code == TFC_CODE_OK && r.nouts == 1);
  const float *m = r.outs[0]->data;
  CHECK(m[0] == 2.0f && m[1] == 4.0f);
  drop(&r);
  /* the take moved the global step to 1: step-0 gradients are dropped unchecked */
  CHECK(tfc_accum_apply_dense(a, 0, g3, &st));
  CHECK(tfc_accum_num_accumulated(a) == 0);
  tfc_accum_set_global_step(a, 5);
  CHECK(tfc_accum_apply_dense(a, 4, g1, &st) && tfc_accum_num_accumulated(a) == 0);
  CHECK(tfc_accum_apply_dense(a, 5, g1, &st) && tfc_accum_num_accumulated(a) == 1);
  tfc_tensor_unref(g1);
  tfc_tensor_unref(g2);
  tfc_tensor_unref(g3);
  tfc_object_unref((tfc_object *)a);
}

TFC_TEST(accumulator_sparse_merge_averages_each_row) {
  tfc_accum *a = new_accum(true, true, tfc_shape_unknown());
  tfc_status st;
  tfc_status_clear(&st);
  int64_t n = 2, dims[2] = {2, 2};
  tfc_tensor *i1 = tfc_tensor_new(TFC_DTYPE_INT64, 1, &n, &st), *i2 = tfc_tensor_new(TFC_DTYPE_INT64, 1, &n, &st);
  tfc_tensor *v1 = tfc_tensor_new(TFC_DTYPE_FLOAT, 2, dims, &st), *v2 = tfc_tensor_new(TFC_DTYPE_FLOAT, 2, dims, &st);
  memcpy(i1->data, (int64_t[]){0, 2}, 16);
  memcpy(i2->data, (int64_t[]){1, 2}, 16);
  memcpy(v1->data, (float[]){1, 1, 2, 2}, 16);
  memcpy(v2->data, (float[]){3, 3, 4, 4}, 16);
  CHECK(tfc_accum_apply_sparse(a, 0, i1, v1, NULL, &st));
  CHECK(tfc_accum_apply_sparse(a, 0, i2, v2, NULL, &st));
  take_result r = {0};
  tfc_accum_take(a, 2, NULL, on_take, &r);
  CHECK(r.calls == 1 && r.code == TFC_CODE_OK && r.nouts == 3);
  const int64_t *idx = r.outs[0]->data;
  const float *val = r.outs[1]->data;
  const int64_t *shape = r.outs[2]->data;
  CHECK(r.outs[0]->nelems == 3 && idx[0] == 0 && idx[1] == 1 && idx[2] == 2);
  CHECK(val[0] == 1 && val[2] == 3 && val[4] == 3 && val[5] == 3);
  CHECK(shape[0] == -1 && shape[1] == 2);
  drop(&r);
  tfc_tensor_unref(i1);
  tfc_tensor_unref(i2);
  tfc_tensor_unref(v1);
  tfc_tensor_unref(v2);
  tfc_object_unref((tfc_object *)a);
}

TFC_TEST(accumulator_waiting_take_is_cancelled_by_its_step) {
  tfc_accum *a = new_accum(false, false, tfc_shape_unknown());
  tfc_cancel reg;
  tfc_cancel_init(&reg);
  take_result r1 = {0}, r2 = {0}, r0 = {0};
  tfc_accum_take(a, 0, &reg, on_take, &r0);
  CHECK(r0.calls == 1 && r0.code == TFC_CODE_INVALID_ARGUMENT);
  tfc_accum_take(a, 1, &reg, on_take, &r1);
  CHECK(r1.calls == 0);
  tfc_status why;
  tfc_status_clear(&why);
  tfc_status_set(&why, TFC_CODE_DEADLINE_EXCEEDED, "deadline");
  tfc_cancel_fire(&reg, &why);
  CHECK(r1.calls == 1 && r1.code == TFC_CODE_DEADLINE_EXCEEDED);
  /* a take on a fired registry fails at once */
  tfc_accum_take(a, 1, &reg, on_take, &r2);
  CHECK(r2.calls == 1 && r2.code == TFC_CODE_DEADLINE_EXCEEDED);
  tfc_cancel_destroy(&reg);
  tfc_object_unref((tfc_object *)a);
}
