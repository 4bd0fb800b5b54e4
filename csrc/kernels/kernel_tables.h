/*
 * kernel_tables.h — the list of kernel tables, one per family file
 * (kernels/<family>.c defines `const tfc_kernel_table tfc_kernels_<family>`).
 */
#ifndef TFC_KERNELS_KERNEL_TABLES_H
#define TFC_KERNELS_KERNEL_TABLES_H

#include "kernels/kernel.h"

extern const tfc_kernel_table tfc_kernels_elementwise;  /* math ops */
extern const tfc_kernel_table tfc_kernels_reduce;       /* reductions, ArgMax/ArgMin */
extern const tfc_kernel_table tfc_kernels_matmul;       /* MatMul, BatchMatMulV2 (CBLAS) */
extern const tfc_kernel_table tfc_kernels_nn;           /* activations, softmax, BiasAdd */
extern const tfc_kernel_table tfc_kernels_array;        /* Const, Identity, shape/index ops */
extern const tfc_kernel_table tfc_kernels_state;        /* variables */
extern const tfc_kernel_table tfc_kernels_random;       /* random ops */
extern const tfc_kernel_table tfc_kernels_stateless_random; /* Stateless* random ops */
extern const tfc_kernel_table tfc_kernels_random_gamma; /* RandomGamma, StatelessRandomGammaV2 */
extern const tfc_kernel_table tfc_kernels_random_poisson; /* RandomPoissonV2, StatelessRandomPoisson */
extern const tfc_kernel_table tfc_kernels_random_binomial; /* StatelessRandomBinomial */
extern const tfc_kernel_table tfc_kernels_random_index_shuffle; /* RandomIndexShuffle */
extern const tfc_kernel_table tfc_kernels_random_truncated_normal; /* [Stateless]ParameterizedTruncatedNormal */
extern const tfc_kernel_table tfc_kernels_betainc; /* Betainc */
extern const tfc_kernel_table tfc_kernels_candidate_sampler; /* *CandidateSampler, ComputeAccidentalHits */
extern const tfc_kernel_table tfc_kernels_logging;      /* Print, NoOp */
extern const tfc_kernel_table tfc_kernels_conv;         /* Conv2D, depthwise, pooling, batch norm */
extern const tfc_kernel_table tfc_kernels_control;      /* Switch, Merge, Enter, Exit, NextIteration, LoopCond */
extern const tfc_kernel_table tfc_kernels_image;        /* image codecs, resize, ReadFile/WriteFile */
extern const tfc_kernel_table tfc_kernels_checkpoint;   /* SaveV2, RestoreV2, MergeV2Checkpoints, ... */
extern const tfc_kernel_table tfc_kernels_string;       /* StringJoin, StaticRegexFullMatch */
extern const tfc_kernel_table tfc_kernels_summary;      /* ScalarSummary, HistogramSummary, MergeSummary */
extern const tfc_kernel_table tfc_kernels_parsing;      /* ParseExample*, DecodeRaw/CSV, StringSplit* */
extern const tfc_kernel_table tfc_kernels_stack;        /* StackV2, StackPushV2, StackPopV2, StackCloseV2 */
extern const tfc_kernel_table tfc_kernels_tensor_array; /* TensorArrayV3 and its ops */
extern const tfc_kernel_table tfc_kernels_data_flow;    /* queues and readers */
extern const tfc_kernel_table tfc_kernels_dataset;      /* tf.data datasets and iterators */
extern const tfc_kernel_table tfc_kernels_dataset_experimental; /* tf.data.experimental datasets */
extern const tfc_kernel_table tfc_kernels_optional; /* Optional values */
extern const tfc_kernel_table tfc_kernels_resource;     /* resource variables: VarHandleOp, ResourceApply*, ... */
extern const tfc_kernel_table tfc_kernels_sparse;       /* DynamicPartition/Stitch, SparseToDense, ... */
extern const tfc_kernel_table tfc_kernels_strings;      /* StringLength, Substr, AsString, RegexReplace, ... */
extern const tfc_kernel_table tfc_kernels_string_format; /* StringFormat */
extern const tfc_kernel_table tfc_kernels_string_segment_join; /* UnsortedSegmentJoin */
extern const tfc_kernel_table tfc_kernels_string_ngrams; /* StringNGrams */
extern const tfc_kernel_table tfc_kernels_edit_distance; /* EditDistance */
extern const tfc_kernel_table tfc_kernels_audio;        /* DecodeWav, EncodeWav */
extern const tfc_kernel_table tfc_kernels_fake_quant;   /* FakeQuantWithMinMax* and gradients */
extern const tfc_kernel_table tfc_kernels_quantize;     /* QuantizeV2, Dequantize */
extern const tfc_kernel_table tfc_kernels_quantize_dequantize; /* QuantizeAndDequantizeV2/V3 */
extern const tfc_kernel_table tfc_kernels_linalg;       /* Cholesky, MatrixInverse, Svd, Qr, ... (LAPACK) */
extern const tfc_kernel_table tfc_kernels_linalg_lu; /* Lu, TridiagonalSolve, TridiagonalMatMul */
extern const tfc_kernel_table tfc_kernels_linalg_sqrtm; /* MatrixSquareRoot (LAPACK dgees) */
extern const tfc_kernel_table tfc_kernels_scatter_nd;  /* GatherNd, ScatterNd, TensorScatter* */
extern const tfc_kernel_table tfc_kernels_sort;        /* TopKV2, LowerBound, UpperBound */
extern const tfc_kernel_table tfc_kernels_array_extra; /* EnsureShape, BroadcastArgs, Bitcast, UnravelIndex, HistogramFixedWidth */
extern const tfc_kernel_table tfc_kernels_lrn;         /* LRN, LRNGrad */
extern const tfc_kernel_table tfc_kernels_image_hsv;   /* RGBToHSV, HSVToRGB, AdjustHue, AdjustSaturation */
extern const tfc_kernel_table tfc_kernels_math_special; /* Acos ... Atanh, Erf, Lgamma, Bessel, Igamma, Zeta, bitwise */
extern const tfc_kernel_table tfc_kernels_script;       /* PyFunc, PyFuncStateless, EagerPyFunc */
extern const tfc_kernel_table tfc_kernels_base64;       /* EncodeBase64, DecodeBase64 */
extern const tfc_kernel_table tfc_kernels_decode_compressed; /* DecodeCompressed */
extern const tfc_kernel_table tfc_kernels_tensor_serialize;  /* SerializeTensor, ParseTensor */
extern const tfc_kernel_table tfc_kernels_matching_files;    /* MatchingFiles */
extern const tfc_kernel_table tfc_kernels_nms;          /* NonMaxSuppression V1..V5, WithOverlaps, Combined */
extern const tfc_kernel_table tfc_kernels_crop_and_resize; /* CropAndResize and its gradients */
extern const tfc_kernel_table tfc_kernels_image_boxes;  /* DrawBoundingBoxes, ExtractGlimpse, SampleDistortedBoundingBox */
extern const tfc_kernel_table tfc_kernels_resize_area;  /* ResizeArea */
extern const tfc_kernel_table tfc_kernels_conv3d;       /* Conv3D, Conv3DBackpropInput/Filter(V2) */
extern const tfc_kernel_table tfc_kernels_pool3d;       /* MaxPool3D, AvgPool3D and their gradients */
extern const tfc_kernel_table tfc_kernels_pool_argmax;  /* MaxPoolWithArgmax, MaxPoolGradWithArgmax */
extern const tfc_kernel_table tfc_kernels_dilation;     /* Dilation2D and its gradients */
extern const tfc_kernel_table tfc_kernels_patches;      /* ExtractImagePatches, ExtractVolumePatches */
extern const tfc_kernel_table tfc_kernels_ctc;          /* CTCLoss, CTCGreedyDecoder */
extern const tfc_kernel_table tfc_kernels_ctc_beam;     /* CTCBeamSearchDecoder */
extern const tfc_kernel_table tfc_kernels_util;         /* EnsureShape, GuaranteeConst, Timestamp */
extern const tfc_kernel_table tfc_kernels_complex;      /* Complex, Real, Imag, Angle, ComplexAbs, Conj */
extern const tfc_kernel_table tfc_kernels_fft;          /* FFT ... IRFFT3D */
extern const tfc_kernel_table tfc_kernels_bucketize;       /* Bucketize */
extern const tfc_kernel_table tfc_kernels_sparse_cross;    /* SparseCross */
extern const tfc_kernel_table tfc_kernels_set_ops;        /* SetSize, *SetOperation */
extern const tfc_kernel_table tfc_kernels_lookup;          /* hash tables: HashTableV2, LookupTable*V2, ... */
extern const tfc_kernel_table tfc_kernels_string_hash;     /* StringToHashBucket(Fast), Fingerprint */
extern const tfc_kernel_table tfc_kernels_sparse_serialize;  /* Serialize(Many)Sparse, DeserializeManySparse */
extern const tfc_kernel_table tfc_kernels_sparse_map;  /* Add(Many)SparseToTensorsMap, TakeManySparseFromTensorsMap */

#define TFC_KERNEL_TABLES \
  &tfc_kernels_elementwise, \
  &tfc_kernels_reduce, \
  &tfc_kernels_matmul, \
  &tfc_kernels_nn, \
  &tfc_kernels_array, \
  &tfc_kernels_state, \
  &tfc_kernels_random, \
  &tfc_kernels_stateless_random, \
  &tfc_kernels_random_gamma, \
  &tfc_kernels_random_poisson, \
  &tfc_kernels_random_binomial, \
  &tfc_kernels_random_index_shuffle, \
  &tfc_kernels_random_truncated_normal, \
  &tfc_kernels_betainc, \
  &tfc_kernels_candidate_sampler, \
  &tfc_kernels_logging, \
  &tfc_kernels_conv, \
  &tfc_kernels_image, \
  &tfc_kernels_checkpoint, \
  &tfc_kernels_string, \
  &tfc_kernels_summary, \
  &tfc_kernels_control, \
  &tfc_kernels_parsing, \
  &tfc_kernels_stack, \
  &tfc_kernels_tensor_array, \
  &tfc_kernels_data_flow, \
  &tfc_kernels_dataset, \
  &tfc_kernels_dataset_experimental, \
  &tfc_kernels_optional, \
  &tfc_kernels_resource, \
  &tfc_kernels_sparse, \
  &tfc_kernels_strings, \
  &tfc_kernels_string_format, \
  &tfc_kernels_string_segment_join, \
  &tfc_kernels_string_ngrams, \
  &tfc_kernels_edit_distance, \
  &tfc_kernels_audio, \
  &tfc_kernels_fake_quant, \
  &tfc_kernels_quantize, \
  &tfc_kernels_quantize_dequantize, \
  &tfc_kernels_linalg, \
  &tfc_kernels_linalg_lu, \
  &tfc_kernels_linalg_sqrtm, \
  &tfc_kernels_math_special, \
  &tfc_kernels_scatter_nd, \
  &tfc_kernels_script, \
  &tfc_kernels_base64, \
  &tfc_kernels_decode_compressed, \
  &tfc_kernels_tensor_serialize, \
  &tfc_kernels_matching_files, \
  &tfc_kernels_sparse_serialize, \
  &tfc_kernels_sparse_map, \
  &tfc_kernels_string_hash, \
  &tfc_kernels_lookup, \
  &tfc_kernels_bucketize, \
  &tfc_kernels_sparse_cross, \
  &tfc_kernels_set_ops, \
  &tfc_kernels_util, \
  &tfc_kernels_sort, \
  &tfc_kernels_array_extra, \
  &tfc_kernels_lrn, \
  &tfc_kernels_image_hsv, \
  &tfc_kernels_complex, \
  &tfc_kernels_fft, \
  &tfc_kernels_nms, \
  &tfc_kernels_crop_and_resize, \
  &tfc_kernels_image_boxes, \
  &tfc_kernels_resize_area, \
  &tfc_kernels_conv3d, \
  &tfc_kernels_pool3d, \
  &tfc_kernels_pool_argmax, \
  &tfc_kernels_dilation, \
  &tfc_kernels_patches, \
  &tfc_kernels_ctc, \
  &tfc_kernels_ctc_beam

#endif
