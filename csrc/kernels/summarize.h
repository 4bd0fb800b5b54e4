/*
 * summarize.h — a tensor's values as the short text TF 1.x prints in Print,
 * Assert and error messages (Tensor::SummarizeValue).
 *
 * At most `max_entries` values are written (all of them when negative),
 * space-separated, with nested brackets for each dimension past the first
 * and "..." where values were left out:
 *
 *     [1 2 3 4 5], max 3      ->  "1 2 3..."
 *     [[1.5 2 3] [4 5 6]], 3  ->  "[1.5 2 3]..."
 *     scalar 3.0              ->  "3"
 *
 * Floats print with 6 significant digits, or 9 when 6 do not round-trip
 * (doubles: 15 / 17); bools print as 1 / 0; strings are C-escaped; complex,
 * quantized and other types print as "?".
 */
#ifndef TFC_KERNELS_SUMMARIZE_H
#define TFC_KERNELS_SUMMARIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "core/tensor.h"

/* Appends the summary of t to out. Returns false when out ran out of memory. */
bool tfc_summarize_tensor(const tfc_tensor *t, int64_t max_entries, tfc_strbuf *out);

/* Appends element i of t formatted as in a summary. false on out of memory. */
bool tfc_summarize_element(const tfc_tensor *t, int64_t i, tfc_strbuf *out);

/* Appends t the way tf.print / StringFormat show it (TF's SummarizeValue with
 * print_v2): a scalar as its element; otherwise numpy-like nested brackets,
 * the first and last `max_entries` entries of every dimension longer than
 * 2 * max_entries with "..." between (all entries when max_entries < 0,
 * at most the element count), rows separated by a newline per dimension
 * left and indented by one space per dimension open:
 *
 *     arange(10), 3        ->  "[0 1 2 ... 7 8 9]"
 *     [[1 2] [3 4]], 3     ->  "[[1 2]\n [3 4]]"
 *
 * Strings are quoted and C-escaped; other elements as in
 * tfc_summarize_element. Returns false when out ran out of memory. */
bool tfc_summarize_tensor_v2(const tfc_tensor *t, int64_t max_entries, tfc_strbuf *out);

#endif
