/*
 * fuzz_checkpoint_index.c — libFuzzer target for the checkpoint .index
 * reader (the table format and the bundle header/entries it holds).
 *
 * Each input is opened as a table. Corrupt bytes must fail with DATA_LOSS
 * (never crash, leak, hang or allocate absurd amounts). A table that opens
 * must rebuild: its entries written again by the table builder re-open to
 * the same entries. Then the bytes are opened as a bundle index and every
 * entry is decoded (decoding may fail, with a status).
 *
 *   make fuzz-build FUZZ_TARGETS=checkpoint_index && build/fuzz/fuzz_checkpoint_index CORPUS_DIR
 */
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "fuzz_common.h"
#include "io/bundle.h"
#include "io/table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_table *t = tfc_table_open(data, size, &st);
  if (!t) {
    FUZZ_ASSERT(st.code == TFC_CODE_DATA_LOSS || st.code == TFC_CODE_RESOURCE_EXHAUSTED,
                "failed with %s: %s", tfc_code_name(st.code), st.msg);
    return 0;
  }
  /* rebuild and compare */
  tfc_table_builder *b = tfc_table_builder_new();
  FUZZ_ASSERT(b != NULL, "OOM");
  size_t n = tfc_table_count(t);
  for (size_t i = 0; i < n; i++) {
    const tfc_table_entry *e = tfc_table_at(t, i);
    FUZZ_ASSERT(tfc_table_builder_add(b, e->key, e->klen, e->val, e->vlen, &st), "add: %s", st.msg);
  }
  const uint8_t *out;
  size_t len;
  FUZZ_ASSERT(tfc_table_builder_finish(b, &out, &len, &st), "finish: %s", st.msg);
  tfc_table *t2 = tfc_table_open(out, len, &st);
  FUZZ_ASSERT(t2 != NULL, "rebuilt table does not open: %s", st.msg);
  FUZZ_ASSERT(tfc_table_count(t2) == n, "rebuilt table has another entry count");
  for (size_t i = 0; i < n; i++) {
    const tfc_table_entry *x = tfc_table_at(t, i), *y = tfc_table_at(t2, i);
    FUZZ_ASSERT(x->klen == y->klen && x->vlen == y->vlen &&
                    (!x->klen || memcmp(x->key, y->key, x->klen) == 0) &&
                    (!x->vlen || memcmp(x->val, y->val, x->vlen) == 0),
                "entry %zu differs after a rebuild", i);
    FUZZ_ASSERT(tfc_table_find(t2, x->key, x->klen) == y, "lookup of entry %zu fails", i);
  }
  tfc_table_free(t2);
  tfc_table_builder_free(b);
  tfc_table_free(t);

  /* as a bundle index: header and every entry */
  tfc_status_clear(&st);
  tfc_bundle_reader *r = tfc_bundle_reader_open_index("/nonexistent/fuzz", data, size, &st);
  if (!r) {
    FUZZ_ASSERT(st.code != TFC_CODE_OK && st.msg[0], "failed without a status");
    return 0;
  }
  for (size_t i = 0; i < tfc_bundle_reader_count(r); i++) {
    const char *name;
    size_t nlen;
    tfc_bundle_entry e;
    tfc_status_clear(&st);
    if (tfc_bundle_reader_entry_at(r, i, &name, &nlen, &e, &st)) {
      tfc_status_clear(&st);
      tfc_tensor *v = tfc_bundle_reader_read(r, name, nlen, NULL, &st);
      FUZZ_ASSERT(v == NULL && st.code != TFC_CODE_OK, "read without a data file succeeded");
      tfc_bundle_entry_clear(&e);
    } else {
      FUZZ_ASSERT(st.code != TFC_CODE_OK && st.msg[0], "failed without a status");
    }
  }
  tfc_bundle_reader_free(r);
  return 0;
}
