/*
 * main.c — runs the tests registered with TFC_TEST (see harness.h).
 *
 * Usage: ctest [substring] — runs every test, or only those whose name
 * contains the substring. Ends with the line "N passed, N failed" and exits
 * non-zero when any test failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "harness.h"

#define TFC_TEST_MAX 4096

static struct {
  const char *name;
  tfc_test_fn fn;
} g_tests[TFC_TEST_MAX];
static int g_ntests;
static int g_failed_current;

/* Adds a test to the global list; aborts the run if the table is full
 * (a test-binary configuration error, not a runtime condition). */
void tfc_test_register(const char *name, tfc_test_fn fn) {
  if (g_ntests >= TFC_TEST_MAX) {
    fprintf(stderr, "harness: too many tests (max %d)\n", TFC_TEST_MAX);
    exit(2);
  }
  g_tests[g_ntests].name = name;
  g_tests[g_ntests].fn = fn;
  g_ntests++;
}

/* Marks the currently running test as failed. */
void tfc_test_fail(void) { g_failed_current = 1; }

/* Orders tests by name so runs are deterministic regardless of link order. */
static int by_name(const void *a, const void *b) {
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  return strcmp(x, y);
}

/* Runs the selected tests and prints the summary line. */
int main(int argc, char **argv) {
  const char *filter = argc > 1 ? argv[1] : NULL;
  int passed = 0, failed = 0;
  qsort(g_tests, (size_t)g_ntests, sizeof g_tests[0], by_name);
  for (int i = 0; i < g_ntests; i++) {
    if (filter && !strstr(g_tests[i].name, filter)) continue;
    g_failed_current = 0;
    g_tests[i].fn();
    tfc_alloc_fail_after(0); /* a test that failed mid-injection must not poison the next */
    if (g_failed_current) {
      fprintf(stderr, "FAIL %s\n", g_tests[i].name);
      failed++;
    } else {
      passed++;
    }
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
