/*
 * sparse_serialize.c — CPU kernels SerializeSparse, SerializeManySparse and
 * DeserializeManySparse (core/ops_encoding.c). A sparse tensor travels as
 * three serialized TensorProtos (indices, values, dense shape), each in TF's
 * tensor_content layout; SerializeManySparse writes one such triple per entry
 * of the first dimension (indices and shape without that dimension), and
 * DeserializeManySparse stacks triples back into one sparse tensor with a new
 * leading dimension. Errors use TF's messages.
 */
#include <string.h>

#include "base/alloc.h"
#include "graph/tensor_proto.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* TF's C++ name of a dtype in messages (DataTypeString: "float", "double", ...). */
static const char *tf_type_name(tfc_dtype t) {
  switch (t) {
    case TFC_DTYPE_FLOAT: return "float";
    case TFC_DTYPE_DOUBLE: return "double";
    case TFC_DTYPE_HALF: return "half";
    default: return tfc_dtype_name(t);
  }
}

/* Checks the three inputs of a Serialize*Sparse op; false with ctx failed. */
static bool check_sparse_inputs(tfc_kernel_ctx *ctx, int64_t *n, int64_t *rank) {
  const tfc_tensor *ind = ctx->inputs[0], *val = ctx->inputs[1], *shp = ctx->inputs[2];
  tfc_dtype out_type;
  if (!tfc_attrs_get_type(ctx->attrs, "out_type", &out_type, ctx->st)) return false;
  if (out_type != TFC_DTYPE_STRING)
    return tfc_kernel_fail(ctx, TFC_CODE_UNIMPLEMENTED,
                           "%s: only out_type=string is supported", ctx->op_type);
  if (ind->rank != 2)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input indices should be a matrix but received shape of rank %d",
                           ind->rank);
  if (val->rank != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input values should be a vector but received shape of rank %d",
                           val->rank);
  if (shp->rank != 1)
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Input shape should be a vector but received shape of rank %d",
                           shp->rank);
  if (ind->dims[0] != val->dims[0] || ind->dims[1] != shp->dims[0])
    return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "indices, values and shape do not describe one sparse tensor: "
                           "indices [%lld,%lld], values [%lld], shape [%lld]",
                           (long long)ind->dims[0], (long long)ind->dims[1],
                           (long long)val->dims[0], (long long)shp->dims[0]);
  *n = ind->dims[0];
  *rank = ind->dims[1];
  return true;
}

/* Stores the TensorProto bytes of t as element i of the string tensor out. */
static bool put_proto(tfc_kernel_ctx *ctx, const tfc_tensor *t, tfc_tensor *out, int64_t i) {
  void *data = NULL;
  size_t len = 0;
  if (!tfc_tensor_to_proto_content(t, &data, &len, ctx->st)) return false;
  bool ok = tfc_tensor_set_string(out, i, data, len, ctx->st);
  tfc_free(data);
  return ok;
}

/* SerializeSparse: the triple of the whole sparse tensor. */
static void serialize_sparse_compute(tfc_kernel_ctx *ctx) {
  int64_t n = 0, rank = 0, three = 3;
  if (!check_sparse_inputs(ctx, &n, &rank)) return;
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 1, &three);
  if (!out) return;
  for (int i = 0; i < 3; i++)
    if (!put_proto(ctx, ctx->inputs[i], out, i)) return;
}

/* Copies elements of src listed in rows[0, k) (each `width` elements wide, from column
 * `skip` on) into a new tensor of shape [k, width - skip] (or [k] when vector). */
static tfc_tensor *gather_rows(const tfc_tensor *src, const int64_t *rows, int64_t k, int64_t width,
                               int64_t skip, bool vector, tfc_status *st) {
  int64_t dims[2] = {k, width - skip};
  tfc_tensor *t = tfc_tensor_new(src->dtype, vector ? 1 : 2, dims, st);
  if (!t) return NULL;
  size_t es = tfc_dtype_size(src->dtype);
  for (int64_t r = 0; r < k; r++) {
    for (int64_t c = skip; c < width; c++) {
      int64_t from = rows[r] * width + c, to = r * (width - skip) + (c - skip);
      if (src->dtype == TFC_DTYPE_STRING) {
        const tfc_string *s = &((const tfc_string *)src->data)[from];
        if (!tfc_tensor_set_string(t, to, s->data, s->len, st)) {
          tfc_tensor_unref(t);
          return NULL;
        }
      } else {
        memcpy((char *)t->data + (size_t)to * es, (const char *)src->data + (size_t)from * es, es);
      }
    }
  }
  return t;
}

/* SerializeManySparse: one triple per entry of the first dimension. */
static void serialize_many_sparse_compute(tfc_kernel_ctx *ctx) {
  int64_t n = 0, rank = 0;
  if (!check_sparse_inputs(ctx, &n, &rank)) return;
  if (rank < 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Rank of input SparseTensor should be > 1");
    return;
  }
  const tfc_tensor *ind = ctx->inputs[0], *val = ctx->inputs[1], *shp = ctx->inputs[2];
  const int64_t *idx = ind->data, *dense = shp->data;
  int64_t rows = dense[0];
  for (int64_t e = 0; e < n; e++) {
    if (idx[e * rank] < 0 || idx[e * rank] >= rows) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                      "Index %lld of the first dimension is out of range [0, %lld)",
                      (long long)idx[e * rank], (long long)rows);
      return;
    }
  }
  int64_t odims[2] = {rows, 3};
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 2, odims);
  if (!out) return;
  int64_t *picked = tfc_malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  if (!picked) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  int64_t sub_rank = rank - 1;
  tfc_tensor *row_shape = tfc_tensor_new(TFC_DTYPE_INT64, 1, &sub_rank, ctx->st);
  if (row_shape) memcpy(row_shape->data, dense + 1, sizeof(int64_t) * (size_t)sub_rank);
  for (int64_t r = 0; row_shape && r < rows; r++) {
    int64_t k = 0;
    for (int64_t e = 0; e < n; e++)
      if (idx[e * rank] == r) picked[k++] = e;
    tfc_tensor *ri = gather_rows(ind, picked, k, rank, 1, false, ctx->st);
    tfc_tensor *rv = ri ? gather_rows(val, picked, k, 1, 0, true, ctx->st) : NULL;
    bool ok = rv && put_proto(ctx, ri, out, r * 3) && put_proto(ctx, rv, out, r * 3 + 1) &&
              put_proto(ctx, row_shape, out, r * 3 + 2);
    if (ri) tfc_tensor_unref(ri);
    if (rv) tfc_tensor_unref(rv);
    if (!ok) break;
  }
  if (row_shape) tfc_tensor_unref(row_shape);
  tfc_free(picked);
}

/* DeserializeManySparse: parses each triple and stacks them along a new first dimension. */
static void deserialize_many_sparse_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  if (in->rank != 2 || in->dims[1] != 3) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Serialized sparse should be a matrix with 3 columns (rank 2, [?, 3])");
    return;
  }
  tfc_dtype want;
  if (!tfc_attrs_get_type(ctx->attrs, "dtype", &want, ctx->st)) return;
  int64_t rows = in->dims[0];
  tfc_tensor **parts = tfc_calloc((size_t)(rows > 0 ? rows : 1) * 3, sizeof *parts);
  if (!parts) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  const tfc_string *s = in->data;
  int64_t rank = -1, total = 0;
  int64_t max_dims[TFC_MAX_RANK] = {0};
  bool ok = true;
  for (int64_t r = 0; r < rows && ok; r++) {
    for (int c = 0; c < 3 && ok; c++) {
      const tfc_string *e = &s[r * 3 + c];
      parts[r * 3 + c] = tfc_tensor_from_proto(e->data ? e->data : "", e->len, ctx->st);
      if (!parts[r * 3 + c]) ok = false;
    }
    if (!ok) break;
    tfc_tensor *pi = parts[r * 3], *pv = parts[r * 3 + 1], *ps = parts[r * 3 + 2];
    if (pv->dtype != want) {
      ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Requested SparseTensor of type %s but SparseTensor[%lld].values.dtype() "
                           "== %s", tf_type_name(want), (long long)r, tf_type_name(pv->dtype));
      break;
    }
    if (pi->dtype != TFC_DTYPE_INT64 || ps->dtype != TFC_DTYPE_INT64 || pi->rank != 2 ||
        pv->rank != 1 || ps->rank != 1 || pi->dims[0] != pv->dims[0] ||
        pi->dims[1] != ps->dims[0] || ps->dims[0] + 1 > TFC_MAX_RANK) {
      ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "SparseTensor[%lld] is not a valid (indices, values, shape) triple",
                           (long long)r);
      break;
    }
    if (rank < 0) {
      rank = ps->dims[0];
    } else if (ps->dims[0] != rank) {
      ok = tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                           "Inconsistent shape across SparseTensors: rank prior to "
                           "SparseTensor[%lld] was: %lld but rank of SparseTensor[%lld] is: %lld",
                           (long long)r, (long long)rank, (long long)r,
                           (long long)ps->dims[0]);
      break;
    }
    const int64_t *sd = ps->data;
    for (int64_t d = 0; d < rank; d++)
      if (sd[d] > max_dims[d]) max_dims[d] = sd[d];
    total += pv->dims[0];
  }
  if (ok) {
    if (rank < 0) rank = 0;
    int64_t idims[2] = {total, rank + 1}, shape_len = rank + 1;
    tfc_tensor *oi = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_INT64, 2, idims);
    tfc_tensor *ov = oi ? tfc_kernel_alloc_output(ctx, 1, want, 1, &total) : NULL;
    tfc_tensor *os = ov ? tfc_kernel_alloc_output(ctx, 2, TFC_DTYPE_INT64, 1, &shape_len) : NULL;
    if (os) {
      int64_t *shape = os->data, *oidx = oi->data, at = 0;
      shape[0] = rows;
      for (int64_t d = 0; d < rank; d++) shape[d + 1] = max_dims[d];
      size_t es = tfc_dtype_size(want);
      for (int64_t r = 0; r < rows && ok; r++) {
        const tfc_tensor *pi = parts[r * 3], *pv = parts[r * 3 + 1];
        const int64_t *src = pi->data;
        for (int64_t e = 0; e < pv->dims[0] && ok; e++, at++) {
          oidx[at * (rank + 1)] = r;
          memcpy(&oidx[at * (rank + 1) + 1], &src[e * rank], sizeof(int64_t) * (size_t)rank);
          if (want == TFC_DTYPE_STRING) {
            const tfc_string *v = &((const tfc_string *)pv->data)[e];
            ok = tfc_tensor_set_string(ov, at, v->data, v->len, ctx->st);
          } else {
            memcpy((char *)ov->data + (size_t)at * es, (const char *)pv->data + (size_t)e * es, es);
          }
        }
      }
    }
  }
  for (int64_t k = 0; k < rows * 3; k++)
    if (parts[k]) tfc_tensor_unref(parts[k]);
  tfc_free(parts);
}

static const tfc_kernel_def defs[] = {
    {"SerializeSparse", "CPU", NULL, NULL, NULL, serialize_sparse_compute, NULL, 0},
    {"SerializeManySparse", "CPU", NULL, NULL, NULL, serialize_many_sparse_compute, NULL, 0},
    {"DeserializeManySparse", "CPU", NULL, NULL, NULL, deserialize_many_sparse_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_sparse_serialize = {defs, (int)(sizeof defs / sizeof defs[0])};
