/*
 * test_set_ops.c — the set and string-hash kernels run by hand
 * (kernels/set_ops.c, kernels/string_hash.c): dense and sparse set
 * operations on strings and integers, SetSize, ordering errors, and
 * Fingerprint / StringToHashBucketFast on strings of every length path.
 */
#include <string.h>

#include "base/fingerprint.h"
#include "core/dtype.h"
#include "harness.h"
#include "kernel_call.h"

/* A [rows, cols] string matrix of C strings (row-major). */
static tfc_tensor *str_matrix(int64_t rows, int64_t cols, const char *const *v) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t d[2] = {rows, cols};
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_STRING, 2, d, &st);
  for (int64_t i = 0; t && i < rows * cols; i++) tfc_tensor_set_string(t, i, v[i], strlen(v[i]), &st);
  return t;
}

/* True when string element i of t equals want. */
static bool str_is(const tfc_tensor *t, int64_t i, const char *want) {
  const tfc_string *s = (const tfc_string *)t->data + i;
  return s->len == strlen(want) && (s->len == 0 || memcmp(s->data, want, s->len) == 0);
}

TFC_TEST(set_ops_dense_strings_union_and_difference) {
  const char *a[6] = {"b", "a", "", "x", "x", "y"};
  const char *b[6] = {"a", "c", "c", "z", "x", "w"};
  tfc_tensor *ins[2] = {str_matrix(2, 3, a), str_matrix(2, 3, b)};
  call c;
  call_init(&c, TFC_DTYPE_STRING);
  c.out_types[0] = TFC_DTYPE_INT64;
  c.out_types[1] = TFC_DTYPE_STRING;
  c.out_types[2] = TFC_DTYPE_INT64;
  set_str(&c, "set_operation", "union");
  CHECK(call_run(&c, "DenseToDenseSetOperation", 2, ins, 3));
  CHECK(c.out[1]->nelems == 8);
  const char *want[8] = {"", "a", "b", "c", "w", "x", "y", "z"};
  for (int i = 0; i < 8; i++) CHECK(str_is(c.out[1], i, want[i]));
  CHECK(at(c.out[2], 0) == 2 && at(c.out[2], 1) == 4);
  CHECK(at(c.out[0], 2 * 4 + 1) == 0 && at(c.out[0], 2 * 7 + 1) == 3);
  set_str(&c, "set_operation", "a-b");
  CHECK(call_run(&c, "DenseToDenseSetOperation", 2, ins, 3));
  CHECK(c.out[1]->nelems == 3 && str_is(c.out[1], 0, "") && str_is(c.out[1], 1, "b") && str_is(c.out[1], 2, "y"));
  set_str(&c, "set_operation", "xor");
  CHECK(!call_run(&c, "DenseToDenseSetOperation", 2, ins, 3));
  CHECK_CODE(&c.st, TFC_CODE_INVALID_ARGUMENT);
  call_done(&c);
  tfc_tensor_unref(ins[0]);
  tfc_tensor_unref(ins[1]);
}

TFC_TEST(set_ops_sparse_and_set_size) {
  double ind[8] = {0, 0, 0, 1, 1, 0, 1, 1}, vals[4] = {5, 5, 7, 2}, shape[2] = {3, 4};
  int64_t idims[2] = {4, 2}, vdims[1] = {4}, sdims[1] = {2};
  tfc_tensor *ins[3] = {mk(TFC_DTYPE_INT64, 2, idims, ind), mk(TFC_DTYPE_INT32, 1, vdims, vals),
                        mk(TFC_DTYPE_INT64, 1, sdims, shape)};
  call c;
  call_init(&c, TFC_DTYPE_INT32);
  c.out_types[0] = TFC_DTYPE_INT32;
  CHECK(call_run(&c, "SetSize", 3, ins, 1));
  CHECK(c.out[0]->nelems == 3 && at(c.out[0], 0) == 1 && at(c.out[0], 1) == 2 && at(c.out[0], 2) == 0);
  double bad[8] = {1, 0, 0, 0, 1, 1, 2, 0};
  tfc_tensor *unordered = mk(TFC_DTYPE_INT64, 2, idims, bad);
  tfc_tensor *ins2[3] = {unordered, ins[1], ins[2]};
  CHECK(!call_run(&c, "SetSize", 3, ins2, 1));
  CHECK(strstr(c.st.msg, "out of order") != NULL);
  call_done(&c);
  call_init(&c, TFC_DTYPE_INT32);
  c.out_types[0] = TFC_DTYPE_INT64;
  c.out_types[1] = TFC_DTYPE_INT32;
  c.out_types[2] = TFC_DTYPE_INT64;
  set_str(&c, "set_operation", "intersection");
  tfc_tensor *six[6] = {ins[0], ins[1], ins[2], ins[0], ins[1], ins[2]};
  CHECK(call_run(&c, "SparseToSparseSetOperation", 6, six, 3));
  CHECK(c.out[1]->nelems == 3 && at(c.out[1], 0) == 5 && at(c.out[1], 1) == 2 && at(c.out[1], 2) == 7);
  CHECK(at(c.out[2], 1) == 2);
  call_done(&c);
  for (int i = 0; i < 3; i++) tfc_tensor_unref(ins[i]);
  tfc_tensor_unref(unordered);
}

TFC_TEST(string_hash_kernels_match_fingerprint) {
  char lens[5][70];
  const char *v[5];
  int n[5] = {0, 3, 20, 40, 69};
  for (int i = 0; i < 5; i++) {
    memset(lens[i], 'a' + i, (size_t)n[i]);
    lens[i][n[i]] = 0;
    v[i] = lens[i];
  }
  tfc_tensor *in = str_matrix(5, 1, v);
  call c;
  call_init(&c, TFC_DTYPE_INVALID);
  c.out_types[0] = TFC_DTYPE_INT64;
  set_int(&c, "num_buckets", 1000003);
  CHECK(call_run(&c, "StringToHashBucketFast", 1, &in, 1));
  for (int i = 0; i < 5; i++) CHECK(at(c.out[0], i) == (double)(tfc_fingerprint64(v[i], (size_t)n[i]) % 1000003));
  call_done(&c);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *method = tfc_tensor_scalar(TFC_DTYPE_STRING, &(tfc_string){"farmhash64", 10}, &st);
  tfc_tensor *ins[2] = {in, method};
  call_init(&c, TFC_DTYPE_STRING);
  c.out_types[0] = TFC_DTYPE_UINT8;
  CHECK(call_run(&c, "Fingerprint", 2, ins, 1));
  CHECK(c.out[0]->dims[0] == 5 && c.out[0]->dims[1] == 8);
  uint64_t fp = 0;
  for (int b = 7; b >= 0; b--) fp = (fp << 8) | ((const uint8_t *)c.out[0]->data)[4 * 8 + b];
  CHECK(fp == tfc_fingerprint64(v[4], 69));
  call_done(&c);
  tfc_tensor_unref(method);
  tfc_tensor_unref(in);
}
