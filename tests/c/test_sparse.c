/*
 * test_sparse.c — the partition/stitch and sparse-tensor kernels
 * (DynamicPartition, DynamicStitch, ParallelDynamicStitch, SparseToDense,
 * SparseTensorDenseMatMul, SparseReorder) run by hand: values against
 * hand-computed results, TF's error messages, and allocation failures that
 * must come back as statuses.
 */
#include <string.h>

#include "base/alloc.h"
#include "core/dtype.h"
#include "harness.h"
#include "kernel_call.h"

/* DynamicPartition splits rows by partition id, keeping their order. */
TFC_TEST(sparse_dynamic_partition_rows) {
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  set_int(&c, "num_partitions", 3);
  int64_t dd[2] = {5, 2}, pd[1] = {5};
  double data[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, parts[5] = {2, 0, 2, 1, 0};
  tfc_tensor *in[2] = {mk(TFC_DTYPE_FLOAT, 2, dd, data), mk(TFC_DTYPE_INT32, 1, pd, parts)};
  CHECK(call_run(&c, "DynamicPartition", 2, in, 3));
  CHECK_EQ_INT(c.out[0]->dims[0], 2);
  CHECK_EQ_INT(c.out[1]->dims[0], 1);
  CHECK_EQ_INT(c.out[2]->dims[0], 2);
  CHECK_EQ_INT(c.out[0]->dims[1], 2);
  CHECK_NEAR(at(c.out[0], 0), 2, 0);  /* row 1 */
  CHECK_NEAR(at(c.out[0], 2), 8, 0);  /* row 4 */
  CHECK_NEAR(at(c.out[1], 1), 7, 0);  /* row 3 */
  CHECK_NEAR(at(c.out[2], 3), 5, 0);  /* row 2 */
  tfc_tensor_unref(in[1]);
  double bad[5] = {0, 1, 3, 1, 0};
  in[1] = mk(TFC_DTYPE_INT32, 1, pd, bad);
  CHECK(!call_run(&c, "DynamicPartition", 2, in, 3));
  CHECK_EQ_INT(c.st.code, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(c.st.msg, "partitions[2] = 3 is not in [0, 3)") != NULL);
  tfc_tensor_unref(in[1]);
  int64_t pd2[1] = {4};
  in[1] = mk(TFC_DTYPE_INT32, 1, pd2, parts);
  CHECK(!call_run(&c, "DynamicPartition", 2, in, 3));
  CHECK(strstr(c.st.msg, "data.shape must start with partitions.shape") != NULL);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
  call_done(&c);
}

/* DynamicStitch merges by index (later wins), zero-fills rows never named. */
TFC_TEST(sparse_dynamic_stitch_merge) {
  call c;
  call_init(&c, TFC_DTYPE_DOUBLE);
  set_int(&c, "N", 2);
  int64_t i0d[1] = {2}, i1d[1] = {2}, d0d[2] = {2, 2}, d1d[2] = {2, 2};
  double i0[2] = {0, 3}, i1[2] = {3, 5}, d0[4] = {1, 2, 3, 4}, d1[4] = {5, 6, 7, 8};
  tfc_tensor *in[4] = {mk(TFC_DTYPE_INT32, 1, i0d, i0), mk(TFC_DTYPE_INT32, 1, i1d, i1),
                       mk(TFC_DTYPE_DOUBLE, 2, d0d, d0), mk(TFC_DTYPE_DOUBLE, 2, d1d, d1)};
  CHECK(call_run(&c, "DynamicStitch", 4, in, 1));
  CHECK_EQ_INT(c.out[0]->dims[0], 6);
  double want[12] = {1, 2, 0, 0, 0, 0, 5, 6, 0, 0, 7, 8};
  for (int k = 0; k < 12; k++) CHECK_NEAR(at(c.out[0], k), want[k], 0);
  CHECK(call_run(&c, "ParallelDynamicStitch", 4, in, 1));
  CHECK_NEAR(at(c.out[0], 6), 5, 0);
  tfc_tensor_unref(in[1]);
  double neg[2] = {1, -2};
  in[1] = mk(TFC_DTYPE_INT32, 1, i1d, neg);
  CHECK(!call_run(&c, "DynamicStitch", 4, in, 1));
  CHECK(strstr(c.st.msg, "indices[1] is out of range") != NULL);
  tfc_tensor_unref(in[3]);
  int64_t d3[2] = {3, 2};
  double d3v[6] = {0};
  in[3] = mk(TFC_DTYPE_DOUBLE, 2, d3, d3v);
  CHECK(!call_run(&c, "DynamicStitch", 4, in, 1));
  CHECK(strstr(c.st.msg, "does not start with indices[1].shape") != NULL);
  for (int i = 0; i < 4; i++) tfc_tensor_unref(in[i]);
  call_done(&c);
}

/* SparseToDense: default everywhere, values at the indices; validation. */
TFC_TEST(sparse_to_dense_values_and_checks) {
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  set_type(&c, "Tindices", TFC_DTYPE_INT64);
  int64_t id[2] = {2, 2}, sd[1] = {2}, vd[1] = {2};
  double idx[4] = {0, 1, 2, 0}, shape[2] = {3, 2}, vals[2] = {7, 8}, def = -1;
  tfc_tensor *in[4] = {mk(TFC_DTYPE_INT64, 2, id, idx), mk(TFC_DTYPE_INT64, 1, sd, shape),
                       mk(TFC_DTYPE_FLOAT, 1, vd, vals), mk(TFC_DTYPE_FLOAT, 0, NULL, &def)};
  CHECK(call_run(&c, "SparseToDense", 4, in, 1));
  double want[6] = {-1, 7, -1, -1, 8, -1};
  for (int k = 0; k < 6; k++) CHECK_NEAR(at(c.out[0], k), want[k], 0);
  tfc_tensor_unref(in[0]);
  double unordered[4] = {2, 0, 0, 1};
  in[0] = mk(TFC_DTYPE_INT64, 2, id, unordered);
  CHECK(!call_run(&c, "SparseToDense", 4, in, 1));
  CHECK(strstr(c.st.msg, "indices[1] = [0,1] is out of order") != NULL);
  set_bool(&c, "validate_indices", false);
  CHECK(call_run(&c, "SparseToDense", 4, in, 1));
  tfc_tensor_unref(in[0]);
  double outside[4] = {0, 1, 3, 0};
  in[0] = mk(TFC_DTYPE_INT64, 2, id, outside);
  CHECK(!call_run(&c, "SparseToDense", 4, in, 1));
  CHECK(strstr(c.st.msg, "indices[1] = [3,0] is out of bounds: need 0 <= index < [3,2]") != NULL);
  for (int i = 0; i < 4; i++) tfc_tensor_unref(in[i]);
  call_done(&c);
}

/* SparseTensorDenseMatMul with each adjoint against the dense product. */
TFC_TEST(sparse_dense_matmul_adjoints) {
  /* A = [[0, 2], [3, 0], [0, 4]] (3x2), B = [[1, 2], [3, 4]] */
  int64_t id[2] = {3, 2}, vd[1] = {3}, sd[1] = {2}, bd[2] = {2, 2};
  double idx[6] = {0, 1, 1, 0, 2, 1}, vals[3] = {2, 3, 4}, shape[2] = {3, 2},
         b[4] = {1, 2, 3, 4};
  tfc_tensor *in[4] = {mk(TFC_DTYPE_INT64, 2, id, idx), mk(TFC_DTYPE_DOUBLE, 1, vd, vals),
                       mk(TFC_DTYPE_INT64, 1, sd, shape), mk(TFC_DTYPE_DOUBLE, 2, bd, b)};
  call c;
  call_init(&c, TFC_DTYPE_DOUBLE);
  CHECK(call_run(&c, "SparseTensorDenseMatMul", 4, in, 1));
  double ab[6] = {6, 8, 3, 6, 12, 16};
  for (int k = 0; k < 6; k++) CHECK_NEAR(at(c.out[0], k), ab[k], 0);
  set_bool(&c, "adjoint_b", true);
  CHECK(call_run(&c, "SparseTensorDenseMatMul", 4, in, 1));
  double abt[6] = {4, 8, 3, 9, 8, 16};
  for (int k = 0; k < 6; k++) CHECK_NEAR(at(c.out[0], k), abt[k], 0);
  set_bool(&c, "adjoint_a", true);
  set_bool(&c, "adjoint_b", false);
  CHECK(!call_run(&c, "SparseTensorDenseMatMul", 4, in, 1));
  CHECK(strstr(c.st.msg, "inner dimension does not match: 3 vs. 2") != NULL);
  tfc_tensor_unref(in[0]);
  double bad[6] = {0, 1, 1, 0, 2, 5};
  in[0] = mk(TFC_DTYPE_INT64, 2, id, bad);
  set_bool(&c, "adjoint_a", false);
  CHECK(!call_run(&c, "SparseTensorDenseMatMul", 4, in, 1));
  CHECK(strstr(c.st.msg, "k (5) from index[2,1] out of bounds (>=2)") != NULL);
  for (int i = 0; i < 4; i++) tfc_tensor_unref(in[i]);
  call_done(&c);
}

/* SparseReorder sorts row-major, stably; allocation failures are statuses. */
TFC_TEST(sparse_reorder_sorts_and_survives_oom) {
  int64_t id[2] = {3, 2}, vd[1] = {3}, sd[1] = {2};
  double idx[6] = {2, 1, 0, 3, 0, 1}, vals[3] = {10, 20, 30}, shape[2] = {3, 4};
  tfc_tensor *in[3] = {mk(TFC_DTYPE_INT64, 2, id, idx), mk(TFC_DTYPE_FLOAT, 1, vd, vals),
                       mk(TFC_DTYPE_INT64, 1, sd, shape)};
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  c.out_types[0] = TFC_DTYPE_INT64;
  CHECK(call_run(&c, "SparseReorder", 3, in, 2));
  double want_i[6] = {0, 1, 0, 3, 2, 1}, want_v[3] = {30, 20, 10};
  for (int k = 0; k < 6; k++) CHECK_NEAR(at(c.out[0], k), want_i[k], 0);
  for (int k = 0; k < 3; k++) CHECK_NEAR(at(c.out[1], k), want_v[k], 0);
  for (int n = 1; n <= 4; n++) {
    tfc_alloc_fail_after(n);
    bool ok = call_run(&c, "SparseReorder", 3, in, 2);
    tfc_alloc_fail_after(0);
    CHECK(ok || c.st.code == TFC_CODE_RESOURCE_EXHAUSTED);
  }
  tfc_tensor_unref(in[2]);
  double small[2] = {2, 4};
  in[2] = mk(TFC_DTYPE_INT64, 1, sd, small);
  CHECK(!call_run(&c, "SparseReorder", 3, in, 2));
  CHECK(strstr(c.st.msg, "out of bounds") != NULL);
  for (int i = 0; i < 3; i++) tfc_tensor_unref(in[i]);
  call_done(&c);
}
