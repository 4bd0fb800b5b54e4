/*
 * harness.h — a tiny C unit-test harness.
 *
 *   TFC_TEST(my_test) { CHECK(1 + 1 == 2); CHECK_EQ_INT(f(), 3); }
 *
 * TFC_TEST defines a test function and registers it (via a constructor) in a
 * global list that tests/c/main.c runs. A failing CHECK* prints file:line and
 * the expression, marks the current test failed and returns from it.
 */
#ifndef TFC_TESTS_HARNESS_H
#define TFC_TESTS_HARNESS_H

#include <math.h>
#include <stdio.h>

#include "base/status.h"

typedef void (*tfc_test_fn)(void);

/* Registers a test (called from constructors); defined in main.c. */
void tfc_test_register(const char *name, tfc_test_fn fn);
/* Marks the running test failed; defined in main.c. */
void tfc_test_fail(void);

#define TFC_TEST(name)                                                         \
  static void tfc_test_##name(void);                                           \
  __attribute__((constructor)) static void tfc_test_reg_##name(void) {         \
    tfc_test_register(#name, tfc_test_##name);                                 \
  }                                                                            \
  static void tfc_test_##name(void)

#define TFC_FAIL_(...)                                                         \
  do {                                                                         \
    fprintf(stderr, "%s:%d: FAILED: ", __FILE__, __LINE__);                    \
    fprintf(stderr, __VA_ARGS__);                                              \
    fputc('\n', stderr);                                                       \
    tfc_test_fail();                                                           \
    return;                                                                    \
  } while (0)

#define CHECK(c)                                                               \
  do { if (!(c)) TFC_FAIL_("CHECK(%s)", #c); } while (0)
#define CHECK_EQ_INT(a, b)                                                     \
  do {                                                                         \
    long long a_ = (long long)(a), b_ = (long long)(b);                        \
    if (a_ != b_) TFC_FAIL_("CHECK_EQ_INT(%s, %s): %lld != %lld", #a, #b, a_, b_); \
  } while (0)
#define CHECK_NEAR(a, b, tol)                                                  \
  do {                                                                         \
    double a_ = (double)(a), b_ = (double)(b);                                 \
    if (!(fabs(a_ - b_) <= (double)(tol)))                                     \
      TFC_FAIL_("CHECK_NEAR(%s, %s, %s): %.9g vs %.9g", #a, #b, #tol, a_, b_); \
  } while (0)
#define CHECK_STATUS_OK(st)                                                    \
  do {                                                                         \
    const tfc_status *s_ = (st);                                               \
    if (s_->code != TFC_CODE_OK)                                               \
      TFC_FAIL_("CHECK_STATUS_OK(%s): %s: %s", #st, tfc_code_name(s_->code), s_->msg); \
  } while (0)
#define CHECK_CODE(st, c)                                                      \
  do {                                                                         \
    const tfc_status *s_ = (st);                                               \
    if (s_->code != (c))                                                       \
      TFC_FAIL_("CHECK_CODE(%s, %s): got %s: %s", #st, #c, tfc_code_name(s_->code), s_->msg); \
  } while (0)

#endif
