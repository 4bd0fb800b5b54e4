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
typedef struct tfc_ds_writer tfc_ds_writer;
typedef struct tfc_ds_reader tfc_ds_reader;

/* An iterator kind. save writes the iterator's position (and whatever it
 * buffers) so that restore, called on a fresh iterator of an equal dataset
 * that has produced nothing yet, continues where the saved one was. Either
 * may be NULL: saving such an iterator fails with `unsaveable` (a
 * FAILED_PRECONDITION message, TF's "... is stateful."). `name` tags the
 * state so that a state restores only into the same kind. */
typedef struct tfc_iter_vt {
  int (*next)(tfc_iter *it, tfc_tensor **out, tfc_status *st);
  void (*free)(tfc_iter *it);
  bool (*save)(tfc_iter *it, tfc_ds_writer *w, tfc_status *st);
  bool (*restore)(tfc_iter *it, tfc_ds_reader *r, tfc_status *st);
  const char *name;
  const char *unsaveable;
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
  int64_t cardinality;    /* elements it produces: >= 0, TFC_DS_INFINITE or TFC_DS_UNKNOWN */
};

/* TF's INFINITE_CARDINALITY and UNKNOWN_CARDINALITY. */
#define TFC_DS_INFINITE ((int64_t)-1)
#define TFC_DS_UNKNOWN ((int64_t)-2)

/* The object type of datasets. */
extern const tfc_object_type tfc_dataset_object_type;

/* Allocates a dataset of `size` bytes (>= sizeof(tfc_dataset)) with one
 * reference, cardinality TFC_DS_UNKNOWN (the constructor sets what it
 * knows), n components of the given types/shapes (copied). NULL + st. */
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

/* ---- iterator state (dataset_state.c) ----
 * A state is a byte string written and read in one order: each iterator
 * writes its tag, then its numbers, tensors and input iterators; restore
 * reads them back in the same order. Errors: a state cut short or of
 * another dataset is NOT_FOUND (TF's code for a checkpoint whose dataset
 * changed), a value that does not fit DATA_LOSS. */
struct tfc_ds_writer {
  char *buf;
  size_t len, cap;
  bool ignore_external; /* iterators with external state save nothing instead of failing */
};
struct tfc_ds_reader {
  const char *p, *end;
};
/* Appends to w (false + RESOURCE_EXHAUSTED). */
bool tfc_ds_put_i64(tfc_ds_writer *w, int64_t v, tfc_status *st);
bool tfc_ds_put_bytes(tfc_ds_writer *w, const void *p, size_t n, tfc_status *st);
/* A dense tensor (numbers, bools, strings); other dtypes UNIMPLEMENTED. */
bool tfc_ds_put_tensor(tfc_ds_writer *w, const tfc_tensor *t, tfc_status *st);
/* n tensors (an element). */
bool tfc_ds_put_element(tfc_ds_writer *w, tfc_tensor *const *el, int n, tfc_status *st);
/* Reads from r in the order written (false + st). get_bytes points into r. */
bool tfc_ds_get_i64(tfc_ds_reader *r, int64_t *v, tfc_status *st);
bool tfc_ds_get_bytes(tfc_ds_reader *r, const void **p, size_t *n, tfc_status *st);
tfc_tensor *tfc_ds_get_tensor(tfc_ds_reader *r, tfc_status *st);
/* n tensors into el (all or none). */
bool tfc_ds_get_element(tfc_ds_reader *r, tfc_tensor **el, int n, tfc_status *st);
/* Writes it's tag and state (FAILED_PRECONDITION for an unsaveable kind). */
bool tfc_iter_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st);
/* Restores a fresh iterator from r (NOT_FOUND when the tag differs; a kind
 * whose state lies outside tfc, saved with ignore_external, restores
 * nothing and starts afresh). */
bool tfc_iter_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st);
/* Saves an optional iterator (a presence flag, then its state). */
bool tfc_iter_save_opt(tfc_iter *it, tfc_ds_writer *w, tfc_status *st);
/* Restores an optional iterator saved by tfc_iter_save_opt: when one was
 * saved, *it (freed first if set) becomes a fresh iterator of ds restored
 * from r; otherwise *it is freed and set to NULL. */
bool tfc_iter_restore_opt(tfc_iter **it, tfc_dataset *ds, tfc_ds_reader *r, tfc_status *st);

/* Unrefs the n tensors of an element and clears the pointers. */
void tfc_element_clear(tfc_tensor **el, int n);

#endif
