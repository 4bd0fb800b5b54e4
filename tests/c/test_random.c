/*
 * test_random.c — Philox and the random kernels: bit-exact agreement with
 * TensorFlow 2.21's streams (values recorded from tf.raw_ops.* with
 * seed=7, seed2=3 in graph mode, first and second run of the same kernel),
 * distribution statistics, determinism and thread-count independence.
 */
#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "base/threadpool.h"
#include "core/dtype.h"
#include "harness.h"
#include "kernels/kernel.h"
#include "kernels/philox.h"

/* ------------------------------------------------------------ test driver */

typedef struct rk {
  const tfc_kernel_def *def;
  void *state;
  tfc_attrs attrs;
  tfc_status st;
  tfc_tensor *in[3];
  int n_in;
  tfc_tensor *out;
  tfc_var *rout;
  tfc_dtype out_type;
  tfc_threadpool *pool;
} rk;

/* Builds and inits a random kernel `op` with seeds and output dtype; for
 * RandomUniformInt out_type is Tout, for RandomShuffle T. */
static bool rk_make(rk *k, const char *op, int64_t seed, int64_t seed2, tfc_dtype out_type) {
  memset(k, 0, sizeof *k);
  tfc_attrs_init(&k->attrs);
  tfc_status_clear(&k->st);
  tfc_attr_value v = tfc_attr_int(seed);
  tfc_attrs_set(&k->attrs, "seed", &v, &k->st);
  v = tfc_attr_int(seed2);
  tfc_attrs_set(&k->attrs, "seed2", &v, &k->st);
  const char *type_attr = strcmp(op, "RandomUniformInt") == 0 ? "Tout"
                          : strcmp(op, "RandomShuffle") == 0  ? "T"
                                                              : "dtype";
  v = tfc_attr_type(out_type);
  tfc_attrs_set(&k->attrs, type_attr, &v, &k->st);
  k->out_type = out_type;
  k->def = tfc_kernel_lookup(op, "CPU", &k->attrs);
  if (k->def == NULL) return false;
  tfc_kernel_init ki = {.node_name = op, .op_type = op, .attrs = &k->attrs, .n_outputs = 1,
                        .out_types = &k->out_type, .st = &k->st};
  return k->def->init(&ki, &k->state);
}

/* Runs the kernel once with inputs k->in; the result is in k->out. */
static bool rk_run(rk *k, const char *op) {
  tfc_tensor_unref(k->out);
  k->out = NULL;
  tfc_status_clear(&k->st);
  tfc_kernel_ctx ctx = {.node_name = op, .op_type = op, .attrs = &k->attrs, .state = k->state,
                        .n_inputs = k->n_in, .inputs = k->in, .n_outputs = 1,
                        .outputs = &k->out, .ref_outputs = &k->rout, .out_types = &k->out_type,
                        .st = &k->st, .intra_pool = k->pool};
  k->def->compute(&ctx);
  return k->st.code == TFC_CODE_OK;
}

/* Frees the kernel state, inputs and output. */
static void rk_free(rk *k) {
  tfc_tensor_unref(k->out);
  for (int i = 0; i < k->n_in; i++) tfc_tensor_unref(k->in[i]);
  if (k->def && k->def->destroy) k->def->destroy(k->state);
  tfc_attrs_destroy(&k->attrs);
}

/* A 1-D int32 shape tensor. */
static tfc_tensor *shape_vec(int rank, const int32_t *dims) {
  tfc_status st;
  int64_t d = rank;
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_INT32, 1, &d, &st);
  if (t) memcpy(t->data, dims, sizeof(int32_t) * (size_t)rank);
  return t;
}

/* Makes a real-valued random kernel producing a [n] output of dtype. */
static bool real_kernel(rk *k, const char *op, tfc_dtype dt, int32_t n, int64_t s1, int64_t s2) {
  if (!rk_make(k, op, s1, s2, dt)) return false;
  k->in[0] = shape_vec(1, &n);
  k->n_in = 1;
  return true;
}

/* Checks the output's float bit patterns. */
static bool float_bits_are(const tfc_tensor *t, const uint32_t *want, int n) {
  if (t == NULL || t->dtype != TFC_DTYPE_FLOAT || t->nelems != n) return false;
  for (int i = 0; i < n; i++) {
    uint32_t b;
    memcpy(&b, (const float *)t->data + i, 4);
    if (b != want[i]) {
      fprintf(stderr, "  [%d] got %u (%.9g) want %u\n", i, b, (double)((float *)t->data)[i], want[i]);
      return false;
    }
  }
  return true;
}

/* Checks the output's double bit patterns. */
static bool double_bits_are(const tfc_tensor *t, const uint64_t *want, int n) {
  if (t == NULL || t->dtype != TFC_DTYPE_DOUBLE || t->nelems != n) return false;
  for (int i = 0; i < n; i++) {
    uint64_t b;
    memcpy(&b, (const double *)t->data + i, 8);
    if (b != want[i]) {
      fprintf(stderr, "  [%d] got %llu want %llu\n", i, (unsigned long long)b, (unsigned long long)want[i]);
      return false;
    }
  }
  return true;
}

/* ------------------------------------------------------------ Philox */

TFC_TEST(random_philox_skip_matches_next) {
  tfc_philox a, b;
  uint32_t wa[4], wb[4];
  tfc_philox_seed(&a, 123, 456);
  b = a;
  for (int i = 0; i < 1000; i++) tfc_philox_next(&a, wa);
  tfc_philox_skip(&b, 999);
  tfc_philox_next(&b, wb);
  CHECK(memcmp(wa, wb, sizeof wa) == 0);
  /* Carry across the low counter word. */
  tfc_philox c;
  tfc_philox_seed(&c, 1, 0);
  c.counter[0] = 0xffffffffu;
  tfc_philox_skip(&c, 2);
  CHECK(c.counter[0] == 1 && c.counter[1] == 1);
  tfc_philox_seed(&c, 1, 0);
  c.counter[0] = c.counter[1] = 0xffffffffu;
  tfc_philox_next(&c, wa);
  CHECK(c.counter[0] == 0 && c.counter[1] == 0 && c.counter[2] == 1);
}

TFC_TEST(random_philox_conversions) {
  CHECK(tfc_philox_to_float(0) == 0.0f);
  CHECK(tfc_philox_to_float(0xffffffffu) == 1.0f - 1.0f / 8388608.0f);
  CHECK(tfc_philox_to_double(0, 0) == 0.0);
  for (uint32_t m = 0; m < 1024; m++)
    if (tfc_half_to_float(tfc_philox_to_half(m)) != (float)m / 1024.0f) {
      CHECK(0);
    }
  for (uint32_t m = 0; m < 128; m++)
    if (tfc_bfloat16_to_float(tfc_philox_to_bfloat16(m | 0xff00u)) != (float)m / 128.0f) {
      CHECK(0);
    }
}

/* ------------------------------------------------- TF stream agreement */

TFC_TEST(random_uniform_float_matches_tf) {
  rk k;
  CHECK(real_kernel(&k, "RandomUniform", TFC_DTYPE_FLOAT, 5, 7, 3));
  CHECK(rk_run(&k, "RandomUniform"));
  const uint32_t run1[5] = {1053645668u, 1052832008u, 1050565536u, 1035231488u, 1061092764u};
  CHECK(float_bits_are(k.out, run1, 5));
  CHECK(rk_run(&k, "RandomUniform"));
  const uint32_t run2[5] = {1055928740u, 1044598520u, 1061430796u, 1021176128u, 1063211500u};
  CHECK(float_bits_are(k.out, run2, 5));
  rk_free(&k);
}

TFC_TEST(random_normal_float_matches_tf) {
  rk k;
  CHECK(real_kernel(&k, "RandomStandardNormal", TFC_DTYPE_FLOAT, 5, 7, 3));
  CHECK(rk_run(&k, "RandomStandardNormal"));
  const uint32_t run1[5] = {1064425500u, 3212279704u, 1062084539u, 1067897615u, 1046220784u};
  CHECK(float_bits_are(k.out, run1, 5));
  CHECK(rk_run(&k, "RandomStandardNormal"));
  const uint32_t run2[5] = {1066578092u, 1055208467u, 1040001631u, 1060643107u, 3204577908u};
  CHECK(float_bits_are(k.out, run2, 5));
  rk_free(&k);
}

TFC_TEST(random_truncated_normal_float_matches_tf) {
  rk k;
  CHECK(real_kernel(&k, "TruncatedNormal", TFC_DTYPE_FLOAT, 6, 7, 3));
  CHECK(rk_run(&k, "TruncatedNormal"));
  const uint32_t run1[6] = {1064425500u, 3212279704u, 1062084539u,
                            1067897615u, 3193964534u, 3209563621u};
  CHECK(float_bits_are(k.out, run1, 6));
  CHECK(rk_run(&k, "TruncatedNormal"));
  const uint32_t run2[6] = {3206025589u, 3210204725u, 3127005663u,
                            1060646139u, 3205084469u, 1069834309u};
  CHECK(float_bits_are(k.out, run2, 6));
  rk_free(&k);
}

TFC_TEST(random_double_streams_match_tf) {
  rk k;
  CHECK(real_kernel(&k, "RandomUniform", TFC_DTYPE_DOUBLE, 3, 7, 3));
  CHECK(rk_run(&k, "RandomUniform"));
  const uint64_t u1[3] = {4596687344047874576ull, 4602216622276286528ull, 4606898319253596080ull};
  CHECK(double_bits_are(k.out, u1, 3));
  CHECK(rk_run(&k, "RandomUniform"));
  const uint64_t u2[3] = {4603272840523052336ull, 4594733534830869152ull, 4605020084297597890ull};
  CHECK(double_bits_are(k.out, u2, 3));
  rk_free(&k);

  CHECK(real_kernel(&k, "RandomStandardNormal", TFC_DTYPE_DOUBLE, 3, 7, 3));
  CHECK(rk_run(&k, "RandomStandardNormal"));
  const uint64_t n1[3] = {4598790227390141445ull, 13833919856399281686ull, 4582135311925112360ull};
  CHECK(double_bits_are(k.out, n1, 3));
  CHECK(rk_run(&k, "RandomStandardNormal"));
  const uint64_t n2[3] = {4606106172716525333ull, 4603603489125474307ull, 4580336292722761539ull};
  CHECK(double_bits_are(k.out, n2, 3));
  rk_free(&k);

  CHECK(real_kernel(&k, "TruncatedNormal", TFC_DTYPE_DOUBLE, 3, 7, 3));
  CHECK(rk_run(&k, "TruncatedNormal"));
  const uint64_t t1[3] = {4598790227390141445ull, 13833919856399281686ull, 13829045314460202381ull};
  CHECK(double_bits_are(k.out, t1, 3));
  CHECK(rk_run(&k, "TruncatedNormal"));
  const uint64_t t2[3] = {4606106172716525333ull, 4603603489125474307ull, 13826523886822908886ull};
  CHECK(double_bits_are(k.out, t2, 3));
  rk_free(&k);
}

TFC_TEST(random_uniform_half_matches_tf) {
  rk k;
  CHECK(real_kernel(&k, "RandomUniform", TFC_DTYPE_HALF, 5, 7, 3));
  const float run1[5] = {0.7119140625f, 0.064453125f, 0.7265625f, 0.515625f, 0.701171875f};
  const float run2[5] = {0.1025390625f, 0.4677734375f, 0.755859375f, 0.9111328125f, 0.240234375f};
  CHECK(rk_run(&k, "RandomUniform"));
  for (int i = 0; i < 5; i++) CHECK(tfc_half_to_float(((tfc_half *)k.out->data)[i]) == run1[i]);
  CHECK(rk_run(&k, "RandomUniform"));
  for (int i = 0; i < 5; i++) CHECK(tfc_half_to_float(((tfc_half *)k.out->data)[i]) == run2[i]);
  rk_free(&k);
}

/* Makes a RandomUniformInt kernel with [n] output in [lo, hi). */
static bool int_kernel(rk *k, tfc_dtype dt, int32_t n, int64_t lo, int64_t hi) {
  if (!rk_make(k, "RandomUniformInt", 7, 3, dt)) return false;
  tfc_status st;
  k->in[0] = shape_vec(1, &n);
  if (dt == TFC_DTYPE_INT32) {
    int32_t l = (int32_t)lo, h = (int32_t)hi;
    k->in[1] = tfc_tensor_scalar(dt, &l, &st);
    k->in[2] = tfc_tensor_scalar(dt, &h, &st);
  } else {
    k->in[1] = tfc_tensor_scalar(dt, &lo, &st);
    k->in[2] = tfc_tensor_scalar(dt, &hi, &st);
  }
  k->n_in = 3;
  return true;
}

TFC_TEST(random_uniform_int_matches_tf) {
  rk k;
  CHECK(int_kernel(&k, TFC_DTYPE_INT32, 5, -10, 100));
  const int32_t r1[5] = {-7, 28, 70, 98, 12}, r2[5] = {53, 81, 22, 89, 50};
  CHECK(rk_run(&k, "RandomUniformInt"));
  for (int i = 0; i < 5; i++) CHECK_EQ_INT(((int32_t *)k.out->data)[i], r1[i]);
  CHECK(rk_run(&k, "RandomUniformInt"));
  for (int i = 0; i < 5; i++) CHECK_EQ_INT(((int32_t *)k.out->data)[i], r2[i]);
  rk_free(&k);

  CHECK(int_kernel(&k, TFC_DTYPE_INT64, 3, -10, 1ll << 40));
  const int64_t s1[3] = {285992186999ll, 69317699106ll, 930158622918ll};
  const int64_t s2[3] = {656843417555ll, 363866882729ll, 967075933083ll};
  CHECK(rk_run(&k, "RandomUniformInt"));
  for (int i = 0; i < 3; i++) CHECK_EQ_INT(((int64_t *)k.out->data)[i], s1[i]);
  CHECK(rk_run(&k, "RandomUniformInt"));
  for (int i = 0; i < 3; i++) CHECK_EQ_INT(((int64_t *)k.out->data)[i], s2[i]);
  rk_free(&k);

  CHECK(int_kernel(&k, TFC_DTYPE_INT32, 5, 3, 3));
  CHECK(!rk_run(&k, "RandomUniformInt"));
  CHECK_CODE(&k.st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(k.st.msg, "Need minval < maxval: 3 >= 3") == 0);
  rk_free(&k);
}

TFC_TEST(random_shuffle_matches_tf) {
  rk k;
  CHECK(rk_make(&k, "RandomShuffle", 7, 3, TFC_DTYPE_INT32));
  tfc_status st;
  int64_t n = 10;
  k.in[0] = tfc_tensor_new(TFC_DTYPE_INT32, 1, &n, &st);
  for (int i = 0; i < 10; i++) ((int32_t *)k.in[0]->data)[i] = i;
  k.n_in = 1;
  const int32_t r1[10] = {3, 4, 2, 9, 8, 5, 1, 6, 7, 0}, r2[10] = {2, 9, 6, 7, 1, 0, 8, 5, 3, 4};
  CHECK(rk_run(&k, "RandomShuffle"));
  for (int i = 0; i < 10; i++) CHECK_EQ_INT(((int32_t *)k.out->data)[i], r1[i]);
  CHECK(rk_run(&k, "RandomShuffle"));
  for (int i = 0; i < 10; i++) CHECK_EQ_INT(((int32_t *)k.out->data)[i], r2[i]);
  CHECK_EQ_INT(((int32_t *)k.in[0]->data)[3], 3); /* input untouched */
  rk_free(&k);

  /* Rows of a matrix move together. */
  CHECK(rk_make(&k, "RandomShuffle", 7, 3, TFC_DTYPE_FLOAT));
  int64_t d[2] = {10, 2};
  k.in[0] = tfc_tensor_new(TFC_DTYPE_FLOAT, 2, d, &st);
  for (int i = 0; i < 20; i++) ((float *)k.in[0]->data)[i] = (float)i;
  k.n_in = 1;
  CHECK(rk_run(&k, "RandomShuffle"));
  for (int i = 0; i < 10; i++) {
    CHECK(((float *)k.out->data)[2 * i] == (float)(2 * r1[i]));
    CHECK(((float *)k.out->data)[2 * i + 1] == (float)(2 * r1[i] + 1));
  }
  rk_free(&k);
}

/* ------------------------------------------------------------ statistics */

/* Mean and standard deviation of a float output. */
static void moments(const tfc_tensor *t, double *mean, double *sd) {
  double s = 0, s2 = 0;
  for (int64_t i = 0; i < t->nelems; i++) {
    double x = ((const float *)t->data)[i];
    s += x;
    s2 += x * x;
  }
  *mean = s / (double)t->nelems;
  *sd = sqrt(s2 / (double)t->nelems - *mean * *mean);
}

TFC_TEST(random_distribution_moments) {
  rk k;
  double mean, sd;
  const int32_t n = 200000;
  CHECK(real_kernel(&k, "RandomUniform", TFC_DTYPE_FLOAT, n, 1, 2));
  CHECK(rk_run(&k, "RandomUniform"));
  moments(k.out, &mean, &sd);
  CHECK_NEAR(mean, 0.5, 0.005);
  CHECK_NEAR(sd, sqrt(1.0 / 12.0), 0.005);
  for (int64_t i = 0; i < k.out->nelems; i++) {
    float x = ((float *)k.out->data)[i];
    if (!(x >= 0.0f && x < 1.0f)) CHECK(0);
  }
  rk_free(&k);

  CHECK(real_kernel(&k, "RandomStandardNormal", TFC_DTYPE_FLOAT, n, 1, 2));
  CHECK(rk_run(&k, "RandomStandardNormal"));
  moments(k.out, &mean, &sd);
  CHECK_NEAR(mean, 0.0, 0.01);
  CHECK_NEAR(sd, 1.0, 0.01);
  rk_free(&k);

  CHECK(real_kernel(&k, "TruncatedNormal", TFC_DTYPE_FLOAT, n, 1, 2));
  CHECK(rk_run(&k, "TruncatedNormal"));
  moments(k.out, &mean, &sd);
  CHECK_NEAR(mean, 0.0, 0.01);
  CHECK_NEAR(sd, 0.879626, 0.01); /* std of N(0,1) truncated to (-2, 2) */
  for (int64_t i = 0; i < k.out->nelems; i++) {
    float x = ((float *)k.out->data)[i];
    if (!(x > -2.0f && x < 2.0f)) CHECK(0);
  }
  rk_free(&k);

  CHECK(int_kernel(&k, TFC_DTYPE_INT32, n, -3, 4));
  CHECK(rk_run(&k, "RandomUniformInt"));
  int counts[7] = {0};
  for (int64_t i = 0; i < k.out->nelems; i++) {
    int32_t x = ((int32_t *)k.out->data)[i];
    if (x < -3 || x >= 4) CHECK(0);
    counts[x + 3]++;
  }
  for (int i = 0; i < 7; i++) CHECK_NEAR(counts[i] / (double)n, 1.0 / 7.0, 0.01);
  rk_free(&k);
}

TFC_TEST(random_determinism_and_seeding) {
  rk a, b, c, d;
  CHECK(real_kernel(&a, "RandomUniform", TFC_DTYPE_FLOAT, 64, 42, 0));
  CHECK(real_kernel(&b, "RandomUniform", TFC_DTYPE_FLOAT, 64, 42, 0));
  CHECK(real_kernel(&c, "RandomUniform", TFC_DTYPE_FLOAT, 64, 0, 0));
  CHECK(real_kernel(&d, "RandomUniform", TFC_DTYPE_FLOAT, 64, 0, 0));
  CHECK(rk_run(&a, "a") && rk_run(&b, "b") && rk_run(&c, "c") && rk_run(&d, "d"));
  CHECK(memcmp(a.out->data, b.out->data, 64 * sizeof(float)) == 0);
  /* seed = seed2 = 0: each kernel draws its own random seeds. */
  CHECK(memcmp(c.out->data, d.out->data, 64 * sizeof(float)) != 0);
  tfc_tensor *first = tfc_tensor_ref(a.out);
  CHECK(rk_run(&a, "a"));
  CHECK(memcmp(a.out->data, first->data, 64 * sizeof(float)) != 0); /* the stream advances */
  tfc_tensor_unref(first);
  rk_free(&a);
  rk_free(&b);
  rk_free(&c);
  rk_free(&d);
}

TFC_TEST(random_parallel_fill_is_thread_independent) {
  const char *ops[3] = {"RandomUniform", "RandomStandardNormal", "TruncatedNormal"};
  tfc_threadpool *pool = tfc_threadpool_new(2);
  CHECK(pool != NULL);
  for (int o = 0; o < 3; o++) {
    rk a, b;
    const int32_t n = 100003;
    CHECK(real_kernel(&a, ops[o], TFC_DTYPE_FLOAT, n, 5, 6));
    CHECK(real_kernel(&b, ops[o], TFC_DTYPE_FLOAT, n, 5, 6));
    b.pool = pool;
    CHECK(rk_run(&a, ops[o]) && rk_run(&b, ops[o]));
    CHECK(memcmp(a.out->data, b.out->data, sizeof(float) * (size_t)n) == 0);
    rk_free(&a);
    rk_free(&b);
  }
  tfc_threadpool_free(pool);
}

TFC_TEST(random_shape_errors_and_empty) {
  rk k;
  CHECK(rk_make(&k, "RandomUniform", 1, 1, TFC_DTYPE_FLOAT));
  int32_t neg[2] = {2, -1};
  k.in[0] = shape_vec(2, neg);
  k.n_in = 1;
  CHECK(!rk_run(&k, "RandomUniform"));
  CHECK_CODE(&k.st, TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(k.st.msg, "Dimension -1 must be >= 0") == 0);
  tfc_tensor_unref(k.in[0]);
  tfc_status st;
  int32_t two = 2;
  k.in[0] = tfc_tensor_scalar(TFC_DTYPE_INT32, &two, &st);
  CHECK(!rk_run(&k, "RandomUniform"));
  CHECK(strcmp(k.st.msg, "shape must be a vector of {int32,int64}, got shape []") == 0);
  tfc_tensor_unref(k.in[0]);
  int32_t empty[2] = {0, 3};
  k.in[0] = shape_vec(2, empty);
  CHECK(rk_run(&k, "RandomUniform"));
  CHECK(k.out && k.out->nelems == 0 && k.out->rank == 2);
  rk_free(&k);
}

TFC_TEST(random_op_defs_parse) {
  const char *ops[] = {"RandomUniform", "RandomStandardNormal", "TruncatedNormal",
                       "RandomUniformInt", "RandomShuffle"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    const tfc_op_def *d = tfc_op_lookup(ops[i]);
    CHECK(d != NULL);
    CHECK(d->flags & TFC_OP_STATEFUL);
    CHECK(tfc_kernel_exists(ops[i], "CPU"));
  }
}

/* ------------------------------------------------ through graph + session */

#include "graph/graph.h"
#include "runtime/session.h"

TFC_TEST(random_session_stream_continues_across_plans) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  /* shape = Const([5]) */
  tfc_attrs a;
  tfc_attrs_init(&a);
  int32_t five = 5;
  tfc_attr_value av = {.kind = TFC_ATTR_TENSOR, .v.tensor = shape_vec(1, &five)};
  tfc_attrs_set(&a, "value", &av, &st);
  av = tfc_attr_type(TFC_DTYPE_INT32);
  tfc_attrs_set(&a, "dtype", &av, &st);
  tfc_node_request rq = {.op_type = "Const", .name = "shape", .n_args = 0, .attrs = &a};
  tfc_node *shape = tfc_graph_add_node(g, &rq, &st);
  tfc_attrs_destroy(&a);
  CHECK(shape != NULL);
  tfc_attrs_init(&a);
  av = tfc_attr_int(7);
  tfc_attrs_set(&a, "seed", &av, &st);
  av = tfc_attr_int(3);
  tfc_attrs_set(&a, "seed2", &av, &st);
  av = tfc_attr_type(TFC_DTYPE_FLOAT);
  tfc_attrs_set(&a, "dtype", &av, &st);
  int one = 1;
  tfc_endpoint in = {shape->id, 0};
  tfc_node_request rr = {.op_type = "RandomUniform", .name = "r", .n_args = 1, .arg_sizes = &one,
                         .inputs = &in, .attrs = &a};
  tfc_node *r = tfc_graph_add_node(g, &rr, &st);
  tfc_attrs_destroy(&a);
  CHECK_STATUS_OK(&st);
  CHECK(r->out_shapes[0].rank == 1 && r->out_shapes[0].dims[0] == 5);
  tfc_session_options opts = {.inter_op_threads = 1, .intra_op_threads = 1, .n_cpu_devices = 1};
  tfc_session *s = tfc_session_new(g, &opts, &st);
  tfc_endpoint f1[1] = {{r->id, 0}}, f2[2] = {{r->id, 0}, {shape->id, 0}};
  tfc_plan *p1 = tfc_session_plan(s, 0, NULL, 1, f1, 0, NULL, &st);
  tfc_plan *p2 = tfc_session_plan(s, 0, NULL, 2, f2, 0, NULL, &st);
  CHECK(p1 && p2);
  tfc_tensor *out[2] = {NULL, NULL};
  CHECK(tfc_session_run(s, p1, NULL, out, &st));
  const uint32_t run1[5] = {1053645668u, 1052832008u, 1050565536u, 1035231488u, 1061092764u};
  CHECK(float_bits_are(out[0], run1, 5));
  tfc_tensor_unref(out[0]);
  CHECK(tfc_session_run(s, p2, NULL, out, &st));
  const uint32_t run2[5] = {1055928740u, 1044598520u, 1061430796u, 1021176128u, 1063211500u};
  CHECK(float_bits_are(out[0], run2, 5));
  tfc_tensor_unref(out[0]);
  tfc_tensor_unref(out[1]);
  tfc_session_free(s);
  tfc_graph_unref(g);
}

TFC_TEST(random_oom_is_a_status) {
  rk k;
  CHECK(real_kernel(&k, "RandomStandardNormal", TFC_DTYPE_FLOAT, 1000, 7, 3));
  tfc_alloc_fail_after(1);
  bool ok = rk_run(&k, "RandomStandardNormal");
  tfc_alloc_fail_after(0);
  CHECK(!ok);
  CHECK_CODE(&k.st, TFC_CODE_RESOURCE_EXHAUSTED);
  CHECK(k.out == NULL);
  CHECK(rk_run(&k, "RandomStandardNormal"));
  rk_free(&k);
  tfc_status st;
  tfc_status_clear(&st);
  tfc_attrs a;
  tfc_attrs_init(&a);
  tfc_kernel_init ki = {.attrs = &a, .st = &st};
  const tfc_kernel_def *def = tfc_kernel_lookup("RandomUniform", "CPU", NULL);
  void *state = NULL;
  tfc_alloc_fail_after(1);
  ok = def->init(&ki, &state);
  tfc_alloc_fail_after(0);
  CHECK(!ok);
  CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
  tfc_attrs_destroy(&a);
}
