/*
 * parsing_internal.h — the kernels of the parsing family, each in its own
 * file, gathered into tfc_kernels_parsing by kernels/parsing.c.
 */
#ifndef TFC_KERNELS_PARSING_INTERNAL_H
#define TFC_KERNELS_PARSING_INTERNAL_H

#include "kernels/kernel.h"

/* ParseExample, ParseExampleV2, ParseSingleExample (parse_example.c): init
 * reads the types and shapes (the op type picks the variant). */
bool tfc_parse_example_init(const tfc_kernel_init *ki, void **state);
void tfc_parse_example_compute(tfc_kernel_ctx *ctx);
void tfc_parse_example_free(void *state);
/* DecodeRaw (decode_raw.c). */
void tfc_decode_raw_compute(tfc_kernel_ctx *ctx);
/* DecodeCSV (decode_csv.c). */
void tfc_decode_csv_compute(tfc_kernel_ctx *ctx);
/* StringSplit and StringSplitV2 (string_split.c; the op type picks). */
void tfc_string_split_compute(tfc_kernel_ctx *ctx);

#endif
