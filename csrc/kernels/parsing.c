/*
 * parsing.c — the kernel table of the parsing family: Example parsers,
 * DecodeRaw, DecodeCSV and the string splitters (see parsing_internal.h).
 */
#include "kernels/kernel_tables.h"
#include "kernels/parsing_internal.h"

static const tfc_kernel_def defs[] = {
    {"ParseExample", "CPU", NULL, NULL, tfc_parse_example_init, tfc_parse_example_compute,
     tfc_parse_example_free, 0},
    {"ParseExampleV2", "CPU", NULL, NULL, tfc_parse_example_init, tfc_parse_example_compute,
     tfc_parse_example_free, 0},
    {"ParseSingleExample", "CPU", NULL, NULL, tfc_parse_example_init, tfc_parse_example_compute,
     tfc_parse_example_free, 0},
    {"ParseSingleSequenceExample", "CPU", NULL, NULL, tfc_parse_sequence_example_init,
     tfc_parse_sequence_example_compute, tfc_parse_sequence_example_free, 0},
    {"ParseSequenceExample", "CPU", NULL, NULL, tfc_parse_sequence_example_init,
     tfc_parse_sequence_example_compute, tfc_parse_sequence_example_free, 0},
    {"ParseSequenceExampleV2", "CPU", NULL, NULL, tfc_parse_sequence_example_init,
     tfc_parse_sequence_example_compute, tfc_parse_sequence_example_free, 0},
    {"DecodeRaw", "CPU", NULL, NULL, NULL, tfc_decode_raw_compute, NULL, 0},
    {"DecodeCSV", "CPU", NULL, NULL, NULL, tfc_decode_csv_compute, NULL, 0},
    {"StringSplit", "CPU", NULL, NULL, NULL, tfc_string_split_compute, NULL, 0},
    {"StringSplitV2", "CPU", NULL, NULL, NULL, tfc_string_split_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_parsing = {defs, (int)(sizeof defs / sizeof defs[0])};
