/*
 * bundle_writer.c — writes a one-shard V2 checkpoint (see bundle.h).
 *
 * Tensors go to "<prefix>.data-00000-of-00001.tempstate<random>" as they are
 * added; a numeric tensor of several MiB is cut into 4 MiB chunks that the
 * thread pool writes (pwrite at their offsets) and checksums at once, and the
 * chunk CRCs are combined. finish() renames the data file into place, then
 * writes the sorted index to its own temporary file and renames it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

struct tfc_bundle_writer {
  char *prefix;
  char *data_path, *data_tmp;
  int fd;
  uint64_t off;
  tfc_bundle_keyed *entries;
  size_t n, cap;
  bool failed, finished;
};

char *tfc_bundle_data_filename(const char *prefix, int shard, int num_shards) {
  size_t n = strlen(prefix) + 32;
  char *s = tfc_malloc(n);
  if (s) snprintf(s, n, "%s.data-%05d-of-%05d", prefix, shard, num_shards);
  return s;
}

char *tfc_bundle_index_filename(const char *prefix) {
  size_t n = strlen(prefix) + 8;
  char *s = tfc_malloc(n);
  if (s) snprintf(s, n, "%s.index", prefix);
  return s;
}

tfc_bundle_writer *tfc_bundle_writer_new(const char *prefix, tfc_status *st) {
  tfc_bundle_writer *w = tfc_calloc(1, sizeof *w);
  if (!w) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    return NULL;
  }
  w->fd = -1;
  w->prefix = tfc_strdup(prefix);
  w->data_path = tfc_bundle_data_filename(prefix, 0, 1);
  w->data_tmp = w->data_path ? tfc_io_temp_name(w->data_path) : NULL;
  if (!w->prefix || !w->data_tmp) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    tfc_bundle_writer_free(w);
    return NULL;
  }
  if (!tfc_io_make_parent_dirs(prefix, st)) {
    tfc_bundle_writer_free(w);
    return NULL;
  }
  w->fd = open(w->data_tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (w->fd < 0) {
    tfc_io_errno_status(st, errno, "Failed to create a NewWriteableFile: ", w->data_tmp);
    tfc_bundle_writer_free(w);
    return NULL;
  }
  return w;
}

/* One chunk job of a parallel write. */
typedef struct chunk_job {
  int fd;
  const uint8_t *data;
  size_t nbytes;
  uint64_t base;        /* file offset of data[0] */
  uint32_t *crcs;
  int *errs;            /* errno per chunk (0: ok) */
} chunk_job;

/* Writes and checksums chunks [b, e). */
static void write_chunks(void *arg, int64_t b, int64_t e) {
  chunk_job *j = arg;
  for (int64_t c = b; c < e; c++) {
    size_t off = (size_t)c * CHUNK, len = j->nbytes - off < CHUNK ? j->nbytes - off : CHUNK;
    j->crcs[c] = tfc_crc32c(j->data + off, len);
    const uint8_t *p = j->data + off;
    uint64_t at = j->base + off;
    while (len) {
      ssize_t n = pwrite(j->fd, p, len, (off_t)at);
      if (n < 0) {
        if (errno == EINTR) continue;
        j->errs[c] = errno;
        break;
      }
      p += n;
      at += (uint64_t)n;
      len -= (size_t)n;
    }
  }
}

/* Writes n bytes at the writer's offset and returns their CRC in *crc. */
static bool write_bytes(tfc_bundle_writer *w, const void *data, size_t n, tfc_threadpool *pool,
                        uint32_t *crc, tfc_status *st) {
  size_t nchunks = (n + CHUNK - 1) / CHUNK;
  if (nchunks <= 1 || !pool) {
    *crc = tfc_crc32c(data, n);
    const uint8_t *p = data;
    uint64_t at = w->off;
    size_t left = n;
    while (left) {
      ssize_t k = pwrite(w->fd, p, left, (off_t)at);
      if (k < 0) {
        if (errno == EINTR) continue;
        return tfc_io_errno_status(st, errno, "Failed to write to ", w->data_tmp);
      }
      p += k;
      at += (uint64_t)k;
      left -= (size_t)k;
    }
  } else {
    uint32_t *crcs = tfc_calloc(nchunks, sizeof *crcs);
    int *errs = tfc_calloc(nchunks, sizeof *errs);
    if (!crcs || !errs) {
      tfc_free(crcs);
      tfc_free(errs);
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    }
    chunk_job j = {w->fd, data, n, w->off, crcs, errs};
    tfc_threadpool_parallel_for(pool, (int64_t)nchunks, 1, write_chunks, &j);
    uint32_t c = 0;
    bool ok = true;
    for (size_t i = 0; i < nchunks; i++) {
      if (errs[i]) {
        ok = tfc_io_errno_status(st, errs[i], "Failed to write to ", w->data_tmp);
        break;
      }
      size_t len = n - i * CHUNK < CHUNK ? n - i * CHUNK : CHUNK;
      c = i == 0 ? crcs[0] : tfc_crc32c_combine(c, crcs[i], len);
    }
    tfc_free(crcs);
    tfc_free(errs);
    if (!ok) return false;
    *crc = c;
  }
  w->off += n;
  return true;
}

/* Encodes a string tensor's stored form into a new buffer and its CRC. */
static bool encode_strings(const tfc_tensor *t, uint8_t **out, size_t *len, uint32_t *crc,
                           tfc_status *st) {
  const tfc_string *s = t->data;
  size_t total = 4;
  for (int64_t i = 0; i < t->nelems; i++) total += 10 + s[i].len;
  uint8_t *buf = tfc_malloc(total ? total : 1);
  if (!buf) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM saving a string tensor");
  size_t n = 0;
  uint32_t c = 0;
  for (int64_t i = 0; i < t->nelems; i++) {
    n += tfc_put_varint64(buf + n, s[i].len);
    if (s[i].len <= UINT32_MAX) {
      uint8_t w4[4];
      tfc_put_fixed32(w4, (uint32_t)s[i].len);
      c = tfc_crc32c_extend(c, w4, 4);
    } else {
      uint8_t w8[8];
      tfc_put_fixed32(w8, (uint32_t)s[i].len);
      tfc_put_fixed32(w8 + 4, (uint32_t)((uint64_t)s[i].len >> 32));
      c = tfc_crc32c_extend(c, w8, 8);
    }
  }
  tfc_put_fixed32(buf + n, tfc_crc32c_mask(c));
  c = tfc_crc32c_extend(c, buf + n, 4);
  n += 4;
  for (int64_t i = 0; i < t->nelems; i++) {
    if (s[i].len) memcpy(buf + n, s[i].data, s[i].len);
    c = tfc_crc32c_extend(c, buf + n, s[i].len);
    n += s[i].len;
  }
  *out = buf;
  *len = n;
  *crc = c;
  return true;
}

/* Encodes a variant tensor's stored form (TF's layout: per element the
 * varint64 length of its VariantTensorDataProto, the proto, and the masked
 * running CRC; the CRC runs over each length as 8 little-endian bytes, the
 * proto and the stored checksum) into a new buffer and its CRC. Elements
 * must be tfc_variant_data values; others are UNIMPLEMENTED. */
static bool encode_variants(const tfc_tensor *t, uint8_t **out, size_t *len, uint32_t *crc,
                            tfc_status *st) {
  size_t cap = 64, n = 0;
  uint8_t *buf = tfc_malloc(cap);
  uint32_t c = 0;
  if (!buf) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM saving a variant tensor");
  for (int64_t i = 0; i < t->nelems; i++) {
    const tfc_object *o = tfc_tensor_object_at(t, i);
    const tfc_variant_data *v = tfc_variant_data_cast(o);
    if (!v) {
      tfc_free(buf);
      return tfc_status_set(st, TFC_CODE_UNIMPLEMENTED,
                            "Saving a variant tensor holding %s values is not supported",
                            o ? o->type->name : "empty");
    }
    uint8_t *proto = NULL;
    size_t plen = 0;
    if (!tfc_bundle_variant_encode(v->type_name, v->data, v->len, &proto, &plen, st)) {
      tfc_free(buf);
      return false;
    }
    if (cap - n < plen + 20) {
      size_t ncap = (n + plen + 20) * 2;
      uint8_t *nb = tfc_realloc(buf, ncap);
      if (!nb) {
        tfc_free(proto);
        tfc_free(buf);
        return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM saving a variant tensor");
      }
      buf = nb;
      cap = ncap;
    }
    n += tfc_put_varint64(buf + n, plen);
    uint8_t w8[8];
    tfc_put_fixed32(w8, (uint32_t)plen);
    tfc_put_fixed32(w8 + 4, (uint32_t)((uint64_t)plen >> 32));
    c = tfc_crc32c_extend(c, w8, 8);
    if (plen) memcpy(buf + n, proto, plen);
    c = tfc_crc32c_extend(c, buf + n, plen);
    n += plen;
    tfc_free(proto);
    tfc_put_fixed32(buf + n, tfc_crc32c_mask(c));
    c = tfc_crc32c_extend(c, buf + n, 4);
    n += 4;
  }
  *out = buf;
  *len = n;
  *crc = c;
  return true;
}

bool tfc_bundle_writer_add(tfc_bundle_writer *w, const char *key, size_t klen, const tfc_tensor *t,
                           tfc_threadpool *pool, tfc_status *st) {
  if (w->failed || w->finished)
    return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "checkpoint writer is not usable");
  tfc_dtype dt = t->dtype;
  if (dt == TFC_DTYPE_RESOURCE || (dt != TFC_DTYPE_VARIANT && !tfc_dtype_is_supported(dt)))
    return tfc_status_set(st, TFC_CODE_UNIMPLEMENTED, "Saving tensors of type %s is not supported",
                          tfc_dtype_name(dt));
  if (w->n == w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 16;
    tfc_bundle_keyed *e = tfc_realloc(w->entries, cap * sizeof *e);
    if (!e) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    w->entries = e;
    w->cap = cap;
  }
  tfc_bundle_keyed *we = &w->entries[w->n];
  memset(we, 0, sizeof *we);
  we->key = tfc_io_dup_bytes(key, klen);
  if (!we->key) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  we->klen = klen;
  we->e.dtype = dt;
  we->e.rank = t->rank;
  memcpy(we->e.dims, t->dims, sizeof t->dims);
  we->e.offset = (int64_t)w->off;
  uint32_t crc = 0;
  bool ok;
  if (dt == TFC_DTYPE_STRING) {
    uint8_t *buf = NULL;
    size_t len = 0;
    ok = encode_strings(t, &buf, &len, &crc, st) && write_bytes(w, buf, len, NULL, &(uint32_t){0}, st);
    tfc_free(buf);
  } else if (dt == TFC_DTYPE_VARIANT) {
    uint8_t *buf = NULL;
    size_t len = 0;
    ok = encode_variants(t, &buf, &len, &crc, st) && write_bytes(w, buf, len, NULL, &(uint32_t){0}, st);
    tfc_free(buf);
  } else {
    ok = write_bytes(w, t->data, tfc_tensor_nbytes(t), pool, &crc, st);
  }
  if (!ok) {
    tfc_free(we->key);
    w->failed = true;
    return false;
  }
  we->e.size = (int64_t)(w->off - (uint64_t)we->e.offset);
  we->e.crc32c = tfc_crc32c_mask(crc);
  w->n++;
  return true;
}

bool tfc_bundle_writer_add_slice(tfc_bundle_writer *w, const char *key, size_t klen, int rank,
                                 const int64_t *dims, const tfc_bundle_slice *slice,
                                 const tfc_tensor *t, tfc_threadpool *pool, tfc_status *st) {
  if (w->failed || w->finished)
    return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "checkpoint writer is not usable");
  bool shape_ok = slice->rank == rank && t->rank == rank;
  for (int d = 0; shape_ok && d < rank; d++)
    shape_ok = t->dims[d] == (slice->extent[d].length < 0 ? dims[d] : slice->extent[d].length);
  if (!shape_ok)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                          "The shape of the slice of %.*s does not match its slice spec",
                          (int)klen, key);
  tfc_bundle_keyed *full = NULL;
  for (size_t i = 0; i < w->n; i++)
    if (w->entries[i].klen == klen && memcmp(w->entries[i].key, key, klen) == 0) full = &w->entries[i];
  if (full) {
    bool same = full->e.n_slices > 0 && full->e.dtype == t->dtype && full->e.rank == rank;
    for (int d = 0; same && d < rank; d++) same = full->e.dims[d] == dims[d];
    if (!same)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Slices of %.*s disagree on dtype or full shape", (int)klen, key);
  } else {
    if (w->n == w->cap) {
      size_t cap = w->cap ? 2 * w->cap : 16;
      tfc_bundle_keyed *e = tfc_realloc(w->entries, cap * sizeof *e);
      if (!e) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
      w->entries = e;
      w->cap = cap;
    }
    full = &w->entries[w->n];
    memset(full, 0, sizeof *full);
    full->key = tfc_io_dup_bytes(key, klen);
    if (!full->key) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    full->klen = klen;
    full->e.dtype = t->dtype;
    full->e.rank = rank;
    memcpy(full->e.dims, dims, sizeof(int64_t) * (size_t)rank);
    w->n++;
  }
  tfc_bundle_slice *sl = tfc_realloc(full->e.slices, sizeof *sl * (size_t)(full->e.n_slices + 1));
  if (!sl) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  full->e.slices = sl;
  sl[full->e.n_slices++] = *slice;
  tfc_strbuf k;
  tfc_strbuf_init(&k);
  bool ok = tfc_bundle_slice_key(key, klen, slice, &k);
  if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  ok = ok && tfc_bundle_writer_add(w, k.data, k.len, t, pool, st);
  tfc_strbuf_free(&k);
  return ok;
}

/* qsort comparator of entries by key bytes. */
static int cmp_entry(const void *a, const void *b) {
  const tfc_bundle_keyed *x = a, *y = b;
  size_t m = x->klen < y->klen ? x->klen : y->klen;
  int c = m ? memcmp(x->key, y->key, m) : 0;
  if (c) return c;
  return x->klen < y->klen ? -1 : x->klen > y->klen;
}

bool tfc_bundle_sort_keyed(tfc_bundle_keyed *entries, size_t n, tfc_status *st) {
  if (n) qsort(entries, n, sizeof *entries, cmp_entry);
  for (size_t i = 1; i < n; i++)
    if (cmp_entry(&entries[i - 1], &entries[i]) == 0)
      return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Adding duplicate key: %.*s",
                            (int)entries[i].klen, entries[i].key);
  return true;
}

bool tfc_bundle_write_index(const tfc_bundle_keyed *entries, size_t n, int num_shards, const char *index_path,
                        tfc_status *st) {
  tfc_table_builder *tb = tfc_table_builder_new();
  if (!tb) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  uint8_t *val = NULL;
  size_t vlen = 0;
  bool ok = tfc_bundle_header_encode(num_shards, &val, &vlen, st) &&
            tfc_table_builder_add(tb, "", 0, val, vlen, st);
  tfc_free(val);
  for (size_t i = 0; ok && i < n; i++) {
    val = NULL;
    ok = tfc_bundle_entry_encode(&entries[i].e, &val, &vlen, st) &&
         tfc_table_builder_add(tb, entries[i].key, entries[i].klen, val, vlen, st);
    tfc_free(val);
  }
  const uint8_t *data;
  size_t len;
  ok = ok && tfc_table_builder_finish(tb, &data, &len, st) &&
       tfc_io_write_file_atomic(index_path, data, len, st);
  tfc_table_builder_free(tb);
  return ok;
}

bool tfc_bundle_writer_finish(tfc_bundle_writer *w, tfc_status *st) {
  if (w->failed || w->finished)
    return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "checkpoint writer is not usable");
  w->finished = true;
  int fd = w->fd;
  w->fd = -1;
  bool ok = true;
  if (close(fd) != 0) ok = tfc_io_errno_status(st, errno, "Failed to close ", w->data_tmp);
  /* duplicate keys are refused before any file is renamed */
  ok = ok && tfc_bundle_sort_keyed(w->entries, w->n, st);
  char *index_path = ok ? tfc_bundle_index_filename(w->prefix) : NULL;
  if (ok && !index_path) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  if (ok && rename(w->data_tmp, w->data_path) != 0)
    ok = tfc_io_errno_status(st, errno, "Failed to rename to ", w->data_path);
  if (ok) {
    tfc_free(w->data_tmp);
    w->data_tmp = NULL;
    ok = tfc_bundle_write_index(w->entries, w->n, 1, index_path, st);
  }
  tfc_free(index_path);
  if (!ok) w->failed = true;
  return ok;
}

void tfc_bundle_writer_free(tfc_bundle_writer *w) {
  if (!w) return;
  if (w->fd >= 0) close(w->fd);
  if (w->data_tmp) unlink(w->data_tmp);
  for (size_t i = 0; i < w->n; i++) {
    tfc_free(w->entries[i].key);
    tfc_bundle_entry_clear(&w->entries[i].e);
  }
  tfc_free(w->entries);
  tfc_free(w->prefix);
  tfc_free(w->data_path);
  tfc_free(w->data_tmp);
  tfc_free(w);
}
