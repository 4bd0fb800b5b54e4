/*
 * dataset_generator.h — the hooks through which a generator dataset calls
 * a Python generator (Dataset.from_generator). The kernels layer knows no
 * Python: the extension module installs these hooks when it loads; they
 * take the GIL only around the calls into Python.
 */
#ifndef TFC_KERNELS_DATASET_GENERATOR_H
#define TFC_KERNELS_DATASET_GENERATOR_H

#include <stdint.h>

#include "base/status.h"
#include "core/tensor.h"

typedef struct tfc_generator_hooks {
  /* Starts the generator registered under token; returns its state or NULL + st. */
  void *(*open)(int64_t token, tfc_status *st);
  /* The next element as n tensors of the given types: 1, 0 at the end, -1 + st. */
  int (*next)(void *state, int n, const tfc_dtype *types, tfc_tensor **out, tfc_status *st);
  /* Drops the state. */
  void (*close)(void *state);
} tfc_generator_hooks;

/* Installs the hooks (the last call wins); NULL uninstalls. */
void tfc_generator_set_hooks(const tfc_generator_hooks *hooks);

#endif
