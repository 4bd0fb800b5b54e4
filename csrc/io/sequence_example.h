/*
 * sequence_example.h — zero-copy reading of the feature lists of serialized
 * tf.train.SequenceExample protos (proto/example.proto): the `feature_lists`
 * field (2) holds a map key -> FeatureList, a FeatureList a repeated Feature.
 * The context (field 1) is a Features message at the Example's field number,
 * so io/example.h's tfc_example_iter reads it from the same bytes.
 *
 *   tfc_feature_lists_iter it;
 *   tfc_feature_lists_iter_init(&it, bytes, n);
 *   const uint8_t *key, *list; size_t klen, llen;
 *   while ((rc = tfc_feature_lists_iter_next(&it, &key, &klen, &list, &llen)) == 1) {
 *     tfc_feature_list_iter steps;
 *     tfc_feature_list_iter_init(&steps, list, llen);
 *     tfc_feature f;
 *     while ((rc = tfc_feature_list_iter_next(&steps, &f)) == 1) ...
 *   }
 *
 * Entries come in wire order (for a key that appears twice the caller keeps
 * the last, as a protobuf map does); several `feature_lists` fields merge;
 * unknown fields are skipped; nothing allocates.
 */
#ifndef TFC_IO_SEQUENCE_EXAMPLE_H
#define TFC_IO_SEQUENCE_EXAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "io/example.h"

typedef struct tfc_feature_lists_iter {
  const uint8_t *p, *end;     /* the rest of the SequenceExample message */
  const uint8_t *fp, *fend;   /* the rest of the current FeatureLists message */
} tfc_feature_lists_iter;

/* Starts iterating the feature lists of the SequenceExample in data[0, n). */
void tfc_feature_lists_iter_init(tfc_feature_lists_iter *it, const uint8_t *data, size_t n);
/* The next (key, FeatureList payload) entry: 1, 0 at the end, -1 on
 * malformed bytes. An entry without a value has an empty payload. */
int tfc_feature_lists_iter_next(tfc_feature_lists_iter *it, const uint8_t **key, size_t *klen,
                                const uint8_t **list, size_t *llen);

typedef struct tfc_feature_list_iter {
  const uint8_t *p, *end;     /* the rest of the FeatureList message */
} tfc_feature_list_iter;

/* Starts iterating the Features (steps) of a FeatureList payload. */
void tfc_feature_list_iter_init(tfc_feature_list_iter *it, const uint8_t *data, size_t n);
/* The next step's Feature: 1, 0 at the end, -1 on malformed bytes. */
int tfc_feature_list_iter_next(tfc_feature_list_iter *it, tfc_feature *f);

#endif
