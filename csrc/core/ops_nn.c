/*
 * ops_nn.c — op definitions for the NN activation family: Relu, Relu6, Elu,
 * Selu, LeakyRelu, Softplus, Softsign, Softmax, LogSoftmax, BiasAdd(V1),
 * L2Loss, the cross-entropy ops, and the gradients the training milestone
 * needs (ReluGrad, Relu6Grad, EluGrad, SeluGrad, LeakyReluGrad, SoftplusGrad,
 * SoftsignGrad, BiasAddGrad).
 *
 * Names, attrs, defaults and shape-error messages follow TensorFlow's
 * nn_ops.cc and common_shape_fns.cc.
 */
#include <stdio.h>
#include <string.h>

#include "core/op_registry.h"
#include "core/op_tables.h"

/* ---------------------------------------------------------------- helpers */

/* True when the node's data_format attr is "NCHW". */
static bool is_nchw(const tfc_shape_ctx *ctx) {
  return tfc_attrs_string_is(ctx->attrs, "data_format", "NCHW");
}

/* ---------------------------------------------------------------- shape functions */

/* out[0] = merge(in[0], in[1]): the elementwise gradient ops. */
static bool merge_inputs_shape(tfc_shape_ctx *ctx) {
  return tfc_shape_merge_ctx(ctx, &ctx->in_shapes[0], &ctx->in_shapes[1], &ctx->out_shapes[0]);
}

/* Softmax/LogSoftmax: rank >= 1, output like the input. */
static bool softmax_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_at_least(ctx, &ctx->in_shapes[0], 1)) return false;
  ctx->out_shapes[0] = ctx->in_shapes[0];
  return true;
}

/* BiasAdd/BiasAddV1: value rank >= 2 (>= 3 for NCHW), bias a vector whose
 * length merges with the channel dim; output like the value. */
static bool bias_add_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  bool nchw = is_nchw(ctx);
  if (!tfc_shape_rank_at_least(ctx, in, nchw ? 3 : 2)) return false;
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 1)) return false;
  int64_t bias = ctx->in_shapes[1].rank == 1 ? ctx->in_shapes[1].dims[0] : -1;
  if (in->rank < 0) return true;
  tfc_shape out = *in;
  int c = nchw ? 1 : in->rank - 1;
  if (!tfc_shape_merge_dim_ctx(ctx, in->dims[c], bias, &out.dims[c])) return false;
  ctx->out_shapes[0] = out;
  return true;
}

/* BiasAddGrad: a vector of the channel dim. */
static bool bias_add_grad_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  bool nchw = is_nchw(ctx);
  if (!tfc_shape_rank_at_least(ctx, in, nchw ? 3 : 2)) return false;
  int64_t d = in->rank < 0 ? -1 : in->dims[nchw ? 1 : in->rank - 1];
  ctx->out_shapes[0] = tfc_shape_make(1, &d);
  return true;
}

/* SoftmaxCrossEntropyWithLogits: features [batch, classes], labels merged
 * with it or broadcast to rank 2; loss [batch], backprop [batch, classes]. */
static bool xent_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *f = &ctx->in_shapes[0], *l = &ctx->in_shapes[1];
  tfc_shape m;
  if (f->rank == 2 || f->rank < 0) {
    tfc_shape f2 = f->rank < 0 ? tfc_shape_unknown_dims(2) : *f;
    if (tfc_shape_merge_ctx(NULL, &f2, l, &m)) {
      ctx->out_shapes[0] = tfc_shape_make(1, &m.dims[0]);
      ctx->out_shapes[1] = m;
      return true;
    }
  }
  if (f->rank < 0 || l->rank < 0)
    return tfc_shape_fail(ctx, "Shape must be broadcasted with rank 2, but is rank is unknown.");
  int rank = f->rank > l->rank ? f->rank : l->rank;
  tfc_shape b = tfc_shape_unknown_dims(rank);
  for (int i = 0; i < rank; i++) {
    int xi = f->rank - rank + i, yi = l->rank - rank + i;
    int64_t dx = xi >= 0 ? f->dims[xi] : 1, dy = yi >= 0 ? l->dims[yi] : 1, d;
    if (dx == 1) d = dy;
    else if (dy == 1) d = dx;
    else if (dx < 0) d = dy;
    else if (dy < 0) d = dx;
    else if (dx == dy) d = dx;
    else
      return tfc_shape_fail(ctx, "Dimensions must be equal, but are %lld and %lld", (long long)dx,
                            (long long)dy);
    b.dims[i] = d;
  }
  if (rank != 2)
    return tfc_shape_fail(ctx, "Shape must be broadcasted with rank 2, but is rank %d", rank);
  ctx->out_shapes[0] = tfc_shape_make(1, &b.dims[0]);
  ctx->out_shapes[1] = b;
  return true;
}

/* SparseSoftmaxCrossEntropyWithLogits: features [batch, classes], labels
 * [batch]; loss [batch], backprop [batch, classes]. */
static bool sparse_xent_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *f = &ctx->in_shapes[0], *l = &ctx->in_shapes[1];
  if (!tfc_shape_rank_is(ctx, f, 2) || !tfc_shape_rank_is(ctx, l, 1)) return false;
  tfc_shape feat = f->rank < 0 ? tfc_shape_unknown_dims(2) : *f;
  int64_t batch;
  if (!tfc_shape_merge_dim_ctx(ctx, feat.dims[0], l->rank == 1 ? l->dims[0] : -1, &batch)) return false;
  feat.dims[0] = batch;
  ctx->out_shapes[0] = tfc_shape_make(1, &batch);
  ctx->out_shapes[1] = feat;
  return true;
}

/* ---------------------------------------------------------------- table */

#define FLOATS "{half, bfloat16, float, double}"

static const tfc_op_spec specs[] = {
    {"Relu", "features: T", "activations: T", "T: {realnumbertype, qint8}", 0, tfc_shape_fn_unchanged},
    {"Relu6", "features: T", "activations: T", "T: realnumbertype", 0, tfc_shape_fn_unchanged},
    {"Elu", "features: T", "activations: T", "T: " FLOATS, 0, tfc_shape_fn_unchanged},
    {"Selu", "features: T", "activations: T", "T: " FLOATS, 0, tfc_shape_fn_unchanged},
    {"LeakyRelu", "features: T", "activations: T", "alpha: float = 0.2; T: " FLOATS " = float", 0,
     tfc_shape_fn_unchanged},
    {"Softplus", "features: T", "activations: T", "T: " FLOATS, 0, tfc_shape_fn_unchanged},
    {"Softsign", "features: T", "activations: T", "T: " FLOATS, 0, tfc_shape_fn_unchanged},
    {"Softmax", "logits: T", "softmax: T", "T: " FLOATS, 0, softmax_shape},
    {"LogSoftmax", "logits: T", "logsoftmax: T", "T: " FLOATS, 0, softmax_shape},
    {"BiasAdd", "value: T; bias: T", "output: T",
     "T: numbertype; data_format: {'NHWC', 'NCHW'} = 'NHWC'", 0, bias_add_shape},
    {"BiasAddV1", "value: T; bias: T", "output: T", "T: numbertype", 0, bias_add_shape},
    {"L2Loss", "t: T", "output: T", "T: " FLOATS, 0, tfc_shape_fn_scalar},
    {"SoftmaxCrossEntropyWithLogits", "features: T; labels: T", "loss: T; backprop: T",
     "T: " FLOATS, 0, xent_shape},
    {"SparseSoftmaxCrossEntropyWithLogits", "features: T; labels: Tlabels", "loss: T; backprop: T",
     "T: " FLOATS "; Tlabels: {int32, int64} = int64", 0, sparse_xent_shape},
    /* Gradients. */
    {"ReluGrad", "gradients: T; features: T", "backprops: T", "T: realnumbertype", 0,
     merge_inputs_shape},
    {"Relu6Grad", "gradients: T; features: T", "backprops: T", "T: realnumbertype", 0,
     merge_inputs_shape},
    {"EluGrad", "gradients: T; outputs: T", "backprops: T", "T: " FLOATS, 0, merge_inputs_shape},
    {"SeluGrad", "gradients: T; outputs: T", "backprops: T", "T: " FLOATS, 0, merge_inputs_shape},
    {"LeakyReluGrad", "gradients: T; features: T", "backprops: T",
     "alpha: float = 0.2; T: " FLOATS " = float", 0, merge_inputs_shape},
    {"SoftplusGrad", "gradients: T; features: T", "backprops: T", "T: " FLOATS, 0,
     merge_inputs_shape},
    {"SoftsignGrad", "gradients: T; features: T", "backprops: T", "T: " FLOATS, 0,
     merge_inputs_shape},
    {"BiasAddGrad", "out_backprop: T", "output: T",
     "T: numbertype; data_format: {'NHWC', 'NCHW'} = 'NHWC'", 0, bias_add_grad_shape},
};

const tfc_op_table tfc_ops_nn = {specs, (int)(sizeof specs / sizeof specs[0])};
