/*
 * op_registry.h — op definitions (TF's OpDef) and shape functions.
 *
 * Ops are declared in tables of tfc_op_spec written in TF's REGISTER_OP
 * notation (csrc/core/ops_*.c), parsed once into tfc_op_def on first use.
 * Op names, argument order, attr names and defaults are TensorFlow's, so a
 * GraphDef written by TF binds without renaming.
 *
 * Spec syntax (';' separates entries):
 *   inputs/outputs: "x: T; y: T"  "values: N * T"  "ref: Ref(T)"  "shape: int32"
 *                   "data: U"  where U is a list(type) attr
 *   attrs: "T: {float, double, int32}"  "T: type"  "N: int >= 2"
 *          "keep_dims: bool = false"  "padding: {'SAME', 'VALID'}"
 *          "Tidx: {int32, int64} = int32"  "strides: list(int)"
 *          "dilations: list(int) = [1, 1, 1, 1]"  "message: string = ''"
 *          "shape: shape = <unknown>"  "value: tensor"  "dtypes: list(type) >= 1"
 *   Type-set shorthands: numbertype, realnumbertype, quantizedtype are expanded.
 */
#ifndef TFC_CORE_OP_REGISTRY_H
#define TFC_CORE_OP_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "core/attr.h"
#include "core/dtype.h"
#include "core/shape.h"
#include "core/tensor.h"

#define TFC_OP_STATEFUL 0x1u
#define TFC_OP_ALLOWS_UNINIT 0x2u
#define TFC_OP_COMMUTATIVE 0x4u
#define TFC_OP_AGGREGATE 0x8u
#define TFC_OP_FUNCTION 0x10u  /* the signature of a function of a graph's library */

typedef struct tfc_arg_def {
  char *name;
  tfc_dtype type;        /* fixed type, or INVALID when type_attr/type_list_attr is used */
  char *type_attr;       /* name of a `type` attr, or NULL */
  char *number_attr;     /* name of an `int` attr giving the list length, or NULL */
  char *type_list_attr;  /* name of a `list(type)` attr, or NULL */
  bool is_ref;
} tfc_arg_def;

typedef struct tfc_attr_def {
  char *name;
  char *type;               /* "int", "float", "bool", "string", "type", "shape", "tensor",
                               "func", "list(int)", "list(type)", ... */
  bool has_default;
  tfc_attr_value default_value;
  int n_allowed_types;      /* for type / list(type): allowed set (0 = any) */
  tfc_dtype *allowed_types;
  int n_allowed_strings;    /* for string: allowed set (0 = any) */
  char **allowed_strings;
  bool has_minimum;
  int64_t minimum;
} tfc_attr_def;

struct tfc_shape_ctx;
/* A shape function fills ctx->out_shapes; returns false with ctx->st set
 * (INVALID_ARGUMENT) when the inputs cannot be valid. */
typedef bool (*tfc_shape_fn)(struct tfc_shape_ctx *ctx);

typedef struct tfc_op_def {
  char *name;
  int n_inputs;
  tfc_arg_def *inputs;
  int n_outputs;
  tfc_arg_def *outputs;
  int n_attrs;
  tfc_attr_def *attrs;
  unsigned flags;          /* TFC_OP_* */
  tfc_shape_fn shape_fn;   /* NULL: outputs get unknown shape */
} tfc_op_def;

/* The declarative form, as written in csrc/core/ops_*.c tables. */
typedef struct tfc_op_spec {
  const char *name;
  const char *inputs;   /* may be NULL or "" */
  const char *outputs;  /* may be NULL or "" */
  const char *attrs;    /* may be NULL or "" */
  unsigned flags;
  tfc_shape_fn shape_fn;
} tfc_op_spec;

/* Context handed to shape functions. Inputs are flattened (list args expanded). */
typedef struct tfc_shape_ctx {
  const tfc_op_def *def;
  const tfc_attrs *attrs;          /* complete: defaults filled in */
  const char *node_name;
  int n_inputs;
  const tfc_shape *in_shapes;
  const tfc_dtype *in_types;       /* base types */
  tfc_tensor *const *in_values;    /* constant value when known at build time, else NULL */
  int n_outputs;
  tfc_shape *out_shapes;           /* pre-set to unknown */
  tfc_status *st;
  const char *const *in_names;     /* "x", "x:1" per input for messages; may be NULL */
} tfc_shape_ctx;

/* A family's op table (core/ops_<family>.c defines tfc_ops_<family>). */
typedef struct tfc_op_table {
  const tfc_op_spec *specs;
  int n;
} tfc_op_table;

/* Looks up an op by name; NULL when not registered. Thread-safe and lock-free
 * once the op was parsed; the first call indexes the tables by name, and an
 * op's spec is parsed on its first lookup (a bad spec is skipped with a line
 * on stderr, aborts when built with -DTFC_DEBUG, and is reported by
 * tfc_op_registry_check). Returned defs live for the whole process. */
const tfc_op_def *tfc_op_lookup(const char *name);
/* Number of registered ops and access by index (sorted by name); both parse
 * every spec first. */
int tfc_op_count(void);
const tfc_op_def *tfc_op_at(int i);
/* Parses every table; returns false + st naming the bad spec on a syntax error. */
bool tfc_op_registry_check(tfc_status *st);
/* The attr def of `name` in op, or NULL. */
const tfc_attr_def *tfc_op_find_attr(const tfc_op_def *op, const char *name);

/* Registers an extra table (tests, plug-ins). The specs are parsed now and
 * merged into the registry; a bad spec or a name that is already registered
 * fails with INVALID_ARGUMENT / ALREADY_EXISTS and nothing is added. The table
 * must outlive the process (op defs point at nothing in it but shape_fn).
 * Thread-safe; ops already looked up stay valid. */
bool tfc_op_registry_add_table(const tfc_op_table *t, tfc_status *st);
/* Makes sure the built-in tables are indexed. false + RESOURCE_EXHAUSTED when
 * memory ran out (a later call retries). Spec errors do not fail this call:
 * the bad spec is skipped and reported by tfc_op_registry_check. */
bool tfc_op_registry_load(tfc_status *st);

/* Parses one spec into *out (zeroed first). false + INVALID_ARGUMENT naming the
 * op and the reason, or RESOURCE_EXHAUSTED; *out is then left cleared. */
bool tfc_op_spec_parse(const tfc_op_spec *spec, tfc_op_def *out, tfc_status *st);
/* Frees everything a parsed tfc_op_def owns and zeroes it. */
void tfc_op_def_clear(tfc_op_def *def);

/* TF's C++ DataTypeString ("float", "int32", "half", "float_ref"), as used in
 * op-definition error messages and node summaries; "invalid" if unknown. */
const char *tfc_op_dtype_string(tfc_dtype t);
/* Appends TF's summary of a node, "{{node NAME}} = Op[attr=value, ...](in0, in1)",
 * to buf. in_names may be NULL (then inputs are omitted). NUL-terminates
 * within bufsize; never allocates. */
void tfc_op_summarize_node(const tfc_op_def *def, const char *node_name, const tfc_attrs *attrs,
                           int n_inputs, const char *const *in_names, char *buf, int bufsize);

/* Writes TF's summary of an op definition, "Op<name=AddV2; signature=x:T, y:T
 * -> z:T; attr=T:type,allowed=[DT_FLOAT, ...]; is_commutative=true>", into buf
 * (truncated to bufsize, NUL-terminated; never allocates). */
void tfc_op_summarize_def(const tfc_op_def *def, char *buf, int bufsize);

/* Shape-function helpers for op files. */
bool tfc_shape_fn_unchanged(tfc_shape_ctx *ctx);      /* out[0] = in[0] */
bool tfc_shape_fn_broadcast(tfc_shape_ctx *ctx);      /* out[0] = broadcast(in[0], in[1]) */
bool tfc_shape_fn_scalar(tfc_shape_ctx *ctx);         /* every output is a scalar */
bool tfc_shape_fn_none(tfc_shape_ctx *ctx);           /* no outputs / leave unknown */
/* Reads a known 1-D int32/int64 constant input i as a partial shape (-1 entries
 * are unknown dims; a scalar -1 constant means unknown rank and also returns
 * true). Returns false when the value is not known at build time; then *out
 * is the unknown shape (rank from the input's static shape if any). */
bool tfc_shape_from_const_input(tfc_shape_ctx *ctx, int i, tfc_shape *out);
/* Fails ctx with INVALID_ARGUMENT: "<message> for '{{node <name>}} = <Op>[...]'" (TF's form). */
bool tfc_shape_fail(tfc_shape_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes s as TF's shape DebugString ("[2,?]", "[]", "?") into buf (cap >= 1). */
void tfc_shape_debug_string(const tfc_shape *s, char *buf, size_t cap);
/* Merges two dims (-1 unknown) into *out; fails ctx with TF's "Dimensions
 * must be equal, but are A and B" when both are known and differ. */
bool tfc_shape_merge_dim_ctx(tfc_shape_ctx *ctx, int64_t a, int64_t b, int64_t *out);
/* Merges two partial shapes like TF's InferenceContext::Merge into *out. With
 * ctx it fails ctx with TF's messages ("Shapes must be equal rank, ..." /
 * "Dimension i in both shapes must be equal, ..."); with ctx NULL it only
 * returns false. */
bool tfc_shape_merge_ctx(tfc_shape_ctx *ctx, const tfc_shape *a, const tfc_shape *b, tfc_shape *out);
/* Fails ctx unless s has known rank >= min (unknown rank passes). */
bool tfc_shape_rank_at_least(tfc_shape_ctx *ctx, const tfc_shape *s, int min);
/* Fails ctx unless s has rank exactly r (unknown rank passes). */
bool tfc_shape_rank_is(tfc_shape_ctx *ctx, const tfc_shape *s, int r);

#endif
