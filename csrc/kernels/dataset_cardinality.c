/*
 * dataset_cardinality.c — how many elements a transformation produces,
 * from its inputs' counts (TF's DatasetCardinality semantics): a known
 * count, TFC_DS_INFINITE (repeat without end) or TFC_DS_UNKNOWN (filters,
 * files, generators and what is built from them).
 */
#include "kernels/dataset_internal.h"

/* Elements of range(start, stop, step), step != 0; computed without
 * overflow for ranges spanning the whole int64 domain (a count beyond
 * INT64_MAX is unknown). */
int64_t tfc_ds_card_range(int64_t start, int64_t stop, int64_t step) {
  uint64_t span, mag;
  if (step > 0) {
    if (stop <= start) return 0;
    span = (uint64_t)stop - (uint64_t)start;
    mag = (uint64_t)step;
  } else {
    if (stop >= start) return 0;
    span = (uint64_t)start - (uint64_t)stop;
    mag = step == INT64_MIN ? (uint64_t)1 << 63 : (uint64_t)-step;
  }
  uint64_t q = (span - 1) / mag + 1;
  return q > (uint64_t)INT64_MAX ? TFC_DS_UNKNOWN : (int64_t)q;
}

/* Zip: the shortest input; unknown if any is unknown, infinite if all are. */
int64_t tfc_ds_card_zip(tfc_dataset *const *inputs, int k) {
  int64_t r = TFC_DS_INFINITE;
  for (int i = 0; i < k; i++) {
    int64_t n = inputs[i]->cardinality;
    if (n == TFC_DS_UNKNOWN) return TFC_DS_UNKNOWN;
    if (n != TFC_DS_INFINITE && (r == TFC_DS_INFINITE || n < r)) r = n;
  }
  return r;
}

/* Concatenate: infinite wins over unknown, which wins over a sum. */
int64_t tfc_ds_card_concatenate(int64_t a, int64_t b) {
  if (a == TFC_DS_INFINITE || b == TFC_DS_INFINITE) return TFC_DS_INFINITE;
  if (a == TFC_DS_UNKNOWN || b == TFC_DS_UNKNOWN) return TFC_DS_UNKNOWN;
  if (a > INT64_MAX - b) return TFC_DS_UNKNOWN;
  return a + b;
}

/* Batch (batch > 0): full batches, plus a partial one unless dropped. */
int64_t tfc_ds_card_batch(int64_t in, int64_t batch, bool drop_remainder) {
  if (in < 0) return in;
  return in / batch + (in % batch == 0 || drop_remainder ? 0 : 1);
}

/* Repeat/take/skip by count (negative: without end / everything). */
int64_t tfc_ds_card_count(tfc_ds_count_kind kind, int64_t in, int64_t count) {
  switch (kind) {
    case TFC_DS_REPEAT:
      if (count < 0) return in == 0 ? 0 : TFC_DS_INFINITE;
      if (count == 0) return 0;
      if (in < 0) return in;
      if (in != 0 && count > INT64_MAX / in) return TFC_DS_UNKNOWN;
      return in * count;
    case TFC_DS_TAKE:
      if (in == TFC_DS_UNKNOWN) return TFC_DS_UNKNOWN;
      if (in == TFC_DS_INFINITE) return count;
      if (count == -1) return in;
      return in < count ? in : count; /* TF's answer for other negative counts too */
    case TFC_DS_SKIP:
    default:
      if (in < 0) return in;
      if (count < 0) return 0;
      return in > count ? in - count : 0;
  }
}
