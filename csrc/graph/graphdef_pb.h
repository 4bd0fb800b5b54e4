/*
 * graphdef_pb.h — private header of tfc's protobuf codec files (graphdef.c,
 * tensor_proto.c and graphdef_pb.c, and io/bundle_codec.c for checkpoint
 * index entries): the protobuf-c generated message types for
 * proto/<name>.proto, plus the glue every codec file shares.
 *
 * This is the only header that includes protobuf-c. Public headers
 * (graphdef.h, tensor_proto.h) speak bytes and tfc types only, so the rest
 * of tfc never sees a generated type. The generated sources live in the
 * build tree (build/gen, made by protoc-c from proto/<name>.proto) and are
 * compiled as one unit by graphdef_pb.c.
 *
 * Decoding untrusted bytes: tfc_pb_unpack first walks the wire format and
 * rejects nesting deeper than TFC_PB_MAX_DEPTH (protobuf-c itself recurses
 * without a limit) and `string` fields holding a NUL byte (protobuf-c would
 * truncate them), then unpacks with tfc's allocation funnel; blocks of
 * 4 KiB and more are laid out so that a tensor can adopt a large
 * tensor_content instead of copying it (tfc_pb_bytes_block).
 * Encoding: messages built for packing get their storage from a tfc_pb_arena,
 * freed in one call once the bytes are written.
 */
#ifndef TFC_GRAPH_GRAPHDEF_PB_H
#define TFC_GRAPH_GRAPHDEF_PB_H

#include <stdbool.h>
#include <stddef.h>

#include <protobuf-c/protobuf-c.h>

#include "attr_value.pb-c.h"
#include "function.pb-c.h"
#include "graph.pb-c.h"
#include "node_def.pb-c.h"
#include "tensor.pb-c.h"
#include "tensor_shape.pb-c.h"
#include "versions.pb-c.h"

#include "base/status.h"
#include "core/attr.h"
#include "core/op_registry.h"
#include "core/shape.h"
#include "core/tensor.h"

/* Deepest message nesting accepted when decoding (as protobuf's C++ default). */
#define TFC_PB_MAX_DEPTH 100

/* The protobuf-c allocator that routes through base/alloc.h. */
extern ProtobufCAllocator tfc_pb_allocator;

/* The block holding a bytes field of a message from tfc_pb_unpack, when it
 * is one a tensor can adopt: from tfc_aligned_alloc(TFC_ALIGN + b->len), the
 * bytes at block + TFC_ALIGN (see tfc_tensor_adopt). NULL for fields below
 * the size protobuf-c's blocks switch to that layout (4 KiB), empty fields,
 * and blocks made otherwise. Whoever adopts the block must then set the
 * field to {0, NULL}, so protobuf_c_message_free_unpacked does not free it. */
void *tfc_pb_bytes_block(const ProtobufCBinaryData *b);

/* Unpacks `len` bytes as a message of type `desc` using tfc_pb_allocator.
 * Returns NULL with st set: INVALID_ARGUMENT "Invalid <what>: ..." when the
 * bytes are not a valid message, nest too deeply or hold a NUL byte in a
 * string field, RESOURCE_EXHAUSTED when
 * memory runs out. Free the result with protobuf_c_message_free_unpacked(m,
 * &tfc_pb_allocator). */
ProtobufCMessage *tfc_pb_unpack(const ProtobufCMessageDescriptor *desc, const void *data,
                                size_t len, const char *what, tfc_status *st);

/* A length-delimited field given as bytes, appended after a packed message. */
typedef struct tfc_pb_field {
  unsigned number;
  const void *data;
  size_t len;
} tfc_pb_field;

/* Serializes m into a new tfc_malloc'd buffer (*data, *len; free with
 * tfc_free), followed by the n_extra fields in `extra` (wire-format merging:
 * each reads as that field of m, e.g. GraphDef.library kept as bytes; list
 * them after m's own fields in number order to keep the output canonical).
 * false + RESOURCE_EXHAUSTED on OOM. */
bool tfc_pb_pack(const ProtobufCMessage *m, const tfc_pb_field *extra, int n_extra, void **data,
                 size_t *len, tfc_status *st);

/* A bump allocator for building messages: blocks from tfc_malloc, freed all
 * at once. Zero-initialise with tfc_pb_arena_init. */
typedef struct tfc_pb_arena {
  struct tfc_pb_block *head;
  size_t used;   /* bytes used in head */
  size_t cap;    /* bytes available in head */
} tfc_pb_arena;

/* Empty arena (no allocation). */
void tfc_pb_arena_init(tfc_pb_arena *a);
/* n zeroed bytes aligned for any type, or NULL on OOM. n == 0 gives a valid pointer. */
void *tfc_pb_arena_alloc(tfc_pb_arena *a, size_t n);
/* n * size zeroed bytes (overflow-checked), or NULL. */
void *tfc_pb_arena_calloc(tfc_pb_arena *a, size_t n, size_t size);
/* A NUL-terminated copy of (s, len) in the arena, or NULL. */
char *tfc_pb_arena_strndup(tfc_pb_arena *a, const char *s, size_t len);
/* Frees every block. The arena is empty (reusable) afterwards. */
void tfc_pb_arena_free(tfc_pb_arena *a);

/* Rewrites TF 2.x resource-variable ops of gd onto ref-variable ops in place
 * (resource_rewrite.c); g (may be NULL) resolves handles imported before.
 * false + st on OOM or an unresolvable VarIsInitializedOp. */
struct tfc_graph;
bool tfc_pb_rewrite_resource_variables(Tensorflow__GraphDef *gd, struct tfc_graph *g, tfc_status *st);

/* ---- NodeDef helpers shared with function bodies (implemented in graphdef.c) ---- */

/* Number of tensors bound to arg `a` of `op` by NodeDef nd: 1 for a plain
 * arg, else the number_attr value or the type_list_attr length (from nd or
 * the attr's default); -1 when missing or malformed. */
int tfc_pb_arg_count(const tfc_op_def *op, const tfc_arg_def *a, const Tensorflow__NodeDef *nd);
/* Fills *out (initialised here) with v; storage from the arena, strings and
 * tensor data borrowed from v. false on OOM. */
bool tfc_pb_attr_from_tfc(const tfc_attr_value *v, tfc_pb_arena *a, Tensorflow__AttrValue *out,
                          tfc_status *st);
/* Converts an AttrValue message into *out (node/attr name the errors). */
bool tfc_pb_attr_to_tfc(Tensorflow__AttrValue *v, const char *node, const char *attr,
                        tfc_attr_value *out, tfc_status *st);

/* ---- TensorProto / TensorShapeProto <-> tfc (implemented in tensor_proto.c) ---- */

/* How tfc_tensor_to_pb lays out values. */
typedef enum tfc_tensor_pb_layout {
  /* As Python's make_tensor_proto: tensor_content for non-string tensors of
   * more than one element, the typed *_val field otherwise (0 or 1 element),
   * string_val for strings. What GraphDef Const values use. */
  TFC_TENSOR_PB_COMPACT = 0,
  /* As TF's AsProtoTensorContent: always tensor_content, strings as varint
   * lengths followed by the bytes. What TF's runtime sends over the wire. */
  TFC_TENSOR_PB_CONTENT = 1
} tfc_tensor_pb_layout;

/* Decodes a TensorProto message into a new tensor (TF's rules: tensor_content
 * when non-empty, else the dtype's typed field with the last value repeated,
 * zeros when that field is empty). NULL + INVALID_ARGUMENT "Invalid
 * TensorProto: ..." or RESOURCE_EXHAUSTED. */
tfc_tensor *tfc_tensor_from_pb(const Tensorflow__TensorProto *p, tfc_status *st);
/* Same for a message from tfc_pb_unpack that is decoded once and then freed:
 * a numeric tensor_content of 4 KiB or more becomes the tensor's buffer
 * (tfc_pb_bytes_block) instead of being copied, and the field is left empty,
 * so p no longer describes the tensor. Errors as tfc_tensor_from_pb. */
tfc_tensor *tfc_tensor_from_pb_take(Tensorflow__TensorProto *p, tfc_status *st);
/* Fills *p (which the function initialises) to describe t. Storage comes from
 * `arena`; numeric tensor_content and string bytes borrow t's memory, so t
 * and the arena must outlive every use of *p. false + RESOURCE_EXHAUSTED. */
bool tfc_tensor_to_pb(const tfc_tensor *t, tfc_tensor_pb_layout layout, tfc_pb_arena *arena,
                      Tensorflow__TensorProto *p, tfc_status *st);
/* A TensorShapeProto as a partial shape (unknown_rank -> rank -1, size -1 ->
 * unknown dim; NULL -> scalar). false + INVALID_ARGUMENT for dims < -1 or a
 * rank above TFC_MAX_RANK. */
bool tfc_shape_from_pb(const Tensorflow__TensorShapeProto *p, tfc_shape *out, tfc_status *st);
/* A new TensorShapeProto in `arena` describing s, or NULL on OOM. */
Tensorflow__TensorShapeProto *tfc_shape_to_pb(const tfc_shape *s, tfc_pb_arena *arena);

#endif
