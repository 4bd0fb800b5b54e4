/*
 * test_core.c — unit tests of csrc/core: dtype, shape, tensor, attr.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "core/dtype.h"
#include "core/resource_handle.h"
#include "core/shape.h"
#include "core/tensor.h"
#include "harness.h"

/* ---------------------------------------------------------------- dtype */

TFC_TEST(dtype_names_and_sizes) {
  CHECK(strcmp(tfc_dtype_name(TFC_DTYPE_FLOAT), "float32") == 0);
  CHECK(strcmp(tfc_dtype_name(TFC_DTYPE_DOUBLE), "float64") == 0);
  CHECK(strcmp(tfc_dtype_name(TFC_DTYPE_HALF), "float16") == 0);
  CHECK(strcmp(tfc_dtype_name(TFC_DTYPE_UINT64), "uint64") == 0);
  CHECK(strcmp(tfc_dtype_name(tfc_dtype_ref(TFC_DTYPE_FLOAT)), "float32_ref") == 0);
  CHECK(strcmp(tfc_dtype_name(TFC_DTYPE_INVALID), "invalid") == 0);
  CHECK(strcmp(tfc_dtype_name((tfc_dtype)77), "invalid") == 0);
  CHECK_EQ_INT(tfc_dtype_size(TFC_DTYPE_FLOAT), 4);
  CHECK_EQ_INT(tfc_dtype_size(TFC_DTYPE_COMPLEX128), 16);
  CHECK_EQ_INT(tfc_dtype_size(TFC_DTYPE_BOOL), 1);
  CHECK_EQ_INT(tfc_dtype_size(TFC_DTYPE_STRING), sizeof(tfc_string));
  CHECK_EQ_INT(tfc_dtype_size(TFC_DTYPE_RESOURCE), sizeof(tfc_string));  /* serialized handles */
  CHECK(tfc_dtype_is_stringlike(TFC_DTYPE_RESOURCE) && tfc_dtype_is_stringlike(TFC_DTYPE_STRING));
  CHECK(!tfc_dtype_is_stringlike(TFC_DTYPE_FLOAT));
  CHECK_EQ_INT(tfc_dtype_size(TFC_DTYPE_INVALID), 0);
  CHECK(tfc_dtype_is_supported(TFC_DTYPE_QINT8));
  CHECK(!tfc_dtype_is_supported(TFC_DTYPE_VARIANT));
  /* every base type's Python name round-trips */
  for (int i = 1; i < TFC_DTYPE_NUM; i++) {
    const char *n = tfc_dtype_name((tfc_dtype)i);
    CHECK_EQ_INT(tfc_dtype_from_name(n, strlen(n)), i);
    n = tfc_dtype_name(tfc_dtype_ref((tfc_dtype)i));
    CHECK_EQ_INT(tfc_dtype_from_name(n, strlen(n)), i + 100);
  }
}

TFC_TEST(dtype_from_name_spellings) {
  CHECK_EQ_INT(tfc_dtype_from_name("float", 5), TFC_DTYPE_FLOAT);
  CHECK_EQ_INT(tfc_dtype_from_name("double", 6), TFC_DTYPE_DOUBLE);
  CHECK_EQ_INT(tfc_dtype_from_name("half", 4), TFC_DTYPE_HALF);
  CHECK_EQ_INT(tfc_dtype_from_name("int32", 5), TFC_DTYPE_INT32);
  CHECK_EQ_INT(tfc_dtype_from_name("int32, x", 5), TFC_DTYPE_INT32); /* length-bounded */
  CHECK_EQ_INT(tfc_dtype_from_name("DT_FLOAT", 8), TFC_DTYPE_FLOAT);
  CHECK_EQ_INT(tfc_dtype_from_name("DT_INT64_REF", 12), TFC_DTYPE_INT64 + 100);
  CHECK_EQ_INT(tfc_dtype_from_name("floaty", 6), TFC_DTYPE_INVALID);
  CHECK_EQ_INT(tfc_dtype_from_name("", 0), TFC_DTYPE_INVALID);
  CHECK_EQ_INT(tfc_dtype_from_name("_ref", 4), TFC_DTYPE_INVALID);
  CHECK_EQ_INT(tfc_dtype_base(tfc_dtype_ref(TFC_DTYPE_INT8)), TFC_DTYPE_INT8);
  CHECK(tfc_dtype_is_ref((tfc_dtype)101));
  CHECK(!tfc_dtype_is_ref(TFC_DTYPE_FLOAT));
}

TFC_TEST(dtype_classes) {
  CHECK(tfc_dtype_is_float(TFC_DTYPE_BFLOAT16) && tfc_dtype_is_float(tfc_dtype_ref(TFC_DTYPE_FLOAT)));
  CHECK(!tfc_dtype_is_float(TFC_DTYPE_INT32));
  CHECK(tfc_dtype_is_integer(TFC_DTYPE_UINT32) && !tfc_dtype_is_integer(TFC_DTYPE_BOOL));
  CHECK(!tfc_dtype_is_integer(TFC_DTYPE_QINT8));
  CHECK(tfc_dtype_is_unsigned(TFC_DTYPE_UINT8) && !tfc_dtype_is_unsigned(TFC_DTYPE_INT8));
  CHECK(tfc_dtype_is_complex(TFC_DTYPE_COMPLEX64) && !tfc_dtype_is_complex(TFC_DTYPE_FLOAT));
  CHECK(tfc_dtype_is_numeric(TFC_DTYPE_QINT32) && tfc_dtype_is_numeric(TFC_DTYPE_COMPLEX128));
  CHECK(!tfc_dtype_is_numeric(TFC_DTYPE_BOOL) && !tfc_dtype_is_numeric(TFC_DTYPE_STRING));
}

/* Reference float→half by exhaustive search over the nearest halves (ties to even). */
static uint16_t ref_to_half(float f) {
  if (isnan(f)) return 0x7e00;
  uint16_t sign = signbit(f) ? 0x8000 : 0;
  double a = fabs((double)f);
  if (a >= 65520.0) return sign | 0x7c00;
  uint16_t best = 0;
  double bestd = INFINITY;
  for (uint32_t h = 0; h < 0x7c00; h++) {
    double d = fabs((double)tfc_half_to_float((uint16_t)h) - a);
    if (d < bestd || (d == bestd && !(h & 1))) {
      bestd = d;
      best = (uint16_t)h;
    }
  }
  return sign | best;
}

TFC_TEST(half_conversions) {
  /* all halves round-trip exactly (NaNs stay NaN) */
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = tfc_half_to_float((uint16_t)h);
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) {
      CHECK(isnan(f));
      CHECK(((tfc_float_to_half(f) & 0x7c00) == 0x7c00) && (tfc_float_to_half(f) & 0x3ff));
    } else {
      CHECK_EQ_INT(tfc_float_to_half(f), h);
    }
  }
  CHECK_NEAR(tfc_half_to_float(0x3c00), 1.0, 0);
  CHECK_NEAR(tfc_half_to_float(0x7bff), 65504.0, 0);
  CHECK_NEAR(tfc_half_to_float(0x0001), 5.960464477539063e-08, 0);
  CHECK(isinf(tfc_half_to_float(0xfc00)) && tfc_half_to_float(0xfc00) < 0);
  CHECK_EQ_INT(tfc_float_to_half(65519.0f), 0x7bff);
  CHECK_EQ_INT(tfc_float_to_half(65520.0f), 0x7c00);
  CHECK_EQ_INT(tfc_float_to_half(1e10f), 0x7c00);
  CHECK_EQ_INT(tfc_float_to_half(-INFINITY), 0xfc00);
  CHECK_EQ_INT(tfc_float_to_half(-0.0f), 0x8000);
  CHECK_EQ_INT(tfc_float_to_half(0x1p-25f), 0);          /* tie → even (0) */
  CHECK_EQ_INT(tfc_float_to_half(0x1.000002p-25f), 1);   /* just above tie */
  CHECK_EQ_INT(tfc_float_to_half(0x1.8p-24f), 2);        /* 1.5 ulp → 2 (even) */
  CHECK_EQ_INT(tfc_float_to_half(1e-30f), 0);
  CHECK_EQ_INT(tfc_float_to_half(1.0f + 0x1p-11f), 0x3c00); /* tie → even */
  CHECK_EQ_INT(tfc_float_to_half(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
  /* midpoints and random-ish values against the reference */
  float probes[] = {0x1.ffcp-15f, 0x1.ffep-15f, 0x1.fffp-15f, 3.14159f, -2.71828f, 1e-5f,
                    6.1e-5f, 0.1f, 1000.3f, 32768.5f, 65504.0f, 65511.0f, 65512.0f, 65519.99f};
  for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
    CHECK_EQ_INT(tfc_float_to_half(probes[i]), ref_to_half(probes[i]));
}

TFC_TEST(bfloat16_conversions) {
  CHECK_EQ_INT(tfc_float_to_bfloat16(1.0f), 0x3f80);
  CHECK_NEAR(tfc_bfloat16_to_float(0x3f80), 1.0, 0);
  CHECK_EQ_INT(tfc_float_to_bfloat16(1.0f + 0x1p-8f), 0x3f80);              /* tie → even */
  CHECK_EQ_INT(tfc_float_to_bfloat16(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);
  CHECK_EQ_INT(tfc_float_to_bfloat16(1.0f + 0x1p-7f + 0x1p-8f), 0x3f82);    /* tie → even up */
  CHECK_EQ_INT(tfc_float_to_bfloat16(INFINITY), 0x7f80);
  CHECK_EQ_INT(tfc_float_to_bfloat16(-INFINITY), 0xff80);
  CHECK_EQ_INT(tfc_float_to_bfloat16(3.4028235e38f), 0x7f80); /* rounds up to inf */
  uint16_t n = tfc_float_to_bfloat16(NAN);
  CHECK((n & 0x7f80) == 0x7f80 && (n & 0x7f));
  CHECK(isnan(tfc_bfloat16_to_float(n)));
  CHECK_EQ_INT(tfc_float_to_bfloat16(0x1p-133f), 0x0001); /* subnormal */
  for (uint32_t b = 0; b < 0x10000; b++) {
    if ((b & 0x7f80) == 0x7f80 && (b & 0x7f)) continue;
    CHECK_EQ_INT(tfc_float_to_bfloat16(tfc_bfloat16_to_float((uint16_t)b)), b);
  }
}

/* ---------------------------------------------------------------- shape */

static void shape_str(const tfc_shape *s, char *buf) { tfc_shape_to_string(s, buf, 64); }

TFC_TEST(shape_basics) {
  char buf[64];
  tfc_shape u = tfc_shape_unknown(), sc = tfc_shape_scalar();
  int64_t d3[] = {2, -1, 3};
  tfc_shape p = tfc_shape_make(3, d3);
  shape_str(&u, buf);
  CHECK(strcmp(buf, "<unknown>") == 0);
  shape_str(&sc, buf);
  CHECK(strcmp(buf, "()") == 0);
  shape_str(&p, buf);
  CHECK(strcmp(buf, "(2, ?, 3)") == 0);
  int64_t d1[] = {5};
  tfc_shape v = tfc_shape_make(1, d1);
  shape_str(&v, buf);
  CHECK(strcmp(buf, "(5,)") == 0);
  tfc_shape uk1 = tfc_shape_unknown_dims(1);
  shape_str(&uk1, buf);
  CHECK(strcmp(buf, "(?,)") == 0);
  char tiny[5];
  tfc_shape_to_string(&p, tiny, sizeof tiny);
  CHECK(strcmp(tiny, "(2, ") == 0);
  CHECK(!tfc_shape_is_fully_defined(&u) && !tfc_shape_is_fully_defined(&p));
  CHECK(tfc_shape_is_fully_defined(&sc));
  CHECK_EQ_INT(tfc_shape_num_elements(&sc), 1);
  CHECK_EQ_INT(tfc_shape_num_elements(&p), -1);
  CHECK_EQ_INT(tfc_shape_num_elements(&v), 5);
  int64_t huge[] = {INT64_MAX / 2, 3};
  tfc_shape h = tfc_shape_make(2, huge);
  CHECK_EQ_INT(tfc_shape_num_elements(&h), -1);
  CHECK_EQ_INT(tfc_shape_make(TFC_MAX_RANK + 1, d3).rank, -1);
  tfc_shape uk = tfc_shape_unknown_dims(2);
  CHECK_EQ_INT(uk.rank, 2);
  CHECK_EQ_INT(uk.dims[1], -1);
}

TFC_TEST(shape_compat_merge) {
  int64_t a[] = {2, -1, 3}, b[] = {-1, 4, 3}, c[] = {2, 5, 3};
  tfc_shape sa = tfc_shape_make(3, a), sb = tfc_shape_make(3, b), sc = tfc_shape_make(3, c);
  tfc_shape u = tfc_shape_unknown(), out;
  CHECK(tfc_shape_compatible(&sa, &sb));
  CHECK(tfc_shape_compatible(&u, &sa));
  CHECK(tfc_shape_merge(&sa, &sb, &out));
  int64_t m[] = {2, 4, 3};
  tfc_shape sm = tfc_shape_make(3, m);
  CHECK(tfc_shape_equal(&out, &sm));
  CHECK(!tfc_shape_compatible(&sm, &sc));
  CHECK(!tfc_shape_merge(&sm, &sc, &out));
  CHECK(tfc_shape_merge(&u, &sa, &out) && tfc_shape_equal(&out, &sa));
  CHECK(tfc_shape_merge(&sa, &u, &sa) && tfc_shape_equal(&sa, &sa)); /* aliasing */
  tfc_shape r2 = tfc_shape_unknown_dims(2);
  CHECK(!tfc_shape_compatible(&r2, &sa));
  CHECK(tfc_shape_equal(&u, &u) && !tfc_shape_equal(&u, &sa));
  CHECK(!tfc_shape_equal(&sa, &sb));
}

TFC_TEST(shape_broadcast) {
  char buf[64];
  int64_t a[] = {2, 1, 3}, b[] = {4, 1}, c[] = {-1, 3}, d[] = {5, 2}, e[] = {5, -1};
  tfc_shape sa = tfc_shape_make(3, a), sb = tfc_shape_make(2, b), sc = tfc_shape_make(2, c);
  tfc_shape sd = tfc_shape_make(2, d), se = tfc_shape_make(2, e), out;
  tfc_shape u = tfc_shape_unknown(), s = tfc_shape_scalar();
  CHECK(tfc_shape_broadcast(&sa, &sb, &out));
  shape_str(&out, buf);
  CHECK(strcmp(buf, "(2, 4, 3)") == 0);
  CHECK(tfc_shape_broadcast(&sa, &sc, &out));
  shape_str(&out, buf);
  CHECK(strcmp(buf, "(2, ?, 3)") == 0); /* 1 vs ? → ? */
  CHECK(!tfc_shape_broadcast(&sc, &sd, &out)); /* 3 vs 2 */
  CHECK(tfc_shape_broadcast(&sc, &se, &out));
  shape_str(&out, buf);
  CHECK(strcmp(buf, "(5, 3)") == 0); /* ? vs 5 → 5, 3 vs ? → 3 */
  CHECK(tfc_shape_broadcast(&s, &sa, &out) && tfc_shape_equal(&out, &sa));
  CHECK(tfc_shape_broadcast(&u, &sa, &out) && out.rank == -1);
  CHECK(tfc_shape_broadcast(&sb, &sa, &sb)); /* aliasing */
  shape_str(&sb, buf);
  CHECK(strcmp(buf, "(2, 4, 3)") == 0);
}

/* ---------------------------------------------------------------- tensor */

TFC_TEST(tensor_new_basics) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t dims[] = {2, 3};
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_FLOAT, 2, dims, &st);
  CHECK_STATUS_OK(&st);
  CHECK(t != NULL);
  CHECK_EQ_INT(t->nelems, 6);
  CHECK_EQ_INT(tfc_tensor_nbytes(t), 24);
  CHECK(((uintptr_t)t->data % 64) == 0);
  CHECK(tfc_tensor_is_exclusive(t));
  float *f = t->data;
  for (int i = 0; i < 6; i++) f[i] = (float)i * 1.5f;
  CHECK_NEAR(tfc_tensor_get_double(t, 3), 4.5, 0);
  CHECK_EQ_INT(tfc_tensor_get_int64(t, 3), 4);
  tfc_shape s = tfc_tensor_shape(t);
  CHECK(s.rank == 2 && s.dims[0] == 2 && s.dims[1] == 3);
  CHECK(tfc_tensor_ref(t) == t);
  CHECK(!tfc_tensor_is_exclusive(t));
  tfc_tensor_unref(t);
  CHECK(tfc_tensor_is_exclusive(t));

  int64_t nd[] = {3, 2};
  tfc_tensor *r = tfc_tensor_reshaped(t, 2, nd, &st);
  CHECK(r != NULL && r->data == t->data && r->buf == t->buf);
  CHECK(!tfc_tensor_is_exclusive(t) && !tfc_tensor_is_exclusive(r));
  CHECK(!tfc_tensor_same_shape(t, r));
  int64_t bad[] = {4, 2};
  CHECK(tfc_tensor_reshaped(t, 2, bad, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  tfc_tensor *c = tfc_tensor_copy(t, &st);
  CHECK(c != NULL && c->data != t->data && tfc_tensor_same_shape(c, t));
  CHECK(memcmp(c->data, t->data, 24) == 0);
  tfc_tensor_unref(t);
  CHECK(tfc_tensor_is_exclusive(r)); /* last holder of the buffer */
  CHECK_NEAR(tfc_tensor_get_double(r, 5), 7.5, 0);
  tfc_tensor_unref(r);
  tfc_tensor_unref(c);
  tfc_tensor_unref(NULL);
  CHECK(tfc_tensor_ref(NULL) == NULL);
}

TFC_TEST(tensor_rejects_bad_args) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t neg[] = {2, -1};
  CHECK(tfc_tensor_new(TFC_DTYPE_FLOAT, 2, neg, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  int64_t huge[] = {INT64_MAX / 2, 4};
  CHECK(tfc_tensor_new(TFC_DTYPE_FLOAT, 2, huge, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  int64_t big[] = {INT64_MAX / 4};
  CHECK(tfc_tensor_new(TFC_DTYPE_DOUBLE, 1, big, &st) == NULL); /* bytes overflow */
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  CHECK(tfc_tensor_new(TFC_DTYPE_VARIANT, 0, NULL, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  CHECK(tfc_tensor_new(TFC_DTYPE_FLOAT, TFC_MAX_RANK + 1, neg, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  int64_t tb[] = {INT64_C(1) << 40, INT64_C(1) << 20}; /* valid size, cannot be allocated */
  CHECK(tfc_tensor_new(TFC_DTYPE_FLOAT, 2, tb, &st) == NULL);
  CHECK(st.code == TFC_CODE_RESOURCE_EXHAUSTED || st.code == TFC_CODE_INVALID_ARGUMENT);
}

TFC_TEST(tensor_empty_and_scalar) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t dims[] = {0, 5};
  tfc_tensor *t = tfc_tensor_zeros(TFC_DTYPE_INT32, 2, dims, &st);
  CHECK(t != NULL);
  CHECK_EQ_INT(t->nelems, 0);
  CHECK(t->buf == NULL && t->data == NULL);
  CHECK_EQ_INT(tfc_tensor_nbytes(t), 0);
  tfc_tensor *c = tfc_tensor_copy(t, &st);
  CHECK(c != NULL && c->nelems == 0);
  tfc_tensor_unref(c);
  tfc_tensor_unref(t);
  int64_t v = -42;
  t = tfc_tensor_scalar(TFC_DTYPE_INT64, &v, &st);
  CHECK(t != NULL && t->rank == 0 && t->nelems == 1);
  CHECK_EQ_INT(tfc_tensor_get_int64(t, 0), -42);
  CHECK_EQ_INT(tfc_tensor_get_int64(t, 1), 0); /* out of range */
  tfc_tensor_unref(t);
  uint16_t h = tfc_float_to_half(2.5f);
  t = tfc_tensor_scalar(TFC_DTYPE_HALF, &h, &st);
  CHECK_NEAR(tfc_tensor_get_double(t, 0), 2.5, 0);
  tfc_tensor_unref(t);
  bool b = true;
  t = tfc_tensor_scalar(TFC_DTYPE_BOOL, &b, &st);
  CHECK_EQ_INT(tfc_tensor_get_int64(t, 0), 1);
  tfc_tensor_unref(t);
  double z[4] = {1, 2, 3, 4};
  int64_t d2[] = {2, 2};
  t = tfc_tensor_zeros(TFC_DTYPE_DOUBLE, 2, d2, &st);
  CHECK(memcmp(t->data, (double[4]){0, 0, 0, 0}, sizeof z) == 0);
  tfc_tensor_unref(t);
  t = tfc_tensor_scalar(TFC_DTYPE_UINT8, NULL, &st);
  CHECK_EQ_INT(tfc_tensor_get_int64(t, 0), 0);
  tfc_tensor_unref(t);
}

TFC_TEST(tensor_strings) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t dims[] = {3};
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_STRING, 1, dims, &st);
  CHECK(t != NULL);
  tfc_string *s = t->data;
  CHECK(s[0].data == NULL && s[0].len == 0);
  CHECK(tfc_tensor_set_string(t, 0, "hello", 5, &st));
  CHECK(tfc_tensor_set_string(t, 2, "a\0b", 3, &st));
  CHECK(tfc_tensor_set_string(t, 0, "bye", 3, &st)); /* replaces, frees old */
  CHECK(!tfc_tensor_set_string(t, 3, "x", 1, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  CHECK(s[0].len == 3 && memcmp(s[0].data, "bye", 3) == 0);
  tfc_tensor *c = tfc_tensor_copy(t, &st);
  CHECK(c != NULL);
  tfc_string *cs = c->data;
  CHECK(cs[0].data != s[0].data && cs[2].len == 3 && memcmp(cs[2].data, "a\0b", 3) == 0);
  CHECK(cs[1].len == 0);
  CHECK_NEAR(tfc_tensor_get_double(t, 0), 0, 0);
  tfc_tensor_unref(t);
  tfc_tensor_unref(c);
  tfc_string v = {"xyz", 3};
  t = tfc_tensor_scalar(TFC_DTYPE_STRING, &v, &st);
  CHECK(t != NULL && ((tfc_string *)t->data)->len == 3);
  tfc_tensor_unref(t);
  int64_t one[] = {1};
  tfc_tensor *f = tfc_tensor_new(TFC_DTYPE_FLOAT, 1, one, &st);
  CHECK(!tfc_tensor_set_string(f, 0, "x", 1, &st));
  tfc_tensor_unref(f);
}

static int g_released;
static void release_cb(void *owner, void *data) {
  g_released++;
  *(int *)owner = 7;
  (void)data;
}

TFC_TEST(tensor_wrap) {
  tfc_status st;
  tfc_status_clear(&st);
  float mem[6] = {1, 2, 3, 4, 5, 6};
  int owner = 0;
  int64_t dims[] = {2, 3};
  g_released = 0;
  tfc_tensor *t = tfc_tensor_wrap(TFC_DTYPE_FLOAT, 2, dims, mem, release_cb, &owner, &st);
  CHECK(t != NULL && t->data == mem);
  CHECK(!tfc_tensor_is_exclusive(t)); /* borrowed memory is never exclusive */
  CHECK_NEAR(tfc_tensor_get_double(t, 5), 6, 0);
  int64_t flat[] = {6};
  tfc_tensor *r = tfc_tensor_reshaped(t, 1, flat, &st);
  tfc_tensor_unref(t);
  CHECK_EQ_INT(g_released, 0);
  tfc_tensor_unref(r);
  CHECK_EQ_INT(g_released, 1);
  CHECK_EQ_INT(owner, 7);
  /* no callback */
  t = tfc_tensor_wrap(TFC_DTYPE_FLOAT, 2, dims, mem, NULL, NULL, &st);
  CHECK(t != NULL);
  tfc_tensor_unref(t);
  /* STRING rejected; failure does not call release */
  CHECK(tfc_tensor_wrap(TFC_DTYPE_STRING, 2, dims, mem, release_cb, &owner, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_alloc_fail_after(2);
  CHECK(tfc_tensor_wrap(TFC_DTYPE_FLOAT, 2, dims, mem, release_cb, &owner, &st) == NULL);
  tfc_alloc_fail_after(0);
  CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
  CHECK_EQ_INT(g_released, 1);
}

TFC_TEST(tensor_alloc_failure) {
  tfc_status st;
  int64_t dims[] = {4, 4};
  for (int k = 1; k <= 2; k++) {
    tfc_status_clear(&st);
    tfc_alloc_fail_after(k);
    tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_FLOAT, 2, dims, &st);
    tfc_alloc_fail_after(0);
    CHECK(t == NULL);
    CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
  }
  /* string copy: fail on each allocation in turn, never leak */
  tfc_status_clear(&st);
  int64_t n3[] = {3};
  tfc_tensor *s = tfc_tensor_new(TFC_DTYPE_STRING, 1, n3, &st);
  for (int i = 0; i < 3; i++) tfc_tensor_set_string(s, i, "abc", 3, &st);
  for (int k = 1; k <= 5; k++) {
    tfc_status_clear(&st);
    tfc_alloc_fail_after(k);
    tfc_tensor *c = tfc_tensor_copy(s, &st);
    tfc_alloc_fail_after(0);
    CHECK(c == NULL);
    CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
  }
  tfc_alloc_fail_after(1);
  CHECK(!tfc_tensor_set_string(s, 0, "zz", 2, &st));
  tfc_alloc_fail_after(0);
  CHECK(((tfc_string *)s->data)[0].len == 3); /* unchanged */
  tfc_tensor_unref(s);
}

/* ---------------------------------------------------------------- attr */

TFC_TEST(attr_values) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_attr_value a = tfc_attr_string("SAME", 4), b;
  CHECK(a.kind == TFC_ATTR_S && strcmp(a.v.s.data, "SAME") == 0);
  CHECK(tfc_attr_value_copy(&b, &a, &st));
  CHECK(b.v.s.data != a.v.s.data && tfc_attr_value_equal(&a, &b));
  tfc_attr_value_clear(&b);
  CHECK(b.kind == TFC_ATTR_NONE);
  tfc_attr_value i1 = tfc_attr_int(3), i2 = tfc_attr_int(3), f1 = tfc_attr_float(NAN);
  CHECK(tfc_attr_value_equal(&i1, &i2) && !tfc_attr_value_equal(&i1, &a));
  CHECK(tfc_attr_value_equal(&f1, &f1));
  tfc_attr_value_clear(&a);

  tfc_attr_value l = tfc_attr_list_new(TFC_ATTR_S, 2);
  CHECK(l.kind == TFC_ATTR_LIST && l.v.list.n == 2);
  tfc_attr_value e0 = tfc_attr_string("x", 1);
  l.v.list.v.s[0] = e0.v.s;
  CHECK(tfc_attr_value_copy(&b, &l, &st) && tfc_attr_value_equal(&b, &l));
  b.v.list.v.s[0].data[0] = 'y';
  CHECK(!tfc_attr_value_equal(&b, &l));
  tfc_attr_value_clear(&b);
  tfc_attr_value_clear(&l);

  int64_t dims[] = {2};
  tfc_tensor *t = tfc_tensor_zeros(TFC_DTYPE_INT32, 1, dims, &st);
  tfc_attr_value tl = tfc_attr_list_new(TFC_ATTR_TENSOR, 1);
  tl.v.list.v.tensor[0] = t; /* takes the reference */
  CHECK(tfc_attr_value_copy(&b, &tl, &st));
  CHECK_EQ_INT(atomic_load(&t->refcount), 2);
  tfc_tensor *t2 = tfc_tensor_copy(t, &st);
  tfc_attr_value tv = {.kind = TFC_ATTR_TENSOR, .v.tensor = t2};
  tfc_attr_value tv0 = {.kind = TFC_ATTR_TENSOR, .v.tensor = t};
  CHECK(tfc_attr_value_equal(&tv, &tv0)); /* same contents */
  ((int32_t *)t2->data)[1] = 5;
  CHECK(!tfc_attr_value_equal(&tv, &tv0));
  tfc_attr_value_clear(&tv);
  tfc_attr_value_clear(&b);
  tfc_attr_value_clear(&tl);

  tfc_attr_value e1 = tfc_attr_list_new(TFC_ATTR_NONE, 0), e2 = tfc_attr_list_new(TFC_ATTR_I, 0);
  CHECK(tfc_attr_value_equal(&e1, &e2));
  tfc_attr_value li = tfc_attr_list_new(TFC_ATTR_I, 3);
  for (int k = 0; k < 3; k++) li.v.list.v.i[k] = k;
  CHECK(tfc_attr_value_copy(&b, &li, &st) && b.v.list.v.i[2] == 2);
  tfc_attr_value_clear(&b);
  tfc_attr_value_clear(&li);
  CHECK(tfc_attr_list_new(TFC_ATTR_I, -1).kind == TFC_ATTR_NONE);
}

TFC_TEST(attrs_map) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_attrs a;
  tfc_attrs_init(&a);
  const char *names[] = {"T", "padding", "strides", "N", "data_format", "a", "zz", "use_cudnn"};
  for (int i = 0; i < 8; i++) {
    tfc_attr_value v = tfc_attr_int(i);
    CHECK(tfc_attrs_set(&a, names[i], &v, &st));
    CHECK(v.kind == TFC_ATTR_NONE);
  }
  CHECK_EQ_INT(a.n, 8);
  for (int i = 1; i < a.n; i++) CHECK(strcmp(a.items[i - 1].name, a.items[i].name) < 0);
  tfc_attr_value p = tfc_attr_string("SAME", 4);
  CHECK(tfc_attrs_set(&a, "padding", &p, &st)); /* replace */
  CHECK_EQ_INT(a.n, 8);
  CHECK(tfc_attrs_string_is(&a, "padding", "SAME"));
  CHECK(!tfc_attrs_string_is(&a, "padding", "VALID"));
  CHECK(!tfc_attrs_string_is(&a, "T", "SAME"));
  int64_t iv;
  CHECK(tfc_attrs_get_int(&a, "zz", &iv, &st) && iv == 6);
  float fv;
  CHECK(!tfc_attrs_get_float(&a, "zz", &fv, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "zz") != NULL);
  tfc_status_clear(&st);
  CHECK(!tfc_attrs_get_int(&a, "missing", &iv, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "missing") != NULL);
  tfc_status_clear(&st);
  const tfc_string *sv;
  CHECK(tfc_attrs_get_string(&a, "padding", &sv, &st) && sv->len == 4);
  tfc_attr_value tv = tfc_attr_type(TFC_DTYPE_DOUBLE), bv = tfc_attr_bool(true);
  tfc_attr_value shv = tfc_attr_shape(tfc_shape_unknown()), lv = tfc_attr_list_new(TFC_ATTR_NONE, 0);
  CHECK(tfc_attrs_set(&a, "T", &tv, &st) && tfc_attrs_set(&a, "b", &bv, &st));
  CHECK(tfc_attrs_set(&a, "shape", &shv, &st) && tfc_attrs_set(&a, "l", &lv, &st));
  tfc_dtype dt;
  bool b;
  tfc_shape sh;
  const tfc_attr_list *lst;
  CHECK(tfc_attrs_get_type(&a, "T", &dt, &st) && dt == TFC_DTYPE_DOUBLE);
  CHECK(tfc_attrs_get_bool(&a, "b", &b, &st) && b);
  CHECK(tfc_attrs_get_shape(&a, "shape", &sh, &st) && sh.rank == -1);
  CHECK(tfc_attrs_get_list(&a, "l", &lst, &st) && lst->n == 0);
  tfc_tensor *tt;
  CHECK(!tfc_attrs_get_tensor(&a, "l", &tt, &st));
  tfc_status_clear(&st);

  tfc_attrs c;
  CHECK(tfc_attrs_copy(&c, &a, &st));
  CHECK_EQ_INT(c.n, a.n);
  for (int i = 0; i < a.n; i++) {
    CHECK(strcmp(c.items[i].name, a.items[i].name) == 0);
    CHECK(tfc_attr_value_equal(&c.items[i].value, &a.items[i].value));
  }
  CHECK(tfc_attrs_find(&c, "nope") == NULL);
  tfc_attrs_destroy(&c);
  CHECK_EQ_INT(c.n, 0);
  tfc_attrs_destroy(&a);
}

TFC_TEST(attrs_oom) {
  tfc_status st;
  tfc_attrs a;
  tfc_attrs_init(&a);
  for (int i = 0; i < 6; i++) {
    char name[16];
    snprintf(name, sizeof name, "s%d", i);
    tfc_attr_value v = tfc_attr_string("val", 3);
    tfc_status_clear(&st);
    CHECK(tfc_attrs_set(&a, name, &v, &st));
  }
  /* copy fails at each allocation in turn without leaking */
  for (int k = 1; k <= 13; k++) {
    tfc_attrs c;
    tfc_status_clear(&st);
    tfc_alloc_fail_after(k);
    bool ok = tfc_attrs_copy(&c, &a, &st);
    tfc_alloc_fail_after(0);
    CHECK(!ok);
    CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
    CHECK(c.n == 0 && c.items == NULL);
  }
  /* set: name copy fails, then realloc fails; value cleared either way */
  for (int k = 1; k <= 2; k++) {
    tfc_attr_value v = tfc_attr_string("x", 1);
    tfc_status_clear(&st);
    tfc_alloc_fail_after(k);
    bool ok = tfc_attrs_set(&a, "zzz", &v, &st);
    tfc_alloc_fail_after(0);
    if (k == 1) CHECK(!ok);
    CHECK(v.kind == TFC_ATTR_NONE);
    if (!ok) CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
  }
  tfc_alloc_fail_after(1);
  tfc_attr_value s = tfc_attr_string("x", 1);
  tfc_attr_value l = tfc_attr_list_new(TFC_ATTR_I, 3);
  tfc_alloc_fail_after(0);
  CHECK(s.kind == TFC_ATTR_NONE && l.kind == TFC_ATTR_NONE);
  tfc_attrs_destroy(&a);
}

TFC_TEST(core_resource_handle_round_trip) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_shape shape = tfc_shape_make(2, (const int64_t[]){3, -1});
  char *bytes = NULL;
  size_t len = 0;
  CHECK(tfc_resource_handle_encode("/job:ps/replica:0/task:0/device:CPU:0", "localhost", "w/Adam",
                                   TFC_DTYPE_FLOAT, &shape, &bytes, &len, &st));
  CHECK_STATUS_OK(&st);
  tfc_resource_handle h;
  CHECK(tfc_resource_handle_decode(bytes, len, &h, &st));
  CHECK(h.container_len == 9 && memcmp(h.container, "localhost", 9) == 0);
  CHECK(h.name_len == 6 && memcmp(h.name, "w/Adam", 6) == 0);
  CHECK(h.device_len == 37 && memcmp(h.device, "/job:ps", 7) == 0);
  CHECK(h.type_name_len == strlen(TFC_RESOURCE_VAR_TYPE_NAME));
  /* a DT_RESOURCE tensor owns its handle bytes like a string element */
  tfc_string e = {bytes, len};
  tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_RESOURCE, &e, &st);
  CHECK(t != NULL);
  tfc_tensor *c = tfc_tensor_copy(t, &st);
  CHECK(c != NULL && ((tfc_string *)c->data)->len == len);
  tfc_tensor_unref(c);
  tfc_tensor_unref(t);
  tfc_free(bytes);
  /* truncated bytes are INVALID_ARGUMENT, never a crash */
  CHECK(!tfc_resource_handle_decode("\x12\x09loc", 5, &h, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  CHECK(!tfc_resource_handle_decode("\x0f", 1, &h, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
}
