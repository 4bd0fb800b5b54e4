/*
 * test_graphdef_zero_copy.c — large tensor_content values become tensor
 * buffers without a second copy.
 *
 * protobuf-c copies a bytes field out of the input once; a numeric
 * tensor_content of 4 KiB or more must then be adopted by the decoded tensor
 * (its data pointer is the field's bytes), the field must be left empty so
 * freeing the message does not free the tensor's memory, and the tensor must
 * stay valid afterwards. Small, bool-rejected and string contents keep the
 * copying path. Under `make asan` a double free or a use after free here is
 * reported.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "graph/graph.h"
#include "graph/graphdef.h"
#include "graph/graphdef_pb.h"
#include "graph/tensor_proto.h"
#include "harness.h"

/* ------------------------------------------------------------ a growable encoder */

typedef struct wbuf {
  uint8_t *p;
  size_t n, cap;
  bool oom;
} wbuf;

/* Makes room for `more` bytes; sets oom on failure. */
static bool wb_reserve(wbuf *w, size_t more) {
  if (w->oom) return false;
  if (w->n + more <= w->cap) return true;
  size_t cap = w->cap ? w->cap : 256;
  while (cap < w->n + more) cap *= 2;
  uint8_t *p = realloc(w->p, cap);
  if (!p) {
    w->oom = true;
    return false;
  }
  w->p = p;
  w->cap = cap;
  return true;
}

/* Appends a varint. */
static void wb_varint(wbuf *w, uint64_t v) {
  if (!wb_reserve(w, 10)) return;
  while (v >= 0x80) {
    w->p[w->n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  w->p[w->n++] = (uint8_t)v;
}

/* Appends a varint field. */
static void wb_int(wbuf *w, unsigned field, uint64_t v) {
  wb_varint(w, (uint64_t)field << 3);
  wb_varint(w, v);
}

/* Appends a length-delimited field. */
static void wb_bytes(wbuf *w, unsigned field, const void *data, size_t len) {
  wb_varint(w, (uint64_t)field << 3 | 2);
  wb_varint(w, len);
  if (!wb_reserve(w, len)) return;
  if (len) memcpy(w->p + w->n, data, len);
  w->n += len;
}

/* Appends a finished message as a length-delimited field and frees it. */
static void wb_message(wbuf *w, unsigned field, wbuf *m) {
  if (m->oom) w->oom = true;
  wb_bytes(w, field, m->p, m->n);
  free(m->p);
  memset(m, 0, sizeof *m);
}

/* A TensorProto of dtype dt and shape dims whose tensor_content is `content`. */
static wbuf tensor_pb(tfc_dtype dt, int rank, const int64_t *dims, const void *content,
                      size_t len) {
  wbuf t = {0}, s = {0};
  wb_int(&t, 1, (uint64_t)dt);
  for (int i = 0; i < rank; i++) {
    wbuf d = {0};
    wb_int(&d, 1, (uint64_t)dims[i]);
    wb_message(&s, 2, &d);
  }
  wb_message(&t, 2, &s);
  wb_bytes(&t, 4, content, len);
  return t;
}

/* A GraphDef holding one Const node `name` whose value is the TensorProto tp
 * (consumed), laid out as tfc exports it. */
static wbuf const_graph_pb(const char *name, tfc_dtype dt, wbuf *tp) {
  wbuf g = {0}, n = {0}, e = {0}, v = {0};
  wb_bytes(&n, 1, name, strlen(name));
  wb_bytes(&n, 2, "Const", 5);
  wb_int(&v, 6, (uint64_t)dt);
  wb_bytes(&e, 1, "dtype", 5);
  wb_message(&e, 2, &v);
  wb_message(&n, 5, &e);
  wb_message(&v, 8, tp);
  wb_bytes(&e, 1, "value", 5);
  wb_message(&e, 2, &v);
  wb_message(&n, 5, &e);
  wb_message(&g, 1, &n);
  wb_int(&v, 1, 26);  /* versions { producer: 26 }, which export writes back */
  wb_message(&g, 4, &v);
  return g;
}

/* n floats with a recognisable pattern. */
static float *pattern(int64_t n) {
  float *f = malloc((size_t)n * sizeof *f);
  for (int64_t i = 0; f && i < n; i++) f[i] = (float)i * 0.5f - 7.0f;
  return f;
}

/* ------------------------------------------------------------ tests */

TFC_TEST(tensor_proto_large_content_is_adopted) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t dims[2] = {300, 700};  /* 840,000 bytes */
  int64_t n = dims[0] * dims[1];
  float *want = pattern(n);
  CHECK(want != NULL);
  wbuf tp = tensor_pb(TFC_DTYPE_FLOAT, 2, dims, want, (size_t)n * sizeof(float));
  CHECK(!tp.oom);
  ProtobufCMessage *m = tfc_pb_unpack(&tensorflow__tensor_proto__descriptor, tp.p, tp.n,
                                      "TensorProto", &st);
  CHECK_STATUS_OK(&st);
  Tensorflow__TensorProto *p = (Tensorflow__TensorProto *)m;
  uint8_t *bytes = p->tensor_content.data;
  CHECK(tfc_pb_bytes_block(&p->tensor_content) == bytes - TFC_ALIGN);
  tfc_tensor *t = tfc_tensor_from_pb_take(p, &st);
  CHECK_STATUS_OK(&st);
  CHECK(t != NULL);
  CHECK(t->data == (void *)bytes);                       /* the same bytes: no second copy */
  CHECK(((uintptr_t)t->data & (TFC_ALIGN - 1)) == 0);
  CHECK(p->tensor_content.data == NULL && p->tensor_content.len == 0);
  CHECK(t->buf->release == NULL && tfc_tensor_is_exclusive(t));  /* an owned buffer */
  protobuf_c_message_free_unpacked(m, &tfc_pb_allocator);
  CHECK_EQ_INT(t->nelems, n);
  CHECK(memcmp(t->data, want, (size_t)n * sizeof(float)) == 0);  /* valid after the free */
  /* the copying decoder leaves the message alone */
  m = tfc_pb_unpack(&tensorflow__tensor_proto__descriptor, tp.p, tp.n, "TensorProto", &st);
  CHECK_STATUS_OK(&st);
  p = (Tensorflow__TensorProto *)m;
  tfc_tensor *c = tfc_tensor_from_pb(p, &st);
  CHECK(c != NULL && c->data != (void *)p->tensor_content.data);
  CHECK(p->tensor_content.len == (size_t)n * sizeof(float));
  protobuf_c_message_free_unpacked(m, &tfc_pb_allocator);
  CHECK(memcmp(c->data, want, (size_t)n * sizeof(float)) == 0);
  /* byte-identical re-encoding */
  void *out = NULL;
  size_t out_len = 0;
  CHECK(tfc_tensor_to_proto(t, &out, &out_len, &st));
  CHECK(out_len == tp.n && memcmp(out, tp.p, tp.n) == 0);
  tfc_free(out);
  tfc_tensor_unref(c);
  tfc_tensor_unref(t);
  free(tp.p);
  free(want);
}

TFC_TEST(tensor_proto_adoption_keeps_the_checks) {
  tfc_status st;
  tfc_status_clear(&st);
  /* a small content is copied (below the adoption size) */
  int64_t d_small[1] = {16};
  float *f = pattern(16);
  wbuf tp = tensor_pb(TFC_DTYPE_FLOAT, 1, d_small, f, 16 * sizeof(float));
  ProtobufCMessage *m = tfc_pb_unpack(&tensorflow__tensor_proto__descriptor, tp.p, tp.n,
                                      "TensorProto", &st);
  CHECK(m != NULL);
  Tensorflow__TensorProto *p = (Tensorflow__TensorProto *)m;
  CHECK(tfc_pb_bytes_block(&p->tensor_content) == NULL);
  tfc_tensor *t = tfc_tensor_from_pb_take(p, &st);
  CHECK(t != NULL && p->tensor_content.len == 16 * sizeof(float));
  CHECK(memcmp(t->data, f, 16 * sizeof(float)) == 0);
  protobuf_c_message_free_unpacked(m, &tfc_pb_allocator);
  tfc_tensor_unref(t);
  free(tp.p);
  free(f);

  /* a large bool content with a byte other than 0/1 is refused, not adopted */
  int64_t d_bool[1] = {8192};
  uint8_t *b = calloc(8192, 1);
  CHECK(b != NULL);
  b[5000] = 2;
  tp = tensor_pb(TFC_DTYPE_BOOL, 1, d_bool, b, 8192);
  m = tfc_pb_unpack(&tensorflow__tensor_proto__descriptor, tp.p, tp.n, "TensorProto", &st);
  CHECK(m != NULL);
  p = (Tensorflow__TensorProto *)m;
  CHECK(tfc_tensor_from_pb_take(p, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "bool tensor_content byte 5000") != NULL);
  CHECK(p->tensor_content.len == 8192);  /* still the message's: freed with it */
  protobuf_c_message_free_unpacked(m, &tfc_pb_allocator);
  free(tp.p);
  b[5000] = 1;
  tp = tensor_pb(TFC_DTYPE_BOOL, 1, d_bool, b, 8192);
  tfc_status_clear(&st);
  t = tfc_tensor_from_proto(tp.p, tp.n, &st);
  CHECK(t != NULL && memcmp(t->data, b, 8192) == 0);
  tfc_tensor_unref(t);
  free(tp.p);

  /* a large content of the wrong size is refused */
  int64_t d_wrong[1] = {2049};
  tp = tensor_pb(TFC_DTYPE_FLOAT, 1, d_wrong, b, 8192);
  CHECK(tfc_tensor_from_proto(tp.p, tp.n, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  free(tp.p);

  /* a large string content is decoded element by element */
  size_t slen = 6000;
  uint8_t *sc = malloc(slen + 2);
  CHECK(sc != NULL);
  sc[0] = (uint8_t)(slen & 0x7f) | 0x80;
  sc[1] = (uint8_t)(slen >> 7);
  memset(sc + 2, 'x', slen);
  int64_t d_one[1] = {1};
  tp = tensor_pb(TFC_DTYPE_STRING, 1, d_one, sc, slen + 2);
  tfc_status_clear(&st);
  t = tfc_tensor_from_proto(tp.p, tp.n, &st);
  CHECK_STATUS_OK(&st);
  CHECK(t != NULL && ((tfc_string *)t->data)[0].len == slen);
  tfc_tensor_unref(t);
  free(tp.p);
  free(sc);
  free(b);
}

TFC_TEST(graphdef_import_adopts_large_const_values) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t dims[2] = {512, 1024};  /* 2 MiB */
  int64_t n = dims[0] * dims[1];
  float *want = pattern(n);
  CHECK(want != NULL);
  wbuf tp = tensor_pb(TFC_DTYPE_FLOAT, 2, dims, want, (size_t)n * sizeof(float));
  wbuf gd = const_graph_pb("w", TFC_DTYPE_FLOAT, &tp);
  CHECK(!gd.oom);

  /* the nested field is adoptable and its tensor takes it over */
  Tensorflow__GraphDef *g_pb = (Tensorflow__GraphDef *)tfc_pb_unpack(
      &tensorflow__graph_def__descriptor, gd.p, gd.n, "GraphDef", &st);
  CHECK(g_pb != NULL && g_pb->n_node == 1);
  Tensorflow__TensorProto *p = NULL;
  for (size_t k = 0; k < g_pb->node[0]->n_attr; k++)
    if (strcmp(g_pb->node[0]->attr[k]->key, "value") == 0) p = g_pb->node[0]->attr[k]->value->tensor;
  CHECK(p != NULL);
  uint8_t *bytes = p->tensor_content.data;
  tfc_tensor *t = tfc_tensor_from_pb_take(p, &st);
  CHECK(t != NULL && t->data == (void *)bytes);
  protobuf_c_message_free_unpacked(&g_pb->base, &tfc_pb_allocator);
  CHECK(memcmp(t->data, want, (size_t)n * sizeof(float)) == 0);
  tfc_tensor_unref(t);

  /* the import keeps the value valid after freeing the GraphDef, exports the
   * same bytes, and makes one allocation fewer than a copying decode would
   * (the tensor buffer), counted through the allocation funnel */
  tfc_graph *g = tfc_graph_new();
  CHECK(g != NULL);
  CHECK(tfc_graph_import(g, gd.p, gd.n, NULL, NULL, &st));
  CHECK_STATUS_OK(&st);
  tfc_node *node = tfc_graph_node(g, 0);
  tfc_tensor *v = NULL;
  CHECK(tfc_attrs_get_tensor(&node->attrs, "value", &v, &st) && v != NULL);
  CHECK(v->dtype == TFC_DTYPE_FLOAT && v->nelems == n);
  CHECK(memcmp(v->data, want, (size_t)n * sizeof(float)) == 0);
  void *out = NULL;
  size_t out_len = 0;
  CHECK(tfc_graph_export(g, &out, &out_len, &st));
  CHECK(out_len == gd.n && memcmp(out, gd.p, gd.n) == 0);
  tfc_free(out);
  tfc_graph_unref(g);

  /* allocations made by an import: the first k that lets it succeed, less one */
  int64_t allocs[2] = {0, 0};
  int64_t small_dims[2] = {4, 4};
  wbuf tp_small = tensor_pb(TFC_DTYPE_FLOAT, 2, small_dims, want, 16 * sizeof(float));
  wbuf gd_small = const_graph_pb("w", TFC_DTYPE_FLOAT, &tp_small);
  const wbuf *inputs[2] = {&gd, &gd_small};
  for (int which = 0; which < 2; which++) {
    for (int64_t k = 1; k < 100000 && !allocs[which]; k++) {
      tfc_graph *h = tfc_graph_new();
      CHECK(h != NULL);
      tfc_alloc_fail_after(k);
      bool ok = tfc_graph_import(h, inputs[which]->p, inputs[which]->n, NULL, NULL, &st);
      tfc_alloc_fail_after(0);
      tfc_graph_unref(h);
      if (ok) allocs[which] = k - 1;
      else CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
    }
  }
  CHECK(allocs[0] > 0 && allocs[1] > 0);
  CHECK_EQ_INT(allocs[0], allocs[1] - 1);  /* the large value reuses protobuf-c's block */
  free(gd_small.p);
  free(gd.p);
  free(want);
}
