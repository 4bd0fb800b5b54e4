/*
 * bundle_merge.c — MergeV2Checkpoints: folds the bundles written per device
 * into one. Every source's data files are renamed to the destination's shard
 * names (shard ids renumbered in source order), the merged index is written
 * (a temporary file renamed into place), then the source indexes are
 * deleted and, if asked, their directories when they are empty.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "io/bundle_internal.h"
#include "io/table.h"

/* The directory part of path in a new string ("." when none). */
static char *dirname_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return tfc_strdup(".");
  if (slash == path) return tfc_strdup("/");
  return tfc_strndup(path, (size_t)(slash - path));
}

/* Appends every tensor entry of one source (shard ids shifted by base). */
static bool collect(const char *prefix, const uint8_t *index, size_t len, int base, int *num_shards,
                    tfc_bundle_keyed **all, size_t *n, size_t *cap, tfc_status *st) {
  tfc_table *t = tfc_table_open(index, len, st);
  if (!t) return false;
  const tfc_table_entry *h = tfc_table_count(t) ? tfc_table_at(t, 0) : NULL;
  bool ok = h && h->klen == 0;
  if (!ok) tfc_status_set(st, TFC_CODE_DATA_LOSS, "Checkpoint index of %s has no header entry", prefix);
  ok = ok && tfc_bundle_header_decode(h->val, h->vlen, num_shards, st);
  for (size_t i = 1; ok && i < tfc_table_count(t); i++) {
    const tfc_table_entry *te = tfc_table_at(t, i);
    if (*n == *cap) {
      size_t c = *cap ? 2 * *cap : 64;
      tfc_bundle_keyed *a = tfc_realloc(*all, c * sizeof *a);
      if (!a) {
        ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
        break;
      }
      *all = a;
      *cap = c;
    }
    tfc_bundle_keyed *k = &(*all)[*n];
    memset(k, 0, sizeof *k);
    ok = tfc_bundle_entry_decode(te->val, te->vlen, (const char *)te->key, te->klen, &k->e, st);
    if (!ok) break;
    if (k->e.shard_id >= *num_shards) {
      tfc_bundle_entry_clear(&k->e);
      ok = tfc_status_set(st, TFC_CODE_DATA_LOSS, "Entry in %s names shard %d of %d", prefix,
                          (int)k->e.shard_id, *num_shards);
      break;
    }
    k->key = tfc_io_dup_bytes(te->key, te->klen);
    if (!k->key) {
      tfc_bundle_entry_clear(&k->e);
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
      break;
    }
    k->klen = te->klen;
    if (k->e.n_slices == 0) k->e.shard_id += base;  /* a sliced tensor's full entry has no data */
    (*n)++;
  }
  tfc_table_free(t);
  return ok;
}

/* qsort comparator by key bytes. */
static int cmp_keyed(const void *a, const void *b) {
  const tfc_bundle_keyed *x = a, *y = b;
  size_t m = x->klen < y->klen ? x->klen : y->klen;
  int c = m ? memcmp(x->key, y->key, m) : 0;
  if (c) return c;
  return x->klen < y->klen ? -1 : x->klen > y->klen;
}

/* Sorts the entries and joins the slice lists of a partitioned tensor's full
 * entries that several sources hold (same dtype and shape required); other
 * repeated keys are left for tfc_bundle_sort_keyed to refuse. */
static bool join_slices(tfc_bundle_keyed *all, size_t *n, tfc_status *st) {
  if (*n) qsort(all, *n, sizeof *all, cmp_keyed);
  size_t out = 0;
  for (size_t i = 0; i < *n; i++) {
    tfc_bundle_keyed *prev = out ? &all[out - 1] : NULL;
    tfc_bundle_keyed *cur = &all[i];
    if (prev && cmp_keyed(prev, cur) == 0 && prev->e.n_slices > 0 && cur->e.n_slices > 0) {
      bool same = prev->e.dtype == cur->e.dtype && prev->e.rank == cur->e.rank;
      for (int d = 0; same && d < cur->e.rank; d++) same = prev->e.dims[d] == cur->e.dims[d];
      if (!same)
        return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                              "Slices of %.*s disagree on dtype or full shape", (int)cur->klen,
                              cur->key);
      tfc_bundle_slice *sl = tfc_realloc(
          prev->e.slices, sizeof *sl * (size_t)(prev->e.n_slices + cur->e.n_slices));
      if (!sl) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
      memcpy(sl + prev->e.n_slices, cur->e.slices, sizeof *sl * (size_t)cur->e.n_slices);
      prev->e.slices = sl;
      prev->e.n_slices += cur->e.n_slices;
      tfc_free(cur->key);
      tfc_bundle_entry_clear(&cur->e);
      continue;
    }
    if (out != i) all[out] = *cur;
    out++;
  }
  *n = out;
  return true;
}

bool tfc_bundle_merge(const char *const *prefixes, int n, const char *dest, bool delete_old_dirs,
                      bool allow_missing_files, tfc_status *st) {
  tfc_bundle_keyed *all = NULL;
  size_t count = 0, cap = 0;
  int total = 0;
  int *shards = tfc_calloc((size_t)(n > 0 ? n : 1), sizeof *shards);
  bool *present = tfc_calloc((size_t)(n > 0 ? n : 1), sizeof *present);
  char *dest_index = tfc_bundle_index_filename(dest);
  bool ok = shards && present && dest_index;
  if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  for (int i = 0; ok && i < n; i++) {
    char *path = tfc_bundle_index_filename(prefixes[i]);
    uint8_t *data = NULL;
    size_t len = 0;
    tfc_status sub;
    tfc_status_clear(&sub);
    if (!path) {
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    } else if (!tfc_io_read_file(path, &data, &len, &sub)) {
      if (sub.code == TFC_CODE_NOT_FOUND && allow_missing_files) {
        /* skipped */
      } else if (sub.code == TFC_CODE_NOT_FOUND) {
        ok = tfc_status_set(st, TFC_CODE_NOT_FOUND, "%s; No such file or directory", path);
      } else {
        tfc_status_copy(st, &sub);
        ok = false;
      }
    } else {
      present[i] = true;
      ok = collect(prefixes[i], data, len, total, &shards[i], &all, &count, &cap, st);
      if (ok) total += shards[i];
    }
    tfc_free(data);
    tfc_free(path);
  }
  if (ok && total == 0 && n > 0 && !allow_missing_files)
    ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "No checkpoint to merge");
  ok = ok && join_slices(all, &count, st) && tfc_bundle_sort_keyed(all, count, st);
  if (ok && total == 0) total = 1;  /* an empty merge still gets a valid header */
  /* rename data files into place */
  int base = 0;
  for (int i = 0; ok && i < n; i++) {
    if (!present[i]) continue;
    for (int s = 0; ok && s < shards[i]; s++) {
      char *from = tfc_bundle_data_filename(prefixes[i], s, shards[i]);
      char *to = tfc_bundle_data_filename(dest, base + s, total);
      if (!from || !to) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
      else if (rename(from, to) != 0) ok = tfc_io_errno_status(st, errno, "Failed to rename ", from);
      tfc_free(from);
      tfc_free(to);
    }
    base += shards[i];
  }
  ok = ok && tfc_io_make_parent_dirs(dest, st) &&
       tfc_bundle_write_index(all, count, total, dest_index, st);
  /* the sources are gone now: drop their indexes and (empty) directories */
  for (int i = 0; ok && i < n; i++) {
    if (!present[i]) continue;
    char *path = tfc_bundle_index_filename(prefixes[i]);
    if (path && strcmp(path, dest_index) != 0) unlink(path);
    tfc_free(path);
    if (delete_old_dirs) {
      char *dir = dirname_of(prefixes[i]);
      char *ddir = dirname_of(dest);
      if (dir && ddir && strcmp(dir, ddir) != 0) rmdir(dir);  /* fails harmlessly when not empty */
      tfc_free(dir);
      tfc_free(ddir);
    }
  }
  for (size_t i = 0; i < count; i++) {
    tfc_free(all[i].key);
    tfc_bundle_entry_clear(&all[i].e);
  }
  tfc_free(all);
  tfc_free(shards);
  tfc_free(present);
  tfc_free(dest_index);
  return ok;
}
