/*
 * sequence_example.c — the wire-format reader of SequenceExample feature
 * lists (see sequence_example.h). Every read is bounds-checked.
 */
#include "io/sequence_example.h"

void tfc_feature_lists_iter_init(tfc_feature_lists_iter *it, const uint8_t *data, size_t n) {
  it->p = data;
  it->end = data + n;
  it->fp = it->fend = NULL;
}

int tfc_feature_lists_iter_next(tfc_feature_lists_iter *it, const uint8_t **key, size_t *klen,
                                const uint8_t **list, size_t *llen) {
  for (;;) {
    while (it->fp && it->fp < it->fend) {
      uint32_t field;
      int wire;
      const uint8_t *d;
      size_t len;
      if (!tfc_pb_next_field(&it->fp, it->fend, &field, &wire, &d, &len)) return -1;
      if (field != 1) continue;
      if (wire != 2) return -1;
      /* a map entry: key = 1, value = 2 */
      const uint8_t *q = d, *qend = d + len;
      *key = (const uint8_t *)"";
      *klen = 0;
      *list = qend;
      *llen = 0;
      while (q < qend) {
        uint32_t ef;
        int ew;
        const uint8_t *ed;
        size_t el;
        if (!tfc_pb_next_field(&q, qend, &ef, &ew, &ed, &el)) return -1;
        if (ef == 1 || ef == 2) {
          if (ew != 2) return -1;
          if (ef == 1) {
            *key = ed;
            *klen = el;
          } else {
            *list = ed;
            *llen = el;
          }
        }
      }
      return 1;
    }
    if (it->p >= it->end) return 0;
    uint32_t field;
    int wire;
    const uint8_t *d;
    size_t len;
    if (!tfc_pb_next_field(&it->p, it->end, &field, &wire, &d, &len)) return -1;
    if (field != 2) continue;
    if (wire != 2) return -1;
    it->fp = d;
    it->fend = d + len;
  }
}

void tfc_feature_list_iter_init(tfc_feature_list_iter *it, const uint8_t *data, size_t n) {
  it->p = data;
  it->end = data + n;
}

int tfc_feature_list_iter_next(tfc_feature_list_iter *it, tfc_feature *f) {
  while (it->p < it->end) {
    uint32_t field;
    int wire;
    const uint8_t *d;
    size_t len;
    if (!tfc_pb_next_field(&it->p, it->end, &field, &wire, &d, &len)) return -1;
    if (field != 1) continue;
    if (wire != 2) return -1;
    return tfc_feature_init(f, d, len) ? 1 : -1;
  }
  return 0;
}
