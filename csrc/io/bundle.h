/*
 * bundle.h — V2 checkpoints ("tensor bundles"): a prefix names the files
 *
 *   <prefix>.index                   a table (io/table.h): "" -> BundleHeaderProto,
 *                                    tensor name -> BundleEntryProto, sorted
 *   <prefix>.data-NNNNN-of-MMMMM     the tensors' bytes, one file per shard
 *
 * A numeric tensor is stored as its raw little-endian bytes; a string tensor
 * as the varint lengths of its elements, the masked CRC-32C of those lengths
 * (each as a 4-byte integer), then the bytes. Each entry carries the masked
 * CRC-32C of what was stored; readers check it.
 *
 *   tfc_bundle_writer *w = tfc_bundle_writer_new("/tmp/model.ckpt-7", st);
 *   tfc_bundle_writer_add(w, "w1", 2, tensor, pool, st);   // any order
 *   tfc_bundle_writer_finish(w, st);                       // files appear now
 *   tfc_bundle_writer_free(w);
 *
 * The writer writes "<file>.tempstate<random>" files and renames them into
 * place in finish (data first, then the index), so a process killed while
 * saving never leaves a half-written file under a checkpoint's name; freeing
 * an unfinished writer removes its temporary files.
 *
 * The reader decodes the index on open and reads tensors on demand. Errors
 * are TF's: NOT_FOUND for a missing file or key ("Key w1 not found in
 * checkpoint"), DATA_LOSS for a corrupt table or a checksum mismatch
 * ("Checksum does not match: ..."), OUT_OF_RANGE for a short data file ("Read
 * less bytes than requested"). Nothing a file holds can make it crash.
 */
#ifndef TFC_IO_BUNDLE_H
#define TFC_IO_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "base/threadpool.h"
#include "core/tensor.h"

/* One extent of a slice: start and length (-1: the whole dimension). */
typedef struct tfc_bundle_extent {
  int64_t start, length;
} tfc_bundle_extent;

/* A stored slice of a partitioned tensor: one extent per dimension. */
typedef struct tfc_bundle_slice {
  int rank;
  tfc_bundle_extent extent[TFC_MAX_RANK];
} tfc_bundle_slice;

/* A decoded BundleEntryProto. */
typedef struct tfc_bundle_entry {
  tfc_dtype dtype;
  int rank;
  int64_t dims[TFC_MAX_RANK];
  int32_t shard_id;
  int64_t offset, size;
  uint32_t crc32c;               /* masked, as stored */
  int n_slices;                  /* > 0: the tensor is stored as these slices */
  tfc_bundle_slice *slices;      /* owned (tfc_bundle_entry_clear) */
} tfc_bundle_entry;

/* Frees what e owns. */
void tfc_bundle_entry_clear(tfc_bundle_entry *e);

/* "<prefix>.data-%05d-of-%05d" / "<prefix>.index" into a new tfc_malloc'd string (NULL on OOM). */
char *tfc_bundle_data_filename(const char *prefix, int shard, int num_shards);
char *tfc_bundle_index_filename(const char *prefix);

/* ---------------------------------------------------------------- writer */

typedef struct tfc_bundle_writer tfc_bundle_writer;

/* Starts a one-shard bundle at prefix (creating missing parent directories).
 * NULL + st (the file system's error naming the path, or RESOURCE_EXHAUSTED). */
tfc_bundle_writer *tfc_bundle_writer_new(const char *prefix, tfc_status *st);
/* Appends tensor t under key[0, klen). Numeric tensors of several MiB are
 * checksummed on `pool` (may be NULL). INVALID_ARGUMENT for a duplicate key
 * or an unsupported dtype; I/O errors as the file system reports them. After
 * an error the writer only accepts free. */
bool tfc_bundle_writer_add(tfc_bundle_writer *w, const char *key, size_t klen, const tfc_tensor *t,
                           tfc_threadpool *pool, tfc_status *st);
/* Appends the part `slice` of a tensor of full shape (rank, dims) stored
 * under key (a partitioned variable's piece): the data goes under the
 * slice's own key, and key's entry (dtype, full shape) lists the slice.
 * INVALID_ARGUMENT when t's shape is not the slice's, or when dtype or full
 * shape differ from an earlier slice of the same key. */
bool tfc_bundle_writer_add_slice(tfc_bundle_writer *w, const char *key, size_t klen, int rank,
                                 const int64_t *dims, const tfc_bundle_slice *slice,
                                 const tfc_tensor *t, tfc_threadpool *pool, tfc_status *st);
/* Writes the index and renames both files into place. */
bool tfc_bundle_writer_finish(tfc_bundle_writer *w, tfc_status *st);
/* Frees the writer, removing its temporary files if it did not finish. NULL-safe. */
void tfc_bundle_writer_free(tfc_bundle_writer *w);

/* ---------------------------------------------------------------- reader */

typedef struct tfc_bundle_reader tfc_bundle_reader;

/* Opens the bundle at prefix (reads and checks its index). NULL + st:
 * NOT_FOUND when there is no index file, DATA_LOSS when it is corrupt. */
tfc_bundle_reader *tfc_bundle_reader_open(const char *prefix, tfc_status *st);
/* As tfc_bundle_reader_open, from index bytes held in memory (data files are
 * still looked up beside prefix). For tests and fuzzing. */
tfc_bundle_reader *tfc_bundle_reader_open_index(const char *prefix, const void *index,
                                                size_t len, tfc_status *st);
/* The number of shards the header declares. */
int tfc_bundle_reader_num_shards(const tfc_bundle_reader *r);
/* Number of tensor names in the bundle (the header and slice keys excluded). */
size_t tfc_bundle_reader_count(const tfc_bundle_reader *r);
/* Name i (sorted) and its entry, decoded into *e (clear it afterwards).
 * false + DATA_LOSS when the stored entry is corrupt. */
bool tfc_bundle_reader_entry_at(const tfc_bundle_reader *r, size_t i, const char **name,
                                size_t *nlen, tfc_bundle_entry *e, tfc_status *st);
/* The entry of key[0, klen) into *e. false + NOT_FOUND "Key <key> not found
 * in checkpoint" or DATA_LOSS. */
bool tfc_bundle_reader_lookup(const tfc_bundle_reader *r, const char *key, size_t klen,
                              tfc_bundle_entry *e, tfc_status *st);
/* Reads the whole tensor stored under key into a new tensor (slices of a
 * partitioned tensor are assembled). Large reads are split over `pool`
 * (may be NULL). NULL + st. Thread-safe for concurrent reads. */
tfc_tensor *tfc_bundle_reader_read(tfc_bundle_reader *r, const char *key, size_t klen,
                                   tfc_threadpool *pool, tfc_status *st);
/* Frees the reader. NULL-safe. */
void tfc_bundle_reader_free(tfc_bundle_reader *r);

/* ---------------------------------------------------------------- merge */

/* Merges the one- or many-shard bundles at prefixes[0, n) into one bundle at
 * dest: data files are renamed to dest's shard names, a merged index is
 * written (the slice lists of a partitioned tensor saved in several sources
 * are joined), the source indexes are deleted, and with delete_old_dirs the
 * sources' directories are removed when empty. A missing source index fails
 * with NOT_FOUND unless allow_missing_files. */
bool tfc_bundle_merge(const char *const *prefixes, int n, const char *dest, bool delete_old_dirs,
                      bool allow_missing_files, tfc_status *st);

#endif
