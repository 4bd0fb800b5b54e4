"""The TF 1.15 public surface: names, signatures, dtypes, shapes, aliases, and what
keeps import light (lazy modules, no threads)."""
import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

import tfc as tf




TOP_LEVEL = """
Graph Operation Tensor Session InteractiveSession Variable DType TensorShape Dimension
DeviceSpec GraphKeys ConfigProto GPUOptions GraphOptions OptimizerOptions RunOptions RunMetadata
VariableScope AUTO_REUSE newaxis
get_default_graph reset_default_graph get_default_session name_scope control_dependencies device
colocate_with container add_to_collection add_to_collections get_collection get_collection_ref
get_all_collection_keys convert_to_tensor register_tensor_conversion_function constant
placeholder placeholder_with_default set_random_seed get_seed
add subtract multiply divide truediv floordiv mod pow negative abs square sqrt rsqrt exp log tanh
sigmoid sign maximum minimum equal not_equal less less_equal greater greater_equal logical_and
logical_or logical_not logical_xor cast to_float to_int32 to_int64 add_n matmul reduce_sum
reduce_mean reduce_max reduce_min reduce_prod reduce_all reduce_any argmax argmin reshape squeeze
expand_dims transpose concat stack pack unstack unpack split slice strided_slice tile pad gather
one_hot fill zeros ones zeros_like ones_like range shape size rank where identity no_op group
tuple stop_gradient random_uniform random_normal truncated_normal random_shuffle Print
zeros_initializer ones_initializer constant_initializer random_uniform_initializer
random_normal_initializer truncated_normal_initializer glorot_uniform_initializer
glorot_normal_initializer variance_scaling_initializer get_variable variable_scope
get_variable_scope global_variables local_variables trainable_variables
global_variables_initializer initialize_all_variables variables_initializer
local_variables_initializer report_uninitialized_variables is_variable_initialized assign
assign_add assign_sub float16 float32 float64 int8 int16 int32 int64 uint8 uint16 string bool
complex64 complex128 as_dtype errors train nn math linalg logging compat dtypes
""".split()

SIGNATURES = {
    "constant": ["value", "dtype", "shape", "name", "verify_shape"],
    "placeholder": ["dtype", "shape", "name"],
    "Variable": ["initial_value", "trainable", "collections", "validate_shape", "caching_device",
                 "name", "variable_def", "dtype", "expected_shape", "import_scope",
                 "constraint"],
    "Session": ["target", "graph", "config"],
    "reduce_sum": ["input_tensor", "axis", "keepdims", "name", "reduction_indices",
                   "keep_dims"],
    "argmax": ["input", "axis", "name", "dimension", "output_type"],
    "matmul": ["a", "b", "transpose_a", "transpose_b", "adjoint_a", "adjoint_b", "a_is_sparse",
               "b_is_sparse", "name"],
    "squeeze": ["input", "axis", "name", "squeeze_dims"],
    "expand_dims": ["input", "axis", "name", "dim"],
    "transpose": ["a", "perm", "name", "conjugate"],
    "concat": ["values", "axis", "name"],
    "stack": ["values", "axis", "name"],
    "unstack": ["value", "num", "axis", "name"],
    "pad": ["tensor", "paddings", "mode", "name", "constant_values"],
    "one_hot": ["indices", "depth", "on_value", "off_value", "axis", "dtype", "name"],
    "Print": ["input_", "data", "message", "first_n", "summarize", "name"],
    "random_uniform": ["shape", "minval", "maxval", "dtype", "seed", "name"],
    "random_normal": ["shape", "mean", "stddev", "dtype", "seed", "name"],
    "get_variable": ["name", "shape", "dtype", "initializer", "regularizer", "trainable",
                     "collections", "caching_device", "partitioner", "validate_shape",
                     "use_resource", "custom_getter", "constraint"],
    "where": ["condition", "x", "y", "name"],
    "range": ["start", "limit", "delta", "dtype", "name"],
    "cast": ["x", "dtype", "name"],
}


@pytest.mark.parametrize("name", TOP_LEVEL)
def test_top_level_names(name):
  assert hasattr(tf, name), name


@pytest.mark.parametrize("name,params", sorted(SIGNATURES.items()))
def test_signatures(name, params):
  sig = inspect.signature(getattr(tf, name))
  got = [p for p in sig.parameters if p != "self"]
  assert got[:len(params)] == params


def test_namespaces_and_aliases():
  assert tf.compat.v1 is tf
  assert tf.math.add is tf.add and tf.math.reduce_sum is tf.reduce_sum
  assert tf.linalg.matmul is tf.matmul
  for n in ("relu", "relu6", "softmax", "log_softmax", "sigmoid", "tanh", "bias_add", "l2_loss"):
    assert callable(getattr(tf.nn, n))
  assert tf.train.ClusterSpec and tf.train.replica_device_setter
  assert tf.__version__.startswith("1.15")
  assert tf.newaxis is None
  assert tf.GraphKeys.GLOBAL_VARIABLES == "variables"
  assert tf.GraphKeys.TRAINABLE_VARIABLES == "trainable_variables"
  assert tf.GraphKeys.LOCAL_VARIABLES == "local_variables"
  tf.logging.set_verbosity(tf.logging.INFO)
  assert tf.logging.get_verbosity() == tf.logging.INFO
  tf.logging.info("hello %s", "tfc")
  tf.logging.set_verbosity(tf.logging.WARN)


def test_dtypes():
  assert tf.float32.as_datatype_enum == 1 and tf.string.as_datatype_enum == 7
  assert repr(tf.float32) == "tf.float32" and str(tf.float32) == "<dtype: 'float32'>"
  assert tf.as_dtype("float") is tf.float32 and tf.as_dtype("double") is tf.float64
  assert tf.as_dtype(np.int64) is tf.int64 and tf.as_dtype(np.dtype("bool")) is tf.bool
  assert tf.as_dtype(float) is tf.float32 and tf.as_dtype(3) is tf.int32
  assert tf.as_dtype(np.dtype("<U3")) is tf.string
  ref = tf.as_dtype(101)
  assert ref.name == "float32_ref" and ref.base_dtype is tf.float32 and ref._is_ref_dtype
  assert tf.float32._as_ref is ref
  assert tf.float32 == "float32" and tf.float32 == np.float32 and tf.float32 == 1
  assert tf.float32 != tf.float64 and not (tf.float32 == "nonsense") and tf.float32 != None  # noqa: E711
  assert tf.float32.as_numpy_dtype is np.float32
  assert tf.int32.max == 2 ** 31 - 1 and tf.int32.min == -2 ** 31 and tf.uint8.max == 255
  assert tf.float32.max == np.finfo(np.float32).max
  assert tf.float16.is_floating and tf.int8.is_integer and not tf.bool.is_integer
  assert tf.uint16.is_unsigned and tf.complex64.is_complex and tf.complex64.real_dtype is tf.float32
  assert tf.float64.size == 8
  assert len({tf.float32, tf.as_dtype("float32"), tf.float64}) == 2
  with pytest.raises(TypeError):
    tf.as_dtype("nonsense")
  with pytest.raises(TypeError):
    tf.as_dtype(str)


def test_tensor_shape_and_dimension():
  s = tf.TensorShape([2, None])
  assert str(s) == "(2, ?)"
  assert repr(s) == "TensorShape([Dimension(2), Dimension(None)])"
  assert str(tf.TensorShape(None)) == "<unknown>" and str(tf.TensorShape([3])) == "(3,)"
  assert str(tf.TensorShape([])) == "()"
  assert s.as_list() == [2, None] and s.ndims == 2 and len(s) == 2
  assert s[0] == 2 and isinstance(s[0], tf.Dimension) and s[1].value is None
  assert [d.value for d in s] == [2, None] and [d.value for d in s.dims] == [2, None]
  assert s[1:].as_list() == [None]
  assert s.merge_with([None, 4]).as_list() == [2, 4]
  with pytest.raises(ValueError, match="are not compatible"):
    tf.TensorShape([2]).merge_with([3])
  assert s.is_compatible_with([2, 3]) and not s.is_compatible_with([3, 3])
  assert not s.is_compatible_with([2, 3, 4])
  assert tf.TensorShape(None).is_compatible_with([1, 2])
  assert not s.is_fully_defined() and tf.TensorShape([1, 2]).is_fully_defined()
  assert s.concatenate([5]).as_list() == [2, None, 5]
  assert tf.TensorShape([2, 3]).num_elements() == 6 and s.num_elements() is None
  assert tf.TensorShape([2, 3]) == tf.TensorShape([2, 3])
  with pytest.raises(ValueError):
    len(tf.TensorShape(None))
  with pytest.raises(ValueError):
    tf.TensorShape(None).as_list()
  assert str(tf.Dimension(None)) == "?" and repr(tf.Dimension(3)) == "Dimension(3)"
  assert (tf.Dimension(3) + 4).value == 7 and (tf.Dimension(None) + 1).value is None
  assert tf.Dimension(3) == 3 and (tf.Dimension(None) == 3) is None
  assert tf.dimension_value(tf.Dimension(5)) == 5 and tf.dimension_value(5) == 5
  assert tf.TensorShape([2, 3]).with_rank(2).as_list() == [2, 3]
  with pytest.raises(ValueError):
    tf.TensorShape([2, 3]).with_rank(3)


def test_import_loads_only_the_core():
  # Import cost is measured by benchmarks/bench_import.py (BENCHMARKS.md); here we
  # check what keeps it small: the gradient machinery, the test helpers, the
  # MetaGraph code and google.protobuf (the message classes) load on first use,
  # not at import, nor for a local session without a config.
  code = ("import sys, tfc; tfc.Session().run(tfc.constant(1.0) + 1.0); "
          "print(' '.join(m for m in ('tfc.ops.gradients_impl', 'tfc.test', "
          "'tfc.framework.meta_graph', 'google.protobuf') if m in sys.modules))")
  out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       check=True).stdout
  assert out.strip() == ""


def test_import_starts_no_threads():
  code = "import threading, numpy; n = threading.active_count(); import tfc; " \
         "print(threading.active_count() - n)"
  out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       check=True).stdout
  assert out.strip() == "0"


def test_graph_construction_of_a_50_layer_mlp():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [None, 64])
    h = x
    for i in range(50):
      with tf.variable_scope("layer%d" % i):
        w = tf.get_variable("w", [64, 64])
        b = tf.get_variable("b", [64], initializer=tf.zeros_initializer())
        h = tf.nn.relu(tf.matmul(h, w) + b)
    tf.reduce_mean(tf.square(h))
  # (its speed is measured by benchmarks/bench_train.py's gradient-build benchmark)
  n_ops = len(g.get_operations())
  assert n_ops > 700


def test_openblas_loads_on_first_product_without_threads():
  # OpenBLAS is dlopen()ed by the first product that needs it (float64 GEMM
  # here), with its own threads off and the user's environment left as it was.
  code = (
      "import os, numpy as np\n"
      "os.environ['OPENBLAS_NUM_THREADS'] = '7'\n"
      "def maps(): return open('/proc/self/maps').read()\n"
      "def threads(): return len(os.listdir('/proc/self/task'))\n"
      "import tfc\n"
      "before = 'libopenblas' in maps()\n"
      "a = np.random.RandomState(0).rand(256, 256)\n"
      "x = tfc.placeholder(tfc.float64)\n"
      "with tfc.Session() as s:\n"
      "  s.run(x + 1.0, {x: a}); n = threads()\n"
      "  r = s.run(tfc.matmul(x, x), {x: a})\n"
      "assert np.allclose(r, a @ a)\n"
      "print(before, 'libopenblas' in maps(), threads() - n, os.environ['OPENBLAS_NUM_THREADS'])\n")
  out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       check=True).stdout
  assert out.split() == ["False", "True", "0", "7"]


FARM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "farm")

# Modules a frozen graph's inference does not need; `import tfc` leaves them
# for first use (tfc._LAZY), and running the seed's task must not pull them in.
_NOT_FOR_INFERENCE = (
    "tfc.ops.control_flow_ops", "tfc.ops.functional_ops", "tfc.ops.variables",
    "tfc.ops.variable_scope", "tfc.ops.init_ops", "tfc.ops.random_ops", "tfc.ops.state_ops",
    "tfc.ops.nn_ops", "tfc.ops.linalg_ops", "tfc.ops.gradient_registry", "tfc.nn", "tfc.math",
    "tfc.linalg", "tfc.random", "tfc.train", "tfc.layers", "tfc.framework.nest",
    "tfc.framework.graph_io")


def test_frozen_graph_inference_loads_only_what_it_needs():
  # The seed's task as written (GFile, GraphDef, import_graph_def, ConfigProto,
  # Session, tf.squeeze, one image path): none of the modules above, no
  # `threading` from tfc itself before the first message, and neither OpenBLAS
  # (the classifier head's small product runs on oneDNN) nor a thread.
  code = (
      "import os, sys, numpy\n"
      "def maps(): return open('/proc/self/maps').read()\n"
      "def threads(): return len(os.listdir('/proc/self/task'))\n"
      "n = threads(); had = 'threading' in sys.modules\n"
      "import tfc as tf\n"
      "print('threading' in sys.modules and not had, 'libdnnl' in maps())\n"
      "with tf.gfile.GFile(%r, 'rb') as f:\n"
      "  gd = tf.GraphDef(); gd.ParseFromString(f.read())\n"
      "with tf.Graph().as_default() as g:\n"
      "  tf.import_graph_def(gd, input_map=None, return_elements=None, name='')\n"
      "config = tf.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)\n"
      "config.graph_options.optimizer_options.opt_level = "
      "config.graph_options.optimizer_options.L0\n"
      "with tf.Session(graph=g, config=config) as sess:\n"
      "  res = sess.run(tf.squeeze(g.get_tensor_by_name('output:0')),\n"
      "                 {g.get_tensor_by_name('image_path:0'): %r})\n"
      "print(int(res), 'libopenblas' in maps(), threads() - n)\n"
      "print(' '.join(m for m in %r if m in sys.modules) or '-')\n"
      % (os.path.join(FARM, "frozen_model.pb"), os.path.join(FARM, "input", "img0.jpg"),
         _NOT_FOR_INFERENCE))
  out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       check=True, cwd="/").stdout.split("\n")
  assert out[0] == "False False"
  cls, blas, new_threads = out[1].split()
  assert 0 <= int(cls) < 10 and blas == "False" and new_threads == "0"
  assert out[2] == "-"


def test_lazy_names_resolve_and_are_listed():
  # Every name of tfc._LAZY is in dir(tfc), resolves to the object its
  # module defines, and `from tfc import x` works like an attribute access.
  import importlib
  names = dir(tf)
  for name, (module, attr) in sorted(tf._LAZY.items()):
    assert name in names
    mod = importlib.import_module(module)
    assert getattr(tf, name) is (mod if attr is None else getattr(mod, attr)), name
  ns = {}
  exec("from tfc import cond, Variable, variable_scope, nn", ns)
  assert ns["cond"] is tf.cond and ns["Variable"] is tf.Variable and ns["nn"] is tf.nn
  assert tf.Variable.__module__ == "tfc.ops.variables"
