/*
 * record.h — TFRecord files: TensorFlow's record framing
 *
 *   uint64 length (little-endian) | uint32 masked_crc32c(length) |
 *   byte   data[length]           | uint32 masked_crc32c(data)
 *
 * written plainly or as one zlib / gzip stream of that framing
 * (TFRecordOptions' compression types ZLIB and GZIP).
 *
 *   tfc_record_writer *w = tfc_record_writer_open("x.tfr", TFC_ZSTREAM_GZIP, -1, st);
 *   tfc_record_writer_write(w, bytes, n, st);
 *   tfc_record_writer_close(w, st);
 *
 *   tfc_record_reader *r = tfc_record_reader_open("x.tfr", TFC_ZSTREAM_GZIP, st);
 *   const uint8_t *rec; size_t len; int rc;
 *   while ((rc = tfc_record_reader_next(r, &rec, &len, st)) == 1) use(rec, len);
 *   // rc == 0: end of file; rc < 0: st says why (DATA_LOSS for damage)
 *   tfc_record_reader_free(r);
 *
 * Reading follows TensorFlow's RecordReader: a clean end, or an end inside a
 * record's 12-byte header, is the end of the file; a length or data CRC that
 * does not match is DATA_LOSS "corrupted record at <offset>" (the record's
 * offset for the length, with " (Is this even a TFRecord file?)" at offset 0;
 * the offset of its data for the data); data cut short is DATA_LOSS
 * "truncated record at <offset>' failed with Read less bytes than requested".
 * Offsets are those of the record's first byte in the uncompressed framing.
 */
#ifndef TFC_IO_RECORD_H
#define TFC_IO_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "io/zstream.h"

enum { TFC_RECORD_HEADER = 12, TFC_RECORD_FOOTER = 4 };

typedef struct tfc_record_writer tfc_record_writer;
typedef struct tfc_record_reader tfc_record_reader;

/* Parses TF's compression type names "" / "NONE", "ZLIB", "GZIP" (exact, as
 * TF's readers take them). false + INVALID_ARGUMENT for anything else. */
bool tfc_record_compression_parse(const char *name, tfc_zstream_kind *out, tfc_status *st);

/* Creates path (truncating it) for records; level is zlib's (-1 default). */
tfc_record_writer *tfc_record_writer_open(const char *path, tfc_zstream_kind kind, int level,
                                          tfc_status *st);
/* Appends one record holding data[0, n). */
bool tfc_record_writer_write(tfc_record_writer *w, const void *data, size_t n, tfc_status *st);
/* Pushes buffered records to the file. */
bool tfc_record_writer_flush(tfc_record_writer *w, tfc_status *st);
/* Finishes the file and frees w (also on failure). NULL-safe. */
bool tfc_record_writer_close(tfc_record_writer *w, tfc_status *st);

/* Opens a record file for reading. NULL + st (NOT_FOUND, ...) on failure. */
tfc_record_reader *tfc_record_reader_open(const char *path, tfc_zstream_kind kind,
                                          tfc_status *st);
/* A reader over the framing held in data[0, n) (borrowed; for tests and
 * fuzzing). */
tfc_record_reader *tfc_record_reader_open_memory(const void *data, size_t n, tfc_zstream_kind kind,
                                                 tfc_status *st);
/* The next record: 1 with *data / *len (valid until the next call on r), 0 at
 * the end, -1 with st set. After an error or the end it keeps returning the
 * same result. */
int tfc_record_reader_next(tfc_record_reader *r, const uint8_t **data, size_t *len,
                           tfc_status *st);
/* Offset (in the uncompressed framing) of the next record to read. */
uint64_t tfc_record_reader_offset(const tfc_record_reader *r);
/* Closes and frees r. NULL-safe. */
void tfc_record_reader_free(tfc_record_reader *r);

/* Encodes the 12-byte header for a record of n bytes and returns the 4-byte
 * footer value's encoding into footer (little-endian masked CRC of data). */
void tfc_record_encode_header(uint8_t header[TFC_RECORD_HEADER], uint64_t n);
void tfc_record_encode_footer(uint8_t footer[TFC_RECORD_FOOTER], const void *data, size_t n);

#endif
