/*
 * fuzz_common.h — shared by the libFuzzer targets in tests/fuzz/.
 *
 * An invariant that fails is a bug in the code under test: FUZZ_ASSERT
 * prints the condition and aborts, which libFuzzer reports as a crash and
 * saves the input as a reproducer.
 */
#ifndef TFC_TESTS_FUZZ_COMMON_H
#define TFC_TESTS_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_ASSERT(cond, ...)                                                 \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: invariant failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      abort();                                                                 \
    }                                                                          \
  } while (0)

#endif
