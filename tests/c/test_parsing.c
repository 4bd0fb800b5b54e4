/*
 * test_parsing.c — the parsing kernels run by hand (init, compute, destroy as
 * the executor does): ParseExampleV2 over well-formed, damaged and random
 * Examples (errors, never crashes; run under `make asan` too), DecodeCSV and
 * StringSplitV2 edge cases. Values are compared with TensorFlow's by the op
 * fixtures (tests/python/test_compat_ops.py); these tests aim at memory safety.
 */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "harness.h"
#include "io/example.h"
#include "kernels/kernel.h"

enum { MAX_OUT = 16 };

typedef struct prun {
  tfc_attrs attrs;
  tfc_status st;
  tfc_tensor *out[MAX_OUT];
  tfc_dtype out_types[MAX_OUT];
} prun;

/* Sets list attr name of kind to the n values (types or shapes). */
static void set_types(prun *p, const char *name, int n, const tfc_dtype *t) {
  tfc_attr_value v = tfc_attr_list_new(TFC_ATTR_TYPE, n);
  for (int i = 0; i < n; i++) v.v.list.v.type[i] = t[i];
  tfc_attrs_set(&p->attrs, name, &v, &p->st);
}

static void set_shapes(prun *p, const char *name, int n, const tfc_shape *s) {
  tfc_attr_value v = tfc_attr_list_new(TFC_ATTR_SHAPE, n);
  for (int i = 0; i < n; i++) v.v.list.v.shape[i] = s[i];
  tfc_attrs_set(&p->attrs, name, &v, &p->st);
}

/* Runs op with init/compute/destroy; returns the compute status code. */
static tfc_code run(prun *p, const char *op, int nin, tfc_tensor **in, int nout) {
  for (int i = 0; i < MAX_OUT; i++) {
    tfc_tensor_unref(p->out[i]);
    p->out[i] = NULL;
  }
  tfc_status_clear(&p->st);
  const tfc_kernel_def *def = tfc_kernel_lookup(op, "CPU", &p->attrs);
  if (!def) return TFC_CODE_NOT_FOUND;
  void *state = NULL;
  tfc_kernel_init ki = {.node_name = op, .op_type = op, .attrs = &p->attrs, .n_inputs = nin,
                        .n_outputs = nout, .out_types = p->out_types, .st = &p->st};
  if (def->init && !def->init(&ki, &state)) return p->st.code;
  tfc_kernel_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.node_name = op;
  ctx.op_type = op;
  ctx.attrs = &p->attrs;
  ctx.state = state;
  ctx.n_inputs = nin;
  ctx.inputs = in;
  ctx.n_outputs = nout;
  ctx.outputs = p->out;
  ctx.out_types = p->out_types;
  ctx.st = &p->st;
  def->compute(&ctx);
  if (def->destroy) def->destroy(state);
  return p->st.code;
}

static void done(prun *p) {
  for (int i = 0; i < MAX_OUT; i++) tfc_tensor_unref(p->out[i]);
  tfc_attrs_destroy(&p->attrs);
}

/* A string tensor of n elements (rank 1, or a scalar when rank is 0). */
static tfc_tensor *strings(int rank, int n, const char *const *s, const size_t *lens) {
  tfc_status st;
  tfc_status_clear(&st);
  int64_t d = n;
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_STRING, rank, &d, &st);
  for (int i = 0; t && i < n; i++) tfc_tensor_set_string(t, i, s[i], lens ? lens[i] : strlen(s[i]), &st);
  return t;
}

/* Appends a varint. */
static size_t put_varint(uint8_t *p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) p[n++] = (uint8_t)(v | 0x80), v >>= 7;
  p[n++] = (uint8_t)v;
  return n;
}

/* Appends a length-delimited field. */
static size_t put_len(uint8_t *p, int field, const uint8_t *d, size_t n) {
  size_t k = put_varint(p, (uint64_t)field << 3 | 2);
  k += put_varint(p + k, n);
  memcpy(p + k, d, n);
  return k + n;
}

/* An Example {"label": int64 [v], "img": bytes [img]} into buf; returns its size. */
static size_t make_example(uint8_t *buf, int64_t v, const char *img) {
  uint8_t tmp[512], f[512], e1[512], e2[512], fs[1024];
  size_t n = put_varint(tmp, (uint64_t)v);
  uint8_t list[64];
  size_t ln = put_len(list, 1, tmp, n);          /* Int64List (packed) */
  size_t fn = put_len(f, 3, list, ln);           /* Feature.int64_list */
  size_t k = put_len(e1, 1, (const uint8_t *)"label", 5);
  k += put_len(e1 + k, 2, f, fn);
  size_t bl = put_len(list, 1, (const uint8_t *)img, strlen(img));
  fn = put_len(f, 1, list, bl);                  /* Feature.bytes_list */
  size_t k2 = put_len(e2, 1, (const uint8_t *)"img", 3);
  k2 += put_len(e2 + k2, 2, f, fn);
  size_t fsn = put_len(fs, 1, e1, k);
  fsn += put_len(fs + fsn, 1, e2, k2);
  return put_len(buf, 1, fs, fsn);               /* Example.features */
}

/* Sets up ParseExampleV2 for dense label (int64 [1]) and sparse img (string). */
static void v2_attrs(prun *p) {
  tfc_attrs_init(&p->attrs);
  tfc_status_clear(&p->st);
  memset(p->out, 0, sizeof p->out);
  tfc_dtype i64 = TFC_DTYPE_INT64, str = TFC_DTYPE_STRING;
  set_types(p, "Tdense", 1, &i64);
  set_types(p, "sparse_types", 1, &str);
  set_types(p, "ragged_value_types", 0, NULL);
  set_types(p, "ragged_split_types", 0, NULL);
  tfc_attr_value ns = tfc_attr_int(1);
  tfc_attrs_set(&p->attrs, "num_sparse", &ns, &p->st);
  int64_t one = 1;
  tfc_shape s = tfc_shape_make(1, &one);
  set_shapes(p, "dense_shapes", 1, &s);
  tfc_dtype outs[] = {TFC_DTYPE_INT64, TFC_DTYPE_STRING, TFC_DTYPE_INT64, TFC_DTYPE_INT64};
  memcpy(p->out_types, outs, sizeof outs);
}

/* Runs ParseExampleV2 over n serialized Examples, the fail-th allocation of
 * the kernel failing (0: none); returns the code. */
static tfc_code parse_v2_fail(prun *p, int n, const char *const *ser, const size_t *lens, int fail) {
  const char *sk = "img", *dk = "label";
  int64_t zero = 0;
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *in[6];
  in[0] = strings(1, n, ser, lens);
  in[1] = tfc_tensor_new(TFC_DTYPE_STRING, 1, &zero, &st);
  in[2] = strings(1, 1, &sk, NULL);
  in[3] = strings(1, 1, &dk, NULL);
  in[4] = tfc_tensor_new(TFC_DTYPE_STRING, 1, &zero, &st);
  int64_t one = 1;
  in[5] = tfc_tensor_new(TFC_DTYPE_INT64, 1, &one, &st);
  ((int64_t *)in[5]->data)[0] = -1;
  tfc_alloc_fail_after(fail);
  tfc_code c = run(p, "ParseExampleV2", 6, in, 4);
  tfc_alloc_fail_after(0);
  for (int i = 0; i < 6; i++) tfc_tensor_unref(in[i]);
  return c;
}

/* parse_v2_fail without injected allocation failures. */
static tfc_code parse_v2(prun *p, int n, const char *const *ser, const size_t *lens) {
  return parse_v2_fail(p, n, ser, lens, 0);
}

TFC_TEST(parse_example_v2_values) {
  uint8_t a[1024], b[1024];
  size_t na = make_example(a, -7, "pixels"), nb = make_example(b, 300, "");
  const char *ser[3] = {(const char *)a, (const char *)b, ""};
  size_t lens[3] = {na, nb, 0};
  prun p;
  v2_attrs(&p);
  CHECK_EQ_INT(parse_v2(&p, 3, ser, lens), TFC_CODE_OK);
  const int64_t *label = p.out[3]->data;
  CHECK_EQ_INT(label[0], -7);
  CHECK_EQ_INT(label[1], 300);
  CHECK_EQ_INT(label[2], -1); /* the default */
  CHECK_EQ_INT(p.out[1]->nelems, 2);
  const tfc_string *img = p.out[1]->data;
  CHECK(img[0].len == 6 && memcmp(img[0].data, "pixels", 6) == 0);
  CHECK_EQ_INT(img[1].len, 0);
  const int64_t *shape = p.out[2]->data;
  CHECK_EQ_INT(shape[0], 3);
  CHECK_EQ_INT(shape[1], 1);
  done(&p);
}

TFC_TEST(parse_example_v2_damaged_inputs_fail_cleanly) {
  uint8_t a[1024];
  size_t na = make_example(a, 5, "abcdefgh");
  /* every truncation and every single-byte change of a good Example */
  for (size_t cut = 0; cut <= na; cut++) {
    const char *ser[1] = {(const char *)a};
    size_t lens[1] = {cut};
    prun p;
    v2_attrs(&p);
    tfc_code c = parse_v2(&p, 1, ser, lens);
    CHECK(c == TFC_CODE_OK || c == TFC_CODE_INVALID_ARGUMENT);
    done(&p);
  }
  unsigned seed = 7;
  for (size_t i = 0; i < na; i++) {
    for (int bit = 0; bit < 8; bit += 3) {
      uint8_t m[1024];
      memcpy(m, a, na);
      m[i] ^= (uint8_t)(1u << bit);
      if (i % 5 == 0) m[i] = (uint8_t)(rand_r(&seed) & 0xff);
      const char *ser[1] = {(const char *)m};
      size_t lens[1] = {na};
      prun p;
      v2_attrs(&p);
      tfc_code c = parse_v2(&p, 1, ser, lens);
      CHECK(c == TFC_CODE_OK || c == TFC_CODE_INVALID_ARGUMENT);
      done(&p);
    }
  }
  /* random bytes */
  for (int r = 0; r < 300; r++) {
    uint8_t m[64];
    size_t n = (size_t)(rand_r(&seed) % sizeof m);
    for (size_t i = 0; i < n; i++) m[i] = (uint8_t)rand_r(&seed);
    const char *ser[1] = {(const char *)m};
    size_t lens[1] = {n};
    prun p;
    v2_attrs(&p);
    tfc_code c = parse_v2(&p, 1, ser, lens);
    CHECK(c == TFC_CODE_OK || c == TFC_CODE_INVALID_ARGUMENT);
    done(&p);
  }
}

TFC_TEST(parse_example_v2_out_of_memory_is_a_status) {
  uint8_t a[1024];
  size_t na = make_example(a, 5, "abc");
  const char *ser[2] = {(const char *)a, (const char *)a};
  size_t lens[2] = {na, na};
  for (int fail = 1; fail < 40; fail++) {
    prun p;
    v2_attrs(&p);
    tfc_code c = parse_v2_fail(&p, 2, ser, lens, fail);
    CHECK(c == TFC_CODE_OK || c == TFC_CODE_RESOURCE_EXHAUSTED);
    done(&p);
  }
}

TFC_TEST(decode_csv_and_split_edge_cases) {
  /* DecodeCSV: quotes, an unterminated quote, a record of delimiters only */
  static const char *recs[] = {"\"a\"\"b\",1", "\"open,2", ",", "x,\"y\"z", "\"\",1"};
  for (int r = 0; r < 5; r++) {
    prun p;
    tfc_attrs_init(&p.attrs);
    tfc_status_clear(&p.st);
    memset(p.out, 0, sizeof p.out);
    tfc_dtype t[2] = {TFC_DTYPE_STRING, TFC_DTYPE_INT32};
    set_types(&p, "OUT_TYPE", 2, t);
    tfc_attr_value d = tfc_attr_string(",", 1), na = tfc_attr_string("", 0), q = tfc_attr_bool(true);
    tfc_attrs_set(&p.attrs, "field_delim", &d, &p.st);
    tfc_attrs_set(&p.attrs, "na_value", &na, &p.st);
    tfc_attrs_set(&p.attrs, "use_quote_delim", &q, &p.st);
    tfc_attr_value sel = tfc_attr_list_new(TFC_ATTR_I, 0);
    tfc_attrs_set(&p.attrs, "select_cols", &sel, &p.st);
    memcpy(p.out_types, t, sizeof t);
    const char *one = recs[r];
    const char *dflt = "d";
    tfc_tensor *in[3] = {strings(1, 1, &one, NULL), strings(1, 1, &dflt, NULL), NULL};
    int64_t n1 = 1;
    tfc_status st;
    tfc_status_clear(&st);
    in[2] = tfc_tensor_new(TFC_DTYPE_INT32, 1, &n1, &st);
    ((int32_t *)in[2]->data)[0] = 42;
    tfc_code c = run(&p, "DecodeCSV", 3, in, 2);
    if (r == 0) {
      CHECK_EQ_INT(c, TFC_CODE_OK);
      const tfc_string *s = p.out[0]->data;
      CHECK(s[0].len == 3 && memcmp(s[0].data, "a\"b", 3) == 0);
    } else if (r == 2) {
      CHECK_EQ_INT(c, TFC_CODE_OK);
      CHECK_EQ_INT(((int32_t *)p.out[1]->data)[0], 42);
    } else if (r == 4) { /* an empty quoted field takes the default */
      CHECK_EQ_INT(c, TFC_CODE_OK);
      const tfc_string *s = p.out[0]->data;
      CHECK(s[0].len == 1 && s[0].data[0] == 'd');
    } else {
      CHECK_EQ_INT(c, TFC_CODE_INVALID_ARGUMENT);
    }
    for (int i = 0; i < 3; i++) tfc_tensor_unref(in[i]);
    done(&p);
  }
  /* StringSplitV2 over an empty input vector and empty strings */
  prun p;
  tfc_attrs_init(&p.attrs);
  tfc_status_clear(&p.st);
  memset(p.out, 0, sizeof p.out);
  tfc_attr_value ms = tfc_attr_int(-1);
  tfc_attrs_set(&p.attrs, "maxsplit", &ms, &p.st);
  p.out_types[0] = TFC_DTYPE_INT64;
  p.out_types[1] = TFC_DTYPE_STRING;
  p.out_types[2] = TFC_DTYPE_INT64;
  const char *e[2] = {"", "  "};
  const char *sep = "";
  tfc_tensor *in[2] = {strings(1, 2, e, NULL), strings(0, 1, &sep, NULL)};
  CHECK_EQ_INT(run(&p, "StringSplitV2", 2, in, 3), TFC_CODE_OK);
  CHECK_EQ_INT(p.out[1]->nelems, 0);
  CHECK_EQ_INT(((int64_t *)p.out[2]->data)[0], 2);
  tfc_tensor_unref(in[0]);
  in[0] = strings(1, 0, NULL, NULL);
  CHECK_EQ_INT(run(&p, "StringSplitV2", 2, in, 3), TFC_CODE_OK);
  CHECK_EQ_INT(((int64_t *)p.out[2]->data)[0], 0);
  tfc_tensor_unref(in[0]);
  tfc_tensor_unref(in[1]);
  done(&p);
}

/* ---- ParseSequenceExampleV2 over damaged SequenceExamples */

/* A SequenceExample {context "label": int64 [v]; lists "frames": float [2]
 * per step (steps of them), "words": bytes ["a"] then an empty step} into
 * buf; returns its size. */
static size_t make_sequence_example(uint8_t *buf, int64_t v, int steps) {
  uint8_t ctx[256], lists[1024], entry[512], fl[512], f[128], list[64], tmp[32];
  size_t ctx_n = make_example(ctx, v, "x");       /* field 1: the context Features */
  size_t ln = 0, fln = 0;
  for (int s = 0; s < steps; s++) {
    float vals[2] = {(float)s, (float)s + 0.5f};
    size_t k = put_len(list, 1, (const uint8_t *)vals, sizeof vals);  /* FloatList (packed) */
    size_t fn = put_len(f, 2, list, k);                               /* Feature.float_list */
    fln += put_len(fl + fln, 1, f, fn);                                /* FeatureList.feature */
  }
  size_t en = put_len(entry, 1, (const uint8_t *)"frames", 6);
  en += put_len(entry + en, 2, fl, fln);
  ln += put_len(lists + ln, 1, entry, en);
  size_t bl = put_len(list, 1, (const uint8_t *)"a", 1);
  size_t fn = put_len(f, 1, list, bl);
  fln = put_len(fl, 1, f, fn);
  fln += put_len(fl + fln, 1, tmp, 0);            /* an empty step */
  en = put_len(entry, 1, (const uint8_t *)"words", 5);
  en += put_len(entry + en, 2, fl, fln);
  ln += put_len(lists + ln, 1, entry, en);
  memcpy(buf, ctx, ctx_n);
  return ctx_n + put_len(buf + ctx_n, 2, lists, ln);  /* field 2: FeatureLists */
}

/* Sets up ParseSequenceExampleV2: context dense label (int64 []), list
 * sparse words (string), list dense frames (float [2]). */
static void seq_attrs(prun *p) {
  tfc_attrs_init(&p->attrs);
  tfc_status_clear(&p->st);
  memset(p->out, 0, sizeof p->out);
  tfc_dtype i64 = TFC_DTYPE_INT64, str = TFC_DTYPE_STRING, f32 = TFC_DTYPE_FLOAT;
  set_types(p, "Tcontext_dense", 1, &i64);
  set_types(p, "context_sparse_types", 0, NULL);
  set_types(p, "feature_list_sparse_types", 1, &str);
  set_types(p, "feature_list_dense_types", 1, &f32);
  tfc_shape scalar = tfc_shape_make(0, NULL);
  int64_t two = 2;
  tfc_shape pair = tfc_shape_make(1, &two);
  set_shapes(p, "context_dense_shapes", 1, &scalar);
  set_shapes(p, "feature_list_dense_shapes", 1, &pair);
  tfc_attr_value one = tfc_attr_int(1), zero = tfc_attr_int(0);
  tfc_attrs_set(&p->attrs, "Ncontext_sparse", &zero, &p->st);
  tfc_attrs_set(&p->attrs, "Nfeature_list_sparse", &one, &p->st);
  tfc_attrs_set(&p->attrs, "Nfeature_list_dense", &one, &p->st);
  tfc_dtype outs[] = {TFC_DTYPE_INT64, TFC_DTYPE_INT64, TFC_DTYPE_STRING, TFC_DTYPE_INT64,
                      TFC_DTYPE_FLOAT, TFC_DTYPE_INT64};
  memcpy(p->out_types, outs, sizeof outs);
}

/* Runs ParseSequenceExampleV2 over n serialized SequenceExamples, the
 * fail-th allocation failing (0: none); returns the code. */
static tfc_code parse_seq(prun *p, int n, const char *const *ser, const size_t *lens, int fail) {
  const char *cdk = "label", *fsk = "words", *fdk = "frames";
  int64_t zero = 0, one = 1;
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *in[10];
  in[0] = strings(1, n, ser, lens);
  in[1] = tfc_tensor_new(TFC_DTYPE_STRING, 1, &zero, &st);
  in[2] = tfc_tensor_new(TFC_DTYPE_STRING, 1, &zero, &st);
  in[3] = strings(1, 1, &cdk, NULL);
  in[4] = tfc_tensor_new(TFC_DTYPE_STRING, 1, &zero, &st);
  in[5] = strings(1, 1, &fsk, NULL);
  in[6] = strings(1, 1, &fdk, NULL);
  in[7] = tfc_tensor_new(TFC_DTYPE_STRING, 1, &zero, &st);
  in[8] = tfc_tensor_new(TFC_DTYPE_BOOL, 1, &one, &st);
  ((bool *)in[8]->data)[0] = true;
  in[9] = tfc_tensor_new(TFC_DTYPE_INT64, 0, NULL, &st);
  ((int64_t *)in[9]->data)[0] = -1;
  tfc_alloc_fail_after(fail);
  tfc_code c = run(p, "ParseSequenceExampleV2", 10, in, 6);
  tfc_alloc_fail_after(0);
  for (int i = 0; i < 10; i++) tfc_tensor_unref(in[i]);
  return c;
}

TFC_TEST(parse_sequence_example_values) {
  uint8_t a[2048], b[2048];
  size_t na = make_sequence_example(a, 5, 3), nb = make_sequence_example(b, 7, 1);
  const char *ser[2] = {(const char *)a, (const char *)b};
  size_t lens[2] = {na, nb};
  prun p;
  seq_attrs(&p);
  CHECK(parse_seq(&p, 2, ser, lens, 0) == TFC_CODE_OK);
  CHECK(((int64_t *)p.out[0]->data)[0] == 5 && ((int64_t *)p.out[0]->data)[1] == 7);
  CHECK(p.out[1]->dims[0] == 2 && p.out[1]->dims[1] == 3);      /* words: 2 values, (b, step, i) */
  const int64_t *wshape = p.out[3]->data;
  CHECK(wshape[0] == 2 && wshape[1] == 2 && wshape[2] == 1);
  CHECK(p.out[4]->rank == 3 && p.out[4]->dims[1] == 3 && p.out[4]->dims[2] == 2);
  const float *fr = p.out[4]->data;
  CHECK(fr[5] == 2.5f && fr[6] == 0.0f && fr[8] == 0.0f);       /* example 1 padded with zeros */
  const int64_t *lengths = p.out[5]->data;
  CHECK(lengths[0] == 3 && lengths[1] == 1);
  done(&p);
}

TFC_TEST(parse_sequence_example_damaged_inputs_fail_cleanly) {
  uint8_t a[2048];
  size_t na = make_sequence_example(a, 5, 3);
  for (size_t cut = 0; cut <= na; cut++) {
    const char *ser[1] = {(const char *)a};
    size_t lens[1] = {cut};
    prun p;
    seq_attrs(&p);
    tfc_code c = parse_seq(&p, 1, ser, lens, 0);
    CHECK(c == TFC_CODE_OK || c == TFC_CODE_INVALID_ARGUMENT);
    done(&p);
  }
  unsigned seed = 11;
  for (size_t i = 0; i < na; i++) {
    for (int bit = 0; bit < 8; bit += 3) {
      uint8_t m[2048];
      memcpy(m, a, na);
      m[i] ^= (uint8_t)(1u << bit);
      if (i % 5 == 0) m[i] = (uint8_t)(rand_r(&seed) & 0xff);
      const char *ser[1] = {(const char *)m};
      size_t lens[1] = {na};
      prun p;
      seq_attrs(&p);
      tfc_code c = parse_seq(&p, 1, ser, lens, 0);
      CHECK(c == TFC_CODE_OK || c == TFC_CODE_INVALID_ARGUMENT);
      done(&p);
    }
  }
  for (int fail = 1; fail < 40; fail++) {
    const char *ser[2] = {(const char *)a, (const char *)a};
    size_t lens[2] = {na, na};
    prun p;
    seq_attrs(&p);
    tfc_code c = parse_seq(&p, 2, ser, lens, fail);
    CHECK(c == TFC_CODE_OK || c == TFC_CODE_RESOURCE_EXHAUSTED);
    done(&p);
  }
}

/* Sets up ParseSequenceExampleV2 with ragged keys only: context "label"
 * (int64, int32 splits), lists "frames" (float, int64 splits) and "words"
 * (string, int32 splits). */
static void seq_ragged_attrs(prun *p) {
  tfc_attrs_init(&p->attrs);
  tfc_status_clear(&p->st);
  memset(p->out, 0, sizeof p->out);
  tfc_dtype i64 = TFC_DTYPE_INT64, i32 = TFC_DTYPE_INT32;
  tfc_dtype fl[2] = {TFC_DTYPE_FLOAT, TFC_DTYPE_STRING}, fs[2] = {TFC_DTYPE_INT64, TFC_DTYPE_INT32};
  set_types(p, "context_ragged_value_types", 1, &i64);
  set_types(p, "context_ragged_split_types", 1, &i32);
  set_types(p, "feature_list_ragged_value_types", 2, fl);
  set_types(p, "feature_list_ragged_split_types", 2, fs);
  tfc_dtype outs[] = {TFC_DTYPE_INT64, TFC_DTYPE_INT32, TFC_DTYPE_FLOAT, TFC_DTYPE_STRING,
                      TFC_DTYPE_INT64, TFC_DTYPE_INT32, TFC_DTYPE_INT64, TFC_DTYPE_INT32};
  memcpy(p->out_types, outs, sizeof outs);
}

/* Runs the ragged ParseSequenceExampleV2 over n SequenceExamples. */
static tfc_code parse_seq_ragged(prun *p, int n, const char *const *ser, const size_t *lens, int fail) {
  const char *crk = "label", *frk[2] = {"frames", "words"};
  int64_t zero = 0;
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *in[9];
  in[0] = strings(1, n, ser, lens);
  for (int i = 1; i < 8; i++) in[i] = tfc_tensor_new(TFC_DTYPE_STRING, 1, &zero, &st);
  tfc_tensor_unref(in[4]);
  in[4] = strings(1, 1, &crk, NULL);
  tfc_tensor_unref(in[7]);
  in[7] = strings(1, 2, frk, NULL);
  in[8] = tfc_tensor_new(TFC_DTYPE_BOOL, 1, &zero, &st);
  tfc_alloc_fail_after(fail);
  tfc_code c = run(p, "ParseSequenceExampleV2", 9, in, 8);
  tfc_alloc_fail_after(0);
  for (int i = 0; i < 9; i++) tfc_tensor_unref(in[i]);
  return c;
}

TFC_TEST(parse_sequence_example_ragged) {
  uint8_t a[2048], b[2048];
  size_t na = make_sequence_example(a, 5, 3), nb = make_sequence_example(b, 7, 1);
  const char *ser[2] = {(const char *)a, (const char *)b};
  size_t lens[2] = {na, nb};
  prun p;
  seq_ragged_attrs(&p);
  CHECK(parse_seq_ragged(&p, 2, ser, lens, 0) == TFC_CODE_OK);
  const int32_t *crs = p.out[1]->data;
  CHECK(p.out[1]->dims[0] == 3 && crs[0] == 0 && crs[1] == 1 && crs[2] == 2);
  CHECK(p.out[2]->dims[0] == 8);                                /* frames: 4 steps of 2 */
  const int64_t *outer = p.out[4]->data, *inner = p.out[6]->data;
  CHECK(outer[0] == 0 && outer[1] == 3 && outer[2] == 4);
  CHECK(p.out[6]->dims[0] == 5 && inner[1] == 2 && inner[4] == 8);
  const int32_t *wouter = p.out[5]->data, *winner = p.out[7]->data;
  CHECK(wouter[1] == 2 && wouter[2] == 4 && winner[1] == 1 && winner[2] == 1 && winner[4] == 2);
  done(&p);
  for (size_t cut = 0; cut <= na; cut++) {
    const char *s1[1] = {(const char *)a};
    size_t l1[1] = {cut};
    seq_ragged_attrs(&p);
    tfc_code c = parse_seq_ragged(&p, 1, s1, l1, 0);
    CHECK(c == TFC_CODE_OK || c == TFC_CODE_INVALID_ARGUMENT);
    done(&p);
  }
  for (int fail = 1; fail < 30; fail++) {
    seq_ragged_attrs(&p);
    tfc_code c = parse_seq_ragged(&p, 2, ser, lens, fail);
    CHECK(c == TFC_CODE_OK || c == TFC_CODE_RESOURCE_EXHAUSTED);
    done(&p);
  }
}
