/*
 * table.h — the sorted string table of a V2 checkpoint's .index file
 * (TensorFlow's LevelDB-derived "table" format, uncompressed).
 *
 * Layout: data blocks, an empty metaindex block, an index block (one entry
 * per data block: a separator key -> the block's offset and size), and a
 * 48-byte footer (the two block handles, zero padding, magic
 * 0xdb4775248b80fb57). A block is prefix-compressed entries (varint shared
 * length, unshared length, value length, key delta, value) with a restart
 * point every 16 entries (every entry in the index block), the restart
 * offsets and their count as fixed32, then a type byte (0: uncompressed) and
 * the masked CRC-32C of block ‖ type. The builder reproduces TF's writer
 * byte for byte (block size 256 KiB, shortened separator keys).
 *
 * The reader validates everything and reports TF's DataLoss messages ("file
 * is too short to be an sstable", "not an sstable (bad magic number)",
 * "block checksum mismatch", ...); it never reads out of bounds, whatever the
 * bytes. It decodes the whole table on open (index files are small).
 */
#ifndef TFC_IO_TABLE_H
#define TFC_IO_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

#define TFC_TABLE_FOOTER_SIZE 48
#define TFC_TABLE_MAGIC 0xdb4775248b80fb57ull

typedef struct tfc_table_builder tfc_table_builder;

/* A builder with TF's options. NULL on OOM. */
tfc_table_builder *tfc_table_builder_new(void);
/* Adds an entry; keys must be added in strictly increasing bytewise order
 * (INVALID_ARGUMENT otherwise). false + st on error (RESOURCE_EXHAUSTED). */
bool tfc_table_builder_add(tfc_table_builder *b, const void *key, size_t klen, const void *val,
                           size_t vlen, tfc_status *st);
/* Finishes the table; *data and *len give the whole file, owned by the
 * builder (valid until tfc_table_builder_free). No adds afterwards. */
bool tfc_table_builder_finish(tfc_table_builder *b, const uint8_t **data, size_t *len,
                              tfc_status *st);
/* Frees the builder. NULL-safe. */
void tfc_table_builder_free(tfc_table_builder *b);

typedef struct tfc_table tfc_table;

/* One decoded entry; pointers stay valid while the table lives. */
typedef struct tfc_table_entry {
  const uint8_t *key;
  size_t klen;
  const uint8_t *val;
  size_t vlen;
} tfc_table_entry;

/* Decodes a table file held in data[0, size) (copied; the caller keeps data).
 * NULL + DATA_LOSS (corrupt or not a table) or RESOURCE_EXHAUSTED. */
tfc_table *tfc_table_open(const void *data, size_t size, tfc_status *st);
/* Number of entries (sorted by key). */
size_t tfc_table_count(const tfc_table *t);
/* Entry i (0 <= i < count). */
const tfc_table_entry *tfc_table_at(const tfc_table *t, size_t i);
/* The entry whose key equals key[0, klen), or NULL. */
const tfc_table_entry *tfc_table_find(const tfc_table *t, const void *key, size_t klen);
/* Frees the table. NULL-safe. */
void tfc_table_free(tfc_table *t);

#endif
