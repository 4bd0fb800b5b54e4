/*
 * string_hash.c — CPU kernels of TF's stable string hashes:
 * StringToHashBucketFast (FarmHash Fingerprint64 mod num_buckets),
 * StringToHashBucket (TF's legacy Hash64 mod num_buckets) and Fingerprint
 * (farmhash64 of each row's bytes, as 8 little-endian uint8; string rows
 * longer than one element hash the concatenated per-string fingerprints).
 * Values equal TensorFlow's bit for bit (base/fingerprint.c).
 */
#include <string.h>

#include "base/alloc.h"
#include "base/fingerprint.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* num_buckets attr (>= 1 by the op definition). */
static uint64_t num_buckets(tfc_kernel_ctx *ctx) {
  const tfc_attr_value *a = tfc_attrs_find(ctx->attrs, "num_buckets");
  return a && a->kind == TFC_ATTR_I && a->v.i > 0 ? (uint64_t)a->v.i : 0;
}

typedef struct bucket_job {
  const tfc_string *in;
  int64_t *out;
  uint64_t buckets;
  bool fast;
} bucket_job;

/* Hashes elements [begin, end) of a bucket job. */
static void bucket_range(void *arg, int64_t begin, int64_t end) {
  const bucket_job *j = arg;
  for (int64_t i = begin; i < end; i++) {
    uint64_t h = j->fast ? tfc_fingerprint64(j->in[i].data, j->in[i].len)
                         : tfc_hash64(j->in[i].data, j->in[i].len, TFC_HASH64_DEFAULT_SEED);
    j->out[i] = (int64_t)(h % j->buckets);
  }
}

/* Shared body: hash(string) % num_buckets for every element (sharded over the intra-op pool). */
static void hash_bucket(tfc_kernel_ctx *ctx, bool fast) {
  const tfc_tensor *in = ctx->inputs[0];
  uint64_t nb = num_buckets(ctx);
  if (nb == 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_buckets must be >= 1");
    return;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, in->rank, in->dims);
  if (!out) return;
  bucket_job job = {in->data, out->data, nb, fast};
  tfc_kernel_parallel_for(ctx, in->nelems, 4096, bucket_range, &job);
}

/* StringToHashBucketFast(input) -> Fingerprint64(s) % num_buckets. */
static void hash_bucket_fast_compute(tfc_kernel_ctx *ctx) { hash_bucket(ctx, true); }

/* StringToHashBucket(string_tensor) -> Hash64(s) % num_buckets. */
static void hash_bucket_legacy_compute(tfc_kernel_ctx *ctx) { hash_bucket(ctx, false); }

/* Stores v as 8 little-endian bytes at out. */
static void put_le64(uint64_t v, uint8_t *out) {
  for (int i = 0; i < 8; i++) out[i] = (uint8_t)(v >> (8 * i));
}

/* Fingerprint(data, method) -> uint8 [dim0, 8]: farmhash64 of each row. */
static void fingerprint_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0], *method = ctx->inputs[1];
  if (method->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "`method` should be a scalar string: rank %d", method->rank);
    return;
  }
  const tfc_string *m = method->data;
  if (m->len != 10 || memcmp(m->data, "farmhash64", 10) != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Unsupported fingerprint method: %.*s", (int)m->len,
                    m->data ? m->data : "");
    return;
  }
  if (in->rank < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "`data` should have at least one dimension: []");
    return;
  }
  int64_t dim0 = in->dims[0];
  int64_t dim1 = dim0 == 0 ? 0 : in->nelems / dim0;
  int64_t odims[2] = {dim0, 8};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_UINT8, 2, odims);
  if (!out) return;
  uint8_t *o = out->data;
  if (in->dtype == TFC_DTYPE_STRING) {
    const tfc_string *s = in->data;
    if (dim1 <= 1) {
      for (int64_t i = 0; i < dim0; i++) put_le64(tfc_fingerprint64(s[i].data, s[i].len), o + 8 * i);
      return;
    }
    uint8_t *row = tfc_malloc((size_t)dim1 * 8);
    if (!row) {
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when fingerprinting %lld strings", (long long)dim1);
      return;
    }
    for (int64_t i = 0; i < dim0; i++) {
      for (int64_t j = 0; j < dim1; j++) {
        const tfc_string *e = &s[i * dim1 + j];
        put_le64(tfc_fingerprint64(e->data, e->len), row + 8 * j);
      }
      put_le64(tfc_fingerprint64(row, (size_t)dim1 * 8), o + 8 * i);
    }
    tfc_free(row);
    return;
  }
  if (tfc_dtype_holds_objects(in->dtype)) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Data type not supported: %s", tfc_dtype_name(in->dtype));
    return;
  }
  size_t rowbytes = (size_t)dim1 * tfc_dtype_size(in->dtype);
  const uint8_t *d = in->data;
  for (int64_t i = 0; i < dim0; i++) put_le64(tfc_fingerprint64(d + rowbytes * (size_t)i, rowbytes), o + 8 * i);
}

static const tfc_kernel_def defs[] = {
    {"StringToHashBucketFast", "CPU", NULL, NULL, NULL, hash_bucket_fast_compute, NULL, 0},
    {"StringToHashBucket", "CPU", NULL, NULL, NULL, hash_bucket_legacy_compute, NULL, 0},
    {"Fingerprint", "CPU", NULL, NULL, NULL, fingerprint_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_string_hash = {defs, (int)(sizeof defs / sizeof defs[0])};
