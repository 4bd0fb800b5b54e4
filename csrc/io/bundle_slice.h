/*
 * bundle_slice.h — partitioned tensors in a bundle. A tensor saved in slices
 * has a full entry listing its slices (BundleEntryProto.slices) and one
 * entry per slice under a key that orders after every plain name: TF's
 * "ordered code" of (0, name, rank, start and length of each dimension).
 */
#ifndef TFC_IO_BUNDLE_SLICE_H
#define TFC_IO_BUNDLE_SLICE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"
#include "base/threadpool.h"
#include "io/bundle.h"

/* Appends the index key of slice s of tensor name[0, nlen) to out. */
bool tfc_bundle_slice_key(const char *name, size_t nlen, const tfc_bundle_slice *s, tfc_strbuf *out);

/* Reads one stored (unsliced) tensor of entry e (bundle_reader.c). */
tfc_tensor *tfc_bundle_read_entry(tfc_bundle_reader *r, const char *key, size_t klen,
                                  const tfc_bundle_entry *e, tfc_threadpool *pool, tfc_status *st);

/* Assembles the full tensor of a sliced entry e from its slices' entries. */
tfc_tensor *tfc_bundle_read_sliced(tfc_bundle_reader *r, const char *key, size_t klen,
                                   const tfc_bundle_entry *e, tfc_threadpool *pool, tfc_status *st);

/* Parses a shape_and_slices spec, "<dim0> <dim1> ... <extents>" where the
 * extents are "start,length" or "-" per dimension joined by ':' (TF's
 * TensorSlice text form), e.g. "10 4 0,5:-". Fills the full shape (*rank,
 * dims) and the slice. false + INVALID_ARGUMENT naming the spec. */
bool tfc_bundle_parse_slice_spec(const char *spec, size_t len, int *rank, int64_t *dims,
                                 tfc_bundle_slice *slice, tfc_status *st);

/* The part of full tensor t that slice s covers, as a new tensor. */
tfc_tensor *tfc_bundle_extract_slice(const tfc_tensor *t, const tfc_bundle_slice *s, tfc_status *st);

#endif
