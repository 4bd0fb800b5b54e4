/*
 * fuzz_tensor_proto.c — libFuzzer target for the TensorProto decoder.
 *
 * Each input is decoded with tfc_tensor_from_proto. Corrupt bytes must fail
 * with a status (never crash, leak, hang or allocate absurd amounts); a
 * tensor that decodes must survive both encodings (make_tensor_proto layout
 * and tensor_content layout): each re-decodes to the same dtype, shape and
 * elements, and re-encoding that copy gives the same bytes.
 *
 *   make fuzz-build && build/fuzz/fuzz_tensor_proto CORPUS_DIR
 */
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "core/tensor.h"
#include "fuzz_common.h"
#include "graph/tensor_proto.h"

/* True when a and b have the same dtype, shape and elements (bitwise; strings
 * and serialized resource handles by content). */
static bool same_tensor(const tfc_tensor *a, const tfc_tensor *b) {
  if (a->dtype != b->dtype || a->rank != b->rank || a->nelems != b->nelems) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  if (a->nelems == 0) return true;
  if (!tfc_dtype_is_stringlike(a->dtype)) return memcmp(a->data, b->data, tfc_tensor_nbytes(a)) == 0;
  const tfc_string *x = a->data, *y = b->data;
  for (int64_t i = 0; i < a->nelems; i++)
    if (x[i].len != y[i].len || (x[i].len && memcmp(x[i].data, y[i].data, x[i].len) != 0))
      return false;
  return true;
}

/* Encodes t with `encode`, decodes the bytes, checks the copy equals t and
 * that encoding the copy reproduces the bytes. */
static void round_trip(const tfc_tensor *t,
                       bool (*encode)(const tfc_tensor *, void **, size_t *, tfc_status *),
                       const char *layout) {
  tfc_status st;
  tfc_status_clear(&st);
  void *buf = NULL;
  size_t len = 0;
  /* Encoding only fails when memory runs out. */
  FUZZ_ASSERT(encode(t, &buf, &len, &st), "%s encoding: %s", layout, st.msg);
  tfc_tensor *back = tfc_tensor_from_proto(buf, len, &st);
  FUZZ_ASSERT(back != NULL, "%s re-decoding: %s", layout, st.msg);
  FUZZ_ASSERT(same_tensor(t, back), "%s round trip changed the tensor", layout);
  void *buf2 = NULL;
  size_t len2 = 0;
  FUZZ_ASSERT(encode(back, &buf2, &len2, &st), "%s re-encoding: %s", layout, st.msg);
  FUZZ_ASSERT(len2 == len && memcmp(buf, buf2, len) == 0, "%s encoding is not stable", layout);
  tfc_free(buf2);
  tfc_tensor_unref(back);
  tfc_free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = tfc_tensor_from_proto(data, size, &st);
  if (!t) {
    FUZZ_ASSERT(st.code != TFC_CODE_OK && st.msg[0] != '\0', "failed without a status");
    return 0;
  }
  round_trip(t, tfc_tensor_to_proto, "make_tensor_proto");
  round_trip(t, tfc_tensor_to_proto_content, "tensor_content");
  tfc_tensor_unref(t);
  return 0;
}
