/*
 * ops_image.c — op definitions for the image and file I/O family: ReadFile,
 * WriteFile, DecodeJpeg, DecodePng, DecodeBmp, DecodeImage, EncodeJpeg,
 * EncodePng, ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic,
 * AdjustContrastv2.
 *
 * Names, attrs, defaults and shape-error messages follow TensorFlow's
 * image_ops.cc and io_ops.cc.
 */
#include <stdio.h>
#include <string.h>

#include "core/op_registry.h"
#include "core/op_tables.h"

/* ---------------------------------------------------------------- shape functions */

/* The int attr `channels` as an output dim (-1 when 0); fails on negatives. */
static bool channels_dim(tfc_shape_ctx *ctx, int64_t *out) {
  int64_t ch = 0;
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "channels");
  if (v && v->kind == TFC_ATTR_I) ch = v->v.i;
  if (ch < 0) return tfc_shape_fail(ctx, "channels must be non-negative, got %lld", (long long)ch);
  *out = ch == 0 ? -1 : ch;
  return true;
}

/* DecodeJpeg/DecodePng/DecodeBmp: scalar contents; image [?, ?, channels]. */
static bool decode_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0)) return false;
  int64_t d[3] = {-1, -1, -1};
  if (!channels_dim(ctx, &d[2])) return false;
  ctx->out_shapes[0] = tfc_shape_make(3, d);
  return true;
}

/* DecodeImage: like decode_shape, but unknown rank when expand_animations
 * (a GIF gives a 4-D batch of frames). */
static bool decode_image_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0)) return false;
  int64_t d[3] = {-1, -1, -1};
  if (!channels_dim(ctx, &d[2])) return false;
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "expand_animations");
  if (v && v->kind == TFC_ATTR_B && v->v.b) return true;
  ctx->out_shapes[0] = tfc_shape_make(3, d);
  return true;
}

/* EncodeJpeg/EncodePng: image of rank 3; contents a scalar. */
static bool encode_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 3)) return false;
  ctx->out_shapes[0] = tfc_shape_scalar();
  return true;
}

/* ReadFile: scalar filename; scalar contents. */
static bool read_file_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0)) return false;
  ctx->out_shapes[0] = tfc_shape_scalar();
  return true;
}

/* WriteFile: scalar filename and contents; no outputs. */
static bool write_file_shape(tfc_shape_ctx *ctx) {
  return tfc_shape_rank_is(ctx, &ctx->in_shapes[0], 0) &&
         tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 0);
}

/* Resize*: images [batch, h, w, c], size an int32 vector of 2; output
 * [batch, size[0], size[1], c] (height/width unknown unless size is constant). */
static bool resize_shape(tfc_shape_ctx *ctx) {
  const tfc_shape *in = &ctx->in_shapes[0], *sz = &ctx->in_shapes[1];
  if (!tfc_shape_rank_is(ctx, in, 4)) return false;
  if (!tfc_shape_rank_is(ctx, sz, 1)) return false;
  if (sz->rank == 1 && sz->dims[0] >= 0 && sz->dims[0] != 2)
    return tfc_shape_fail(ctx, "Dimension must be 2 but is %lld", (long long)sz->dims[0]);
  int64_t d[4] = {-1, -1, -1, -1};
  if (in->rank == 4) {
    d[0] = in->dims[0];
    d[3] = in->dims[3];
  }
  tfc_tensor *v = ctx->in_values ? ctx->in_values[1] : NULL;
  if (v && v->nelems == 2 && (v->dtype == TFC_DTYPE_INT32 || v->dtype == TFC_DTYPE_INT64)) {
    for (int i = 0; i < 2; i++) {
      int64_t x = tfc_tensor_get_int64(v, i);
      if (x < 0)
        return tfc_shape_fail(ctx, "Dimension %d must be non-negative, got %lld", i, (long long)x);
      d[1 + i] = x;
    }
  }
  ctx->out_shapes[0] = tfc_shape_make(4, d);
  return true;
}

/* AdjustContrastv2: images rank >= 3, contrast_factor a scalar. */
static bool adjust_contrast_shape(tfc_shape_ctx *ctx) {
  if (!tfc_shape_rank_at_least(ctx, &ctx->in_shapes[0], 3)) return false;
  if (!tfc_shape_rank_is(ctx, &ctx->in_shapes[1], 0)) return false;
  ctx->out_shapes[0] = ctx->in_shapes[0];
  return true;
}

/* ---------------------------------------------------------------- table */

#define RESIZE_T "T: {int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double}"
#define RESIZE_ATTRS RESIZE_T "; align_corners: bool = false; half_pixel_centers: bool = false"

static const tfc_op_spec specs[] = {
    {"ReadFile", "filename: string", "contents: string", "", 0, read_file_shape},
    {"WriteFile", "filename: string; contents: string", "", "", TFC_OP_STATEFUL, write_file_shape},
    {"DecodeJpeg", "contents: string", "image: uint8",
     "channels: int = 0; ratio: int = 1; fancy_upscaling: bool = true; "
     "try_recover_truncated: bool = false; acceptable_fraction: float = 1; dct_method: string = ''",
     0, decode_shape},
    {"DecodePng", "contents: string", "image: dtype",
     "channels: int = 0; dtype: {uint8, uint16} = uint8", 0, decode_shape},
    {"DecodeBmp", "contents: string", "image: uint8", "channels: int = 0", 0, decode_shape},
    {"DecodeImage", "contents: string", "image: dtype",
     "channels: int = 0; dtype: {uint8, uint16, float} = uint8; expand_animations: bool = true", 0,
     decode_image_shape},
    {"EncodeJpeg", "image: uint8", "contents: string",
     "format: {'', 'grayscale', 'rgb'} = ''; quality: int = 95; progressive: bool = false; "
     "optimize_size: bool = false; chroma_downsampling: bool = true; "
     "density_unit: {'in', 'cm'} = 'in'; x_density: int = 300; y_density: int = 300; "
     "xmp_metadata: string = ''",
     0, encode_shape},
    {"EncodePng", "image: T", "contents: string",
     "compression: int = -1; T: {uint8, uint16} = uint8", 0, encode_shape},
    {"ResizeBilinear", "images: T; size: int32", "resized_images: float", RESIZE_ATTRS, 0,
     resize_shape},
    {"ResizeNearestNeighbor", "images: T; size: int32", "resized_images: T", RESIZE_ATTRS, 0,
     resize_shape},
    {"ResizeBicubic", "images: T; size: int32", "resized_images: float", RESIZE_ATTRS, 0,
     resize_shape},
    {"AdjustContrastv2", "images: T; contrast_factor: float", "output: T",
     "T: {half, float} = float", 0, adjust_contrast_shape},
};

const tfc_op_table tfc_ops_image = {specs, (int)(sizeof specs / sizeof specs[0])};
