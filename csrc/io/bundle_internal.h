/*
 * bundle_internal.h — shared by the bundle writer, reader and merge files:
 * the BundleHeaderProto/BundleEntryProto codec (bundle_codec.c, the only io
 * file that sees protobuf-c) and file helpers (bundle_file.c).
 */
#ifndef TFC_IO_BUNDLE_INTERNAL_H
#define TFC_IO_BUNDLE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "io/bundle.h"

/* The header written by this library: one producer version, little endian. */
#define TFC_BUNDLE_VERSION 1
/* Most shards a header may declare (file names hold five digits, usually). */
#define TFC_BUNDLE_MAX_SHARDS (1 << 20)

/* A serialized BundleHeaderProto for num_shards into *data (tfc_free it). */
bool tfc_bundle_header_encode(int num_shards, uint8_t **data, size_t *len, tfc_status *st);
/* Decodes and checks a header (little endian, version readable by this
 * library); *num_shards >= 1. false + DATA_LOSS / UNIMPLEMENTED. */
bool tfc_bundle_header_decode(const uint8_t *data, size_t len, int *num_shards, tfc_status *st);
/* A serialized BundleEntryProto of e into *data (tfc_free it). */
bool tfc_bundle_entry_encode(const tfc_bundle_entry *e, uint8_t **data, size_t *len,
                             tfc_status *st);
/* Decodes and checks an entry: known dtype, valid shape, non-negative
 * offset/size. false + DATA_LOSS naming `key`. */
bool tfc_bundle_entry_decode(const uint8_t *data, size_t len, const char *key, size_t klen,
                             tfc_bundle_entry *e, tfc_status *st);

/* A serialized VariantTensorDataProto {type_name, metadata} (no tensors)
 * into *data (tfc_free it). */
bool tfc_bundle_variant_encode(const char *type_name, const void *meta, size_t mlen, uint8_t **data,
                               size_t *len, tfc_status *st);
/* Decodes a VariantTensorDataProto into new copies of its type name and
 * metadata (tfc_free both); its tensors are not kept. false + DATA_LOSS. */
bool tfc_bundle_variant_decode(const uint8_t *data, size_t len, char **type_name, uint8_t **meta,
                               size_t *mlen, tfc_status *st);

/* A tensor name and its entry, as an index is built from. */
typedef struct tfc_bundle_keyed {
  char *key;
  size_t klen;
  tfc_bundle_entry e;
} tfc_bundle_keyed;

/* A tfc_malloc'd copy of the n bytes at p plus a NUL (keys may hold NUL
 * bytes, so strndup does not do). NULL on OOM. */
char *tfc_io_dup_bytes(const void *p, size_t n);

/* Sorts entries by key bytes; INVALID_ARGUMENT "Adding duplicate key: <k>"
 * when a key repeats. */
bool tfc_bundle_sort_keyed(tfc_bundle_keyed *entries, size_t n, tfc_status *st);
/* Writes the index of num_shards shards holding the sorted entries to
 * index_path (a temporary file renamed into place). */
bool tfc_bundle_write_index(const tfc_bundle_keyed *entries, size_t n, int num_shards,
                            const char *index_path, tfc_status *st);

/* Sets st from errno for an operation on path: "<what><path>; <strerror>"
 * with TF's errno -> code mapping. Returns false. */
bool tfc_io_errno_status(tfc_status *st, int err, const char *what, const char *path);
/* Creates the directory part of path and its parents (like mkdir -p). */
bool tfc_io_make_parent_dirs(const char *path, tfc_status *st);
/* Writes n bytes at the file's current position, retrying short writes. */
bool tfc_io_write_all(int fd, const void *data, size_t n, const char *path, tfc_status *st);
/* Reads exactly n bytes at offset into buf; OUT_OF_RANGE "Read less bytes
 * than requested" when the file ends first. */
bool tfc_io_pread_all(int fd, void *buf, size_t n, uint64_t offset, const char *path,
                      tfc_status *st);
/* Reads a whole file into a new tfc_malloc'd buffer. */
bool tfc_io_read_file(const char *path, uint8_t **data, size_t *len, tfc_status *st);
/* Writes data to path through "<path>.tempstate<random>" and a rename. */
bool tfc_io_write_file_atomic(const char *path, const void *data, size_t len, tfc_status *st);
/* "<path>.tempstate<random decimal>" in a new tfc_malloc'd string. */
char *tfc_io_temp_name(const char *path);

#endif
