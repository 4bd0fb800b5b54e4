/*
 * lookup_table.h — TF's lookup tables as session resources: the object a
 * HashTableV2 / MutableHashTableV2 / MutableHashTableOfTensorsV2 /
 * MutableDenseHashTableV2 handle holds, and the operations the
 * LookupTable*V2 and InitializeTable*V2 kernels apply to it.
 *
 * Keys are scalars (int32, int64 or string; a dense table may also have
 * vector keys of a fixed length); values are rows of value_shape elements
 * (bool, int32, int64, float, double or string). Three kinds:
 *  - HASH: TF's HashTable, filled once by an initializer (a second
 *    initialization with the same entries is a no-op, with others
 *    FAILED_PRECONDITION); finds on an uninitialized table fail;
 *  - MUTABLE: TF's MutableHashTable(OfTensors): insert, remove, import;
 *  - DENSE: TF's MutableDenseHashTable, open addressing over a power-of-two
 *    bucket array with TF's hashing and probing, so that export returns the
 *    same buckets, in the same order, as TensorFlow.
 * Every operation takes the table's lock; finds run under a shared lock.
 * Errors and messages are TF's (lookup_interface.cc, lookup_table_op.cc).
 */
#ifndef TFC_KERNELS_LOOKUP_TABLE_H
#define TFC_KERNELS_LOOKUP_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "core/object.h"
#include "core/shape.h"
#include "core/tensor.h"

typedef enum tfc_lookup_kind { TFC_LOOKUP_HASH, TFC_LOOKUP_MUTABLE, TFC_LOOKUP_DENSE } tfc_lookup_kind;

typedef struct tfc_lookup_config {
  tfc_lookup_kind kind;
  tfc_dtype key_dtype, value_dtype;
  tfc_shape value_shape;          /* fully defined; scalar for HASH / MUTABLE */
  /* DENSE only: */
  const tfc_tensor *empty_key;    /* key_shape is its shape */
  const tfc_tensor *deleted_key;
  int64_t initial_num_buckets;    /* a power of two */
  float max_load_factor;          /* (0, 1] */
  const char *name;               /* for messages */
} tfc_lookup_config;

typedef struct tfc_lookup_table tfc_lookup_table;

/* The object type of every lookup table (for the resource manager). */
const tfc_object_type *tfc_lookup_object_type(void);
/* New empty table (one reference) or NULL + st: INVALID_ARGUMENT for
 * unsupported dtypes or bad dense-table settings, RESOURCE_EXHAUSTED on OOM. */
tfc_lookup_table *tfc_lookup_new(const tfc_lookup_config *cfg, tfc_status *st);
/* The table's kind, dtypes and value shape. */
tfc_lookup_kind tfc_lookup_kind_of(const tfc_lookup_table *t);
tfc_dtype tfc_lookup_key_dtype(const tfc_lookup_table *t);
tfc_dtype tfc_lookup_value_dtype(const tfc_lookup_table *t);
/* Number of entries (an uninitialized HASH table has 0). */
int64_t tfc_lookup_size(tfc_lookup_table *t);
/* True once a HASH table was initialized (always true for the other kinds). */
bool tfc_lookup_is_initialized(tfc_lookup_table *t);

/* Values of `keys` (shape K + key_shape) as a new tensor of shape K +
 * value_shape; missing keys take default_value (of shape value_shape, or of
 * the full output shape). NULL + st on a dtype/shape mismatch or (HASH) when
 * not initialized. */
tfc_tensor *tfc_lookup_find(tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *default_value,
                            tfc_status *st);
/* Inserts or overwrites keys -> values (MUTABLE, DENSE). */
bool tfc_lookup_insert(tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *values, tfc_status *st);
/* Removes keys (absent ones are ignored) (MUTABLE, DENSE). */
bool tfc_lookup_remove(tfc_lookup_table *t, const tfc_tensor *keys, tfc_status *st);
/* Initializes a HASH table with keys -> values (once; see above). */
bool tfc_lookup_initialize(tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *values,
                           tfc_status *st);
/* All entries as two new tensors (for DENSE: the whole bucket arrays, as TF). */
bool tfc_lookup_export(tfc_lookup_table *t, tfc_tensor **keys, tfc_tensor **values, tfc_status *st);
/* Replaces the contents with keys -> values (HASH: initializes; DENSE: the
 * bucket arrays of an export). */
bool tfc_lookup_import(tfc_lookup_table *t, const tfc_tensor *keys, const tfc_tensor *values, tfc_status *st);

#endif
