/*
 * ops_sparse.c — op definitions for partitioning and stitching rows
 * (DynamicPartition, DynamicStitch, ParallelDynamicStitch: what
 * tf.nn.embedding_lookup uses over sharded parameters) and for sparse
 * tensors in COO form (SparseToDense, SparseTensorDenseMatMul,
 * SparseReorder, SparseSoftmax, SparseSparseMaximum, SparseSparseMinimum,
 * SparseReduceMax, SparseReduceMaxSparse, SparseReduceSumSparse).
 *
 * Names, argument order, attrs and defaults are TensorFlow's
 * (data_flow_ops.cc, sparse_ops.cc), and so are the shape rules.
 */
#include <stdio.h>

#include "core/op_registry.h"
#include "core/op_tables.h"

/* DynamicPartition: partitions.shape is a prefix of data.shape; every output
 * is [?] + data.shape[partitions.rank:]. */
static bool shape_dynamic_partition(tfc_shape_ctx *ctx) {
  const tfc_shape *data = &ctx->in_shapes[0], *part = &ctx->in_shapes[1];
  tfc_shape out = tfc_shape_unknown();
  if (data->rank >= 0 && part->rank >= 0) {
    if (part->rank > data->rank)
      return tfc_shape_fail(ctx, "Shape must be at least rank %d but is rank %d", part->rank,
                            data->rank);
    for (int d = 0; d < part->rank; d++)
      if (data->dims[d] >= 0 && part->dims[d] >= 0 && data->dims[d] != part->dims[d])
        return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld",
                              (long long)data->dims[d], (long long)part->dims[d]);
    out.rank = 1 + data->rank - part->rank;
    out.dims[0] = -1;
    for (int d = part->rank; d < data->rank; d++) out.dims[1 + d - part->rank] = data->dims[d];
  }
  for (int i = 0; i < ctx->n_outputs; i++) ctx->out_shapes[i] = out;
  return true;
}

/* DynamicStitch / ParallelDynamicStitch: [?] + data[0].shape[indices[0].rank:]
 * (the first dimension is max(indices) + 1, known when every index is a constant). */
static bool shape_dynamic_stitch(tfc_shape_ctx *ctx) {
  int n = ctx->n_inputs / 2;
  const tfc_shape *ind = &ctx->in_shapes[0], *data = &ctx->in_shapes[n];
  tfc_shape out = tfc_shape_unknown();
  if (ind->rank >= 0 && data->rank >= 0 && data->rank >= ind->rank) {
    out.rank = 1 + data->rank - ind->rank;
    out.dims[0] = -1;
    for (int d = ind->rank; d < data->rank; d++) out.dims[1 + d - ind->rank] = data->dims[d];
    int64_t max_index = -1;
    bool all_const = true;
    for (int i = 0; i < n && all_const; i++) {
      const tfc_tensor *t = ctx->in_values ? ctx->in_values[i] : NULL;
      if (t == NULL) {
        all_const = false;
        break;
      }
      const int32_t *v = t->data;
      for (int64_t k = 0; k < t->nelems; k++)
        if (v[k] > max_index) max_index = v[k];
    }
    if (all_const) out.dims[0] = max_index + 1;
  }
  ctx->out_shapes[0] = out;
  return true;
}

/* SparseToDense: the output's shape is the value of output_shape when known. */
static bool shape_sparse_to_dense(tfc_shape_ctx *ctx) {
  const tfc_shape *os = &ctx->in_shapes[1];
  const tfc_tensor *v = ctx->in_values ? ctx->in_values[1] : NULL;
  if (os->rank > 1) return tfc_shape_fail(ctx, "Shape must be at most rank 1 but is rank %d", os->rank);
  if (v != NULL && v->nelems <= TFC_MAX_RANK) {
    tfc_shape out;
    out.rank = (int)v->nelems;
    for (int i = 0; i < out.rank; i++)
      out.dims[i] = (int64_t)tfc_tensor_get_double(v, i);
    ctx->out_shapes[0] = out;
  } else if (os->rank == 1 && os->dims[0] >= 0 && os->dims[0] <= TFC_MAX_RANK) {
    ctx->out_shapes[0] = tfc_shape_unknown_dims((int)os->dims[0]);
  }
  return true;
}

/* SparseTensorDenseMatMul: [rows of op(A), columns of op(B)]; A's rows are
 * known only from a constant a_shape. */
static bool shape_sparse_dense_matmul(tfc_shape_ctx *ctx) {
  const tfc_shape *b = &ctx->in_shapes[3];
  const tfc_tensor *ashape = ctx->in_values ? ctx->in_values[2] : NULL;
  const tfc_attr_value *aa = tfc_attrs_find(ctx->attrs, "adjoint_a");
  const tfc_attr_value *ab = tfc_attrs_find(ctx->attrs, "adjoint_b");
  bool adj_a = aa && aa->kind == TFC_ATTR_B && aa->v.b;
  bool adj_b = ab && ab->kind == TFC_ATTR_B && ab->v.b;
  if (b->rank >= 0 && b->rank != 2)
    return tfc_shape_fail(ctx, "Shape must be rank 2 but is rank %d", b->rank);
  tfc_shape out = tfc_shape_unknown_dims(2);
  if (b->rank == 2) out.dims[1] = b->dims[adj_b ? 0 : 1];
  if (ashape != NULL && ashape->nelems == 2) {
    int64_t r = (int64_t)tfc_tensor_get_double(ashape, 0), c = (int64_t)tfc_tensor_get_double(ashape, 1);
    out.dims[0] = adj_a ? c : r;
    int64_t inner = adj_a ? r : c;
    int64_t binner = b->rank == 2 ? b->dims[adj_b ? 1 : 0] : -1;
    if (binner >= 0 && inner != binner)
      return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld",
                            (long long)inner, (long long)binner);
  }
  ctx->out_shapes[0] = out;
  return true;
}

/* SparseSoftmax: indices a matrix, values and shape vectors; the output has
 * the values' shape. */
static bool shape_sparse_softmax(tfc_shape_ctx *ctx) {
  const int want[3] = {2, 1, 1};
  for (int i = 0; i < 3; i++) {
    int r = ctx->in_shapes[i].rank;
    if (r >= 0 && r != want[i])
      return tfc_shape_fail(ctx, "Shape must be rank %d but is rank %d", want[i], r);
  }
  ctx->out_shapes[0] = ctx->in_shapes[1];
  return true;
}

/* SparseSparseMaximum/Minimum: [?, rank] indices and [?] values. */
static bool shape_sparse_sparse_minmax(tfc_shape_ctx *ctx) {
  const int want[6] = {2, 1, 1, 2, 1, 1};
  for (int i = 0; i < 6; i++) {
    int r = ctx->in_shapes[i].rank;
    if (r >= 0 && r != want[i])
      return tfc_shape_fail(ctx, "Shape must be rank %d but is rank %d", want[i], r);
  }
  tfc_shape ind = tfc_shape_unknown(), vals = tfc_shape_unknown();
  ind.rank = 2;
  ind.dims[0] = -1;
  ind.dims[1] = ctx->in_shapes[0].rank == 2 ? ctx->in_shapes[0].dims[1] : -1;
  vals.rank = 1;
  vals.dims[0] = -1;
  ctx->out_shapes[0] = ind;
  ctx->out_shapes[1] = vals;
  return true;
}

/* SparseReduce*: indices a matrix, values and shape vectors, axes a scalar
 * or vector. Dense result: unknown shape. Sparse results: [?, ?] indices,
 * [?] values, [?] shape. */
static bool check_sparse_reduce_inputs(tfc_shape_ctx *ctx) {
  const int want[3] = {2, 1, 1};
  for (int i = 0; i < 3; i++) {
    int r = ctx->in_shapes[i].rank;
    if (r >= 0 && r != want[i])
      return tfc_shape_fail(ctx, "Shape must be rank %d but is rank %d", want[i], r);
  }
  if (ctx->in_shapes[3].rank > 1)
    return tfc_shape_fail(ctx, "Shape must be at most rank 1 but is rank %d",
                          ctx->in_shapes[3].rank);
  return true;
}

/* SparseReduceMax: the dense result's shape is known only at run time. */
static bool shape_sparse_reduce_dense(tfc_shape_ctx *ctx) {
  if (!check_sparse_reduce_inputs(ctx)) return false;
  ctx->out_shapes[0] = tfc_shape_unknown();
  return true;
}

/* SparseReduce*Sparse: a sparse result of unknown size. */
static bool shape_sparse_reduce_sparse(tfc_shape_ctx *ctx) {
  if (!check_sparse_reduce_inputs(ctx)) return false;
  tfc_shape ind = tfc_shape_unknown(), vec = tfc_shape_unknown();
  ind.rank = 2;
  ind.dims[0] = ind.dims[1] = -1;
  vec.rank = 1;
  vec.dims[0] = -1;
  ctx->out_shapes[0] = ind;
  ctx->out_shapes[1] = vec;
  ctx->out_shapes[2] = vec;
  return true;
}

/* SparseReorder: the outputs have the inputs' shapes. */
static bool shape_sparse_reorder(tfc_shape_ctx *ctx) {
  ctx->out_shapes[0] = ctx->in_shapes[0];
  ctx->out_shapes[1] = ctx->in_shapes[1];
  return true;
}

/* AddSparseToTensorsMap: a scalar handle. */
static bool shape_add_sparse_map(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 2) || !tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 1) ||
      !tfc_shape_rank_is(ctx, &ctx->in_shapes[2], 1))
    return false;
  ctx->out_shapes[0] = tfc_shape_make(0, NULL);
  return true;
}

/* AddManySparseToTensorsMap: one handle per row of the first dimension. */
static bool shape_add_many_sparse_map(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 2) || !tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 1) ||
      !tfc_shape_rank_is(ctx, &ctx->in_shapes[2], 1))
    return false;
  ctx->out_shapes[0] = tfc_shape_unknown_dims(1);
  return true;
}

/* TakeManySparseFromTensorsMap: a vector of handles in, a sparse triple out. */
static bool shape_take_many_sparse_map(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 1)) return false;
  ctx->out_shapes[0] = tfc_shape_unknown_dims(2);
  ctx->out_shapes[1] = tfc_shape_unknown_dims(1);
  ctx->out_shapes[2] = tfc_shape_unknown_dims(1);
  return true;
}

static const tfc_op_spec specs[] = {
    {"DynamicPartition", "data: T; partitions: int32", "outputs: num_partitions * T",
     "num_partitions: int >= 1; T: type", 0, shape_dynamic_partition},
    {"DynamicStitch", "indices: N * int32; data: N * T", "merged: T", "N: int >= 1; T: type", 0,
     shape_dynamic_stitch},
    {"ParallelDynamicStitch", "indices: N * int32; data: N * T", "merged: T",
     "N: int >= 1; T: type", 0, shape_dynamic_stitch},
    {"SparseToDense",
     "sparse_indices: Tindices; output_shape: Tindices; sparse_values: T; default_value: T",
     "dense: T", "validate_indices: bool = true; T: type; Tindices: {int32, int64}", 0,
     shape_sparse_to_dense},
    {"SparseTensorDenseMatMul", "a_indices: Tindices; a_values: T; a_shape: int64; b: T",
     "product: T",
     "T: type; Tindices: {int32, int64} = int64; adjoint_a: bool = false; adjoint_b: bool = false",
     0, shape_sparse_dense_matmul},
    {"AddSparseToTensorsMap", "sparse_indices: int64; sparse_values: T; sparse_shape: int64",
     "sparse_handle: int64", "T: type; container: string = ''; shared_name: string = ''",
     TFC_OP_STATEFUL, shape_add_sparse_map},
    {"AddManySparseToTensorsMap", "sparse_indices: int64; sparse_values: T; sparse_shape: int64",
     "sparse_handles: int64", "T: type; container: string = ''; shared_name: string = ''",
     TFC_OP_STATEFUL, shape_add_many_sparse_map},
    {"TakeManySparseFromTensorsMap", "sparse_handles: int64",
     "sparse_indices: int64; sparse_values: dtype; sparse_shape: int64",
     "dtype: type; container: string = ''; shared_name: string = ''", TFC_OP_STATEFUL,
     shape_take_many_sparse_map},
    {"SparseReorder", "input_indices: int64; input_values: T; input_shape: int64",
     "output_indices: int64; output_values: T", "T: type", 0, shape_sparse_reorder},
    {"SparseSoftmax", "sp_indices: int64; sp_values: T; sp_shape: int64", "output: T",
     "T: {half, float, double}", 0, shape_sparse_softmax},
    {"SparseSparseMaximum",
     "a_indices: int64; a_values: T; a_shape: int64; b_indices: int64; b_values: T; "
     "b_shape: int64",
     "output_indices: int64; output_values: T", "T: realnumbertype", 0,
     shape_sparse_sparse_minmax},
    {"SparseSparseMinimum",
     "a_indices: int64; a_values: T; a_shape: int64; b_indices: int64; b_values: T; "
     "b_shape: int64",
     "output_indices: int64; output_values: T", "T: realnumbertype", 0,
     shape_sparse_sparse_minmax},
    {"SparseReduceMax",
     "input_indices: int64; input_values: T; input_shape: int64; reduction_axes: int32",
     "output: T", "keep_dims: bool = false; T: realnumbertype", 0, shape_sparse_reduce_dense},
    {"SparseReduceMaxSparse",
     "input_indices: int64; input_values: T; input_shape: int64; reduction_axes: int32",
     "output_indices: int64; output_values: T; output_shape: int64",
     "keep_dims: bool = false; T: realnumbertype", 0, shape_sparse_reduce_sparse},
    {"SparseReduceSumSparse",
     "input_indices: int64; input_values: T; input_shape: int64; reduction_axes: int32",
     "output_indices: int64; output_values: T; output_shape: int64",
     "keep_dims: bool = false; T: numbertype", 0, shape_sparse_reduce_sparse},
};

const tfc_op_table tfc_ops_sparse = {specs, (int)(sizeof specs / sizeof specs[0])};
