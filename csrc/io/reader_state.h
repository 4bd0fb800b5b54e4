/*
 * reader_state.h — TF's ReaderBaseState message, the state that
 * ReaderSerializeStateV2 returns for the readers that have one (identity and
 * whole-file readers): work items started and finished, records produced and
 * the current work item.
 */
#ifndef TFC_IO_READER_STATE_H
#define TFC_IO_READER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

typedef struct tfc_reader_state {
  int64_t work_started, work_finished, num_records_produced;
  char *current_work; /* NUL-terminated, never NULL once decoded */
  size_t current_work_len;
} tfc_reader_state;

/* The serialized message (protobuf's bytes: zero fields left out) into *out
 * (tfc_free it). */
bool tfc_reader_state_encode(const tfc_reader_state *s, uint8_t **out, size_t *len, tfc_status *st);
/* Parses a serialized message into *s (free with tfc_reader_state_clear).
 * false without setting st when the bytes do not parse (the caller words
 * the error); RESOURCE_EXHAUSTED in st on OOM. */
bool tfc_reader_state_decode(const uint8_t *data, size_t len, tfc_reader_state *s, tfc_status *st);
/* Frees what decode allocated. */
void tfc_reader_state_clear(tfc_reader_state *s);
/* protobuf's short text form ("work_started: 5 work_finished: 2 ...") into buf. */
void tfc_reader_state_text(const tfc_reader_state *s, char *buf, size_t cap);

#endif
