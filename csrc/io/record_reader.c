/*
 * record_reader.c — reads TFRecord framing (see record.h) from a byte stream.
 *
 * Records are handed out as pointers into one buffer that is refilled in
 * large reads (1 MiB at first); a record larger than the buffer grows it,
 * doubling as its bytes actually arrive, so a damaged length can never make
 * the reader allocate more than about twice the bytes the file holds.
 */
#include <inttypes.h>
#include <string.h>

#include "base/alloc.h"
#include "io/coding.h"
#include "io/crc32c.h"
#include "io/record.h"

enum { READ_CHUNK = 1 << 20 };

struct tfc_record_reader {
  tfc_istream *in;
  uint8_t *buf;
  size_t cap, pos, end;  /* valid bytes are buf[pos, end) */
  uint64_t offset;       /* framing offset of buf[pos] */
  bool eof;              /* the stream returned its end */
  int done;              /* 0 while reading, else the sticky result (0 end, -1 error) */
  tfc_status err;        /* the sticky error */
};

/* Makes at least n bytes available at buf[pos]; false when the stream ended
 * first (or failed: then st is set and *failed true). */
static bool ensure(tfc_record_reader *r, size_t n, bool *failed, tfc_status *st) {
  *failed = false;
  if (r->end - r->pos >= n) return true;
  if (r->pos > 0) {
    memmove(r->buf, r->buf + r->pos, r->end - r->pos);
    r->end -= r->pos;
    r->pos = 0;
  }
  while (r->end < n) {
    if (r->eof) return false;
    if (r->end == r->cap) {
      size_t ncap = r->cap ? r->cap * 2 : READ_CHUNK;
      if (ncap > n && n > r->cap) ncap = n < READ_CHUNK ? READ_CHUNK : n;
      uint8_t *nb = tfc_realloc(r->buf, ncap);
      if (!nb) {
        *failed = true;
        return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED,
                              "OOM growing a record buffer to %zu bytes", ncap);
      }
      r->buf = nb;
      r->cap = ncap;
    }
    size_t got;
    if (!tfc_istream_read(r->in, r->buf + r->end, r->cap - r->end, &got, st)) {
      *failed = true;
      return false;
    }
    if (got == 0) r->eof = true;
    r->end += got;
  }
  return true;
}

/* Ends the reader with result rc (0 end, -1 error copied from st). */
static int finish(tfc_record_reader *r, int rc, tfc_status *st) {
  r->done = rc == 0 ? 1 : -1;
  if (rc < 0) tfc_status_copy(&r->err, st);
  return rc;
}

int tfc_record_reader_next(tfc_record_reader *r, const uint8_t **data, size_t *len,
                           tfc_status *st) {
  if (r->done) {
    if (r->done > 0) return 0;
    tfc_status_copy(st, &r->err);
    return -1;
  }
  bool failed;
  if (!ensure(r, TFC_RECORD_HEADER, &failed, st)) {
    /* an end inside the header is the end of the file, as in TensorFlow */
    return finish(r, failed ? -1 : 0, st);
  }
  const uint8_t *h = r->buf + r->pos;
  uint64_t n = (uint64_t)tfc_get_fixed32(h) | ((uint64_t)tfc_get_fixed32(h + 4) << 32);
  if (tfc_crc32c_unmask(tfc_get_fixed32(h + 8)) != tfc_crc32c(h, 8)) {
    tfc_status_set(st, TFC_CODE_DATA_LOSS, "corrupted record at %" PRIu64 "%s", r->offset,
                   r->offset == 0 ? " (Is this even a TFRecord file?)" : "");
    return finish(r, -1, st);
  }
  if (n > SIZE_MAX - TFC_RECORD_HEADER - TFC_RECORD_FOOTER - READ_CHUNK) {
    tfc_status_set(st, TFC_CODE_DATA_LOSS, "truncated record at %" PRIu64
                   "' failed with Read less bytes than requested", r->offset);
    return finish(r, -1, st);
  }
  size_t total = TFC_RECORD_HEADER + (size_t)n + TFC_RECORD_FOOTER;
  if (!ensure(r, total, &failed, st)) {
    if (!failed)
      tfc_status_set(st, TFC_CODE_DATA_LOSS, "truncated record at %" PRIu64
                     "' failed with Read less bytes than requested", r->offset);
    return finish(r, -1, st);
  }
  const uint8_t *d = r->buf + r->pos + TFC_RECORD_HEADER;
  if (tfc_crc32c_unmask(tfc_get_fixed32(d + n)) != tfc_crc32c(d, (size_t)n)) {
    /* TensorFlow names the offset of the data here, not of the record */
    tfc_status_set(st, TFC_CODE_DATA_LOSS, "corrupted record at %" PRIu64,
                   r->offset + TFC_RECORD_HEADER);
    return finish(r, -1, st);
  }
  *data = d;
  *len = (size_t)n;
  r->pos += total;
  r->offset += total;
  return 1;
}

/* Wraps an opened stream (NULL: st already set). */
static tfc_record_reader *reader_new(tfc_istream *in, tfc_status *st) {
  if (!in) return NULL;
  tfc_record_reader *r = tfc_calloc(1, sizeof *r);
  if (!r) {
    tfc_istream_free(in);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM opening a record reader");
    return NULL;
  }
  r->in = in;
  tfc_status_clear(&r->err);
  return r;
}

tfc_record_reader *tfc_record_reader_open(const char *path, tfc_zstream_kind kind,
                                          tfc_status *st) {
  return reader_new(tfc_istream_open_file(path, kind, st), st);
}

tfc_record_reader *tfc_record_reader_open_memory(const void *data, size_t n, tfc_zstream_kind kind,
                                                 tfc_status *st) {
  return reader_new(tfc_istream_open_memory(data, n, kind, st), st);
}

uint64_t tfc_record_reader_offset(const tfc_record_reader *r) { return r->offset; }

void tfc_record_reader_free(tfc_record_reader *r) {
  if (!r) return;
  tfc_istream_free(r->in);
  tfc_free(r->buf);
  tfc_free(r);
}
