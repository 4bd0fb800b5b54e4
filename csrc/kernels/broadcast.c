/*
 * broadcast.c — NumPy/TF broadcasting for elementwise kernels: the collapsed
 * plan, the parallel odometer driver that feeds inner loops, and the
 * gradient-reduction axes of BroadcastGradientArgs.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "kernels/elementwise_internal.h"

/* Builds the collapsed broadcast plan (see elementwise_internal.h). */
bool tfc_ew_plan_make(tfc_ew_plan *p, int n_in, const tfc_tensor *const *ins) {
  int R = 0;
  for (int k = 0; k < n_in; k++)
    if (ins[k]->rank > R) R = ins[k]->rank;
  if (n_in < 1 || n_in > TFC_EW_MAX_IN || R > TFC_MAX_RANK) return false;
  p->n_in = n_in;
  p->out_rank = R;
  p->nelems = 1;
  unsigned masks[TFC_MAX_RANK];
  p->rank = 0;
  for (int d = 0; d < R; d++) {
    int64_t od = 1;
    int64_t kd[TFC_EW_MAX_IN];
    for (int k = 0; k < n_in; k++) {
      int i = d - (R - ins[k]->rank);
      kd[k] = i >= 0 ? ins[k]->dims[i] : 1;
      if (kd[k] == 1) continue;
      if (od == 1) od = kd[k];
      else if (od != kd[k]) return false;
    }
    p->out_dims[d] = od;
    p->nelems *= od;
    if (od == 1) continue;
    unsigned mask = 0;
    for (int k = 0; k < n_in; k++)
      if (kd[k] == 1) mask |= 1u << k;
    if (p->rank > 0 && masks[p->rank - 1] == mask) {
      p->dims[p->rank - 1] *= od;
    } else {
      masks[p->rank] = mask;
      p->dims[p->rank++] = od;
    }
  }
  if (p->rank == 0) {
    p->rank = 1;
    p->dims[0] = 1;
    masks[0] = 0;
  }
  for (int k = 0; k < n_in; k++) {
    int64_t s = 1;
    for (int j = p->rank - 1; j >= 0; j--) {
      if (masks[j] & (1u << k)) {
        p->strides[k][j] = 0;
      } else {
        p->strides[k][j] = s;
        s *= p->dims[j];
      }
    }
  }
  return true;
}

typedef struct run_job {
  const tfc_ew_plan *p;
  const char *in[TFC_EW_MAX_IN];
  size_t in_esz[TFC_EW_MAX_IN];
  int step[TFC_EW_MAX_IN];
  char *out;
  size_t out_esz;
  tfc_ew_inner_fn inner;
  void *arg;
  atomic_int err;
} run_job;

/* Broadcasts with a short innermost dim (a [N, 3] + [3] bias, a [N, 1] column)
 * would pay one loop call per row. Instead, blocks of whole rows (same outer
 * index) run as one contiguous loop of up to BLOCK elements: inputs that are
 * full in the last two dims are read in place, row-broadcast inputs from a
 * tiled copy of their row (built once per distinct row), column-broadcast
 * inputs from a per-block expansion, scalars stay scalars. */
#define SMALL_RUN 64
#define BLOCK 2048
#define MAX_ESZ 16 /* sizeof(tfc_string) */

typedef struct row_blocks {
  const char *tiled_from[TFC_EW_MAX_IN];  /* row the tile buffer holds copies of */
  _Alignas(64) char data[TFC_EW_MAX_IN][BLOCK * MAX_ESZ];
} row_blocks;

/* Writes n copies of the esz-byte element at src to dst. */
static void splat(char *dst, const char *src, size_t esz, int64_t n) {
  switch (esz) {
    case 1: memset(dst, *src, (size_t)n); return;
    case 2: { uint16_t v; memcpy(&v, src, 2); for (int64_t i = 0; i < n; i++) memcpy(dst + 2 * i, &v, 2); return; }
    case 4: { uint32_t v; memcpy(&v, src, 4); for (int64_t i = 0; i < n; i++) memcpy(dst + 4 * i, &v, 4); return; }
    case 8: { uint64_t v; memcpy(&v, src, 8); for (int64_t i = 0; i < n; i++) memcpy(dst + 8 * i, &v, 8); return; }
    default: for (int64_t i = 0; i < n; i++) memcpy(dst + (size_t)i * esz, src, esz);
  }
}

/* Runs `rows` whole rows starting at output element pos (input k's row at
 * element offset off[k]) as one inner call; see row_blocks. */
static int run_rows(run_job *j, row_blocks *rb, const int64_t *off, int64_t pos, int64_t rows) {
  const tfc_ew_plan *p = j->p;
  const int r = p->rank;
  const int64_t last = p->dims[r - 1];
  const char *ptr[TFC_EW_MAX_IN];
  int step[TFC_EW_MAX_IN];
  for (int k = 0; k < p->n_in; k++) {
    size_t esz = j->in_esz[k];
    const char *base = j->in[k] + (size_t)off[k] * esz;
    int64_t s_row = p->strides[k][r - 2], s_col = p->strides[k][r - 1];
    ptr[k] = base;
    step[k] = 1;
    if (s_col == 0 && s_row == 0) {
      step[k] = 0;                       /* scalar over the block */
    } else if (s_col == 0) {             /* column broadcast: expand each value */
      for (int64_t i = 0; i < rows; i++)
        splat(rb->data[k] + (size_t)(i * last) * esz, base + (size_t)(i * s_row) * esz, esz, last);
      ptr[k] = rb->data[k];
    } else if (s_row == 0) {             /* row broadcast: a tile of copies of the row */
      if (rb->tiled_from[k] != base) {
        for (int64_t i = 0; i < BLOCK / last; i++)
          memcpy(rb->data[k] + (size_t)(i * last) * esz, base, (size_t)last * esz);
        rb->tiled_from[k] = base;
      }
      ptr[k] = rb->data[k];
    }                                    /* else full: contiguous in place */
  }
  return j->inner(j->arg, ptr, step, j->out + (size_t)pos * j->out_esz, rows * last);
}

/* Runs output elements [begin, end) of job j: one division-based index setup,
 * then an odometer that hands whole innermost runs to the inner loop (and
 * blocks of short rows to run_rows). */
static void run_shard(void *vj, int64_t begin, int64_t end) {
  run_job *j = vj;
  const tfc_ew_plan *p = j->p;
  const int r = p->rank, nk = p->n_in;
  int64_t idx[TFC_MAX_RANK], off[TFC_EW_MAX_IN] = {0, 0, 0};
  int64_t rem = begin;
  for (int d = r - 1; d >= 0; d--) {
    idx[d] = rem % p->dims[d];
    rem /= p->dims[d];
    for (int k = 0; k < nk; k++) off[k] += idx[d] * p->strides[k][d];
  }
  const int64_t last = p->dims[r - 1];
  bool blocks = r >= 2 && last < SMALL_RUN && end - begin >= 4 * last;
  for (int k = 0; blocks && k < nk; k++) blocks = j->in_esz[k] <= MAX_ESZ;
  row_blocks rb;
  for (int k = 0; k < TFC_EW_MAX_IN; k++) rb.tiled_from[k] = NULL;
  const char *ptr[TFC_EW_MAX_IN];
  int err = 0;
  int64_t pos = begin;
  while (pos < end) {
    int64_t rows = 0;
    if (blocks && idx[r - 1] == 0) {
      rows = p->dims[r - 2] - idx[r - 2];
      if (rows > (end - pos) / last) rows = (end - pos) / last;
      if (rows > BLOCK / last) rows = BLOCK / last;
    }
    int d0;  /* the dim advanced by this step */
    if (rows >= 2) {
      err |= run_rows(j, &rb, off, pos, rows);
      pos += rows * last;
      idx[r - 2] += rows;
      for (int k = 0; k < nk; k++) off[k] += rows * p->strides[k][r - 2];
      d0 = r - 2;
    } else {
      int64_t run = last - idx[r - 1];
      if (run > end - pos) run = end - pos;
      for (int k = 0; k < nk; k++) ptr[k] = j->in[k] + (size_t)off[k] * j->in_esz[k];
      err |= j->inner(j->arg, ptr, j->step, j->out + (size_t)pos * j->out_esz, run);
      pos += run;
      idx[r - 1] += run;
      for (int k = 0; k < nk; k++) off[k] += run * p->strides[k][r - 1];
      d0 = r - 1;
    }
    if (pos >= end) break;
    for (int d = d0; d > 0 && idx[d] == p->dims[d]; d--) {
      idx[d] = 0;
      idx[d - 1]++;
      for (int k = 0; k < nk; k++) off[k] += p->strides[k][d - 1] - p->dims[d] * p->strides[k][d];
    }
  }
  if (err) atomic_fetch_or(&j->err, err);
}

/* Drives inner over the whole plan (see elementwise_internal.h). */
int tfc_ew_plan_run(tfc_kernel_ctx *ctx, const tfc_ew_plan *p, const void *const *in,
                    const size_t *in_esz, void *out, size_t out_esz, int64_t min_shard,
                    tfc_ew_inner_fn inner, void *arg) {
  if (p->nelems <= 0) return TFC_EW_OK;
  run_job j;
  j.p = p;
  for (int k = 0; k < p->n_in; k++) {
    j.in[k] = in[k];
    j.in_esz[k] = in_esz[k];
    j.step[k] = p->strides[k][p->rank - 1] != 0;
  }
  j.out = out;
  j.out_esz = out_esz;
  j.inner = inner;
  j.arg = arg;
  atomic_init(&j.err, 0);
  if (min_shard <= 0 || !ctx) run_shard(&j, 0, p->nelems);
  else tfc_kernel_parallel_for(ctx, p->nelems, min_shard, run_shard, &j);
  return atomic_load(&j.err);
}

/* Writes "[d0,d1,...]" into buf (truncated to bufsize). */
void tfc_ew_dims_string(int rank, const int64_t *dims, char *buf, int bufsize) {
  if (bufsize <= 0) return;
  int len = snprintf(buf, (size_t)bufsize, "[");
  for (int i = 0; i < rank && len < bufsize; i++)
    len += snprintf(buf + len, (size_t)(bufsize - len), "%s%lld", i ? "," : "", (long long)dims[i]);
  if (len < bufsize) snprintf(buf + len, (size_t)(bufsize - len), "]");
}

/* TF's BCast gradient reduction axes (see elementwise_internal.h). */
bool tfc_ew_grad_reduce_axes(const int64_t *a, int na, const int64_t *b, int nb, int64_t *ra,
                             int *nra, int64_t *rb, int *nrb) {
  *nra = *nrb = 0;
  bool same = na == nb;
  for (int i = 0; same && i < na; i++) same = a[i] == b[i];
  if (same) return true;
  int n = na > nb ? na : nb;
  for (int i = 0; i < n; i++) {
    int ia = i - (n - na), ib = i - (n - nb);
    int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da == db) {
      if (da == 1) {
        ra[(*nra)++] = i;
        rb[(*nrb)++] = i;
      }
    } else if (da == 1) {
      ra[(*nra)++] = i;
    } else if (db == 1) {
      rb[(*nrb)++] = i;
    } else {
      return false;
    }
  }
  return true;
}
