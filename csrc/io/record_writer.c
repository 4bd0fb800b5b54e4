/*
 * record_writer.c — writes TFRecord framing (see record.h) to a plain or
 * compressed file stream, and parses TF's compression type names.
 */
#include <string.h>

#include "base/alloc.h"
#include "io/coding.h"
#include "io/crc32c.h"
#include "io/record.h"

struct tfc_record_writer {
  tfc_ostream *out;
};

bool tfc_record_compression_parse(const char *name, tfc_zstream_kind *out, tfc_status *st) {
  if (!name || !name[0] || !strcmp(name, "NONE")) *out = TFC_ZSTREAM_NONE;
  else if (!strcmp(name, "ZLIB")) *out = TFC_ZSTREAM_ZLIB;
  else if (!strcmp(name, "GZIP")) *out = TFC_ZSTREAM_GZIP;
  else return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Unsupported compression_type: %s", name);
  return true;
}

void tfc_record_encode_header(uint8_t header[TFC_RECORD_HEADER], uint64_t n) {
  tfc_put_fixed32(header, (uint32_t)n);
  tfc_put_fixed32(header + 4, (uint32_t)(n >> 32));
  tfc_put_fixed32(header + 8, tfc_crc32c_mask(tfc_crc32c(header, 8)));
}

void tfc_record_encode_footer(uint8_t footer[TFC_RECORD_FOOTER], const void *data, size_t n) {
  tfc_put_fixed32(footer, tfc_crc32c_mask(tfc_crc32c(data, n)));
}

tfc_record_writer *tfc_record_writer_open(const char *path, tfc_zstream_kind kind, int level,
                                          tfc_status *st) {
  tfc_ostream *out = tfc_ostream_open_file(path, kind, level, st);
  if (!out) return NULL;
  tfc_record_writer *w = tfc_calloc(1, sizeof *w);
  if (!w) {
    tfc_ostream_close(out, st);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM opening a record writer");
    return NULL;
  }
  w->out = out;
  return w;
}

bool tfc_record_writer_write(tfc_record_writer *w, const void *data, size_t n, tfc_status *st) {
  uint8_t header[TFC_RECORD_HEADER], footer[TFC_RECORD_FOOTER];
  tfc_record_encode_header(header, n);
  tfc_record_encode_footer(footer, data, n);
  return tfc_ostream_write(w->out, header, sizeof header, st) &&
         tfc_ostream_write(w->out, data, n, st) &&
         tfc_ostream_write(w->out, footer, sizeof footer, st);
}

bool tfc_record_writer_flush(tfc_record_writer *w, tfc_status *st) {
  return tfc_ostream_flush(w->out, st);
}

bool tfc_record_writer_close(tfc_record_writer *w, tfc_status *st) {
  if (!w) return true;
  bool ok = tfc_ostream_close(w->out, st);
  tfc_free(w);
  return ok;
}
