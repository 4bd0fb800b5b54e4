/*
 * table_reader.c — decodes a whole .index table (see table.h) into a sorted
 * array of entries, checking the footer, every block's bounds and checksum,
 * every entry's lengths and the key order. Keys and values are copied into
 * one arena the table owns. Materialised keys are capped (relative to the
 * file size) so that prefix sharing cannot blow small files up.
 */
#include <string.h>

#include "base/alloc.h"
#include "io/coding.h"
#include "io/crc32c.h"
#include "io/table.h"

struct tfc_table {
  tfc_table_entry *entries;
  size_t n, cap;
  /* keys and values live in `chunks` */
  struct chunk *chunks;
  size_t budget;           /* bytes the arena may still take */
};

typedef struct chunk {
  struct chunk *next;
  size_t used, cap;
  uint8_t data[];
} chunk;

/* n bytes from the table's arena, or NULL (OOM or over budget: *over set). */
static uint8_t *arena_alloc(tfc_table *t, size_t n, bool *over) {
  if (n > t->budget) {
    *over = true;
    return NULL;
  }
  t->budget -= n;
  chunk *c = t->chunks;
  if (!c || c->cap - c->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    c = tfc_malloc(sizeof(chunk) + cap);
    if (!c) return NULL;
    c->next = t->chunks;
    c->used = 0;
    c->cap = cap;
    t->chunks = c;
  }
  uint8_t *p = c->data + c->used;
  c->used += n;
  return p;
}

/* A block's contents after its trailer was checked. */
typedef struct span {
  const uint8_t *p;
  size_t n;
} span;

/* Decodes a block handle from [*p, end). */
static bool decode_handle(const uint8_t **p, const uint8_t *end, uint64_t *off, uint64_t *size) {
  return tfc_get_varint64(p, end, off) && tfc_get_varint64(p, end, size);
}

/* Checks and returns the block at (off, size) of the file. */
static bool read_block(const uint8_t *file, size_t fsize, uint64_t off, uint64_t size, span *out,
                       tfc_status *st) {
  if (off > fsize || size > fsize - off || fsize - off - size < 5)
    return tfc_status_set(st, TFC_CODE_DATA_LOSS, "truncated block read");
  const uint8_t *b = file + off;
  uint32_t stored = tfc_crc32c_unmask(tfc_get_fixed32(b + size + 1));
  uint32_t actual = tfc_crc32c(b, size + 1);  /* contents and the type byte */
#ifdef TFC_FUZZ_SKIP_CHECKSUMS
  /* fuzzing builds: let mutated blocks reach the parsers behind the checksum */
  (void)stored;
  (void)actual;
#else
  if (stored != actual) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "block checksum mismatch");
#endif
  switch (b[size]) {
    case 0: break;
    case 1:
      return tfc_status_set(st, TFC_CODE_DATA_LOSS,
                            "Snappy not supported or corrupted Snappy compressed block contents");
    default: return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad block type");
  }
  out->p = b;
  out->n = (size_t)size;
  return true;
}

/* Calls fn for every entry of a block (keys rebuilt into `key`, which grows
 * as needed). Fails with DATA_LOSS on any malformed entry. */
typedef bool (*entry_fn)(tfc_table *t, const uint8_t *key, size_t klen, const uint8_t *val,
                         size_t vlen, void *arg, tfc_status *st);

static bool walk_block(tfc_table *t, span b, uint8_t **key, size_t *key_cap, entry_fn fn, void *arg,
                       tfc_status *st) {
  if (b.n < 4) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad block contents");
  uint32_t n_restarts = tfc_get_fixed32(b.p + b.n - 4);
  if (n_restarts > (b.n - 4) / 4) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad block contents");
  const uint8_t *p = b.p, *end = b.p + b.n - 4 - 4 * (size_t)n_restarts;
  size_t klen = 0;
  while (p < end) {
    uint32_t shared, unshared, vlen;
    if (!tfc_get_varint32(&p, end, &shared) || !tfc_get_varint32(&p, end, &unshared) ||
        !tfc_get_varint32(&p, end, &vlen) || shared > klen || (size_t)(end - p) < unshared ||
        (size_t)(end - p) - unshared < vlen)
      return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad entry in block");
    size_t need = (size_t)shared + unshared;
    if (need > *key_cap) {
      size_t cap = need * 2;
      uint8_t *k = tfc_realloc(*key, cap);
      if (!k) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM reading a table");
      *key = k;
      *key_cap = cap;
    }
    if (unshared) memcpy(*key + shared, p, unshared);
    klen = need;
    p += unshared;
    if (!fn(t, *key, klen, p, vlen, arg, st)) return false;
    p += vlen;
  }
  return true;
}

/* Bytewise key comparison. */
static int key_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
  size_t m = alen < blen ? alen : blen;
  int c = m ? memcmp(a, b, m) : 0;
  if (c) return c;
  return alen < blen ? -1 : alen > blen;
}

/* Records one data entry (keys must increase across the whole table). */
static bool add_entry(tfc_table *t, const uint8_t *key, size_t klen, const uint8_t *val,
                      size_t vlen, void *arg, tfc_status *st) {
  (void)arg;
  if (t->n) {
    const tfc_table_entry *last = &t->entries[t->n - 1];
    if (key_cmp(last->key, last->klen, key, klen) >= 0)
      return tfc_status_set(st, TFC_CODE_DATA_LOSS, "table keys are out of order");
  }
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 64;
    tfc_table_entry *e = tfc_realloc(t->entries, cap * sizeof *e);
    if (!e) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM reading a table");
    t->entries = e;
    t->cap = cap;
  }
  bool over = false;
  uint8_t *mem = arena_alloc(t, klen + vlen + 1, &over);
  if (!mem)
    return over ? tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad entry in block: keys too long")
                : tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM reading a table");
  if (klen) memcpy(mem, key, klen);
  if (vlen) memcpy(mem + klen, val, vlen);
  mem[klen + vlen] = 0;
  t->entries[t->n++] = (tfc_table_entry){mem, klen, mem + klen, vlen};
  return true;
}

typedef struct index_walk {
  const uint8_t *file;
  size_t fsize;
  uint8_t **key;
  size_t *key_cap;
  uint64_t next_off;  /* data blocks must follow each other without overlap */
} index_walk;

/* For each index entry: read and walk the data block it points at. */
static bool visit_data_block(tfc_table *t, const uint8_t *key, size_t klen, const uint8_t *val,
                             size_t vlen, void *arg, tfc_status *st) {
  (void)key;
  (void)klen;
  index_walk *w = arg;
  const uint8_t *p = val;
  uint64_t off, size;
  if (!decode_handle(&p, val + vlen, &off, &size))
    return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad block handle");
  if (off < w->next_off) return tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad block handle");
  span b;
  if (!read_block(w->file, w->fsize, off, size, &b, st)) return false;
  w->next_off = off + size + 5;
  /* Data-block keys use their own buffer: the index walk owns w->key. */
  uint8_t *dkey = NULL;
  size_t dcap = 0;
  bool ok = walk_block(t, b, &dkey, &dcap, add_entry, NULL, st);
  tfc_free(dkey);
  return ok;
}

tfc_table *tfc_table_open(const void *data, size_t size, tfc_status *st) {
  const uint8_t *file = data;
  if (size < TFC_TABLE_FOOTER_SIZE) {
    tfc_status_set(st, TFC_CODE_DATA_LOSS, "file is too short to be an sstable");
    return NULL;
  }
  const uint8_t *footer = file + size - TFC_TABLE_FOOTER_SIZE;
  uint64_t magic = (uint64_t)tfc_get_fixed32(footer + 40) | ((uint64_t)tfc_get_fixed32(footer + 44) << 32);
  if (magic != TFC_TABLE_MAGIC) {
    tfc_status_set(st, TFC_CODE_DATA_LOSS, "not an sstable (bad magic number)");
    return NULL;
  }
  const uint8_t *p = footer;
  uint64_t meta_off, meta_size, idx_off, idx_size;
  if (!decode_handle(&p, footer + 40, &meta_off, &meta_size) ||
      !decode_handle(&p, footer + 40, &idx_off, &idx_size)) {
    tfc_status_set(st, TFC_CODE_DATA_LOSS, "bad block handle");
    return NULL;
  }
  tfc_table *t = tfc_calloc(1, sizeof *t);
  if (!t) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM reading a table");
    return NULL;
  }
  t->budget = (size_t)1 << 20;
  t->budget += size > (SIZE_MAX >> 11) ? SIZE_MAX >> 1 : size << 10;
  span idx;
  uint8_t *key = NULL;
  size_t key_cap = 0;
  index_walk w = {file, size - TFC_TABLE_FOOTER_SIZE, &key, &key_cap, 0};
  bool ok = read_block(file, size - TFC_TABLE_FOOTER_SIZE, idx_off, idx_size, &idx, st) &&
            walk_block(t, idx, &key, &key_cap, visit_data_block, &w, st);
  tfc_free(key);
  if (!ok) {
    tfc_table_free(t);
    return NULL;
  }
  return t;
}

size_t tfc_table_count(const tfc_table *t) { return t->n; }

const tfc_table_entry *tfc_table_at(const tfc_table *t, size_t i) {
  return i < t->n ? &t->entries[i] : NULL;
}

const tfc_table_entry *tfc_table_find(const tfc_table *t, const void *key, size_t klen) {
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = key_cmp(t->entries[mid].key, t->entries[mid].klen, key, klen);
    if (c == 0) return &t->entries[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

void tfc_table_free(tfc_table *t) {
  if (!t) return;
  for (chunk *c = t->chunks; c;) {
    chunk *next = c->next;
    tfc_free(c);
    c = next;
  }
  tfc_free(t->entries);
  tfc_free(t);
}
