/*
 * test_data_flow.c — resource handles (tfc_tensor_handle), the stack kernels
 * (StackV2/PushV2/PopV2/CloseV2), the TensorArrayV3 kernels (write, read,
 * gather, concat, split, grad with summed writes) with TF's errors, and
 * ReverseSequence.
 */
#include <string.h>

#include "harness.h"
#include "kernel_call.h"

static int g_released;

/* Release callback counting calls. */
static void count_release(void *owner, void *data) {
  (void)data;
  g_released += owner == (void *)&g_released;
}

TFC_TEST(handle_tensor_lifetime) {
  tfc_status st;
  tfc_status_clear(&st);
  g_released = 0;
  tfc_tensor *h = tfc_tensor_handle(&g_released, count_release, &st);
  CHECK(h != NULL);
  CHECK(h->dtype == TFC_DTYPE_RESOURCE && h->rank == 0);
  CHECK(tfc_tensor_handle_object(h) == &g_released);
  tfc_tensor *two = tfc_tensor_ref(h);
  tfc_tensor_unref(h);
  CHECK_EQ_INT(g_released, 0);
  tfc_tensor_unref(two);
  CHECK_EQ_INT(g_released, 1);
  int64_t d = 1;
  tfc_tensor *f = mk(TFC_DTYPE_FLOAT, 1, &d, NULL);
  CHECK(tfc_tensor_handle_object(f) == NULL);
  tfc_tensor_unref(f);
}

TFC_TEST(stack_push_pop_errors) {
  call c;
  call_init(&c, TFC_DTYPE_INVALID);
  set_type(&c, "elem_type", TFC_DTYPE_FLOAT);
  set_str(&c, "stack_name", "s");
  double two = 2;
  tfc_tensor *max = mk(TFC_DTYPE_INT32, 0, NULL, &two);
  c.out_types[0] = TFC_DTYPE_RESOURCE;
  CHECK(call_run(&c, "StackV2", 1, &max, 1));
  tfc_tensor *h = tfc_tensor_ref(c.out[0]);
  double v1 = 1.5, v2 = -3;
  tfc_tensor *e1 = mk(TFC_DTYPE_FLOAT, 0, NULL, &v1), *e2 = mk(TFC_DTYPE_FLOAT, 0, NULL, &v2);
  tfc_tensor *in[2] = {h, e1};
  c.out_types[0] = TFC_DTYPE_FLOAT;
  set_type(&c, "T", TFC_DTYPE_FLOAT);
  CHECK(call_run(&c, "StackPushV2", 2, in, 1));
  CHECK(c.out[0] == e1);
  in[1] = e2;
  CHECK(call_run(&c, "StackPushV2", 2, in, 1));
  CHECK(!call_run(&c, "StackPushV2", 2, in, 1));
  CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(c.st.msg, "overflowed its max_size (2)") != NULL);
  CHECK(call_run(&c, "StackPopV2", 1, &h, 1));
  CHECK_NEAR(at(c.out[0], 0), -3, 0);
  CHECK(call_run(&c, "StackPopV2", 1, &h, 1));
  CHECK_NEAR(at(c.out[0], 0), 1.5, 0);
  CHECK(!call_run(&c, "StackPopV2", 1, &h, 1));
  CHECK(strstr(c.st.msg, "Stack[s] is empty.") != NULL);
  CHECK(call_run(&c, "StackCloseV2", 1, &h, 0));
  CHECK(!call_run(&c, "StackPushV2", 2, in, 1));
  CHECK(strstr(c.st.msg, "has already been closed") != NULL);
  CHECK(!call_run(&c, "StackPopV2", 1, &e1, 1));   /* not a handle */
  CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
  tfc_tensor_unref(e1);
  tfc_tensor_unref(e2);
  tfc_tensor_unref(max);
  tfc_tensor_unref(h);
  call_done(&c);
}

/* Creates a TensorArray of `size` float elements; returns a new handle reference. */
static tfc_tensor *new_ta(call *c, int size, bool dynamic) {
  double s = size;
  tfc_tensor *st = mk(TFC_DTYPE_INT32, 0, NULL, &s);
  set_type(c, "dtype", TFC_DTYPE_FLOAT);
  set_bool(c, "dynamic_size", dynamic);
  set_bool(c, "clear_after_read", true);
  set_bool(c, "identical_element_shapes", false);
  set_str(c, "tensor_array_name", "");
  tfc_attr_value es = tfc_attr_shape(tfc_shape_unknown());
  tfc_attrs_set(&c->attrs, "element_shape", &es, &c->st);
  c->out_types[0] = TFC_DTYPE_RESOURCE;
  c->out_types[1] = TFC_DTYPE_FLOAT;
  bool ok = call_run(c, "TensorArrayV3", 1, &st, 2);
  tfc_tensor_unref(st);
  c->out_types[0] = TFC_DTYPE_FLOAT;
  return ok ? tfc_tensor_ref(c->out[0]) : NULL;
}

TFC_TEST(tensor_array_write_read_gather_concat_split_grad) {
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  tfc_tensor *h = new_ta(&c, 3, false);
  CHECK(h != NULL);
  tfc_tensor *flow = mk(TFC_DTYPE_FLOAT, 0, NULL, NULL);
  int64_t d2 = 2;
  double a[2] = {1, 2}, b[2] = {3, 4}, zero = 0, one = 1, two = 2, five = 5;
  tfc_tensor *va = mk(TFC_DTYPE_FLOAT, 1, &d2, a), *vb = mk(TFC_DTYPE_FLOAT, 1, &d2, b);
  tfc_tensor *i0 = mk(TFC_DTYPE_INT32, 0, NULL, &zero), *i1 = mk(TFC_DTYPE_INT32, 0, NULL, &one);
  tfc_tensor *i2 = mk(TFC_DTYPE_INT32, 0, NULL, &two), *i5 = mk(TFC_DTYPE_INT32, 0, NULL, &five);
  tfc_tensor *w[4] = {h, i0, va, flow};
  CHECK(call_run(&c, "TensorArrayWriteV3", 4, w, 1));
  w[1] = i1;
  w[2] = vb;
  CHECK(call_run(&c, "TensorArrayWriteV3", 4, w, 1));
  CHECK(!call_run(&c, "TensorArrayWriteV3", 4, w, 1));
  CHECK(strstr(c.st.msg, "because it has already been written to.") != NULL);
  w[1] = i5;
  CHECK(!call_run(&c, "TensorArrayWriteV3", 4, w, 1));
  CHECK(strstr(c.st.msg, "array is not resizeable") != NULL);
  /* the gradient array: writes to one index are summed */
  set_str(&c, "source", "gradients");
  tfc_tensor *gin[2] = {h, flow};
  c.out_types[0] = TFC_DTYPE_RESOURCE;
  CHECK(call_run(&c, "TensorArrayGradV3", 2, gin, 2));
  tfc_tensor *g = tfc_tensor_ref(c.out[0]);
  CHECK(call_run(&c, "TensorArrayGradV3", 2, gin, 2));
  CHECK(c.out[0] == g);  /* made once per source */
  c.out_types[0] = TFC_DTYPE_FLOAT;
  tfc_tensor *gw[4] = {g, i1, va, flow};
  CHECK(call_run(&c, "TensorArrayWriteV3", 4, gw, 1));
  CHECK(call_run(&c, "TensorArrayWriteV3", 4, gw, 1));
  tfc_tensor *gr[3] = {g, i1, flow};
  set_type(&c, "dtype", TFC_DTYPE_FLOAT);
  CHECK(call_run(&c, "TensorArrayReadV3", 3, gr, 1));
  CHECK_NEAR(at(c.out[0], 1), 4, 0);
  /* unwritten grad element with a known shape reads as zeros */
  gr[1] = i0;
  CHECK(call_run(&c, "TensorArrayReadV3", 3, gr, 1));
  CHECK(c.out[0]->rank == 1 && c.out[0]->dims[0] == 2 && at(c.out[0], 0) == 0);
  /* forward: gather, then a second read of a cleared element fails */
  int64_t d1 = 2;
  double idx[2] = {1, 0};
  tfc_tensor *ix = mk(TFC_DTYPE_INT32, 1, &d1, idx);
  tfc_tensor *gat[3] = {h, ix, flow};
  CHECK(call_run(&c, "TensorArrayGatherV3", 3, gat, 1));
  CHECK(c.out[0]->rank == 2 && at(c.out[0], 0) == 3 && at(c.out[0], 3) == 2);
  tfc_tensor *rd[3] = {h, i0, flow};
  CHECK(!call_run(&c, "TensorArrayReadV3", 3, rd, 1));
  CHECK(strstr(c.st.msg, "cleared after a previous read") != NULL);
  /* index 2 was never written and the element shape is unknown */
  rd[1] = i2;
  CHECK(!call_run(&c, "TensorArrayReadV3", 3, rd, 1));
  CHECK(strstr(c.st.msg, "element shape is not fully defined") != NULL);
  /* split into a dynamic array, concat back */
  tfc_tensor *h2 = new_ta(&c, 0, true);
  int64_t d5 = 5, d3 = 3;
  double vals[5] = {1, 2, 3, 4, 5}, lens[3] = {2, 0, 3};
  tfc_tensor *v5 = mk(TFC_DTYPE_FLOAT, 1, &d5, vals), *ln = mk(TFC_DTYPE_INT64, 1, &d3, lens);
  tfc_tensor *sp[4] = {h2, v5, ln, flow};
  CHECK(call_run(&c, "TensorArraySplitV3", 4, sp, 1));
  tfc_tensor *cc[2] = {h2, flow};
  c.out_types[1] = TFC_DTYPE_INT64;
  tfc_attr_value es0 = tfc_attr_shape(tfc_shape_unknown());
  tfc_attrs_set(&c.attrs, "element_shape_except0", &es0, &c.st);
  CHECK(call_run(&c, "TensorArrayConcatV3", 2, cc, 2));
  CHECK(c.out[0]->dims[0] == 5 && at(c.out[0], 4) == 5 && at(c.out[1], 1) == 0 && at(c.out[1], 2) == 3);
  c.out_types[0] = TFC_DTYPE_INT32;
  CHECK(call_run(&c, "TensorArraySizeV3", 2, cc, 1));
  CHECK_EQ_INT((int)at(c.out[0], 0), 3);
  tfc_tensor *all[] = {va, vb, i0, i1, i2, i5, ix, v5, ln, flow, h, h2, g};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) tfc_tensor_unref(all[k]);
  call_done(&c);
}

TFC_TEST(reverse_sequence_kernel) {
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  set_int(&c, "seq_dim", 1);
  set_int(&c, "batch_dim", 0);
  set_type(&c, "Tlen", TFC_DTYPE_INT64);
  int64_t dims[2] = {2, 4}, d2 = 2;
  double x[8] = {0, 1, 2, 3, 4, 5, 6, 7}, l[2] = {3, 0};
  tfc_tensor *in[2] = {mk(TFC_DTYPE_FLOAT, 2, dims, x), mk(TFC_DTYPE_INT64, 1, &d2, l)};
  CHECK(call_run(&c, "ReverseSequence", 2, in, 1));
  double want[8] = {2, 1, 0, 3, 4, 5, 6, 7};
  for (int i = 0; i < 8; i++) CHECK_NEAR(at(c.out[0], i), want[i], 0);
  double bad[2] = {5, 1};
  tfc_tensor_unref(in[1]);
  in[1] = mk(TFC_DTYPE_INT64, 1, &d2, bad);
  CHECK(!call_run(&c, "ReverseSequence", 2, in, 1));
  CHECK(strstr(c.st.msg, "seq_lens(0) > input.dims(1)") != NULL);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
  call_done(&c);
}
