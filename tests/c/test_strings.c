/*
 * test_strings.c — the tf.strings kernels run by hand (kernels/strings.c):
 * StringLength units, Substr bounds, ReduceJoin order, RegexReplace with
 * groups and empty matches, StringToNumber errors, AsString formats, and
 * StringToHashBucketStrong's SipHash-2-4 against the reference test vector.
 */
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "kernel_call.h"

/* A string vector of n C strings. */
static tfc_tensor *strs(int n, const char *const *v) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t d[1] = {n};
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_STRING, 1, d, &st);
  for (int i = 0; t && i < n; i++) tfc_tensor_set_string(t, i, v[i], strlen(v[i]), &st);
  return t;
}

/* True when string element i of t equals want. */
static bool str_is(const tfc_tensor *t, int64_t i, const char *want) {
  const tfc_string *s = (const tfc_string *)t->data + i;
  return s->len == strlen(want) && (s->len == 0 || memcmp(s->data, want, s->len) == 0);
}

TFC_TEST(strings_length_and_substr) {
  const char *w[3] = {"", "abc", "h\xc3\xa9llo"};
  tfc_tensor *in = strs(3, w);
  call c;
  call_init(&c, TFC_DTYPE_INVALID);
  c.out_types[0] = TFC_DTYPE_INT32;
  CHECK(call_run(&c, "StringLength", 1, &in, 1));
  CHECK_NEAR(at(c.out[0], 2), 6, 0);
  set_str(&c, "unit", "UTF8_CHAR");
  CHECK(call_run(&c, "StringLength", 1, &in, 1));
  CHECK_NEAR(at(c.out[0], 2), 5, 0);
  call_done(&c);
  call_init(&c, TFC_DTYPE_INT32);
  c.out_types[0] = TFC_DTYPE_STRING;
  double p = -2, l = 5;
  tfc_tensor *ins[3] = {in, mk(TFC_DTYPE_INT32, 0, NULL, &p), mk(TFC_DTYPE_INT32, 0, NULL, &l)};
  CHECK(!call_run(&c, "Substr", 3, ins, 1));  /* -2 is before "" */
  CHECK(strstr(c.st.msg, "pos -2 out of range for string b'' at index 0") != NULL);
  tfc_tensor_unref(in);
  const char *w2[2] = {"abcdef", "xyz"};
  ins[0] = in = strs(2, w2);
  CHECK(call_run(&c, "Substr", 3, ins, 1));
  CHECK(str_is(c.out[0], 0, "ef"));
  CHECK(str_is(c.out[0], 1, "yz"));
  for (int i = 0; i < 3; i++) tfc_tensor_unref(ins[i]);
  call_done(&c);
}

TFC_TEST(strings_reduce_join_order) {
  const char *w[4] = {"a", "b", "c", "d"};
  tfc_tensor *flat = strs(4, w);
  int64_t d2[2] = {2, 2};
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *grid = tfc_tensor_new(TFC_DTYPE_STRING, 2, d2, &st);
  for (int i = 0; i < 4; i++) tfc_tensor_set_string(grid, i, w[i], 1, &st);
  int64_t ad[1] = {2};
  double axes[2] = {0, 1};
  tfc_tensor *ins[2] = {grid, mk(TFC_DTYPE_INT32, 1, ad, axes)};
  call c;
  call_init(&c, TFC_DTYPE_INVALID);
  c.out_types[0] = TFC_DTYPE_STRING;
  CHECK(call_run(&c, "ReduceJoin", 2, ins, 1));
  CHECK(str_is(c.out[0], 0, "acbd"));  /* the last listed axis varies slowest */
  tfc_tensor_unref(ins[1]);
  double bad[2] = {0, 0};
  ins[1] = mk(TFC_DTYPE_INT32, 1, ad, bad);
  CHECK(!call_run(&c, "ReduceJoin", 2, ins, 1));
  CHECK(strstr(c.st.msg, "Duplicate reduction dimension 0") != NULL);
  tfc_tensor_unref(ins[0]);
  tfc_tensor_unref(ins[1]);
  tfc_tensor_unref(flat);
  call_done(&c);
}

TFC_TEST(strings_regex_replace_groups_and_empty_matches) {
  const char *w[2] = {"abc", "bob@site"};
  tfc_tensor *in = strs(2, w);
  call c;
  call_init(&c, TFC_DTYPE_INVALID);
  c.out_types[0] = TFC_DTYPE_STRING;
  set_str(&c, "pattern", "x*");
  set_str(&c, "rewrite", "-");
  CHECK(call_run(&c, "StaticRegexReplace", 1, &in, 1));
  CHECK(str_is(c.out[0], 0, "-a-b-c-"));
  set_str(&c, "pattern", "([a-z]+)@([a-z]+)");
  set_str(&c, "rewrite", "\\2 at \\1");
  CHECK(call_run(&c, "StaticRegexReplace", 1, &in, 1));
  CHECK(str_is(c.out[0], 0, "abc"));
  CHECK(str_is(c.out[0], 1, "site at bob"));
  set_str(&c, "pattern", "(");
  CHECK(!call_run(&c, "StaticRegexReplace", 1, &in, 1));
  CHECK_EQ_INT(c.st.code, TFC_CODE_INVALID_ARGUMENT);
  tfc_tensor_unref(in);
  call_done(&c);
}

TFC_TEST(strings_to_number_and_as_string) {
  const char *w[2] = {" 12 ", "1e3"};
  tfc_tensor *in = strs(2, w);
  call c;
  call_init(&c, TFC_DTYPE_INVALID);
  c.out_types[0] = TFC_DTYPE_FLOAT;
  CHECK(call_run(&c, "StringToNumber", 1, &in, 1));
  CHECK_NEAR(at(c.out[0], 1), 1000, 0);
  c.out_types[0] = TFC_DTYPE_INT32;
  CHECK(!call_run(&c, "StringToNumber", 1, &in, 1));
  CHECK(strstr(c.st.msg, "could not correctly convert string: 1e3") != NULL);
  tfc_tensor_unref(in);
  call_done(&c);
  call_init(&c, TFC_DTYPE_DOUBLE);
  c.out_types[0] = TFC_DTYPE_STRING;
  int64_t d[1] = {2};
  double v[2] = {2.5, -0.125};
  tfc_tensor *x = mk(TFC_DTYPE_DOUBLE, 1, d, v);
  set_int(&c, "precision", 2);
  CHECK(call_run(&c, "AsString", 1, &x, 1));
  CHECK(str_is(c.out[0], 0, "2.50"));
  CHECK(str_is(c.out[0], 1, "-0.12") || str_is(c.out[0], 1, "-0.13"));
  tfc_tensor_unref(x);
  call_done(&c);
}

TFC_TEST(strings_hash_bucket_strong_siphash_vector) {
  /* SipHash-2-4 reference: key bytes 00..0f, empty message -> 0x726fdb47dd0e0e31 */
  const char *w[1] = {""};
  tfc_tensor *in = strs(1, w);
  call c;
  call_init(&c, TFC_DTYPE_INVALID);
  c.out_types[0] = TFC_DTYPE_INT64;
  int64_t key[2] = {0x0706050403020100LL, 0x0f0e0d0c0b0a0908LL};
  set_ints(&c, "key", 2, key);
  set_int(&c, "num_buckets", 1000003);
  CHECK(call_run(&c, "StringToHashBucketStrong", 1, &in, 1));
  CHECK_EQ_INT(((int64_t *)c.out[0]->data)[0], (int64_t)(0x726fdb47dd0e0e31ULL % 1000003ULL));
  tfc_tensor_unref(in);
  call_done(&c);
}
