/*
 * zstream.c — file and memory byte streams, plain or zlib/gzip compressed
 * (see zstream.h). Plain file reads go straight into the caller's buffer;
 * compressed ones inflate from a 256 KiB input buffer. A stream that ends in
 * the middle of a compressed member simply ends (the record layer above
 * reports the truncated record); corrupt compressed data is DATA_LOSS.
 */
#include "io/zstream.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base/alloc.h"

enum { ZBUF = 256 * 1024 };

struct tfc_istream {
  tfc_zstream_kind kind;
  int fd;                    /* -1 for memory streams */
  const uint8_t *mem;        /* memory streams: the bytes and how many remain */
  size_t mem_left;
  uint8_t *inbuf;            /* compressed file streams */
  bool z_live, z_ended, src_eof;
  z_stream z;
  char *path;
};

struct tfc_ostream {
  tfc_zstream_kind kind;
  int fd;
  uint8_t *buf;              /* pending plain bytes (NONE) or deflate output */
  size_t len;
  bool z_live;
  z_stream z;
  char *path;
};

/* Fails st with TF's "<path>; <strerror>" for errno e. */
static bool errno_fail(tfc_status *st, const char *path, int e) {
  return tfc_status_set(st, tfc_errno_code(e), "%s; %s", path, strerror(e));
}

/* zlib's window bits for a kind: 15 for zlib, 15 + 16 for gzip. */
static int window_bits(tfc_zstream_kind kind) { return kind == TFC_ZSTREAM_GZIP ? 15 + 16 : 15; }

/* Common set-up of an input stream (fd or memory already stored). */
static tfc_istream *istream_init(tfc_istream *in, tfc_status *st) {
  if (in->kind != TFC_ZSTREAM_NONE) {
    if (in->fd >= 0) {
      in->inbuf = tfc_malloc(ZBUF);
      if (!in->inbuf) {
        tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM allocating a read buffer");
        tfc_istream_free(in);
        return NULL;
      }
    }
    if (inflateInit2(&in->z, window_bits(in->kind)) != Z_OK) {
      tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "zlib: inflateInit2 failed");
      tfc_istream_free(in);
      return NULL;
    }
    in->z_live = true;
    if (in->fd < 0) {
      in->z.next_in = (Bytef *)in->mem;
      in->z.avail_in = 0;
    }
  }
  return in;
}

tfc_istream *tfc_istream_open_file(const char *path, tfc_zstream_kind kind, tfc_status *st) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    errno_fail(st, path, errno);
    return NULL;
  }
  tfc_istream *in = tfc_calloc(1, sizeof *in);
  char *p = tfc_strdup(path);
  if (!in || !p) {
    close(fd);
    tfc_free(in);
    tfc_free(p);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM opening %s", path);
    return NULL;
  }
  in->kind = kind;
  in->fd = fd;
  in->path = p;
#ifdef POSIX_FADV_SEQUENTIAL
  (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  return istream_init(in, st);
}

tfc_istream *tfc_istream_open_memory(const void *data, size_t n, tfc_zstream_kind kind,
                                     tfc_status *st) {
  tfc_istream *in = tfc_calloc(1, sizeof *in);
  if (!in) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    return NULL;
  }
  in->kind = kind;
  in->fd = -1;
  in->mem = data;
  in->mem_left = n;
  return istream_init(in, st);
}

/* Reads raw (possibly compressed) bytes from the underlying file or memory. */
static bool raw_read(tfc_istream *in, void *dst, size_t cap, size_t *got, tfc_status *st) {
  if (in->fd < 0) {
    size_t n = cap < in->mem_left ? cap : in->mem_left;
    if (n) memcpy(dst, in->mem, n);
    in->mem += n;
    in->mem_left -= n;
    *got = n;
    return true;
  }
  for (;;) {
    ssize_t r = read(in->fd, dst, cap);
    if (r >= 0) {
      *got = (size_t)r;
      return true;
    }
    if (errno != EINTR) return errno_fail(st, in->path, errno);
  }
}

/* Refills the inflater's input; sets src_eof when the source is exhausted. */
static bool refill(tfc_istream *in, tfc_status *st) {
  if (in->fd < 0) {
    /* memory: hand zlib the rest in chunks it can count (uInt) */
    size_t n = in->mem_left < (size_t)UINT32_MAX ? in->mem_left : (size_t)UINT32_MAX;
    in->z.next_in = (Bytef *)in->mem;
    in->z.avail_in = (uInt)n;
    in->mem += n;
    in->mem_left -= n;
    if (n == 0) in->src_eof = true;
    return true;
  }
  size_t got = 0;
  if (!raw_read(in, in->inbuf, ZBUF, &got, st)) return false;
  in->z.next_in = in->inbuf;
  in->z.avail_in = (uInt)got;
  if (got == 0) in->src_eof = true;
  return true;
}

bool tfc_istream_read(tfc_istream *in, void *dst, size_t cap, size_t *got, tfc_status *st) {
  *got = 0;
  if (cap == 0) return true;
  if (in->kind == TFC_ZSTREAM_NONE) return raw_read(in, dst, cap, got, st);
  if (cap > UINT32_MAX) cap = UINT32_MAX;
  in->z.next_out = dst;
  in->z.avail_out = (uInt)cap;
  while (in->z.avail_out > 0) {
    if (in->z.avail_in == 0) {
      if (in->src_eof) break;
      if (!refill(in, st)) return false;
      if (in->src_eof) break;
    }
    if (in->z_ended) {
      /* another gzip member (or zlib stream) follows the finished one */
      inflateReset(&in->z);
      in->z_ended = false;
    }
    int rc = inflate(&in->z, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      in->z_ended = true;
      continue;
    }
    if (rc == Z_BUF_ERROR) continue; /* needs more input */
    if (rc != Z_OK) {
      return tfc_status_set(st, TFC_CODE_DATA_LOSS, "%s: corrupt %s stream (%s)",
                            in->path ? in->path : "<memory>",
                            in->kind == TFC_ZSTREAM_GZIP ? "GZIP" : "ZLIB",
                            in->z.msg ? in->z.msg : "inflate failed");
    }
  }
  *got = cap - in->z.avail_out;
  return true;
}

void tfc_istream_free(tfc_istream *in) {
  if (!in) return;
  if (in->z_live) inflateEnd(&in->z);
  if (in->fd >= 0) close(in->fd);
  tfc_free(in->inbuf);
  tfc_free(in->path);
  tfc_free(in);
}

tfc_ostream *tfc_ostream_open_file(const char *path, tfc_zstream_kind kind, int level,
                                   tfc_status *st) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    errno_fail(st, path, errno);
    return NULL;
  }
  tfc_ostream *out = tfc_calloc(1, sizeof *out);
  if (out) {
    out->fd = fd;
    out->kind = kind;
    out->buf = tfc_malloc(ZBUF);
    out->path = tfc_strdup(path);
  }
  if (!out || !out->buf || !out->path) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM opening %s", path);
    if (out) {
      tfc_free(out->buf);
      tfc_free(out->path);
      tfc_free(out);
    }
    close(fd);
    return NULL;
  }
  if (kind != TFC_ZSTREAM_NONE) {
    if (level < -1 || level > 9) level = -1;
    if (deflateInit2(&out->z, level, Z_DEFLATED, window_bits(kind), 9, Z_DEFAULT_STRATEGY) != Z_OK) {
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "zlib: deflateInit2 failed");
      tfc_free(out->buf);
      tfc_free(out->path);
      tfc_free(out);
      close(fd);
      return NULL;
    }
    out->z_live = true;
  }
  return out;
}

/* Writes all of data[0, n) to the file. */
static bool write_all(tfc_ostream *out, const uint8_t *data, size_t n, tfc_status *st) {
  while (n > 0) {
    ssize_t w = write(out->fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return errno_fail(st, out->path, errno);
    }
    data += w;
    n -= (size_t)w;
  }
  return true;
}

/* Runs deflate over the pending input with `flush`, writing full output buffers. */
static bool deflate_run(tfc_ostream *out, int flush, tfc_status *st) {
  for (;;) {
    out->z.next_out = out->buf + out->len;
    out->z.avail_out = (uInt)(ZBUF - out->len);
    int rc = deflate(&out->z, flush);
    out->len = ZBUF - out->z.avail_out;
    if (rc == Z_STREAM_ERROR) return tfc_status_set(st, TFC_CODE_INTERNAL, "zlib: deflate failed");
    if (out->len == ZBUF) {
      if (!write_all(out, out->buf, out->len, st)) return false;
      out->len = 0;
      continue;
    }
    /* output space is left: the input is consumed (and a sync flush done);
     * Z_FINISH goes on until the stream end is written */
    if (flush != Z_FINISH || rc == Z_STREAM_END) return true;
  }
}

bool tfc_ostream_write(tfc_ostream *out, const void *data, size_t n, tfc_status *st) {
  const uint8_t *p = data;
  if (out->kind == TFC_ZSTREAM_NONE) {
    if (out->len + n <= ZBUF) {
      memcpy(out->buf + out->len, p, n);
      out->len += n;
      return true;
    }
    if (out->len && !write_all(out, out->buf, out->len, st)) return false;
    out->len = 0;
    if (n >= ZBUF) return write_all(out, p, n, st);
    memcpy(out->buf, p, n);
    out->len = n;
    return true;
  }
  while (n > 0) {
    size_t chunk = n < UINT32_MAX ? n : UINT32_MAX;
    out->z.next_in = (Bytef *)p;
    out->z.avail_in = (uInt)chunk;
    if (!deflate_run(out, Z_NO_FLUSH, st)) return false;
    p += chunk;
    n -= chunk;
  }
  return true;
}

bool tfc_ostream_flush(tfc_ostream *out, tfc_status *st) {
  if (out->kind != TFC_ZSTREAM_NONE) {
    out->z.next_in = NULL;
    out->z.avail_in = 0;
    if (!deflate_run(out, Z_SYNC_FLUSH, st)) return false;
  }
  if (out->len && !write_all(out, out->buf, out->len, st)) return false;
  out->len = 0;
  return true;
}

bool tfc_ostream_close(tfc_ostream *out, tfc_status *st) {
  if (!out) return true;
  bool ok = true;
  if (out->kind != TFC_ZSTREAM_NONE) {
    out->z.next_in = NULL;
    out->z.avail_in = 0;
    ok = deflate_run(out, Z_FINISH, st);
  }
  if (ok && out->len) ok = write_all(out, out->buf, out->len, st);
  if (out->z_live) deflateEnd(&out->z);
  if (close(out->fd) != 0 && ok) ok = errno_fail(st, out->path, errno);
  tfc_free(out->buf);
  tfc_free(out->path);
  tfc_free(out);
  return ok;
}
