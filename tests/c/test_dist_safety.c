/*
 * test_dist_safety.c — the distributed runtime's deadline timers and token check.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "distributed/deadline.h"
#include "distributed/security.h"
#include "harness.h"

static void bump(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }

/* Milliseconds of CLOCK_MONOTONIC. */
static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

TFC_TEST(timer_fires_once_after_its_delay) {
  atomic_int n = 0;
  long long t0 = now_ms();
  tfc_timer *t = tfc_timer_start(30, bump, &n);
  CHECK(t != NULL);
  while (atomic_load(&n) == 0 && now_ms() - t0 < 5000) usleep(1000);
  CHECK(atomic_load(&n) == 1);
  CHECK(now_ms() - t0 >= 29);
  CHECK(tfc_timer_cancel(t)); /* it fired */
  CHECK(atomic_load(&n) == 1);
}

TFC_TEST(timer_cancelled_before_due_never_fires) {
  atomic_int n = 0;
  tfc_timer *late = tfc_timer_start(60000, bump, &n);
  tfc_timer *soon = tfc_timer_start(20, bump, &n);
  tfc_timer *mid = tfc_timer_start(5000, bump, &n);
  CHECK(late && soon && mid);
  CHECK(!tfc_timer_cancel(mid));
  usleep(80000);
  CHECK(atomic_load(&n) == 1); /* only `soon` */
  CHECK(!tfc_timer_cancel(late));
  CHECK(tfc_timer_cancel(soon));
  CHECK(!tfc_timer_cancel(NULL));
}

TFC_TEST(token_matches_only_the_bearer_form) {
  CHECK(tfc_security_token_matches("s3cret", "Bearer s3cret", 13));
  CHECK(!tfc_security_token_matches("s3cret", "Bearer s3cre", 12));
  CHECK(!tfc_security_token_matches("s3cret", "Bearer s3creT", 13));
  CHECK(!tfc_security_token_matches("s3cret", "bearer s3cret", 13));
  CHECK(!tfc_security_token_matches("s3cret", "s3cret", 6));
  CHECK(!tfc_security_token_matches("s3cret", "", 0));
}

TFC_TEST(security_settings_from_the_environment) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_security sec;
  setenv("TFC_TLS_CERT", "/nonexistent/cert.pem", 1);
  unsetenv("TFC_TLS_KEY");
  CHECK(!tfc_security_load(&sec, true, &st)); /* a certificate without its key */
  CHECK(st.code == TFC_CODE_INVALID_ARGUMENT);
  setenv("TFC_TLS_KEY", "/nonexistent/key.pem", 1);
  tfc_status_clear(&st);
  CHECK(!tfc_security_load(&sec, true, &st));
  CHECK(strstr(st.msg, "/nonexistent/cert.pem") != NULL);
  unsetenv("TFC_TLS_CERT");
  unsetenv("TFC_TLS_KEY");
  setenv("TFC_MAX_MESSAGE_BYTES", "1024", 1);
  tfc_status_clear(&st);
  CHECK(tfc_security_load(&sec, true, &st));
  CHECK(sec.max_message == 1024 && sec.cert_pem == NULL);
  tfc_security_free(&sec);
  unsetenv("TFC_MAX_MESSAGE_BYTES");
}
