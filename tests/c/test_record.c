/*
 * test_record.c — TFRecord framing and zlib/gzip streams (csrc/io/record*.c,
 * csrc/io/zstream.c): round trips, TF's exact bytes for a known record, and
 * the damaged-file cases (corrupt length / data, truncation, wrong kind).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "harness.h"
#include "io/record.h"

/* A fresh temporary path (the caller unlinks it). */
static void temp_path(char *buf, size_t n, const char *tag) {
  snprintf(buf, n, "/tmp/tfc_test_record_%d_%s", (int)getpid(), tag);
}

/* Reads a whole file into a malloc'd buffer; *n gets its size. */
static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc((size_t)sz + 1);
  *n = fread(b, 1, (size_t)sz, f);
  fclose(f);
  return b;
}

/* Writes records "r0", "r11", "r222", ... (n of them) with kind. */
static int write_records(const char *path, tfc_zstream_kind kind, int n, tfc_status *st) {
  tfc_record_writer *w = tfc_record_writer_open(path, kind, -1, st);
  if (!w) return 0;
  char rec[64];
  for (int i = 0; i < n; i++) {
    int len = snprintf(rec, sizeof rec, "r");
    for (int k = 0; k < i; k++) rec[len++] = (char)('0' + i % 10);
    if (!tfc_record_writer_write(w, rec, (size_t)len, st)) return 0;
    if (i == n / 2 && !tfc_record_writer_flush(w, st)) return 0;
  }
  return tfc_record_writer_close(w, st);
}

TFC_TEST(record_known_bytes) {
  /* a record "hello" as TensorFlow writes it */
  static const unsigned char want[] = {0x05, 0, 0, 0, 0, 0, 0, 0, 0xea, 0xb2, 0x04, 0x3e,
                                       'h', 'e', 'l', 'l', 'o', 0xbb, 0x1f, 0x1c, 0x19};
  unsigned char hdr[TFC_RECORD_HEADER], ftr[TFC_RECORD_FOOTER];
  tfc_record_encode_header(hdr, 5);
  tfc_record_encode_footer(ftr, "hello", 5);
  CHECK(memcmp(hdr, want, 12) == 0);
  CHECK(memcmp(ftr, want + 17, 4) == 0);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_record_reader *r = tfc_record_reader_open_memory(want, sizeof want, TFC_ZSTREAM_NONE, &st);
  CHECK(r);
  const uint8_t *d;
  size_t n;
  CHECK_EQ_INT(tfc_record_reader_next(r, &d, &n, &st), 1);
  CHECK_EQ_INT(n, 5);
  CHECK(memcmp(d, "hello", 5) == 0);
  CHECK_EQ_INT(tfc_record_reader_next(r, &d, &n, &st), 0);
  CHECK_EQ_INT(tfc_record_reader_offset(r), 21);
  CHECK_EQ_INT(tfc_record_reader_next(r, &d, &n, &st), 0);
  tfc_record_reader_free(r);
}

TFC_TEST(record_round_trip_all_kinds) {
  static const tfc_zstream_kind kinds[] = {TFC_ZSTREAM_NONE, TFC_ZSTREAM_ZLIB, TFC_ZSTREAM_GZIP};
  for (int k = 0; k < 3; k++) {
    char path[128];
    temp_path(path, sizeof path, "rt");
    tfc_status st;
    tfc_status_clear(&st);
    CHECK(write_records(path, kinds[k], 40, &st));
    CHECK_STATUS_OK(&st);
    size_t fsz;
    unsigned char *bytes = slurp(path, &fsz);
    CHECK(bytes);
    if (kinds[k] == TFC_ZSTREAM_GZIP) CHECK(bytes[0] == 0x1f && bytes[1] == 0x8b);
    if (kinds[k] == TFC_ZSTREAM_ZLIB) CHECK(bytes[0] == 0x78);
    /* from the file and from memory */
    for (int src = 0; src < 2; src++) {
      tfc_record_reader *r = src == 0 ? tfc_record_reader_open(path, kinds[k], &st)
                                      : tfc_record_reader_open_memory(bytes, fsz, kinds[k], &st);
      CHECK(r);
      const uint8_t *d;
      size_t n;
      int count = 0, rc;
      while ((rc = tfc_record_reader_next(r, &d, &n, &st)) == 1) {
        if ((int)n != 1 + count || d[0] != 'r') {
          tfc_record_reader_free(r);
          free(bytes);
          TFC_FAIL_("record %d has %zu bytes", count, n);
        }
        count++;
      }
      CHECK_EQ_INT(rc, 0);
      CHECK_EQ_INT(count, 40);
      tfc_record_reader_free(r);
    }
    free(bytes);
    unlink(path);
  }
}

TFC_TEST(record_large_records_grow_buffer) {
  char path[128];
  temp_path(path, sizeof path, "big");
  tfc_status st;
  tfc_status_clear(&st);
  size_t big = (3u << 20) + 17;
  unsigned char *data = malloc(big);
  for (size_t i = 0; i < big; i++) data[i] = (unsigned char)(i * 7);
  tfc_record_writer *w = tfc_record_writer_open(path, TFC_ZSTREAM_NONE, -1, &st);
  CHECK(w);
  CHECK(tfc_record_writer_write(w, "a", 1, &st));
  CHECK(tfc_record_writer_write(w, data, big, &st));
  CHECK(tfc_record_writer_write(w, "", 0, &st));
  CHECK(tfc_record_writer_close(w, &st));
  tfc_record_reader *r = tfc_record_reader_open(path, TFC_ZSTREAM_NONE, &st);
  CHECK(r);
  const uint8_t *d;
  size_t n;
  CHECK_EQ_INT(tfc_record_reader_next(r, &d, &n, &st), 1);
  CHECK_EQ_INT(n, 1);
  CHECK_EQ_INT(tfc_record_reader_next(r, &d, &n, &st), 1);
  CHECK_EQ_INT(n, big);
  CHECK(memcmp(d, data, big) == 0);
  CHECK_EQ_INT(tfc_record_reader_next(r, &d, &n, &st), 1);
  CHECK_EQ_INT(n, 0);
  CHECK_EQ_INT(tfc_record_reader_next(r, &d, &n, &st), 0);
  tfc_record_reader_free(r);
  free(data);
  unlink(path);
}

/* Reads records from memory until the end or an error; returns the count and
 * leaves the final status in st (rc in *rc). */
static int read_all(const unsigned char *b, size_t n, tfc_zstream_kind kind, int *rc, tfc_status *st) {
  tfc_status_clear(st);
  tfc_record_reader *r = tfc_record_reader_open_memory(b, n, kind, st);
  if (!r) {
    *rc = -2;
    return 0;
  }
  const uint8_t *d;
  size_t len;
  int count = 0;
  while ((*rc = tfc_record_reader_next(r, &d, &len, st)) == 1) count++;
  tfc_record_reader_free(r);
  return count;
}

TFC_TEST(record_damage_is_data_loss) {
  /* three records of 24 bytes each ("rec0rec0rec0rec0rec0", ...): 36-byte frames */
  unsigned char file[108];
  for (int i = 0; i < 3; i++) {
    unsigned char *f = file + 36 * i;
    char payload[20];
    for (int k = 0; k < 5; k++) memcpy(payload + 4 * k, "rec", 3), payload[4 * k + 3] = (char)('0' + i);
    tfc_record_encode_header(f, 20);
    memcpy(f + 12, payload, 20);
    tfc_record_encode_footer(f + 32, payload, 20);
  }
  tfc_status st;
  int rc;
  CHECK_EQ_INT(read_all(file, sizeof file, TFC_ZSTREAM_NONE, &rc, &st), 3);
  CHECK_EQ_INT(rc, 0);
  /* data cut short: the good records first, then DATA_LOSS at the record's offset */
  CHECK_EQ_INT(read_all(file, sizeof file - 2, TFC_ZSTREAM_NONE, &rc, &st), 2);
  CHECK_EQ_INT(rc, -1);
  CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
  CHECK(strcmp(st.msg, "truncated record at 72' failed with Read less bytes than requested") == 0);
  /* an end inside a header ends the file quietly (as TensorFlow's reader does) */
  CHECK_EQ_INT(read_all(file, 72 + 5, TFC_ZSTREAM_NONE, &rc, &st), 2);
  CHECK_EQ_INT(rc, 0);
  /* a flipped data byte */
  unsigned char bad[108];
  memcpy(bad, file, sizeof bad);
  bad[36 + 14] ^= 1;
  CHECK_EQ_INT(read_all(bad, sizeof bad, TFC_ZSTREAM_NONE, &rc, &st), 1);
  CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
  CHECK(strcmp(st.msg, "corrupted record at 48") == 0); /* the data's offset, as in TF */
  /* a flipped length byte */
  memcpy(bad, file, sizeof bad);
  bad[36 + 1] ^= 1;
  CHECK_EQ_INT(read_all(bad, sizeof bad, TFC_ZSTREAM_NONE, &rc, &st), 1);
  CHECK(strcmp(st.msg, "corrupted record at 36") == 0);
  /* damage in the first record names the file kind */
  memcpy(bad, file, sizeof bad);
  bad[9] ^= 0x80;
  CHECK_EQ_INT(read_all(bad, sizeof bad, TFC_ZSTREAM_NONE, &rc, &st), 0);
  CHECK(strcmp(st.msg, "corrupted record at 0 (Is this even a TFRecord file?)") == 0);
  /* a length whose CRC is valid but that points far past the end */
  memcpy(bad, file, sizeof bad);
  tfc_record_encode_header(bad + 72, (uint64_t)1 << 40);
  CHECK_EQ_INT(read_all(bad, sizeof bad, TFC_ZSTREAM_NONE, &rc, &st), 2);
  CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
  tfc_record_encode_header(bad + 72, UINT64_MAX);
  CHECK_EQ_INT(read_all(bad, sizeof bad, TFC_ZSTREAM_NONE, &rc, &st), 2);
  CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
}

TFC_TEST(record_compressed_damage_and_wrong_kind) {
  char path[128];
  temp_path(path, sizeof path, "gz");
  tfc_status st;
  tfc_status_clear(&st);
  CHECK(write_records(path, TFC_ZSTREAM_GZIP, 10, &st));
  size_t n;
  unsigned char *b = slurp(path, &n);
  CHECK(b);
  int rc;
  /* read as plain records: the gzip header is no record */
  CHECK_EQ_INT(read_all(b, n, TFC_ZSTREAM_NONE, &rc, &st), 0);
  CHECK_EQ_INT(rc, -1);
  CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
  /* as ZLIB: not a zlib stream */
  CHECK_EQ_INT(read_all(b, n, TFC_ZSTREAM_ZLIB, &rc, &st), 0);
  CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
  /* a cut compressed stream: what was decoded is delivered, then the truncation */
  int got = read_all(b, n - 12, TFC_ZSTREAM_GZIP, &rc, &st);
  CHECK(got < 10);
  /* damaged deflate data */
  b[n / 2] ^= 0xff;
  read_all(b, n, TFC_ZSTREAM_GZIP, &rc, &st);
  CHECK_EQ_INT(rc, -1);
  CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
  free(b);
  unlink(path);
  /* a missing file */
  tfc_status_clear(&st);
  CHECK(!tfc_record_reader_open("/nonexistent/dir/x.tfr", TFC_ZSTREAM_NONE, &st));
  CHECK_CODE(&st, TFC_CODE_NOT_FOUND);
  CHECK(strcmp(st.msg, "/nonexistent/dir/x.tfr; No such file or directory") == 0);
  tfc_zstream_kind k;
  CHECK(tfc_record_compression_parse("GZIP", &k, &st) && k == TFC_ZSTREAM_GZIP);
  CHECK(tfc_record_compression_parse("", &k, &st) && k == TFC_ZSTREAM_NONE);
  CHECK(!tfc_record_compression_parse("gzip", &k, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
}

TFC_TEST(record_reader_out_of_memory_is_a_status) {
  static const unsigned char rec[] = {0x05, 0, 0, 0, 0, 0, 0, 0, 0xea, 0xb2, 0x04, 0x3e,
                                      'h', 'e', 'l', 'l', 'o', 0xbb, 0x1f, 0x1c, 0x19};
  for (int fail = 1; fail < 5; fail++) {
    tfc_status st;
    tfc_status_clear(&st);
    tfc_alloc_fail_after(fail);
    tfc_record_reader *r = tfc_record_reader_open_memory(rec, sizeof rec, TFC_ZSTREAM_GZIP, &st);
    const uint8_t *d;
    size_t n;
    if (r) tfc_record_reader_next(r, &d, &n, &st);
    tfc_alloc_fail_after(0);
    tfc_record_reader_free(r);
    CHECK(st.code == TFC_CODE_OK || st.code == TFC_CODE_RESOURCE_EXHAUSTED ||
          st.code == TFC_CODE_DATA_LOSS);
  }
}
