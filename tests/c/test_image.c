/*
 * test_image.c — the image family: op definitions (ops_image.c), the JPEG and
 * PNG codecs (kernels/jpeg.c, kernels/png.c) round-tripping and surviving a
 * few hundred corrupted files each without crashing, the decode/encode and
 * resize kernels run by hand through a tfc_kernel_ctx with TF's values and
 * messages, allocation-failure injection, and ReadFile/WriteFile.
 * Test names start with "image_" (make ctest T=image_).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "core/attr.h"
#include "core/op_registry.h"
#include "core/tensor.h"
#include "harness.h"
#include "kernels/image_internal.h"
#include "kernels/kernel.h"

/* ---------------------------------------------------------------- helpers */

typedef struct call {
  tfc_status st;
  tfc_attrs attrs;
  tfc_tensor *out[1];
  tfc_dtype out_types[1];
} call;

static void call_init(call *c, tfc_dtype out_type) {
  memset(c, 0, sizeof *c);
  tfc_status_clear(&c->st);
  tfc_attrs_init(&c->attrs);
  c->out_types[0] = out_type;
}

static void set_int(call *c, const char *name, int64_t i) {
  tfc_attr_value v = tfc_attr_int(i);
  tfc_attrs_set(&c->attrs, name, &v, &c->st);
}

static void set_bool(call *c, const char *name, bool b) {
  tfc_attr_value v = tfc_attr_bool(b);
  tfc_attrs_set(&c->attrs, name, &v, &c->st);
}

static void set_type(call *c, const char *name, tfc_dtype t) {
  tfc_attr_value v = tfc_attr_type(t);
  tfc_attrs_set(&c->attrs, name, &v, &c->st);
}

/* Runs op's CPU kernel; true on success. */
static bool call_run(call *c, const char *op, int nin, tfc_tensor **ins, int nout) {
  const tfc_kernel_def *def = tfc_kernel_lookup(op, "CPU", &c->attrs);
  if (!def) {
    tfc_status_set(&c->st, TFC_CODE_NOT_FOUND, "no kernel for %s", op);
    return false;
  }
  tfc_kernel_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.node_name = op;
  ctx.op_type = op;
  ctx.attrs = &c->attrs;
  ctx.n_inputs = nin;
  ctx.inputs = ins;
  ctx.n_outputs = nout;
  ctx.outputs = c->out;
  ctx.out_types = c->out_types;
  ctx.st = &c->st;
  def->compute(&ctx);
  return tfc_status_ok(&c->st);
}

static void call_done(call *c) {
  tfc_tensor_unref(c->out[0]);
  tfc_attrs_destroy(&c->attrs);
}

/* A scalar string tensor holding (s, n). */
static tfc_tensor *str_scalar(const void *s, size_t n) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_STRING, 0, NULL, &st);
  if (t && !tfc_tensor_set_string(t, 0, s, n, &st)) {
    tfc_tensor_unref(t);
    return NULL;
  }
  return t;
}

/* A smooth h x w x c test image. */
static uint8_t *gradient(int h, int w, int c) {
  uint8_t *p = malloc((size_t)h * w * c);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int k = 0; k < c; k++) p[(y * w + x) * c + k] = (uint8_t)((x * 3 + y * 2 + k * 30) & 0xff);
  return p;
}

static uint32_t rng_next(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

/* ---------------------------------------------------------------- op defs */

TFC_TEST(image_op_defs) {
  const char *ops[] = {"ReadFile", "WriteFile", "DecodeJpeg", "DecodePng", "DecodeBmp", "DecodeImage",
                       "EncodeJpeg", "EncodePng", "ResizeBilinear", "ResizeNearestNeighbor",
                       "ResizeBicubic", "AdjustContrastv2"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    const tfc_op_def *d = tfc_op_lookup(ops[i]);
    CHECK(d != NULL);
    CHECK(tfc_kernel_exists(ops[i], "CPU"));
  }
  const tfc_op_def *j = tfc_op_lookup("DecodeJpeg");
  CHECK_EQ_INT(j->n_attrs, 6);
  const tfc_attr_def *a = tfc_op_find_attr(j, "acceptable_fraction");
  CHECK(a && a->has_default && a->default_value.v.f == 1.0f);
  const tfc_op_def *e = tfc_op_lookup("EncodeJpeg");
  CHECK_EQ_INT(e->n_attrs, 9);
  a = tfc_op_find_attr(e, "quality");
  CHECK(a && a->default_value.v.i == 95);
  CHECK(tfc_op_lookup("WriteFile")->flags & TFC_OP_STATEFUL);
  const tfc_op_def *r = tfc_op_lookup("ResizeBilinear");
  CHECK_EQ_INT(r->outputs[0].type, TFC_DTYPE_FLOAT);
  CHECK_EQ_INT(tfc_op_find_attr(r, "T")->n_allowed_types, 10);
}

/* ---------------------------------------------------------------- codecs */

TFC_TEST(image_jpeg_roundtrip) {
  tfc_status st;
  tfc_status_clear(&st);
  uint8_t *img = gradient(24, 40, 3);
  tfc_jpeg_encode_opts eo = {95, false, false, true, 1, 300, 300, NULL, 0};
  char *data;
  size_t len;
  CHECK(tfc_jpeg_encode(img, 24, 40, 3, &eo, &data, &len, &st));
  CHECK(tfc_jpeg_is_jpeg((const uint8_t *)data, len));
  tfc_jpeg_decode_opts o = {0, 1, true, false, 1.0f, false};
  tfc_tensor *t = NULL;
  CHECK(tfc_jpeg_decode((const uint8_t *)data, len, &o, &t, &st));
  CHECK_EQ_INT(t->rank, 3);
  CHECK_EQ_INT(t->dims[0], 24);
  CHECK_EQ_INT(t->dims[1], 40);
  CHECK_EQ_INT(t->dims[2], 3);
  int maxd = 0;
  for (int64_t i = 0; i < t->nelems; i++) {
    int d = abs((int)((uint8_t *)t->data)[i] - img[i]);
    if (d > maxd) maxd = d;
  }
  if (maxd > 12) TFC_FAIL_("max JPEG round-trip error %d", maxd);
  tfc_tensor_unref(t);
  o.channels = 1;
  o.ratio = 4;
  CHECK(tfc_jpeg_decode((const uint8_t *)data, len, &o, &t, &st));
  CHECK_EQ_INT(t->dims[0], 6);
  CHECK_EQ_INT(t->dims[1], 10);
  CHECK_EQ_INT(t->dims[2], 1);
  tfc_tensor_unref(t);
  /* Truncated: an error, unless recovering with a low enough fraction. */
  o.channels = 0;
  o.ratio = 1;
  CHECK(!tfc_jpeg_decode((const uint8_t *)data, len / 2, &o, &t, &st));
  CHECK_CODE(&st, TFC_CODE_INVALID_ARGUMENT);
  char want[64];
  snprintf(want, sizeof want, "Invalid JPEG data or crop window, data size %zu", len / 2);
  CHECK(strcmp(st.msg, want) == 0);
  tfc_status_clear(&st);
  o.try_recover_truncated = true;
  o.acceptable_fraction = 0.0f;
  CHECK(tfc_jpeg_decode((const uint8_t *)data, len - 40, &o, &t, &st));
  CHECK_EQ_INT(t->dims[0], 24);
  tfc_tensor_unref(t);
  tfc_free(data);
  free(img);
}

TFC_TEST(image_png_roundtrip) {
  tfc_status st;
  tfc_status_clear(&st);
  for (int c = 1; c <= 4; c++) {
    uint8_t *img = gradient(5, 9, c);
    char *data;
    size_t len;
    CHECK(tfc_png_encode(img, 5, 9, c, 8, 9, &data, &len, &st));
    CHECK(tfc_png_is_png((const uint8_t *)data, len));
    tfc_tensor *t = NULL;
    CHECK(tfc_png_decode((const uint8_t *)data, len, 0, 8, &t, &st));
    CHECK_EQ_INT(t->dims[2], c);
    CHECK(memcmp(t->data, img, (size_t)5 * 9 * c) == 0);
    tfc_tensor_unref(t);
    /* 8-bit data as uint16: v * 257. */
    CHECK(tfc_png_decode((const uint8_t *)data, len, 0, 16, &t, &st));
    CHECK_EQ_INT(((uint16_t *)t->data)[7], img[7] * 257);
    tfc_tensor_unref(t);
    /* Alpha added / dropped, gray <-> RGB. */
    CHECK(tfc_png_decode((const uint8_t *)data, len, 4, 8, &t, &st));
    CHECK_EQ_INT(t->dims[2], 4);
    if (c == 1 || c == 3) CHECK_EQ_INT(((uint8_t *)t->data)[3], 255);
    tfc_tensor_unref(t);
    tfc_free(data);
    free(img);
  }
  uint16_t px[6] = {0, 1, 256, 65535, 12345, 54321};
  char *data;
  size_t len;
  CHECK(tfc_png_encode(px, 2, 3, 1, 16, -1, &data, &len, &st));
  tfc_tensor *t = NULL;
  CHECK(tfc_png_decode((const uint8_t *)data, len, 0, 16, &t, &st));
  CHECK(memcmp(t->data, px, sizeof px) == 0);
  tfc_tensor_unref(t);
  CHECK(tfc_png_decode((const uint8_t *)data, len, 0, 8, &t, &st));
  CHECK_EQ_INT(((uint8_t *)t->data)[4], 12345 >> 8); /* low byte stripped */
  tfc_tensor_unref(t);
  tfc_free(data);
}

/* Decodes `n` corrupted variants of a valid file; every call must return
 * cleanly (OK or INVALID_ARGUMENT) — a crash or sanitizer report fails. */
static int fuzz(const char *data, size_t len, bool jpeg, int n, uint32_t seed) {
  uint8_t *buf = malloc(len + 16);
  int bad = 0;
  for (int it = 0; it < n; it++) {
    memcpy(buf, data, len);
    size_t blen = len;
    int kind = (int)(rng_next(&seed) % 4);
    int flips = 1 + (int)(rng_next(&seed) % 8);
    if (kind <= 1) {
      for (int k = 0; k < flips; k++) buf[rng_next(&seed) % blen] = (uint8_t)rng_next(&seed);
    } else if (kind == 2) {
      blen = rng_next(&seed) % len;
    } else {
      size_t at = 2 + rng_next(&seed) % (len - 2);
      for (int k = 0; k < flips && at + k < blen; k++) buf[at + k] = 0xFF;
      blen = len - rng_next(&seed) % 16;
    }
    tfc_status st;
    tfc_status_clear(&st);
    tfc_tensor *t = NULL;
    bool ok;
    if (jpeg) {
      tfc_jpeg_decode_opts o = {(int)(rng_next(&seed) % 2) * 3, 1 << (rng_next(&seed) % 4),
                                (rng_next(&seed) & 1) != 0, (rng_next(&seed) & 1) != 0, 0.5f,
                                (rng_next(&seed) & 1) != 0};
      ok = tfc_jpeg_decode(buf, blen, &o, &t, &st);
    } else {
      static const int chans[] = {0, 1, 3, 4};
      ok = tfc_png_decode(buf, blen, chans[rng_next(&seed) % 4], (rng_next(&seed) & 1) ? 16 : 8, &t,
                          &st);
    }
    if (ok) {
      if (!t || t->rank != 3) bad++;
    } else if (st.code != TFC_CODE_INVALID_ARGUMENT || t != NULL) {
      bad++;
    }
    tfc_tensor_unref(t);
  }
  free(buf);
  return bad;
}

TFC_TEST(image_fuzz_corrupt_files) {
  tfc_status st;
  tfc_status_clear(&st);
  uint8_t *img = gradient(21, 35, 3);
  char *jpg, *prog, *png;
  size_t jlen, plen, nlen;
  tfc_jpeg_encode_opts eo = {80, false, false, true, 1, 300, 300, NULL, 0};
  CHECK(tfc_jpeg_encode(img, 21, 35, 3, &eo, &jpg, &jlen, &st));
  eo.progressive = true;
  CHECK(tfc_jpeg_encode(img, 21, 35, 3, &eo, &prog, &plen, &st));
  CHECK(tfc_png_encode(img, 21, 35, 3, 8, 6, &png, &nlen, &st));
  CHECK_EQ_INT(fuzz(jpg, jlen, true, 300, 12345u), 0);
  CHECK_EQ_INT(fuzz(prog, plen, true, 200, 777u), 0);
  CHECK_EQ_INT(fuzz(png, nlen, false, 300, 4242u), 0);
  /* Garbage and empty input. */
  tfc_tensor *t = NULL;
  tfc_jpeg_decode_opts o = {0, 1, true, false, 1.0f, false};
  CHECK(!tfc_jpeg_decode((const uint8_t *)"hello", 5, &o, &t, &st));
  CHECK(!tfc_jpeg_decode((const uint8_t *)"", 0, &o, &t, &st));
  tfc_status_clear(&st);
  CHECK(!tfc_png_decode((const uint8_t *)"hello", 5, 0, 8, &t, &st));
  CHECK(strcmp(st.msg, "Invalid PNG header, data size 5") == 0);
  tfc_free(jpg);
  tfc_free(prog);
  tfc_free(png);
  free(img);
}

/* ---------------------------------------------------------------- kernels */

TFC_TEST(image_decode_kernels) {
  tfc_status st;
  tfc_status_clear(&st);
  uint8_t *img = gradient(6, 8, 3);
  char *png;
  size_t len;
  CHECK(tfc_png_encode(img, 6, 8, 3, 8, -1, &png, &len, &st));
  tfc_tensor *in = str_scalar(png, len);
  call c;
  /* DecodeImage: PNG as float in [0, 1] (16-bit value / 65535). */
  call_init(&c, TFC_DTYPE_FLOAT);
  set_type(&c, "dtype", TFC_DTYPE_FLOAT);
  CHECK(call_run(&c, "DecodeImage", 1, &in, 1));
  CHECK_NEAR(((float *)c.out[0]->data)[5], img[5] / 255.0, 1e-6);
  call_done(&c);
  /* DecodePng channels 1 (BT.601 weights). */
  call_init(&c, TFC_DTYPE_UINT8);
  set_int(&c, "channels", 1);
  CHECK(call_run(&c, "DecodePng", 1, &in, 1));
  CHECK_EQ_INT(c.out[0]->dims[2], 1);
  double y = 0.299 * img[0] + 0.587 * img[1] + 0.114 * img[2];
  CHECK_NEAR(((uint8_t *)c.out[0]->data)[0], y, 1.0);
  call_done(&c);
  /* DecodeJpeg on PNG bytes: TF 1.15's message. */
  call_init(&c, TFC_DTYPE_UINT8);
  CHECK(!call_run(&c, "DecodeJpeg", 1, &in, 1));
  char want[80];
  snprintf(want, sizeof want, "Invalid JPEG data or crop window, data size %zu", len);
  CHECK(strcmp(c.st.msg, want) == 0);
  call_done(&c);
  call_init(&c, TFC_DTYPE_UINT8);
  set_int(&c, "channels", 2);
  CHECK(!call_run(&c, "DecodeJpeg", 1, &in, 1));
  CHECK(strcmp(c.st.msg, "channels must be 0, 1, or 3, got 2") == 0);
  call_done(&c);
  tfc_tensor_unref(in);
  /* EncodePng kernel, then DecodeImage as uint16 (x * 257 for PNG). */
  int64_t dims[3] = {6, 8, 3};
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_UINT8, 3, dims, &st);
  memcpy(t->data, img, 6 * 8 * 3);
  call_init(&c, TFC_DTYPE_STRING);
  set_type(&c, "T", TFC_DTYPE_UINT8);
  CHECK(call_run(&c, "EncodePng", 1, &t, 1));
  tfc_tensor *enc = tfc_tensor_ref(c.out[0]);
  call_done(&c);
  call_init(&c, TFC_DTYPE_UINT16);
  set_type(&c, "dtype", TFC_DTYPE_UINT16);
  CHECK(call_run(&c, "DecodeImage", 1, &enc, 1));
  CHECK_EQ_INT(((uint16_t *)c.out[0]->data)[4], img[4] * 257);
  call_done(&c);
  tfc_tensor_unref(enc);
  /* EncodeJpeg with 2 channels fails with TF's message. */
  int64_t d2[3] = {2, 2, 2};
  tfc_tensor *t2 = tfc_tensor_zeros(TFC_DTYPE_UINT8, 3, d2, &st);
  call_init(&c, TFC_DTYPE_STRING);
  CHECK(!call_run(&c, "EncodeJpeg", 1, &t2, 1));
  CHECK(strcmp(c.st.msg, "image must have 1 or 3 channels, got [2,2,2]") == 0);
  call_done(&c);
  tfc_tensor_unref(t2);
  tfc_tensor_unref(t);
  tfc_free(png);
  free(img);
}

/* Runs a resize op on a 1 x 2 x 2 x 1 float image to 1 x 4 x 4 x 1. */
static bool resize_2x2(const char *op, bool align, bool half, float out[16], tfc_status *st) {
  int64_t dims[4] = {1, 2, 2, 1}, sd = 2;
  tfc_tensor *x = tfc_tensor_new(TFC_DTYPE_FLOAT, 4, dims, st);
  float v[4] = {0, 1, 2, 3};
  memcpy(x->data, v, sizeof v);
  tfc_tensor *s = tfc_tensor_new(TFC_DTYPE_INT32, 1, &sd, st);
  ((int32_t *)s->data)[0] = ((int32_t *)s->data)[1] = 4;
  call c;
  call_init(&c, strcmp(op, "ResizeNearestNeighbor") == 0 ? TFC_DTYPE_FLOAT : TFC_DTYPE_FLOAT);
  set_type(&c, "T", TFC_DTYPE_FLOAT);
  set_bool(&c, "align_corners", align);
  set_bool(&c, "half_pixel_centers", half);
  tfc_tensor *ins[2] = {x, s};
  bool ok = call_run(&c, op, 2, ins, 1);
  if (ok) memcpy(out, c.out[0]->data, 16 * sizeof(float));
  tfc_status_copy(st, &c.st);
  call_done(&c);
  tfc_tensor_unref(x);
  tfc_tensor_unref(s);
  return ok;
}

TFC_TEST(image_resize_values) {
  tfc_status st;
  tfc_status_clear(&st);
  float o[16];
  /* Values from TensorFlow for [[0, 1], [2, 3]] resized to 4 x 4. */
  static const float bil[16] = {0, 0.5f, 1, 1, 1, 1.5f, 2, 2, 2, 2.5f, 3, 3, 2, 2.5f, 3, 3};
  CHECK(resize_2x2("ResizeBilinear", false, false, o, &st));
  for (int i = 0; i < 16; i++) CHECK_NEAR(o[i], bil[i], 0);
  static const float bil_half[16] = {0,    0.25f, 0.75f, 1,    0.5f, 0.75f, 1.25f, 1.5f,
                                     1.5f, 1.75f, 2.25f, 2.5f, 2,    2.25f, 2.75f, 3};
  CHECK(resize_2x2("ResizeBilinear", false, true, o, &st));
  for (int i = 0; i < 16; i++) CHECK_NEAR(o[i], bil_half[i], 0);
  static const float nn_align[16] = {0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3};
  CHECK(resize_2x2("ResizeNearestNeighbor", true, false, o, &st));
  for (int i = 0; i < 16; i++) CHECK_NEAR(o[i], nn_align[i], 0);
  CHECK(!resize_2x2("ResizeBilinear", true, true, o, &st));
  CHECK(strcmp(st.msg, "If half_pixel_centers is True, align_corners must be False.") == 0);
}

TFC_TEST(image_decode_oom) {
  tfc_status st;
  tfc_status_clear(&st);
  uint8_t *img = gradient(8, 8, 3);
  char *jpg, *png;
  size_t jl, pl;
  tfc_jpeg_encode_opts eo = {90, false, false, true, 1, 300, 300, NULL, 0};
  CHECK(tfc_jpeg_encode(img, 8, 8, 3, &eo, &jpg, &jl, &st));
  CHECK(tfc_png_encode(img, 8, 8, 3, 8, -1, &png, &pl, &st));
  for (int n = 1; n <= 4; n++) {
    for (int which = 0; which < 2; which++) {
      tfc_tensor *t = NULL;
      tfc_status_clear(&st);
      tfc_jpeg_decode_opts o = {0, 1, true, false, 1.0f, false};
      tfc_alloc_fail_after(n);
      bool ok = which ? tfc_png_decode((const uint8_t *)png, pl, 0, 8, &t, &st)
                      : tfc_jpeg_decode((const uint8_t *)jpg, jl, &o, &t, &st);
      tfc_alloc_fail_after(0);
      if (!ok) CHECK_CODE(&st, TFC_CODE_RESOURCE_EXHAUSTED);
      tfc_tensor_unref(t);
    }
  }
  tfc_free(jpg);
  tfc_free(png);
  free(img);
}

TFC_TEST(image_read_write_file) {
  char dir[] = "/tmp/tfc_image_test_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof path, "%s/a/b/file.bin", dir);
  tfc_tensor *ins[2] = {str_scalar(path, strlen(path)), str_scalar("abc\0def", 7)};
  call c;
  call_init(&c, TFC_DTYPE_INVALID);
  CHECK(call_run(&c, "WriteFile", 2, ins, 0));
  call_done(&c);
  call_init(&c, TFC_DTYPE_STRING);
  CHECK(call_run(&c, "ReadFile", 1, ins, 1));
  const tfc_string *s = c.out[0]->data;
  CHECK_EQ_INT(s->len, 7);
  CHECK(memcmp(s->data, "abc\0def", 7) == 0);
  call_done(&c);
  unlink(path);
  call_init(&c, TFC_DTYPE_STRING);
  CHECK(!call_run(&c, "ReadFile", 1, ins, 1));
  CHECK_CODE(&c.st, TFC_CODE_NOT_FOUND);
  char want[300];
  snprintf(want, sizeof want, "%s; No such file or directory", path);
  CHECK(strcmp(c.st.msg, want) == 0);
  call_done(&c);
  snprintf(path, sizeof path, "%s/a/b", dir);
  rmdir(path);
  snprintf(path, sizeof path, "%s/a", dir);
  rmdir(path);
  rmdir(dir);
  tfc_tensor_unref(ins[0]);
  tfc_tensor_unref(ins[1]);
}
