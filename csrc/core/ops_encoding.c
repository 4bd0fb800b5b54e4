/*
 * ops_encoding.c — op definitions for byte encodings of strings and tensors:
 * EncodeBase64, DecodeBase64 (web-safe alphabet), DecodeCompressed (ZLIB /
 * GZIP), SerializeTensor and ParseTensor (TensorProto bytes), and
 * MatchingFiles (glob patterns). TF's string_ops.cc, parsing_ops.cc, io_ops.cc.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

/* MatchingFiles: one vector of file names. */
static bool shape_fn_vector(tfc_shape_ctx *ctx) {
  ctx->out_shapes[0] = tfc_shape_unknown_dims(1);
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
};

const tfc_op_table tfc_ops_encoding = {specs, (int)(sizeof specs / sizeof specs[0])};
