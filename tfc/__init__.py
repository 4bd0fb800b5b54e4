"""tfc: TensorFlow 1.x's graph/session API in C.  Use it as `import tfc as tf`."""
# pylint: disable=g-bad-import-order,redefined-builtin,wildcard-import
import numpy as _np  # noqa: F401  (first, so NumPy's own BLAS sees the user's settings)


def _load_extension():
    """Imports tfc._tfc, or says what to run when it is not built.

    The extension loads OpenBLAS itself on its first matrix product (with its
    own threads off, so importing tfc starts no thread and stays fork-safe);
    TFC_OPENBLAS_CORETYPE, when set, chooses OpenBLAS's kernel explicitly.
    """
    try:
        from tfc import _tfc
    except ImportError as e:
        if getattr(e, "name", None) not in ("tfc._tfc", None) and "_tfc" not in str(e):
            raise
        import os
        raise ImportError(
            "tfc's C extension (tfc._tfc) is not built beside the sources in %s. "
            "In a clone of the repository run `make install` (or `make test`), which "
            "builds it and links it there; or install the package with `pip install .` "
            "and import it from outside the source folder. (%s)"
            % (os.path.dirname(os.path.abspath(__file__)), e)) from None
    return _tfc


_tfc = _load_extension()

from tfc import dtypes
from tfc import errors
from tfc.dtypes import (DType, as_dtype, float16, half, float32, float64, double, bfloat16,  # noqa: F401
                        int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool,
                        string, complex64, complex128, qint8, quint8, qint16, quint16, qint32,
                        resource, variant, QUANTIZED_DTYPES)
from tfc.framework import ops as _ops
from tfc.framework.ops import (Graph, Operation, Tensor, GraphKeys, get_default_graph,  # noqa: F401
                               reset_default_graph, name_scope, control_dependencies, device,
                               colocate_with, container, add_to_collection, add_to_collections,
                               get_collection, get_collection_ref, get_all_collection_keys,
                               convert_to_tensor, convert_n_to_tensor,
                               convert_to_tensor_or_indexed_slices,
                               register_tensor_conversion_function, get_default_session,
                               init_scope, executing_eagerly, enable_eager_execution,
                               disable_eager_execution, get_name_scope)
from tfc.framework.tensor_shape import (TensorShape, Dimension, dimension_value,  # noqa: F401
                                        dimension_at_index)
from tfc.framework.device import DeviceSpec  # noqa: F401
from tfc.framework.constant_op import constant  # noqa: F401
from tfc.framework import op_def_library as _op_def_library  # noqa: F401

from tfc.ops.math_ops import (add, subtract, sub, multiply, mul, divide, truediv, div,  # noqa: F401
                              floordiv, floor_div, mod, floormod, truncatemod, truncatediv,
                              realdiv, pow, negative, neg, abs, square, sqrt, rsqrt, exp, log,
                              log1p, tanh, sigmoid, sign, reciprocal, floor, ceil, round, sin,
                              cos, is_nan, is_inf, is_finite, maximum, minimum,
                              squared_difference, equal, not_equal, less, less_equal, greater,
                              greater_equal, logical_and, logical_or, logical_not, logical_xor,
                              cast, saturate_cast, to_float, to_double, to_int32, to_int64,
                              to_bfloat16, to_complex64, to_complex128, complex, add_n,
                              accumulate_n, matmul, reduce_sum, reduce_mean,
                              reduce_max, reduce_min, reduce_prod, reduce_all, reduce_any,
                              reduce_logsumexp, count_nonzero, argmax, argmin, range,
                              scalar_mul, conj, div_no_nan, clip_by_value,
                              unsorted_segment_sum)
from tfc.ops.array_ops import (placeholder, placeholder_with_default, zeros, ones,  # noqa: F401
                               zeros_like, ones_like, fill, shape, shape_n, size, rank,
                               identity, stop_gradient, reshape, squeeze, expand_dims,
                               transpose, matrix_transpose, concat, stack, pack, parallel_stack,
                               unstack, unpack, split, slice, strided_slice, tile, pad, gather,
                               one_hot, where, reverse, boolean_mask, newaxis,
                               invert_permutation, check_numerics, identity_n,
                               broadcast_to, unique, select)
from tfc.ops.math_ops import (arg_max, arg_min, expm1, log_sigmoid, lin_space, linspace,  # noqa: F401
                              norm, is_numeric_tensor, is_non_decreasing, is_strictly_increasing,
                              unsorted_segment_mean, unsorted_segment_sqrt_n, confusion_matrix,
                              rint, real, imag, angle, segment_sum, segment_mean, bincount)
from tfc.ops.array_ops import (where_v2, reverse_v2, sequence_mask, eye, meshgrid,  # noqa: F401
                               broadcast_static_shape, reverse_sequence)
from tfc.ops.array_ops import (space_to_batch_nd, batch_to_space_nd, space_to_batch,  # noqa: F401
                               batch_to_space, space_to_depth, depth_to_space)
from tfc.client.session import Session, InteractiveSession  # noqa: F401

__version__ = "1.15.0"
VERSION = __version__
GIT_VERSION = "tfc"
COMPILER_VERSION = "tfc"
__tfc_version__ = "0.1.0"

def is_tensor(x):
  return isinstance(x, Tensor)


def disable_v2_behavior():
  """No-op: tfc always has TF 1.x behaviour."""


def enable_v2_behavior():
  raise NotImplementedError("tfc implements the TF 1.x API only")




def disable_v2_tensorshape():
  """No-op: tfc TensorShapes have TF 1.x (Dimension) behaviour."""


def executing_eagerly_outside_functions():
  """False: tfc builds graphs (TF 1.x graph mode)."""
  return False


def op_scope(values, name, default_name=None):
  """TF 0.x's name_scope (deprecated): `tf.name_scope(name, default_name, values)`."""
  from tfc import logging as _logging_module  # pylint: disable=g-import-not-at-top
  _logging_module.warning("tf.op_scope(values, name, default_name) is deprecated, use "
                          "tf.name_scope(name, default_name, values)")
  return name_scope(name, default_name=default_name, values=values)


def get_logger():
  from tfc import logging as _logging_module  # pylint: disable=g-import-not-at-top
  return _logging_module.get_logger()



# Names that load their module on first use (module __getattr__ below), so
# that `import tfc` and a frozen graph's inference (the graph, its import,
# the session, the kernels' Python faces, array and math ops) pay for no more.
# dir(tfc) lists them; `from tfc import x` and tfc.x work as for any other name.
_LAZY = {"gradients": ("tfc.ops.gradients_impl", "gradients"),
         "hessians": ("tfc.ops.gradients_impl", "hessians"),
         "AggregationMethod": ("tfc.ops.gradients_impl", "AggregationMethod"),
         "test": ("tfc.test", None),
         "app": ("tfc.app", None),
         "flags": ("tfc.flags", None),
         "version": ("tfc.version", None),
         "OpError": ("tfc.errors", "OpError")}
# TF 1.x functions composed of other ops, in modules of their own.
_LAZY.update((_name, ("tfc.ops.clip_ops", _name)) for _name in (
    "clip_by_norm", "clip_by_global_norm", "global_norm", "clip_by_average_norm"))
_LAZY.update((_name, ("tfc.ops.numerics", _name)) for _name in (
    "verify_tensor_all_finite", "add_check_numerics_ops"))
_LAZY.update((_name, ("tfc.ops.lookup_ops", _name)) for _name in (
    "tables_initializer", "initialize_all_tables"))
_LAZY.update((_name, ("tfc.ops.check_ops", _name)) for _name in (
    "assert_equal", "assert_none_equal", "assert_less", "assert_less_equal", "assert_greater",
    "assert_greater_equal", "assert_positive", "assert_negative", "assert_non_negative",
    "assert_non_positive", "assert_near", "assert_rank", "assert_rank_at_least",
    "assert_rank_in", "assert_integer", "assert_type", "assert_scalar",
    "assert_proper_iterable", "assert_same_float_dtype"))
_LAZY["debugging"] = ("tfc.debugging", None)
_LAZY["manip"] = ("tfc.manip", None)
_LAZY["nest"] = ("tfc.nest", None)
_LAZY["metrics"] = ("tfc.metrics", None)
_LAZY["make_template"] = ("tfc.ops.template", "make_template")
_LAZY.update((_name, ("tfc.ops.linalg_ops", _name)) for _name in (
    "tensordot", "trace", "cross", "matrix_diag_part", "matrix_diag", "matrix_set_diag",
    "matrix_band_part"))
_LAZY["matrix_square_root"] = ("tfc.ops.linalg_lu", "matrix_square_root")
_LAZY.update({"diag": ("tfc.ops.linalg_ops", "tensor_diag"),
              "diag_part": ("tfc.ops.linalg_ops", "tensor_diag_part")})
# Namespaces a frozen-graph inference never touches load on first use.
_LAZY.update((_name, ("tfc." + _name, None)) for _name in (
    "initializers", "logging", "train", "compat", "losses", "layers", "image", "io", "summary"))
_LAZY.update({"graph_util": ("tfc.framework.graph_util", None),
              "read_file": ("tfc.io", "read_file"), "write_file": ("tfc.io", "write_file")})
# Input pipelines: TFRecord files, Example parsing, sparse tensors.
_LAZY["python_io"] = ("tfc.python_io", None)
_LAZY["saved_model"] = ("tfc.saved_model", None)
_LAZY.update((_name, ("tfc.framework.indexed_slices", _name)) for _name in (
    "IndexedSlices", "IndexedSlicesValue"))
# Dense linear algebra (LAPACK).
_LAZY.update((_name, ("tfc.ops.linalg_impl", _name)) for _name in (
    "cholesky", "matrix_inverse", "matrix_determinant", "log_matrix_determinant",
    "matrix_solve", "matrix_triangular_solve", "self_adjoint_eig", "self_adjoint_eigvals",
    "svd", "qr", "cholesky_solve", "matrix_solve_ls"))
# String ops.
# Spectral ops: FFTs, tf.signal, tf.spectral.
_LAZY["signal"] = ("tfc.signal", None)
_LAZY["spectral"] = ("tfc.spectral", None)
_LAZY.update((_name, ("tfc.ops.spectral_ops", _name)) for _name in (
    "fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d"))
_LAZY.update((_name, ("tfc.ops.nn_window_ops", _name)) for _name in (
    "extract_image_patches", "extract_volume_patches"))
_LAZY["strings"] = ("tfc.strings", None)
_LAZY["lookup"] = ("tfc.lookup", None)
_LAZY["feature_column"] = ("tfc.feature_column", None)
_LAZY["sets"] = ("tfc.sets", None)
_LAZY["print"] = ("tfc.ops.logging_ops", "print_v2")
_LAZY["audio"] = ("tfc.audio", None)
_LAZY["quantization"] = ("tfc.quantization", None)
_LAZY.update((_name, ("tfc.ops.fake_quant_ops", _name)) for _name in (
    "fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient",
    "fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars_gradient",
    "fake_quant_with_min_max_vars_per_channel",
    "fake_quant_with_min_max_vars_per_channel_gradient"))
_LAZY.update((_name, ("tfc.ops.quantize_ops", _name)) for _name in (
    "quantize", "quantize_v2", "dequantize", "quantized_concat"))
_LAZY["unique_with_counts"] = ("tfc.ops.array_ops", "unique_with_counts")
_LAZY["edit_distance"] = ("tfc.ops.array_ops", "edit_distance")
_LAZY["required_space_to_batch_paddings"] = ("tfc.ops.array_ops",
                                              "required_space_to_batch_paddings")
_LAZY.update((_name, ("tfc.ops.state_ops", _name)) for _name in (
    "scatter_nd_update", "scatter_nd_add", "scatter_nd_sub", "batch_scatter_update"))
_LAZY.update({"as_string": ("tfc.ops.string_ops", "as_string"),
              "string_to_number": ("tfc.ops.string_ops", "to_number"),
              "string_strip": ("tfc.ops.string_ops", "strip"),
              "substr": ("tfc.ops.string_ops", "substr"),
              "reduce_join": ("tfc.ops.string_ops", "reduce_join"),
              "regex_replace": ("tfc.ops.string_ops", "regex_replace"),
              "string_join": ("tfc.ops.string_ops", "join"),
              "string_to_hash_bucket_strong": ("tfc.ops.string_ops", "to_hash_bucket_strong"),
              "string_to_hash_bucket_fast": ("tfc.ops.string_ops", "to_hash_bucket_fast"),
              "string_to_hash_bucket": ("tfc.ops.string_ops", "to_hash_bucket"),
              "fingerprint": ("tfc.ops.string_ops", "fingerprint")})
# Sparse tensors, row partitioning and stitching.
_LAZY["sparse"] = ("tfc.sparse", None)
_LAZY.update((_name, ("tfc.ops.data_flow_ops", _name)) for _name in (
    "dynamic_partition", "dynamic_stitch", "parallel_dynamic_stitch"))
_LAZY.update((_name, ("tfc.ops.sparse_ops", _name)) for _name in (
    "sparse_to_dense", "sparse_tensor_to_dense", "sparse_tensor_dense_matmul", "sparse_reorder",
    "sparse_reduce_sum", "sparse_add", "sparse_concat", "sparse_reshape", "sparse_retain",
    "sparse_fill_empty_rows", "sparse_placeholder", "sparse_reset_shape", "sparse_slice",
    "sparse_split", "sparse_to_indicator", "sparse_transpose", "sparse_segment_sum",
    "sparse_segment_mean", "sparse_segment_sqrt_n", "sparse_matmul", "sparse_softmax",
    "sparse_maximum", "sparse_minimum", "sparse_mask", "sparse_merge", "sparse_reduce_max",
    "sparse_reduce_max_sparse", "sparse_reduce_sum_sparse"))
_LAZY["setdiff1d"] = ("tfc.ops.array_ops", "setdiff1d")
_LAZY.update((_name, ("tfc.ops.parsing_ops", _name)) for _name in (
    "parse_example", "parse_single_example", "FixedLenFeature", "VarLenFeature",
    "FixedLenSequenceFeature", "decode_raw", "decode_csv", "string_split",
    "parse_single_sequence_example", "SparseFeature"))
_LAZY.update((_name, ("tfc.framework.sparse_tensor", _name)) for _name in (
    "SparseTensor", "SparseTensorValue", "convert_to_tensor_or_sparse_tensor"))
_LAZY["TensorArray"] = ("tfc.ops.tensor_array_ops", "TensorArray")
# Queues and readers.
_LAZY.update((_name, ("tfc.ops.data_flow_ops", _name)) for _name in (
    "QueueBase", "FIFOQueue", "PaddingFIFOQueue", "RandomShuffleQueue", "PriorityQueue",
    "ConditionalAccumulatorBase", "ConditionalAccumulator", "SparseConditionalAccumulator"))
_LAZY.update((_name, ("tfc.ops.io_ops", _name)) for _name in (
    "ReaderBase", "TFRecordReader", "WholeFileReader", "TextLineReader", "FixedLengthRecordReader",
    "IdentityReader"))
_LAZY["queue"] = ("tfc.queue", None)
_LAZY["data"] = ("tfc.data", None)
# Variables, initializers, control flow, random and state ops, and the nn,
# math, linalg and random namespaces.
for _module, _names in (
    ("tfc.framework.random_seed", "set_random_seed get_seed"),
    ("tfc.ops.random_ops", "random_normal random_uniform truncated_normal random_shuffle "
                           "multinomial random_crop random_gamma random_poisson"),
    ("tfc.ops.state_ops", "assign assign_add assign_sub is_variable_initialized count_up_to "
                          "scatter_update scatter_add scatter_sub scatter_mul scatter_div "
                          "scatter_max scatter_min"),
    ("tfc.ops.control_flow_ops", "group no_op tuple with_dependencies case cond while_loop"),
    ("tfc.ops.functional_ops", "foldl foldr map_fn scan"),
    ("tfc.ops.logging_ops", "Print Assert"),
    ("tfc.ops.variables", "Variable global_variables all_variables local_variables "
                          "trainable_variables model_variables moving_average_variables "
                          "variables_initializer initialize_variables "
                          "global_variables_initializer initialize_all_variables "
                          "local_variables_initializer initialize_local_variables "
                          "report_uninitialized_variables assert_variables_initialized"),
    ("tfc.ops.variable_scope", "variable_scope variable_op_scope VariableScope get_variable "
                               "get_local_variable get_variable_scope no_regularizer AUTO_REUSE"),
    ("tfc.ops.init_ops", "zeros_initializer ones_initializer constant_initializer "
                         "random_uniform_initializer random_normal_initializer "
                         "truncated_normal_initializer variance_scaling_initializer "
                         "glorot_uniform_initializer glorot_normal_initializer he_normal "
                         "he_uniform lecun_normal lecun_uniform orthogonal_initializer"),
    ("tfc.ops.gradient_registry", "RegisterGradient NoGradient no_gradient NotDifferentiable")):
  _LAZY.update((_name, (_module, _name)) for _name in _names.split())
del _module, _names
_LAZY.update((_name, ("tfc." + _name, None)) for _name in ("nn", "math", "linalg", "random"))
# Trigonometry, special functions and bitwise ops beyond the basic math family.
_LAZY.update((_name, ("tfc.ops.special_math_ops", _name)) for _name in (
    "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "atan2", "erf",
    "erfc", "lgamma", "digamma", "igamma", "igammac", "zeta", "polygamma", "lbeta", "betainc"))
_LAZY["bitwise"] = ("tfc.bitwise", None)
_LAZY.update((_name, ("tfc.ops.einsum_ops", _name)) for _name in (
    "einsum", "repeat", "batch_gather"))
_LAZY.update((_name, ("tfc.ops.array_extra_ops", _name)) for _name in (
    "ensure_shape", "broadcast_dynamic_shape", "bitcast", "unravel_index",
    "histogram_fixed_width", "histogram_fixed_width_bins"))
_LAZY.update((_name, ("tfc.ops.sort_ops", _name)) for _name in (
    "sort", "argsort", "searchsorted"))
_LAZY.update((_name, ("tfc.ops.scatter_nd_ops", _name)) for _name in (
    "gather_nd", "scatter_nd", "tensor_scatter_nd_update", "tensor_scatter_nd_add",
    "tensor_scatter_nd_sub", "tensor_scatter_nd_min", "tensor_scatter_nd_max",
    "tensor_scatter_update", "tensor_scatter_add", "tensor_scatter_sub"))
_LAZY.update((_name, ("tfc.ops.scan_ops", _name)) for _name in ("cumsum", "cumprod", "roll"))
_LAZY.update((_name, ("tfc.ops.segment_ops", _name)) for _name in (
    "segment_max", "segment_min", "segment_prod", "unsorted_segment_max",
    "unsorted_segment_min", "unsorted_segment_prod"))
_LAZY.update({"gfile": ("tfc.gfile", None),
              "make_tensor_proto": ("tfc.framework.graph_io", "make_tensor_proto"),
              "make_ndarray": ("tfc.framework.graph_io", "make_ndarray")})
# Resource-variable switches (the module loads on first use).
_LAZY.update((_name, ("tfc.ops.resource_variable_ops", _name)) for _name in (
    "enable_resource_variables", "disable_resource_variables", "resource_variables_enabled"))
# Protocol-buffer messages (google.protobuf classes, built on first use).
_LAZY.update((_name, ("tfc.protos", _name)) for _name in (
    "ConfigProto", "GPUOptions", "GraphOptions", "OptimizerOptions", "RPCOptions",
    "RunOptions", "RunMetadata", "SessionLog", "GraphDef", "NodeDef", "AttrValue",
    "NameAttrList", "TensorProto", "TensorShapeProto", "VersionDef", "MetaGraphDef",
    "TensorInfo"))

# Type specs, static values, gradient and variable policies, partitioners,
# library loading, resource files, and the summary/event message classes.
_LAZY.update((_name, ("tfc.framework.type_spec", _name)) for _name in (
    "TypeSpec", "TensorSpec", "SparseTensorSpec", "IndexedSlicesSpec", "NoneTensorSpec",
    "OptionalSpec", "TensorArraySpec", "type_spec_from_value"))
_LAZY.update((_name, ("tfc.framework.tensor_util", _name)) for _name in (
    "get_static_value", "is_symbolic_tensor"))
_LAZY["UnconnectedGradients"] = ("tfc.ops.unconnected_gradients", "UnconnectedGradients")
_LAZY.update((_name, ("tfc.ops.variable_policies", _name)) for _name in (
    "VariableAggregation", "VariableSynchronization"))
_LAZY.update((_name, ("tfc.ops.partitioned_variables", _name)) for _name in (
    "fixed_size_partitioner", "min_max_variable_partitioner", "variable_axis_size_partitioner"))
_LAZY.update((_name, ("tfc.framework.load_library", _name)) for _name in (
    "load_op_library", "load_library", "load_file_system_library"))
_LAZY["resource_loader"] = ("tfc.resource_loader", None)
_LAZY.update((_name, ("tfc.version", _name)) for _name in (
    "GRAPH_DEF_VERSION", "GRAPH_DEF_VERSION_MIN_CONSUMER", "GRAPH_DEF_VERSION_MIN_PRODUCER"))
_LAZY.update((_name, ("tfc.protos", _name)) for _name in (
    "Summary", "Event", "HistogramProto", "SummaryMetadata", "LogMessage"))
_LAZY["distributions"] = ("tfc.distributions", None)
_LAZY.update((_name, ("tfc.ops.util_ops", _name)) for _name in (
    "guarantee_const", "timestamp", "switch_case"))
_LAZY["uniform_unit_scaling_initializer"] = ("tfc.ops.init_ops_extra", "UniformUnitScaling")
_LAZY.update((_name, ("tfc.ops.encoding_ops", _name)) for _name in (
    "encode_base64", "decode_base64", "decode_compressed", "serialize_tensor", "parse_tensor",
    "matching_files", "serialize_sparse", "serialize_many_sparse", "deserialize_many_sparse"))
# Gradients defined by Python functions.
_LAZY.update((_name, ("tfc.ops.custom_gradient", _name)) for _name in (
    "custom_gradient", "grad_pass_through", "recompute_grad"))
# Python functions as graph ops.
_LAZY.update((_name, ("tfc.ops.script_ops", _name)) for _name in (
    "py_func", "numpy_function", "py_function"))


def __getattr__(name):
  """Loads the names in _LAZY (variables, control flow, tf.nn, tf.train, the
  protocol-buffer message classes, ...) from their modules on first use, and
  keeps them as module attributes so later accesses are plain lookups."""
  entry = _LAZY.get(name)
  if entry is None:
    raise AttributeError("module 'tfc' has no attribute %r" % name)
  import importlib
  mod = importlib.import_module(entry[0])
  value = mod if entry[1] is None else getattr(mod, entry[1])
  globals()[name] = value
  return value


def __dir__():
  return sorted(set(globals()) | set(_LAZY))

from tfc.framework.importer import import_graph_def  # noqa: F401,E402
