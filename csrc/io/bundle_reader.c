/*
 * bundle_reader.c — reads V2 checkpoints (see bundle.h). The index is
 * decoded on open; a tensor is read from its shard (opened on first use)
 * straight into the new tensor's buffer. Reads of several MiB are split into
 * 4 MiB chunks that the thread pool reads and checksums at once; the chunk
 * CRCs are combined and checked against the entry. Every size and offset is
 * checked against the file before anything is allocated.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "core/object.h"
#include "core/variant_data.h"
#include "io/bundle_internal.h"
#include "io/bundle_slice.h"
#include "io/coding.h"
#include "io/crc32c.h"
#include "io/table.h"

#define CHUNK ((size_t)4 << 20)

struct tfc_bundle_reader {
  char *prefix;
  tfc_table *table;
  int num_shards;
  size_t *names;     /* table indices of tensor names */
  size_t n_names;
  pthread_mutex_t mu;
  int *fds;          /* per shard; -1 until opened */
  uint64_t *sizes;   /* per shard file size */
};

/* Builds the reader from decoded index bytes. */
static tfc_bundle_reader *open_from_index(const char *prefix, const uint8_t *data, size_t len,
                                          tfc_status *st) {
  tfc_table *t = tfc_table_open(data, len, st);
  if (!t) return NULL;
  const tfc_table_entry *h = tfc_table_count(t) ? tfc_table_at(t, 0) : NULL;
  int num_shards = 0;
  if (!h || h->klen != 0) {
    tfc_table_free(t);
    tfc_status_set(st, TFC_CODE_DATA_LOSS, "Checkpoint index of %s has no header entry", prefix);
    return NULL;
  }
  if (!tfc_bundle_header_decode(h->val, h->vlen, &num_shards, st)) {
    tfc_table_free(t);
    return NULL;
  }
  tfc_bundle_reader *r = tfc_calloc(1, sizeof *r);
  size_t n = tfc_table_count(t);
  if (r) {
    r->prefix = tfc_strdup(prefix);
    r->names = tfc_malloc(n * sizeof *r->names);
    r->fds = tfc_malloc((size_t)num_shards * sizeof *r->fds);
    r->sizes = tfc_calloc((size_t)num_shards, sizeof *r->sizes);
  }
  if (!r || !r->prefix || !r->names || !r->fds || !r->sizes) {
    if (r) {
      tfc_free(r->prefix);
      tfc_free(r->names);
      tfc_free(r->fds);
      tfc_free(r->sizes);
      tfc_free(r);
    }
    tfc_table_free(t);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM opening a checkpoint");
    return NULL;
  }
  r->table = t;
  r->num_shards = num_shards;
  for (int i = 0; i < num_shards; i++) r->fds[i] = -1;
  pthread_mutex_init(&r->mu, NULL);
  for (size_t i = 1; i < n; i++) {
    const tfc_table_entry *e = tfc_table_at(t, i);
    if (e->klen && e->key[0] != 0) r->names[r->n_names++] = i;  /* keys of slices start with 0 */
  }
  return r;
}

tfc_bundle_reader *tfc_bundle_reader_open_index(const char *prefix, const void *index,
                                                size_t len, tfc_status *st) {
  return open_from_index(prefix, index, len, st);
}

tfc_bundle_reader *tfc_bundle_reader_open(const char *prefix, tfc_status *st) {
  char *path = tfc_bundle_index_filename(prefix);
  if (!path) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    return NULL;
  }
  uint8_t *data = NULL;
  size_t len = 0;
  tfc_status sub;
  tfc_status_clear(&sub);
  tfc_bundle_reader *r = NULL;
  if (!tfc_io_read_file(path, &data, &len, &sub)) {
    if (sub.code == TFC_CODE_NOT_FOUND)
      tfc_status_set(st, TFC_CODE_NOT_FOUND,
                     "Unsuccessful TensorSliceReader constructor: Failed to find any matching "
                     "files for %s", prefix);
    else
      tfc_status_copy(st, &sub);
  } else {
    r = open_from_index(prefix, data, len, &sub);
    if (!r) {
      if (sub.code == TFC_CODE_DATA_LOSS)
        tfc_status_set(st, sub.code, "Unable to open table file %s: %s", path, sub.msg);
      else
        tfc_status_copy(st, &sub);
    }
  }
  tfc_free(data);
  tfc_free(path);
  return r;
}

int tfc_bundle_reader_num_shards(const tfc_bundle_reader *r) { return r->num_shards; }

size_t tfc_bundle_reader_count(const tfc_bundle_reader *r) { return r->n_names; }

bool tfc_bundle_reader_entry_at(const tfc_bundle_reader *r, size_t i, const char **name,
                                size_t *nlen, tfc_bundle_entry *e, tfc_status *st) {
  if (i >= r->n_names) return tfc_status_set(st, TFC_CODE_OUT_OF_RANGE, "entry index out of range");
  const tfc_table_entry *te = tfc_table_at(r->table, r->names[i]);
  *name = (const char *)te->key;
  *nlen = te->klen;
  return tfc_bundle_entry_decode(te->val, te->vlen, (const char *)te->key, te->klen, e, st);
}

bool tfc_bundle_reader_lookup(const tfc_bundle_reader *r, const char *key, size_t klen,
                              tfc_bundle_entry *e, tfc_status *st) {
  const tfc_table_entry *te = klen ? tfc_table_find(r->table, key, klen) : NULL;
  if (!te)
    return tfc_status_set(st, TFC_CODE_NOT_FOUND, "Key %.*s not found in checkpoint",
                          (int)(klen > 400 ? 400 : klen), key);
  return tfc_bundle_entry_decode(te->val, te->vlen, key, klen, e, st);
}

/* The descriptor of shard i (opened once), and its size. */
static int shard_fd(tfc_bundle_reader *r, int shard, uint64_t *size, tfc_status *st) {
  pthread_mutex_lock(&r->mu);
  int fd = r->fds[shard];
  if (fd < 0) {
    char *path = tfc_bundle_data_filename(r->prefix, shard, r->num_shards);
    if (!path) {
      tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    } else {
      fd = open(path, O_RDONLY | O_CLOEXEC);
      struct stat sb;
      if (fd < 0) {
        tfc_io_errno_status(st, errno, "", path);
      } else if (fstat(fd, &sb) != 0) {
        tfc_io_errno_status(st, errno, "", path);
        close(fd);
        fd = -1;
      } else {
        r->fds[shard] = fd;
        r->sizes[shard] = (uint64_t)sb.st_size;
      }
      tfc_free(path);
    }
  }
  *size = fd >= 0 ? r->sizes[shard] : 0;
  pthread_mutex_unlock(&r->mu);
  return fd;
}

/* One chunk job of a parallel read. */
typedef struct read_job {
  int fd;
  uint8_t *dst;
  size_t nbytes;
  uint64_t base;
  uint32_t *crcs;
  int *errs;        /* errno, or -1 for a short read */
} read_job;

/* Reads and checksums chunks [b, e). */
static void read_chunks(void *arg, int64_t b, int64_t e) {
  read_job *j = arg;
  for (int64_t c = b; c < e; c++) {
    size_t off = (size_t)c * CHUNK, len = j->nbytes - off < CHUNK ? j->nbytes - off : CHUNK;
    uint8_t *p = j->dst + off;
    uint64_t at = j->base + off;
    size_t left = len;
    while (left) {
      ssize_t n = pread(j->fd, p, left, (off_t)at);
      if (n < 0) {
        if (errno == EINTR) continue;
        j->errs[c] = errno;
        break;
      }
      if (n == 0) {
        j->errs[c] = -1;
        break;
      }
      p += n;
      at += (uint64_t)n;
      left -= (size_t)n;
    }
    if (!j->errs[c]) j->crcs[c] = tfc_crc32c(j->dst + off, len);
  }
}

/* Reads n bytes at off of the shard into dst and returns their CRC. */
static bool read_bytes(int fd, const char *what, uint8_t *dst, size_t n, uint64_t off,
                       tfc_threadpool *pool, uint32_t *crc, tfc_status *st) {
  size_t nchunks = (n + CHUNK - 1) / CHUNK;
  if (nchunks <= 1 || !pool) {
    if (!tfc_io_pread_all(fd, dst, n, off, what, st)) return false;
    *crc = tfc_crc32c(dst, n);
    return true;
  }
  uint32_t *crcs = tfc_calloc(nchunks, sizeof *crcs);
  int *errs = tfc_calloc(nchunks, sizeof *errs);
  if (!crcs || !errs) {
    tfc_free(crcs);
    tfc_free(errs);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  }
  read_job j = {fd, dst, n, off, crcs, errs};
  tfc_threadpool_parallel_for(pool, (int64_t)nchunks, 1, read_chunks, &j);
  bool ok = true;
  uint32_t c = 0;
  for (size_t i = 0; i < nchunks; i++) {
    if (errs[i]) {
      ok = errs[i] < 0 ? tfc_status_set(st, TFC_CODE_OUT_OF_RANGE, "Read less bytes than requested")
                       : tfc_io_errno_status(st, errs[i], "Failed to read ", what);
      break;
    }
    size_t len = n - i * CHUNK < CHUNK ? n - i * CHUNK : CHUNK;
    c = i == 0 ? crcs[0] : tfc_crc32c_combine(c, crcs[i], len);
  }
  tfc_free(crcs);
  tfc_free(errs);
  if (ok) *crc = c;
  return ok;
}

/* DATA_LOSS for a checksum mismatch, in TF's words. */
static bool checksum_mismatch(const tfc_bundle_reader *r, const tfc_bundle_entry *e, uint32_t actual,
                              tfc_status *st) {
  return tfc_status_set(st, TFC_CODE_DATA_LOSS,
                        "TensorBundle at %s shard %d (%lld bytes): Checksum does not match: stored "
                        "%u vs. calculated on the restored bytes %u",
                        r->prefix, (int)e->shard_id, (long long)e->size,
                        (unsigned)tfc_crc32c_unmask(e->crc32c), (unsigned)actual);
}

/* Decodes a stored string tensor from buf[0, n) into t. */
static bool decode_strings(const tfc_bundle_reader *r, const tfc_bundle_entry *e, const uint8_t *buf,
                           size_t n, tfc_tensor *t, tfc_status *st) {
  const uint8_t *p = buf, *end = buf + n;
  uint64_t *lens = tfc_malloc((size_t)(t->nelems ? t->nelems : 1) * sizeof *lens);
  if (!lens) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  uint32_t c = 0;
  bool ok = true;
  uint64_t total = 0;
  for (int64_t i = 0; ok && i < t->nelems; i++) {
    if (!tfc_get_varint64(&p, end, &lens[i])) {
      ok = tfc_status_set(st, TFC_CODE_DATA_LOSS, "Corrupted string lengths in checkpoint %s",
                          r->prefix);
      break;
    }
    uint8_t w8[8];
    tfc_put_fixed32(w8, (uint32_t)lens[i]);
    tfc_put_fixed32(w8 + 4, (uint32_t)(lens[i] >> 32));
    c = tfc_crc32c_extend(c, w8, lens[i] <= UINT32_MAX ? 4 : 8);
    total += lens[i];
    if (total > n) ok = tfc_status_set(st, TFC_CODE_DATA_LOSS, "Corrupted string lengths in checkpoint %s", r->prefix);
  }
  if (ok && end - p < 4) ok = tfc_status_set(st, TFC_CODE_OUT_OF_RANGE, "Read less bytes than requested");
  if (ok) {
    uint32_t stored = tfc_crc32c_unmask(tfc_get_fixed32(p));
    if (stored != c)
      ok = tfc_status_set(st, TFC_CODE_DATA_LOSS,
                          "The length checksum does not match: expected %u but actual %u",
                          (unsigned)stored, (unsigned)c);
    c = tfc_crc32c_extend(c, p, 4);
    p += 4;
  }
  if (ok && (uint64_t)(end - p) < total)
    ok = tfc_status_set(st, TFC_CODE_OUT_OF_RANGE, "Read less bytes than requested");
  for (int64_t i = 0; ok && i < t->nelems; i++) {
    c = tfc_crc32c_extend(c, p, (size_t)lens[i]);
    ok = tfc_tensor_set_string(t, i, (const char *)p, (size_t)lens[i], st);
    p += lens[i];
  }
  if (ok && tfc_crc32c_unmask(e->crc32c) != c) ok = checksum_mismatch(r, e, c, st);
  tfc_free(lens);
  return ok;
}

/* Decodes a stored variant tensor (see encode_variants in bundle_writer.c)
 * from buf[0, n) into the object tensor t: each element becomes a
 * tfc_variant_data value. Checks every element's checksum and the entry's. */
static bool decode_variants(const tfc_bundle_reader *r, const tfc_bundle_entry *e, const uint8_t *buf,
                            size_t n, tfc_tensor *t, tfc_status *st) {
  const uint8_t *p = buf, *end = buf + n;
  uint32_t c = 0;
  for (int64_t i = 0; i < t->nelems; i++) {
    uint64_t plen;
    if (!tfc_get_varint64(&p, end, &plen) || plen > (uint64_t)(end - p) || (uint64_t)(end - p) - plen < 4)
      return tfc_status_set(st, TFC_CODE_DATA_LOSS, "Corrupted variant tensor in checkpoint %s", r->prefix);
    uint8_t w8[8];
    tfc_put_fixed32(w8, (uint32_t)plen);
    tfc_put_fixed32(w8 + 4, (uint32_t)(plen >> 32));
    c = tfc_crc32c_extend(c, w8, 8);
    c = tfc_crc32c_extend(c, p, (size_t)plen);
    uint32_t stored = tfc_get_fixed32(p + plen);
    if (stored != tfc_crc32c_mask(c))
      return tfc_status_set(st, TFC_CODE_DATA_LOSS,
                            "Checksum of variant element %lld does not match in checkpoint %s",
                            (long long)i, r->prefix);
    char *type_name = NULL;
    uint8_t *meta = NULL;
    size_t mlen = 0;
    if (!tfc_bundle_variant_decode(p, (size_t)plen, &type_name, &meta, &mlen, st)) return false;
    tfc_object *v = tfc_variant_data_new(type_name, meta, mlen, st);
    tfc_free(type_name);
    tfc_free(meta);
    if (!v) return false;
    tfc_tensor_object_set(t, i, v);
    tfc_object_unref(v);
    c = tfc_crc32c_extend(c, p + plen, 4);
    p += plen + 4;
  }
  if (tfc_crc32c_unmask(e->crc32c) != c) return checksum_mismatch(r, e, c, st);
  return true;
}

/* Reads one stored (unsliced) tensor of entry e into a new tensor. */
tfc_tensor *tfc_bundle_read_entry(tfc_bundle_reader *r, const char *key, size_t klen,
                                  const tfc_bundle_entry *e, tfc_threadpool *pool, tfc_status *st) {
  tfc_dtype dt = e->dtype;
  if (dt == TFC_DTYPE_RESOURCE || (dt != TFC_DTYPE_VARIANT && !tfc_dtype_is_supported(dt))) {
    tfc_status_set(st, TFC_CODE_UNIMPLEMENTED, "Restoring tensors of type %s is not supported",
                   tfc_dtype_name(dt));
    return NULL;
  }
  if (e->shard_id >= r->num_shards) {
    tfc_status_set(st, TFC_CODE_DATA_LOSS, "Entry %.*s names shard %d of %d", (int)klen, key,
                   (int)e->shard_id, r->num_shards);
    return NULL;
  }
  int64_t nelems = 1;
  for (int d = 0; d < e->rank; d++) nelems *= e->dims[d];
  if (dt != TFC_DTYPE_STRING && dt != TFC_DTYPE_VARIANT) {
    size_t esz = tfc_dtype_size(dt);
    if (nelems > INT64_MAX / (int64_t)esz || nelems * (int64_t)esz != e->size) {
      tfc_status_set(st, TFC_CODE_DATA_LOSS,
                     "Invalid size in bundle entry: key %.*s; stored size %lld; expected size %lld",
                     (int)klen, key, (long long)e->size,
                     (long long)(nelems > INT64_MAX / (int64_t)esz ? -1 : nelems * (int64_t)esz));
      return NULL;
    }
  } else if (nelems > e->size) {
    tfc_status_set(st, TFC_CODE_DATA_LOSS, "Invalid size in bundle entry: key %.*s", (int)klen, key);
    return NULL;
  }
  uint64_t fsize;
  int fd = shard_fd(r, e->shard_id, &fsize, st);
  if (fd < 0) return NULL;
  if ((uint64_t)e->offset > fsize || (uint64_t)e->size > fsize - (uint64_t)e->offset) {
    tfc_status_set(st, TFC_CODE_OUT_OF_RANGE, "Read less bytes than requested");
    return NULL;
  }
  tfc_tensor *t = dt == TFC_DTYPE_VARIANT ? tfc_tensor_new_objects(dt, e->rank, e->dims, st)
                                          : tfc_tensor_new(dt, e->rank, e->dims, st);
  if (!t) return NULL;
  char what[64];
  snprintf(what, sizeof what, "checkpoint shard %d", (int)e->shard_id);
  uint32_t crc = 0;
  bool ok;
  if (dt == TFC_DTYPE_STRING || dt == TFC_DTYPE_VARIANT) {
    uint8_t *buf = tfc_malloc(e->size ? (size_t)e->size : 1);
    ok = buf != NULL;
    if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    ok = ok && tfc_io_pread_all(fd, buf, (size_t)e->size, (uint64_t)e->offset, what, st) &&
         (dt == TFC_DTYPE_STRING ? decode_strings(r, e, buf, (size_t)e->size, t, st)
                                 : decode_variants(r, e, buf, (size_t)e->size, t, st));
    tfc_free(buf);
  } else {
    ok = read_bytes(fd, what, t->data, (size_t)e->size, (uint64_t)e->offset, pool, &crc, st);
    if (ok && crc != tfc_crc32c_unmask(e->crc32c)) ok = checksum_mismatch(r, e, crc, st);
  }
  if (!ok) {
    tfc_tensor_unref(t);
    return NULL;
  }
  return t;
}

tfc_tensor *tfc_bundle_reader_read(tfc_bundle_reader *r, const char *key, size_t klen,
                                   tfc_threadpool *pool, tfc_status *st) {
  tfc_bundle_entry e;
  if (!tfc_bundle_reader_lookup(r, key, klen, &e, st)) return NULL;
  tfc_tensor *t = e.n_slices > 0 ? tfc_bundle_read_sliced(r, key, klen, &e, pool, st)
                                 : tfc_bundle_read_entry(r, key, klen, &e, pool, st);
  tfc_bundle_entry_clear(&e);
  return t;
}

void tfc_bundle_reader_free(tfc_bundle_reader *r) {
  if (!r) return;
  for (int i = 0; i < r->num_shards; i++)
    if (r->fds[i] >= 0) close(r->fds[i]);
  pthread_mutex_destroy(&r->mu);
  tfc_table_free(r->table);
  tfc_free(r->names);
  tfc_free(r->fds);
  tfc_free(r->sizes);
  tfc_free(r->prefix);
  tfc_free(r);
}
