/*
 * elementwise_internal.h — private interface of the elementwise kernel family
 * (kernels/elementwise*.c, kernels/broadcast.c, kernels/cast.c).
 *
 * The family is built from three layers:
 *  - typed inner loops: one function per op that switches on the dtype and
 *    runs a simple, vectorisable loop over n contiguous elements (inputs may be
 *    a single broadcast scalar, see TFC_EW_VV/SV/VS); half and bfloat16 run
 *    through the float loop in stack-sized chunks;
 *  - a broadcast plan (broadcast.c) that collapses the output into the fewest
 *    dims, gives each input a stride per dim (0 where it is broadcast) and
 *    drives an inner loop over the innermost dim from a parallel_for, keeping
 *    a multi-index odometer instead of dividing per element (short innermost
 *    dims run as blocks of whole rows);
 *  - the kernels (elementwise.c, elementwise_select.c) that check inputs,
 *    allocate outputs and report errors with TF's messages.
 */
#ifndef TFC_KERNELS_ELEMENTWISE_INTERNAL_H
#define TFC_KERNELS_ELEMENTWISE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/dtype.h"
#include "core/tensor.h"
#include "kernels/kernel.h"

/* ------------------------------------------------------------ errors */

/* What an inner loop can report (0 = fine). Codes OR together across shards,
 * so they are bits. */
enum {
  TFC_EW_OK = 0,
  TFC_EW_ERR_DIV0 = 1,    /* "Integer division by zero" */
  TFC_EW_ERR_NEGPOW = 2,  /* "Integers to negative integer powers are not allowed" */
  TFC_EW_ERR_OOM = 4,     /* string result could not be allocated */
  TFC_EW_ERR_TYPE = 8     /* no loop for this dtype (a table bug) */
};

/* Fails ctx with the message of the highest-priority bit in err (no-op for 0). */
void tfc_ew_report(tfc_kernel_ctx *ctx, int err);

/* ------------------------------------------------------------ inner loops */

/* How the inputs of a binary loop are laid out over its n elements. */
enum { TFC_EW_VV = 0, TFC_EW_SV = 1, TFC_EW_VS = 2 };  /* x scalar: SV; y scalar: VS */

/* Binary loop: z[i] = op(x[i], y[i]) for i < n, where x (mode SV) or y (mode VS)
 * may be one broadcast element. z has the input type, or bool for comparisons.
 * Returns TFC_EW_* bits. */
typedef int (*tfc_ew_binary_fn)(tfc_dtype t, const void *x, const void *y, void *z, int64_t n,
                                int mode);
/* Unary loop: y[i] = op(x[i]) for i < n. Returns TFC_EW_* bits. */
typedef int (*tfc_ew_unary_fn)(tfc_dtype t, const void *x, void *y, int64_t n);

/* The three layouts of a binary loop over xp, yp -> zp (typed restrict
 * pointers in scope, with element type E and output type O); EXPR sees x and y. */
#define TFC_EW_LOOP3(EXPR)                                                   \
  if (mode == TFC_EW_VV) {                                                   \
    for (int64_t i = 0; i < n; i++) {                                        \
      const E x = xp[i], y = yp[i];                                          \
      zp[i] = (O)(EXPR);                                                     \
    }                                                                        \
  } else if (mode == TFC_EW_SV) {                                            \
    const E x = xp[0];                                                       \
    for (int64_t i = 0; i < n; i++) {                                        \
      const E y = yp[i];                                                     \
      zp[i] = (O)(EXPR);                                                     \
    }                                                                        \
  } else {                                                                   \
    const E y = yp[0];                                                       \
    for (int64_t i = 0; i < n; i++) {                                        \
      const E x = xp[i];                                                     \
      zp[i] = (O)(EXPR);                                                     \
    }                                                                        \
  }

/* Binary op ids (rows of tfc_ew_binary_ops). */
typedef enum tfc_ew_binop {
  TFC_EW_ADD, TFC_EW_SUB, TFC_EW_MUL, TFC_EW_DIV, TFC_EW_REALDIV, TFC_EW_FLOORDIV,
  TFC_EW_FLOORMOD, TFC_EW_TRUNCDIV, TFC_EW_TRUNCMOD, TFC_EW_POW, TFC_EW_MAXIMUM,
  TFC_EW_MINIMUM, TFC_EW_SQDIFF, TFC_EW_DIVNONAN,
  TFC_EW_SIGMOID_GRAD, TFC_EW_TANH_GRAD, TFC_EW_SQRT_GRAD, TFC_EW_RSQRT_GRAD,
  TFC_EW_RECIPROCAL_GRAD,
  TFC_EW_EQUAL, TFC_EW_NOT_EQUAL, TFC_EW_LESS, TFC_EW_LESS_EQUAL, TFC_EW_GREATER,
  TFC_EW_GREATER_EQUAL, TFC_EW_LOGICAL_AND, TFC_EW_LOGICAL_OR,
  TFC_EW_BINOP_COUNT
} tfc_ew_binop;

/* Unary op ids (rows of tfc_ew_unary_ops). */
typedef enum tfc_ew_unop {
  TFC_EW_NEG, TFC_EW_ABS, TFC_EW_SQUARE, TFC_EW_SQRT, TFC_EW_RSQRT, TFC_EW_EXP, TFC_EW_EXPM1,
  TFC_EW_LOG, TFC_EW_LOG1P, TFC_EW_TANH, TFC_EW_SIGMOID, TFC_EW_SIGN, TFC_EW_RECIPROCAL,
  TFC_EW_FLOOR, TFC_EW_CEIL, TFC_EW_ROUND, TFC_EW_SIN, TFC_EW_COS, TFC_EW_ISNAN, TFC_EW_ISINF,
  TFC_EW_ISFINITE, TFC_EW_LOGICAL_NOT,
  TFC_EW_UNOP_COUNT
} tfc_ew_unop;

/* What a kernel needs to know about an op's loop. */
typedef struct tfc_ew_binary_info {
  tfc_ew_binary_fn fn;
  bool out_bool;       /* output is bool (comparisons, logical) */
  bool heavy;          /* per-element cost well above a load/add/store: smaller shards */
} tfc_ew_binary_info;

typedef struct tfc_ew_unary_info {
  tfc_ew_unary_fn fn;
  bool out_bool;
  bool heavy;
} tfc_ew_unary_info;

/* Arithmetic ops (elementwise_binary.c) and comparisons (elementwise_compare.c)
 * fill the rows they define; tfc_ew_binary_info_of merges them. */
const tfc_ew_binary_info *tfc_ew_binary_info_of(tfc_ew_binop op);
/* Arithmetic binary rows, NULL fn for ops defined elsewhere. */
extern const tfc_ew_binary_info tfc_ew_arith_ops[TFC_EW_BINOP_COUNT];
/* Comparison / logical binary rows, NULL fn for ops defined elsewhere. */
extern const tfc_ew_binary_info tfc_ew_compare_ops[TFC_EW_BINOP_COUNT];
/* Unary rows (elementwise_unary.c). */
extern const tfc_ew_unary_info tfc_ew_unary_ops[TFC_EW_UNOP_COUNT];

/* Complex64/complex128 loops of a binary or unary op (elementwise_complex.c);
 * the real-typed loops forward their complex cases here. Return TFC_EW_* bits
 * (TFC_EW_ERR_TYPE for an op with no complex form). */
int tfc_ew_complex_binary(tfc_ew_binop op, tfc_dtype t, const void *x, const void *y, void *z,
                          int64_t n, int mode);
int tfc_ew_complex_unary(tfc_ew_unop op, tfc_dtype t, const void *x, void *y, int64_t n);

/* Elements per stack chunk when half/bfloat16 run through float loops. */
#define TFC_EW_CHUNK 512

/* Runs the float loop `fn` over half/bfloat16 data t in chunks: inputs are
 * widened to float, results narrowed back (or copied, when out_bool). */
int tfc_ew_binary_via_float(tfc_ew_binary_fn fn, tfc_dtype t, const void *x, const void *y,
                            void *z, int64_t n, int mode, bool out_bool);
int tfc_ew_unary_via_float(tfc_ew_unary_fn fn, tfc_dtype t, const void *x, void *y, int64_t n,
                           bool out_bool);

/* ------------------------------------------------------------ conversions (cast.c) */

/* Array conversions between half / bfloat16 bit patterns and float (round to
 * nearest even; NaN stays NaN). Vectorised with F16C when the target has it. */
void tfc_ew_half_to_float(const uint16_t *in, float *out, int64_t n);
void tfc_ew_float_to_half(const float *in, uint16_t *out, int64_t n);
void tfc_ew_bf16_to_float(const uint16_t *in, float *out, int64_t n);
void tfc_ew_float_to_bf16(const float *in, uint16_t *out, int64_t n);
/* Widens n half (t == HALF) or bfloat16 elements to float. */
void tfc_ew_widen(tfc_dtype t, const void *in, float *out, int64_t n);
/* Narrows n floats to half (t == HALF) or bfloat16. */
void tfc_ew_narrow(tfc_dtype t, const float *in, void *out, int64_t n);

/* Converts n elements from src type to dst type (both numeric or bool, not
 * string; complex converts to and from every numeric type and bool: a
 * real source gets a zero imaginary part, a real destination takes the real
 * part, bool is true when either part is nonzero); truncate zeroes the mantissa bits a narrower float type
 * drops (TF's Cast Truncate=true) before converting. Returns false when the
 * pair is unsupported. */
bool tfc_ew_cast_supported(tfc_dtype src, tfc_dtype dst);
void tfc_ew_cast_run(tfc_dtype src, tfc_dtype dst, bool truncate, const void *in, void *out,
                     int64_t n);

/* ------------------------------------------------------------ broadcasting (broadcast.c) */

#define TFC_EW_MAX_IN 3

/* A broadcast of up to TFC_EW_MAX_IN inputs into one output. */
typedef struct tfc_ew_plan {
  int n_in;
  int out_rank;                                 /* the uncollapsed output shape */
  int64_t out_dims[TFC_MAX_RANK];
  int64_t nelems;
  int rank;                                     /* collapsed rank, >= 1 */
  int64_t dims[TFC_MAX_RANK];                   /* collapsed dims */
  int64_t strides[TFC_EW_MAX_IN][TFC_MAX_RANK]; /* element strides; 0 = broadcast */
} tfc_ew_plan;

/* Builds the plan for inputs ins[0..n_in) (NumPy broadcasting). Returns false
 * when the shapes are incompatible or the output rank exceeds TFC_MAX_RANK. */
bool tfc_ew_plan_make(tfc_ew_plan *p, int n_in, const tfc_tensor *const *ins);

/* Inner callback of the driver: n output elements at out; in[k] points to the
 * first element of input k and step[k] is 0 (broadcast) or 1 (contiguous).
 * Returns TFC_EW_* bits. */
typedef int (*tfc_ew_inner_fn)(void *arg, const char *const *in, const int *step, char *out,
                               int64_t n);

/* Runs inner over every output element of plan p, in parallel shards of at
 * least min_shard elements on ctx's intra-op pool (single-threaded when
 * min_shard <= 0). in_esz/out_esz are element sizes. Returns the OR of the
 * bits the inner calls returned. */
int tfc_ew_plan_run(tfc_kernel_ctx *ctx, const tfc_ew_plan *p, const void *const *in,
                    const size_t *in_esz, void *out, size_t out_esz, int64_t min_shard,
                    tfc_ew_inner_fn inner, void *arg);

/* Formats dims as TF does in kernel messages: "[2,3]". */
void tfc_ew_dims_string(int rank, const int64_t *dims, char *buf, int bufsize);

/* TF's BroadcastGradientArgs on shape vectors a (na dims) and b (nb dims):
 * writes the axes to reduce for each input's gradient into ra/rb (each with
 * room for max(na, nb)). Returns false when the shapes are incompatible. */
bool tfc_ew_grad_reduce_axes(const int64_t *a, int na, const int64_t *b, int nb, int64_t *ra,
                             int *nra, int64_t *rb, int *nrb);

/* Shard sizes: cheap loops and loops calling libm per element. */
#define TFC_EW_SHARD 16384
#define TFC_EW_SHARD_HEAVY 2048

/* ------------------------------------------------------------ shared kernel drivers (elementwise.c) */

/* Broadcasting binary kernel over a numeric loop (inputs must share a dtype;
 * TF's "Incompatible shapes" error otherwise). */
void tfc_ew_binary_kernel(tfc_kernel_ctx *ctx, const tfc_ew_binary_info *info);
/* Unary kernel: the output has the input's shape and the loop's type. */
void tfc_ew_unary_kernel(tfc_kernel_ctx *ctx, const tfc_ew_unary_info *info);

/* ------------------------------------------------------------ kernels in helper files */

/* elementwise_select.c */
void tfc_ew_select_compute(tfc_kernel_ctx *ctx);
void tfc_ew_select_v2_compute(tfc_kernel_ctx *ctx);
void tfc_ew_clip_compute(tfc_kernel_ctx *ctx);

#endif
