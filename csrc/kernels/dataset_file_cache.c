/*
 * dataset_file_cache.c — Dataset.cache(filename): CacheDataset with a file
 * name, in TensorFlow's layout, so a cache written by either framework
 * reads in the other.
 *
 * The cache is a tensor bundle at <filename> (the checkpoint format of
 * csrc/io/bundle_*.c) holding component c of element i under the key
 * printf("%7d_%*d", i, w, c), w being the width of the last component
 * index (TF's space-padded keys). An iterator reads the bundle when
 * <filename>.index exists; otherwise it passes its input's elements through
 * and writes them into <filename>_<shard>, guarded by
 * <filename>_<shard>.lockfile, and at the end of the input merges the
 * shards into <filename> and deletes the lockfiles. Saving the iterator
 * (make_saveable_from_iterator) closes the current shard and continues in
 * the next, as TF does. TF's errors: AlreadyExists for a shard already
 * written or another iterator's lockfile; a writer dropped before the end
 * of its input removes its unfinished shard.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "io/bundle.h"
#include "kernels/dataset_internal.h"

#define MAX_ITEMS 10000000 /* TF's limit; keys have 7 digits */

typedef struct fcache_ds {
  tfc_dataset ds;
  tfc_dataset *in;
  char *filename;
  int tensor_pad; /* digits of the last component index */
} fcache_ds;

typedef struct fcache_it {
  tfc_iter it;
  fcache_ds *d;
  bool reading;
  int64_t cur;               /* the next element's index */
  /* writing */
  tfc_iter *in;
  tfc_bundle_writer *w;
  int64_t shard;
  bool locked, completed;
  /* reading */
  tfc_bundle_reader *r;
} fcache_it;

/* "<filename><suffix>" in buf. */
static void path_of(const fcache_ds *d, const char *suffix, int64_t shard, char *buf, size_t cap) {
  if (shard >= 0) snprintf(buf, cap, "%s_%lld%s", d->filename, (long long)shard, suffix);
  else snprintf(buf, cap, "%s%s", d->filename, suffix);
}

/* Whether a file exists. */
static bool exists(const char *path) { return access(path, F_OK) == 0; }

/* The key of component c of element i. */
static int key_of(const fcache_ds *d, int64_t i, int c, char *buf, size_t cap) {
  return snprintf(buf, cap, "%7lld_%*d", (long long)i, d->tensor_pad, c);
}

/* Creates this shard's lockfile and writer (TF's checks first). */
static bool lock_shard(fcache_it *f, tfc_status *st) {
  char prefix[4096], index[4200], lock[4200];
  path_of(f->d, "", f->shard, prefix, sizeof prefix);
  path_of(f->d, ".index", f->shard, index, sizeof index);
  path_of(f->d, ".lockfile", f->shard, lock, sizeof lock);
  if (exists(index)) {
    char *data = tfc_bundle_data_filename(prefix, 0, 1);
    tfc_status_set(st, TFC_CODE_ALREADY_EXISTS,
                   "Existing cache files found: \n%s\n%s\nTo continue delete the above files.", index,
                   data ? data : "");
    tfc_free(data);
    return false;
  }
  if (exists(lock)) {
    char contents[151] = {0};
    FILE *fp = fopen(lock, "rb");
    if (fp) {
      size_t got = fread(contents, 1, 150, fp);
      contents[got] = '\0';
      fclose(fp);
    }
    return tfc_status_set(st, TFC_CODE_ALREADY_EXISTS,
                          "There appears to be a concurrent caching iterator running - cache lockfile already exists "
                          "('%s'). If you are sure no other running TF computations are using this cache prefix, "
                          "delete the lockfile and re-initialize the iterator. Lockfile contents: %s",
                          lock, contents);
  }
  /* the lockfile first: a missing directory is NOT_FOUND, as in TF */
  FILE *fp = fopen(lock, "wb");
  if (!fp) return tfc_status_set(st, tfc_errno_code(errno), "%s; %s", lock, strerror(errno));
  fprintf(fp, "Created at: %lld", (long long)time(NULL));
  fclose(fp);
  f->w = tfc_bundle_writer_new(prefix, st);
  if (!f->w) {
    unlink(lock);
    return false;
  }
  f->locked = true;
  return true;
}

/* End of the input: the last shard is finished, all shards merged into
 * <filename>, the lockfiles deleted. */
static bool finish_cache(fcache_it *f, tfc_status *st) {
  f->completed = true;
  bool ok = tfc_bundle_writer_finish(f->w, st);
  tfc_bundle_writer_free(f->w);
  f->w = NULL;
  int n = (int)f->shard + 1;
  char **prefixes = tfc_calloc((size_t)n, sizeof(char *));
  if (!prefixes) return ok && tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  for (int i = 0; ok && i < n; i++) {
    prefixes[i] = tfc_malloc(4096);
    if (!prefixes[i]) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    else path_of(f->d, "", i, prefixes[i], 4096);
  }
  ok = ok && tfc_bundle_merge((const char *const *)prefixes, n, f->d->filename, false, false, st);
  for (int i = 0; i < n; i++) {
    char lock[4200];
    path_of(f->d, ".lockfile", i, lock, sizeof lock);
    if (ok && unlink(lock) != 0) ok = tfc_status_set(st, TFC_CODE_NOT_FOUND, "Could not delete %s", lock);
    tfc_free(prefixes[i]);
  }
  tfc_free(prefixes);
  return ok;
}

/* Writing: passes the input's next element through and into the shard. */
static int write_next(fcache_it *f, tfc_tensor **out, tfc_status *st) {
  if (f->completed) return 0;
  if (!f->locked && !lock_shard(f, st)) return -1;
  if (f->cur >= MAX_ITEMS) {
    finish_cache(f, &(tfc_status){0});
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "Upstream iterator is producing more than %d items, which is more than the cache limit.",
                          MAX_ITEMS), -1;
  }
  int rc = f->in->vt->next(f->in, out, st);
  if (rc < 0) return -1;
  if (rc == 0) return finish_cache(f, st) ? 0 : -1;
  for (int c = 0; c < f->d->ds.n; c++) {
    char key[64];
    int klen = key_of(f->d, f->cur, c, key, sizeof key);
    if (!tfc_bundle_writer_add(f->w, key, (size_t)klen, out[c], NULL, st)) {
      tfc_element_clear(out, f->d->ds.n);
      return -1;
    }
  }
  f->cur++;
  return 1;
}

/* Reading: element cur from the bundle; the end when its key is absent. */
static int read_next(fcache_it *f, tfc_tensor **out, tfc_status *st) {
  if (!f->r && !(f->r = tfc_bundle_reader_open(f->d->filename, st))) return -1;
  for (int c = 0; c < f->d->ds.n; c++) {
    char key[64];
    int klen = key_of(f->d, f->cur, c, key, sizeof key);
    tfc_bundle_entry e;
    tfc_status miss;
    tfc_status_clear(&miss);
    if (c == 0 && !tfc_bundle_reader_lookup(f->r, key, (size_t)klen, &e, &miss)) {
      if (miss.code == TFC_CODE_NOT_FOUND) return 0;
      tfc_status_copy(st, &miss);
      return -1;
    }
    if (c == 0) tfc_bundle_entry_clear(&e);
    out[c] = tfc_bundle_reader_read(f->r, key, (size_t)klen, NULL, st);
    if (!out[c]) {
      tfc_element_clear(out, c);
      return -1;
    }
    if (out[c]->dtype != f->d->ds.types[c]) {
      tfc_element_clear(out, c + 1);
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "The cache %s holds %s for component %d, the dataset %s",
                            f->d->filename, tfc_dtype_name(out[c]->dtype), c, tfc_dtype_name(f->d->ds.types[c])), -1;
    }
  }
  f->cur++;
  return 1;
}

static int fcache_next(tfc_iter *it, tfc_tensor **out, tfc_status *st) {
  fcache_it *f = (fcache_it *)it;
  return f->reading ? read_next(f, out, st) : write_next(f, out, st);
}

/* A writer dropped before the end removes its unfinished shard and lock. */
static void fcache_free(tfc_iter *it) {
  fcache_it *f = (fcache_it *)it;
  if (f->locked && !f->completed) {
    tfc_bundle_writer_free(f->w); /* removes its temporary files */
    char lock[4200];
    path_of(f->d, ".lockfile", f->shard, lock, sizeof lock);
    unlink(lock);
  } else {
    tfc_bundle_writer_free(f->w);
  }
  tfc_iter_free(f->in);
  tfc_bundle_reader_free(f->r);
  tfc_object_unref(&f->d->ds.base);
  tfc_free(f);
}

/* State: the mode and index; a writer also closes its shard (the next
 * element goes to a new one), then saves its input and shard number. */
static bool fcache_save(tfc_iter *it, tfc_ds_writer *w, tfc_status *st) {
  fcache_it *f = (fcache_it *)it;
  if (!tfc_ds_put_i64(w, f->reading, st) || !tfc_ds_put_i64(w, f->cur, st)) return false;
  if (f->reading) return true;
  if (!tfc_ds_put_i64(w, f->completed, st)) return false;
  if (f->completed) return true;
  if (f->locked) {
    bool ok = tfc_bundle_writer_finish(f->w, st);
    tfc_bundle_writer_free(f->w);
    f->w = NULL;
    if (!ok) return false;
    f->shard++;
    f->locked = false;
  }
  return tfc_iter_save(f->in, w, st) && tfc_ds_put_i64(w, f->shard, st);
}

static bool fcache_restore(tfc_iter *it, tfc_ds_reader *r, tfc_status *st) {
  fcache_it *f = (fcache_it *)it;
  int64_t reading, completed = 0;
  if (!tfc_ds_get_i64(r, &reading, st) || !tfc_ds_get_i64(r, &f->cur, st)) return false;
  if (!reading && !tfc_ds_get_i64(r, &completed, st)) return false;
  if (f->cur < 0 || f->cur > MAX_ITEMS) return tfc_status_set(st, TFC_CODE_INTERNAL, "Invalid value for cur_index %lld",
                                                              (long long)f->cur);
  if (!reading && !completed) {
    if (!tfc_iter_restore(f->in, r, st) || !tfc_ds_get_i64(r, &f->shard, st)) return false;
    if (f->shard < 0 || f->shard > MAX_ITEMS)
      return tfc_status_set(st, TFC_CODE_INTERNAL, "Invalid value for shard_id %lld", (long long)f->shard);
  }
  f->completed = completed != 0;
  char index[4200];
  path_of(f->d, ".index", -1, index, sizeof index);
  /* a cache finished after the checkpoint was saved is read instead */
  if (reading || exists(index)) {
    f->reading = true;
    tfc_iter_free(f->in);
    f->in = NULL;
  }
  return true;
}

static const tfc_iter_vt fcache_vt = {fcache_next, fcache_free, fcache_save, fcache_restore, "FileCache", NULL};

static tfc_iter *fcache_make(tfc_dataset *ds, tfc_status *st) {
  fcache_ds *d = (fcache_ds *)ds;
  fcache_it *f = tfc_calloc(1, sizeof *f);
  if (!f) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  f->it.vt = &fcache_vt;
  f->d = (fcache_ds *)tfc_object_ref(&ds->base);
  char index[4200];
  path_of(d, ".index", -1, index, sizeof index);
  f->reading = exists(index);
  if (!f->reading && !(f->in = tfc_dataset_iter(d->in, st))) {
    fcache_free(&f->it);
    return NULL;
  }
  return &f->it;
}

static void fcache_destroy(tfc_dataset *ds) {
  fcache_ds *d = (fcache_ds *)ds;
  if (d->in) tfc_object_unref(&d->in->base);
  tfc_free(d->filename);
}

static const tfc_dataset_vt fcache_ds_vt = {"CacheDataset", fcache_make, fcache_destroy};

/* A file cache of in at filename (see above). */
tfc_dataset *tfc_ds_file_cache(tfc_dataset *in, const char *filename, tfc_status *st) {
  if (strlen(filename) > 4000) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "cache filename too long");
    return NULL;
  }
  fcache_ds *d = (fcache_ds *)tfc_dataset_alloc(sizeof *d, NULL, in->n, in->types, in->shapes, st);
  if (!d) return NULL;
  d->filename = tfc_strdup(filename);
  if (!d->filename) {
    tfc_object_unref(&d->ds.base);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  d->in = (tfc_dataset *)tfc_object_ref(&in->base);
  char digits[32];
  d->tensor_pad = snprintf(digits, sizeof digits, "%d", in->n - 1);
  d->ds.vt = &fcache_ds_vt;
  d->ds.cardinality = in->cardinality;
  return &d->ds;
}
