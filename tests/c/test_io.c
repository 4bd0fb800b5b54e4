/*
 * test_io.c — unit tests of csrc/io: CRC-32C and masking, the .index table
 * builder/reader (byte layout, corrupt input), and V2 bundles (every dtype,
 * strings, slices, merge, corrupt and missing files).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/threadpool.h"
#include "core/tensor.h"
#include "harness.h"
#include "io/bundle.h"
#include "io/bundle_slice.h"
#include "io/crc32c.h"
#include "io/summary.h"
#include "io/table.h"

TFC_TEST(io_crc32c_known_values) {
  CHECK_EQ_INT(tfc_crc32c("123456789", 9), 0xE3069283u);
  CHECK_EQ_INT(tfc_crc32c("", 0), 0);
  float v[2] = {1.0f, 2.0f};
  CHECK_EQ_INT(tfc_crc32c_mask(tfc_crc32c(v, sizeof v)), 0x35e53c59u);
  CHECK_EQ_INT(tfc_crc32c_mask(0), 0xa282ead8u);
  for (uint32_t c = 1; c < 4000000000u; c += 123456789u) CHECK_EQ_INT(tfc_crc32c_unmask(tfc_crc32c_mask(c)), c);
}

TFC_TEST(io_crc32c_long_buffers_extend_and_combine) {
  size_t n = 3 * 8192 * 5 + 777;
  uint8_t *buf = malloc(n);
  uint32_t seed = 1;
  for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
  /* reference: byte at a time */
  uint32_t ref = 0;
  for (size_t i = 0; i < n; i++) ref = tfc_crc32c_extend(ref, buf + i, 1);
  CHECK_EQ_INT(tfc_crc32c(buf, n), ref);
  CHECK_EQ_INT(tfc_crc32c_extend_portable(0, buf, n), ref);
  CHECK_EQ_INT(tfc_crc32c_extend_portable(0, "123456789", 9), 0xE3069283u);
  for (size_t cut = 0; cut < n; cut += 9001) {
    CHECK_EQ_INT(tfc_crc32c_extend(tfc_crc32c(buf, cut), buf + cut, n - cut), ref);
    CHECK_EQ_INT(tfc_crc32c_combine(tfc_crc32c(buf, cut), tfc_crc32c(buf + cut, n - cut), n - cut), ref);
  }
  free(buf);
}

/* The exact bytes TF writes for a table with a header-like entry and one key. */
TFC_TEST(io_table_round_trip_and_layout) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_table_builder *b = tfc_table_builder_new();
  CHECK(b);
  CHECK(tfc_table_builder_add(b, "", 0, "\x08\x01", 2, &st));
  CHECK(tfc_table_builder_add(b, "a", 1, "xy", 2, &st));
  CHECK(!tfc_table_builder_add(b, "a", 1, "z", 1, &st));  /* not increasing */
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  const uint8_t *data;
  size_t len;
  CHECK(tfc_table_builder_finish(b, &data, &len, &st));
  /* magic at the end */
  CHECK(len > 48);
  CHECK(memcmp(data + len - 8, "\x57\xfb\x80\x8b\x24\x75\x47\xdb", 8) == 0);
  /* the empty metaindex block, as TF writes it */
  const uint8_t meta[13] = {0, 0, 0, 0, 1, 0, 0, 0, 0, 0xc0, 0xf2, 0xa1, 0xb0};
  int found = 0;
  for (size_t i = 0; i + 13 <= len; i++) found |= memcmp(data + i, meta, 13) == 0;
  CHECK(found);
  tfc_table *t = tfc_table_open(data, len, &st);
  CHECK_STATUS_OK(&st);
  CHECK(t);
  CHECK_EQ_INT(tfc_table_count(t), 2);
  const tfc_table_entry *e = tfc_table_find(t, "a", 1);
  CHECK(e && e->vlen == 2 && memcmp(e->val, "xy", 2) == 0);
  CHECK(tfc_table_find(t, "b", 1) == NULL);
  tfc_table_free(t);
  tfc_table_builder_free(b);
}

TFC_TEST(io_table_many_blocks) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_table_builder *b = tfc_table_builder_new();
  char key[32], val[200];
  memset(val, 'v', sizeof val);
  int n = 5000;  /* > 256 KiB of entries: several data blocks */
  for (int i = 0; i < n; i++) {
    snprintf(key, sizeof key, "key%06d", i);
    CHECK(tfc_table_builder_add(b, key, strlen(key), val, sizeof val, &st));
  }
  const uint8_t *data;
  size_t len;
  CHECK(tfc_table_builder_finish(b, &data, &len, &st));
  tfc_table *t = tfc_table_open(data, len, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(tfc_table_count(t), n);
  for (int i = 0; i < n; i += 97) {
    snprintf(key, sizeof key, "key%06d", i);
    CHECK(tfc_table_find(t, key, strlen(key)) != NULL);
  }
  tfc_table_free(t);
  /* every single-byte corruption is an error or a table, never a crash */
  uint8_t *copy = malloc(len);
  for (size_t i = 0; i < len; i += len / 300 + 1) {
    memcpy(copy, data, len);
    copy[i] ^= 0x5a;
    tfc_status_clear(&st);
    tfc_table *c = tfc_table_open(copy, len, &st);
    if (!c) CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
    tfc_table_free(c);
  }
  free(copy);
  tfc_table_builder_free(b);
}

TFC_TEST(io_table_corrupt_messages) {
  tfc_status st;
  tfc_status_clear(&st);
  uint8_t junk[100] = {0};
  CHECK(!tfc_table_open(junk, 10, &st));
  CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
  CHECK(strcmp(st.msg, "file is too short to be an sstable") == 0);
  CHECK(!tfc_table_open(junk, sizeof junk, &st));
  CHECK(strstr(st.msg, "bad magic number"));
  tfc_table_builder *b = tfc_table_builder_new();
  CHECK(tfc_table_builder_add(b, "k", 1, "v", 1, &st));
  const uint8_t *data;
  size_t len;
  CHECK(tfc_table_builder_finish(b, &data, &len, &st));
  uint8_t *copy = malloc(len);
  memcpy(copy, data, len);
  copy[3] ^= 1;  /* inside the data block */
  CHECK(!tfc_table_open(copy, len, &st));
  CHECK(strcmp(st.msg, "block checksum mismatch") == 0);
  free(copy);
  tfc_table_builder_free(b);
}

/* A fresh directory under /tmp for one test. */
static void temp_dir(char *buf, size_t n) {
  snprintf(buf, n, "/tmp/tfc_io_test_XXXXXX");
  if (!mkdtemp(buf)) buf[0] = 0;
}

/* rm -r of a test directory (files only one level deep). */
static void remove_dir(const char *dir) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

TFC_TEST(io_bundle_every_dtype_round_trip) {
  char dir[64], prefix[128];
  temp_dir(dir, sizeof dir);
  CHECK(dir[0]);
  snprintf(prefix, sizeof prefix, "%s/sub/model.ckpt-3", dir);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_threadpool *pool = tfc_threadpool_new(2);
  tfc_bundle_writer *w = tfc_bundle_writer_new(prefix, &st);
  CHECK_STATUS_OK(&st);
  CHECK(w);
  tfc_dtype types[] = {TFC_DTYPE_FLOAT,  TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32,     TFC_DTYPE_UINT8,
                       TFC_DTYPE_INT16,  TFC_DTYPE_INT8,   TFC_DTYPE_COMPLEX64, TFC_DTYPE_INT64,
                       TFC_DTYPE_BOOL,   TFC_DTYPE_BFLOAT16, TFC_DTYPE_UINT16,  TFC_DTYPE_COMPLEX128,
                       TFC_DTYPE_HALF,   TFC_DTYPE_UINT32, TFC_DTYPE_UINT64};
  int nt = (int)(sizeof types / sizeof types[0]);
  int64_t dims[2] = {3, 5};
  tfc_tensor *saved[32];
  for (int i = 0; i < nt; i++) {
    if (!tfc_dtype_is_supported(types[i])) {
      saved[i] = NULL;
      continue;
    }
    saved[i] = tfc_tensor_new(types[i], 2, dims, &st);
    CHECK(saved[i]);
    uint8_t *p = saved[i]->data;
    for (size_t k = 0; k < tfc_tensor_nbytes(saved[i]); k++) p[k] = (uint8_t)(k * 7 + i);
    if (types[i] == TFC_DTYPE_BOOL)
      for (size_t k = 0; k < 15; k++) p[k] &= 1;
    char key[16];
    snprintf(key, sizeof key, "t%02d", i);
    CHECK(tfc_bundle_writer_add(w, key, strlen(key), saved[i], pool, &st));
  }
  /* strings, including empty and binary elements, and a big float tensor */
  tfc_tensor *s = tfc_tensor_new(TFC_DTYPE_STRING, 1, (int64_t[]){3}, &st);
  tfc_tensor_set_string(s, 0, "hello", 5, &st);
  tfc_tensor_set_string(s, 2, "\x00\xff\x01", 3, &st);
  CHECK(tfc_bundle_writer_add(w, "strings", 7, s, pool, &st));
  tfc_tensor *big = tfc_tensor_new(TFC_DTYPE_FLOAT, 1, (int64_t[]){5 << 20}, &st);
  for (int64_t k = 0; k < big->nelems; k++) ((float *)big->data)[k] = (float)k;
  CHECK(tfc_bundle_writer_add(w, "big", 3, big, pool, &st));
  tfc_tensor *scalar = tfc_tensor_scalar(TFC_DTYPE_INT64, &(int64_t){-42}, &st);
  CHECK(tfc_bundle_writer_add(w, "a/scalar", 8, scalar, pool, &st));
  CHECK(tfc_bundle_writer_finish(w, &st));
  CHECK_STATUS_OK(&st);
  tfc_bundle_writer_free(w);

  tfc_bundle_reader *r = tfc_bundle_reader_open(prefix, &st);
  CHECK_STATUS_OK(&st);
  CHECK(r);
  CHECK_EQ_INT(tfc_bundle_reader_num_shards(r), 1);
  for (int i = 0; i < nt; i++) {
    if (!saved[i]) continue;
    char key[16];
    snprintf(key, sizeof key, "t%02d", i);
    tfc_tensor *t = tfc_bundle_reader_read(r, key, strlen(key), pool, &st);
    CHECK_STATUS_OK(&st);
    CHECK(t && t->dtype == types[i] && tfc_tensor_same_shape(t, saved[i]));
    CHECK(memcmp(t->data, saved[i]->data, tfc_tensor_nbytes(t)) == 0);
    tfc_tensor_unref(t);
    tfc_tensor_unref(saved[i]);
  }
  tfc_tensor *t = tfc_bundle_reader_read(r, "strings", 7, pool, &st);
  CHECK_STATUS_OK(&st);
  const tfc_string *e = t->data;
  CHECK(e[0].len == 5 && memcmp(e[0].data, "hello", 5) == 0);
  CHECK(e[1].len == 0);
  CHECK(e[2].len == 3 && memcmp(e[2].data, "\x00\xff\x01", 3) == 0);
  tfc_tensor_unref(t);
  t = tfc_bundle_reader_read(r, "big", 3, pool, &st);
  CHECK_STATUS_OK(&st);
  CHECK(memcmp(t->data, big->data, tfc_tensor_nbytes(big)) == 0);
  tfc_tensor_unref(t);
  t = tfc_bundle_reader_read(r, "big", 3, NULL, &st);  /* single-threaded path */
  CHECK_STATUS_OK(&st);
  tfc_tensor_unref(t);
  t = tfc_bundle_reader_read(r, "a/scalar", 8, pool, &st);
  CHECK(t && t->rank == 0 && ((int64_t *)t->data)[0] == -42);
  tfc_tensor_unref(t);
  CHECK(!tfc_bundle_reader_read(r, "zz", 2, pool, &st));
  CHECK_CODE(&st, TFC_CODE_NOT_FOUND);
  CHECK(strcmp(st.msg, "Key zz not found in checkpoint") == 0);
  tfc_status_clear(&st);
  /* names are listed sorted */
  const char *name;
  size_t nlen;
  tfc_bundle_entry ent;
  CHECK(tfc_bundle_reader_entry_at(r, 0, &name, &nlen, &ent, &st));
  CHECK(nlen == 8 && memcmp(name, "a/scalar", 8) == 0);
  tfc_bundle_entry_clear(&ent);
  tfc_bundle_reader_free(r);
  tfc_tensor_unref(s);
  tfc_tensor_unref(big);
  tfc_tensor_unref(scalar);
  tfc_threadpool_free(pool);
  remove_dir(dir);
}

/* Overwrites one byte of a file. */
static void poke(const char *path, long off, uint8_t xor_with) {
  FILE *f = fopen(path, "r+b");
  if (!f) return;
  fseek(f, off, SEEK_SET);
  int c = fgetc(f);
  fseek(f, off, SEEK_SET);
  fputc(c ^ xor_with, f);
  fclose(f);
}

TFC_TEST(io_bundle_corrupt_and_missing_files) {
  char dir[64], prefix[128], path[160];
  temp_dir(dir, sizeof dir);
  snprintf(prefix, sizeof prefix, "%s/m", dir);
  tfc_status st;
  tfc_status_clear(&st);
  CHECK(!tfc_bundle_reader_open(prefix, &st));
  CHECK_CODE(&st, TFC_CODE_NOT_FOUND);
  CHECK(strstr(st.msg, prefix));
  tfc_status_clear(&st);
  tfc_bundle_writer *w = tfc_bundle_writer_new(prefix, &st);
  tfc_tensor *v = tfc_tensor_zeros(TFC_DTYPE_FLOAT, 1, (int64_t[]){100}, &st);
  tfc_tensor *s = tfc_tensor_new(TFC_DTYPE_STRING, 1, (int64_t[]){2}, &st);
  tfc_tensor_set_string(s, 0, "abc", 3, &st);
  CHECK(tfc_bundle_writer_add(w, "v", 1, v, NULL, &st));
  CHECK(tfc_bundle_writer_add(w, "s", 1, s, NULL, &st));
  CHECK(!tfc_bundle_writer_add(w, "v", 1, v, NULL, &st) || !tfc_bundle_writer_finish(w, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);  /* duplicate key */
  tfc_bundle_writer_free(w);
  /* the failed writer left nothing behind */
  snprintf(path, sizeof path, "%s.index", prefix);
  CHECK(access(path, F_OK) != 0);
  tfc_status_clear(&st);
  w = tfc_bundle_writer_new(prefix, &st);
  CHECK(tfc_bundle_writer_add(w, "s", 1, s, NULL, &st));
  CHECK(tfc_bundle_writer_add(w, "v", 1, v, NULL, &st));
  CHECK(tfc_bundle_writer_finish(w, &st));
  tfc_bundle_writer_free(w);
  snprintf(path, sizeof path, "%s.data-00000-of-00001", prefix);
  /* flipped byte in v's data (after the string's 2 + 4 + 3 bytes) */
  poke(path, 20, 0x01);
  tfc_bundle_reader *r = tfc_bundle_reader_open(prefix, &st);
  CHECK(r);
  CHECK(!tfc_bundle_reader_read(r, "v", 1, NULL, &st));
  CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
  CHECK(strstr(st.msg, "Checksum does not match"));
  tfc_status_clear(&st);
  poke(path, 20, 0x01);
  poke(path, 7, 0x01);  /* a string byte */
  CHECK(!tfc_bundle_reader_read(r, "s", 1, NULL, &st));
  CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
  tfc_status_clear(&st);
  poke(path, 0, 0x02);  /* a string length */
  CHECK(!tfc_bundle_reader_read(r, "s", 1, NULL, &st));
  CHECK(st.code == TFC_CODE_DATA_LOSS || st.code == TFC_CODE_OUT_OF_RANGE);
  tfc_bundle_reader_free(r);
  /* truncated data file */
  tfc_status_clear(&st);
  CHECK(truncate(path, 100) == 0);
  r = tfc_bundle_reader_open(prefix, &st);
  CHECK(!tfc_bundle_reader_read(r, "v", 1, NULL, &st));
  CHECK_CODE(&st, TFC_CODE_OUT_OF_RANGE);
  CHECK(strcmp(st.msg, "Read less bytes than requested") == 0);
  tfc_bundle_reader_free(r);
  /* missing data file */
  tfc_status_clear(&st);
  unlink(path);
  r = tfc_bundle_reader_open(prefix, &st);
  CHECK(!tfc_bundle_reader_read(r, "v", 1, NULL, &st));
  CHECK_CODE(&st, TFC_CODE_NOT_FOUND);
  tfc_bundle_reader_free(r);
  /* index cut to 10 bytes */
  tfc_status_clear(&st);
  snprintf(path, sizeof path, "%s.index", prefix);
  CHECK(truncate(path, 10) == 0);
  CHECK(!tfc_bundle_reader_open(prefix, &st));
  CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
  CHECK(strstr(st.msg, "file is too short to be an sstable"));
  tfc_tensor_unref(v);
  tfc_tensor_unref(s);
  /* an unwritable directory */
  tfc_status_clear(&st);
  CHECK(!tfc_bundle_writer_new("/proc/tfc_no/such/dir/m", &st));
  CHECK(st.code != TFC_CODE_OK);
  remove_dir(dir);
}

TFC_TEST(io_bundle_merge_and_slices) {
  char dir[64], p0[128], p1[128], dest[128];
  temp_dir(dir, sizeof dir);
  snprintf(p0, sizeof p0, "%s/m_temp/part-00000-of-00002", dir);
  snprintf(p1, sizeof p1, "%s/m_temp/part-00001-of-00002", dir);
  snprintf(dest, sizeof dest, "%s/m", dir);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *a = tfc_tensor_scalar(TFC_DTYPE_INT32, &(int32_t){7}, &st);
  tfc_tensor *b = tfc_tensor_scalar(TFC_DTYPE_DOUBLE, &(double){2.5}, &st);
  tfc_bundle_writer *w = tfc_bundle_writer_new(p0, &st);
  CHECK(tfc_bundle_writer_add(w, "b", 1, b, NULL, &st) && tfc_bundle_writer_finish(w, &st));
  tfc_bundle_writer_free(w);
  w = tfc_bundle_writer_new(p1, &st);
  CHECK(tfc_bundle_writer_add(w, "a", 1, a, NULL, &st) && tfc_bundle_writer_finish(w, &st));
  tfc_bundle_writer_free(w);
  const char *srcs[2] = {p0, p1};
  CHECK(tfc_bundle_merge(srcs, 2, dest, true, false, &st));
  CHECK_STATUS_OK(&st);
  char path[160];
  snprintf(path, sizeof path, "%s/m_temp", dir);
  CHECK(access(path, F_OK) != 0);  /* the emptied directory is gone */
  snprintf(path, sizeof path, "%s.data-00001-of-00002", dest);
  CHECK(access(path, F_OK) == 0);
  tfc_bundle_reader *r = tfc_bundle_reader_open(dest, &st);
  CHECK_STATUS_OK(&st);
  CHECK_EQ_INT(tfc_bundle_reader_num_shards(r), 2);
  tfc_tensor *t = tfc_bundle_reader_read(r, "a", 1, NULL, &st);
  CHECK(t && ((int32_t *)t->data)[0] == 7);
  tfc_tensor_unref(t);
  t = tfc_bundle_reader_read(r, "b", 1, NULL, &st);
  CHECK(t && ((double *)t->data)[0] == 2.5);
  tfc_tensor_unref(t);
  tfc_bundle_reader_free(r);
  /* missing source */
  CHECK(!tfc_bundle_merge(srcs, 2, dest, true, false, &st));
  CHECK_CODE(&st, TFC_CODE_NOT_FOUND);
  tfc_tensor_unref(a);
  tfc_tensor_unref(b);
  remove_dir(dir);
}

/* Signed ordered-code numbers as TF writes them in slice keys. */
TFC_TEST(io_bundle_slice_keys) {
  tfc_strbuf k;
  tfc_strbuf_init(&k);
  tfc_bundle_slice s = {2, {{0, -1}, {5, 10}}};
  CHECK(tfc_bundle_slice_key("w", 1, &s, &k));
  const char want[] = "\x00" "\x77\x00\x01" "\x01\x02" "\x80\x7f" "\x85\x8a";
  CHECK_EQ_INT(k.len, sizeof want - 1);
  CHECK(memcmp(k.data, want, k.len) == 0);
  k.len = 0;
  tfc_bundle_slice big = {1, {{100, 1000}}};
  CHECK(tfc_bundle_slice_key("w", 1, &big, &k));
  /* 100 -> 2 bytes 0xc0 0x64; 1000 -> 0xc3 0xe8 */
  CHECK(memcmp(k.data + 6, "\xc0\x64\xc3\xe8", 4) == 0);
  tfc_strbuf_free(&k);
}

/* A partitioned tensor: slices written by two writers, merged, read whole
 * and in part; slice keys hold NUL bytes. */
TFC_TEST(io_bundle_sliced_tensor_merge_and_read) {
  char dir[64], p0[128], p1[128], dest[128];
  temp_dir(dir, sizeof dir);
  snprintf(p0, sizeof p0, "%s/t/part-0", dir);
  snprintf(p1, sizeof p1, "%s/t/part-1", dir);
  snprintf(dest, sizeof dest, "%s/m", dir);
  tfc_status st;
  tfc_status_clear(&st);
  int64_t full[2] = {200, 3};
  tfc_tensor *a = tfc_tensor_new(TFC_DTYPE_FLOAT, 2, (int64_t[]){70, 3}, &st);
  tfc_tensor *b = tfc_tensor_new(TFC_DTYPE_FLOAT, 2, (int64_t[]){130, 3}, &st);
  for (int i = 0; i < 210; i++) ((float *)a->data)[i] = (float)i;
  for (int i = 0; i < 390; i++) ((float *)b->data)[i] = (float)(210 + i);
  tfc_bundle_slice sa = {2, {{0, 70}, {0, -1}}}, sb = {2, {{70, 130}, {0, -1}}};
  tfc_bundle_writer *w = tfc_bundle_writer_new(p0, &st);
  CHECK(tfc_bundle_writer_add_slice(w, "big", 3, 2, full, &sa, a, NULL, &st));
  CHECK(!tfc_bundle_writer_add_slice(w, "big", 3, 2, full, &sb, a, NULL, &st));  /* wrong shape */
  tfc_status_clear(&st);
  CHECK(tfc_bundle_writer_finish(w, &st));
  tfc_bundle_writer_free(w);
  w = tfc_bundle_writer_new(p1, &st);
  CHECK(tfc_bundle_writer_add_slice(w, "big", 3, 2, full, &sb, b, NULL, &st));
  CHECK(tfc_bundle_writer_finish(w, &st));
  tfc_bundle_writer_free(w);
  const char *srcs[2] = {p0, p1};
  CHECK(tfc_bundle_merge(srcs, 2, dest, true, false, &st));
  CHECK_STATUS_OK(&st);
  tfc_bundle_reader *r = tfc_bundle_reader_open(dest, &st);
  CHECK(r);
  CHECK_EQ_INT(tfc_bundle_reader_count(r), 1);  /* slice keys are not listed */
  tfc_bundle_entry e;
  CHECK(tfc_bundle_reader_lookup(r, "big", 3, &e, &st));
  CHECK_EQ_INT(e.n_slices, 2);
  tfc_bundle_entry_clear(&e);
  tfc_tensor *t = tfc_bundle_reader_read(r, "big", 3, NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK(t && t->dims[0] == 200 && t->dims[1] == 3);
  for (int i = 0; i < 600; i++) CHECK_EQ_INT(((float *)t->data)[i], i);
  tfc_bundle_slice part;
  int rank;
  int64_t dims[TFC_MAX_RANK];
  CHECK(tfc_bundle_parse_slice_spec("200 3 60,20:1,2", 15, &rank, dims, &part, &st));
  tfc_tensor *p = tfc_bundle_extract_slice(t, &part, &st);
  CHECK(p && p->dims[0] == 20 && p->dims[1] == 2);
  CHECK_EQ_INT(((float *)p->data)[0], 181);
  CHECK_EQ_INT(((float *)p->data)[3], 185);
  CHECK(!tfc_bundle_parse_slice_spec("200 3 60,200:-", 14, &rank, dims, &part, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_tensor_unref(p);
  tfc_tensor_unref(t);
  tfc_bundle_reader_free(r);
  tfc_tensor_unref(a);
  tfc_tensor_unref(b);
  remove_dir(dir);
}

/* TFRecord framing of an empty record, as TF writes it. */
TFC_TEST(io_record_header_and_summaries) {
  uint8_t h[12];
  tfc_record_header(0, h);
  CHECK(memcmp(h, "\0\0\0\0\0\0\0\0\x29\x03\x98\x07", 12) == 0);
  CHECK_EQ_INT(tfc_crc32c_mask(tfc_crc32c("", 0)), 0xa282ead8u);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_string tags[2] = {{(char *)"a", 1}, {(char *)"b", 1}};
  double vals[2] = {1.5, -2.0};
  uint8_t *s1 = NULL, *s2 = NULL, *m = NULL;
  size_t l1, l2, lm;
  CHECK(tfc_summary_scalars(tags, vals, 2, &s1, &l1, &st));
  /* value { tag: "a" simple_value: 1.5 } ... */
  CHECK(l1 == 20 && memcmp(s1, "\x0a\x08\x0a\x01" "a" "\x15\x00\x00\xc0\x3f", 10) == 0);
  tfc_string htag = {(char *)"h", 1};
  CHECK(tfc_summary_histogram(&htag, vals, 2, &s2, &l2, &st));
  tfc_string parts[3] = {{(char *)s1, l1}, {(char *)s2, l2}, {(char *)s1, l1}};
  CHECK(tfc_summary_merge(parts, 2, &m, &lm, &st));
  tfc_free(m);
  m = NULL;
  tfc_status_clear(&st);
  CHECK(!tfc_summary_merge(parts, 3, &m, &lm, &st));  /* "a" twice */
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "Duplicate tag a found in summary inputs"));
  tfc_status_clear(&st);
  tfc_string junk = {(char *)"\xff\xff\xff", 3};
  CHECK(!tfc_summary_merge(&junk, 1, &m, &lm, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_free(s1);
  tfc_free(s2);
}
