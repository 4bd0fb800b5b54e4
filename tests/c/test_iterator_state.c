/*
 * test_iterator_state.c — unit tests of what iterator and reader states rest
 * on: DT_VARIANT tensors of variant data values in checkpoint bundles (TF's
 * layout, checksums, corrupt input), ReaderBaseState encoding, and the
 * dataset state stream (numbers, tensors, tags, truncated input), and the
 * dataset cardinality rules at their extremes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "core/object.h"
#include "core/tensor.h"
#include "core/variant_data.h"
#include "harness.h"
#include "io/bundle.h"
#include "io/reader_state.h"
#include "kernels/dataset_internal.h"

/* A fresh directory under /tmp (buf[0] == 0 on failure). */
static void make_dir(char *buf, size_t n) {
  snprintf(buf, n, "/tmp/tfc_state_test_XXXXXX");
  if (!mkdtemp(buf)) buf[0] = 0;
}

/* Removes a test directory. */
static void drop_dir(const char *dir) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

TFC_TEST(state_variant_tensor_bundle_round_trip_and_corruption) {
  char dir[64], prefix[128], data[160];
  make_dir(dir, sizeof dir);
  CHECK(dir[0]);
  snprintf(prefix, sizeof prefix, "%s/v", dir);
  tfc_status st;
  tfc_status_clear(&st);
  int64_t two = 2;
  tfc_tensor *t = tfc_tensor_new_objects(TFC_DTYPE_VARIANT, 1, &two, &st);
  CHECK(t);
  tfc_object *a = tfc_variant_data_new("tfc::IteratorState", "abc\0def", 7, &st);
  tfc_object *b = tfc_variant_data_new("other", "", 0, &st);
  CHECK(a && b);
  tfc_tensor_object_set(t, 0, a);
  tfc_tensor_object_set(t, 1, b);
  tfc_object_unref(a);
  tfc_object_unref(b);
  tfc_bundle_writer *w = tfc_bundle_writer_new(prefix, &st);
  CHECK(w);
  CHECK(tfc_bundle_writer_add(w, "it_STATE", 8, t, NULL, &st));
  CHECK(tfc_bundle_writer_finish(w, &st));
  tfc_bundle_writer_free(w);
  tfc_tensor_unref(t);
  tfc_bundle_reader *r = tfc_bundle_reader_open(prefix, &st);
  CHECK_STATUS_OK(&st);
  tfc_tensor *back = tfc_bundle_reader_read(r, "it_STATE", 8, NULL, &st);
  CHECK_STATUS_OK(&st);
  CHECK(back && back->dtype == TFC_DTYPE_VARIANT && back->nelems == 2);
  const tfc_variant_data *va = tfc_variant_data_cast(tfc_tensor_object_at(back, 0));
  const tfc_variant_data *vb = tfc_variant_data_cast(tfc_tensor_object_at(back, 1));
  CHECK(va && vb);
  CHECK(strcmp(va->type_name, "tfc::IteratorState") == 0 && va->len == 7 && memcmp(va->data, "abc\0def", 7) == 0);
  CHECK(strcmp(vb->type_name, "other") == 0 && vb->len == 0);
  tfc_tensor_unref(back);
  tfc_bundle_reader_free(r);
  /* a flipped byte in the data file is DATA_LOSS, not a crash */
  snprintf(data, sizeof data, "%s.data-00000-of-00001", prefix);
  FILE *f = fopen(data, "r+b");
  CHECK(f);
  fseek(f, 5, SEEK_SET);
  int c = fgetc(f);
  fseek(f, 5, SEEK_SET);
  fputc(c ^ 0x40, f);
  fclose(f);
  r = tfc_bundle_reader_open(prefix, &st);
  CHECK(r);
  back = tfc_bundle_reader_read(r, "it_STATE", 8, NULL, &st);
  CHECK(!back);
  CHECK_CODE(&st, TFC_CODE_DATA_LOSS);
  tfc_bundle_reader_free(r);
  /* a variant tensor of other objects cannot be saved */
  tfc_status_clear(&st);
  tfc_tensor *empty = tfc_tensor_new_objects(TFC_DTYPE_VARIANT, 1, &two, &st);
  w = tfc_bundle_writer_new(prefix, &st);
  CHECK(!tfc_bundle_writer_add(w, "x", 1, empty, NULL, &st));
  CHECK_CODE(&st, TFC_CODE_UNIMPLEMENTED);
  tfc_bundle_writer_free(w);
  tfc_tensor_unref(empty);
  drop_dir(dir);
}

TFC_TEST(state_reader_base_state_bytes) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_reader_state s = {1, 1, 1, (char *)"a", 1};
  uint8_t *bytes = NULL;
  size_t len = 0;
  CHECK(tfc_reader_state_encode(&s, &bytes, &len, &st));
  /* TensorFlow's bytes for the same state */
  CHECK(len == 9 && memcmp(bytes, "\x08\x01\x10\x01\x18\x01\x22\x01" "a", 9) == 0);
  tfc_reader_state d;
  CHECK(tfc_reader_state_decode(bytes, len, &d, &st));
  CHECK(d.work_started == 1 && d.num_records_produced == 1 && d.current_work_len == 1 && d.current_work[0] == 'a');
  char text[128];
  tfc_reader_state_text(&d, text, sizeof text);
  CHECK(strcmp(text, "work_started: 1 work_finished: 1 num_records_produced: 1 current_work: \"a\"") == 0);
  tfc_reader_state_clear(&d);
  tfc_free(bytes);
  CHECK(!tfc_reader_state_decode((const uint8_t *)"garbage", 7, &d, &st));
  CHECK_STATUS_OK(&st); /* the caller words the parse error */
}

TFC_TEST(state_stream_round_trip_and_truncation) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_ds_writer w = {NULL, 0, 0, false};
  int64_t dims[2] = {2, 2};
  tfc_tensor *f = tfc_tensor_new(TFC_DTYPE_FLOAT, 2, dims, &st);
  for (int i = 0; i < 4; i++) ((float *)f->data)[i] = (float)i + 0.5f;
  tfc_tensor *s = tfc_tensor_new(TFC_DTYPE_STRING, 1, dims, &st);
  CHECK(tfc_tensor_set_string(s, 0, "x", 1, &st) && tfc_tensor_set_string(s, 1, "", 0, &st));
  CHECK(tfc_ds_put_i64(&w, -7, &st) && tfc_ds_put_tensor(&w, f, &st) && tfc_ds_put_tensor(&w, s, &st));
  tfc_ds_reader r = {w.buf, w.buf + w.len};
  int64_t v;
  CHECK(tfc_ds_get_i64(&r, &v, &st) && v == -7);
  tfc_tensor *f2 = tfc_ds_get_tensor(&r, &st);
  tfc_tensor *s2 = tfc_ds_get_tensor(&r, &st);
  CHECK(f2 && s2 && r.p == r.end);
  CHECK(f2->rank == 2 && memcmp(f2->data, f->data, 16) == 0);
  const tfc_string *ss = s2->data;
  CHECK(s2->nelems == 2 && ss[0].len == 1 && ss[0].data[0] == 'x' && ss[1].len == 0);
  /* every cut of the stream fails cleanly */
  for (size_t cut = 0; cut < w.len; cut++) {
    tfc_ds_reader t = {w.buf, w.buf + cut};
    tfc_status e;
    tfc_status_clear(&e);
    tfc_tensor *x = NULL, *y = NULL;
    bool ok = tfc_ds_get_i64(&t, &v, &e) && (x = tfc_ds_get_tensor(&t, &e)) && (y = tfc_ds_get_tensor(&t, &e));
    CHECK(!ok && e.code != TFC_CODE_OK);
    tfc_tensor_unref(x);
    tfc_tensor_unref(y);
  }
  tfc_tensor_unref(f);
  tfc_tensor_unref(s);
  tfc_tensor_unref(f2);
  tfc_tensor_unref(s2);
  tfc_free(w.buf);
}

TFC_TEST(state_iterators_resume_and_refuse_other_datasets) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_dataset *range = tfc_ds_range(0, 10, 1, TFC_DTYPE_INT64, &st);
  tfc_dataset *sh = tfc_ds_shuffle(range, 4, 3, 4, true, &st);
  tfc_dataset *rep = tfc_ds_count(TFC_DS_REPEAT, sh, 2, &st);
  CHECK(rep);
  tfc_iter *it = tfc_dataset_iter(rep, &st);
  tfc_tensor *el;
  for (int i = 0; i < 13; i++) {
    CHECK(it->vt->next(it, &el, &st) == 1);
    tfc_tensor_unref(el);
  }
  tfc_ds_writer w = {NULL, 0, 0, false};
  CHECK(tfc_iter_save(it, &w, &st));
  tfc_iter *again = tfc_dataset_iter(rep, &st);
  tfc_ds_reader r = {w.buf, w.buf + w.len};
  CHECK(tfc_iter_restore(again, &r, &st));
  CHECK_STATUS_OK(&st);
  for (int i = 0; i < 7; i++) { /* 20 elements, 13 read */
    tfc_tensor *a, *b;
    CHECK(it->vt->next(it, &a, &st) == 1 && again->vt->next(again, &b, &st) == 1);
    CHECK(*(int64_t *)a->data == *(int64_t *)b->data);
    tfc_tensor_unref(a);
    tfc_tensor_unref(b);
  }
  CHECK(it->vt->next(it, &el, &st) == 0 && again->vt->next(again, &el, &st) == 0);
  /* the state of a repeat does not restore into a range */
  tfc_iter *other = tfc_dataset_iter(range, &st);
  tfc_ds_reader r2 = {w.buf, w.buf + w.len};
  CHECK(!tfc_iter_restore(other, &r2, &st));
  CHECK_CODE(&st, TFC_CODE_NOT_FOUND);
  tfc_iter_free(other);
  tfc_iter_free(it);
  tfc_iter_free(again);
  tfc_free(w.buf);
  tfc_object_unref(&rep->base);
  tfc_object_unref(&sh->base);
  tfc_object_unref(&range->base);
}

TFC_TEST(dataset_cardinality_rules_and_extremes) {
  CHECK(tfc_ds_card_range(0, 10, 3) == 4);
  CHECK(tfc_ds_card_range(10, 0, -3) == 4);
  CHECK(tfc_ds_card_range(0, 0, 2) == 0);
  CHECK(tfc_ds_card_range(5, 0, 1) == 0);
  CHECK(tfc_ds_card_range(INT64_MIN, INT64_MAX, 1) == TFC_DS_UNKNOWN);
  CHECK(tfc_ds_card_range(INT64_MIN, INT64_MAX, 2) == TFC_DS_UNKNOWN);
  CHECK(tfc_ds_card_range(INT64_MIN, INT64_MAX, 4) == (int64_t)1 << 62);
  CHECK(tfc_ds_card_range(0, INT64_MAX, 1) == INT64_MAX);
  CHECK(tfc_ds_card_range(-1, INT64_MAX, 1) == TFC_DS_UNKNOWN);
  CHECK(tfc_ds_card_range(INT64_MAX, INT64_MIN, INT64_MIN) == 2);
  CHECK(tfc_ds_card_batch(10, 3, false) == 4);
  CHECK(tfc_ds_card_batch(10, 3, true) == 3);
  CHECK(tfc_ds_card_batch(TFC_DS_INFINITE, 3, true) == TFC_DS_INFINITE);
  CHECK(tfc_ds_card_concatenate(TFC_DS_UNKNOWN, TFC_DS_INFINITE) == TFC_DS_INFINITE);
  CHECK(tfc_ds_card_concatenate(INT64_MAX, 1) == TFC_DS_UNKNOWN);
  CHECK(tfc_ds_card_count(TFC_DS_REPEAT, INT64_MAX / 2, 3) == TFC_DS_UNKNOWN);
  CHECK(tfc_ds_card_count(TFC_DS_REPEAT, 0, -1) == 0);
  CHECK(tfc_ds_card_count(TFC_DS_REPEAT, TFC_DS_UNKNOWN, -1) == TFC_DS_INFINITE);
  CHECK(tfc_ds_card_count(TFC_DS_TAKE, TFC_DS_INFINITE, 7) == 7);
  CHECK(tfc_ds_card_count(TFC_DS_TAKE, 10, -1) == 10);
  CHECK(tfc_ds_card_count(TFC_DS_SKIP, 10, -1) == 0);
  CHECK(tfc_ds_card_count(TFC_DS_SKIP, 10, 4) == 6);
}
