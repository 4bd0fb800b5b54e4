/*
 * logging.c — CPU kernels for NoOp, ControlTrigger, Print, PrintV2 and
 * Assert (core/ops_logging.c).
 *
 * Print forwards its input and writes `message` followed by "[summary]" for
 * each data tensor and a newline through the step's log callback, at most
 * first_n times per kernel when first_n >= 0. Assert fails the step with
 * INVALID_ARGUMENT "assertion failed: [..] [..]" when its condition is false.
 * PrintV2 writes its scalar string and `end` to the step's stdout sink, its
 * log (stderr and the log(...) streams) or appends them to a file
 * ("file://<path>").
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"
#include "kernels/summarize.h"

/* NoOp / ControlTrigger: nothing to compute (they only order other nodes). */
static void noop_compute(tfc_kernel_ctx *ctx) { (void)ctx; }

/* ------------------------------------------------------------------ Print */

typedef struct print_state {
  char *message;
  size_t message_len;
  int64_t first_n;
  int64_t summarize;
  atomic_llong calls;   /* prints done so far (counted only when first_n >= 0) */
} print_state;

/* Frees a print_state. */
static void print_destroy(void *p) {
  print_state *s = p;
  if (s == NULL) return;
  tfc_free(s->message);
  tfc_free(s);
}

/* Print init: copies message, reads first_n and summarize. */
static bool print_init(const tfc_kernel_init *ki, void **state) {
  print_state *s = tfc_calloc(1, sizeof *s);
  if (s == NULL) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  const tfc_attr_value *m = tfc_attrs_find(ki->attrs, "message");
  const char *text = (m && m->kind == TFC_ATTR_S && m->v.s.data) ? m->v.s.data : "";
  s->message_len = (m && m->kind == TFC_ATTR_S) ? m->v.s.len : 0;
  s->message = tfc_strndup(text, s->message_len);
  s->first_n = -1;
  s->summarize = 3;
  const tfc_attr_value *a = tfc_attrs_find(ki->attrs, "first_n");
  if (a && a->kind == TFC_ATTR_I) s->first_n = a->v.i;
  a = tfc_attrs_find(ki->attrs, "summarize");
  if (a && a->kind == TFC_ATTR_I) s->summarize = a->v.i;
  atomic_init(&s->calls, 0);
  if (s->message == NULL) {
    print_destroy(s);
    return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  *state = s;
  return true;
}

/* Writes text to the step's log, or to stderr when the step has none. */
static void emit(tfc_kernel_ctx *ctx, const char *text, size_t len) {
  if (ctx->step != NULL && ctx->step->log != NULL) {
    ctx->step->log(ctx->step->log_ctx, text, len);
  } else {
    fwrite(text, 1, len, stderr);
    fflush(stderr);
  }
}

/* Print compute: forwards input 0, then logs the message and summaries. */
static void print_compute(tfc_kernel_ctx *ctx) {
  print_state *s = ctx->state;
  tfc_kernel_forward(ctx, 0, 0);
  if (s->first_n >= 0 && atomic_fetch_add(&s->calls, 1) >= s->first_n) return;
  tfc_strbuf b;
  tfc_strbuf_init(&b);
  tfc_strbuf_append(&b, s->message, s->message_len);
  for (int i = 1; i < ctx->n_inputs; i++) {
    tfc_strbuf_puts(&b, "[");
    if (ctx->inputs[i] != NULL) tfc_summarize_tensor(ctx->inputs[i], s->summarize, &b);
    tfc_strbuf_puts(&b, "]");
  }
  tfc_strbuf_puts(&b, "\n");
  if (b.oom) {
    tfc_strbuf_free(&b);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory formatting Print output");
    return;
  }
  emit(ctx, b.data, b.len);
  tfc_strbuf_free(&b);
}

/* ---------------------------------------------------------------- PrintV2 */

/* Where PrintV2 writes. */
typedef enum { PV2_STDOUT, PV2_LOG, PV2_FILE } pv2_kind;

typedef struct print_v2_state {
  pv2_kind kind;
  char *path;        /* PV2_FILE: the file appended to */
  char *end;
  size_t end_len;
} print_v2_state;

/* Frees a print_v2_state. */
static void print_v2_destroy(void *p) {
  print_v2_state *s = p;
  if (s == NULL) return;
  tfc_free(s->path);
  tfc_free(s->end);
  tfc_free(s);
}

/* PrintV2 init: validates output_stream (stdout, stderr, log(info),
 * log(warning), log(error) or file://<path>; else INVALID_ARGUMENT) and
 * copies `end`. */
static bool print_v2_init(const tfc_kernel_init *ki, void **state) {
  const tfc_attr_value *o = tfc_attrs_find(ki->attrs, "output_stream");
  const tfc_attr_value *e = tfc_attrs_find(ki->attrs, "end");
  const char *stream = (o && o->kind == TFC_ATTR_S && o->v.s.data) ? o->v.s.data : "stderr";
  size_t stream_len = (o && o->kind == TFC_ATTR_S) ? o->v.s.len : strlen(stream);
  print_v2_state *s = tfc_calloc(1, sizeof *s);
  if (s == NULL) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (stream_len >= 7 && memcmp(stream, "file://", 7) == 0) {
    s->kind = PV2_FILE;
    s->path = tfc_strndup(stream + 7, stream_len - 7);
  } else if (strcmp(stream, "stdout") == 0) {
    s->kind = PV2_STDOUT;
  } else if (strcmp(stream, "stderr") == 0 || strcmp(stream, "log(info)") == 0 ||
             strcmp(stream, "log(warning)") == 0 || strcmp(stream, "log(error)") == 0) {
    s->kind = PV2_LOG;
  } else {
    print_v2_destroy(s);
    return tfc_status_set(ki->st, TFC_CODE_INVALID_ARGUMENT,
                          "Unknown output stream: %.*s, Valid streams are: stdout, stderr, "
                          "log(info), log(warning), log(error).",
                          (int)stream_len, stream);
  }
  s->end_len = (e && e->kind == TFC_ATTR_S) ? e->v.s.len : 1;
  s->end = tfc_strndup((e && e->kind == TFC_ATTR_S && e->v.s.data) ? e->v.s.data : "\n", s->end_len);
  if (s->end == NULL || (s->kind == PV2_FILE && s->path == NULL)) {
    print_v2_destroy(s);
    return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  *state = s;
  return true;
}

/* PrintV2 compute: writes the scalar string input followed by `end`. A file
 * that cannot be opened or written fails the step with TF's errno code. */
static void print_v2_compute(tfc_kernel_ctx *ctx) {
  print_v2_state *s = ctx->state;
  const tfc_tensor *in = ctx->inputs[0];
  if (in->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input is expected to be scalar, but got %d",
                    in->rank);
    return;
  }
  const tfc_string *msg = (const tfc_string *)in->data;
  tfc_strbuf b;
  tfc_strbuf_init(&b);
  tfc_strbuf_append(&b, msg->data ? msg->data : "", msg->len);
  tfc_strbuf_append(&b, s->end, s->end_len);
  if (b.oom) {
    tfc_strbuf_free(&b);
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory formatting PrintV2 output");
    return;
  }
  if (s->kind == PV2_FILE) {
    FILE *fp = fopen(s->path, "ab");
    if (fp == NULL) {
      int err = errno;
      tfc_kernel_fail(ctx, tfc_errno_code(err), "%s; %s", s->path, strerror(err));
    } else {
      size_t w = fwrite(b.data, 1, b.len, fp);
      int err = errno;
      if (fclose(fp) != 0 || w != b.len)
        tfc_kernel_fail(ctx, tfc_errno_code(err), "%s; %s", s->path, strerror(err));
    }
  } else if (s->kind == PV2_STDOUT) {
    if (ctx->step != NULL && ctx->step->out != NULL) {
      ctx->step->out(ctx->step->log_ctx, b.data, b.len);
    } else {
      fwrite(b.data, 1, b.len, stdout);
      fflush(stdout);
    }
  } else {
    emit(ctx, b.data, b.len);
  }
  tfc_strbuf_free(&b);
}

/* ------------------------------------------------------------------ Assert */

/* Assert compute: OK when the scalar condition is true, else INVALID_ARGUMENT
 * "assertion failed: [d1] [d2]" with each data tensor summarized. */
static void assert_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *cond = ctx->inputs[0];
  if (!(cond->rank == 0 || (cond->rank == 1 && cond->dims[0] == 1))) {
    char shape[160];
    size_t len = (size_t)snprintf(shape, sizeof shape, "[");
    for (int i = 0; i < cond->rank && len < sizeof shape; i++)
      len += (size_t)snprintf(shape + len, sizeof shape - len, "%s%lld", i ? "," : "",
                              (long long)cond->dims[i]);
    if (len < sizeof shape) snprintf(shape + len, sizeof shape - len, "]");
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "In[0] should be a scalar: %s", shape);
    return;
  }
  if (*(const bool *)cond->data) return;
  int64_t summarize = 3;
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "summarize");
  if (a && a->kind == TFC_ATTR_I) summarize = a->v.i;
  tfc_strbuf b;
  tfc_strbuf_init(&b);
  tfc_strbuf_puts(&b, "assertion failed: ");
  for (int i = 1; i < ctx->n_inputs; i++) {
    tfc_strbuf_puts(&b, "[");
    if (ctx->inputs[i] != NULL) tfc_summarize_tensor(ctx->inputs[i], summarize, &b);
    tfc_strbuf_puts(&b, "]");
    if (i < ctx->n_inputs - 1) tfc_strbuf_puts(&b, " ");
  }
  tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s",
                  b.oom ? "assertion failed (message too large)" : tfc_strbuf_cstr(&b));
  tfc_strbuf_free(&b);
}

/* ------------------------------------------------------------------ table */

static const tfc_kernel_def defs[] = {
    {"NoOp", "CPU", NULL, NULL, NULL, noop_compute, NULL, 0},
    {"ControlTrigger", "CPU", NULL, NULL, NULL, noop_compute, NULL, 0},
    {"Print", "CPU", NULL, NULL, print_init, print_compute, print_destroy, 0},
    {"PrintV2", "CPU", NULL, NULL, print_v2_init, print_v2_compute, print_v2_destroy, 0},
    {"Assert", "CPU", NULL, NULL, NULL, assert_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_logging = {defs, (int)(sizeof defs / sizeof defs[0])};
