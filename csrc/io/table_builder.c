/*
 * table_builder.c — writes the .index table format (see table.h) into
 * memory, reproducing TF's writer: data blocks flushed once their estimated
 * size reaches 256 KiB, restart interval 16 (1 in the index block), index
 * keys shortened to a separator between blocks and a successor after the
 * last one, an empty metaindex block, no compression.
 */
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "io/coding.h"
#include "io/crc32c.h"
#include "io/table.h"

#define BLOCK_SIZE 262144u
#define DATA_RESTART_INTERVAL 16

/* One block under construction. */
typedef struct block {
  tfc_strbuf buf;
  uint32_t *restarts;
  size_t n_restarts, cap_restarts;
  int counter;          /* entries since the last restart */
  int interval;
  tfc_strbuf last_key;
  size_t n_entries;
} block;

struct tfc_table_builder {
  tfc_strbuf out;       /* the file so far */
  block data, index;
  tfc_strbuf last_key;  /* last key added to the table */
  bool pending_index;   /* a data block was flushed; its index entry waits for the next key */
  uint64_t pending_off, pending_size;
  size_t n_entries;
  bool finished;
};

/* Resets b to empty with the given restart interval (keeps allocations). */
static bool block_reset(block *b, int interval) {
  b->buf.len = 0;
  b->last_key.len = 0;
  b->counter = 0;
  b->interval = interval;
  b->n_entries = 0;
  if (!b->restarts) {
    b->cap_restarts = 16;
    b->restarts = tfc_malloc(b->cap_restarts * sizeof *b->restarts);
    if (!b->restarts) return false;
  }
  b->restarts[0] = 0;
  b->n_restarts = 1;
  return true;
}

/* Frees a block's storage. */
static void block_free(block *b) {
  tfc_strbuf_free(&b->buf);
  tfc_strbuf_free(&b->last_key);
  tfc_free(b->restarts);
}

/* Bytes the block would take once finished. */
static size_t block_estimate(const block *b) { return b->buf.len + b->n_restarts * 4 + 4; }

/* Appends a varint to a strbuf. */
static bool put_varint(tfc_strbuf *s, uint64_t v) {
  uint8_t tmp[10];
  size_t n = tfc_put_varint64(tmp, v);
  return tfc_strbuf_append(s, (const char *)tmp, n);
}

/* Adds one entry to a block (prefix-compressed against the previous key). */
static bool block_add(block *b, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen) {
  size_t shared = 0;
  if (b->counter < b->interval) {
    size_t m = klen < b->last_key.len ? klen : b->last_key.len;
    while (shared < m && (uint8_t)b->last_key.data[shared] == key[shared]) shared++;
  } else {
    if (b->n_restarts == b->cap_restarts) {
      uint32_t *r = tfc_realloc(b->restarts, 2 * b->cap_restarts * sizeof *r);
      if (!r) return false;
      b->restarts = r;
      b->cap_restarts *= 2;
    }
    b->restarts[b->n_restarts++] = (uint32_t)b->buf.len;
    b->counter = 0;
  }
  bool ok = put_varint(&b->buf, shared) && put_varint(&b->buf, klen - shared) &&
            put_varint(&b->buf, vlen) &&
            tfc_strbuf_append(&b->buf, (const char *)key + shared, klen - shared) &&
            tfc_strbuf_append(&b->buf, (const char *)val, vlen);
  b->last_key.len = 0;
  ok = ok && tfc_strbuf_append(&b->last_key, (const char *)key, klen);
  b->counter++;
  b->n_entries++;
  return ok;
}

/* Appends the restart array and count to the block's buffer. */
static bool block_finish(block *b) {
  uint8_t w[4];
  for (size_t i = 0; i < b->n_restarts; i++) {
    tfc_put_fixed32(w, b->restarts[i]);
    if (!tfc_strbuf_append(&b->buf, (const char *)w, 4)) return false;
  }
  tfc_put_fixed32(w, (uint32_t)b->n_restarts);
  return tfc_strbuf_append(&b->buf, (const char *)w, 4);
}

/* Finishes b, writes it with its trailer to the file, records its handle,
 * and resets it. */
static bool write_block(tfc_table_builder *tb, block *b, uint64_t *off, uint64_t *size) {
  if (!block_finish(b)) return false;
  *off = tb->out.len;
  *size = b->buf.len;
  uint8_t trailer[5] = {0};
  uint32_t crc = tfc_crc32c_extend(tfc_crc32c(b->buf.data, b->buf.len), trailer, 1);
  tfc_put_fixed32(trailer + 1, tfc_crc32c_mask(crc));
  bool ok = tfc_strbuf_append(&tb->out, b->buf.data, b->buf.len) &&
            tfc_strbuf_append(&tb->out, (const char *)trailer, 5);
  return ok && block_reset(b, b->interval);
}

/* Encodes a block handle (two varints) into h; returns its length. */
static size_t encode_handle(uint8_t *h, uint64_t off, uint64_t size) {
  size_t n = tfc_put_varint64(h, off);
  return n + tfc_put_varint64(h + n, size);
}

/* Shortens start (in place) to a key in [start, limit), as TF's bytewise comparator. */
static void shortest_separator(tfc_strbuf *start, const uint8_t *limit, size_t llen) {
  size_t m = start->len < llen ? start->len : llen, i = 0;
  while (i < m && (uint8_t)start->data[i] == limit[i]) i++;
  if (i >= m) return;
  uint8_t d = (uint8_t)start->data[i];
  if (d < 0xff && d + 1 < limit[i]) {
    start->data[i] = (char)(d + 1);
    start->len = i + 1;
  }
}

/* Shortens key (in place) to a short key >= it. */
static void short_successor(tfc_strbuf *key) {
  for (size_t i = 0; i < key->len; i++) {
    uint8_t b = (uint8_t)key->data[i];
    if (b != 0xff) {
      key->data[i] = (char)(b + 1);
      key->len = i + 1;
      return;
    }
  }
}

/* Adds the pending data block's index entry keyed by tb->last_key. */
static bool add_index_entry(tfc_table_builder *tb) {
  uint8_t h[20];
  size_t n = encode_handle(h, tb->pending_off, tb->pending_size);
  tb->pending_index = false;
  return block_add(&tb->index, (const uint8_t *)tb->last_key.data, tb->last_key.len, h, n);
}

/* Writes the current data block, if it has entries. */
static bool flush(tfc_table_builder *tb) {
  if (tb->data.n_entries == 0) return true;
  if (!write_block(tb, &tb->data, &tb->pending_off, &tb->pending_size)) return false;
  tb->pending_index = true;
  return true;
}

tfc_table_builder *tfc_table_builder_new(void) {
  tfc_table_builder *tb = tfc_calloc(1, sizeof *tb);
  if (!tb) return NULL;
  if (!block_reset(&tb->data, DATA_RESTART_INTERVAL) || !block_reset(&tb->index, 1)) {
    tfc_table_builder_free(tb);
    return NULL;
  }
  return tb;
}

/* Bytewise comparison of two keys. */
static int key_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
  size_t m = alen < blen ? alen : blen;
  int c = m ? memcmp(a, b, m) : 0;
  if (c) return c;
  return alen < blen ? -1 : alen > blen;
}

bool tfc_table_builder_add(tfc_table_builder *tb, const void *key, size_t klen, const void *val,
                           size_t vlen, tfc_status *st) {
  if (tb->finished) return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "table already finished");
  if (tb->n_entries &&
      key_cmp(key, klen, (const uint8_t *)tb->last_key.data, tb->last_key.len) <= 0)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "table keys must be added in increasing order");
  bool ok = true;
  if (tb->pending_index) {
    shortest_separator(&tb->last_key, key, klen);
    ok = add_index_entry(tb);
  }
  tb->last_key.len = 0;
  ok = ok && tfc_strbuf_append(&tb->last_key, key, klen) && block_add(&tb->data, key, klen, val, vlen);
  tb->n_entries++;
  if (ok && block_estimate(&tb->data) >= BLOCK_SIZE) ok = flush(tb);
  if (!ok) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM building a table");
  return true;
}

bool tfc_table_builder_finish(tfc_table_builder *tb, const uint8_t **data, size_t *len,
                              tfc_status *st) {
  if (tb->finished) return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "table already finished");
  tb->finished = true;
  uint64_t meta_off = 0, meta_size = 0, idx_off = 0, idx_size = 0;
  block meta = {0};
  bool ok = flush(tb) && block_reset(&meta, DATA_RESTART_INTERVAL) &&
            write_block(tb, &meta, &meta_off, &meta_size);
  block_free(&meta);
  if (ok && tb->pending_index) {
    short_successor(&tb->last_key);
    ok = add_index_entry(tb);
  }
  ok = ok && write_block(tb, &tb->index, &idx_off, &idx_size);
  if (ok) {
    uint8_t footer[TFC_TABLE_FOOTER_SIZE] = {0};
    size_t n = encode_handle(footer, meta_off, meta_size);
    encode_handle(footer + n, idx_off, idx_size);
    tfc_put_fixed32(footer + 40, (uint32_t)(TFC_TABLE_MAGIC & 0xffffffffu));
    tfc_put_fixed32(footer + 44, (uint32_t)(TFC_TABLE_MAGIC >> 32));
    ok = tfc_strbuf_append(&tb->out, (const char *)footer, sizeof footer);
  }
  if (!ok) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM building a table");
  *data = (const uint8_t *)tb->out.data;
  *len = tb->out.len;
  return true;
}

void tfc_table_builder_free(tfc_table_builder *tb) {
  if (!tb) return;
  tfc_strbuf_free(&tb->out);
  block_free(&tb->data);
  block_free(&tb->index);
  tfc_strbuf_free(&tb->last_key);
  tfc_free(tb);
}
