/*
 * reader_ops.c — TF's readers (TFRecordReader, WholeFileReader,
 * TextLineReader, FixedLengthRecordReader, IdentityReader) as session
 * resources, and the ReaderRead/ReadUpTo/NumRecordsProduced/
 * NumWorkUnitsCompleted/Reset kernels.
 *
 * A reader takes work items (file names) from a queue and turns each into
 * records keyed as TF keys them ("<file>:<offset>" for TFRecord files,
 * "<file>:<line>" for text lines, "<file>:<n>" for fixed-length records,
 * the file name for whole files). Read requests wait in the reader's FIFO;
 * one thread at a time drives them (the "busy" flag), and when the reader
 * needs a new file it asks the queue asynchronously and continues on
 * whichever thread the queue completes it, so no thread blocks.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "core/object.h"
#include "io/reader_state.h"
#include "io/record.h"
#include "io/zstream.h"
#include "kernels/data_flow_internal.h"
#include "kernels/queue.h"

typedef enum reader_kind { R_TFRECORD, R_WHOLE_FILE, R_IDENTITY, R_TEXT_LINE, R_FIXED_LENGTH, R_NUM_KINDS } reader_kind;

static void reader_destroy(tfc_object *o);

static const tfc_object_type k_types[R_NUM_KINDS] = {
    {"TFRecordReader", reader_destroy}, {"WholeFileReader", reader_destroy}, {"IdentityReader", reader_destroy},
    {"TextLineReader", reader_destroy}, {"FixedLengthRecordReader", reader_destroy},
};

typedef struct read_req {
  struct read_req *next;
  tfc_kernel_ctx *ctx;
  int64_t want;               /* 1 for ReaderRead */
  bool up_to;
  int64_t n;                  /* records gathered */
  tfc_string *keys, *values;  /* want entries (owned bytes) */
} read_req;

typedef struct reader {
  tfc_object base;
  reader_kind kind;
  tfc_zstream_kind compression;
  int64_t skip_header_lines;
  int64_t header_bytes, record_bytes, footer_bytes, hop_bytes;
  pthread_mutex_t mu;
  bool busy;
  read_req *head, *tail;
  /* current work */
  char *work;                 /* NULL: none */
  bool work_emitted;          /* whole-file / identity: the record was produced */
  tfc_record_reader *rec;
  tfc_istream *in;
  char *buf;                  /* text/fixed-length buffer */
  size_t buf_cap, buf_pos, buf_len;
  bool in_eof;
  int64_t line_no, rec_no, file_pos, file_end;
  int64_t produced, completed;
  char *done_work;            /* the last finished work item (TF's state keeps it) */
  char node_name[128];        /* the reader op, for messages */
} reader;

/* Closes the current work item. */
static void close_work(reader *r) {
  tfc_record_reader_free(r->rec);
  tfc_istream_free(r->in);
  r->rec = NULL;
  r->in = NULL;
  tfc_free(r->work);
  r->work = NULL;
  r->buf_pos = r->buf_len = 0;
  r->in_eof = false;
}

/* Frees a reader (no request can be pending: each holds a handle reference). */
static void reader_destroy(tfc_object *o) {
  reader *r = (reader *)o;
  close_work(r);
  tfc_free(r->buf);
  tfc_free(r->done_work);
  pthread_mutex_destroy(&r->mu);
  tfc_free(r);
}

typedef struct reader_op {
  reader cfg;
  char *container, *name;
} reader_op;

/* A copy of string attr `name` ("" when absent); NULL on OOM. */
static char *attr_str(const tfc_attrs *a, const char *name) {
  const tfc_attr_value *v = tfc_attrs_find(a, name);
  size_t len = v && v->kind == TFC_ATTR_S ? v->v.s.len : 0;
  char *s = tfc_malloc(len + 1);
  if (s) {
    if (len) memcpy(s, v->v.s.data, len);
    s[len] = '\0';
  }
  return s;
}

/* Int attr or dflt. */
static int64_t attr_i(const tfc_attrs *a, const char *name, int64_t dflt) {
  const tfc_attr_value *v = tfc_attrs_find(a, name);
  return v && v->kind == TFC_ATTR_I ? v->v.i : dflt;
}

/* Parses a reader constructor's attrs. */
bool tfc_reader_op_init(const tfc_kernel_init *ki, void **state) {
  reader_op *op = tfc_calloc(1, sizeof *op);
  if (!op) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  *state = op;
  const char *t = ki->op_type;
  reader *c = &op->cfg;
  c->kind = strcmp(t, "TFRecordReaderV2") == 0       ? R_TFRECORD
            : strcmp(t, "WholeFileReaderV2") == 0    ? R_WHOLE_FILE
            : strcmp(t, "TextLineReaderV2") == 0     ? R_TEXT_LINE
            : strcmp(t, "FixedLengthRecordReaderV2") == 0 ? R_FIXED_LENGTH
                                                      : R_IDENTITY;
  snprintf(c->node_name, sizeof c->node_name, "%s", ki->node_name ? ki->node_name : "");
  op->container = attr_str(ki->attrs, "container");
  op->name = attr_str(ki->attrs, "shared_name");
  char *comp = attr_str(ki->attrs, c->kind == R_FIXED_LENGTH ? "encoding" : "compression_type");
  if (!op->container || !op->name || !comp) {
    tfc_free(comp);
    return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  bool ok = tfc_record_compression_parse(comp, &c->compression, ki->st);
  tfc_free(comp);
  if (!ok) return false;
  if (!op->name[0]) {
    tfc_free(op->name);
    op->name = tfc_unique_resource_name(ki->node_name);
    if (!op->name) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  c->skip_header_lines = attr_i(ki->attrs, "skip_header_lines", 0);
  c->header_bytes = attr_i(ki->attrs, "header_bytes", 0);
  c->record_bytes = attr_i(ki->attrs, "record_bytes", 0);
  c->footer_bytes = attr_i(ki->attrs, "footer_bytes", 0);
  c->hop_bytes = attr_i(ki->attrs, "hop_bytes", 0);
  if (c->kind == R_FIXED_LENGTH && (c->record_bytes <= 0 || c->header_bytes < 0 || c->footer_bytes < 0 ||
                                    c->hop_bytes < 0))
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "FixedLengthRecordReader needs record_bytes > 0 and non-negative header, footer and hop bytes");
  return true;
}

/* Frees the parsed attrs. */
void tfc_reader_op_free(void *state) {
  reader_op *op = state;
  if (!op) return;
  tfc_free(op->container);
  tfc_free(op->name);
  tfc_free(op);
}

/* Creates a reader from the parsed attrs. */
static tfc_object *create_reader(void *arg, tfc_status *st) {
  const reader *cfg = arg;
  reader *r = tfc_calloc(1, sizeof *r);
  if (!r) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a reader");
    return NULL;
  }
  *r = *cfg;
  tfc_object_init(&r->base, &k_types[cfg->kind]);
  pthread_mutex_init(&r->mu, NULL);
  r->busy = false;
  r->head = r->tail = NULL;
  return &r->base;
}

/* Outputs the handle of this node's reader. */
void tfc_reader_op_compute(tfc_kernel_ctx *ctx) {
  reader_op *op = ctx->state;
  tfc_object *o = tfc_resource_object(ctx->step->resources, op->container, op->name, &k_types[op->cfg.kind],
                                      create_reader, &op->cfg, ctx->st);
  if (!o) return;
  tfc_tensor *h = tfc_tensor_object_scalar(TFC_DTYPE_RESOURCE, o, ctx->st);
  tfc_object_unref(o);
  if (h) tfc_kernel_set_output(ctx, 0, h);
}

/* The reader behind input 0. */
static reader *reader_from(tfc_kernel_ctx *ctx) {
  tfc_object *o = tfc_tensor_object_at(ctx->inputs[0], 0);
  if (!o || o->type < &k_types[0] || o->type >= &k_types[R_NUM_KINDS]) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input is not a reader handle");
    return NULL;
  }
  return (reader *)o;
}

/* ---- producing records ---- */

/* Copies (p, n) into s (NUL-terminated). */
static bool set_str(tfc_string *s, const void *p, size_t n, tfc_status *st) {
  s->data = tfc_malloc(n + 1);
  if (!s->data) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory reading a record");
  if (n) memcpy(s->data, p, n);
  s->data[n] = '\0';
  s->len = n;
  return true;
}

/* Adds record (key "<work><suffix>", value) to req. */
static bool emit(reader *r, read_req *q, const char *suffix, const void *val, size_t vlen, tfc_status *st) {
  size_t wl = strlen(r->work), sl = strlen(suffix);
  tfc_string *k = &q->keys[q->n], *v = &q->values[q->n];
  k->data = tfc_malloc(wl + sl + 1);
  if (!k->data) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory reading a record");
  memcpy(k->data, r->work, wl);
  memcpy(k->data + wl, suffix, sl + 1);
  k->len = wl + sl;
  if (!set_str(v, val, vlen, st)) {
    tfc_free(k->data);
    k->data = NULL;
    return false;
  }
  q->n++;
  r->produced++;
  return true;
}

/* Ensures buf holds at least `need` unread bytes (fewer at the end of the
 * file); false + st on a read error. */
static bool fill(reader *r, size_t need, tfc_status *st) {
  if (r->buf_len - r->buf_pos >= need || r->in_eof) return true;
  if (r->buf_pos) {
    memmove(r->buf, r->buf + r->buf_pos, r->buf_len - r->buf_pos);
    r->buf_len -= r->buf_pos;
    r->buf_pos = 0;
  }
  if (need < (1u << 20)) need = 1u << 20;
  if (r->buf_cap < need) {
    char *nb = tfc_realloc(r->buf, need);
    if (!nb) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory reading %s", r->work);
    r->buf = nb;
    r->buf_cap = need;
  }
  while (r->buf_len < r->buf_cap) {
    size_t got = 0;
    if (!tfc_istream_read(r->in, r->buf + r->buf_len, r->buf_cap - r->buf_len, &got, st)) return false;
    if (got == 0) {
      r->in_eof = true;
      break;
    }
    r->buf_len += got;
  }
  return true;
}

/* Opens the current work item; false + st (NOT_FOUND, ...). */
static bool open_work(reader *r, tfc_status *st) {
  r->work_emitted = false;
  r->line_no = r->rec_no = 0;
  switch (r->kind) {
    case R_TFRECORD:
      r->rec = tfc_record_reader_open(r->work, r->compression, st);
      return r->rec != NULL;
    case R_IDENTITY:
      return true;
    case R_FIXED_LENGTH: {
      struct stat sb;
      if (r->compression == TFC_ZSTREAM_NONE) {
        if (stat(r->work, &sb) != 0)
          return tfc_status_set(st, TFC_CODE_NOT_FOUND, "%s; No such file or directory", r->work);
        r->file_end = (int64_t)sb.st_size - r->footer_bytes;
      } else {
        r->file_end = -1;
      }
      r->file_pos = 0;
    } /* fallthrough */
    default:
      r->in = tfc_istream_open_file(r->work, r->compression, st);
      r->buf_pos = r->buf_len = 0;
      r->in_eof = false;
      return r->in != NULL;
  }
}

/* Produces the next record(s) of the current work into q. Returns 1 when
 * it produced at least one, 0 at the end of the work item, -1 on error. */
static int produce(reader *r, read_req *q, tfc_status *st) {
  char suffix[32];
  switch (r->kind) {
    case R_IDENTITY:
      if (r->work_emitted) return 0;
      r->work_emitted = true;
      if (!emit(r, q, "", r->work, strlen(r->work), st)) return -1;
      tfc_free(q->keys[q->n - 1].data);
      return set_str(&q->keys[q->n - 1], r->work, strlen(r->work), st) ? 1 : -1;
    case R_TFRECORD: {
      const uint8_t *data;
      size_t len;
      uint64_t off = tfc_record_reader_offset(r->rec);
      int rc = tfc_record_reader_next(r->rec, &data, &len, st);
      if (rc <= 0) return rc;
      snprintf(suffix, sizeof suffix, ":%llu", (unsigned long long)off);
      return emit(r, q, suffix, data, len, st) ? 1 : -1;
    }
    case R_TEXT_LINE:
      for (;;) {
        /* find a newline in the buffer, refilling as needed */
        char *nl = NULL;
        size_t scanned = 0;
        for (;;) {
          size_t avail = r->buf_len - r->buf_pos;
          nl = avail > scanned ? memchr(r->buf + r->buf_pos + scanned, '\n', avail - scanned) : NULL;
          if (nl || r->in_eof) break;
          scanned = avail;
          if (!fill(r, avail * 2 + 1, st)) return -1;
        }
        size_t avail = r->buf_len - r->buf_pos;
        if (!nl && avail == 0) return 0;
        const char *line = r->buf + r->buf_pos;
        size_t len = nl ? (size_t)(nl - line) : avail;
        r->buf_pos += nl ? len + 1 : len;
        size_t vlen = len;
        if (vlen && line[vlen - 1] == '\r') vlen--;
        r->line_no++;
        if (r->line_no <= r->skip_header_lines) continue;
        snprintf(suffix, sizeof suffix, ":%lld", (long long)r->line_no);
        return emit(r, q, suffix, line, vlen, st) ? 1 : -1;
      }
    case R_FIXED_LENGTH: {
      if (r->rec_no == 0 && r->header_bytes > 0) {
        if (!fill(r, (size_t)r->header_bytes, st)) return -1;
        size_t skip = (size_t)r->header_bytes;
        if (skip > r->buf_len - r->buf_pos) skip = r->buf_len - r->buf_pos;
        r->buf_pos += skip;
        r->file_pos += (int64_t)skip;
      }
      int64_t step = r->hop_bytes > 0 ? r->hop_bytes : r->record_bytes;
      size_t need = (size_t)(r->record_bytes > step ? r->record_bytes : step) + (size_t)r->footer_bytes;
      if (!fill(r, need, st)) return -1;
      int64_t avail = (int64_t)(r->buf_len - r->buf_pos);
      if (r->file_end >= 0 && r->file_end - r->file_pos < avail) avail = r->file_end - r->file_pos;
      else if (r->file_end < 0 && r->in_eof) avail -= r->footer_bytes;
      if (avail < r->record_bytes) return 0;
      snprintf(suffix, sizeof suffix, ":%lld", (long long)r->rec_no);
      if (!emit(r, q, suffix, r->buf + r->buf_pos, (size_t)r->record_bytes, st)) return -1;
      int64_t adv = step;
      if (adv > (int64_t)(r->buf_len - r->buf_pos)) adv = (int64_t)(r->buf_len - r->buf_pos);
      r->buf_pos += (size_t)adv;
      r->file_pos += adv;
      r->rec_no++;
      return 1;
    }
    default:
      return 0;
  }
}

/* Whole-file work: reads the entire file as one record. */
static int produce_whole_file(reader *r, read_req *q, tfc_status *st) {
  if (r->work_emitted) return 0;
  r->work_emitted = true;
  size_t cap = 1u << 16, len = 0;
  char *data = tfc_malloc(cap);
  if (!data) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory"), -1;
  for (;;) {
    if (len == cap) {
      char *nd = tfc_realloc(data, cap * 2);
      if (!nd) {
        tfc_free(data);
        return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory reading %s", r->work), -1;
      }
      data = nd;
      cap *= 2;
    }
    size_t got = 0;
    if (!tfc_istream_read(r->in, data + len, cap - len, &got, st)) {
      tfc_free(data);
      return -1;
    }
    if (got == 0) break;
    len += got;
  }
  bool ok = emit(r, q, "", data, len, st);
  tfc_free(data);
  return ok ? 1 : -1;
}

/* ---- request driving ---- */

static void drive(reader *r);

/* Outputs a finished request's records (or its error) and completes its kernel. */
static void finish_req(read_req *q, const tfc_status *err) {
  tfc_kernel_ctx *ctx = q->ctx;
  if (err && err->code != TFC_CODE_OK && !(q->up_to && q->n > 0 && err->code == TFC_CODE_OUT_OF_RANGE)) {
    tfc_status_copy(ctx->st, err);
  } else {
    bool single = !q->up_to;
    int64_t dims[1] = {q->n};
    tfc_tensor *k = tfc_tensor_new(TFC_DTYPE_STRING, single ? 0 : 1, dims, ctx->st);
    tfc_tensor *v = k ? tfc_tensor_new(TFC_DTYPE_STRING, single ? 0 : 1, dims, ctx->st) : NULL;
    if (k && v) {
      /* hand the bytes over without copying */
      memcpy(k->data, q->keys, sizeof(tfc_string) * (size_t)q->n);
      memcpy(v->data, q->values, sizeof(tfc_string) * (size_t)q->n);
      q->n = 0;
      tfc_kernel_set_output(ctx, 0, k);
      tfc_kernel_set_output(ctx, 1, v);
    } else {
      tfc_tensor_unref(k);
    }
  }
  for (int64_t i = 0; i < q->n; i++) {
    tfc_free(q->keys[i].data);
    tfc_free(q->values[i].data);
  }
  tfc_free(q->keys);
  tfc_free(q->values);
  tfc_free(q);
  tfc_kernel_async_done(ctx);
}

/* The queue's answer to a request for work. */
static void work_arrived(void *arg, const tfc_status *st, tfc_tensor **elems, int64_t count) {
  reader *r = arg;
  pthread_mutex_lock(&r->mu);
  read_req *q = r->head;
  tfc_status err;
  tfc_status_clear(&err);
  bool fail = false;
  if (st->code != TFC_CODE_OK) {
    tfc_status_copy(&err, st);
    fail = true;
  } else {
    const tfc_tensor *w = count > 0 ? elems[0] : NULL;
    if (!w || w->dtype != TFC_DTYPE_STRING || w->nelems != 1) {
      tfc_status_set(&err, TFC_CODE_INVALID_ARGUMENT, "Expected to dequeue a one-element string tensor");
      fail = true;
    } else {
      const tfc_string *s = w->data;
      r->work = tfc_malloc(s->len + 1);
      if (!r->work) {
        tfc_status_set(&err, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
        fail = true;
      } else {
        if (s->len) memcpy(r->work, s->data, s->len);
        r->work[s->len] = '\0';
        if (!open_work(r, &err)) {
          close_work(r);
          fail = true;
        }
      }
    }
  }
  for (int64_t i = 0; i < count; i++) tfc_tensor_unref(elems[i]);
  tfc_free(elems);
  if (fail) {
    r->head = q->next;
    if (!r->head) r->tail = NULL;
  }
  r->busy = false;
  pthread_mutex_unlock(&r->mu);
  if (fail) finish_req(q, &err);
  drive(r);
  tfc_object_unref(&r->base);
}

/* Serves waiting requests until they are done or the reader needs work. */
static void drive(reader *r) {
  pthread_mutex_lock(&r->mu);
  if (r->busy) {
    pthread_mutex_unlock(&r->mu);
    return;
  }
  r->busy = true;
  for (;;) {
    read_req *q = r->head;
    if (!q) break;
    tfc_status err;
    tfc_status_clear(&err);
    if (!r->work) {
      /* ask the request's queue for the next file; continue in work_arrived */
      tfc_queue *queue = tfc_queue_from_handle(q->ctx->inputs[1], &err);
      if (!queue) {
        r->head = q->next;
        if (!r->head) r->tail = NULL;
        pthread_mutex_unlock(&r->mu);
        finish_req(q, &err);
        pthread_mutex_lock(&r->mu);
        continue;
      }
      tfc_cancel *reg = q->ctx->step->cancel_reg;
      tfc_object_ref(&r->base);
      pthread_mutex_unlock(&r->mu);
      tfc_queue_dequeue(queue, TFC_DEQUEUE_ONE, 1, reg, work_arrived, r);
      return; /* busy stays set until the work arrives */
    }
    int rc;
    do {
      rc = r->kind == R_WHOLE_FILE ? produce_whole_file(r, q, &err) : produce(r, q, &err);
    } while (rc == 1 && q->n < q->want);
    if (rc == 0) {
      tfc_free(r->done_work);
      r->done_work = r->work;
      r->work = NULL;
      close_work(r);
      r->completed++;
    }
    /* as TF: a call returns once a work item gave it records */
    if (rc < 0 || q->n >= q->want || (rc == 0 && q->n > 0)) {
      r->head = q->next;
      if (!r->head) r->tail = NULL;
      if (rc < 0) close_work(r);
      pthread_mutex_unlock(&r->mu);
      finish_req(q, rc < 0 ? &err : NULL);
      pthread_mutex_lock(&r->mu);
    }
  }
  r->busy = false;
  pthread_mutex_unlock(&r->mu);
}

/* ReaderReadV2 / ReaderReadUpToV2. */
void tfc_reader_read_compute(tfc_kernel_ctx *ctx) {
  reader *r = reader_from(ctx);
  if (!r) {
    tfc_kernel_async_done(ctx);
    return;
  }
  bool up_to = strcmp(ctx->op_type, "ReaderReadUpToV2") == 0;
  int64_t want = up_to ? tfc_tensor_get_int64(ctx->inputs[2], 0) : 1;
  if (want <= 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_records must be positive, got %lld", (long long)want);
    tfc_kernel_async_done(ctx);
    return;
  }
  read_req *q = tfc_calloc(1, sizeof *q);
  if (q) {
    q->keys = tfc_calloc((size_t)want, sizeof(tfc_string));
    q->values = tfc_calloc((size_t)want, sizeof(tfc_string));
  }
  if (!q || !q->keys || !q->values) {
    if (q) {
      tfc_free(q->keys);
      tfc_free(q->values);
    }
    tfc_free(q);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory reading");
    tfc_kernel_async_done(ctx);
    return;
  }
  q->ctx = ctx;
  q->want = want;
  q->up_to = up_to;
  pthread_mutex_lock(&r->mu);
  if (r->tail) r->tail->next = q;
  else r->head = q;
  r->tail = q;
  pthread_mutex_unlock(&r->mu);
  drive(r);
}

/* ReaderNumRecordsProducedV2. */
void tfc_reader_num_records_compute(tfc_kernel_ctx *ctx) {
  reader *r = reader_from(ctx);
  if (!r) return;
  pthread_mutex_lock(&r->mu);
  int64_t n = r->produced;
  pthread_mutex_unlock(&r->mu);
  tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_INT64, &n, ctx->st);
  if (t) tfc_kernel_set_output(ctx, 0, t);
}

/* ReaderNumWorkUnitsCompletedV2. */
void tfc_reader_num_work_units_compute(tfc_kernel_ctx *ctx) {
  reader *r = reader_from(ctx);
  if (!r) return;
  pthread_mutex_lock(&r->mu);
  int64_t n = r->completed;
  pthread_mutex_unlock(&r->mu);
  tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_INT64, &n, ctx->st);
  if (t) tfc_kernel_set_output(ctx, 0, t);
}

/* ReaderResetV2: forgets the current work and the counters. */
void tfc_reader_reset_compute(tfc_kernel_ctx *ctx) {
  reader *r = reader_from(ctx);
  if (!r) return;
  pthread_mutex_lock(&r->mu);
  if (r->busy) {
    pthread_mutex_unlock(&r->mu);
    tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION, "Cannot reset a reader while a read is in progress");
    return;
  }
  close_work(r);
  tfc_free(r->done_work);
  r->done_work = NULL;
  r->produced = r->completed = 0;
  pthread_mutex_unlock(&r->mu);
}

/* Whether a reader kind has a state (TF's readers: identity and whole-file
 * readers save their counters and work item; the others are UNIMPLEMENTED). */
static bool has_state(const reader *r) { return r->kind == R_IDENTITY || r->kind == R_WHOLE_FILE; }

/* ReaderSerializeStateV2: a serialized ReaderBaseState. A work item whose
 * record was produced counts as finished, as in TF (whose readers finish a
 * one-record item in the read that produces it). */
void tfc_reader_serialize_state_compute(tfc_kernel_ctx *ctx) {
  reader *r = reader_from(ctx);
  if (!r) return;
  if (!has_state(r)) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "Reader SerializeState");
    return;
  }
  pthread_mutex_lock(&r->mu);
  tfc_reader_state s = {0};
  bool open = r->work != NULL;
  bool emitted = open && r->work_emitted;
  s.work_finished = r->completed + (emitted ? 1 : 0);
  s.work_started = r->completed + (open ? 1 : 0);
  s.num_records_produced = r->produced;
  const char *w = open ? r->work : r->done_work;
  s.current_work = (char *)w;
  s.current_work_len = w ? strlen(w) : 0;
  uint8_t *data = NULL;
  size_t len = 0;
  bool ok = tfc_reader_state_encode(&s, &data, &len, ctx->st);
  pthread_mutex_unlock(&r->mu);
  if (!ok) return;
  tfc_string str = {(char *)data, len};
  tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_STRING, &str, ctx->st);
  tfc_free(data);
  if (t) tfc_kernel_set_output(ctx, 0, t);
}

/* ReaderRestoreStateV2: the counters and work item of a serialized
 * ReaderBaseState; an unfinished item is read again from its start. */
void tfc_reader_restore_state_compute(tfc_kernel_ctx *ctx) {
  reader *r = reader_from(ctx);
  if (!r) return;
  if (!has_state(r)) {
    tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED, "Reader RestoreState");
    return;
  }
  const tfc_tensor *t = ctx->inputs[1];
  if (t->dtype != TFC_DTYPE_STRING || t->nelems != 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Reader state must be a scalar string");
    return;
  }
  const tfc_string *in = t->data;
  const char *kind = r->base.type->name;
  tfc_reader_state s;
  if (!tfc_reader_state_decode((const uint8_t *)in->data, in->len, &s, ctx->st)) {
    if (tfc_kernel_ok(ctx))
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Could not parse state for %s '%s': %.*s", kind, r->node_name,
                      (int)(in->len > 200 ? 200 : in->len), in->data ? in->data : "");
    return;
  }
  char text[512];
  tfc_reader_state_text(&s, text, sizeof text);
  if (s.num_records_produced < 0 || s.work_finished < 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Unexpected negative value when restoring in %s '%s': %s", kind,
                    r->node_name, text);
  } else if (s.work_started != s.work_finished && s.work_started != s.work_finished + 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Inconsistent work started vs. finished when restoring in %s '%s': %s", kind, r->node_name, text);
  } else {
    pthread_mutex_lock(&r->mu);
    if (r->busy) {
      tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION, "Cannot restore a reader while a read is in progress");
    } else {
      close_work(r);
      tfc_free(r->done_work);
      r->done_work = NULL;
      r->produced = s.num_records_produced;
      r->completed = s.work_finished;
      tfc_status st;
      tfc_status_clear(&st);
      if (s.work_started == s.work_finished + 1) {
        r->work = s.current_work; /* in progress: read it again */
        s.current_work = NULL;
        if (!open_work(r, &st)) {
          close_work(r);
          tfc_status_copy(ctx->st, &st);
        }
      } else if (s.current_work_len) {
        r->done_work = s.current_work;
        s.current_work = NULL;
      }
    }
    pthread_mutex_unlock(&r->mu);
  }
  tfc_reader_state_clear(&s);
}
