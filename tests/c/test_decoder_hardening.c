/*
 * test_decoder_hardening.c — the TensorProto and GraphDef decoders refuse
 * sizes they cannot honour before allocating, and the inputs the fuzz
 * targets (tests/fuzz/) found bugs with are handled.
 *
 * Inputs are written with a small wire-format encoder (below) so that each
 * test states exactly which fields it sets.
 */
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "graph/graph.h"
#include "graph/graphdef.h"
#include "graph/tensor_proto.h"
#include "harness.h"

/* ------------------------------------------------------------ encoder */

typedef struct wire {
  unsigned char buf[1024];
  size_t n;
} wire;

static void w_varint(wire *w, uint64_t v) {
  while (v >= 0x80) {
    w->buf[w->n++] = (unsigned char)(v | 0x80);
    v >>= 7;
  }
  w->buf[w->n++] = (unsigned char)v;
}

static void w_int(wire *w, unsigned field, uint64_t v) {
  w_varint(w, (uint64_t)field << 3);
  w_varint(w, v);
}

static void w_bytes(wire *w, unsigned field, const void *data, size_t len) {
  w_varint(w, (uint64_t)field << 3 | 2);
  w_varint(w, len);
  memcpy(w->buf + w->n, data, len);
  w->n += len;
}

/* TensorProto{dtype, tensor_shape{dim{size: dims[i]}...}}. */
static wire tensor_pb(tfc_dtype dt, int rank, const int64_t *dims) {
  wire t = {.n = 0}, s = {.n = 0};
  for (int i = 0; i < rank; i++) {
    wire d = {.n = 0};
    w_int(&d, 1, (uint64_t)dims[i]);
    w_bytes(&s, 2, d.buf, d.n);
  }
  w_int(&t, 1, (uint64_t)dt);
  w_bytes(&t, 2, s.buf, s.n);
  return t;
}

/* Decodes t and checks it is refused with INVALID_ARGUMENT whose message
 * contains `why`. (RESOURCE_EXHAUSTED would mean an allocation was tried.) */
static bool refused(const wire *t, const char *why) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *x = tfc_tensor_from_proto(t->buf, t->n, &st);
  if (x) {
    tfc_tensor_unref(x);
    return false;
  }
  return st.code == TFC_CODE_INVALID_ARGUMENT && strstr(st.msg, why) != NULL;
}

/* ------------------------------------------------------------ sizes */

TFC_TEST(decoder_limits_absurd_tensor_shapes_are_refused) {
  /* 2^60 elements, no values: TF's rule would fill them with zeros */
  int64_t d60[2] = {(int64_t)1 << 30, (int64_t)1 << 30};
  wire t = tensor_pb(TFC_DTYPE_FLOAT, 2, d60);
  CHECK(refused(&t, "exceeds the limit"));
  int64_t e60[1] = {(int64_t)1 << 60};
  t = tensor_pb(TFC_DTYPE_INT8, 1, e60);
  CHECK(refused(&t, "exceeds the limit"));
  /* one value repeated 2^41 times */
  int64_t d41[1] = {(int64_t)1 << 41};
  t = tensor_pb(TFC_DTYPE_INT8, 1, d41);
  w_int(&t, 7, 1);
  CHECK(refused(&t, "exceeds the limit"));
  /* element bytes overflow 64 bits */
  int64_t d62[1] = {(int64_t)1 << 62};
  t = tensor_pb(TFC_DTYPE_DOUBLE, 1, d62);
  CHECK(refused(&t, "exceeds the limit"));
  /* the element count overflows */
  int64_t dover[3] = {(int64_t)1 << 40, (int64_t)1 << 40, 2};
  t = tensor_pb(TFC_DTYPE_FLOAT, 3, dover);
  CHECK(refused(&t, "overflows"));
}

TFC_TEST(decoder_limits_repeated_strings_count_their_bytes) {
  /* 2^34 strings of 256 bytes: 256 GiB of headers, 4 TiB of copies */
  static const char s256[256] = {0};
  int64_t d34[1] = {(int64_t)1 << 34};
  wire t = tensor_pb(TFC_DTYPE_STRING, 1, d34);
  w_bytes(&t, 8, s256, sizeof s256);
  CHECK(refused(&t, "exceeds the limit"));
  /* the same count of empty strings is only headers, still too many */
  int64_t d37[1] = {(int64_t)1 << 37};
  t = tensor_pb(TFC_DTYPE_STRING, 1, d37);
  w_bytes(&t, 8, "", 0);
  CHECK(refused(&t, "exceeds the limit"));
  /* a small repeated string still decodes */
  int64_t d4[1] = {4};
  t = tensor_pb(TFC_DTYPE_STRING, 1, d4);
  w_bytes(&t, 8, "ab", 2);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *x = tfc_tensor_from_proto(t.buf, t.n, &st);
  CHECK(x != NULL);
  CHECK(x->nelems == 4 && ((tfc_string *)x->data)[3].len == 2);
  tfc_tensor_unref(x);
}

TFC_TEST(decoder_limits_content_inconsistent_with_shape_is_refused) {
  int64_t d40[1] = {(int64_t)1 << 40};
  wire t = tensor_pb(TFC_DTYPE_INT8, 1, d40);
  w_bytes(&t, 4, "abcd", 4);
  CHECK(refused(&t, "cannot encode"));
  int64_t d3[1] = {3};
  t = tensor_pb(TFC_DTYPE_FLOAT, 1, d3);
  w_bytes(&t, 4, "abcdefghijk", 11);
  CHECK(refused(&t, "cannot encode"));
  /* strings: more elements than content bytes, and a bad framing */
  int64_t d50[1] = {(int64_t)1 << 50};
  t = tensor_pb(TFC_DTYPE_STRING, 1, d50);
  w_bytes(&t, 4, "\x01" "a", 2);
  CHECK(refused(&t, "cannot encode"));
  int64_t d2[1] = {2};
  t = tensor_pb(TFC_DTYPE_STRING, 1, d2);
  w_bytes(&t, 4, "\x01\x05" "abc", 5);
  CHECK(refused(&t, "length-prefixed"));
}

TFC_TEST(decoder_limits_graphdef_const_with_absurd_value_is_refused) {
  /* GraphDef{node{name: "c", op: "Const", attr{dtype: float, value: <2^60 floats>}}} */
  int64_t d60[2] = {(int64_t)1 << 30, (int64_t)1 << 30};
  wire tp = tensor_pb(TFC_DTYPE_FLOAT, 2, d60);
  wire val = {.n = 0}, e_val = {.n = 0}, typ = {.n = 0}, e_typ = {.n = 0}, node = {.n = 0},
       gd = {.n = 0};
  w_bytes(&val, 8, tp.buf, tp.n);      /* AttrValue.tensor */
  w_bytes(&e_val, 1, "value", 5);
  w_bytes(&e_val, 2, val.buf, val.n);
  w_int(&typ, 6, TFC_DTYPE_FLOAT);     /* AttrValue.type */
  w_bytes(&e_typ, 1, "dtype", 5);
  w_bytes(&e_typ, 2, typ.buf, typ.n);
  w_bytes(&node, 1, "c", 1);
  w_bytes(&node, 2, "Const", 5);
  w_bytes(&node, 5, e_typ.buf, e_typ.n);
  w_bytes(&node, 5, e_val.buf, e_val.n);
  w_bytes(&gd, 1, node.buf, node.n);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  CHECK(g != NULL);
  CHECK(!tfc_graph_import(g, gd.buf, gd.n, NULL, NULL, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "exceeds the limit") != NULL);
  CHECK_EQ_INT(tfc_graph_num_nodes(g), 0);
  tfc_graph_unref(g);
}

/* ------------------------------------------------------------ fuzz findings */

/* NodeDef{name, op: "Const", attr{_class: [cls]}, attr{dtype: float},
 * attr{value: scalar 0}} appended to a GraphDef. cls may hold NUL bytes. */
static void add_const(wire *gd, const char *name, size_t name_len, const char *cls, size_t cls_len) {
  wire tp = {.n = 0}, val = {.n = 0}, e_val = {.n = 0}, typ = {.n = 0}, e_typ = {.n = 0},
       list = {.n = 0}, lv = {.n = 0}, e_cls = {.n = 0}, node = {.n = 0};
  w_int(&tp, 1, TFC_DTYPE_FLOAT);
  w_bytes(&val, 8, tp.buf, tp.n);
  w_bytes(&e_val, 1, "value", 5);
  w_bytes(&e_val, 2, val.buf, val.n);
  w_int(&typ, 6, TFC_DTYPE_FLOAT);
  w_bytes(&e_typ, 1, "dtype", 5);
  w_bytes(&e_typ, 2, typ.buf, typ.n);
  w_bytes(&node, 1, name, name_len);
  w_bytes(&node, 2, "Const", 5);
  if (cls) {
    w_bytes(&list, 2, cls, cls_len);      /* ListValue.s */
    w_bytes(&lv, 1, list.buf, list.n);    /* AttrValue.list */
    w_bytes(&e_cls, 1, "_class", 6);
    w_bytes(&e_cls, 2, lv.buf, lv.n);
    w_bytes(&node, 5, e_cls.buf, e_cls.n);
  }
  w_bytes(&node, 5, e_typ.buf, e_typ.n);
  w_bytes(&node, 5, e_val.buf, e_val.n);
  w_bytes(gd, 1, node.buf, node.n);
}

/* Imports gd into a fresh graph; the status lands in st. */
static bool import_ok(const wire *gd, tfc_status *st) {
  tfc_graph *g = tfc_graph_new();
  tfc_status_clear(st);
  bool ok = tfc_graph_import(g, gd->buf, gd->n, NULL, NULL, st);
  tfc_graph_unref(g);
  return ok;
}

/* The fuzz target's round trip (export -> import -> export) changed the bytes:
 * a NUL byte in the node name was cut off by protobuf-c ("f\0\0\0\0/y" read
 * as "f"), and `_class: ["loc:@\0\0\0d"]` became colocation with "", which
 * exported as "loc:@" and was then dropped. */
TFC_TEST(decoder_fuzz_nul_bytes_and_unknown_colocation_are_refused) {
  static const unsigned char reproducer[] = {
      0x0a, 0x4d, 0x0a, 0x07, 0x66, 0x00, 0x00, 0x00, 0x00, 0x2f, 0x79, 0x12, 0x05, 0x43,
      0x6f, 0x6e, 0x73, 0x74, 0x2a, 0x17, 0x0a, 0x06, 0x5f, 0x63, 0x6c, 0x61, 0x73, 0x73,
      0x12, 0x0d, 0x0a, 0x0b, 0x12, 0x09, 0x6c, 0x6f, 0x63, 0x3a, 0x40, 0x00, 0x00, 0x00,
      0x64, 0x2a, 0x0b, 0x0a, 0x05, 0x64, 0x74, 0x79, 0x70, 0x65, 0x12, 0x02, 0x30, 0x01,
      0x2a, 0x15, 0x0a, 0x05, 0x76, 0x61, 0x6c, 0x75, 0x65, 0x12, 0x0c, 0x42, 0x0a, 0x08,
      0x01, 0x12, 0x00, 0x2a, 0x04, 0x2a, 0x02, 0xaa, 0x13};
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  CHECK(!tfc_graph_import(g, reproducer, sizeof reproducer, NULL, NULL, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "NUL byte") != NULL);
  CHECK_EQ_INT(tfc_graph_num_nodes(g), 0);
  tfc_graph_unref(g);

  /* NUL bytes in the name, op or an attr key: refused, not truncated */
  wire gd = {.n = 0};
  add_const(&gd, "f\0/y", 4, NULL, 0);
  CHECK(!import_ok(&gd, &st));
  CHECK(strstr(st.msg, "NUL byte") != NULL);
  static const unsigned char op_nul[] = {0x0a, 0x0b, 0x0a, 0x01, 'n', 0x12, 0x06,
                                         'N', 'o', 'O', 'p', 0x00, 'x'};
  gd.n = 0;
  memcpy(gd.buf, op_nul, sizeof op_nul);
  gd.n = sizeof op_nul;
  CHECK(!import_ok(&gd, &st));
  CHECK(strstr(st.msg, "NUL byte") != NULL);

  /* As TF: "loc:@x" must name a node of the GraphDef */
  static const struct {
    const char *cls;
    size_t len;
  } unknown[] = {{"loc:@\0\0\0d", 9}, {"loc:@", 5}, {"loc:@missing", 12}};
  for (size_t k = 0; k < sizeof unknown / sizeof unknown[0]; k++) {
    gd.n = 0;
    add_const(&gd, "a", 1, NULL, 0);
    add_const(&gd, "f/y", 3, unknown[k].cls, unknown[k].len);
    CHECK(!import_ok(&gd, &st));
    CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
    CHECK(strstr(st.msg, "Node 'f/y' expects to be colocated with unknown node '") != NULL);
  }
  /* a known node, and entries without the prefix, import; the export is stable */
  gd.n = 0;
  add_const(&gd, "f/y", 3, "loc:@a", 6);
  add_const(&gd, "a", 1, "other", 5);
  g = tfc_graph_new();
  CHECK(tfc_graph_import(g, gd.buf, gd.n, NULL, NULL, &st));
  void *out1 = NULL, *out2 = NULL;
  size_t len1 = 0, len2 = 0;
  CHECK(tfc_graph_export(g, &out1, &len1, &st));
  tfc_graph *g2 = tfc_graph_new();
  CHECK(tfc_graph_import(g2, out1, len1, NULL, NULL, &st));
  CHECK(tfc_graph_export(g2, &out2, &len2, &st));
  CHECK(len1 == len2 && memcmp(out1, out2, len1) == 0);
  CHECK(memmem(out1, len1, "loc:@a", 6) != NULL);
  tfc_free(out1);
  tfc_free(out2);
  tfc_graph_unref(g2);
  /* a node already in the graph also counts (import under tf.colocate_with) */
  gd.n = 0;
  add_const(&gd, "z", 1, "loc:@a", 6);
  CHECK(!import_ok(&gd, &st));
  CHECK(tfc_graph_import(g, gd.buf, gd.n, NULL, NULL, &st));
  tfc_graph_unref(g);
}

/* The fuzz build (16 MiB limit) decoded 1007232 empty strings (16 MB of
 * elements) but refused the tensor_content encoding of the same tensor: the
 * size check counted the varint lengths framing the content as string bytes.
 * Both encodings must now count the same. */
TFC_TEST(decoder_fuzz_string_encodings_count_the_same_bytes) {
  static const unsigned char reproducer[] = {
      0x08, 0x07, 0x12, 0x08, 0x12, 0x02, 0x08, 0x7a, 0x12, 0x02, 0x08, 0x56, 0x3a, 0x02,
      0x08, 0x07, 0x12, 0x08, 0x12, 0x02, 0x08, 0x60, 0x3a, 0x02, 0x08, 0x02, 0x12, 0x02,
      0x08, 0x02, 0x3a, 0x04, 0x6f, 0x6e, 0x6c, 0x79};
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = tfc_tensor_from_proto(reproducer, sizeof reproducer, &st);
  CHECK(t != NULL);
  CHECK(t->dtype == TFC_DTYPE_STRING && t->nelems == 122 * 86 * 96);
  void *buf = NULL;
  size_t len = 0;
  CHECK(tfc_tensor_to_proto_content(t, &buf, &len, &st));
  tfc_tensor *back = tfc_tensor_from_proto(buf, len, &st);
  CHECK(back != NULL);
  CHECK(back->nelems == t->nelems && ((tfc_string *)back->data)[7].len == 0);
  tfc_tensor_unref(back);
  tfc_free(buf);
  tfc_tensor_unref(t);
  /* lengths in the framing that add up past the limit: refused up front */
  int64_t d2[1] = {2};
  wire c = tensor_pb(TFC_DTYPE_STRING, 1, d2);
  wire content = {.n = 0};
  w_varint(&content, (uint64_t)1 << 62);
  w_varint(&content, (uint64_t)1 << 62);
  w_bytes(&c, 4, content.buf, content.n);
  CHECK(refused(&c, "exceeds the limit"));
}
