/*
 * ops_encoding.c — op definitions for byte encodings of strings and tensors:
 * EncodeBase64, DecodeBase64 (web-safe alphabet), DecodeCompressed (ZLIB /
 * GZIP), SerializeTensor and ParseTensor (TensorProto bytes), and
 * MatchingFiles (glob patterns), and SerializeSparse / SerializeManySparse /
 * DeserializeManySparse (sparse tensors as three serialized TensorProtos).
 * TF's string_ops.cc, parsing_ops.cc, io_ops.cc, sparse_ops.cc.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* MatchingFiles: one vector of file names. */
static bool shape_fn_vector(tfc_shape_ctx *ctx) {
  ctx->out_shapes[0] = tfc_shape_unknown_dims(1);
  return true;
}

/* SerializeSparse: a vector of three strings. */
static bool shape_fn_serialize_sparse(tfc_shape_ctx *ctx) {
  int64_t three = 3;
  ctx->out_shapes[0] = tfc_shape_make(1, &three);
  return true;
}

/* SerializeManySparse: one row of three strings per batch entry. */
static bool shape_fn_serialize_many_sparse(tfc_shape_ctx *ctx) {
  int64_t dims[2] = {-1, 3};
  ctx->out_shapes[0] = tfc_shape_make(2, dims);
  return true;
}

/* DeserializeManySparse: indices [?, ?], values [?], shape [?]. */
static bool shape_fn_deserialize_many_sparse(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0];
  if (in->rank >= 0 && (in->rank != 2 || (in->dims[1] >= 0 && in->dims[1] != 3))) {
    return tfc_status_set(ctx->st, TFC_CODE_INVALID_ARGUMENT,
                          "serialized_sparse must be a matrix with 3 columns (rank 2, [?, 3])");
  }
  ctx->out_shapes[0] = tfc_shape_unknown_dims(2);
  ctx->out_shapes[1] = tfc_shape_unknown_dims(1);
  ctx->out_shapes[2] = tfc_shape_unknown_dims(1);
  return true;
}

static const tfc_op_spec specs[] = {
    {"EncodeBase64", "input: string", "output: string", "pad: bool = false", 0,
     tfc_shape_fn_unchanged},
    {"DecodeBase64", "input: string", "output: string", "", 0, tfc_shape_fn_unchanged},
    {"DecodeCompressed", "bytes: string", "output: string", "compression_type: string = ''", 0,
     tfc_shape_fn_unchanged},
    {"SerializeTensor", "tensor: T", "serialized: string", "T: type", 0, tfc_shape_fn_scalar},
    {"ParseTensor", "serialized: string", "output: out_type", "out_type: type", 0,
     tfc_shape_fn_none},
    {"MatchingFiles", "pattern: string", "filenames: string", "", 0, shape_fn_vector},
    {"SerializeSparse", "sparse_indices: int64; sparse_values: T; sparse_shape: int64",
     "serialized_sparse: out_type", "T: type; out_type: {string, variant} = string", 0,
     shape_fn_serialize_sparse},
    {"SerializeManySparse", "sparse_indices: int64; sparse_values: T; sparse_shape: int64",
     "serialized_sparse: out_type", "T: type; out_type: {string, variant} = string", 0,
     shape_fn_serialize_many_sparse},
    {"DeserializeManySparse", "serialized_sparse: string",
     "sparse_indices: int64; sparse_values: dtype; sparse_shape: int64", "dtype: type", 0,
     shape_fn_deserialize_many_sparse},
};

const tfc_op_table tfc_ops_encoding = {specs, (int)(sizeof specs / sizeof specs[0])};
