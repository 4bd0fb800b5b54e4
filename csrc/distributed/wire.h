/*
 * wire.h — protobuf wire-format helpers for messages the distributed runtime
 * builds or forwards without a full parse: a growable byte buffer with tag,
 * varint and length-delimited writers, a top-level field iterator, and the
 * hand-encoded RecvTensorResponse whose tensor bytes travel as a separate
 * zero-copy slice.
 *
 *   tfc_wbuf b; tfc_wbuf_init(&b);
 *   tfc_wbuf_string(&b, 1, "handle");      // field 1, length-delimited
 *   tfc_wbuf_varint_field(&b, 2, step_id); // field 2, varint
 *   ... b.data, b.len ...; tfc_wbuf_free(&b);
 *
 *   tfc_wfield f; size_t pos = 0;
 *   while (tfc_wire_next(data, len, &pos, &f)) if (f.number == 2 && f.wire == 2) ...
 */
#ifndef TFC_DISTRIBUTED_WIRE_H
#define TFC_DISTRIBUTED_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "core/tensor.h"

typedef struct tfc_wbuf {
  uint8_t *data;
  size_t len, cap;
  bool oom;            /* a write failed: the contents are incomplete */
} tfc_wbuf;

void tfc_wbuf_init(tfc_wbuf *b);
void tfc_wbuf_free(tfc_wbuf *b);
/* Takes the bytes out of b (caller frees with tfc_free); b is empty after. */
uint8_t *tfc_wbuf_take(tfc_wbuf *b, size_t *len);
void tfc_wbuf_bytes(tfc_wbuf *b, const void *p, size_t n);
void tfc_wbuf_raw_varint(tfc_wbuf *b, uint64_t v);
/* Field `number` with wire type 0 (omitted when v == 0, as proto3 does). */
void tfc_wbuf_varint_field(tfc_wbuf *b, unsigned number, uint64_t v);
/* Field `number` with wire type 2 holding n bytes (written even when empty). */
void tfc_wbuf_ld(tfc_wbuf *b, unsigned number, const void *p, size_t n);
/* A string field (omitted when empty). */
void tfc_wbuf_string(tfc_wbuf *b, unsigned number, const char *s);
/* The tag and length of a length-delimited field whose n bytes follow. */
void tfc_wbuf_ld_header(tfc_wbuf *b, unsigned number, size_t n);

/* One top-level field: number, wire type, and the value (varint in v, or
 * the bytes of a length-delimited / fixed field at p, n). */
typedef struct tfc_wfield {
  unsigned number;
  int wire;
  uint64_t v;
  const uint8_t *p;
  size_t n;
} tfc_wfield;

/* Reads the field at *pos and advances; false at the end or on malformed input
 * (then *pos is set past len so a caller can tell with tfc_wire_ok). */
bool tfc_wire_next(const uint8_t *data, size_t len, size_t *pos, tfc_wfield *f);
/* True when iteration stopped at the exact end (no malformed bytes). */
static inline bool tfc_wire_ok(size_t len, size_t pos) { return pos == len; }
/* The first length-delimited field `number` (last one wins in protobuf for
 * scalars; sub-messages merge, which callers here never need). false when absent. */
bool tfc_wire_find_ld(const uint8_t *data, size_t len, unsigned number, const uint8_t **p, size_t *n);

/* Encodes t as a RecvTensorResponse {tensor = TensorProto(dtype, shape,
 * tensor_content)} the way TF's fast path lays it out: *head receives every
 * byte before the raw tensor bytes, and *body and *body_len point at t's buffer
 * (borrowed: keep a reference to t until gRPC releases it). String tensors
 * are encoded whole into *head (body_len 0). is_dead sets field 2. */
bool tfc_wire_recv_tensor_response(const tfc_tensor *t, bool is_dead, tfc_wbuf *head,
                                   const void **body, size_t *body_len, tfc_status *st);

/* TensorProto bytes holding only t's dtype and shape (no values). */
void tfc_wire_tensor_meta(const tfc_tensor *t, tfc_wbuf *out);
/* Reads dtype and shape from TensorProto bytes (values ignored); false when malformed. */
bool tfc_wire_parse_tensor_meta(const uint8_t *p, size_t n, tfc_dtype *dtype, int *rank, int64_t *dims);

/* Encodes t as TensorProto bytes with tensor_content (TF's AsProtoTensorContent). */
bool tfc_wire_tensor_proto(const tfc_tensor *t, tfc_wbuf *out, tfc_status *st);

#endif
