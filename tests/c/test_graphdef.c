/*
 * test_graphdef.c — GraphDef import/export and TensorProto coding.
 *
 * The fixtures in tests/fixtures/graphdef/ were written by real TensorFlow
 * (tools/make_graphdef_fixtures.py): each .pb is imported, run in a tfc
 * session and compared with TF's outputs stored as .npy files (a tiny .npy
 * reader lives below). Exported graphs are re-imported and must give the
 * same results and the same bytes. With TFC_GRAPHDEF_EXPORT_DIR set, the
 * exports are also written there for tools/make_graphdef_fixtures.py
 * --check-export to run in TensorFlow. Corrupt inputs (truncations, bit
 * flips, deep nesting) and failed allocations must fail cleanly.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "graph/graph.h"
#include "graph/graphdef.h"
#include "graph/tensor_proto.h"
#include "harness.h"
#include "runtime/session.h"

#define FIXTURES "tests/fixtures/graphdef/"

/* ------------------------------------------------------------ files */

/* Reads a whole file into a tfc_malloc'd buffer (NUL-terminated); NULL on error. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n >= 0 ? tfc_malloc((size_t)n + 1) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    tfc_free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) {
    buf[n] = '\0';
    *len = (size_t)n;
  }
  return buf;
}

/* Writes len bytes to path; false on error. */
static bool write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

/* ------------------------------------------------------------ .npy */

typedef struct npy {
  tfc_dtype dtype;
  size_t itemsize;  /* bytes per element in the file */
  int rank;
  int64_t dims[TFC_MAX_RANK];
  int64_t n;
  const unsigned char *data;
  char *file;       /* owns data */
} npy;

/* Parses a version 1/2 .npy file with a little-endian or byte-sized C-order
 * array of a type tfc knows (|S<n> for strings). false on anything else. */
static bool npy_load(const char *path, npy *out) {
  memset(out, 0, sizeof *out);
  size_t len;
  char *f = read_file(path, &len);
  if (!f) return false;
  out->file = f;
  if (len < 12 || memcmp(f, "\x93NUMPY", 6) != 0) return false;
  size_t hlen, off;
  if (f[6] == 1) {
    hlen = (unsigned char)f[8] | (size_t)(unsigned char)f[9] << 8;
    off = 10;
  } else {
    hlen = (unsigned char)f[8] | (size_t)(unsigned char)f[9] << 8 |
           (size_t)(unsigned char)f[10] << 16 | (size_t)(unsigned char)f[11] << 24;
    off = 12;
  }
  if (off + hlen > len) return false;
  char header[512];
  snprintf(header, sizeof header, "%.*s", (int)(hlen < 511 ? hlen : 511), f + off);
  const char *d = strstr(header, "'descr': '");
  const char *s = strstr(header, "'shape': (");
  if (!d || !s || strstr(header, "'fortran_order': True")) return false;
  d += 10;
  static const struct { const char *descr; tfc_dtype t; size_t size; } k[] = {
      {"<f4'", TFC_DTYPE_FLOAT, 4},  {"<f8'", TFC_DTYPE_DOUBLE, 8}, {"<i4'", TFC_DTYPE_INT32, 4},
      {"<i8'", TFC_DTYPE_INT64, 8},  {"|b1'", TFC_DTYPE_BOOL, 1},   {"|u1'", TFC_DTYPE_UINT8, 1},
      {"|i1'", TFC_DTYPE_INT8, 1},   {"<i2'", TFC_DTYPE_INT16, 2},  {"<u2'", TFC_DTYPE_UINT16, 2},
      {"<f2'", TFC_DTYPE_HALF, 2},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if (strncmp(d, k[i].descr, strlen(k[i].descr)) == 0) {
      out->dtype = k[i].t;
      out->itemsize = k[i].size;
    }
  if (!out->dtype && d[0] == '|' && d[1] == 'S') {
    out->dtype = TFC_DTYPE_STRING;
    out->itemsize = (size_t)strtol(d + 2, NULL, 10);
  }
  if (!out->dtype) return false;
  s += 10;
  out->n = 1;
  while (*s && *s != ')') {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s) break;
    if (out->rank >= TFC_MAX_RANK) return false;
    out->dims[out->rank++] = v;
    out->n *= v;
    s = end;
    while (*s == ',' || *s == ' ') s++;
  }
  if (off + hlen + (size_t)out->n * out->itemsize > len) return false;
  out->data = (const unsigned char *)f + off + hlen;
  return true;
}

/* Frees what npy_load allocated. */
static void npy_free(npy *a) { tfc_free(a->file); }

/* Length of the k-th fixed-width string (NumPy strips trailing NULs). */
static size_t npy_strlen(const npy *a, int64_t k) {
  const unsigned char *p = a->data + (size_t)k * a->itemsize;
  size_t l = a->itemsize;
  while (l > 0 && p[l - 1] == 0) l--;
  return l;
}

/* A new tensor holding the array (for feeds). */
static tfc_tensor *npy_tensor(const npy *a, tfc_status *st) {
  tfc_tensor *t = tfc_tensor_new(a->dtype, a->rank, a->dims, st);
  if (!t) return NULL;
  if (a->dtype == TFC_DTYPE_STRING) {
    for (int64_t k = 0; k < a->n; k++)
      tfc_tensor_set_string(t, k, (const char *)a->data + (size_t)k * a->itemsize, npy_strlen(a, k), st);
  } else if (a->n) {
    memcpy(t->data, a->data, (size_t)a->n * a->itemsize);
  }
  return t;
}

/* Compares t with the expected array; prints the first difference. */
static bool tensor_matches(const char *what, const tfc_tensor *t, const npy *want, double tol) {
  if (!t || t->dtype != want->dtype || t->rank != want->rank) {
    fprintf(stderr, "  %s: dtype/rank differ (got %s rank %d, want %s rank %d)\n", what,
            t ? tfc_dtype_name(t->dtype) : "NULL", t ? t->rank : -1, tfc_dtype_name(want->dtype),
            want->rank);
    return false;
  }
  for (int i = 0; i < t->rank; i++)
    if (t->dims[i] != want->dims[i]) {
      fprintf(stderr, "  %s: dim %d is %lld, want %lld\n", what, i, (long long)t->dims[i],
              (long long)want->dims[i]);
      return false;
    }
  for (int64_t k = 0; k < want->n; k++) {
    if (t->dtype == TFC_DTYPE_STRING) {
      const tfc_string *s = &((const tfc_string *)t->data)[k];
      size_t l = npy_strlen(want, k);
      if (s->len != l || (l && memcmp(s->data, want->data + (size_t)k * want->itemsize, l) != 0)) {
        fprintf(stderr, "  %s: string %lld differs\n", what, (long long)k);
        return false;
      }
      continue;
    }
    tfc_tensor w = {.dtype = want->dtype, .rank = 1, .dims = {want->n}, .nelems = want->n,
                    .data = (void *)want->data};
    double a = tfc_tensor_get_double(t, k), b = tfc_tensor_get_double(&w, k);
    double lim = tol * (1.0 + (b < 0 ? -b : b));
    if (!(a == b || (a - b <= lim && b - a <= lim))) {
      fprintf(stderr, "  %s: element %lld is %.9g, want %.9g\n", what, (long long)k, a, b);
      return false;
    }
  }
  return true;
}

/* ------------------------------------------------------------ manifest */

#define MAX_ITEMS 64

typedef struct fixture {
  char graph[64];
  int n_feed, n_target, n_fetch;
  char feed[MAX_ITEMS][64], feed_file[MAX_ITEMS][96];
  char target[MAX_ITEMS][64];
  char fetch[MAX_ITEMS][64], fetch_file[MAX_ITEMS][96];
  double fetch_tol[MAX_ITEMS];
} fixture;

/* Reads manifest.txt into fixtures (at most max); returns the count or -1. */
static int read_manifest(fixture *fx, int max) {
  size_t len;
  char *text = read_file(FIXTURES "manifest.txt", &len);
  if (!text) return -1;
  int n = 0;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    char graph[64], kind[16], name[64], file[96] = "";
    double tol = 0;
    if (line[0] == '#' || sscanf(line, "%63s %15s %63s %95s %lf", graph, kind, name, file, &tol) < 3)
      continue;
    int i = 0;
    while (i < n && strcmp(fx[i].graph, graph) != 0) i++;
    if (i == n) {
      if (n == max) break;
      memset(&fx[n], 0, sizeof fx[n]);
      snprintf(fx[n].graph, sizeof fx[n].graph, "%s", graph);
      n++;
    }
    fixture *f = &fx[i];
    if (strcmp(kind, "feed") == 0 && f->n_feed < MAX_ITEMS) {
      snprintf(f->feed[f->n_feed], 64, "%s", name);
      snprintf(f->feed_file[f->n_feed++], 96, "%s", file);
    } else if (strcmp(kind, "target") == 0 && f->n_target < MAX_ITEMS) {
      snprintf(f->target[f->n_target++], 64, "%s", name);
    } else if (strcmp(kind, "fetch") == 0 && f->n_fetch < MAX_ITEMS) {
      snprintf(f->fetch[f->n_fetch], 64, "%s", name);
      snprintf(f->fetch_file[f->n_fetch], 96, "%s", file);
      f->fetch_tol[f->n_fetch++] = tol;
    }
  }
  tfc_free(text);
  return n;
}

/* Runs a fixture on g: the targets, then feeds -> fetches, comparing every
 * fetch with its .npy. Returns the number of problems (printed). */
static int run_fixture(tfc_graph *g, const fixture *f) {
  tfc_status st;
  tfc_status_clear(&st);
  int bad = 0;
  tfc_session_options opts = {.inter_op_threads = 2, .intra_op_threads = 1, .n_cpu_devices = 1};
  tfc_session *s = tfc_session_new(g, &opts, &st);
  if (!s) {
    fprintf(stderr, "  %s: session: %s\n", f->graph, st.msg);
    return 1;
  }
  if (f->n_target) {
    int targets[MAX_ITEMS];
    for (int i = 0; i < f->n_target; i++) {
      tfc_node *n = tfc_graph_find(g, f->target[i]);
      targets[i] = n ? n->id : 0;
      bad += n == NULL;
    }
    tfc_plan *p = tfc_session_plan(s, 0, NULL, 0, NULL, f->n_target, targets, &st);
    if (!p || !tfc_session_run(s, p, NULL, NULL, &st)) {
      fprintf(stderr, "  %s: targets: %s\n", f->graph, st.msg);
      bad++;
    }
  }
  tfc_endpoint feeds[MAX_ITEMS], fetches[MAX_ITEMS];
  tfc_tensor *feed_values[MAX_ITEMS] = {0}, *out[MAX_ITEMS] = {0};
  npy want[MAX_ITEMS];
  memset(want, 0, sizeof want);
  for (int i = 0; i < f->n_feed; i++) {
    char path[256];
    npy a;
    snprintf(path, sizeof path, FIXTURES "%s", f->feed_file[i]);
    if (!tfc_graph_parse_endpoint(g, f->feed[i], &feeds[i], NULL, &st) || !npy_load(path, &a)) {
      fprintf(stderr, "  %s: feed %s unusable: %s\n", f->graph, f->feed[i], st.msg);
      npy_free(&a);
      bad++;
      continue;
    }
    feed_values[i] = npy_tensor(&a, &st);
    npy_free(&a);
  }
  for (int i = 0; i < f->n_fetch; i++) {
    char path[256];
    snprintf(path, sizeof path, FIXTURES "%s", f->fetch_file[i]);
    if (!tfc_graph_parse_endpoint(g, f->fetch[i], &fetches[i], NULL, &st) || !npy_load(path, &want[i])) {
      fprintf(stderr, "  %s: fetch %s unusable: %s\n", f->graph, f->fetch[i], st.msg);
      bad++;
    }
  }
  if (!bad) {
    tfc_plan *p = tfc_session_plan(s, f->n_feed, feeds, f->n_fetch, fetches, 0, NULL, &st);
    if (!p || !tfc_session_run(s, p, feed_values, out, &st)) {
      fprintf(stderr, "  %s: run: %s\n", f->graph, st.msg);
      bad++;
    }
    for (int i = 0; !bad && i < f->n_fetch; i++) {
      char what[160];
      snprintf(what, sizeof what, "%s %s", f->graph, f->fetch[i]);
      bad += !tensor_matches(what, out[i], &want[i], f->fetch_tol[i]);
    }
  }
  for (int i = 0; i < f->n_feed; i++) tfc_tensor_unref(feed_values[i]);
  for (int i = 0; i < f->n_fetch; i++) {
    tfc_tensor_unref(out[i]);
    npy_free(&want[i]);
  }
  tfc_session_free(s);
  return bad;
}

/* Imports a file into a new graph; NULL (with st) on failure. */
static tfc_graph *import_file(const char *path, tfc_status *st) {
  size_t len;
  char *data = read_file(path, &len);
  if (!data) {
    tfc_status_set(st, TFC_CODE_NOT_FOUND, "cannot read %s", path);
    return NULL;
  }
  tfc_graph *g = tfc_graph_new();
  bool ok = tfc_graph_import(g, data, len, NULL, NULL, st);
  tfc_free(data);
  if (!ok) {
    tfc_graph_unref(g);
    return NULL;
  }
  return g;
}

/* True when two graphs hold the same nodes (names, ops, inputs, devices,
 * colocation, attrs), in the same order. */
static bool same_graph(tfc_graph *a, tfc_graph *b) {
  if (tfc_graph_num_nodes(a) != tfc_graph_num_nodes(b)) return false;
  for (int i = 0; i < tfc_graph_num_nodes(a); i++) {
    const tfc_node *x = tfc_graph_node(a, i), *y = tfc_graph_node(b, i);
    if (strcmp(x->name, y->name) || x->def != y->def || x->n_inputs != y->n_inputs ||
        x->n_control != y->n_control || strcmp(x->device, y->device) ||
        (x->colocate_with == NULL) != (y->colocate_with == NULL) ||
        (x->colocate_with && strcmp(x->colocate_with, y->colocate_with)) || x->attrs.n != y->attrs.n)
      return false;
    for (int k = 0; k < x->n_inputs; k++)
      if (x->inputs[k].node != y->inputs[k].node || x->inputs[k].index != y->inputs[k].index) return false;
    for (int k = 0; k < x->n_control; k++)
      if (x->control_inputs[k] != y->control_inputs[k]) return false;
    for (int k = 0; k < x->attrs.n; k++)
      if (strcmp(x->attrs.items[k].name, y->attrs.items[k].name) ||
          !tfc_attr_value_equal(&x->attrs.items[k].value, &y->attrs.items[k].value))
        return false;
  }
  return true;
}

TFC_TEST(graphdef_fixtures_import_run_export) {
  static fixture fx[8];
  int n = read_manifest(fx, 8);
  CHECK(n >= 3);
  const char *export_dir = getenv("TFC_GRAPHDEF_EXPORT_DIR");
  for (int i = 0; i < n; i++) {
    tfc_status st;
    tfc_status_clear(&st);
    char path[256];
    snprintf(path, sizeof path, FIXTURES "%.63s", fx[i].graph);
    tfc_graph *g = import_file(path, &st);
    if (!g) TFC_FAIL_("import %s: %s: %s (node %s)", fx[i].graph, tfc_code_name(st.code), st.msg, st.node);
    CHECK_EQ_INT(run_fixture(g, &fx[i]), 0);
    /* export, re-import, run again; the second export is byte-identical */
    void *bytes = NULL, *bytes2 = NULL;
    size_t len = 0, len2 = 0;
    CHECK(tfc_graph_export(g, &bytes, &len, &st));
    if (export_dir) {
      snprintf(path, sizeof path, "%.160s/%.63s", export_dir, fx[i].graph);
      CHECK(write_file(path, bytes, len));
    }
    tfc_graph *g2 = tfc_graph_new();
    if (!tfc_graph_import(g2, bytes, len, NULL, NULL, &st))
      TFC_FAIL_("re-import %s: %s", fx[i].graph, st.msg);
    CHECK(same_graph(g, g2));
    CHECK_EQ_INT(run_fixture(g2, &fx[i]), 0);
    CHECK(tfc_graph_export(g2, &bytes2, &len2, &st));
    CHECK_EQ_INT(len2, len);
    CHECK(memcmp(bytes, bytes2, len) == 0);
    tfc_free(bytes);
    tfc_free(bytes2);
    tfc_graph_unref(g2);
    tfc_graph_unref(g);
  }
}

/* The frozen model exported by tfc is byte-identical to TF's file (TF-internal
 * '_' attrs other than _class, which tfc drops, and Const encodings that Python
 * chose from its input rather than the value, make other graphs differ). */
TFC_TEST(graphdef_export_matches_tensorflow_bytes) {
  tfc_status st;
  tfc_status_clear(&st);
  size_t len_tf;
  char *tf_bytes = read_file(FIXTURES "mlp.pb", &len_tf);
  CHECK(tf_bytes != NULL);
  tfc_graph *g = tfc_graph_new();
  tfc_import_result r;
  CHECK(tfc_graph_import(g, tf_bytes, len_tf, NULL, &r, &st));
  CHECK(r.library != NULL && r.library_len == 0);  /* TF wrote an empty `library {}` */
  void *ours;
  size_t len;
  tfc_export_options eo = {.library = r.library, .library_len = r.library_len};
  CHECK(tfc_graph_export_ex(g, &eo, &ours, &len, &st));
  tfc_import_result_clear(&r);
  CHECK_EQ_INT(len, len_tf);
  CHECK(memcmp(ours, tf_bytes, len) == 0);
  tfc_free(ours);
  tfc_free(tf_bytes);
  tfc_graph_unref(g);
}

/* ------------------------------------------------------------ a hand-written encoder */

typedef struct pbw {
  unsigned char buf[4096];
  size_t n;
} pbw;

/* Appends a varint. */
static void pb_varint(pbw *w, uint64_t v) {
  while (v >= 0x80) {
    w->buf[w->n++] = (unsigned char)(v | 0x80);
    v >>= 7;
  }
  w->buf[w->n++] = (unsigned char)v;
}

/* Appends a varint field. */
static void pb_int(pbw *w, unsigned field, uint64_t v) {
  pb_varint(w, (uint64_t)field << 3);
  pb_varint(w, v);
}

/* Appends a length-delimited field. */
static void pb_bytes(pbw *w, unsigned field, const void *data, size_t len) {
  pb_varint(w, (uint64_t)field << 3 | 2);
  pb_varint(w, len);
  memcpy(w->buf + w->n, data, len);
  w->n += len;
}

/* Appends a fixed32 field (float). */
static void pb_float(pbw *w, unsigned field, float f) {
  pb_varint(w, (uint64_t)field << 3 | 5);
  memcpy(w->buf + w->n, &f, 4);
  w->n += 4;
}

/* A TensorShapeProto with the given dims. */
static pbw shape_pb(int rank, const int64_t *dims) {
  pbw s = {.n = 0};
  for (int i = 0; i < rank; i++) {
    pbw d = {.n = 0};
    pb_int(&d, 1, (uint64_t)dims[i]);
    pb_bytes(&s, 2, d.buf, d.n);
  }
  return s;
}

/* Starts a TensorProto with dtype and shape. */
static pbw tensor_head(tfc_dtype dt, int rank, const int64_t *dims) {
  pbw t = {.n = 0};
  pb_int(&t, 1, (uint64_t)dt);
  pbw s = shape_pb(rank, dims);
  pb_bytes(&t, 2, s.buf, s.n);
  return t;
}

TFC_TEST(graphdef_tensor_proto_decoding_rules) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t d23[2] = {2, 3}, d4[1] = {4}, d3[1] = {3};
  /* a single float_val repeats to fill the shape */
  pbw t = tensor_head(TFC_DTYPE_FLOAT, 2, d23);
  pb_float(&t, 5, 1.5f);
  tfc_tensor *x = tfc_tensor_from_proto(t.buf, t.n, &st);
  CHECK(x != NULL);
  CHECK_EQ_INT(x->nelems, 6);
  for (int i = 0; i < 6; i++) CHECK_NEAR(((float *)x->data)[i], 1.5, 0);
  tfc_tensor_unref(x);
  /* unpacked int_val entries, last one repeated; int8 narrowing */
  t = tensor_head(TFC_DTYPE_INT8, 1, d4);
  pb_int(&t, 7, 5);
  pb_int(&t, 7, (uint64_t)(int64_t)-3);
  x = tfc_tensor_from_proto(t.buf, t.n, &st);
  CHECK(x != NULL);
  int8_t *i8 = x->data;
  CHECK(i8[0] == 5 && i8[1] == -3 && i8[2] == -3 && i8[3] == -3);
  tfc_tensor_unref(x);
  /* no values: zeros */
  t = tensor_head(TFC_DTYPE_INT64, 1, d3);
  x = tfc_tensor_from_proto(t.buf, t.n, &st);
  CHECK(x != NULL);
  CHECK(((int64_t *)x->data)[0] == 0 && ((int64_t *)x->data)[2] == 0);
  tfc_tensor_unref(x);
  /* half_val: packed bit patterns */
  t = tensor_head(TFC_DTYPE_HALF, 1, d3);
  pbw packed = {.n = 0};
  pb_varint(&packed, 0x3e00);  /* 1.5 */
  pb_varint(&packed, 0xc000);  /* -2 */
  pb_bytes(&t, 13, packed.buf, packed.n);
  x = tfc_tensor_from_proto(t.buf, t.n, &st);
  CHECK(x != NULL);
  uint16_t *h = x->data;
  CHECK(h[0] == 0x3e00 && h[1] == 0xc000 && h[2] == 0xc000);
  CHECK_NEAR(tfc_half_to_float(h[0]), 1.5, 0);
  tfc_tensor_unref(x);
  /* tensor_content wins over typed fields; wrong size is rejected */
  t = tensor_head(TFC_DTYPE_INT32, 1, d3);
  int32_t vals[3] = {7, 8, 9};
  pb_bytes(&t, 4, vals, sizeof vals);
  pb_int(&t, 7, 1);
  x = tfc_tensor_from_proto(t.buf, t.n, &st);
  CHECK(x != NULL);
  CHECK(((int32_t *)x->data)[2] == 9);
  tfc_tensor_unref(x);
  t = tensor_head(TFC_DTYPE_INT32, 1, d3);
  pb_bytes(&t, 4, vals, 8);
  CHECK(tfc_tensor_from_proto(t.buf, t.n, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "Invalid TensorProto") != NULL);
  /* bool content must be 0/1 */
  tfc_status_clear(&st);
  t = tensor_head(TFC_DTYPE_BOOL, 1, d3);
  pb_bytes(&t, 4, "\x01\x00\x02", 3);
  CHECK(tfc_tensor_from_proto(t.buf, t.n, &st) == NULL);
  /* strings: repeated string_val, and the varint-framed tensor_content */
  tfc_status_clear(&st);
  t = tensor_head(TFC_DTYPE_STRING, 1, d3);
  pb_bytes(&t, 8, "ab", 2);
  pb_bytes(&t, 8, "xyz", 3);
  x = tfc_tensor_from_proto(t.buf, t.n, &st);
  CHECK(x != NULL);
  tfc_string *s = x->data;
  CHECK(s[0].len == 2 && s[1].len == 3 && s[2].len == 3 && memcmp(s[2].data, "xyz", 3) == 0);
  void *enc;
  size_t enc_len;
  CHECK(tfc_tensor_to_proto_content(x, &enc, &enc_len, &st));
  tfc_tensor *y = tfc_tensor_from_proto(enc, enc_len, &st);
  CHECK(y != NULL);
  tfc_string *s2 = y->data;
  CHECK(s2[1].len == 3 && memcmp(s2[1].data, "xyz", 3) == 0 && s2[0].len == 2);
  tfc_free(enc);
  tfc_tensor_unref(y);
  tfc_tensor_unref(x);
  /* unsupported dtypes and partial shapes are rejected */
  int64_t unknown[1] = {-1};
  t = tensor_head(TFC_DTYPE_FLOAT, 1, unknown);
  CHECK(tfc_tensor_from_proto(t.buf, t.n, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  tfc_status_clear(&st);
  t = tensor_head(TFC_DTYPE_VARIANT, 0, NULL);
  CHECK(tfc_tensor_from_proto(t.buf, t.n, &st) == NULL);
  tfc_status_clear(&st);
  CHECK(tfc_tensor_from_proto("\x0a\xff", 2, &st) == NULL);
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
}

TFC_TEST(graphdef_tensor_proto_encoding_layout) {
  tfc_status st;
  tfc_status_clear(&st);
  /* a float scalar goes to float_val (as Python's make_tensor_proto) */
  float f = 2.5f;
  tfc_tensor *x = tfc_tensor_scalar(TFC_DTYPE_FLOAT, &f, &st);
  void *enc;
  size_t len;
  CHECK(tfc_tensor_to_proto(x, &enc, &len, &st));
  pbw want = {.n = 0};
  pb_int(&want, 1, TFC_DTYPE_FLOAT);
  pb_bytes(&want, 2, "", 0);
  pbw fv = {.n = 0};
  memcpy(fv.buf, &f, 4);
  pb_bytes(&want, 5, fv.buf, 4);
  CHECK_EQ_INT(len, want.n);
  CHECK(memcmp(enc, want.buf, len) == 0);
  tfc_free(enc);
  tfc_tensor_unref(x);
  /* every dtype round-trips, in both layouts */
  static const tfc_dtype types[] = {TFC_DTYPE_FLOAT, TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32,
                                    TFC_DTYPE_UINT8, TFC_DTYPE_INT16, TFC_DTYPE_INT8,
                                    TFC_DTYPE_COMPLEX64, TFC_DTYPE_INT64, TFC_DTYPE_BOOL,
                                    TFC_DTYPE_QINT8, TFC_DTYPE_QUINT8, TFC_DTYPE_QINT32,
                                    TFC_DTYPE_BFLOAT16, TFC_DTYPE_QINT16, TFC_DTYPE_QUINT16,
                                    TFC_DTYPE_UINT16, TFC_DTYPE_COMPLEX128, TFC_DTYPE_HALF,
                                    TFC_DTYPE_UINT32, TFC_DTYPE_UINT64};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    for (int shape = 0; shape < 3; shape++) {
      int64_t dims[2] = {shape == 2 ? 2 : 1, 3};
      int rank = shape == 0 ? 0 : 2;
      tfc_tensor *t = tfc_tensor_new(types[k], rank, dims, &st);
      CHECK(t != NULL);
      unsigned char *b = t->data;
      for (size_t i = 0; i < tfc_tensor_nbytes(t); i++) b[i] = (unsigned char)(i * 37 + k);
      if (types[k] == TFC_DTYPE_BOOL)
        for (size_t i = 0; i < tfc_tensor_nbytes(t); i++) b[i] &= 1;
      for (int layout = 0; layout < 2; layout++) {
        CHECK(layout ? tfc_tensor_to_proto_content(t, &enc, &len, &st)
                     : tfc_tensor_to_proto(t, &enc, &len, &st));
        tfc_tensor *back = tfc_tensor_from_proto(enc, len, &st);
        tfc_free(enc);
        if (!back) TFC_FAIL_("%s: %s", tfc_dtype_name(types[k]), st.msg);
        CHECK(back->dtype == t->dtype && tfc_tensor_same_shape(back, t));
        if (memcmp(back->data, t->data, tfc_tensor_nbytes(t)) != 0)
          TFC_FAIL_("%s shape %d layout %d differs", tfc_dtype_name(types[k]), shape, layout);
        tfc_tensor_unref(back);
      }
      tfc_tensor_unref(t);
    }
  }
}

/* ------------------------------------------------------------ import semantics */

/* A NodeDef with name, op, inputs, and T/dtype/value attrs as needed. */
static pbw node_pb(const char *name, const char *op, const char *const *inputs, int n_inputs,
                   const char *type_attr, float value) {
  pbw n = {.n = 0};
  pb_bytes(&n, 1, name, strlen(name));
  pb_bytes(&n, 2, op, strlen(op));
  for (int i = 0; i < n_inputs; i++) pb_bytes(&n, 3, inputs[i], strlen(inputs[i]));
  if (type_attr) {
    pbw v = {.n = 0}, e = {.n = 0};
    pb_int(&v, 6, TFC_DTYPE_FLOAT);
    pb_bytes(&e, 1, type_attr, strlen(type_attr));
    pb_bytes(&e, 2, v.buf, v.n);
    pb_bytes(&n, 5, e.buf, e.n);
  }
  if (strcmp(op, "Const") == 0) {
    pbw tp = tensor_head(TFC_DTYPE_FLOAT, 0, NULL);
    pb_float(&tp, 5, value);
    pbw v = {.n = 0}, e = {.n = 0};
    pb_bytes(&v, 8, tp.buf, tp.n);
    pb_bytes(&e, 1, "value", 5);
    pb_bytes(&e, 2, v.buf, v.n);
    pb_bytes(&n, 5, e.buf, e.n);
  }
  return n;
}

/* Appends a NodeDef to a GraphDef under construction. */
static void add_node_pb(pbw *g, pbw n) { pb_bytes(g, 1, n.buf, n.n); }

/* Imports (g, opts) into a fresh graph and returns the status code; the
 * message lands in st. */
static tfc_code import_code(const pbw *gd, const tfc_import_options *o, tfc_status *st) {
  tfc_graph *g = tfc_graph_new();
  tfc_import_result r;
  tfc_graph_import(g, gd->buf, gd->n, o, &r, st);
  tfc_import_result_clear(&r);
  tfc_graph_unref(g);
  return st->code;
}

TFC_TEST(graphdef_import_errors_use_tf_wording) {
  tfc_status st;
  tfc_status_clear(&st);
  const char *in_a[] = {"a"}, *in_b[] = {"b"}, *in_x[] = {"x"}, *in_a3[] = {"a:3"};
  const char *in_aa[] = {"a", "a"}, *in_ctrl_first[] = {"^a", "a"};
  pbw g = {.n = 0};
  add_node_pb(&g, node_pb("a", "Bogus", NULL, 0, NULL, 0));
  CHECK(import_code(&g, NULL, &st) == TFC_CODE_NOT_FOUND);
  CHECK(strstr(st.msg, "Op type not registered 'Bogus'") != NULL);
  g.n = 0;
  add_node_pb(&g, node_pb("b", "Identity", in_x, 1, "T", 0));
  CHECK(import_code(&g, NULL, &st) == TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Node 'b': Unknown input node 'x'") == 0);
  g.n = 0;
  add_node_pb(&g, node_pb("a", "Const", NULL, 0, "dtype", 1));
  add_node_pb(&g, node_pb("b", "Identity", in_a3, 1, "T", 0));
  CHECK(import_code(&g, NULL, &st) == TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Node 'b': Connecting to invalid output 3 of source node a which has 1 outputs.") == 0);
  g.n = 0;
  add_node_pb(&g, node_pb("a", "Const", NULL, 0, "dtype", 1));
  add_node_pb(&g, node_pb("b", "Identity", in_aa, 2, "T", 0));
  CHECK(import_code(&g, NULL, &st) == TFC_CODE_INVALID_ARGUMENT);
  CHECK(strncmp(st.msg, "NodeDef expected inputs 'float' do not match 2 inputs specified; Op<name=Identity;", 80) == 0);
  CHECK(strstr(st.msg, "NodeDef: {{node b}}") != NULL);
  g.n = 0;
  add_node_pb(&g, node_pb("a", "Identity", in_b, 1, "T", 0));
  add_node_pb(&g, node_pb("b", "Identity", in_a, 1, "T", 0));
  CHECK(import_code(&g, NULL, &st) == TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "2 nodes in a cycle") == 0);
  g.n = 0;
  add_node_pb(&g, node_pb("a", "Const", NULL, 0, "dtype", 1));
  add_node_pb(&g, node_pb("a", "Const", NULL, 0, "dtype", 1));
  CHECK(import_code(&g, NULL, &st) == TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Node 'a' is not unique") == 0);
  g.n = 0;
  add_node_pb(&g, node_pb("a", "Const", NULL, 0, "dtype", 1));
  add_node_pb(&g, node_pb("b", "Identity", in_ctrl_first, 2, "T", 0));
  CHECK(import_code(&g, NULL, &st) == TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Node 'b': Control dependencies must come after regular dependencies") == 0);
  g.n = 0;
  add_node_pb(&g, node_pb("a b", "Const", NULL, 0, "dtype", 1));
  CHECK(import_code(&g, NULL, &st) == TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(st.msg, "Node 'a b': Node name contains invalid characters") == 0);
  /* input_map keys that name nothing, and bad return elements */
  g.n = 0;
  add_node_pb(&g, node_pb("a", "Const", NULL, 0, "dtype", 1));
  tfc_graph *host = tfc_graph_new();
  CHECK(tfc_graph_import(host, g.buf, g.n, NULL, NULL, &st));
  tfc_import_mapping maps[3] = {{"zz:0", {0, 0}}, {"a:5", {0, 0}}, {"a", {0, 0}}};
  tfc_import_options o = {.prefix = "p", .n_input_map = 3, .input_map = maps};
  tfc_import_result r;
  CHECK(!tfc_graph_import(host, g.buf, g.n, &o, &r, &st));
  CHECK(r.nodes == NULL && r.n_nodes == 0);
  CHECK(strcmp(st.msg, "Attempted to map inputs that were not found in graph_def: [a:5, zz:0]") == 0);
  CHECK_EQ_INT(tfc_graph_num_nodes(host), 1);  /* nothing was added */
  const char *rets_t[] = {"q:0"}, *rets_o[] = {"q"}, *rets_i[] = {"a:4"};
  tfc_import_options ro = {.prefix = "p", .n_return_elements = 1, .return_elements = rets_t};
  CHECK(!tfc_graph_import(host, g.buf, g.n, &ro, &r, &st));
  CHECK(strcmp(st.msg, "Requested return tensor 'q:0' not found in graph def") == 0);
  ro.return_elements = rets_o;
  CHECK(!tfc_graph_import(host, g.buf, g.n, &ro, &r, &st));
  CHECK(strcmp(st.msg, "Requested return node 'q' not found in graph def") == 0);
  ro.return_elements = rets_i;
  CHECK(!tfc_graph_import(host, g.buf, g.n, &ro, &r, &st));
  CHECK(strcmp(st.msg, "Invalid return output 4 of node 'a', which has 1 output(s)") == 0);
  /* a clashing name fails unless uniquify_names */
  CHECK(!tfc_graph_import(host, g.buf, g.n, NULL, &r, &st));
  CHECK(strcmp(st.msg, "Node name 'a' already exists in the Graph") == 0);
  CHECK_EQ_INT(tfc_graph_num_nodes(host), 1);
  tfc_graph_unref(host);
  /* bytes that are not a GraphDef */
  CHECK(import_code(&(pbw){.buf = {0x0a, 0x05, 0x0a, 0x03, 'a', 'b'}, .n = 6}, NULL, &st) ==
        TFC_CODE_INVALID_ARGUMENT);
  CHECK(strncmp(st.msg, "Invalid GraphDef", 16) == 0);
  tfc_import_result_clear(&r);
}

TFC_TEST(graphdef_import_prefix_input_map_returns_uniquify) {
  tfc_status st;
  tfc_status_clear(&st);
  /* c = a + b, d = Identity(c) with a control input on a; unknown attrs ignored */
  const char *in_ab[] = {"a", "b"}, *in_c[] = {"c:0", "^a"};
  pbw g = {.n = 0};
  add_node_pb(&g, node_pb("d", "Identity", in_c, 2, "T", 0));
  add_node_pb(&g, node_pb("c", "AddV2", in_ab, 2, "T", 0));
  pbw b = node_pb("b", "Const", NULL, 0, "dtype", 2);
  pbw unknown_attr = {.n = 0}, v = {.n = 0};
  pb_int(&v, 3, 1);
  pb_bytes(&unknown_attr, 1, "zork", 4);
  pb_bytes(&unknown_attr, 2, v.buf, v.n);
  pb_bytes(&b, 5, unknown_attr.buf, unknown_attr.n);
  add_node_pb(&g, b);
  add_node_pb(&g, node_pb("a", "Const", NULL, 0, "dtype", 1));
  tfc_graph *host = tfc_graph_new();
  CHECK(tfc_graph_import(host, g.buf, g.n, NULL, NULL, &st));
  CHECK_EQ_INT(tfc_graph_num_nodes(host), 4);
  CHECK(strcmp(tfc_graph_node(host, 0)->name, "b") == 0);  /* topological, ties in file order */
  CHECK(strcmp(tfc_graph_node(host, 3)->name, "d") == 0);
  /* again with a prefix, a's output mapped to the first import's b, returns */
  tfc_node *first_b = tfc_graph_find(host, "b");
  tfc_import_mapping maps[1] = {{"a", {first_b->id, 0}}};
  const char *rets[] = {"d:0", "c", "a:0"};
  int extra_ctrl[1] = {tfc_graph_find(host, "a")->id};
  tfc_import_options o = {.prefix = "imp", .n_input_map = 1, .input_map = maps,
                          .n_return_elements = 3, .return_elements = rets,
                          .n_control_dependencies = 1, .control_dependencies = extra_ctrl,
                          .default_device = "/cpu:0"};
  tfc_import_result r;
  if (!tfc_graph_import(host, g.buf, g.n, &o, &r, &st)) TFC_FAIL_("%s", st.msg);
  CHECK_EQ_INT(r.n_nodes, 4);
  CHECK_EQ_INT(r.n_returns, 3);
  tfc_node *d = tfc_graph_node(host, r.returns[0].node);
  CHECK(strcmp(d->name, "imp/d") == 0 && r.returns[0].index == 0);
  CHECK(strcmp(tfc_graph_node(host, r.returns[1].node)->name, "imp/c") == 0 && r.returns[1].index == -1);
  CHECK(r.returns[2].node == first_b->id);  /* a mapped tensor returns its replacement */
  tfc_node *c = tfc_graph_find(host, "imp/c");
  CHECK(c->inputs[0].node == first_b->id);
  CHECK(strcmp(c->device, "/cpu:0") == 0);
  tfc_node *ia = tfc_graph_find(host, "imp/a");
  CHECK(ia != NULL && ia->n_control == 1 && ia->control_inputs[0] == extra_ctrl[0]);
  CHECK_EQ_INT(c->n_control, 0);  /* c has an imported input: no extra control input */
  CHECK(d->n_control == 1 && d->control_inputs[0] == ia->id);
  tfc_import_result_clear(&r);
  /* uniquify_names: the third import without a prefix gets a_1, b_1, ... */
  tfc_import_options u = {.uniquify_names = true};
  CHECK(tfc_graph_import(host, g.buf, g.n, &u, &r, &st));
  CHECK(tfc_graph_find(host, "d_1") != NULL);
  tfc_node *c1 = tfc_graph_find(host, "c_1");
  CHECK(c1 != NULL && c1->inputs[0].node == tfc_graph_find(host, "a_1")->id);
  tfc_import_result_clear(&r);
  /* run imp/d: (b=2) + (b=2) */
  tfc_session_options so = {.inter_op_threads = 1, .intra_op_threads = 1, .n_cpu_devices = 1};
  tfc_session *s = tfc_session_new(host, &so, &st);
  tfc_endpoint fe = {d->id, 0};
  tfc_plan *p = tfc_session_plan(s, 0, NULL, 1, &fe, 0, NULL, &st);
  CHECK(p != NULL);
  tfc_tensor *out = NULL;
  CHECK(tfc_session_run(s, p, NULL, &out, &st));
  CHECK_NEAR(*(float *)out->data, 4.0, 0);
  tfc_tensor_unref(out);
  tfc_session_free(s);
  tfc_graph_unref(host);
}

/* ------------------------------------------------------------ export of a C-built graph */

/* Adds a float Const [rows x cols] (rank 0 when rows == 0) from vals. */
static int add_const(tfc_graph *g, const char *name, int rows, int cols, const float *vals,
                     tfc_status *st) {
  int64_t dims[2] = {rows, cols};
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_FLOAT, rows ? 2 : 0, dims, st);
  if (!t) return -1;
  memcpy(t->data, vals, tfc_tensor_nbytes(t));
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_attr_value v = {.kind = TFC_ATTR_TENSOR, .v.tensor = t};
  tfc_attr_value dt = tfc_attr_type(TFC_DTYPE_FLOAT);
  tfc_attrs_set(&attrs, "value", &v, st);
  tfc_attrs_set(&attrs, "dtype", &dt, st);
  tfc_node_request req = {.op_type = "Const", .name = name, .attrs = &attrs};
  tfc_node *n = tfc_graph_add_node(g, &req, st);
  return n ? n->id : -1;
}

/* Builds out = MatMul(a, a) + one, with out colocated with a and on a device. */
static tfc_graph *built_graph(tfc_status *st) {
  tfc_graph *g = tfc_graph_new();
  float av[4] = {1, 2, 3, 4}, one = 1;
  int a = add_const(g, "a", 2, 2, av, st);
  int o = add_const(g, "one", 0, 0, &one, st);
  int sizes[2] = {1, 1};
  tfc_endpoint mm_in[2] = {{a, 0}, {a, 0}};
  tfc_node_request mm = {.op_type = "MatMul", .name = "mm", .n_args = 2, .arg_sizes = sizes,
                         .inputs = mm_in};
  tfc_node *m = tfc_graph_add_node(g, &mm, st);
  if (!m) return g;
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  tfc_attr_value cls = tfc_attr_list_new(TFC_ATTR_S, 1);
  tfc_attr_value s = tfc_attr_string("loc:@a", 6);
  cls.v.list.v.s[0] = s.v.s;
  tfc_attrs_set(&attrs, "_class", &cls, st);
  tfc_endpoint add_in[2] = {{m->id, 0}, {o, 0}};
  int ctrl[1] = {o};
  tfc_node_request add = {.op_type = "AddV2", .name = "out", .device = "/device:CPU:0", .n_args = 2,
                          .arg_sizes = sizes, .inputs = add_in, .n_control = 1,
                          .control_inputs = ctrl, .attrs = &attrs};
  tfc_graph_add_node(g, &add, st);
  return g;
}

TFC_TEST(graphdef_export_built_graph_round_trip) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = built_graph(&st);
  CHECK_STATUS_OK(&st);
  CHECK(strcmp(tfc_graph_find(g, "out")->colocate_with, "a") == 0);
  void *bytes;
  size_t len;
  tfc_export_options eo = {.add_shapes = true};
  CHECK(tfc_graph_export_ex(g, &eo, &bytes, &len, &st));
  const char *dir = getenv("TFC_GRAPHDEF_EXPORT_DIR");
  if (dir) {
    char path[256];
    snprintf(path, sizeof path, "%.200s/built.pb", dir);
    CHECK(write_file(path, bytes, len));
  }
  tfc_graph *g2 = tfc_graph_new();
  CHECK(tfc_graph_import(g2, bytes, len, NULL, NULL, &st));
  CHECK(same_graph(g, g2));
  CHECK_EQ_INT(g2->producer, g->producer);
  tfc_free(bytes);
  /* first_node exports only the newer nodes */
  tfc_export_options tail = {.first_node = 3};
  CHECK(tfc_graph_export_ex(g, &tail, &bytes, &len, &st));
  tfc_graph *g3 = tfc_graph_new();
  CHECK(!tfc_graph_import(g3, bytes, len, NULL, NULL, &st));  /* its inputs are not in it */
  CHECK(strstr(st.msg, "Unknown input node") != NULL);
  tfc_free(bytes);
  tfc_graph_unref(g3);
  /* one node alone (Operation.node_def): a Const imports by itself */
  tfc_export_options one = {.first_node = 1, .end_node = 2};
  CHECK(tfc_graph_export_ex(g, &one, &bytes, &len, &st));
  g3 = tfc_graph_new();
  CHECK(tfc_graph_import(g3, bytes, len, NULL, NULL, &st));
  CHECK_EQ_INT(tfc_graph_num_nodes(g3), 1);
  CHECK(strcmp(tfc_graph_node(g3, 0)->name, "one") == 0);
  tfc_free(bytes);
  tfc_graph_unref(g3);
  /* a library given to export comes back from import */
  pbw lib = {.n = 0}, fn = {.n = 0}, sig = {.n = 0};
  pb_bytes(&sig, 1, "f", 1);
  pb_bytes(&fn, 1, sig.buf, sig.n);
  pb_bytes(&lib, 1, fn.buf, fn.n);
  tfc_export_options with_lib = {.library = lib.buf, .library_len = lib.n};
  CHECK(tfc_graph_export_ex(g, &with_lib, &bytes, &len, &st));
  tfc_graph *g4 = tfc_graph_new();
  tfc_import_result r;
  CHECK(tfc_graph_import(g4, bytes, len, NULL, &r, &st));
  CHECK_EQ_INT(r.library_len, lib.n);
  CHECK(memcmp(r.library, lib.buf, lib.n) == 0);
  CHECK_EQ_INT(r.producer, g->producer);
  tfc_import_result_clear(&r);
  tfc_free(bytes);
  tfc_graph_unref(g4);
  tfc_graph_unref(g2);
  tfc_graph_unref(g);
}

/* ------------------------------------------------------------ robustness */

/* xorshift64 for reproducible fuzzing. */
static uint64_t next_rand(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

TFC_TEST(graphdef_fuzz_truncated_and_flipped_never_crash) {
  size_t len;
  char *orig = read_file(FIXTURES "mixed.pb", &len);
  CHECK(orig != NULL);
  unsigned char *buf = tfc_malloc(len);
  int accepted = 0, rejected = 0;
  for (size_t cut = 0; cut < len; cut++) {
    tfc_status st;
    tfc_graph *g = tfc_graph_new();
    if (tfc_graph_import(g, orig, cut, NULL, NULL, &st)) accepted++;
    else rejected++;
    tfc_graph_unref(g);
  }
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (int it = 0; it < 3000; it++) {
    memcpy(buf, orig, len);
    int flips = 1 + (int)(next_rand(&seed) % 4);
    for (int k = 0; k < flips; k++) {
      uint64_t r = next_rand(&seed);
      buf[(r >> 8) % len] ^= (unsigned char)(1u << (r & 7));
    }
    tfc_status st;
    tfc_graph *g = tfc_graph_new();
    tfc_import_result res;
    if (tfc_graph_import(g, buf, len, NULL, &res, &st)) {
      accepted++;
      void *out;
      size_t out_len;
      CHECK(tfc_graph_export(g, &out, &out_len, &st));
      tfc_free(out);
    } else {
      rejected++;
      CHECK(st.code != TFC_CODE_OK && st.msg[0] != '\0');
    }
    tfc_import_result_clear(&res);
    tfc_graph_unref(g);
    /* the same bytes as a TensorProto */
    tfc_tensor *t = tfc_tensor_from_proto(buf + (it % 64), len - (size_t)(it % 64), &st);
    tfc_tensor_unref(t);
  }
  CHECK(rejected > 0 && accepted > 0);
  tfc_free(buf);
  tfc_free(orig);
}

/* Prepends n bytes at buf[*start - n]. */
static void prepend(unsigned char *buf, size_t *start, const void *p, size_t n) {
  *start -= n;
  memcpy(buf + *start, p, n);
}

/* Prepends a length-delimited field header for the `len` bytes that follow. */
static void prepend_header(unsigned char *buf, size_t *start, unsigned field, size_t len) {
  pbw h = {.n = 0};
  pb_varint(&h, (uint64_t)field << 3 | 2);
  pb_varint(&h, len);
  prepend(buf, start, h.buf, h.n);
}

TFC_TEST(graphdef_deep_nesting_is_rejected) {
  /* GraphDef{node{name: "c", op: "Const", attr{"value": V}}} where
   * V = AttrValue{func: NameAttrList{attr: {"a": V'}}}, 20000 levels deep. */
  size_t cap = 1 << 21, start = cap;
  unsigned char *buf = tfc_malloc(cap);
  CHECK(buf != NULL);
  for (int level = 0; level < 20000; level++) {
    prepend_header(buf, &start, 2, cap - start);      /* entry.value */
    prepend(buf, &start, "\x0a\x01" "a", 3);           /* entry.key */
    prepend_header(buf, &start, 2, cap - start);      /* NameAttrList.attr */
    prepend_header(buf, &start, 10, cap - start);     /* AttrValue.func */
    CHECK(start > 64);
  }
  prepend_header(buf, &start, 2, cap - start);        /* entry.value */
  prepend(buf, &start, "\x0a\x05" "value", 7);
  prepend_header(buf, &start, 5, cap - start);        /* NodeDef.attr */
  prepend(buf, &start, "\x0a\x01" "c" "\x12\x05" "Const", 10);
  prepend_header(buf, &start, 1, cap - start);        /* GraphDef.node */
  tfc_status st;
  tfc_graph *g = tfc_graph_new();
  CHECK(!tfc_graph_import(g, buf + start, cap - start, NULL, NULL, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strstr(st.msg, "nested too deeply") != NULL);
  tfc_graph_unref(g);
  tfc_free(buf);
}

TFC_TEST(graphdef_import_export_out_of_memory_fail_cleanly) {
  tfc_status st;
  tfc_status_clear(&st);
  CHECK(tfc_op_registry_load(&st));
  size_t len;
  char *data = read_file(FIXTURES "mixed.pb", &len);
  CHECK(data != NULL);
  const char *rets[] = {"joined:0", "fill"};
  tfc_import_options o = {.prefix = "x", .n_return_elements = 2, .return_elements = rets};
  bool done = false;
  for (int64_t k = 1; k < 100000 && !done; k++) {
    tfc_graph *g = tfc_graph_new();
    CHECK(g != NULL);
    tfc_import_result r;
    tfc_alloc_fail_after(k);
    bool ok = tfc_graph_import(g, data, len, &o, &r, &st);
    tfc_alloc_fail_after(0);
    if (ok) {
      done = true;
    } else if (st.code != TFC_CODE_RESOURCE_EXHAUSTED) {
      TFC_FAIL_("allocation %lld: %s: %s", (long long)k, tfc_code_name(st.code), st.msg);
    }
    tfc_import_result_clear(&r);
    if (done) {
      for (int64_t e = 1; e < 100000; e++) {
        void *out = NULL;
        size_t out_len;
        tfc_alloc_fail_after(e);
        ok = tfc_graph_export(g, &out, &out_len, &st);
        tfc_alloc_fail_after(0);
        tfc_free(out);
        if (ok) break;
        CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
      }
    }
    tfc_graph_unref(g);
  }
  CHECK(done);
  tfc_free(data);
}
