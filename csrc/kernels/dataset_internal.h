/*
 * dataset_internal.h — helpers shared by the dataset files
 * (dataset.c, dataset_source.c, dataset_transform.c, dataset_ops.c).
 */
#ifndef TFC_KERNELS_DATASET_INTERNAL_H
#define TFC_KERNELS_DATASET_INTERNAL_H

#include "kernels/dataset.h"
#include "kernels/kernel.h"

/* A copy of row i of t (shape t.dims[1:]); NULL + st. */
tfc_tensor *tfc_ds_row(const tfc_tensor *t, int64_t i, tfc_status *st);
/* Stacks component c of count elements (elems[i*n + c]) into [count] +
 * shape; the strings of an element the caller alone holds are moved into
 * the batch (the element is left with empty strings), others are copied.
 * Without pad_dims every element must have the same shape; with
 * pad_dims (pad_rank entries, -1 = the largest in the batch) elements are
 * padded with pad_value (a scalar; NULL: zeros / empty strings). NULL + st. */
tfc_tensor *tfc_ds_stack(tfc_tensor *const *elems, int64_t count, int n, int c, const int64_t *pad_dims,
                         int pad_rank, const tfc_tensor *pad_value, tfc_status *st);

/* Dataset constructors: each takes its inputs (borrowed; datasets and
 * tensors it keeps are referenced) and returns a new dataset or NULL + st. */
tfc_dataset *tfc_ds_tensors(tfc_tensor *const *comps, int n, bool slices, const tfc_shape *shapes,
                            tfc_status *st);
tfc_dataset *tfc_ds_range(int64_t start, int64_t stop, int64_t step, tfc_dtype dtype, tfc_status *st);
typedef enum tfc_ds_file_kind { TFC_DS_TFRECORD, TFC_DS_TEXT_LINE, TFC_DS_FIXED_LENGTH } tfc_ds_file_kind;
tfc_dataset *tfc_ds_files(tfc_ds_file_kind kind, const tfc_tensor *filenames, const char *compression,
                          int64_t header, int64_t record, int64_t footer, tfc_status *st);
tfc_dataset *tfc_ds_zip(tfc_dataset *const *inputs, int k, tfc_status *st);
tfc_dataset *tfc_ds_concatenate(tfc_dataset *a, tfc_dataset *b, tfc_status *st);
tfc_dataset *tfc_ds_batch(tfc_dataset *in, int64_t batch, bool drop_remainder, const int64_t *const *pad_dims,
                          const int *pad_ranks, tfc_tensor *const *pad_values, const tfc_shape *out_shapes,
                          tfc_status *st);
tfc_dataset *tfc_ds_shuffle(tfc_dataset *in, int64_t buffer, int64_t seed, int64_t seed2, bool reshuffle,
                            tfc_status *st);
typedef enum tfc_ds_count_kind { TFC_DS_REPEAT, TFC_DS_TAKE, TFC_DS_SKIP } tfc_ds_count_kind;
tfc_dataset *tfc_ds_count(tfc_ds_count_kind kind, tfc_dataset *in, int64_t count, tfc_status *st);
tfc_dataset *tfc_ds_cache(tfc_dataset *in, tfc_status *st);
/* Dataset.cache(filename): TF's tensor-bundle cache (dataset_file_cache.c). */
tfc_dataset *tfc_ds_file_cache(tfc_dataset *in, const char *filename, tfc_status *st);
tfc_dataset *tfc_ds_generator(int64_t token, int n, const tfc_dtype *types, const tfc_shape *shapes,
                              tfc_status *st);
/* Datasets running a function of the session's library per element (the
 * element's components then the captured tensors are its arguments):
 * MAP/PARALLEL_MAP (a = num_parallel_calls) return n components, FILTER a
 * scalar bool, FLAT_MAP/INTERLEAVE (a = cycle_length, b = block_length) a
 * dataset variant. flib must outlive the dataset's iterators. */
typedef enum tfc_function_ds_kind {
  TFC_FN_MAP, TFC_FN_PARALLEL_MAP, TFC_FN_FLAT_MAP, TFC_FN_INTERLEAVE, TFC_FN_FILTER,
  TFC_FN_PARALLEL_INTERLEAVE
} tfc_function_ds_kind;
struct tfc_flib;
struct tfc_fhandle;
tfc_dataset *tfc_ds_function(tfc_function_ds_kind kind, tfc_dataset *in, struct tfc_flib *flib,
                             const struct tfc_fhandle *f, tfc_tensor *const *captured, int n_captured, int n,
                             const tfc_dtype *types, const tfc_shape *shapes, int64_t a, int64_t b,
                             tfc_status *st);
/* Makes an INTERLEAVE dataset parallel: `workers` threads run the inner
 * iterators of the cycle ahead of the consumer, each slot buffering up to
 * `buffer` elements; the order stays TF's deterministic one unless sloppy
 * (then the next ready element of any slot). */
void tfc_ds_interleave_set_parallel(tfc_dataset *ds, int64_t workers, int64_t buffer, bool sloppy);
tfc_dataset *tfc_ds_prefetch(tfc_dataset *in, int64_t buffer, tfc_status *st);

/* Cardinalities (dataset_cardinality.c), TF's DatasetCardinality rules:
 * each takes its inputs' cardinalities (>= 0, TFC_DS_INFINITE or
 * TFC_DS_UNKNOWN) and returns the transformation's. */
int64_t tfc_ds_card_range(int64_t start, int64_t stop, int64_t step);
int64_t tfc_ds_card_zip(tfc_dataset *const *inputs, int k);
int64_t tfc_ds_card_concatenate(int64_t a, int64_t b);
int64_t tfc_ds_card_batch(int64_t in, int64_t batch, bool drop_remainder);
int64_t tfc_ds_card_count(tfc_ds_count_kind kind, int64_t in, int64_t count);

/* Kernel helpers (dataset_ops.c): list attr `name` of types / shapes
 * copied into out (at most 64 entries; returns the count, 0 when absent,
 * -1 when too long), and a kernel's output 0 set to ds as a scalar variant
 * (takes the caller's reference; the op's output_shapes refine ds's; NULL ds:
 * nothing, st already set). */
int tfc_ds_attr_types(tfc_kernel_ctx *ctx, const char *name, tfc_dtype *out);
int tfc_ds_attr_shapes(tfc_kernel_ctx *ctx, const char *name, tfc_shape *out);
void tfc_ds_output(tfc_kernel_ctx *ctx, tfc_dataset *ds);

/* Saves / restores a Philox generator and its single-word adapter
 * (dataset_transform.c); the adapter keeps pointing at g. */
struct tfc_philox;
struct tfc_philox_single;
bool tfc_ds_put_philox(tfc_ds_writer *w, const struct tfc_philox *g, const struct tfc_philox_single *s,
                       tfc_status *st);
bool tfc_ds_get_philox(tfc_ds_reader *r, struct tfc_philox *g, struct tfc_philox_single *s, tfc_status *st);

/* tf.data.experimental datasets (dataset_experimental.c): IgnoreErrors
 * skips elements whose input failed; AssertCardinality fails
 * (FAILED_PRECONDITION) when the input has other than `count` elements;
 * Unique drops elements equal to an earlier one; DirectedInterleave takes
 * each element from the input the selector's next int64 names; Random
 * produces TF's seeded uint32 stream as int64 scalars. */
tfc_dataset *tfc_ds_ignore_errors(tfc_dataset *in, tfc_status *st);
tfc_dataset *tfc_ds_assert_cardinality(tfc_dataset *in, int64_t count, tfc_status *st);
tfc_dataset *tfc_ds_unique(tfc_dataset *in, tfc_status *st);
tfc_dataset *tfc_ds_directed_interleave(tfc_dataset *selector, tfc_dataset *const *inputs, int k,
                                        bool stop_on_empty, const tfc_shape *shapes, tfc_status *st);
tfc_dataset *tfc_ds_random(int64_t seed, int64_t seed2, tfc_status *st);

/* Datasets with a function and a state (dataset_scan.c): Scan calls
 * f(state..., element..., captured...) -> (new state..., output...);
 * TakeWhile ends at the first element the predicate rejects. */
tfc_dataset *tfc_ds_scan(tfc_dataset *in, struct tfc_flib *flib, const struct tfc_fhandle *f,
                         tfc_tensor *const *state, int n_state, tfc_tensor *const *captured, int n_captured, int n,
                         const tfc_dtype *types, const tfc_shape *shapes, tfc_status *st);
tfc_dataset *tfc_ds_take_while(tfc_dataset *in, struct tfc_flib *flib, const struct tfc_fhandle *f,
                               tfc_tensor *const *captured, int n_captured, tfc_status *st);

/* Grouping datasets (dataset_group.c). tfc_ds_list: a dataset of count
 * elements (count * n tensors, referenced). tfc_ds_group: GroupByWindow
 * (fns: key_func, reduce_func, window_size_func) or, with reducer,
 * GroupByReducer (fns: key_func, init_func, reduce_func, finalize_func),
 * each function with its captured tensors. */
tfc_dataset *tfc_ds_list(tfc_tensor *const *els, int64_t count, int n, const tfc_dtype *types,
                         const tfc_shape *shapes, tfc_status *st);
tfc_dataset *tfc_ds_group(bool reducer, tfc_dataset *in, struct tfc_flib *flib, const struct tfc_fhandle *const *fns,
                          tfc_tensor *const *const *captured, const int *n_captured, int n, const tfc_dtype *types,
                          const tfc_shape *shapes, tfc_status *st);

/* CSVDataset (dataset_csv.c): the records of CSV files (filenames: a string
 * tensor), one scalar per column of record_defaults (their dtypes; an empty
 * default makes the column required). select (n_select columns, strictly
 * increasing) or NULL for all; exclude: columns left out. */
tfc_dataset *tfc_ds_csv(const tfc_tensor *filenames, int comp, bool header, char delim, bool quote, const char *na,
                        size_t na_len, const int64_t *select, int n_select, const int64_t *exclude, int n_exclude,
                        tfc_tensor *const *defaults, int n, const tfc_shape *shapes, tfc_status *st);

#endif
