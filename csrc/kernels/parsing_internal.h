/*
 * parsing_internal.h — the kernels of the parsing family, each in its own
 * file, gathered into tfc_kernels_parsing by kernels/parsing.c.
 */
#ifndef TFC_KERNELS_PARSING_INTERNAL_H
#define TFC_KERNELS_PARSING_INTERNAL_H

#include "io/example.h"
#include "kernels/kernel.h"

/* ParseExample, ParseExampleV2, ParseSingleExample (parse_example.c): init
 * reads the types and shapes (the op type picks the variant). */
bool tfc_parse_example_init(const tfc_kernel_init *ki, void **state);
void tfc_parse_example_compute(tfc_kernel_ctx *ctx);
void tfc_parse_example_free(void *state);
/* Copies a FLOAT / INT64 / BYTES feature's n values into out from element
 * `at` (out's dtype picks the list type); false when malformed or on OOM
 * (then st is set). */
bool tfc_parse_copy_values(const tfc_feature *f, tfc_tensor *out, int64_t at, int64_t n, tfc_status *st);
/* Copies n elements of src (from s_at) into dst (from d_at), same dtype. */
bool tfc_parse_copy_elems(const tfc_tensor *src, int64_t s_at, tfc_tensor *dst, int64_t d_at, int64_t n,
                          tfc_status *st);
/* ParseSingleSequenceExample, ParseSequenceExample, ParseSequenceExampleV2
 * (parse_sequence_example.c; the op type picks the variant). */
bool tfc_parse_sequence_example_init(const tfc_kernel_init *ki, void **state);
void tfc_parse_sequence_example_compute(tfc_kernel_ctx *ctx);
void tfc_parse_sequence_example_free(void *state);
/* DecodeRaw (decode_raw.c). */
void tfc_decode_raw_compute(tfc_kernel_ctx *ctx);
/* DecodeCSV (decode_csv.c). */
void tfc_decode_csv_compute(tfc_kernel_ctx *ctx);
/* StringSplit and StringSplitV2 (string_split.c; the op type picks). */
void tfc_string_split_compute(tfc_kernel_ctx *ctx);

#endif
