/*
 * fuzz_tfrecord.c — libFuzzer target for the TFRecord reader (record
 * framing, CRCs, zlib/gzip streams) and the Example wire parser.
 *
 * The input's first byte picks the compression (none, ZLIB, GZIP); the rest
 * is read as a record file. Every read must end cleanly (0) or with
 * DATA_LOSS / RESOURCE_EXHAUSTED, never crash, leak or hang. Every record is
 * also walked as a serialized tf.train.Example (features, counts and values)
 * and as a SequenceExample's feature lists (every step's Feature likewise).
 *
 *   make fuzz-build FUZZ_TARGETS=tfrecord && build/fuzz/fuzz_tfrecord CORPUS_DIR
 */
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "fuzz_common.h"
#include "io/example.h"
#include "io/sequence_example.h"
#include "io/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk_feature(const tfc_feature *fp);

/* Walks one record as an Example; malformed bytes just stop the walk. */
static void walk_example(const uint8_t *d, size_t n) {
  tfc_example_iter it;
  tfc_example_iter_init(&it, d, n);
  const uint8_t *key;
  size_t klen;
  tfc_feature f;
  while (tfc_example_iter_next(&it, &key, &klen, &f) == 1) walk_feature(&f);
}

/* Walks one record as a SequenceExample's feature lists and their steps. */
static void walk_feature_lists(const uint8_t *d, size_t n) {
  tfc_feature_lists_iter it;
  tfc_feature_lists_iter_init(&it, d, n);
  const uint8_t *key, *list;
  size_t klen, llen;
  while (tfc_feature_lists_iter_next(&it, &key, &klen, &list, &llen) == 1) {
    FUZZ_ASSERT(list >= d && list + llen <= d + n, "a feature list outside the record");
    tfc_feature_list_iter steps;
    tfc_feature_list_iter_init(&steps, list, llen);
    tfc_feature f;
    while (tfc_feature_list_iter_next(&steps, &f) == 1) walk_feature(&f);
  }
}

/* Counts and reads the values of one Feature. */
static void walk_feature(const tfc_feature *fp) {
  tfc_feature f = *fp;
  int64_t count = tfc_feature_count(&f);
  if (count < 0 || count > (1 << 20)) return;
  if (f.kind == TFC_FEATURE_FLOAT || f.kind == TFC_FEATURE_INT64) {
    void *buf = tfc_malloc((size_t)(count ? count : 1) * 8);
    if (!buf) return;
    bool ok = f.kind == TFC_FEATURE_FLOAT ? tfc_feature_floats(&f, buf, count)
                                          : tfc_feature_int64s(&f, buf, count);
    FUZZ_ASSERT(ok, "counted %lld values but could not read them", (long long)count);
    tfc_free(buf);
  } else if (f.kind == TFC_FEATURE_BYTES) {
    tfc_bytes_iter bi;
    tfc_bytes_iter_init(&bi, &f);
    const uint8_t *v;
    size_t vlen;
    int64_t seen = 0;
    while (tfc_bytes_iter_next(&bi, &v, &vlen) == 1) seen++;
    FUZZ_ASSERT(seen == count, "counted %lld values, iterated %lld", (long long)count,
                (long long)seen);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  tfc_zstream_kind kind = (tfc_zstream_kind)(data[0] % 3);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_record_reader *r = tfc_record_reader_open_memory(data + 1, size - 1, kind, &st);
  FUZZ_ASSERT(r != NULL, "open failed: %s", st.msg);
  const uint8_t *rec;
  size_t len;
  int rc;
  while ((rc = tfc_record_reader_next(r, &rec, &len, &st)) == 1) {
    walk_example(rec, len);
    walk_feature_lists(rec, len);
  }
  FUZZ_ASSERT(rc == 0 || st.code == TFC_CODE_DATA_LOSS || st.code == TFC_CODE_RESOURCE_EXHAUSTED,
              "failed with %s: %s", tfc_code_name(st.code), st.msg);
  tfc_record_reader_free(r);
  return 0;
}
