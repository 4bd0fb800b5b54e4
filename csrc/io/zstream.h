/*
 * zstream.h — byte streams over files or memory, optionally compressed with
 * zlib (a raw zlib stream, RFC 1950) or gzip (RFC 1952), as TFRecord files
 * store them. The only place that includes zlib.h.
 *
 *   tfc_istream *in = tfc_istream_open_file("x.tfr.gz", TFC_ZSTREAM_GZIP, st);
 *   size_t got;
 *   while (tfc_istream_read(in, buf, sizeof buf, &got, st) && got > 0) ...;
 *   tfc_istream_free(in);
 *
 *   tfc_ostream *out = tfc_ostream_open_file("y.tfr", TFC_ZSTREAM_ZLIB, -1, st);
 *   tfc_ostream_write(out, data, n, st);
 *   tfc_ostream_close(out, st);        // finishes the stream, closes and frees
 *
 * Errors are TF's: file errors "<path>; <strerror>" with the code TF maps the
 * errno to; a damaged compressed stream is DATA_LOSS.
 */
#ifndef TFC_IO_ZSTREAM_H
#define TFC_IO_ZSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

typedef enum tfc_zstream_kind {
  TFC_ZSTREAM_NONE = 0,
  TFC_ZSTREAM_ZLIB = 1,
  TFC_ZSTREAM_GZIP = 2,
} tfc_zstream_kind;

typedef struct tfc_istream tfc_istream;
typedef struct tfc_ostream tfc_ostream;

/* Opens path for reading; compressed kinds are inflated on the fly. NULL + st
 * (NOT_FOUND, PERMISSION_DENIED, ...) on failure. */
tfc_istream *tfc_istream_open_file(const char *path, tfc_zstream_kind kind, tfc_status *st);
/* A stream over data[0, n) (borrowed: it must outlive the stream). */
tfc_istream *tfc_istream_open_memory(const void *data, size_t n, tfc_zstream_kind kind,
                                     tfc_status *st);
/* Reads up to cap bytes into dst; *got = 0 only at the end of the stream.
 * false + st on a read error or a damaged compressed stream (DATA_LOSS). */
bool tfc_istream_read(tfc_istream *in, void *dst, size_t cap, size_t *got, tfc_status *st);
/* Closes the file and frees the stream. NULL-safe. */
void tfc_istream_free(tfc_istream *in);

/* Creates (truncates) path for writing; level is zlib's (-1 = its default).
 * NULL + st on failure. */
tfc_ostream *tfc_ostream_open_file(const char *path, tfc_zstream_kind kind, int level,
                                   tfc_status *st);
/* Appends n bytes (buffered). false + st on a write error. */
bool tfc_ostream_write(tfc_ostream *out, const void *data, size_t n, tfc_status *st);
/* Pushes everything written so far to the file (a zlib sync flush for the
 * compressed kinds, so a reader can decode it). */
bool tfc_ostream_flush(tfc_ostream *out, tfc_status *st);
/* Finishes the compressed stream, closes the file and frees out (also on
 * failure). NULL-safe (returns true). */
bool tfc_ostream_close(tfc_ostream *out, tfc_status *st);

#endif
