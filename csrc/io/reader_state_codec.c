/*
 * reader_state_codec.c — ReaderBaseState through protobuf-c (see
 * reader_state.h).
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "graph/graphdef_pb.h"
#include "io/reader_state.h"
#include "reader_base.pb-c.h"

/* Packs s as a ReaderBaseState. */
bool tfc_reader_state_encode(const tfc_reader_state *s, uint8_t **out, size_t *len, tfc_status *st) {
  Tensorflow__ReaderBaseState m = TENSORFLOW__READER_BASE_STATE__INIT;
  m.work_started = s->work_started;
  m.work_finished = s->work_finished;
  m.num_records_produced = s->num_records_produced;
  m.current_work.data = (uint8_t *)s->current_work;
  m.current_work.len = s->current_work ? s->current_work_len : 0;
  void *p = NULL;
  if (!tfc_pb_pack(&m.base, NULL, 0, &p, len, st)) return false;
  *out = p;
  return true;
}

/* Unpacks a ReaderBaseState. */
bool tfc_reader_state_decode(const uint8_t *data, size_t len, tfc_reader_state *s, tfc_status *st) {
  memset(s, 0, sizeof *s);
  tfc_status sub;
  tfc_status_clear(&sub);
  Tensorflow__ReaderBaseState *m = (Tensorflow__ReaderBaseState *)tfc_pb_unpack(
      &tensorflow__reader_base_state__descriptor, data, len, "ReaderBaseState", &sub);
  if (!m) {
    if (sub.code == TFC_CODE_RESOURCE_EXHAUSTED) tfc_status_set(st, sub.code, "%s", sub.msg);
    return false;
  }
  s->work_started = m->work_started;
  s->work_finished = m->work_finished;
  s->num_records_produced = m->num_records_produced;
  s->current_work = tfc_malloc(m->current_work.len + 1);
  bool ok = s->current_work != NULL;
  if (ok) {
    if (m->current_work.len) memcpy(s->current_work, m->current_work.data, m->current_work.len);
    s->current_work[m->current_work.len] = '\0';
    s->current_work_len = m->current_work.len;
  } else {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory restoring a reader");
  }
  protobuf_c_message_free_unpacked(&m->base, &tfc_pb_allocator);
  return ok;
}

void tfc_reader_state_clear(tfc_reader_state *s) {
  tfc_free(s->current_work);
  memset(s, 0, sizeof *s);
}

/* Short text form of the set fields. */
void tfc_reader_state_text(const tfc_reader_state *s, char *buf, size_t cap) {
  size_t n = 0;
  buf[0] = '\0';
  const char *names[3] = {"work_started", "work_finished", "num_records_produced"};
  const int64_t vals[3] = {s->work_started, s->work_finished, s->num_records_produced};
  for (int i = 0; i < 3 && n < cap; i++)
    if (vals[i]) n += (size_t)snprintf(buf + n, cap - n, "%s%s: %lld", n ? " " : "", names[i], (long long)vals[i]);
  if (s->current_work_len && n < cap)
    snprintf(buf + n, cap - n, "%scurrent_work: \"%.*s\"", n ? " " : "", (int)(s->current_work_len > 200 ? 200 : s->current_work_len),
             s->current_work);
}
