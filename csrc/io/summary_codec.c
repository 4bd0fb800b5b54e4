/*
 * summary_codec.c — Summary messages through protobuf-c
 * (proto/summary.proto) and TF's default histogram (see summary.h).
 */
#include <float.h>
#include <pthread.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "graph/graphdef_pb.h"
#include "io/summary.h"
#include "summary.pb-c.h"

/* TF's default bucket limits (built once): negatives ascending, 0, positives. */
static double *limits;
static size_t n_limits;
static pthread_once_t limits_once = PTHREAD_ONCE_INIT;

static void init_limits(void) {
  double pos[1024]; /* 775 limits */
  size_t np = 0;
  for (double v = 1e-12; v < 1e20; v *= 1.1) pos[np++] = v;
  pos[np++] = DBL_MAX;
  limits = tfc_malloc(sizeof(double) * (2 * np + 1));
  if (!limits) return;
  for (size_t i = 0; i < np; i++) limits[i] = -pos[np - 1 - i];
  limits[np] = 0.0;
  for (size_t i = 0; i < np; i++) limits[np + 1 + i] = pos[i];
  n_limits = 2 * np + 1;
}

/* Packs a Summary message into a new buffer. */
static bool pack(const Tensorflow__Summary *m, uint8_t **out, size_t *len, tfc_status *st) {
  void *data;
  if (!tfc_pb_pack(&m->base, NULL, 0, &data, len, st)) return false;
  *out = data;
  return true;
}

bool tfc_summary_scalars(const tfc_string *tags, const double *values, int64_t n, uint8_t **out,
                         size_t *len, tfc_status *st) {
  tfc_pb_arena arena;
  tfc_pb_arena_init(&arena);
  Tensorflow__Summary m = TENSORFLOW__SUMMARY__INIT;
  m.n_value = (size_t)n;
  m.value = tfc_pb_arena_calloc(&arena, (size_t)(n ? n : 1), sizeof *m.value);
  bool ok = m.value != NULL;
  for (int64_t i = 0; ok && i < n; i++) {
    Tensorflow__Summary__Value *v = tfc_pb_arena_alloc(&arena, sizeof *v);
    char *tag = tfc_pb_arena_strndup(&arena, tags[i].data ? tags[i].data : "", tags[i].len);
    if (!v || !tag) {
      ok = false;
      break;
    }
    tensorflow__summary__value__init(v);
    v->tag = tag;
    v->value_case = TENSORFLOW__SUMMARY__VALUE__VALUE_SIMPLE_VALUE;
    v->simple_value = (float)values[i];
    m.value[i] = v;
  }
  if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM building a summary");
  ok = ok && pack(&m, out, len, st);
  tfc_pb_arena_free(&arena);
  return ok;
}

/* Index of the first limit > v (upper_bound). */
static size_t bucket_of(double v) {
  size_t lo = 0, hi = n_limits;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (limits[mid] > v) hi = mid;
    else lo = mid + 1;
  }
  return lo < n_limits ? lo : n_limits - 1;
}

bool tfc_summary_histogram(const tfc_string *tag, const double *values, int64_t n, uint8_t **out,
                           size_t *len, tfc_status *st) {
  pthread_once(&limits_once, init_limits);
  if (!limits) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  double *counts = tfc_calloc(n_limits, sizeof *counts);
  double *blimit = tfc_malloc(sizeof(double) * (n_limits + 1));
  double *bcount = tfc_malloc(sizeof(double) * (n_limits + 1));
  if (!counts || !blimit || !bcount) {
    tfc_free(counts);
    tfc_free(blimit);
    tfc_free(bcount);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  }
  Tensorflow__HistogramProto h = TENSORFLOW__HISTOGRAM_PROTO__INIT;
  h.min = limits[n_limits - 1];
  h.max = -DBL_MAX;
  for (int64_t i = 0; i < n; i++) {
    double v = values[i];
    counts[bucket_of(v)] += 1.0;
    if (v < h.min) h.min = v;
    if (v > h.max) h.max = v;
    h.num += 1.0;
    h.sum += v;
    h.sum_squares += v * v;
  }
  size_t nb = 0;
  for (size_t i = 0; i < n_limits;) {
    double end = limits[i], count = counts[i];
    i++;
    if (count <= 0.0)
      while (i < n_limits && counts[i] <= 0.0) {
        end = limits[i];
        count = counts[i];
        i++;
      }
    blimit[nb] = end;
    bcount[nb++] = count;
  }
  if (nb == 0) {
    blimit[0] = DBL_MAX;
    bcount[0] = 0.0;
    nb = 1;
  }
  h.n_bucket_limit = h.n_bucket = nb;
  h.bucket_limit = blimit;
  h.bucket = bcount;
  Tensorflow__Summary__Value v = TENSORFLOW__SUMMARY__VALUE__INIT;
  char *t = tfc_malloc(tag->len + 1);
  bool ok = t != NULL;
  if (ok) {
    if (tag->len) memcpy(t, tag->data, tag->len);
    t[tag->len] = 0;
    v.tag = t;
    v.value_case = TENSORFLOW__SUMMARY__VALUE__VALUE_HISTO;
    v.histo = &h;
    Tensorflow__Summary__Value *vp = &v;
    Tensorflow__Summary m = TENSORFLOW__SUMMARY__INIT;
    m.n_value = 1;
    m.value = &vp;
    ok = pack(&m, out, len, st);
  } else {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  }
  tfc_free(t);
  tfc_free(counts);
  tfc_free(blimit);
  tfc_free(bcount);
  return ok;
}

bool tfc_summary_merge(const tfc_string *inputs, int n, uint8_t **out, size_t *len, tfc_status *st) {
  Tensorflow__Summary **parts = tfc_calloc((size_t)(n ? n : 1), sizeof *parts);
  if (!parts) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  tfc_hashmap tags;
  tfc_hashmap_init(&tags);
  size_t total = 0;
  bool ok = true;
  for (int i = 0; ok && i < n; i++) {
    tfc_status sub;
    tfc_status_clear(&sub);
    parts[i] = (Tensorflow__Summary *)tfc_pb_unpack(&tensorflow__summary__descriptor,
                                                    inputs[i].data, inputs[i].len, "Summary", &sub);
    if (!parts[i]) {
      ok = sub.code == TFC_CODE_RESOURCE_EXHAUSTED
               ? tfc_status_set(st, sub.code, "%s", sub.msg)
               : tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                                "Could not parse one of the summary inputs");
      break;
    }
    for (size_t k = 0; ok && k < parts[i]->n_value; k++) {
      const char *tag = parts[i]->value[k]->tag ? parts[i]->value[k]->tag : "";
      bool found = false;
      tfc_hashmap_get(&tags, tag, strlen(tag), &found);
      if (found) ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                                     "Duplicate tag %s found in summary inputs", tag);
      else if (tfc_hashmap_put(&tags, tag, strlen(tag), (void *)1) != 0)
        ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    }
    if (ok) total += parts[i]->n_value;
  }
  if (ok) {
    Tensorflow__Summary__Value **vals = tfc_calloc(total ? total : 1, sizeof *vals);
    if (!vals) {
      ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
    } else {
      size_t k = 0;
      for (int i = 0; i < n; i++)
        for (size_t j = 0; j < parts[i]->n_value; j++) vals[k++] = parts[i]->value[j];
      Tensorflow__Summary m = TENSORFLOW__SUMMARY__INIT;
      m.n_value = total;
      m.value = vals;
      ok = pack(&m, out, len, st);
      tfc_free(vals);
    }
  }
  for (int i = 0; i < n; i++)
    if (parts[i]) protobuf_c_message_free_unpacked(&parts[i]->base, &tfc_pb_allocator);
  tfc_free(parts);
  tfc_hashmap_destroy(&tags);
  return ok;
}

/* A Summary holding one tensor value (see summary.h). */
bool tfc_summary_tensor(const tfc_string *tag, const tfc_tensor *t, const tfc_string *meta,
                        uint8_t **out, size_t *len, tfc_status *st) {
  Tensorflow__SummaryMetadata empty = TENSORFLOW__SUMMARY_METADATA__INIT;
  Tensorflow__SummaryMetadata *md = &empty;
  if (meta->len) {
    tfc_status sub;
    tfc_status_clear(&sub);
    md = (Tensorflow__SummaryMetadata *)tfc_pb_unpack(&tensorflow__summary_metadata__descriptor,
                                                      meta->data, meta->len, "SummaryMetadata", &sub);
    if (!md)
      return sub.code == TFC_CODE_RESOURCE_EXHAUSTED
                 ? tfc_status_set(st, sub.code, "%s", sub.msg)
                 : tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                                  "Could not parse serialized_summary_metadata");
  }
  tfc_pb_arena arena;
  tfc_pb_arena_init(&arena);
  Tensorflow__TensorProto tp = TENSORFLOW__TENSOR_PROTO__INIT;
  Tensorflow__Summary__Value v = TENSORFLOW__SUMMARY__VALUE__INIT;
  Tensorflow__Summary__Value *vp = &v;
  Tensorflow__Summary m = TENSORFLOW__SUMMARY__INIT;
  char *tag_copy = tfc_pb_arena_strndup(&arena, tag->data ? tag->data : "", tag->len);
  bool ok = tag_copy != NULL || tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  /* TF writes strings field by field and other dtypes as tensor_content */
  if (ok)
    ok = tfc_tensor_to_pb(t, t->dtype == TFC_DTYPE_STRING ? TFC_TENSOR_PB_COMPACT : TFC_TENSOR_PB_CONTENT,
                          &arena, &tp, st);
  if (ok) {
    v.tag = tag_copy;
    v.value_case = TENSORFLOW__SUMMARY__VALUE__VALUE_TENSOR;
    v.tensor = &tp;
    v.metadata = md;
    m.n_value = 1;
    m.value = &vp;
    ok = pack(&m, out, len, st);
  }
  tfc_pb_arena_free(&arena);
  if (md != &empty) protobuf_c_message_free_unpacked(&md->base, &tfc_pb_allocator);
  return ok;
}

/* Image or audio values (see summary.h). */
bool tfc_summary_media_values(const tfc_summary_media *media, int n, bool audio, uint8_t **out,
                              size_t *len, tfc_status *st) {
  tfc_pb_arena arena;
  tfc_pb_arena_init(&arena);
  Tensorflow__Summary m = TENSORFLOW__SUMMARY__INIT;
  m.n_value = (size_t)n;
  m.value = tfc_pb_arena_calloc(&arena, (size_t)(n ? n : 1), sizeof *m.value);
  bool ok = m.value != NULL;
  for (int i = 0; ok && i < n; i++) {
    const tfc_summary_media *e = &media[i];
    Tensorflow__Summary__Value *v = tfc_pb_arena_alloc(&arena, sizeof *v);
    char *tag = tfc_pb_arena_strndup(&arena, e->tag ? e->tag : "", e->tag_len);
    void *body = tfc_pb_arena_alloc(&arena, audio ? sizeof(Tensorflow__Summary__Audio)
                                                  : sizeof(Tensorflow__Summary__Image));
    if (!v || !tag || !body) {
      ok = false;
      break;
    }
    tensorflow__summary__value__init(v);
    v->tag = tag;
    if (audio) {
      Tensorflow__Summary__Audio *a = body;
      tensorflow__summary__audio__init(a);
      a->sample_rate = e->sample_rate;
      a->num_channels = e->num_channels;
      a->length_frames = e->length_frames;
      a->encoded_audio_string.data = (uint8_t *)e->data;
      a->encoded_audio_string.len = e->len;
      a->content_type = (char *)"audio/wav";
      v->value_case = TENSORFLOW__SUMMARY__VALUE__VALUE_AUDIO;
      v->audio = a;
    } else {
      Tensorflow__Summary__Image *im = body;
      tensorflow__summary__image__init(im);
      im->height = e->height;
      im->width = e->width;
      im->colorspace = e->colorspace;
      im->encoded_image_string.data = (uint8_t *)e->data;
      im->encoded_image_string.len = e->len;
      v->value_case = TENSORFLOW__SUMMARY__VALUE__VALUE_IMAGE;
      v->image = im;
    }
    m.value[i] = v;
  }
  if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM building a summary");
  ok = ok && pack(&m, out, len, st);
  tfc_pb_arena_free(&arena);
  return ok;
}
