/*
 * dataset.h — tf.data datasets and iterators in C.
 *
 * A dataset is an immutable, refcounted description (a tfc_object held by a
 * DT_VARIANT tensor) that can make any number of iterators. An iterator
 * produces elements (tuples of n tensors) one at a time with next(): 1 and
 * the element's components, 0 at the end of the sequence, -1 with st set.
 * Iterators are used by one thread at a time (the iterator resource
 * serialises get_next), except where a dataset runs a thread of its own
 * (prefetch), which it owns and stops when the iterator is freed.
 */
#ifndef TFC_KERNELS_DATASET_H
#define TFC_KERNELS_DATASET_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "core/object.h"
#include "core/shape.h"
#include "core/tensor.h"

typedef struct tfc_dataset tfc_dataset;
typedef struct tfc_iter tfc_iter;

typedef struct tfc_iter_vt {
  int (*next)(tfc_iter *it, tfc_tensor **out, tfc_status *st);
  void (*free)(tfc_iter *it);
} tfc_iter_vt;

struct tfc_iter {
  const tfc_iter_vt *vt;
};

typedef struct tfc_dataset_vt {
  const char *name;                                        /* the op, for messages */
  tfc_iter *(*make_iter)(tfc_dataset *ds, tfc_status *st); /* a fresh iterator from the start */
  void (*destroy)(tfc_dataset *ds);                        /* frees the kind's fields (not ds) */
} tfc_dataset_vt;

struct tfc_dataset {
  tfc_object base;
  const tfc_dataset_vt *vt;
  int n;                  /* components per element */
  tfc_dtype *types;
  tfc_shape *shapes;      /* declared (may be partial) */
};

/* The object type of datasets. */
extern const tfc_object_type tfc_dataset_object_type;

/* Allocates a dataset of `size` bytes (>= sizeof(tfc_dataset)) with one
 * reference, n components of the given types/shapes (copied). NULL + st. */
tfc_dataset *tfc_dataset_alloc(size_t size, const tfc_dataset_vt *vt, int n, const tfc_dtype *types,
                               const tfc_shape *shapes, tfc_status *st);
/* The dataset in a variant tensor (borrowed), or NULL + st. */
tfc_dataset *tfc_dataset_from_tensor(const tfc_tensor *t, tfc_status *st);
/* Makes an iterator (NULL + st). */
static inline tfc_iter *tfc_dataset_iter(tfc_dataset *ds, tfc_status *st) { return ds->vt->make_iter(ds, st); }
/* Frees an iterator. NULL-safe. */
static inline void tfc_iter_free(tfc_iter *it) {
  if (it) it->vt->free(it);
}

/* Unrefs the n tensors of an element and clears the pointers. */
void tfc_element_clear(tfc_tensor **el, int n);

#endif
