/*
 * array_copy.c — dtype-agnostic data movement for the array kernels:
 * contiguous copies, fills and the strided-copy engine (see array_internal.h).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/array_internal.h"

const unsigned char arr_zero_element[16] = {0};

/* A 16-byte element (complex128). */
typedef struct e16 {
  uint64_t a, b;
} e16;

/* Writes dims as "[2,3]". */
void arr_dims_str(int rank, const int64_t *dims, char *buf, size_t cap) {
  size_t pos = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < rank && pos < cap; i++)
    pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? "," : "", (long long)dims[i]);
  if (pos < cap) snprintf(buf + pos, cap - pos, "]");
}

/* Element name for error messages (see array_internal.h). */
void arr_element_name(const char *what, const tfc_tensor *t, int64_t k, char *buf, size_t cap) {
  int64_t pos[TFC_MAX_RANK];
  for (int d = t->rank - 1; d >= 0; d--) {
    pos[d] = t->dims[d] ? k % t->dims[d] : 0;
    k = t->dims[d] ? k / t->dims[d] : 0;
  }
  size_t n = (size_t)snprintf(buf, cap, "%s", what);
  if (t->rank == 0 || n >= cap) return;
  n += (size_t)snprintf(buf + n, cap - n, "[");
  for (int d = 0; d < t->rank && n < cap; d++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%lld", d ? "," : "", (long long)pos[d]);
  if (n < cap) snprintf(buf + n, cap - n, "]");
}

/* Row-major strides. */
void arr_strides(int rank, const int64_t *dims, int64_t *strides) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= dims[i];
  }
}

/* Product of dims. */
int64_t arr_num_elements(int rank, const int64_t *dims) {
  int64_t n = 1;
  for (int i = 0; i < rank; i++) n *= dims[i];
  return n;
}

/* Replaces *d with a NUL-terminated copy of *s; false on OOM (d untouched). */
static bool string_assign(tfc_string *d, const tfc_string *s) {
  if (d == s) return true;
  char *p = NULL;
  if (s->len) {
    p = tfc_malloc(s->len + 1);
    if (!p) return false;
    memcpy(p, s->data, s->len);
    p[s->len] = '\0';
  }
  tfc_free(d->data);
  d->data = p;
  d->len = s->len;
  return true;
}

/* Fails ctx with the OOM of a string copy. */
static bool string_oom(tfc_kernel_ctx *ctx) {
  return tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when copying string elements");
}

/* Copies n contiguous elements (see array_internal.h). */
bool arr_copy(tfc_kernel_ctx *ctx, tfc_dtype dt, void *dst, const void *src, int64_t n) {
  if (n <= 0) return true;
  if (dt != TFC_DTYPE_STRING) {
    memmove(dst, src, (size_t)n * tfc_dtype_size(dt));
    return true;
  }
  tfc_string *d = dst;
  const tfc_string *s = src;
  for (int64_t i = 0; i < n; i++)
    if (!string_assign(&d[i], &s[i])) return string_oom(ctx);
  return true;
}

/* Replicates one element n times (see array_internal.h). */
bool arr_fill(tfc_kernel_ctx *ctx, tfc_dtype dt, void *dst, const void *value, int64_t n) {
  if (n <= 0) return true;
  if (dt == TFC_DTYPE_STRING) {
    tfc_string *d = dst;
    tfc_string v = *(const tfc_string *)value; /* value may live inside dst */
    tfc_string copy = {NULL, 0};
    if (!string_assign(&copy, &v)) return string_oom(ctx);
    for (int64_t i = 0; i < n; i++) {
      if (!string_assign(&d[i], &copy)) {
        tfc_free(copy.data);
        return string_oom(ctx);
      }
    }
    tfc_free(copy.data);
    return true;
  }
  size_t es = tfc_dtype_size(dt);
  char *p = dst;
  switch (es) {
    case 1: memset(p, *(const unsigned char *)value, (size_t)n); return true;
    case 4: {
      uint32_t v;
      memcpy(&v, value, 4);
      uint32_t *q = dst;
      for (int64_t i = 0; i < n; i++) q[i] = v;
      return true;
    }
    case 8: {
      uint64_t v;
      memcpy(&v, value, 8);
      uint64_t *q = dst;
      for (int64_t i = 0; i < n; i++) q[i] = v;
      return true;
    }
    default: break;
  }
  memmove(p, value, es);
  size_t done = es, total = (size_t)n * es;
  while (done < total) {
    size_t k = done < total - done ? done : total - done;
    memcpy(p + done, p, k);
    done += k;
  }
  return true;
}

/* Reads a scalar integer argument (see array_internal.h). */
bool arr_scalar_index(tfc_kernel_ctx *ctx, const tfc_tensor *t, const char *what, int64_t *out) {
  *out = 0;
  if (t->nelems != 1 || t->rank > 1 || !tfc_dtype_is_integer(t->dtype)) {
    char s[64];
    arr_dims_str(t->rank, t->dims, s, sizeof s);
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "%s tensor should be a scalar integer, but got shape %s", what, s);
  }
  *out = tfc_tensor_get_int64(t, 0);
  return true;
}

/* ------------------------------------------------------------------ strided copy */

enum { MODE_RUN, MODE_STRIDED, MODE_BLOCK, MODE_FLAT };

typedef struct plan {
  size_t esize;
  bool is_string;
  int rank;
  int64_t dims[ARR_MAX_VRANK], ds[ARR_MAX_VRANK], ss[ARR_MAX_VRANK];
  char *dst;
  const char *src;
  int mode;
  int n_outer_dims;   /* dims iterated by the odometer */
  atomic_bool failed; /* a string copy ran out of memory */
} plan;

/* Copies n elements with element strides (strings deep-copied). */
static bool copy_strided(const plan *p, char *d, int64_t dstride, const char *s, int64_t sstride,
                         int64_t n) {
#define STRIDED_LOOP(T)                                             \
  do {                                                              \
    T *dp = (T *)(void *)d;                                         \
    const T *sp = (const T *)(const void *)s;                       \
    for (int64_t i = 0; i < n; i++) dp[i * dstride] = sp[i * sstride]; \
  } while (0)
  if (p->is_string) {
    tfc_string *dp = (tfc_string *)(void *)d;
    const tfc_string *sp = (const tfc_string *)(const void *)s;
    for (int64_t i = 0; i < n; i++)
      if (!string_assign(&dp[i * dstride], &sp[i * sstride])) return false;
    return true;
  }
  switch (p->esize) {
    case 1: STRIDED_LOOP(uint8_t); break;
    case 2: STRIDED_LOOP(uint16_t); break;
    case 4: STRIDED_LOOP(uint32_t); break;
    case 8: STRIDED_LOOP(uint64_t); break;
    case 16: STRIDED_LOOP(e16); break;
    default:
      for (int64_t i = 0; i < n; i++)
        memcpy(d + i * dstride * (int64_t)p->esize, s + i * sstride * (int64_t)p->esize, p->esize);
  }
#undef STRIDED_LOOP
  return true;
}

/* Copies an R x C tile pattern dst[i*dR + j] = src[i + j*sC] in cache blocks. */
static bool copy_blocked(const plan *p, char *d, const char *s) {
  int64_t R = p->dims[p->rank - 2], C = p->dims[p->rank - 1];
  int64_t dR = p->ds[p->rank - 2], sC = p->ss[p->rank - 1];
  int64_t es = (int64_t)p->esize;
  const int64_t B = p->esize <= 4 ? 32 : 16;
  for (int64_t i0 = 0; i0 < R; i0 += B) {
    int64_t i1 = i0 + B < R ? i0 + B : R;
    for (int64_t j0 = 0; j0 < C; j0 += B) {
      int64_t j1 = j0 + B < C ? j0 + B : C;
      for (int64_t i = i0; i < i1; i++)
        if (!copy_strided(p, d + (i * dR + j0) * es, 1, s + (i + j0 * sC) * es, sC, j1 - j0))
          return false;
    }
  }
  return true;
}

/* Runs the inner part of the plan at element offsets (doff, soff). */
static bool run_inner(const plan *p, int64_t doff, int64_t soff) {
  int64_t es = (int64_t)p->esize;
  char *d = p->dst + doff * es;
  const char *s = p->src + soff * es;
  int last = p->rank - 1;
  switch (p->mode) {
    case MODE_RUN:
      if (!p->is_string) {
        memcpy(d, s, (size_t)(p->dims[last] * es));
        return true;
      }
      return copy_strided(p, d, 1, s, 1, p->dims[last]);
    case MODE_STRIDED: return copy_strided(p, d, p->ds[last], s, p->ss[last], p->dims[last]);
    default: return copy_blocked(p, d, s);
  }
}

/* Shard body: outer indices [begin, end) of the odometer (for MODE_FLAT,
 * elements [begin, end) of one contiguous run). */
static void run_shard(void *arg, int64_t begin, int64_t end) {
  plan *p = arg;
  if (p->mode == MODE_FLAT) {
    int64_t es = (int64_t)p->esize;
    bool ok = true;
    if (!p->is_string) memcpy(p->dst + begin * es, p->src + begin * es, (size_t)((end - begin) * es));
    else ok = copy_strided(p, p->dst + begin * es, 1, p->src + begin * es, 1, end - begin);
    if (!ok) atomic_store(&p->failed, true);
    return;
  }
  int no = p->n_outer_dims;
  int64_t idx[ARR_MAX_VRANK];
  int64_t doff = 0, soff = 0, rem = begin;
  for (int k = no - 1; k >= 0; k--) {
    idx[k] = rem % p->dims[k];
    rem /= p->dims[k];
    doff += idx[k] * p->ds[k];
    soff += idx[k] * p->ss[k];
  }
  for (int64_t it = begin; it < end; it++) {
    if (atomic_load_explicit(&p->failed, memory_order_relaxed)) return;
    if (!run_inner(p, doff, soff)) {
      atomic_store(&p->failed, true);
      return;
    }
    for (int k = no - 1; k >= 0; k--) {
      if (++idx[k] < p->dims[k]) {
        doff += p->ds[k];
        soff += p->ss[k];
        break;
      }
      idx[k] = 0;
      doff -= (p->dims[k] - 1) * p->ds[k];
      soff -= (p->dims[k] - 1) * p->ss[k];
    }
  }
}

/* The strided-copy engine (see array_internal.h). */
bool arr_strided_copy(tfc_kernel_ctx *ctx, tfc_dtype dt, int rank, const int64_t *dims, void *dst,
                      const int64_t *dst_strides, const void *src, const int64_t *src_strides) {
  plan p;
  p.esize = tfc_dtype_size(dt);
  p.is_string = dt == TFC_DTYPE_STRING;
  p.dst = dst;
  p.src = src;
  atomic_init(&p.failed, false);
  /* Drop size-1 dims; an empty dim means nothing to copy. */
  int r = 0;
  for (int k = 0; k < rank; k++) {
    if (dims[k] == 0) return true;
    if (dims[k] == 1) continue;
    /* Merge into the previous dim when the two are jointly contiguous. */
    if (r > 0 && p.ds[r - 1] == dst_strides[k] * dims[k] && p.ss[r - 1] == src_strides[k] * dims[k]) {
      p.dims[r - 1] *= dims[k];
      p.ds[r - 1] = dst_strides[k];
      p.ss[r - 1] = src_strides[k];
      continue;
    }
    p.dims[r] = dims[k];
    p.ds[r] = dst_strides[k];
    p.ss[r] = src_strides[k];
    r++;
  }
  if (r == 0) {
    p.dims[0] = 1;
    p.ds[0] = p.ss[0] = 1;
    r = 1;
  }
  p.rank = r;
  int last = r - 1;
  int64_t inner;
  if (p.ds[last] == 1 && p.ss[last] == 1) {
    p.mode = MODE_RUN;
    p.n_outer_dims = r - 1;
    inner = p.dims[last];
  } else if (r >= 2 && p.ds[last] == 1 && p.ss[last - 1] == 1 && p.dims[last] >= 8 &&
             p.dims[last - 1] >= 8) {
    p.mode = MODE_BLOCK;
    p.n_outer_dims = r - 2;
    inner = p.dims[last] * p.dims[last - 1];
  } else {
    p.mode = MODE_STRIDED;
    p.n_outer_dims = r - 1;
    inner = p.dims[last];
  }
  if (r == 1 && p.mode == MODE_RUN) { /* one contiguous run: shard it by elements */
    p.mode = MODE_FLAT;
    int64_t min_flat = p.is_string ? 1024 : (int64_t)(262144 / p.esize);
    tfc_kernel_parallel_for(ctx, p.dims[0], min_flat, run_shard, &p);
    if (atomic_load(&p.failed)) return string_oom(ctx);
    return true;
  }
  int64_t n_outer = 1;
  for (int k = 0; k < p.n_outer_dims; k++) n_outer *= p.dims[k];
  int64_t min_shard = (p.is_string ? 1024 : 32768) / (inner > 0 ? inner : 1);
  if (min_shard < 1) min_shard = 1;
  tfc_kernel_parallel_for(ctx, n_outer, min_shard, run_shard, &p);
  if (atomic_load(&p.failed)) return string_oom(ctx);
  return true;
}
