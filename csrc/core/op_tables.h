/*
 * op_tables.h — the list of op-definition tables, one per family file.
 * Adding a family: define `const tfc_op_table tfc_ops_<family>` in
 * core/ops_<family>.c and add it here and to TFC_OP_TABLES.
 */
#ifndef TFC_CORE_OP_TABLES_H
#define TFC_CORE_OP_TABLES_H

#include "core/op_registry.h"

extern const tfc_op_table tfc_ops_math;      /* elementwise, compare, logical, cast, AddN */
extern const tfc_op_table tfc_ops_reduce;    /* reductions, ArgMax/ArgMin, MatMul */
extern const tfc_op_table tfc_ops_nn;        /* Relu, Softmax, BiasAdd, ... */
extern const tfc_op_table tfc_ops_array;     /* Const, Placeholder, Identity, shape and index ops */
extern const tfc_op_table tfc_ops_state;     /* VariableV2, Assign*, IsVariableInitialized */
extern const tfc_op_table tfc_ops_random;    /* RandomUniform, RandomStandardNormal, ... */
extern const tfc_op_table tfc_ops_stateless_random; /* StatelessRandomUniform, ... (seeded by a tensor) */
extern const tfc_op_table tfc_ops_candidate_sampler; /* *CandidateSampler, ComputeAccidentalHits */
extern const tfc_op_table tfc_ops_logging;   /* Print, NoOp-like control ops */
extern const tfc_op_table tfc_ops_image;     /* image codecs, resize, ReadFile/WriteFile */
extern const tfc_op_table tfc_ops_internal;  /* _Send, _Recv */
extern const tfc_op_table tfc_ops_conv;      /* Conv2D, depthwise, pooling, fused batch norm */
extern const tfc_op_table tfc_ops_control;   /* Switch, Merge, Enter, Exit, NextIteration, LoopCond */
extern const tfc_op_table tfc_ops_checkpoint; /* SaveV2, RestoreV2, MergeV2Checkpoints, ... */
extern const tfc_op_table tfc_ops_string;    /* StringJoin, StaticRegexFullMatch */
extern const tfc_op_table tfc_ops_audio;     /* DecodeWav, EncodeWav */
extern const tfc_op_table tfc_ops_fake_quant; /* FakeQuantWithMinMax* and gradients */
extern const tfc_op_table tfc_ops_quantize;   /* QuantizeV2, Dequantize */
extern const tfc_op_table tfc_ops_summary;   /* ScalarSummary, HistogramSummary, MergeSummary */
extern const tfc_op_table tfc_ops_parsing;   /* ParseExample*, DecodeRaw/CSV, StringSplit* */
extern const tfc_op_table tfc_ops_data_flow; /* stacks, tensor arrays, queues, readers */
extern const tfc_op_table tfc_ops_functional; /* PartitionedCall, If, While, Case (function calls) */
extern const tfc_op_table tfc_ops_dataset;   /* tf.data datasets and iterators */
extern const tfc_op_table tfc_ops_dataset_experimental; /* tf.data.experimental datasets */
extern const tfc_op_table tfc_ops_optional; /* Optional values */
extern const tfc_op_table tfc_ops_resource;  /* VarHandleOp, ReadVariableOp, ResourceApply*, ... */
extern const tfc_op_table tfc_ops_sparse;    /* DynamicPartition/Stitch, SparseToDense, ... */
extern const tfc_op_table tfc_ops_strings;   /* StringLength, Substr, AsString, RegexReplace, ... */
extern const tfc_op_table tfc_ops_linalg;    /* Cholesky, MatrixInverse, Svd, Qr, ... (LAPACK) */
extern const tfc_op_table tfc_ops_linalg_lu; /* Lu, TridiagonalSolve, TridiagonalMatMul */
extern const tfc_op_table tfc_ops_scatter_nd;  /* GatherNd, ScatterNd, TensorScatter* */
extern const tfc_op_table tfc_ops_sort;        /* TopKV2, LowerBound, UpperBound */
extern const tfc_op_table tfc_ops_array_extra; /* EnsureShape, BroadcastArgs, Bitcast, UnravelIndex, HistogramFixedWidth */
extern const tfc_op_table tfc_ops_lrn;         /* LRN, LRNGrad */
extern const tfc_op_table tfc_ops_image_hsv;   /* RGBToHSV, HSVToRGB, AdjustHue, AdjustSaturation */
extern const tfc_op_table tfc_ops_math_special; /* Acos ... Atanh, Erf, Lgamma, Bessel, Igamma, Zeta, bitwise */
extern const tfc_op_table tfc_ops_script;    /* PyFunc, PyFuncStateless, EagerPyFunc */
extern const tfc_op_table tfc_ops_util;      /* EnsureShape, GuaranteeConst, Timestamp */
extern const tfc_op_table tfc_ops_complex;   /* Complex, Real, Imag, Angle, ComplexAbs, Conj */
extern const tfc_op_table tfc_ops_spectral;  /* FFT ... IRFFT3D */
extern const tfc_op_table tfc_ops_image_detect; /* NonMaxSuppression*, CropAndResize*, DrawBoundingBoxes, ExtractGlimpse, SampleDistortedBoundingBox, ResizeArea */
extern const tfc_op_table tfc_ops_conv3d;     /* Conv3D and its gradients, MaxPool3D, AvgPool3D and theirs */
extern const tfc_op_table tfc_ops_nn_window;  /* MaxPoolWithArgmax(+Grad), Dilation2D(+grads), Extract{Image,Volume}Patches */
extern const tfc_op_table tfc_ops_ctc;        /* CTCLoss, CTCGreedyDecoder, CTCBeamSearchDecoder */
extern const tfc_op_table tfc_ops_set;       /* SetSize, *SetOperation */
extern const tfc_op_table tfc_ops_feature;   /* Bucketize, SparseCross */
extern const tfc_op_table tfc_ops_lookup;    /* HashTableV2, MutableHashTableV2, LookupTable*V2, InitializeTable*V2 */
extern const tfc_op_table tfc_ops_encoding;  /* Encode/DecodeBase64, DecodeCompressed, Serialize/ParseTensor, MatchingFiles */

#define TFC_OP_TABLES \
  &tfc_ops_math, \
  &tfc_ops_reduce, \
  &tfc_ops_nn, \
  &tfc_ops_array, \
  &tfc_ops_state, \
  &tfc_ops_random, \
  &tfc_ops_stateless_random, \
  &tfc_ops_candidate_sampler, \
  &tfc_ops_logging, \
  &tfc_ops_internal, \
  &tfc_ops_conv, \
  &tfc_ops_image, \
  &tfc_ops_checkpoint, \
  &tfc_ops_string, \
  &tfc_ops_summary, \
  &tfc_ops_audio, \
  &tfc_ops_fake_quant, \
  &tfc_ops_quantize, \
  &tfc_ops_control, \
  &tfc_ops_parsing, \
  &tfc_ops_data_flow, \
  &tfc_ops_functional, \
  &tfc_ops_dataset, \
  &tfc_ops_dataset_experimental, \
  &tfc_ops_optional, \
  &tfc_ops_resource, \
  &tfc_ops_sparse, \
  &tfc_ops_strings, \
  &tfc_ops_linalg, \
  &tfc_ops_linalg_lu, \
  &tfc_ops_math_special, \
  &tfc_ops_scatter_nd, \
  &tfc_ops_script, \
  &tfc_ops_encoding, \
  &tfc_ops_lookup, \
  &tfc_ops_feature, \
  &tfc_ops_set, \
  &tfc_ops_util, \
  &tfc_ops_sort, \
  &tfc_ops_array_extra, \
  &tfc_ops_lrn, \
  &tfc_ops_image_hsv, \
  &tfc_ops_complex, \
  &tfc_ops_spectral, \
  &tfc_ops_image_detect, \
  &tfc_ops_conv3d, \
  &tfc_ops_nn_window, \
  &tfc_ops_ctc

#endif
