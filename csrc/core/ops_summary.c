/*
 * ops_summary.c — op definitions for summaries (TF's logging_ops.cc):
 * ScalarSummary, HistogramSummary, MergeSummary, TensorSummaryV2, ImageSummary,
 * AudioSummaryV2.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

static const tfc_op_spec specs[] = {
    {"ScalarSummary", "tags: string; values: T", "summary: string", "T: realnumbertype", 0,
     tfc_shape_fn_scalar},
    {"HistogramSummary", "tag: string; values: T", "summary: string",
     "T: realnumbertype = float", 0, tfc_shape_fn_scalar},
    {"MergeSummary", "inputs: N * string", "summary: string", "N: int >= 1", 0,
     tfc_shape_fn_scalar},
    {"TensorSummaryV2", "tag: string; tensor: T; serialized_summary_metadata: string",
     "summary: string", "T: type", 0, tfc_shape_fn_scalar},
    /* bad_color has no default here (op specs have no tensor defaults):
     * tf.summary.image sets TF's, uint8 [255, 0, 0, 255] */
    {"ImageSummary", "tag: string; tensor: T", "summary: string",
     "max_images: int >= 1 = 3; T: {uint8, float, half, double} = float; bad_color: tensor", 0,
     tfc_shape_fn_scalar},
    {"AudioSummaryV2", "tag: string; tensor: float; sample_rate: float", "summary: string",
     "max_outputs: int >= 1 = 3", 0, tfc_shape_fn_scalar},
};

const tfc_op_table tfc_ops_summary = {specs, (int)(sizeof specs / sizeof specs[0])};
