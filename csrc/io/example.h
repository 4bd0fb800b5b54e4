/*
 * example.h — zero-copy reading of serialized tf.train.Example protos
 * (proto/example.proto, proto/feature.proto) straight from the wire format,
 * for the parsing kernels: no allocation, no copy of the feature bytes.
 *
 *   tfc_example_iter it;
 *   tfc_example_iter_init(&it, bytes, n);
 *   const uint8_t *key; size_t klen; tfc_feature f; int rc;
 *   while ((rc = tfc_example_iter_next(&it, &key, &klen, &f)) == 1) {
 *     int64_t count = tfc_feature_count(&f);          // -1: malformed
 *     if (f.kind == TFC_FEATURE_FLOAT) tfc_feature_floats(&f, out, count);
 *   }
 *   // rc == 0 at the end, -1 when the bytes are no valid Example
 *
 * Protobuf semantics are kept: entries come in wire order (for a key that
 * appears twice the later one wins — the caller keeps the last); several
 * `features` fields merge; of a Feature's `kind` oneof the last field wins and
 * repeated occurrences of the same list field concatenate; list values may be
 * packed or not; unknown fields are skipped.
 */
#ifndef TFC_IO_EXAMPLE_H
#define TFC_IO_EXAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum tfc_feature_kind {
  TFC_FEATURE_NONE = 0,   /* no kind set: an empty Feature */
  TFC_FEATURE_BYTES = 1,  /* bytes_list (field 1) */
  TFC_FEATURE_FLOAT = 2,  /* float_list (field 2) */
  TFC_FEATURE_INT64 = 3,  /* int64_list (field 3) */
} tfc_feature_kind;

/* A view on one serialized Feature message. */
typedef struct tfc_feature {
  const uint8_t *begin;   /* the first field of the final run of `kind` fields */
  const uint8_t *end;     /* the end of the Feature message */
  tfc_feature_kind kind;
} tfc_feature;

typedef struct tfc_example_iter {
  const uint8_t *p, *end;     /* the rest of the Example message */
  const uint8_t *fp, *fend;   /* the rest of the current Features message */
} tfc_example_iter;

/* Starts iterating the features of the Example in data[0, n). */
void tfc_example_iter_init(tfc_example_iter *it, const uint8_t *data, size_t n);
/* The next (key, feature) entry: 1, 0 at the end, -1 on malformed bytes. */
int tfc_example_iter_next(tfc_example_iter *it, const uint8_t **key, size_t *klen, tfc_feature *f);

/* Reads a Feature message data[0, n) into *f. false when malformed. */
bool tfc_feature_init(tfc_feature *f, const uint8_t *data, size_t n);
/* The number of values of f (0 for NONE); -1 when malformed. */
int64_t tfc_feature_count(const tfc_feature *f);
/* Copies exactly n values of a FLOAT / INT64 feature into out. false when
 * malformed or the count differs. */
bool tfc_feature_floats(const tfc_feature *f, float *out, int64_t n);
bool tfc_feature_int64s(const tfc_feature *f, int64_t *out, int64_t n);

/* Iterates the values of a BYTES feature. */
typedef struct tfc_bytes_iter {
  const uint8_t *p, *end;     /* the rest of the Feature's run */
  const uint8_t *lp, *lend;   /* the rest of the current BytesList */
} tfc_bytes_iter;
void tfc_bytes_iter_init(tfc_bytes_iter *it, const tfc_feature *f);
/* The next value: 1 with *data / *len, 0 at the end, -1 when malformed. */
int tfc_bytes_iter_next(tfc_bytes_iter *it, const uint8_t **data, size_t *len);

/* Reads the protobuf field at *p (before end) and advances *p past it:
 * its number, wire type (0 varint, 1 fixed64, 2 length-delimited, 5
 * fixed32) and value bytes [*data, *data + *len) (for wire type 2 the
 * payload). false when malformed or a group (wire types 3, 4). */
bool tfc_pb_next_field(const uint8_t **p, const uint8_t *end, uint32_t *field, int *wire,
                       const uint8_t **data, size_t *len);

#endif
