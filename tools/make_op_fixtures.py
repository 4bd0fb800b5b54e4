#!/usr/bin/env python3
"""Writes tests/fixtures/ops/: one frozen GraphDef per op type that tfc
registers, built and run by real TensorFlow, with TF's outputs beside it.

Run with the TensorFlow venv (tf.compat.v1 graph mode):

  .venv-tf/bin/python tools/make_op_fixtures.py [--only OP[,OP...]]

For every op type the file holds a table of cases (CASES below). Each case is
built in its own name scope of the op's graph with tf.raw_ops.<Op>, so the
graph holds exactly that op type with the attrs the case chooses; tensor
inputs are Placeholders fed with seeded random data (or fixed values), inputs
that act like attrs (axes, shapes, sizes) are Consts. The files per op:

  <Op>.pb    the GraphDef of all the op's cases (serialized, as TF wrote it)
  <Op>.npz   the feeds and TF's outputs, keys "<case>.feed<i>" / "<case>.fetch<i>"
             (strings: "<key>.bytes" uint8 data + "<key>.lens" int64 lengths
             in the string tensor's shape; bfloat16: "<key>.bfloat16", the bits
             as uint16)

and manifest.json:

  {"tensorflow": version,
   "tolerance": the comparison rule,
   "ops": {op: {"graph", "data", "cases": [case]}},
   "skipped": {op: reason},            registered ops without a case, on purpose
   "uncovered": [op],                  registered ops with neither (should stay empty)
   "differs": {"op/case": {...}}}     cases where tfc differs from TF 2.21 on purpose
                                       (see DIFFERS below for the keys), with the reason

case = {"name", "feeds": [tensor], "fetches": [tensor], "targets": [op],
        "init": [op]   (run first, in a step of their own: variable initializers),
        "file_feeds": {tensor: path relative to tests/fixtures}  (fed the file's bytes),
        "path_feeds": {tensor: path relative to tests/fixtures}  (fed the absolute path),
        "tmp_feeds": {tensor: file name}  (fed a path in a fresh temporary folder),
        "files": {file name: key}  (after the step, that temporary file must hold
                                    the bytes stored under key),
        "rtol": float (when the case needs another float tolerance, with "why"),
        "error": TF's error class name (the step fails in TF; tfc must raise
                 the same tfc.errors class)}

TF's outputs are computed by importing the exact bytes of <Op>.pb into a fresh
graph and running it with Grappler and the classic graph optimizer off, and
with oneDNN off, so they are the plain CPU kernels' results.
The registered tfc op types come from `.venv/bin/python` (the installed tfc),
so the manifest's "uncovered" list stays honest.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FIXTURES = os.path.join(REPO, "tests", "fixtures")
OUT = os.path.join(FIXTURES, "ops")

TOLERANCE = ("float outputs, per output: |tfc - tf| <= rtol * max(|tf|) + 1e-30 elementwise "
             "over the finite elements (max over the output's finite TF values), rtol 1e-5 "
             "(float16 outputs: 2e-3, two half ulps) unless the case names another; complex "
             "outputs as their (re, im) float pairs; NaN and "
             "+-inf exactly where TF has them; integer, bool and string outputs exactly; "
             "dtype and shape identical; error cases: the same error class")

# Registered op types that deliberately have no case.
_FUNCTIONAL = ("calls functions of the graph's library: compared with TensorFlow by "
               "tests/python/test_functions.py on GraphDefs TF wrote (tests/fixtures/functions)")

_INPUT_PIPELINE_QUEUE = ('stateful queue op: a single frozen-graph run cannot exercise waiting and closing; compared with TensorFlow by tests/python/test_compat_queues.py (orders, padding, priorities)')
_INPUT_PIPELINE_READER = ('reader op: needs files and a filename queue; compared with TensorFlow by tests/python/test_compat_queues.py (keys and values of every reader)')
_INPUT_PIPELINE_DATA = ('tf.data op (variant/resource handles, no fetchable output of its own): compared with TensorFlow by tests/python/test_compat_data.py (element orders and values, TensorFlow-written pipeline GraphDefs)')
_ITERATOR_STATE = ('iterator state op (a variant state holding tfc\'s own encoding): saved and restored positions compared with TensorFlow by tests/python/test_compat_data.py and tests/python/test_data_checkpoint.py')
_INPUT_PIPELINE_INTERNAL = ('tfc-internal tf.data op (no TensorFlow equivalent to build a case with): tests/python/test_data.py')

_PY_FUNC = ("calls a Python function registered in the process that built the graph (a GraphDef "
            "cannot carry it): tests/python/test_py_func.py checks values, dtype checks and "
            "error classes against TensorFlow's tf.py_func")
_ACCUMULATOR = ("stateful gradient accumulator op: a take waits for enough gradients, which a "
                "single frozen-graph run cannot exercise; tests/python/test_sync_replicas.py checks "
                "values, staleness and cancellation, and tests/python/test_compat_sync_replicas.py "
                "trains with TensorFlow tasks in the same cluster to TensorFlow's weights")
_CARDINALITY = ("takes a dataset (a variant handle no frozen-graph case can feed): "
                "tests/python/test_data_cardinality.py compares 50 pipelines' cardinalities "
                "with TensorFlow's")
_RESOURCE_COUNT_UP_TO = ("updates a resource variable in place (needs an initialized handle): "
                         "tests/python/test_resource_count_up_to.py compares int32 and int64 "
                         "runs with TensorFlow's, and TF's errors")
SKIPPED = {
    'DatasetCardinality': _CARDINALITY,
    'ExperimentalDatasetCardinality': _CARDINALITY,
    'ResourceCountUpTo': _RESOURCE_COUNT_UP_TO,
    'AccumulatorApplyGradient': _ACCUMULATOR,
    'AccumulatorNumAccumulated': _ACCUMULATOR,
    'AccumulatorSetGlobalStep': _ACCUMULATOR,
    'AccumulatorTakeGradient': _ACCUMULATOR,
    'ConditionalAccumulator': _ACCUMULATOR,
    'ResourceAccumulatorApplyGradient': _ACCUMULATOR,
    'ResourceAccumulatorNumAccumulated': _ACCUMULATOR,
    'ResourceAccumulatorSetGlobalStep': _ACCUMULATOR,
    'ResourceAccumulatorTakeGradient': _ACCUMULATOR,
    'ResourceConditionalAccumulator': _ACCUMULATOR,
    'SparseAccumulatorApplyGradient': _ACCUMULATOR,
    'SparseAccumulatorTakeGradient': _ACCUMULATOR,
    'SparseConditionalAccumulator': _ACCUMULATOR,
    'DatasetToTFRecord': _INPUT_PIPELINE_DATA,
    'DeserializeIterator': _ITERATOR_STATE,
    'ParallelInterleaveDataset': _INPUT_PIPELINE_DATA,
    'ParallelInterleaveDatasetV2': _INPUT_PIPELINE_DATA,
    'ReaderRestoreStateV2': _INPUT_PIPELINE_READER,
    'ReaderSerializeStateV2': _INPUT_PIPELINE_READER,
    'SerializeIterator': _ITERATOR_STATE,
    'BatchDatasetV2': _INPUT_PIPELINE_DATA,
    'CacheDataset': _INPUT_PIPELINE_DATA,
    'ConcatenateDataset': _INPUT_PIPELINE_DATA,
    'FIFOQueueV2': _INPUT_PIPELINE_QUEUE,
    'FilterDataset': _INPUT_PIPELINE_DATA,
    'FixedLengthRecordDatasetV2': _INPUT_PIPELINE_DATA,
    'FixedLengthRecordReaderV2': _INPUT_PIPELINE_READER,
    'FlatMapDataset': _INPUT_PIPELINE_DATA,
    'IdentityReaderV2': _INPUT_PIPELINE_READER,
    'InterleaveDataset': _INPUT_PIPELINE_DATA,
    'IteratorFromStringHandleV2': _INPUT_PIPELINE_DATA,
    'IteratorGetNext': _INPUT_PIPELINE_DATA,
    'IteratorToStringHandle': _INPUT_PIPELINE_DATA,
    'IteratorV2': _INPUT_PIPELINE_DATA,
    'MakeIterator': _INPUT_PIPELINE_DATA,
    'MapDataset': _INPUT_PIPELINE_DATA,
    'OneShotIterator': _INPUT_PIPELINE_DATA,
    'PaddedBatchDatasetV2': _INPUT_PIPELINE_DATA,
    'PaddingFIFOQueueV2': _INPUT_PIPELINE_QUEUE,
    'ParallelMapDataset': _INPUT_PIPELINE_DATA,
    'ParallelMapDatasetV2': _INPUT_PIPELINE_DATA,
    'PrefetchDataset': _INPUT_PIPELINE_DATA,
    'PriorityQueueV2': _INPUT_PIPELINE_QUEUE,
    'QueueCloseV2': _INPUT_PIPELINE_QUEUE,
    'QueueDequeueManyV2': _INPUT_PIPELINE_QUEUE,
    'QueueDequeueUpToV2': _INPUT_PIPELINE_QUEUE,
    'QueueDequeueV2': _INPUT_PIPELINE_QUEUE,
    'QueueEnqueueManyV2': _INPUT_PIPELINE_QUEUE,
    'QueueEnqueueV2': _INPUT_PIPELINE_QUEUE,
    'QueueIsClosedV2': _INPUT_PIPELINE_QUEUE,
    'QueueSizeV2': _INPUT_PIPELINE_QUEUE,
    'RandomShuffleQueueV2': _INPUT_PIPELINE_QUEUE,
    'RangeDataset': _INPUT_PIPELINE_DATA,
    'ReaderNumRecordsProducedV2': _INPUT_PIPELINE_READER,
    'ReaderNumWorkUnitsCompletedV2': _INPUT_PIPELINE_READER,
    'ReaderReadUpToV2': _INPUT_PIPELINE_READER,
    'ReaderReadV2': _INPUT_PIPELINE_READER,
    'ReaderResetV2': _INPUT_PIPELINE_READER,
    'RepeatDataset': _INPUT_PIPELINE_DATA,
    'ShuffleDataset': _INPUT_PIPELINE_DATA,
    'SkipDataset': _INPUT_PIPELINE_DATA,
    'TFRecordDataset': _INPUT_PIPELINE_DATA,
    'TFRecordReaderV2': _INPUT_PIPELINE_READER,
    'TakeDataset': _INPUT_PIPELINE_DATA,
    'TensorDataset': _INPUT_PIPELINE_DATA,
    'TensorSliceDataset': _INPUT_PIPELINE_DATA,
    'TextLineDataset': _INPUT_PIPELINE_DATA,
    'TextLineReaderV2': _INPUT_PIPELINE_READER,
    'WholeFileReaderV2': _INPUT_PIPELINE_READER,
    'ZipDataset': _INPUT_PIPELINE_DATA,
    '_OneShotIterator': _INPUT_PIPELINE_INTERNAL,
    '_PyGeneratorDataset': _INPUT_PIPELINE_INTERNAL,
    "Case": _FUNCTIONAL,
    "If": _FUNCTIONAL,
    "PartitionedCall": _FUNCTIONAL,
    "StatefulPartitionedCall": _FUNCTIONAL,
    "StatelessCase": _FUNCTIONAL,
    "StatelessIf": _FUNCTIONAL,
    "StatelessWhile": _FUNCTIONAL,
    "SymbolicGradient": ("differentiates a function of the graph's library: compared with "
                         "TensorFlow by tests/python/test_defun_variables.py on a GraphDef TF "
                         "wrote (tests/fixtures/functions/defun_grad.pb)"),
    "While": _FUNCTIONAL,
    "Timestamp": "returns the wall clock, different on every run: tests/python/test_util_ops.py "
                 "checks it against Python's time.time()",
    "PyFunc": _PY_FUNC,
    "PyFuncStateless": _PY_FUNC,
    "EagerPyFunc": _PY_FUNC,
    "TensorSummaryV2": "checked byte for byte against TensorFlow's serialized Summary for string, float, int64 and int32 tensors with and without metadata in tests/python/test_summary_tensorboard.py",
    "_Send": "internal: inserted by graph partitioning, never written in a GraphDef",
    "_Recv": "internal: inserted by graph partitioning, never written in a GraphDef",
    "_HostSend": "internal: TensorFlow's partitioner writes it for host-memory tensors in the "
                 "partitions a TF master registers on a tfc worker; the same kernel as _Send "
                 "(tests/python/test_compat_distributed.py runs such partitions)",
    "_HostRecv": "internal: TensorFlow's partitioner writes it for host-memory tensors in the "
                 "partitions a TF master registers on a tfc worker; the same kernel as _Recv "
                 "(tests/python/test_compat_distributed.py runs such partitions)",
    "_FusedConv2D": "internal: written by the plan builder's fusion pass; TF 2.21 has no "
                    "tf.raw_ops._FusedConv2D to build a case with (tests/python/test_fusion.py "
                    "compares it with the unfused ops)",
    "_FusedDepthwiseConv2dNative": "internal: written by the plan builder's fusion pass; TF 2.21 "
                                   "has no tf.raw_ops._FusedDepthwiseConv2dNative to build a case "
                                   "with (tests/python/test_fusion.py compares it with the "
                                   "unfused ops)",
}
# dataexp: tf.data.experimental datasets
SKIPPED.update((_op, _INPUT_PIPELINE_DATA) for _op in (
    "IgnoreErrorsDataset", "ExperimentalIgnoreErrorsDataset", "AssertCardinalityDataset",
    "UniqueDataset", "ExperimentalUniqueDataset", "DirectedInterleaveDataset",
    "ExperimentalDirectedInterleaveDataset", "RandomDataset", "ExperimentalRandomDataset",
    "ScanDataset", "ExperimentalScanDataset", "TakeWhileDataset", "ExperimentalTakeWhileDataset",
    "RewriteDataset", "GroupByWindowDataset", "ExperimentalGroupByWindowDataset",
    "GroupByReducerDataset", "ExperimentalGroupByReducerDataset", "ListDataset",
    "IteratorGetNextAsOptional", "CSVDataset", "CSVDatasetV2", "ExperimentalCSVDataset"))
_OPTIONAL = ("Optional values are DT_VARIANT tensors (no fetchable output of their own to compare "
             "for OptionalFromValue/OptionalNone): tests/python/test_data_experimental_ops.py runs a "
             "GraphDef TensorFlow wrote with these ops and checks the values and errors")
SKIPPED.update((_op, _OPTIONAL) for _op in (
    "OptionalFromValue", "OptionalNone", "OptionalHasValue", "OptionalGetValue"))

# Cases where tfc does not reproduce TF 2.21 on purpose, with the reason:
#   "skip_outputs": [i]    those outputs are compared for dtype and shape only
#                          (the npz stores zeros for them);
#   "tfc_error": class     tfc fails the step with that error class (TF 1.15's
#                          behaviour) where TF 2.21 computes a result;
#   "tfc_computes": true   TF fails the step, tfc computes a result.
_BN_RESERVE = ("in inference mode TF's CPU kernel leaves reserve_space_1/2 unwritten "
               "(uninitialized memory in TF 1.15 and, for FusedBatchNorm, still in 2.21; "
               "zeros for V2/V3 in 2.21); tfc passes the given mean/variance through; no "
               "gradient reads them (the inference gradient takes the op's mean/variance "
               "inputs)")
DIFFERS = {
    "FusedBatchNorm/inference": {"skip_outputs": [3, 4], "reason": _BN_RESERVE},
    "FusedBatchNormV2/inference": {"skip_outputs": [3, 4], "reason": _BN_RESERVE},
    "FusedBatchNormV3/inference": {"skip_outputs": [3, 4], "reason": _BN_RESERVE},
    "FusedBatchNormV3/inference_nchw": {"skip_outputs": [3, 4], "reason": _BN_RESERVE},
    "DecodeBmp/rgba32_as_rgb": {
        "tfc_error": "InvalidArgumentError",
        "reason": "TF 1.15 requires channels to match the file's bits per pixel ('channels "
                  "attribute 3 does not match bits per pixel from file 4'); TF 2.x converts"},
    "Conv2DBackpropInput/dilated": {
        "tfc_computes": True,
        "reason": "TF's CPU kernel rejects dilations > 1 for Conv2DBackpropInput "
                  "(InvalidArgument); tfc computes the dilated input gradient"},
    "CountUpTo/i64": {
        "skip_outputs": [1],
        "reason": "the case fetches an Identity of the variable beside CountUpTo with no control "
                  "dependency between them; TF's Identity aliases the variable's buffer, so it "
                  "shows the increment whichever node runs first, while tfc's read is a snapshot "
                  "(updates copy on write), so it shows the value at the moment the Identity ran: "
                  "3 or 4 by scheduling order. Output 0 (the value before the increment) is "
                  "compared."},
}
# dataexp
DIFFERS["TridiagonalSolve/singular"] = {
    "tfc_error": "InvalidArgumentError",
    "reason": "TF 1.15 fails a singular system ('The matrix is not invertible.'); TF 2.21 "
              "returns NaNs"}


# ---------------------------------------------------------------- input specs

class Spec:
    """One input of a case: a fed Placeholder (default) or a Const."""

    def __init__(self, value=None, dtype=None, shape=None, lo=-2.0, hi=2.0, const=False,
                 file=None, path=None, tmp=None, step=None):
        self.value, self.dtype, self.shape, self.step = value, dtype, shape, step
        self.lo, self.hi, self.const = lo, hi, const
        self.file, self.path, self.tmp = file, path, tmp

    def make(self, rng):
        """The numpy value (random specs draw from rng)."""
        if self.value is not None:
            dt = self.dtype
            if dt == "string":
                return np.array(self.value, dtype=object)
            return np.array(self.value, dtype=dt) if dt else np.array(self.value)
        dt = np.dtype(self.dtype or "float32")
        if dt == np.bool_:
            return rng.rand(*self.shape) < 0.5
        if dt.kind in "iu":
            return rng.randint(int(self.lo), int(self.hi) + 1, size=self.shape).astype(dt)
        x = rng.uniform(self.lo, self.hi, size=self.shape)
        if self.step:  # few distinct values: big inputs stay small in the npz
            x = np.round(x / self.step) * self.step
        return x.astype(dt)


def F(*shape, lo=-2.0, hi=2.0, dt="float32", step=None):
    """A fed float tensor, uniform in [lo, hi) (rounded to multiples of step)."""
    return Spec(shape=shape, lo=lo, hi=hi, dtype=dt, step=step)


def FB(*shape, lo=-2.0, hi=2.0):
    """A big fed float32 tensor (past the kernels' one-thread thresholds) with
    few distinct values, so that its fixture compresses well."""
    return Spec(shape=shape, lo=lo, hi=hi, dtype="float32", step=1 / 32)


def I(*shape, lo=-5, hi=5, dt="int32"):
    """A fed integer tensor, uniform in [lo, hi]."""
    return Spec(shape=shape, lo=lo, hi=hi, dtype=dt)


def B(*shape):
    """A fed bool tensor."""
    return Spec(shape=shape, dtype="bool")


def V(value, dt=None):
    """A fed tensor with a fixed value."""
    return Spec(value=value, dtype=dt)


def K(value, dt=None):
    """A Const input."""
    return Spec(value=value, dtype=dt, const=True)


def FILE(rel):
    """A fed scalar string: the bytes of tests/fixtures/<rel>."""
    return Spec(file=rel)


def PATH(rel):
    """A fed scalar string: the absolute path of tests/fixtures/<rel>."""
    return Spec(path=rel)


def TMP(name):
    """A fed scalar string: the path of <name> in a fresh temporary folder."""
    return Spec(tmp=name)


# ---------------------------------------------------------------- the table

CASES = []   # (op, case name, builder)


def case(op, name="f32", rtol=None, why=None, error=False, **inputs_and_attrs):
    """A case calling tf.raw_ops.<op>: Spec arguments (or lists of them) are
    inputs, everything else is an attr. error=True: TF fails the step, and
    the manifest records the error class tfc must raise too."""
    if error:
        inputs_and_attrs["__error__"] = True
    CASES.append((op, name, ("raw", inputs_and_attrs, rtol, why)))


def custom(op, name, fn, error=False):
    """A case built by fn(tf, inp) -> dict(fetches=[...], targets=[...], init=[...]);
    inp(spec, name) makes an input from a Spec. error=True as for case()."""
    CASES.append((op, name, ("custom", fn, None, error)))


UNARY_F = ["Abs", "Ceil", "Cos", "Exp", "Expm1", "Floor", "Neg", "Round", "Sigmoid", "Sign",
           "Sin", "Square", "Tanh", "Softplus", "Softsign", "Relu", "Relu6", "Elu", "Selu",
           "OnesLike", "ZerosLike"]
for _op in UNARY_F:
    _arg = "features" if _op in ("Softplus", "Softsign", "Relu", "Relu6", "Elu", "Selu") else "x"
    case(_op, **{_arg: F(3, 5, lo=-4, hi=4)})
    case(_op, "f64", **{_arg: F(7, dt="float64", lo=-4, hi=4)})
for _op in ["Abs", "Neg", "Sign", "Square", "Relu", "OnesLike", "ZerosLike"]:
    _arg = "features" if _op == "Relu" else "x"
    case(_op, "i32", **{_arg: I(4, 3, lo=-9, hi=9)})
case("Abs", "i64", x=I(5, lo=-9, hi=9, dt="int64"))
case("Round", "halves", x=V([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.49, -3.51], "float32"))
case("Exp", "wide", x=F(20, lo=-30, hi=30))
case("Inv", x=V([[1.5, -2.0, 4.0], [0.25, -8.0, 3.0]], "float32"))
case("Reciprocal", x=V([[1.5, -2.0, 4.0], [0.25, -8.0, 3.0]], "float32"))
case("Log", x=F(3, 4, lo=0.01, hi=10))
case("Log1p", x=F(3, 4, lo=-0.9, hi=10))
case("Rsqrt", x=F(3, 4, lo=0.01, hi=10))
case("Sqrt", x=F(3, 4, lo=0.0, hi=10))
case("Sqrt", "f64", x=F(6, lo=0.0, hi=10, dt="float64"))
case("LeakyRelu", features=F(3, 4), alpha=0.1)
case("LeakyRelu", "default_alpha", features=F(6))
_SPECIAL = [1.0, -np.inf, np.inf, np.nan, 0.0, -3.5]
for _op in ["IsFinite", "IsInf", "IsNan"]:
    case(_op, x=V(_SPECIAL, "float32"))
    case(_op, "f64", x=V(_SPECIAL, "float64"))
case("LogicalNot", "bool", x=B(3, 4))
for _op in ["Identity", "StopGradient", "Snapshot"]:
    case(_op, input=F(2, 3))
    case(_op, "i64", input=I(4, dt="int64"))
case("Identity", "string", input=V([b"ab", b"", b"xyz"], "string"))
case("PreventGradient", input=F(2, 3), message="no gradient here")
case("L2Loss", t=F(4, 5))
case("L2Loss", "f64", t=F(9, dt="float64"))
case("Softmax", logits=F(3, 6, lo=-5, hi=5))
case("Softmax", "large", logits=F(2, 5, lo=80, hi=100))
case("LogSoftmax", logits=F(3, 6, lo=-5, hi=5))
case("CheckNumerics", tensor=F(3, 3), message="bad values")

# gradients of unary ops: (y, dy) form
for _op, _lo in [("InvGrad", 0.5), ("ReciprocalGrad", 0.5), ("RsqrtGrad", 0.5),
                 ("SigmoidGrad", 0.05), ("SqrtGrad", 0.5), ("TanhGrad", -0.9)]:
    case(_op, y=F(3, 4, lo=_lo, hi=0.95), dy=F(3, 4))
for _op in ["EluGrad", "SeluGrad"]:
    case(_op, gradients=F(3, 4), outputs=F(3, 4, lo=-1.5, hi=2))
for _op in ["ReluGrad", "Relu6Grad", "SoftplusGrad", "SoftsignGrad"]:
    case(_op, gradients=F(3, 4), features=F(3, 4, lo=-3, hi=8))
case("LeakyReluGrad", gradients=F(3, 4), features=F(3, 4), alpha=0.3)

# binary arithmetic, broadcasting
for _op in ["Add", "AddV2", "Sub", "Mul", "Maximum", "Minimum", "SquaredDifference"]:
    case(_op, x=F(3, 4), y=F(4))
    case(_op, "i32", x=I(2, 3, lo=-50, hi=50), y=I(2, 1, lo=-50, hi=50))
    case(_op, "f64_scalar", x=F(5, dt="float64"), y=F(dt="float64"))
case("Add", "i64", x=I(3, lo=-1000, hi=1000, dt="int64"), y=I(3, lo=-1000, hi=1000, dt="int64"))
case("Add", "string", x=V([b"ab", b"", b"c"], "string"), y=V([b"x", b"yz", b""], "string"))
case("Mul", "rank4", x=F(2, 1, 3, 1), y=F(1, 4, 1, 5))
for _op in ["Div", "RealDiv"]:
    case(_op, x=F(3, 4), y=F(3, 4, lo=0.5, hi=3))
case("Div", "i32", x=V([7, -7, 7, -7, 0, 9], "int32"), y=V([2, 2, -2, -2, 3, 4], "int32"))
case("DivNoNan", x=F(6), y=V([2.0, 0.0, -1.5, 0.0, 4.0, 0.5], "float32"))
case("DivNoNan", "f64", x=F(4, dt="float64"), y=V([2.0, 0.0, -1.5, 0.0], "float64"))
_NUM = V([7, -7, 7, -7, 0, 9, -9, 1], "int32")
_DEN = V([2, 2, -2, -2, 3, 4, 4, -3], "int32")
for _op in ["FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod"]:
    case(_op, "i32", x=_NUM, y=_DEN)
for _op in ["FloorDiv", "FloorMod"]:
    case(_op, x=V([7.5, -7.5, 7.5, -7.5, 0.0, 9.0], "float32"),
         y=V([2.0, 2.0, -2.0, -2.0, 3.0, 4.0], "float32"))
    case(_op, "i64", x=V([7, -7, 100], "int64"), y=V([-3, 3, 7], "int64"))
case("TruncateMod", x=V([7.5, -7.5, 7.5, -7.5], "float32"), y=V([2.0, 2.0, -2.0, -2.0], "float32"))
case("Pow", x=F(3, 4, lo=0.1, hi=3), y=F(3, 4, lo=-2, hi=3))
case("Pow", "i32", x=V([2, -3, 0, 5, 1], "int32"), y=V([10, 3, 2, 0, 7], "int32"))
case("Pow", "f64", x=F(5, lo=0.1, hi=3, dt="float64"), y=F(5, dt="float64"))

# comparisons and logic
for _op in ["Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual"]:
    case(_op, x=V([[1.0, 2.0, 3.0], [4.0, 2.0, -1.0]], "float32"), y=V([1.0, 3.0, -1.0], "float32"))
    case(_op, "i32", x=I(3, 4, lo=-2, hi=2), y=I(4, lo=-2, hi=2))
for _op in ["Equal", "NotEqual"]:
    case(_op, "string", x=V([b"a", b"b", b""], "string"), y=V([b"a", b"c", b""], "string"))
    case(_op, "bool", x=B(5), y=B(5))
for _op in ["LogicalAnd", "LogicalOr"]:
    case(_op, "bool", x=B(3, 4), y=B(4))

case("Select", condition=B(3, 4), x=F(3, 4), y=F(3, 4))
case("Select", "vector_cond", condition=B(3), x=F(3, 4), y=F(3, 4))
case("Select", "scalar_cond_i32", condition=V(True), x=I(2, 2), y=I(2, 2))
case("SelectV2", condition=B(3, 1), t=F(3, 4), e=F(4))
case("SelectV2", "i64", condition=B(2, 3), t=I(2, 3, dt="int64"), e=V(-1, "int64"))
case("ClipByValue", t=F(3, 4), clip_value_min=V(-0.5, "float32"), clip_value_max=V(0.7, "float32"))
case("ClipByValue", "tensor_bounds", t=F(2, 3), clip_value_min=F(2, 3, lo=-1, hi=0),
     clip_value_max=F(2, 3, lo=0, hi=1))
case("ClipByValue", "i32", t=I(6, lo=-9, hi=9), clip_value_min=V(-3, "int32"),
     clip_value_max=V(4, "int32"))
case("AddN", inputs=[F(3, 4), F(3, 4), F(3, 4)])
case("AddN", "i32", inputs=[I(5), I(5)])
case("AddN", "single", inputs=[F(2, 2)])

case("Cast", "f32_to_i32", x=F(10, lo=-50, hi=50), DstT="int32")
case("Cast", "i32_to_f32", x=I(6, lo=-1000, hi=1000), DstT="float32")
case("Cast", "f32_to_bool", x=V([0.0, 1.5, -0.0, -2.0], "float32"), DstT="bool")
case("Cast", "bool_to_f32", x=B(5), DstT="float32")
case("Cast", "f32_to_f16", x=F(8, lo=-100, hi=100), DstT="float16")
case("Cast", "f16_to_f32", x=F(8, lo=-100, hi=100, dt="float16"), DstT="float32")
case("Cast", "f64_to_f32", x=F(6, lo=-1e6, hi=1e6, dt="float64"), DstT="float32")
case("Cast", "i64_to_i32", x=I(5, lo=-100000, hi=100000, dt="int64"), DstT="int32")
case("Cast", "i32_to_i64", x=I(5, lo=-100000, hi=100000), DstT="int64")
case("Cast", "u8_to_f32", x=I(6, lo=0, hi=255, dt="uint8"), DstT="float32")
case("Cast", "f32_to_u8", x=F(6, lo=0, hi=255), DstT="uint8")
case("Cast", "f32_to_i64", x=F(6, lo=-1e4, hi=1e4), DstT="int64")
case("Cast", "f32_to_f64", x=F(6), DstT="float64")
case("Cast", "i32_to_bool", x=I(6, lo=-2, hi=2), DstT="bool")
case("Cast", "f32_to_bf16_truncate", x=F(6, lo=-10, hi=10), DstT="bfloat16", Truncate=True)

case("BroadcastGradientArgs", s0=K([2, 3, 1], "int32"), s1=K([3, 4], "int32"))
case("BroadcastGradientArgs", "i64", s0=K([1, 5], "int64"), s1=K([4, 1, 1], "int64"))
case("BroadcastTo", input=F(3, 1), shape=K([2, 3, 4], "int32"))
case("BroadcastTo", "i32", input=I(4), shape=K([3, 4], "int64"))

# reductions
for _op in ["Sum", "Mean", "Max", "Min", "Prod"]:
    case(_op, input=F(3, 4, 5, lo=0.5 if _op == "Prod" else -2, hi=1.5 if _op == "Prod" else 2),
         axis=K([0, 2], "int32"))
    case(_op, "keep_dims_neg_axis", input=F(4, 6), axis=K(-1, "int32"), keep_dims=True)
    case(_op, "i32_all_axes", input=I(3, 4, lo=-3, hi=3), axis=K([0, 1], "int32"))
    case(_op, "f64_i64_axis", input=F(5, 3, dt="float64"), axis=K([0], "int64"))
case("Sum", "empty_axes", input=F(2, 3), axis=K([], "int32"))
case("Sum", "long_row", input=F(2, 1000), axis=K(1, "int32"))
case("Mean", "i32", input=V([[1, 2, 4], [7, -8, 9]], "int32"), axis=K(1, "int32"))
for _op in ["All", "Any"]:
    case(_op, "bool", input=B(4, 5), axis=K(1, "int32"))
    case(_op, "keep_dims", input=B(3, 3), axis=K([0, 1], "int32"), keep_dims=True)
for _op in ["ArgMax", "ArgMin"]:
    case(_op, input=F(4, 6), dimension=K(1, "int32"))
    case(_op, "axis0_i32_out", input=F(4, 6), dimension=K(0, "int32"), output_type="int32")
    case(_op, "i32_ties", input=V([[3, 1, 3], [0, 0, -1]], "int32"), dimension=K(1, "int64"))
    case(_op, "f64", input=F(3, 5, dt="float64"), dimension=K(-1, "int32"))

# arrays
case("Concat", concat_dim=K(1, "int32"), values=[F(2, 3), F(2, 1), F(2, 2)])
case("ConcatV2", values=[F(2, 3), F(1, 3)], axis=K(0, "int32"))
case("ConcatV2", "neg_axis_i32", values=[I(2, 2), I(2, 3), I(2, 1)], axis=K(-1, "int64"))
case("ConcatV2", "string", values=[V([b"a", b"b"], "string"), V([b"c"], "string")],
     axis=K(0, "int32"))
case("ConcatOffset", "i32", concat_dim=K(1, "int32"),
     shape=[K([2, 3, 4], "int32"), K([2, 5, 4], "int32"), K([2, 1, 4], "int32")])
case("ExpandDims", input=F(2, 3), axis=K(1, "int32"))
case("ExpandDims", "neg_dim", input=I(2, 3), axis=K(-1, "int64"))
case("Fill", dims=K([2, 3], "int32"), value=V(1.25, "float32"))
case("Fill", "i64_dims", dims=K([4], "int64"), value=V(-7, "int32"))
case("Fill", "string", dims=K([2], "int32"), value=V(b"hey", "string"))
case("Gather", params=F(5, 3), indices=V([4, 0, 2, 2], "int32"))
case("Gather", "i64_idx_2d", params=I(6), indices=V([[5, 1], [0, 3]], "int64"))
case("GatherV2", params=F(4, 5, 2), indices=V([3, 0, 1], "int32"), axis=K(1, "int32"))
case("GatherV2", "batch_dims", params=F(3, 4, 2), indices=V([[0, 3], [1, 1], [2, 0]], "int32"),
     axis=K(1, "int32"), batch_dims=1)
case("GatherV2", "string", params=V([b"a", b"bb", b"ccc"], "string"), indices=V([2, 0], "int64"),
     axis=K(0, "int64"))
case("InvertPermutation", "i32", x=V([3, 0, 4, 1, 2], "int32"))
case("InvertPermutation", "i64", x=V([1, 2, 0], "int64"))
case("MirrorPad", "reflect", input=F(3, 4), paddings=K([[1, 2], [2, 1]], "int32"), mode="REFLECT")
case("MirrorPad", "symmetric", input=I(3, 3), paddings=K([[2, 0], [1, 3]], "int64"),
     mode="SYMMETRIC")
case("OneHot", indices=V([0, 2, -1, 1], "int32"), depth=K(3, "int32"), on_value=V(5.0, "float32"),
     off_value=V(-1.0, "float32"))
case("OneHot", "axis0_i64", indices=V([[0, 3], [1, 2]], "int64"), depth=K(4, "int32"),
     on_value=V(1, "int32"), off_value=V(0, "int32"), axis=0)
case("Pack", values=[F(2, 3), F(2, 3), F(2, 3)])
case("Pack", "axis1_i32", values=[I(4), I(4)], axis=1)
case("Pack", "neg_axis", values=[F(2, 3), F(2, 3)], axis=-1)
case("Unpack", value=F(3, 2, 4), num=3)
case("Unpack", "axis1_i32", value=I(2, 3), num=3, axis=1)
case("Unpack", "neg_axis", value=F(2, 2), num=2, axis=-1)
case("Pad", input=F(2, 3), paddings=K([[1, 0], [2, 1]], "int32"))
case("Pad", "i64", input=I(3, dt="int64"), paddings=K([[2, 1]], "int64"))
case("PadV2", input=F(2, 3), paddings=K([[0, 1], [1, 1]], "int32"),
     constant_values=V(9.5, "float32"))
case("Range", "i32", start=K(3, "int32"), limit=K(20, "int32"), delta=K(4, "int32"))
case("Range", start=K(1.0, "float32"), limit=K(-2.0, "float32"), delta=K(-0.7, "float32"))
case("Range", "i64_fed", start=V(-2, "int64"), limit=V(5, "int64"), delta=V(1, "int64"))
case("Rank", input=F(2, 3, 4))
case("Rank", "scalar", input=V(3, "int32"))
case("Reshape", tensor=F(2, 6), shape=K([3, -1], "int32"))
case("Reshape", "i64_shape", tensor=I(2, 3, 2), shape=K([12], "int64"))
case("Reshape", "to_scalar", tensor=V([5.0], "float32"), shape=K([], "int32"))
case("Reverse", tensor=F(2, 3, 4), dims=K([True, False, True], "bool"))
case("ReverseV2", tensor=F(2, 3, 4), axis=K([1, -1], "int32"))
case("ReverseV2", "i32_i64axis", tensor=I(5), axis=K([0], "int64"))
case("ReverseSequence", input=F(3, 5, 2), seq_lengths=V([5, 2, 0], "int64"), seq_dim=1, batch_dim=0)
case("ReverseSequence", "time_major_i32", input=I(4, 3, 2), seq_lengths=V([1, 4, 3], "int32"),
     seq_dim=0, batch_dim=1)
case("ReverseSequence", "seq_after_batch_3d", input=F(2, 3, 4), seq_lengths=V([2, 4], "int64"),
     seq_dim=2, batch_dim=0)
case("ReverseSequence", "too_long", error=True, input=F(2, 3), seq_lengths=V([4, 1], "int64"),
     seq_dim=1, batch_dim=0)
case("Shape", input=F(2, 3, 4))
case("Shape", "i64", input=F(5), out_type="int64")
case("ShapeN", input=[F(2, 3), F(4), F(1, 1, 2)])
case("ShapeN", "i64", input=[I(3), I(3, 2)], out_type="int64")
case("Size", input=F(2, 3, 4))
case("Size", "i64", input=I(7), out_type="int64")
case("Slice", input=F(4, 5), begin=K([1, 2], "int32"), size=K([2, -1], "int32"))
case("Slice", "i64", input=I(3, 4, 2), begin=K([0, 1, 1], "int64"), size=K([3, 2, 1], "int64"))
case("Split", axis=K(1, "int32"), value=F(2, 6), num_split=3)
case("Split", "neg_dim_i32", axis=K(-2, "int32"), value=I(4, 2), num_split=2)
case("SplitV", value=F(7, 2), size_splits=K([2, -1, 3], "int64"), axis=K(0, "int32"),
     num_split=3)
case("SplitV", "i32_sizes", value=I(2, 5), size_splits=K([1, 4], "int32"), axis=K(1, "int32"),
     num_split=2)
case("Squeeze", input=F(1, 3, 1, 2))
case("Squeeze", "dims", input=F(1, 3, 1, 2), axis=[0, -2])
case("StridedSlice", input=F(5, 6), begin=K([1, -1], "int32"), end=K([4, 0], "int32"),
     strides=K([2, -2], "int32"))
case("StridedSlice", "masks", input=F(3, 4, 5), begin=K([1, 0, 2], "int32"),
     end=K([2, 0, 4], "int32"), strides=K([1, 1, 1], "int32"), begin_mask=2, end_mask=2,
     shrink_axis_mask=1)
case("StridedSlice", "ellipsis_newaxis", input=I(3, 4, 5), begin=K([0, 0, 1], "int64"),
     end=K([0, 0, 3], "int64"), strides=K([1, 1, 1], "int64"), ellipsis_mask=1, new_axis_mask=2)
case("StridedSliceGrad", shape=K([5, 6], "int32"), begin=K([1, -1], "int32"),
     end=K([4, 0], "int32"), strides=K([2, -2], "int32"), dy=F(2, 3))
case("StridedSliceGrad", "shrink", shape=K([3, 4], "int64"), begin=K([1, 0], "int64"),
     end=K([2, 4], "int64"), strides=K([1, 2], "int64"), dy=F(2), shrink_axis_mask=1)
case("Tile", input=F(2, 3), multiples=K([2, 3], "int32"))
case("Tile", "i64", input=I(3, dt="int64"), multiples=K([4], "int64"))
case("Transpose", x=F(2, 3, 4), perm=K([2, 0, 1], "int32"))
case("Transpose", "i64_perm", x=I(3, 5), perm=K([1, 0], "int64"))
case("Unique", x=V([4, 1, 4, 7, 1, 1, 9], "int32"))
case("Unique", "f32_i64", x=V([2.5, -1.0, 2.5, 0.0], "float32"), out_idx="int64")
case("Where", "bool", condition=B(3, 4))
case("Where", "f32", condition=V([[0.0, 1.5], [-2.0, 0.0], [0.0, 0.0]], "float32"))
case("IdentityN", input=[F(2, 2), I(3), V([b"s"], "string")])
case("PlaceholderWithDefault", "default", input=K([1.0, 2.0], "float32"), shape=[2])
case("BiasAdd", value=F(2, 3, 4), bias=F(4))
case("BiasAdd", "nchw", value=F(2, 3, 2, 2), bias=F(3), data_format="NCHW")
case("BiasAddV1", value=F(3, 5), bias=F(5))
case("BiasAddGrad", out_backprop=F(2, 3, 4))
case("BiasAddGrad", "nchw", out_backprop=F(2, 3, 2, 2), data_format="NCHW")

# nn
case("SoftmaxCrossEntropyWithLogits", features=F(4, 5, lo=-3, hi=3),
     labels=V(np.eye(5, dtype=np.float32)[[0, 3, 4, 1]]))
case("SoftmaxCrossEntropyWithLogits", "soft_labels", features=F(3, 4), labels=F(3, 4, lo=0, hi=1))
case("SparseSoftmaxCrossEntropyWithLogits", features=F(4, 5, lo=-3, hi=3),
     labels=V([0, 3, 4, 1], "int64"))
case("SparseSoftmaxCrossEntropyWithLogits", "i32_labels", features=F(3, 6), labels=V([5, 0, 2], "int32"))
case("MatMul", a=F(3, 4), b=F(4, 5))
case("MatMul", "transposed", a=F(4, 3), b=F(5, 4), transpose_a=True, transpose_b=True)
case("MatMul", "f64", a=F(2, 7, dt="float64"), b=F(7, 3, dt="float64"))
case("MatMul", "i32", a=I(2, 3), b=I(3, 2))
case("MatMul", "larger", a=F(33, 70), b=F(70, 41))
case("BatchMatMul", x=F(2, 3, 4), y=F(2, 4, 5))
case("BatchMatMul", "adjoint", x=F(2, 4, 3), y=F(2, 5, 4), adj_x=True, adj_y=True)
case("BatchMatMulV2", x=F(2, 1, 3, 4), y=F(3, 4, 2))
case("BatchMatMulV2", "adj_y", x=F(3, 4), y=F(2, 5, 4), adj_y=True)
_POOL = dict(ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1])
case("AvgPool", "valid", value=F(2, 6, 6, 3), padding="VALID", **_POOL)
case("AvgPool", "same_3x3s2", value=F(1, 7, 5, 2), padding="SAME", ksize=[1, 3, 3, 1],
     strides=[1, 2, 2, 1])
case("MaxPool", "valid", input=F(2, 6, 6, 3), padding="VALID", **_POOL)
case("MaxPool", "same_3x3s2", input=F(1, 7, 5, 2), padding="SAME", ksize=[1, 3, 3, 1],
     strides=[1, 2, 2, 1])
case("MaxPoolV2", input=F(1, 5, 5, 2), ksize=K([1, 3, 3, 1], "int32"),
     strides=K([1, 2, 2, 1], "int32"), padding="SAME")
case("AvgPoolGrad", orig_input_shape=K([1, 5, 5, 2], "int32"), grad=F(1, 3, 3, 2),
     ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME")
case("AvgPoolGrad", "valid", orig_input_shape=K([2, 4, 4, 1], "int32"), grad=F(2, 2, 2, 1),
     padding="VALID", **_POOL)

def _maxpool_grad(v2):
    """MaxPoolGrad(V2) of a MaxPool computed in the same graph."""
    def build(tf, inp):
        x = inp(F(1, 5, 5, 2), "x")
        g = inp(F(1, 3, 3, 2), "g")
        y = tf.raw_ops.MaxPool(input=x, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME")
        if v2:
            k = tf.constant([1, 3, 3, 1], tf.int32)
            s = tf.constant([1, 2, 2, 1], tf.int32)
            out = tf.raw_ops.MaxPoolGradV2(orig_input=x, orig_output=y, grad=g, ksize=k,
                                           strides=s, padding="SAME")
        else:
            out = tf.raw_ops.MaxPoolGrad(orig_input=x, orig_output=y, grad=g, ksize=[1, 3, 3, 1],
                                         strides=[1, 2, 2, 1], padding="SAME")
        return {"fetches": [out]}
    return build


custom("MaxPoolGrad", "same_3x3s2", _maxpool_grad(False))
custom("MaxPoolGradV2", "same_3x3s2", _maxpool_grad(True))
case("Conv2D", "same", input=F(2, 6, 6, 3), filter=F(3, 3, 3, 4), strides=[1, 1, 1, 1],
     padding="SAME")
case("Conv2D", "valid_s2", input=F(1, 7, 8, 2), filter=F(3, 2, 2, 5), strides=[1, 2, 2, 1],
     padding="VALID")
case("Conv2D", "dilated", input=F(1, 7, 7, 2), filter=F(2, 2, 2, 3), strides=[1, 1, 1, 1],
     padding="SAME", dilations=[1, 2, 2, 1])
case("Conv2D", "explicit", input=F(1, 5, 5, 1), filter=F(3, 3, 1, 2), strides=[1, 1, 1, 1],
     padding="EXPLICIT", explicit_paddings=[0, 0, 1, 2, 0, 1, 0, 0])
case("Conv2DBackpropInput", input_sizes=K([2, 6, 6, 3], "int32"), filter=F(3, 3, 3, 4),
     out_backprop=F(2, 3, 3, 4), strides=[1, 2, 2, 1], padding="SAME")
case("Conv2DBackpropFilter", input=F(2, 6, 6, 3), filter_sizes=K([3, 3, 3, 4], "int32"),
     out_backprop=F(2, 3, 3, 4), strides=[1, 2, 2, 1], padding="SAME")
case("Conv2DBackpropFilter", "valid", input=F(1, 5, 5, 2), filter_sizes=K([2, 2, 2, 3], "int32"),
     out_backprop=F(1, 4, 4, 3), strides=[1, 1, 1, 1], padding="VALID")
case("DepthwiseConv2dNative", input=F(2, 5, 5, 3), filter=F(3, 3, 3, 2), strides=[1, 1, 1, 1],
     padding="SAME")
case("DepthwiseConv2dNative", "valid_s2", input=F(1, 7, 7, 2), filter=F(3, 3, 2, 1),
     strides=[1, 2, 2, 1], padding="VALID")
case("DepthwiseConv2dNativeBackpropInput", input_sizes=K([2, 5, 5, 3], "int32"),
     filter=F(3, 3, 3, 2), out_backprop=F(2, 5, 5, 6), strides=[1, 1, 1, 1], padding="SAME")
case("DepthwiseConv2dNativeBackpropFilter", input=F(2, 5, 5, 3),
     filter_sizes=K([3, 3, 3, 2], "int32"), out_backprop=F(2, 5, 5, 6), strides=[1, 1, 1, 1],
     padding="SAME")
_BN = dict(x=F(2, 3, 3, 4), scale=F(4, lo=0.5, hi=1.5), offset=F(4))
for _op in ["FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"]:
    case(_op, "training", mean=K([], "float32"), variance=K([], "float32"), epsilon=0.001, **_BN)
    case(_op, "inference", mean=F(4), variance=F(4, lo=0.5, hi=2), is_training=False, **_BN)
case("FusedBatchNormV3", "inference_nchw", x=F(2, 4, 3, 3), scale=F(4, lo=0.5, hi=1.5),
     offset=F(4), mean=F(4), variance=F(4, lo=0.5, hi=2), is_training=False, data_format="NCHW")
case("FusedBatchNormV3", "training_avg_factor", mean=F(4), variance=F(4, lo=0.5, hi=2),
     exponential_avg_factor=0.25, **_BN)


def _bn_grad(op, training):
    """FusedBatchNormGrad*: reserve spaces from a forward FusedBatchNorm* of the same version."""
    fwd = {"FusedBatchNormGrad": "FusedBatchNorm", "FusedBatchNormGradV2": "FusedBatchNormV2",
           "FusedBatchNormGradV3": "FusedBatchNormV3"}[op]

    def build(tf, inp):
        x = inp(F(2, 3, 3, 4), "x")
        scale = inp(F(4, lo=0.5, hi=1.5), "scale")
        offset = inp(F(4), "offset")
        dy = inp(F(2, 3, 3, 4), "dy")
        if training:
            mean, var = tf.constant([], tf.float32), tf.constant([], tf.float32)
        else:
            mean, var = inp(F(4), "mean"), inp(F(4, lo=0.5, hi=2), "variance")
        f = getattr(tf.raw_ops, fwd)(x=x, scale=scale, offset=offset, mean=mean, variance=var,
                                     epsilon=0.001, is_training=training)
        # Only the forward outputs the gradient reads are passed on; the
        # forward itself is checked by its own fixtures.
        fwd_op = f[0].op
        if training:
            rs = [fwd_op.outputs[3], fwd_op.outputs[4]]
        else:
            rs = [mean, var]
        args = dict(y_backprop=dy, x=x, scale=scale, reserve_space_1=rs[0], reserve_space_2=rs[1],
                    epsilon=0.001, is_training=training)
        if op == "FusedBatchNormGradV3":
            args["reserve_space_3"] = fwd_op.outputs[5]
        g = getattr(tf.raw_ops, op)(**args)
        return {"fetches": list(g[:3])}
    return build


for _op in ["FusedBatchNormGrad", "FusedBatchNormGradV2", "FusedBatchNormGradV3"]:
    custom(_op, "training", _bn_grad(_op, True))
    custom(_op, "inference", _bn_grad(_op, False))

# images
case("AdjustContrastv2", images=F(2, 3, 4, 3, lo=0, hi=1), contrast_factor=V(1.7, "float32"))
case("ResizeBilinear", images=F(1, 4, 5, 2), size=K([7, 3], "int32"))
case("ResizeBilinear", "align_corners", images=F(2, 3, 3, 1), size=K([5, 6], "int32"),
     align_corners=True)
case("ResizeBilinear", "half_pixel", images=F(1, 4, 4, 3), size=K([6, 2], "int32"),
     half_pixel_centers=True)
case("ResizeBilinear", "u8", images=I(1, 3, 4, 2, lo=0, hi=255, dt="uint8"), size=K([5, 5], "int32"))
case("ResizeBicubic", images=F(1, 4, 5, 2), size=K([7, 3], "int32"))
case("ResizeBicubic", "align_corners", images=F(1, 3, 3, 1), size=K([5, 6], "int32"),
     align_corners=True)
case("ResizeBicubic", "half_pixel", images=F(1, 4, 4, 3), size=K([6, 9], "int32"),
     half_pixel_centers=True)
case("ResizeNearestNeighbor", images=F(1, 4, 5, 2), size=K([7, 3], "int32"))
case("ResizeNearestNeighbor", "align_corners", images=F(1, 3, 3, 1), size=K([5, 6], "int32"),
     align_corners=True)
case("ResizeNearestNeighbor", "half_pixel_u8", images=I(1, 4, 4, 3, lo=0, hi=255, dt="uint8"),
     size=K([6, 9], "int32"), half_pixel_centers=True)
case("DecodeJpeg", "rgb420", contents=FILE("images/rgb420.jpg"))
case("DecodeJpeg", "rgb444_gray_out", contents=FILE("images/rgb444.jpg"), channels=1)
case("DecodeJpeg", "gray_rgb_out", contents=FILE("images/gray.jpg"), channels=3)
case("DecodeJpeg", "progressive", contents=FILE("images/progressive.jpg"))
case("DecodeJpeg", "islow_no_fancy", contents=FILE("images/rgb420.jpg"), dct_method="INTEGER_ACCURATE",
     fancy_upscaling=False)
case("DecodePng", "rgb", contents=FILE("images/rgb.png"))
case("DecodePng", "rgba_to_rgb", contents=FILE("images/rgba.png"), channels=3)
case("DecodePng", "palette_trns", contents=FILE("images/palette_trns.png"))
case("DecodePng", "gray2bit", contents=FILE("images/gray2bit.png"))
case("DecodePng", "graya_to_rgba", contents=FILE("images/graya.png"), channels=4)
case("DecodePng", "rgb16", contents=FILE("images/rgb16.png"), dtype="uint16")
case("DecodePng", "gray16_to_u8", contents=FILE("images/gray16.png"))
case("DecodeBmp", "rgb24", contents=FILE("images/rgb24.bmp"))
case("DecodeBmp", "rgba32_topdown", contents=FILE("images/rgba32_topdown.bmp"))
case("DecodeImage", "png", contents=FILE("images/rgb.png"))
case("DecodeImage", "jpeg_gray_out", contents=FILE("images/rgb420.jpg"), channels=1)
case("DecodeImage", "bmp", contents=FILE("images/rgb24.bmp"), channels=3)
case("DecodeImage", "png_float", contents=FILE("images/rgba.png"), dtype="float32")
case("EncodePng", "rgb", image=I(5, 7, 3, lo=0, hi=255, dt="uint8"))
case("EncodePng", "gray16", image=I(4, 3, 1, lo=0, hi=65535, dt="uint16"), compression=9)
case("EncodeJpeg", "rgb", image=I(8, 9, 3, lo=0, hi=255, dt="uint8"))
case("EncodeJpeg", "gray_q50", image=I(16, 8, 1, lo=0, hi=255, dt="uint8"), quality=50)

# random ops (Philox streams with fixed seeds)
case("RandomUniform", shape=K([3, 5], "int32"), dtype="float32", seed=7, seed2=11)
case("RandomUniform", "f64", shape=K([7], "int64"), dtype="float64", seed=1, seed2=2)
case("RandomStandardNormal", shape=K([4, 5], "int32"), dtype="float32", seed=7, seed2=11)
case("RandomStandardNormal", "f64", shape=K([9], "int32"), dtype="float64", seed=3, seed2=0)
case("TruncatedNormal", shape=K([4, 5], "int32"), dtype="float32", seed=7, seed2=11)
case("TruncatedNormal", "f64", shape=K([9], "int32"), dtype="float64", seed=3, seed2=4)
case("RandomUniformInt", "i32", shape=K([3, 4], "int32"), minval=K(-5, "int32"),
     maxval=K(17, "int32"), seed=7, seed2=11)
case("RandomUniformInt", "i64", shape=K([6], "int32"), minval=K(0, "int64"),
     maxval=K(1000000007, "int64"), seed=2, seed2=9)
case("RandomShuffle", value=F(8, 2), seed=5, seed2=6)
case("RandomShuffle", "i32_vector", value=V(list(range(20)), "int32"), seed=1, seed2=1)
case("Multinomial", logits=F(3, 4), num_samples=K(6, "int32"), seed=5, seed2=6)
case("Multinomial", "i32_out", logits=F(2, 3, dt="float64"), num_samples=K(4, "int32"), seed=8,
     seed2=1, output_dtype="int32")

# logging, files, control
case("Print", input=F(3), data=[F(2), I(2)], message="tfc op fixture: ", summarize=4)
case("Assert", "true_cond", condition=V(True), data=[F(2)])
case("ReadFile", "image", filename=PATH("images/rgb24.bmp"))
case("WriteFile", "bytes", filename=TMP("out.bin"), contents=V(b"some\x00bytes\xff", "string"))
case("NoOp", "target")
case("ControlTrigger", "target")

# checkpoints (V2 bundles) and the string ops of TF's save/ subgraph
CKPT_FIXTURE = "checkpoints/all_dtypes"   # written by TF in write_checkpoint_fixture
CKPT_SLICED = "checkpoints/sliced"        # likewise: a tensor stored as three slices
CKPT_VALUES = {
    "f32": np.arange(6, dtype=np.float32).reshape(2, 3) / 7,
    "f64": np.array([1e300, -2.5, np.pi]),
    "i32": np.array([[-(2 ** 31), 7], [2 ** 31 - 1, 0]], np.int32),
    "u8": np.arange(0, 250, 50, dtype=np.uint8),
    "i16": np.array([-32768, 1, 32767], np.int16),
    "i8": np.array([-128, 0, 127], np.int8),
    "c64": np.array([1 + 2j, -3.5j], np.complex64),
    "i64": np.array([-(2 ** 63), 2 ** 63 - 1], np.int64),
    "bool": np.array([[True, False], [False, True]]),
    "u16": np.array([0, 65535], np.uint16),
    "c128": np.array([[1e-300 + 1j]], np.complex128),
    "f16": np.array([0.5, -65504.0, 1e-4], np.float16),
    "u32": np.array([4294967295, 3], np.uint32),
    "u64": np.array([18446744073709551615, 1], np.uint64),
    "scalar": np.float32(2.5),
    "empty": np.zeros((0, 3), np.float32),
    "str": np.array([b"hello", b"", b"\x00\xffbytes", "\u00fcnic\u00f6de".encode()], dtype=object),
    "a/nested/name": np.array([[1, 2, 3]], np.int32),
}


def write_checkpoint_fixture(tf):
    """Writes tests/fixtures/<CKPT_FIXTURE>.{index,data-00000-of-00001} with TF's SaveV2."""
    prefix = os.path.join(FIXTURES, CKPT_FIXTURE)
    os.makedirs(os.path.dirname(prefix), exist_ok=True)
    g = tf.Graph()
    with g.as_default():
        names = sorted(CKPT_VALUES)
        save = tf.raw_ops.SaveV2(prefix=prefix, tensor_names=names,
                                 shape_and_slices=[""] * len(names),
                                 tensors=[tf.constant(CKPT_VALUES[n]) for n in names])
        # a partitioned tensor: "big" [200, 3] saved as three row slices
        big = np.arange(600, dtype=np.float32).reshape(200, 3)
        save_sliced = tf.raw_ops.SaveV2(
            prefix=os.path.join(FIXTURES, CKPT_SLICED), tensor_names=["big", "big", "big", "x"],
            shape_and_slices=["200 3 0,70:-", "200 3 70,100:-", "200 3 170,30:0,3", ""],
            tensors=[tf.constant(big[:70]), tf.constant(big[70:170]), tf.constant(big[170:]),
                     tf.constant([1, 2], tf.int64)])
        with tf.Session(graph=g, config=_config(tf)) as sess:
            sess.run([save, save_sliced])


_CKPT_NAMES = sorted(CKPT_VALUES)
case("SaveV2", "dtypes", prefix=TMP("ckpt"), tensor_names=K([b"w", b"b", b"s", b"n/x"], "string"),
     shape_and_slices=K([b"", b"", b"", b""], "string"),
     tensors=[F(3, 4), I(5, dt="int64"), V([b"ab", b"", b"\x00c"], "string"), V(True)])
case("RestoreV2", "tf_written", prefix=PATH(CKPT_FIXTURE),
     tensor_names=K([n.encode() for n in _CKPT_NAMES], "string"),
     shape_and_slices=K([b""] * len(_CKPT_NAMES), "string"),
     dtypes=[np.asarray(CKPT_VALUES[n]).dtype.name if np.asarray(CKPT_VALUES[n]).dtype != object
             else "string" for n in _CKPT_NAMES])
case("RestoreV2", "slice", prefix=PATH(CKPT_FIXTURE), tensor_names=K([b"f32", b"i32"], "string"),
     shape_and_slices=K([b"2 3 0,1:1,2", b"2 2 -:1,1"], "string"), dtypes=["float32", "int32"])
case("SaveV2", "slices", prefix=TMP("ckpt"), tensor_names=K([b"p", b"p", b"q"], "string"),
     shape_and_slices=K([b"300 2 0,100:-", b"300 2 100,200:0,2", b""], "string"),
     tensors=[F(100, 2), F(200, 2), I(3)])
case("RestoreV2", "tf_sliced_whole_and_part", prefix=PATH(CKPT_SLICED),
     tensor_names=K([b"big", b"big", b"x"], "string"),
     shape_and_slices=K([b"", b"200 3 60,20:1,2", b""], "string"),
     dtypes=["float32", "float32", "int64"])
case("RestoreV2", "missing_key", error=True, prefix=PATH(CKPT_FIXTURE),
     tensor_names=K([b"zz"], "string"), shape_and_slices=K([b""], "string"), dtypes=["float32"])
case("RestoreV2", "wrong_dtype", error=True, prefix=PATH(CKPT_FIXTURE),
     tensor_names=K([b"f32"], "string"), shape_and_slices=K([b""], "string"), dtypes=["int32"])
case("RestoreV2", "missing_file", error=True, prefix=PATH("checkpoints/no_such_checkpoint"),
     tensor_names=K([b"f32"], "string"), shape_and_slices=K([b""], "string"), dtypes=["float32"])


def _merge_case(tf, inp):
    p0, p1, dest = inp(TMP("part0"), "p0"), inp(TMP("part1"), "p1"), inp(TMP("merged"), "dest")
    s0 = tf.raw_ops.SaveV2(prefix=p0, tensor_names=["b", "c"], shape_and_slices=["", ""],
                           tensors=[tf.constant([1.5, 2.5]), tf.constant([b"x", b"yy"])])
    s1 = tf.raw_ops.SaveV2(prefix=p1, tensor_names=["a"], shape_and_slices=[""],
                           tensors=[tf.constant([[7, 8]], tf.int64)])
    with tf.control_dependencies([s0, s1]):
        merge = tf.raw_ops.MergeV2Checkpoints(checkpoint_prefixes=tf.stack([p0, p1]),
                                              destination_prefix=dest, delete_old_dirs=True)
    with tf.control_dependencies([merge]):
        restored = tf.raw_ops.RestoreV2(prefix=dest, tensor_names=["a", "b", "c"],
                                        shape_and_slices=["", "", ""],
                                        dtypes=[tf.int64, tf.float32, tf.string])
    return {"fetches": restored}


custom("MergeV2Checkpoints", "two_parts", _merge_case)
case("ShardedFilename", "name", basename=V(b"/tmp/model_temp/part", "string"), shard=V(3, "int32"),
     num_shards=V(12, "int32"))
case("ShardedFilespec", "name", basename=V(b"/tmp/model", "string"), num_shards=V(12, "int32"))
case("StringJoin", "broadcast", inputs=[V([b"a", b"bc"], "string"), V(b"_temp/part", "string")],
     separator="-")
case("StringJoin", "scalars", inputs=[V(b"model", "string"), V(b"_temp", "string")])
case("ScalarSummary", "f32", tags=V([b"a", b"b/c"], "string"), values=F(2))
case("ScalarSummary", "i64", tags=V(b"step", "string"), values=V(7, "int64"))
case("ScalarSummary", "shape_mismatch", error=True, tags=V([b"a", b"b"], "string"), values=F(3))
case("HistogramSummary", "f32", tag=V(b"h", "string"), values=F(5, 7, lo=-50, hi=50))
case("HistogramSummary", "f64_empty", tag=V(b"e", "string"), values=F(0, dt="float64"))
case("HistogramSummary", "nan", error=True, tag=V(b"n", "string"),
     values=V([1.0, float("nan")], "float32"))
case("ImageSummary", "f32_signed", tag=V(b"img", "string"), tensor=F(3, 5, 7, 3, lo=-4, hi=3))
case("ImageSummary", "f32_bad_pixels", tag=V(b"bad", "string"), max_images=1,
     tensor=V([[[[0.5, float("nan"), 1.0]], [[2.0, 0.25, float("inf")]]]], "float32"))
case("ImageSummary", "f32_positive_rgba", tag=V(b"pos", "string"), max_images=5,
     tensor=F(2, 4, 4, 4, lo=0, hi=9))
case("ImageSummary", "f16_gray", tag=V(b"h", "string"), tensor=F(2, 3, 3, 1, dt="float16"))
case("ImageSummary", "f64", tag=V(b"d", "string"), tensor=F(1, 6, 2, 3, lo=-10, hi=10, dt="float64"))
case("ImageSummary", "u8", tag=V(b"u", "string"), max_images=2,
     tensor=I(4, 8, 9, 3, lo=0, hi=255, dt="uint8"))
case("ImageSummary", "zeros", tag=V(b"z", "string"), tensor=V([[[[0.0]]]], "float32"))
case("ImageSummary", "two_channels", error=True, tag=V(b"x", "string"), tensor=F(1, 2, 2, 2))
case("ImageSummary", "rank3", error=True, tag=V(b"x", "string"), tensor=F(2, 2, 3))
case("AudioSummaryV2", "mono_clipped", tag=V(b"a", "string"), sample_rate=V(16000.0, "float32"),
     tensor=F(2, 50, lo=-1.5, hi=1.5))
case("AudioSummaryV2", "stereo_one", tag=V(b"s", "string"), sample_rate=V(22050.6, "float32"),
     max_outputs=1, tensor=F(4, 30, 2, lo=-1, hi=1))
case("AudioSummaryV2", "bad_rate", error=True, tag=V(b"r", "string"),
     sample_rate=V(0.0, "float32"), tensor=F(1, 10))
case("AudioSummaryV2", "rank1", error=True, tag=V(b"r", "string"),
     sample_rate=V(8000.0, "float32"), tensor=F(10))


def _merge_summary(tf, inp):
    a = tf.raw_ops.ScalarSummary(tags=["x", "y"], values=tf.constant([1.5, -2.0]))
    b = tf.raw_ops.HistogramSummary(tag="z", values=tf.constant([1.0, 2.0, 3.0]))
    return {"fetches": [tf.raw_ops.MergeSummary(inputs=[a, b])]}


def _merge_summary_dup(tf, inp):
    a = tf.raw_ops.ScalarSummary(tags=["x"], values=tf.constant([1.5]))
    return {"fetches": [tf.raw_ops.MergeSummary(inputs=[a, a])]}


custom("MergeSummary", "scalars_and_histogram", _merge_summary)
custom("MergeSummary", "duplicate_tag", _merge_summary_dup, error=True)
case("StaticRegexFullMatch", "s3", input=V([b"s3://bucket/m", b"/tmp/s3://m", b"s3:/x"], "string"),
     pattern="^s3://.*")
case("StaticRegexFullMatch", "classes", input=V([[b"abc", b"abcd"], [b"", b"cab"]], "string"),
     pattern="[a-c]+")



# ---- input parsing: tf.train.Example protos, raw bytes, CSV, string splitting

def _pb_varint(v):
    out = bytearray()
    v &= (1 << 64) - 1
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def _pb_len(field, payload):
    return _pb_varint(field << 3 | 2) + _pb_varint(len(payload)) + payload


def _pb_feature(values, kind, packed=True):
    """A serialized Feature: kind "bytes", "float" or "int64"."""
    if kind == "bytes":
        return _pb_len(1, b"".join(_pb_len(1, v) for v in values))
    if kind == "float":
        if packed:
            return _pb_len(2, _pb_len(1, np.array(values, "<f4").tobytes()))
        return _pb_len(2, b"".join(_pb_varint(1 << 3 | 5) + np.array([v], "<f4").tobytes()
                                   for v in values))
    if packed:
        return _pb_len(3, _pb_len(1, b"".join(_pb_varint(int(v)) for v in values)))
    return _pb_len(3, b"".join(_pb_varint(1 << 3 | 0) + _pb_varint(int(v)) for v in values))


def _pb_example(entries, split=False):
    """A serialized Example of (key, serialized Feature) map entries, in order
    (repeated keys kept); split=True puts each entry in a Features of its own."""
    maps = [_pb_len(1, _pb_len(1, k.encode()) + _pb_len(2, f)) for k, f in entries]
    if split:
        return b"".join(_pb_len(1, m) for m in maps)
    return _pb_len(1, b"".join(maps))


_EX = [
    _pb_example([("img", _pb_feature([b"\x01\x02\x03\x04", b"xy"], "bytes")),
                 ("label", _pb_feature([7], "int64")),
                 ("pos", _pb_feature([0.5, -1.25], "float")),
                 ("tags", _pb_feature([b"a", b"bb", b"ccc"], "bytes")),
                 ("ids", _pb_feature([3, -4, 2 ** 40], "int64")),
                 ("seq", _pb_feature([1.0, 2.0, 3.0, 4.0], "float")),
                 ("w", _pb_feature([0.25], "float"))]),
    # unpacked lists, a key given twice (the last wins), features split over two fields,
    # an empty Feature and an unknown field
    _pb_example([("label", _pb_feature([1], "int64")),
                 ("label", _pb_feature([-9], "int64", packed=False)),
                 ("pos", _pb_feature([3.0, 4.5], "float", packed=False)),
                 ("w", b""),
                 ("ids", _pb_feature([5], "int64", packed=False)),
                 ("img", _pb_feature([b"", b"z"], "bytes"))], split=True) + _pb_len(9, b"junk"),
    _pb_example([("label", _pb_feature([0], "int64")),
                 ("seq", _pb_feature([9.0, 8.0], "float"))]),
    b"",  # an empty Example: every feature missing
]
_EX_NAMES = [b"first", b"second", b"third", b"fourth"]


def _parse_v1(examples, error_defaults=False):
    def build(tf, inp):
        ser = inp(V(examples, "string"), "serialized")
        names = inp(V(_EX_NAMES[:len(examples)], "string"), "names")
        defaults = [
            tf.constant([], tf.float32) if error_defaults else tf.constant(-1.0, tf.float32),
            tf.constant([-1], tf.int64) if not error_defaults else tf.constant([], tf.int64),
            tf.constant(0.0, tf.float32),
            tf.constant([b"none", b"none"]),
        ]
        out = tf.raw_ops.ParseExample(
            serialized=ser, names=names, sparse_keys=["ids", "tags", "pos"],
            dense_keys=["w", "label", "seq", "img"], dense_defaults=defaults,
            sparse_types=[tf.int64, tf.string, tf.float32],
            dense_shapes=[[], [1], [None, 2], [2]])
        return {"fetches": list(out.sparse_indices) + list(out.sparse_values) +
                list(out.sparse_shapes) + list(out.dense_values)}
    return build


def _parse_v2(examples, scalar=False):
    def build(tf, inp):
        ser = inp(V(examples[0] if scalar else examples, "string"), "serialized")
        out = tf.raw_ops.ParseExampleV2(
            serialized=ser, names=tf.constant([], tf.string),
            sparse_keys=tf.constant(["tags"]), dense_keys=tf.constant(["label", "seq"]),
            ragged_keys=tf.constant(["ids", "pos"]),
            dense_defaults=[tf.constant([-1], tf.int64), tf.constant(0.5, tf.float32)],
            num_sparse=1, sparse_types=[tf.string], ragged_value_types=[tf.int64, tf.float32],
            ragged_split_types=[tf.int32, tf.int64], dense_shapes=[[1], [None]])
        fetches = (list(out.sparse_indices) + list(out.sparse_values) + list(out.sparse_shapes) +
                   list(out.dense_values) + list(out.ragged_values))
        if not scalar:
            fetches += list(out.ragged_row_splits)
        return {"fetches": fetches}
    return build


def _parse_single(example, required=False):
    def build(tf, inp):
        ser = inp(V(example, "string"), "serialized")
        out = tf.raw_ops.ParseSingleExample(
            serialized=ser,
            dense_defaults=[tf.constant([], tf.int64) if required else tf.constant([5], tf.int64),
                            tf.constant([1.0, 2.0], tf.float32)],
            num_sparse=2, sparse_keys=["tags", "ids"], dense_keys=["label", "pos"],
            sparse_types=[tf.string, tf.int64], dense_shapes=[[1], [2]])
        return {"fetches": list(out.sparse_indices) + list(out.sparse_values) +
                list(out.sparse_shapes) + list(out.dense_values)}
    return build


def _parse_error(serialized, **kw):
    """ParseExample of one key "label" (int64 [1] by default) over serialized."""
    def build(tf, inp):
        ser = inp(V(serialized, "string"), "serialized")
        dtype = kw.get("dtype", tf.int64)
        out = tf.raw_ops.ParseExample(
            serialized=ser, names=tf.constant([], tf.string), sparse_keys=[],
            dense_keys=["label"], dense_defaults=[tf.constant([], dtype)], sparse_types=[],
            dense_shapes=[kw.get("shape", [1])])
        return {"fetches": list(out.dense_values)}
    return build


custom("ParseExample", "mixed", _parse_v1(_EX[:3]))
custom("ParseExample", "defaults_and_empty", _parse_v1(_EX))
custom("ParseExample", "required_missing", _parse_v1(_EX, error_defaults=True), error=True)
custom("ParseExample", "wrong_type", _parse_error([_EX[0]], dtype="float32"), error=True)
custom("ParseExample", "wrong_count", _parse_error([_EX[0]], shape=[2]), error=True)
custom("ParseExample", "not_an_example", _parse_error([b"\x0a\x05abc"]), error=True)
custom("ParseExampleV2", "ragged", _parse_v2(_EX))
custom("ParseExampleV2", "scalar", _parse_v2(_EX, scalar=True))
custom("ParseSingleExample", "mixed", _parse_single(_EX[0]))
custom("ParseSingleExample", "merged_fields", _parse_single(_EX[1]))
custom("ParseSingleExample", "required_missing", _parse_single(_EX[3], required=True), error=True)
case("DecodeRaw", "f32", bytes=V([np.array([1.5, -2, 3], "<f4").tobytes(),
                                  np.array([0, 1e30, -7], "<f4").tobytes()], "string"),
     out_type="float32")
case("DecodeRaw", "i16_big_endian", bytes=V([[b"\x01\x02\x80\x00"], [b"\xff\xfe\x00\x01"]], "string"),
     out_type="int16", little_endian=False)
case("DecodeRaw", "u8", bytes=V(b"\x00\x01\xfe\xff", "string"), out_type="uint8")
case("DecodeRaw", "i64", bytes=V([np.array([-(2 ** 63), 5], "<i8").tobytes()], "string"),
     out_type="int64")
case("DecodeRaw", "ragged", error=True, bytes=V([b"\x00\x01", b"\x02"], "string"),
     out_type="uint8")
case("DecodeRaw", "not_a_multiple", error=True, bytes=V([b"\x00\x01\x02"], "string"),
     out_type="int16")
case("DecodeCSV", "mixed",
     records=V([b'1,2.5,"a,""b""",7', b',,plain,', b'-3,1e3,"",NA'], "string"),
     record_defaults=[V([0], "int32"), V([-1.0], "float32"), V([b"dflt"], "string"),
                      V([9], "int64")], na_value="NA")
case("DecodeCSV", "select_cols_tabs", records=V([[b"a\t1\tx\t2.5"], [b"b\t2\ty\t"]], "string"),
     record_defaults=[V([0], "int32"), V([0.0], "float64")], field_delim="\t",
     select_cols=[1, 3])
case("DecodeCSV", "no_quotes", records=V([b'"q",1'], "string"),
     record_defaults=[V([b""], "string"), V([0], "int32")], use_quote_delim=False)
case("DecodeCSV", "bad_int", error=True, records=V([b"1,x"], "string"),
     record_defaults=[V([0], "int32"), V([0], "int32")])
case("DecodeCSV", "required", error=True, records=V([b"1,"], "string"),
     record_defaults=[V([0], "int32"), V(np.zeros(0, np.int32))])
case("DecodeCSV", "field_count", error=True, records=V([b"1,2,3"], "string"),
     record_defaults=[V([0], "int32"), V([0], "int32")])
case("StringSplit", "spaces", input=V([b"hello world", b"a  b", b"", b" x "], "string"),
     delimiter=V(b" ", "string"))
case("StringSplit", "keep_empty", input=V([b"a,b;;c", b";"], "string"),
     delimiter=V(b",;", "string"), skip_empty=False)
case("StringSplit", "bytes", input=V([b"abc", b"d"], "string"), delimiter=V(b"", "string"))
case("StringSplitV2", "sep", input=V([b"1<>2<><>3", b"", b"<>"], "string"),
     sep=V(b"<>", "string"))
case("StringSplitV2", "whitespace", input=V([b"  hello \t world  ", b"   ", b"x"], "string"),
     sep=V(b"", "string"))
case("StringSplitV2", "maxsplit", input=V([b"a,b,c,d", b" p  q  r "], "string"),
     sep=V(b",", "string"), maxsplit=2)
case("StringSplitV2", "maxsplit_ws", input=V([b" p  q  r ", b"s"], "string"),
     sep=V(b"", "string"), maxsplit=1)

# ---- version-1 control flow: raw Switch/Merge/Enter/... graphs, and the
# graphs tf.cond / tf.case / tf.while_loop build (v1 control flow)

def _switch_merge(ref, pred=True):
    def build(tf, inp):
        p = tf.placeholder(tf.bool, [], name="pred")
        feeds = {p: np.array(pred)}
        if ref:
            data, init = _var(tf, np.array([1.5, -2.0], np.float32), "v")
            f, t = tf.raw_ops.RefSwitch(data=data, pred=p)
            m = tf.raw_ops.RefMerge(inputs=[f, t])
            return {"init": [init], "fetches": [tf.raw_ops.Identity(input=m.output), m.value_index],
                    "extra_feeds": feeds}
        data = inp(F(2, 3), "data")
        f, t = tf.raw_ops.Switch(data=data, pred=p)
        m = tf.raw_ops.Merge(inputs=[f * 2.0, t + 1.0])
        return {"fetches": [m.output, m.value_index], "extra_feeds": feeds}
    return build


def _switch_dead_fetch(tf, inp):
    f, t = tf.raw_ops.Switch(data=inp(F(3), "data"), pred=tf.constant(True))
    return {"fetches": [f]}


def _raw_loop(ref, par=10):
    """i = 0; while i < n: i += 1 (and, for ref, a variable passed through
    the loop unchanged) built from raw ops."""
    def build(tf, inp):
        n = inp(I(lo=3, hi=9), "n")
        frame = "raw_loop"
        i0 = tf.constant(0)
        e = tf.raw_ops.Enter(data=i0, frame_name=frame, parallel_iterations=par)
        en = tf.raw_ops.Enter(data=n, frame_name=frame, is_constant=True, parallel_iterations=par)
        m = tf.raw_ops.Merge(inputs=[e, e])
        c = tf.raw_ops.LoopCond(input=tf.raw_ops.Less(x=m.output, y=en))
        f, t = tf.raw_ops.Switch(data=m.output, pred=c)
        one = tf.raw_ops.Enter(data=tf.constant(1), frame_name=frame, is_constant=True,
                               parallel_iterations=par)
        nx = tf.raw_ops.NextIteration(data=tf.raw_ops.AddV2(x=tf.raw_ops.Identity(input=t), y=one))
        m.output.op._update_input(1, nx)
        out = [tf.raw_ops.Exit(data=f)]
        init = []
        if ref:
            v, vinit = _var(tf, np.array([3.0, 4.0], np.float32), "v")
            init = [vinit]
            re = tf.raw_ops.RefEnter(data=v, frame_name=frame, parallel_iterations=par)
            rm = tf.raw_ops.RefMerge(inputs=[re, re])
            rf, rt = tf.raw_ops.RefSwitch(data=rm.output, pred=c)
            rn = tf.raw_ops.RefNextIteration(data=tf.raw_ops.RefIdentity(input=rt))
            rm.output.op._update_input(1, rn)
            out.append(tf.raw_ops.Identity(input=tf.raw_ops.RefExit(data=rf)))
        return {"init": init, "fetches": out}
    return build


def _tf_cond(tf, inp):
    x = inp(F(3), "x")
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: tf.nn.relu(x) + 1.0,
                lambda: tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 3.0, lambda: -x))
    return {"fetches": [y], "extra_feeds": {p: np.array(False)}}


def _tf_cond_gradient(tf, inp):
    x = inp(F(2, 3), "x")
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: tf.reduce_sum(tf.sin(x) * x),
                lambda: tf.cond(tf.reduce_sum(x) > 0.0, lambda: tf.reduce_sum(x * x),
                                lambda: tf.reduce_sum(tf.exp(x))))
    return {"fetches": [y] + tf.gradients(y, [x]), "extra_feeds": {p: np.array(False)}}


def _tf_case(tf, inp):
    k = inp(I(lo=-2, hi=3), "k")
    r = tf.case([(tf.less(k, 0), lambda: k * 10), (tf.equal(k, 0), lambda: k + 100)],
                default=lambda: k - 1)
    return {"fetches": [r]}


def _tf_while(tf, inp):
    n = inp(I(lo=4, hi=12), "n")
    x = inp(F(2), "x")

    def body(i, acc, s):
        acc = tf.cond(tf.equal(i % 3, 0), lambda: acc * 1.5, lambda: acc + x)
        inner = tf.while_loop(lambda j, t: j < i, lambda j, t: (j + 1, t + j), [0, s])
        return i + 1, acc, inner[1]

    r = tf.while_loop(lambda i, a, s: i < n, body, [tf.constant(0), tf.zeros([2]), 0])
    m = tf.while_loop(lambda i: i < 1000, lambda i: i + 2, [tf.constant(1)], maximum_iterations=n)
    return {"fetches": list(r) + [m]}


def _tf_while_shapes(tf, inp):
    v = inp(F(2), "v")
    r = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.concat([v, v * 2.0], 0)),
                      [tf.constant(0), v],
                      shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
    return {"fetches": list(r)}


custom("Switch", "switch_merge", _switch_merge(False))
custom("Switch", "switch_merge_false", _switch_merge(False, False))
custom("Switch", "dead_fetch", _switch_dead_fetch, error=True)
custom("RefSwitch", "switch_merge", _switch_merge(True))
custom("Merge", "tf_cond", _tf_cond)
custom("Merge", "tf_case", _tf_case)
custom("Merge", "tf_cond_gradient", _tf_cond_gradient)
custom("RefMerge", "switch_merge", _switch_merge(True, False))
custom("Enter", "raw_loop", _raw_loop(False))
custom("Enter", "raw_loop_par1", _raw_loop(False, 1))
custom("Enter", "tf_while_nested_cond", _tf_while)
custom("Exit", "raw_loop", _raw_loop(False))
custom("Exit", "tf_while_shape_invariants", _tf_while_shapes)
custom("NextIteration", "raw_loop", _raw_loop(False))
custom("LoopCond", "raw_loop", _raw_loop(False))
custom("RefEnter", "raw_loop", _raw_loop(True))
custom("RefExit", "raw_loop", _raw_loop(True))
custom("RefNextIteration", "raw_loop", _raw_loop(True))
custom("RefIdentity", "raw_loop", _raw_loop(True))


# ---- stacks and tensor arrays: raw ops, and the graphs tf.gradients builds
# through while loops (forward values on stacks) and tf.TensorArray

def _stack_raw(tf, inp):
    x = inp(F(2, 3), "x")
    h = tf.raw_ops.StackV2(max_size=-1, elem_type=tf.float32, stack_name="s")
    p1 = tf.raw_ops.StackPushV2(handle=h, elem=x)
    with tf.control_dependencies([p1]):
        p2 = tf.raw_ops.StackPushV2(handle=h, elem=x * 2.0, swap_memory=True)
    with tf.control_dependencies([p2]):
        a = tf.raw_ops.StackPopV2(handle=h, elem_type=tf.float32)
    with tf.control_dependencies([a]):
        b = tf.raw_ops.StackPopV2(handle=h, elem_type=tf.float32)
    with tf.control_dependencies([b]):
        c = tf.raw_ops.StackCloseV2(handle=h)
    with tf.control_dependencies([c]):
        out = tf.identity(a - b)
    return {"fetches": [a, b, out, p1]}


def _stack_pop_empty(tf, inp):
    h = tf.raw_ops.StackV2(max_size=-1, elem_type=tf.float32)
    return {"fetches": [tf.raw_ops.StackPopV2(handle=h, elem_type=tf.float32)]}


def _stack_overflow(tf, inp):
    h = tf.raw_ops.StackV2(max_size=1, elem_type=tf.float32)
    p1 = tf.raw_ops.StackPushV2(handle=h, elem=tf.constant(1.0))
    with tf.control_dependencies([p1]):
        p2 = tf.raw_ops.StackPushV2(handle=h, elem=tf.constant(2.0))
    return {"fetches": [p2]}


def _while_gradient(tf, inp):
    x = inp(F(3, lo=-1, hi=1), "x")
    w = inp(F(3, lo=-1, hi=1), "w")
    n = inp(I(lo=2, hi=6), "n")

    def body(i, a):
        a = tf.cond(tf.equal(i % 2, 0), lambda: tf.sin(a) * w + a, lambda: a * a * 0.5)
        return i + 1, a
    _, r = tf.while_loop(lambda i, a: i < n, body, [0, x])
    y = tf.reduce_sum(r * r)
    return {"fetches": [y] + tf.gradients(y, [x, w])}


def _nested_while_gradient(tf, inp):
    x = inp(F(2, lo=-1, hi=1), "x")

    def outer(i, a):
        _, b = tf.while_loop(lambda j, b: j < i + 1, lambda j, b: (j + 1, tf.tanh(b) * 1.5), [0, a])
        return i + 1, b + a * 0.25
    _, r = tf.while_loop(lambda i, a: i < 3, outer, [0, x])
    y = tf.reduce_sum(r)
    return {"fetches": [y] + tf.gradients(y, [x])}


def _ta_ops(tf, inp):
    x = inp(F(4, 3), "x")
    ta = tf.TensorArray(tf.float32, size=4, clear_after_read=False)
    ta = ta.unstack(x)
    r1 = ta.read(2)
    g = ta.gather([3, 0])
    st = ta.stack()
    cc = ta.concat()
    ta2 = tf.TensorArray(tf.float32, size=3, infer_shape=False).split(
        tf.reshape(x, [12]), tf.constant([5, 3, 4], tf.int64))
    parts = [ta2.read(i) for i in range(3)]
    ta3 = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    ta3 = ta3.write(0, x[0]).write(3, x[1])
    sz = ta3.size()
    with tf.control_dependencies([r1, g, st, cc]):
        close = ta.close()
    return {"fetches": [r1, g, st, cc, sz] + parts, "targets": [close]}


def _ta_gradient(tf, inp):
    x = inp(F(5, 2), "x")
    ta = tf.TensorArray(tf.float32, size=5).unstack(x)

    def body(i, acc, out):
        v = ta.read(i)
        acc = acc * 0.5 + tf.sin(v)
        return i + 1, acc, out.write(i, acc * acc)
    _, acc, out = tf.while_loop(lambda i, a, o: i < 5, body,
                                [0, tf.zeros([2]), tf.TensorArray(tf.float32, size=5)])
    y = tf.reduce_sum(tf.reshape(out.stack(), [10])) + tf.reduce_sum(acc)
    return {"fetches": [y] + tf.gradients(y, [x])}


def _ta_concat_split_gradient(tf, inp):
    x = inp(F(6), "x")
    ta = tf.TensorArray(tf.float32, size=3, infer_shape=False, clear_after_read=False).split(
        x, tf.constant([1, 2, 3], tf.int64))
    y = tf.reduce_sum(tf.reshape(ta.concat(), [6]) * tf.range(6.0)) + tf.reduce_sum(
        tf.reshape(ta.read(1), [2]) ** 2)
    ta4 = tf.TensorArray(tf.float32, size=3).scatter([2, 0, 1], tf.reshape(x, [3, 2]))
    y2 = tf.reduce_sum(tf.reshape(ta4.gather([1, 2]), [4]) * 3.0)
    return {"fetches": [y, y2] + tf.gradients(y + y2, [x])}


def _ta_double_write(tf, inp):
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(0, 2.0)
    return {"fetches": [ta.stack()]}


def _ta_read_twice(tf, inp):
    ta = tf.TensorArray(tf.float32, size=1).write(0, [1.0, 2.0])
    a = ta.read(0)
    with tf.control_dependencies([a]):
        b = ta.read(0)
    return {"fetches": [b]}


def _ta_out_of_range(tf, inp):
    ta = tf.TensorArray(tf.float32, size=2).write(5, 1.0)
    return {"fetches": [ta.flow]}


custom("StackV2", "raw_push_pop_close", _stack_raw)
custom("StackV2", "pop_empty", _stack_pop_empty, error=True)
custom("StackPushV2", "raw_push_pop_close", _stack_raw)
custom("StackPushV2", "overflow", _stack_overflow, error=True)
custom("StackPopV2", "raw_push_pop_close", _stack_raw)
custom("StackPopV2", "while_cond_gradient", _while_gradient)
custom("StackPopV2", "nested_while_gradient", _nested_while_gradient)
custom("StackCloseV2", "raw_push_pop_close", _stack_raw)
for _op in ("TensorArrayV3", "TensorArrayReadV3", "TensorArrayGatherV3", "TensorArrayScatterV3",
            "TensorArrayConcatV3", "TensorArraySplitV3", "TensorArraySizeV3",
            "TensorArrayCloseV3", "TensorArrayWriteV3"):
    custom(_op, "ops", _ta_ops)
custom("TensorArrayGradV3", "while_gradient", _ta_gradient)
custom("TensorArrayGradV3", "concat_split_scatter_gather_gradient", _ta_concat_split_gradient)
custom("TensorArrayWriteV3", "double_write", _ta_double_write, error=True)
custom("TensorArrayWriteV3", "out_of_range", _ta_out_of_range, error=True)
custom("TensorArrayReadV3", "read_twice", _ta_read_twice, error=True)


def _placeholder_cases(tf, inp):
    x = tf.raw_ops.Placeholder(dtype=tf.float32, shape=[2, None], name="x")
    return {"fetches": [x], "extra_feeds": {x: np.arange(6, dtype=np.float32).reshape(2, 3)}}


def _const_cases(tf, inp):
    outs = [tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3), name="f32"),
            tf.constant(1.5, shape=[2, 2], name="splat"),
            tf.constant([1, -2, 3], tf.int64, name="i64"),
            tf.constant([True, False], name="bool"),
            tf.constant([b"a", b"bc"], name="string"),
            tf.constant([1.5, -2.25], tf.float16, name="f16"),
            tf.constant(np.arange(4, dtype=np.uint8), name="u8"),
            tf.constant(3.25, tf.float64, name="f64")]
    return {"fetches": outs}


def _pwd_fed(tf, inp):
    d = tf.constant([1.0, 2.0], tf.float32)
    y = tf.raw_ops.PlaceholderWithDefault(input=d, shape=[None], name="y")
    return {"fetches": [y], "extra_feeds": {y: np.array([4.0, 5.0, 6.0], np.float32)}}


custom("Placeholder", "fed", _placeholder_cases)
custom("Const", "dtypes", _const_cases)
custom("PlaceholderWithDefault", "fed", _pwd_fed)


# ---- state: variables and their updates

def _var(tf, value, name, op="VariableV2"):
    """A ref variable (VariableV2 or Variable) and its initializer."""
    value = np.asarray(value)
    v = getattr(tf.raw_ops, op)(shape=list(value.shape), dtype=tf.as_dtype(value.dtype),
                                name=name)
    init = tf.raw_ops.Assign(ref=v, value=tf.constant(value), name=name + "_init")
    return v, init.op


def _rng(name):
    return np.random.RandomState(zlib.crc32(name.encode()) & 0x7FFFFFFF)


def _variable_case(op):
    def build(tf, inp):
        v, init = _var(tf, _rng(op).randn(2, 3).astype(np.float32), "v", op)
        return {"init": [init], "fetches": [tf.raw_ops.Identity(input=v)]}
    return build


custom("VariableV2", "init_read", _variable_case("VariableV2"))
custom("Variable", "init_read", _variable_case("Variable"))


def _assign_case(op, dt="float32"):
    def build(tf, inp):
        rng = _rng(op + dt)
        v, init = _var(tf, rng.randn(2, 3).astype(dt) * 10, "v")
        val = inp(F(2, 3, dt=dt) if dt.startswith("float") else I(2, 3, dt=dt), "value")
        out = getattr(tf.raw_ops, op)(ref=v, value=val)
        return {"init": [init], "fetches": [out]}
    return build


custom("Assign", "f32", _assign_case("Assign"))
custom("AssignAdd", "f32", _assign_case("AssignAdd"))
custom("AssignSub", "f32", _assign_case("AssignSub"))
custom("AssignAdd", "i32", _assign_case("AssignAdd", "int32"))


def _assign_new_shape(tf, inp):
    v, init = _var(tf, np.zeros([2], np.float32), "v")
    out = tf.raw_ops.Assign(ref=v, value=inp(F(3, 2), "value"), validate_shape=False)
    return {"init": [init], "fetches": [out]}


custom("Assign", "no_validate_shape", _assign_new_shape)


def _scatter_case(op, dt="float32", dup=False):
    def build(tf, inp):
        rng = _rng(op + dt)
        base = (rng.uniform(0.5, 3, (5, 3)) * (1 if dt.startswith("float") else 4)).astype(dt)
        v, init = _var(tf, base, "v")
        idx = inp(V([4, 0, 4, 2] if dup else [3, 0, 1], "int32"), "indices")
        n = 4 if dup else 3
        upd = inp(F(n, 3, lo=0.5, hi=2, dt=dt) if dt.startswith("float")
                  else I(n, 3, lo=1, hi=4, dt=dt), "updates")
        out = getattr(tf.raw_ops, op)(ref=v, indices=idx, updates=upd)
        return {"init": [init], "fetches": [out]}
    return build


for _op in ["ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv", "ScatterMax", "ScatterMin",
            "ScatterUpdate"]:
    custom(_op, "f32", _scatter_case(_op))
    if _op != "ScatterUpdate":
        custom(_op, "f32_dup_indices", _scatter_case(_op, dup=True))
custom("ScatterAdd", "i32", _scatter_case("ScatterAdd", "int32"))
custom("ScatterMax", "i64", _scatter_case("ScatterMax", "int64"))


def _scatter_scalar_updates(tf, inp):
    v, init = _var(tf, np.arange(8, dtype=np.float32).reshape(4, 2), "v")
    out = tf.raw_ops.ScatterUpdate(ref=v, indices=inp(V([[1], [3]], "int64"), "indices"),
                                   updates=inp(F(2, 1, 2), "updates"))
    return {"init": [init], "fetches": [out]}


custom("ScatterUpdate", "2d_indices", _scatter_scalar_updates)


def _count_up_to(tf, inp):
    v, init = _var(tf, np.array(3, np.int64), "v")
    out = tf.raw_ops.CountUpTo(ref=v, limit=10)
    return {"init": [init], "fetches": [out, tf.raw_ops.Identity(input=v)]}


def _is_initialized(tf, inp):
    v, init = _var(tf, np.ones([2], np.float32), "v")
    w = tf.raw_ops.VariableV2(shape=[3], dtype=tf.int32, name="w")
    return {"init": [init], "fetches": [tf.raw_ops.IsVariableInitialized(ref=v),
                                        tf.raw_ops.IsVariableInitialized(ref=w)]}


def _temporary_variable(tf, inp):
    t = tf.raw_ops.TemporaryVariable(shape=[2, 2], dtype=tf.float32, var_name="tmp")
    a = tf.raw_ops.Assign(ref=t, value=inp(F(2, 2), "value"))
    b = tf.raw_ops.AssignAdd(ref=a, value=inp(F(2, 2), "delta"))
    d = tf.raw_ops.DestroyTemporaryVariable(ref=b, var_name="tmp")
    return {"fetches": [d]}


custom("CountUpTo", "i64", _count_up_to)
custom("IsVariableInitialized", "one_of_two", _is_initialized)
custom("TemporaryVariable", "assign_destroy", _temporary_variable)
custom("DestroyTemporaryVariable", "assign_destroy", _temporary_variable)


def _apply_case(op, **attrs):
    slots = {"ApplyGradientDescent": [], "ApplyAdagrad": ["accum"], "ApplyMomentum": ["accum"],
             "ApplyAdam": ["m", "v"], "ApplyRMSProp": ["ms", "mom"],
             "ApplyCenteredRMSProp": ["mg", "ms", "mom"]}[op]

    def build(tf, inp):
        rng = _rng(op + repr(attrs))
        var, init0 = _var(tf, rng.randn(3, 4).astype(np.float32), "var")
        inits = [init0]
        refs = {}
        for s in slots:
            value = rng.uniform(0.1, 1.0, (3, 4)).astype(np.float32)
            if s == "mg":  # keeps ms - mg^2 positive
                value *= np.float32(0.3)
            r, i = _var(tf, value, s)
            refs[s] = r
            inits.append(i)
        grad = inp(F(3, 4), "grad")

        def sc(v, n):
            return inp(V(v, "float32"), n)
        if op == "ApplyGradientDescent":
            out = tf.raw_ops.ApplyGradientDescent(var=var, alpha=sc(0.1, "alpha"), delta=grad,
                                                  **attrs)
        elif op == "ApplyAdagrad":
            out = tf.raw_ops.ApplyAdagrad(var=var, accum=refs["accum"], lr=sc(0.1, "lr"),
                                          grad=grad, **attrs)
        elif op == "ApplyMomentum":
            out = tf.raw_ops.ApplyMomentum(var=var, accum=refs["accum"], lr=sc(0.1, "lr"),
                                           grad=grad, momentum=sc(0.9, "momentum"), **attrs)
        elif op == "ApplyAdam":
            out = tf.raw_ops.ApplyAdam(var=var, m=refs["m"], v=refs["v"],
                                       beta1_power=sc(0.9 ** 3, "b1p"),
                                       beta2_power=sc(0.999 ** 3, "b2p"), lr=sc(0.01, "lr"),
                                       beta1=sc(0.9, "beta1"), beta2=sc(0.999, "beta2"),
                                       epsilon=sc(1e-7, "eps"), grad=grad, **attrs)
        elif op == "ApplyCenteredRMSProp":
            out = tf.raw_ops.ApplyCenteredRMSProp(var=var, mg=refs["mg"], ms=refs["ms"],
                                                  mom=refs["mom"], lr=sc(0.01, "lr"),
                                                  rho=sc(0.9, "rho"), momentum=sc(0.5, "momentum"),
                                                  epsilon=sc(1e-7, "eps"), grad=grad, **attrs)
        else:
            out = tf.raw_ops.ApplyRMSProp(var=var, ms=refs["ms"], mom=refs["mom"],
                                          lr=sc(0.01, "lr"), rho=sc(0.9, "rho"),
                                          momentum=sc(0.5, "momentum"), epsilon=sc(1e-7, "eps"),
                                          grad=grad, **attrs)
        fetches = [out]
        # the slots after the update, read in a second step
        after = [tf.raw_ops.Identity(input=refs[s], name=s + "_after") for s in slots]
        return {"init": inits, "fetches": fetches, "after": after}
    return build


for _op in ["ApplyGradientDescent", "ApplyAdagrad", "ApplyMomentum", "ApplyAdam", "ApplyRMSProp",
            "ApplyCenteredRMSProp"]:
    custom(_op, "f32", _apply_case(_op))
custom("ApplyMomentum", "nesterov", _apply_case("ApplyMomentum", use_nesterov=True))
custom("ApplyAdam", "nesterov", _apply_case("ApplyAdam", use_nesterov=True))
custom("ApplyAdagrad", "no_update_slots", _apply_case("ApplyAdagrad", update_slots=False))



# ---- trigonometry, special functions and bitwise ops (ops_math_special.c)
_SPECIAL_EDGE = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0]
for _op, _lo, _hi in [("Tan", -1.4, 1.4), ("Asin", -0.99, 0.99), ("Acos", -0.99, 0.99),
                      ("Atan", -4, 4), ("Sinh", -4, 4), ("Cosh", -4, 4), ("Asinh", -4, 4),
                      ("Acosh", 1, 6), ("Atanh", -0.99, 0.99), ("Erf", -3, 3), ("Erfc", -3, 3),
                      ("Erfinv", -0.999, 0.999), ("Ndtri", 0.001, 0.999), ("Lgamma", -4.5, 10),
                      ("Digamma", -4.5, 10), ("BesselI0", -20, 20), ("BesselI1", -20, 20),
                      ("BesselI0e", -50, 50), ("BesselI1e", -50, 50), ("BesselJ0", -10, 10),
                      ("BesselJ1", -10, 10), ("BesselY0", 0.1, 20), ("BesselY1", 0.1, 20)]:
    case(_op, x=F(3, 5, lo=_lo, hi=_hi))
    case(_op, "f64", x=F(7, lo=_lo, hi=_hi, dt="float64"))
    case(_op, "special", x=V(_SPECIAL_EDGE, "float64" if _op.startswith("BesselY") else "float32"))
for _op in ["Sinh", "Erf", "Lgamma", "BesselI0e"]:
    case(_op, "f16", x=F(5, lo=-2, hi=2, dt="float16"))
case("Lgamma", "poles", x=V([0.0, -1.0, -2.0, -2.5, 1e-8, 1e30], "float32"))
case("Digamma", "poles", x=V([0.0, -1.0, -2.5, 1e-8, 1e5], "float64"))
case("Erfinv", "tails", x=V([0.9999, -0.99999, 1e-6, 0.5], "float64"))
case("Ndtri", "tails", x=V([1e-10, 1 - 1e-7, 0.02, 0.98], "float64"))
for _op in ["Igamma", "Igammac"]:
    case(_op, a=F(3, 5, lo=0.1, hi=10), x=F(3, 5, lo=0, hi=15))
    case(_op, "f64", a=F(8, lo=0.1, hi=40, dt="float64"), x=F(8, lo=0, hi=60, dt="float64"))
    case(_op, "broadcast", a=F(3, 1, lo=0.5, hi=5), x=F(4, lo=0, hi=8))
    case(_op, "special", a=V([0.0, -1.0, 1.0, 1.0, np.nan, 2.0, 3.0], "float32"),
         x=V([1.0, 1.0, -1.0, 0.0, 1.0, np.inf, 2.0], "float32"))
case("Atan2", y=F(3, 5, lo=-3, hi=3), x=F(3, 5, lo=-3, hi=3))
case("Atan2", "broadcast_f64", y=F(3, 1, dt="float64"), x=F(4, dt="float64"))
case("Atan2", "signed_zeros", y=V([0.0, -0.0, 0.0, -0.0, 1.0, -1.0], "float32"),
     x=V([0.0, 0.0, -0.0, -0.0, 0.0, -np.inf], "float32"))
case("Zeta", x=F(3, 5, lo=1.1, hi=8), q=F(3, 5, lo=0.1, hi=10))
case("Zeta", "f64", x=F(8, lo=1.01, hi=20, dt="float64"), q=F(8, lo=0.05, hi=30, dt="float64"))
case("Zeta", "special", x=V([1.0, 0.5, 2.0, 3.0, 2.0, np.nan], "float64"),
     q=V([1.0, 1.0, -1.0, 0.0, -1.5, 1.0], "float64"))
case("Polygamma", a=V([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], "float32"), x=F(2, 3, lo=0.2, hi=8))
case("Polygamma", "f64", a=V([0.0, 1.0, 2.0, 3.0, 1.5, -1.0], "float64"),
     x=F(6, lo=-3, hi=8, dt="float64"))
case("Xlog1py", x=V([0.0, 0.0, 1.0, 2.0, -1.5], "float32"),
     y=V([-1.0, 3.0, 0.5, -0.5, 10.0], "float32"))
case("Xlog1py", "broadcast_f64", x=F(3, 1, dt="float64"), y=F(4, lo=-0.9, hi=5, dt="float64"))
case("NextAfter", x1=F(6), x2=F(6))
case("NextAfter", "f64", x1=V([0.0, 1.0, -1.0, np.inf, 1.0, np.nan], "float64"),
     x2=V([1.0, 0.0, -2.0, 0.0, 1.0, 1.0], "float64"))
for _op in ["BitwiseAnd", "BitwiseOr", "BitwiseXor"]:
    case(_op, "i32", x=I(3, 4, lo=-1000, hi=1000), y=I(3, 4, lo=-1000, hi=1000))
    case(_op, "u8", x=I(6, lo=0, hi=255, dt="uint8"), y=I(6, lo=0, hi=255, dt="uint8"))
    case(_op, "i64_broadcast", x=I(3, 1, lo=-99, hi=99, dt="int64"), y=I(4, lo=0, hi=99, dt="int64"))
for _op in ["LeftShift", "RightShift"]:
    case(_op, "i32", x=I(3, 4, lo=-1000, hi=1000), y=I(3, 4, lo=0, hi=31))
    case(_op, "u8", x=I(6, lo=0, hi=255, dt="uint8"), y=I(6, lo=0, hi=7, dt="uint8"))
    case(_op, "i64", x=I(5, lo=-99, hi=99, dt="int64"), y=I(5, lo=0, hi=63, dt="int64"))
case("Invert", "i32", x=I(3, 4, lo=-1000, hi=1000))
case("Invert", "u16", x=I(5, lo=0, hi=65535, dt="uint16"))
case("Invert", "i8", x=I(5, lo=-128, hi=127, dt="int8"))


# ---- resource variables (handles, reads, writes and updates through them)

def _rvar(tf, value, name):
    """A resource variable: (handle, its AssignVariableOp initializer). The
    shared name carries the case's name scope, so cases never share one."""
    value = np.asarray(value)
    scope = tf.compat.v1.get_default_graph().get_name_scope()
    h = tf.raw_ops.VarHandleOp(dtype=tf.as_dtype(value.dtype), shape=list(value.shape),
                               shared_name="%s/%s" % (scope, name), name=name)
    init = tf.raw_ops.AssignVariableOp(resource=h, value=tf.constant(value), name=name + "_init")
    return h, init


def _read(tf, h, dt=None, name="read"):
    return tf.raw_ops.ReadVariableOp(resource=h, dtype=dt or tf.float32, name=name)


def _rvar_read(tf, inp):
    h, init = _rvar(tf, _rng("rvar").randn(2, 3).astype(np.float32), "v")
    return {"init": [init], "fetches": [_read(tf, h)]}


def _rvar_uninitialized(tf, inp):
    h = tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[2], shared_name="never_assigned", name="v")
    return {"fetches": [_read(tf, h)]}


def _rassign_case(op, dt="float32"):
    def build(tf, inp):
        rng = _rng(op + dt)
        h, init = _rvar(tf, (rng.randn(2, 3) * 10).astype(dt), "v")
        val = inp(F(2, 3, dt=dt) if dt.startswith("float") else I(2, 3, dt=dt), "value")
        upd = getattr(tf.raw_ops, op)(resource=h, value=val)
        return {"init": [init], "targets": [upd], "after": [_read(tf, h, tf.as_dtype(dt))]}
    return build


def _rassign_new_shape(tf, inp):
    h, init = _rvar(tf, np.zeros([2], np.float32), "v")
    val = tf.raw_ops.Placeholder(dtype=tf.float32, shape=None, name="value")
    upd = tf.raw_ops.AssignVariableOp(resource=h, value=val)
    return {"init": [init], "targets": [upd], "after": [_read(tf, h)],
            "extra_feeds": {val: np.arange(6, dtype=np.float32).reshape(3, 2)}}


def _rassign_validate_shape(tf, inp):
    h, init = _rvar(tf, np.zeros([2], np.float32), "v")
    val = tf.raw_ops.Placeholder(dtype=tf.float32, shape=None, name="value")
    upd = tf.raw_ops.AssignVariableOp(resource=h, value=val, validate_shape=True)
    return {"init": [init], "targets": [upd], "extra_feeds": {val: np.ones([3], np.float32)}}


def _rassign_add_uninitialized(tf, inp):
    h = tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[2], shared_name="never_assigned", name="v")
    upd = tf.raw_ops.AssignAddVariableOp(resource=h, value=inp(F(2), "value"))
    return {"targets": [upd]}


def _rvar_is_initialized(tf, inp):
    h, init = _rvar(tf, np.ones([2], np.float32), "v")
    w = tf.raw_ops.VarHandleOp(dtype=tf.int32, shape=[3], shared_name="never_assigned", name="w")
    return {"init": [init], "fetches": [tf.raw_ops.VarIsInitializedOp(resource=h),
                                        tf.raw_ops.VarIsInitializedOp(resource=w)]}


def _rdestroy(tf, inp):
    h, init = _rvar(tf, np.ones([2], np.float32), "v")
    d = tf.raw_ops.DestroyResourceOp(resource=h)
    return {"init": [init], "targets": [d], "after": [tf.raw_ops.VarIsInitializedOp(resource=h)]}


def _rdestroy_missing(tf, inp):
    h = tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[2], shared_name="never_assigned", name="v")
    return {"targets": [tf.raw_ops.DestroyResourceOp(resource=h, ignore_lookup_error=False)]}


def _rgather(dt="float32", idt="int32", batch_dims=0, bad=False):
    def build(tf, inp):
        rng = _rng("gather" + dt + idt + str(batch_dims))
        if batch_dims:
            h, init = _rvar(tf, rng.randn(2, 4, 3).astype(dt), "v")
            idx = inp(V([[3, 0], [1, 1]], idt), "indices")
        else:
            base = rng.randn(5, 3) if dt.startswith("float") else rng.randint(-9, 9, (5, 3))
            h, init = _rvar(tf, base.astype(dt), "v")
            idx = inp(V([[4, 0], [2, 5]] if bad else [[4, 0], [2, 2]], idt), "indices")
        out = tf.raw_ops.ResourceGather(resource=h, indices=idx, dtype=tf.as_dtype(dt),
                                        batch_dims=batch_dims)
        return {"init": [init], "fetches": [out]}
    return build


def _rscatter_case(op, dt="float32", dup=False):
    def build(tf, inp):
        rng = _rng(op + dt)
        base = (rng.uniform(0.5, 3, (5, 3)) * (1 if dt.startswith("float") else 4)).astype(dt)
        h, init = _rvar(tf, base, "v")
        idx = inp(V([4, 0, 4, 2] if dup else [3, 0, 1], "int32"), "indices")
        n = 4 if dup else 3
        upd = inp(F(n, 3, lo=0.5, hi=2, dt=dt) if dt.startswith("float")
                  else I(n, 3, lo=1, hi=4, dt=dt), "updates")
        o = getattr(tf.raw_ops, op)(resource=h, indices=idx, updates=upd)
        return {"init": [init], "targets": [o], "after": [_read(tf, h, tf.as_dtype(dt))]}
    return build


def _rapply_case(op, **attrs):
    slots = {"ResourceApplyGradientDescent": [], "ResourceApplyAdagrad": ["accum"],
             "ResourceApplyMomentum": ["accum"], "ResourceApplyAdam": ["m", "v"],
             "ResourceApplyRMSProp": ["ms", "mom"],
             "ResourceApplyCenteredRMSProp": ["mg", "ms", "mom"]}[op]

    def build(tf, inp):
        rng = _rng(op + repr(attrs))
        var, init0 = _rvar(tf, rng.randn(3, 4).astype(np.float32), "var")
        inits, h = [init0], {}
        for s in slots:
            value = rng.uniform(0.1, 1.0, (3, 4)).astype(np.float32)
            if s == "mg":  # keeps ms - mg^2 positive
                value *= np.float32(0.3)
            h[s], i = _rvar(tf, value, s)
            inits.append(i)
        grad = inp(F(3, 4), "grad")

        def sc(v, n):
            return inp(V(v, "float32"), n)
        raw = getattr(tf.raw_ops, op)
        if op == "ResourceApplyGradientDescent":
            o = raw(var=var, alpha=sc(0.1, "alpha"), delta=grad, **attrs)
        elif op == "ResourceApplyAdagrad":
            o = raw(var=var, accum=h["accum"], lr=sc(0.1, "lr"), grad=grad, **attrs)
        elif op == "ResourceApplyMomentum":
            o = raw(var=var, accum=h["accum"], lr=sc(0.1, "lr"), grad=grad,
                    momentum=sc(0.9, "momentum"), **attrs)
        elif op == "ResourceApplyAdam":
            o = raw(var=var, m=h["m"], v=h["v"], beta1_power=sc(0.9 ** 3, "b1p"),
                    beta2_power=sc(0.999 ** 3, "b2p"), lr=sc(0.01, "lr"), beta1=sc(0.9, "beta1"),
                    beta2=sc(0.999, "beta2"), epsilon=sc(1e-7, "eps"), grad=grad, **attrs)
        elif op == "ResourceApplyCenteredRMSProp":
            o = raw(var=var, mg=h["mg"], ms=h["ms"], mom=h["mom"], lr=sc(0.01, "lr"),
                    rho=sc(0.9, "rho"), momentum=sc(0.5, "momentum"), epsilon=sc(1e-7, "eps"),
                    grad=grad, **attrs)
        else:
            o = raw(var=var, ms=h["ms"], mom=h["mom"], lr=sc(0.01, "lr"), rho=sc(0.9, "rho"),
                    momentum=sc(0.5, "momentum"), epsilon=sc(1e-7, "eps"), grad=grad, **attrs)
        after = [_read(tf, var, name="var_after")]
        after += [_read(tf, h[s], name=s + "_after") for s in slots]
        return {"init": inits, "targets": [o], "after": after}
    return build


custom("VarHandleOp", "init_read", _rvar_read)
custom("ReadVariableOp", "init_read", _rvar_read)
custom("ReadVariableOp", "uninitialized", _rvar_uninitialized, error=True)
custom("AssignVariableOp", "f32", _rassign_case("AssignVariableOp"))
custom("AssignVariableOp", "i64", _rassign_case("AssignVariableOp", "int64"))
custom("AssignVariableOp", "new_shape", _rassign_new_shape)
custom("AssignVariableOp", "validate_shape", _rassign_validate_shape, error=True)
custom("AssignAddVariableOp", "f32", _rassign_case("AssignAddVariableOp"))
custom("AssignAddVariableOp", "i32", _rassign_case("AssignAddVariableOp", "int32"))
custom("AssignAddVariableOp", "uninitialized", _rassign_add_uninitialized, error=True)
custom("AssignSubVariableOp", "f32", _rassign_case("AssignSubVariableOp"))
custom("AssignSubVariableOp", "f64", _rassign_case("AssignSubVariableOp", "float64"))
custom("VarIsInitializedOp", "one_of_two", _rvar_is_initialized)
custom("DestroyResourceOp", "destroy", _rdestroy)
custom("DestroyResourceOp", "missing", _rdestroy_missing, error=True)
custom("ResourceGather", "f32", _rgather())
custom("ResourceGather", "i64_indices_i32", _rgather("int32", "int64"))
custom("ResourceGather", "batch_dims", _rgather(batch_dims=1))
custom("ResourceGather", "out_of_range", _rgather(bad=True), error=True)
for _op in ["ResourceScatterAdd", "ResourceScatterSub", "ResourceScatterMul", "ResourceScatterDiv",
            "ResourceScatterMax", "ResourceScatterMin", "ResourceScatterUpdate"]:
    custom(_op, "f32", _rscatter_case(_op))
    if _op != "ResourceScatterUpdate":
        custom(_op, "f32_dup_indices", _rscatter_case(_op, dup=True))
custom("ResourceScatterAdd", "i32", _rscatter_case("ResourceScatterAdd", "int32"))
for _op in ["ResourceApplyGradientDescent", "ResourceApplyAdagrad", "ResourceApplyMomentum",
            "ResourceApplyAdam", "ResourceApplyRMSProp", "ResourceApplyCenteredRMSProp"]:
    custom(_op, "f32", _rapply_case(_op))
custom("ResourceApplyMomentum", "nesterov", _rapply_case("ResourceApplyMomentum",
                                                         use_nesterov=True))
custom("ResourceApplyAdam", "nesterov", _rapply_case("ResourceApplyAdam", use_nesterov=True))
custom("ResourceApplyAdagrad", "no_update_slots",
       _rapply_case("ResourceApplyAdagrad", update_slots=False))


# Adadelta, proximal and FTRL updates (Ref and resource forms): slots, then scalars by name.
_MORE_APPLY = {
    "Adadelta": (["accum", "accum_update"], dict(lr=0.5, rho=0.9, epsilon=1e-6)),
    "ProximalAdagrad": (["accum"], dict(lr=0.3, l1=0.05, l2=0.2)),
    "ProximalGradientDescent": ([], dict(alpha=0.2, l1=0.05, l2=0.1)),
    "Ftrl": (["accum", "linear"], dict(lr=0.3, l1=0.01, l2=0.1, lr_power=-0.5)),
    "FtrlV2": (["accum", "linear"], dict(lr=0.3, l1=0.01, l2=0.1, l2_shrinkage=0.2,
                                         lr_power=-0.5)),
}


def _more_apply_case(kind, resource, **overrides):
    slots, scalars = _MORE_APPLY[kind]
    scalars = dict(scalars, **overrides)
    op = ("ResourceApply" if resource else "Apply") + kind

    def build(tf, inp):
        rng = _rng(op + repr(overrides))
        make = _rvar if resource else _var
        var, init0 = make(tf, rng.randn(3, 4).astype(np.float32), "var")
        inits, refs = [init0], {}
        for s in slots:
            lo = -0.5 if s == "linear" else 0.1
            refs[s], i = make(tf, rng.uniform(lo, 1.0, (3, 4)).astype(np.float32), s)
            inits.append(i)
        grad_name = "delta" if kind == "ProximalGradientDescent" else "grad"
        args = dict(refs)
        args["var"] = var
        args[grad_name] = inp(F(3, 4), "grad")
        for n, v in scalars.items():
            args[n] = inp(V(v, "float32"), n)
        o = getattr(tf.raw_ops, op)(**args)
        if resource:
            after = [_read(tf, var, name="var_after")]
            after += [_read(tf, refs[s], name=s + "_after") for s in slots]
            return {"init": inits, "targets": [o], "after": after}
        after = [tf.raw_ops.Identity(input=refs[s], name=s + "_after") for s in slots]
        return {"init": inits, "fetches": [o], "after": after}
    return build


for _kind in _MORE_APPLY:
    custom("Apply" + _kind, "f32", _more_apply_case(_kind, False))
    custom("ResourceApply" + _kind, "f32", _more_apply_case(_kind, True))
custom("ApplyFtrl", "lr_power", _more_apply_case("Ftrl", False, lr_power=-0.7, l1=0.5))
custom("ResourceApplyFtrl", "lr_power", _more_apply_case("Ftrl", True, lr_power=-0.7, l1=0.5))
custom("ApplyProximalAdagrad", "no_l1", _more_apply_case("ProximalAdagrad", False, l1=0.0))
custom("ApplyProximalGradientDescent", "no_l1",
       _more_apply_case("ProximalGradientDescent", False, l1=0.0))
def _sparse_apply_case(op, idx_dt="int32", idx=(2, 0, 2), **attrs):
    slots = {"SparseApplyAdagrad": ["accum"], "SparseApplyMomentum": ["accum"],
             "SparseApplyRMSProp": ["ms", "mom"],
             "SparseApplyCenteredRMSProp": ["mg", "ms", "mom"]}[op]

    def build(tf, inp):
        rng = _rng(op + idx_dt + repr(attrs))
        var, init0 = _var(tf, rng.randn(4, 3).astype(np.float32), "var")
        inits = [init0]
        refs = {}
        for s in slots:
            value = rng.uniform(0.1, 1.0, (4, 3)).astype(np.float32)
            if s == "mg":
                value *= np.float32(0.3)
            r, i = _var(tf, value, s)
            refs[s] = r
            inits.append(i)
        grad = inp(F(len(idx), 3), "grad")
        indices = inp(V(list(idx), idx_dt), "indices")

        def sc(v, n):
            return inp(V(v, "float32"), n)
        if op == "SparseApplyAdagrad":
            out = tf.raw_ops.SparseApplyAdagrad(var=var, accum=refs["accum"], lr=sc(0.1, "lr"),
                                                grad=grad, indices=indices, **attrs)
        elif op == "SparseApplyMomentum":
            out = tf.raw_ops.SparseApplyMomentum(var=var, accum=refs["accum"], lr=sc(0.1, "lr"),
                                                 grad=grad, indices=indices,
                                                 momentum=sc(0.9, "momentum"), **attrs)
        elif op == "SparseApplyRMSProp":
            out = tf.raw_ops.SparseApplyRMSProp(var=var, ms=refs["ms"], mom=refs["mom"],
                                                lr=sc(0.01, "lr"), rho=sc(0.9, "rho"),
                                                momentum=sc(0.5, "momentum"),
                                                epsilon=sc(1e-7, "eps"), grad=grad,
                                                indices=indices, **attrs)
        else:
            out = tf.raw_ops.SparseApplyCenteredRMSProp(
                var=var, mg=refs["mg"], ms=refs["ms"], mom=refs["mom"], lr=sc(0.01, "lr"),
                rho=sc(0.9, "rho"), momentum=sc(0.5, "momentum"), epsilon=sc(1e-7, "eps"),
                grad=grad, indices=indices, **attrs)
        after = [tf.raw_ops.Identity(input=refs[s], name=s + "_after") for s in slots]
        return {"init": inits, "fetches": [out], "after": after}
    return build


for _op in ["SparseApplyAdagrad", "SparseApplyMomentum", "SparseApplyRMSProp",
            "SparseApplyCenteredRMSProp"]:
    custom(_op, "f32", _sparse_apply_case(_op))
    custom(_op, "i64_indices", _sparse_apply_case(_op, "int64", (3, 1)))
    custom(_op, "index_out_of_range", _sparse_apply_case(_op, "int32", (0, 4)), error=True)
custom("SparseApplyMomentum", "nesterov", _sparse_apply_case("SparseApplyMomentum",
                                                             use_nesterov=True))
custom("SparseApplyAdagrad", "no_update_slots", _sparse_apply_case("SparseApplyAdagrad",
                                                                   update_slots=False))


def _rsparse_apply_case(op, idx_dt="int32", idx=(2, 0, 2), **attrs):
    """A ResourceSparseApply* op on resource variables: the rows `idx` move
    (a repeated index once per occurrence); the variable and its slots are
    read after the update."""
    slots = {"ResourceSparseApplyAdagrad": ["accum"], "ResourceSparseApplyMomentum": ["accum"],
             "ResourceSparseApplyRMSProp": ["ms", "mom"],
             "ResourceSparseApplyCenteredRMSProp": ["mg", "ms", "mom"]}[op]

    def build(tf, inp):
        rng = _rng(op + idx_dt + repr(attrs))
        var, init0 = _rvar(tf, rng.randn(4, 3).astype(np.float32), "var")
        inits, h = [init0], {}
        for s in slots:
            value = rng.uniform(0.1, 1.0, (4, 3)).astype(np.float32)
            if s == "mg":  # keeps ms - mg^2 positive
                value *= np.float32(0.3)
            h[s], i = _rvar(tf, value, s)
            inits.append(i)
        grad = inp(F(len(idx), 3), "grad")
        indices = inp(V(list(idx), idx_dt), "indices")

        def sc(v, n):
            return inp(V(v, "float32"), n)
        raw = getattr(tf.raw_ops, op)
        if op == "ResourceSparseApplyAdagrad":
            o = raw(var=var, accum=h["accum"], lr=sc(0.1, "lr"), grad=grad, indices=indices,
                    **attrs)
        elif op == "ResourceSparseApplyMomentum":
            o = raw(var=var, accum=h["accum"], lr=sc(0.1, "lr"), grad=grad, indices=indices,
                    momentum=sc(0.9, "momentum"), **attrs)
        elif op == "ResourceSparseApplyRMSProp":
            o = raw(var=var, ms=h["ms"], mom=h["mom"], lr=sc(0.01, "lr"), rho=sc(0.9, "rho"),
                    momentum=sc(0.5, "momentum"), epsilon=sc(1e-7, "eps"), grad=grad,
                    indices=indices, **attrs)
        else:
            o = raw(var=var, mg=h["mg"], ms=h["ms"], mom=h["mom"], lr=sc(0.01, "lr"),
                    rho=sc(0.9, "rho"), momentum=sc(0.5, "momentum"), epsilon=sc(1e-7, "eps"),
                    grad=grad, indices=indices, **attrs)
        after = [_read(tf, var, name="var_after")]
        after += [_read(tf, h[s], name=s + "_after") for s in slots]
        return {"init": inits, "targets": [o], "after": after}
    return build


for _op in ["ResourceSparseApplyAdagrad", "ResourceSparseApplyMomentum",
            "ResourceSparseApplyRMSProp", "ResourceSparseApplyCenteredRMSProp"]:
    custom(_op, "f32", _rsparse_apply_case(_op))
    custom(_op, "i64_indices", _rsparse_apply_case(_op, "int64", (3, 1)))
    custom(_op, "index_out_of_range", _rsparse_apply_case(_op, "int32", (0, 4)), error=True)
custom("ResourceSparseApplyMomentum", "nesterov",
       _rsparse_apply_case("ResourceSparseApplyMomentum", use_nesterov=True))
custom("ResourceSparseApplyAdagrad", "no_update_slots",
       _rsparse_apply_case("ResourceSparseApplyAdagrad", update_slots=False))

case("DynamicPartition", data=F(6, 2), partitions=V([2, 0, 2, 1, 0, 2], "int32"),
     num_partitions=3)
case("DynamicPartition", "i64_2d", data=I(2, 3, 2, dt="int64"),
     partitions=V([[1, 0, 1], [0, 0, 1]], "int32"), num_partitions=2)
case("DynamicPartition", "string", data=V([b"a", b"bc", b"", b"d"], "string"),
     partitions=V([1, 1, 0, 1], "int32"), num_partitions=2)
case("DynamicPartition", "bad_partition", data=F(3), partitions=V([0, 3, 1], "int32"),
     num_partitions=2, error=True)
case("DynamicStitch", indices=[V([0, 4, 2], "int32"), V([[1], [3]], "int32")],
     data=[F(3, 2), F(2, 1, 2)])
case("DynamicStitch", "repeated", indices=[V([0, 1], "int32"), V([1], "int32")],
     data=[I(2, 3), I(1, 3)])
case("DynamicStitch", "negative_index", indices=[V([0, -1], "int32")], data=[F(2)], error=True)
case("ParallelDynamicStitch", indices=[V([0, 4, 2], "int32"), V([[1], [3]], "int32")],
     data=[F(3, 2), F(2, 1, 2)])
case("SparseToDense", sparse_indices=V([[0, 1], [2, 3]], "int64"), output_shape=K([3, 4], "int64"),
     sparse_values=F(2), default_value=V(-1.0, "float32"))
case("SparseToDense", "scalar_value_i32", sparse_indices=V([1, 3], "int32"),
     output_shape=K([5], "int32"), sparse_values=V(5, "int32"), default_value=V(0, "int32"))
case("SparseToDense", "string", sparse_indices=V([[0], [2]], "int64"),
     output_shape=K([3], "int64"), sparse_values=V([b"x", b"y"], "string"),
     default_value=V(b"-", "string"))
case("SparseToDense", "no_validate", sparse_indices=V([[2, 0], [0, 1]], "int64"),
     output_shape=K([3, 2], "int64"), sparse_values=F(2), default_value=V(0.0, "float32"),
     validate_indices=False)
case("SparseToDense", "unordered", sparse_indices=V([[2, 0], [0, 1]], "int64"),
     output_shape=K([3, 2], "int64"), sparse_values=F(2), default_value=V(0.0, "float32"),
     error=True)
case("SparseToDense", "out_of_bounds", sparse_indices=V([[0, 0], [3, 1]], "int64"),
     output_shape=K([3, 2], "int64"), sparse_values=F(2), default_value=V(0.0, "float32"),
     error=True)
case("SparseTensorDenseMatMul", a_indices=V([[0, 1], [1, 0], [2, 2]], "int64"), a_values=F(3),
     a_shape=K([3, 3], "int64"), b=F(3, 4))
case("SparseTensorDenseMatMul", "adjoint_a_b_f64", a_indices=V([[0, 1], [1, 0], [2, 2]], "int64"),
     a_values=F(3, dt="float64"), a_shape=K([3, 3], "int64"), b=F(4, 3, dt="float64"),
     adjoint_a=True, adjoint_b=True)
case("SparseTensorDenseMatMul", "i32_indices", a_indices=V([[0, 0], [1, 2]], "int32"),
     a_values=I(2), a_shape=K([2, 3], "int64"), b=I(3, 2))
case("SparseTensorDenseMatMul", "out_of_bounds", a_indices=V([[0, 5]], "int64"), a_values=F(1),
     a_shape=V([2, 3], "int64"), b=F(3, 2), error=True)
_WORDS = [b"", b"abc", "h\u00e9llo".encode(), b"  pad ", b"MiXeD 42"]
# Byte encodings (web-safe base64, zlib/gzip), serialized tensors, file patterns.
_B64_IN = [b"hello", b"", b"\xff\xfe?>", b"ab", b"abcd"]
case("EncodeBase64", input=V(_B64_IN, "string"))
case("EncodeBase64", "pad", input=V(_B64_IN, "string"), pad=True)
case("DecodeBase64", input=V([b"aGVsbG8", b"aGVsbG8=", b"__4_Pg", b"", b"ab==", b"abc="],
                             "string"))
case("DecodeBase64", "len_1_mod_4", error=True, input=V([b"aGVsbG8", b"a"], "string"))
case("DecodeBase64", "bad_char", error=True, input=V([b"ab$c"], "string"))
case("DecodeBase64", "too_much_padding", error=True, input=V([b"aGVsbG8=="], "string"))
_GZIP_ABC = bytes.fromhex("1f8b08000000000002ff4b4c4a0600c241243503000000")  # gzip of b"abc"
case("DecodeCompressed", "zlib", bytes=V([zlib.compress(b"abc" * 50), zlib.compress(b"")],
                                         "string"), compression_type="ZLIB")
case("DecodeCompressed", "gzip", bytes=V([_GZIP_ABC], "string"), compression_type="GZIP")
case("DecodeCompressed", "none", bytes=V([b"raw", b""], "string"))
case("DecodeCompressed", "damaged", error=True, bytes=V([b"garbage"], "string"),
     compression_type="ZLIB")
case("SerializeTensor", tensor=V(3.0, "float32"))
case("SerializeTensor", "i64_matrix", tensor=V([[1, 2]], "int64"))
case("SerializeTensor", "strings", tensor=V([b"a", b"bc"], "string"))
case("SerializeTensor", "empty", tensor=V(np.zeros([0, 2], np.float32), "float32"))
case("SerializeTensor", "bool", tensor=V(True, "bool"))
# TensorProto bytes: dtype float, shape [2], float_val 1.5, 2.5 / tensor_content of int32
# [7, -1] / string_val "x", "yz"
_TP_FLOAT_VAL = bytes.fromhex("08011204120208022a080000c03f00002040")
_TP_INT_CONTENT = bytes.fromhex("0803120412020802220807000000ffffffff")
_TP_STRINGS = bytes.fromhex("08071204120208024201784202797a")
case("ParseTensor", serialized=V(_TP_FLOAT_VAL, "string"), out_type="float32")
case("ParseTensor", "int_content", serialized=V(_TP_INT_CONTENT, "string"), out_type="int32")
case("ParseTensor", "strings", serialized=V(_TP_STRINGS, "string"), out_type="string")
case("ParseTensor", "type_mismatch", error=True, serialized=V(_TP_FLOAT_VAL, "string"),
     out_type="int32")
case("ParseTensor", "garbage", error=True, serialized=V(b"\xff\xff", "string"),
     out_type="int32")
case("ParseTensor", "not_scalar", error=True, serialized=V([_TP_FLOAT_VAL], "string"),
     out_type="float32")
case("MatchingFiles", "no_match", pattern=TMP("nothing*.txt"))
case("GuaranteeConst", input=F(3, 2))
_SP_IND = V([[0, 1], [2, 0], [2, 3]], "int64")
_SP_SHAPE = V([3, 4], "int64")
case("SerializeSparse", sparse_indices=_SP_IND, sparse_values=V([1.5, 2.5, -1.0], "float32"),
     sparse_shape=_SP_SHAPE)
case("SerializeSparse", "strings", sparse_indices=_SP_IND,
     sparse_values=V([b"a", b"bc", b""], "string"), sparse_shape=_SP_SHAPE)
case("SerializeManySparse", sparse_indices=_SP_IND,
     sparse_values=V([1.5, 2.5, -1.0], "float32"), sparse_shape=_SP_SHAPE)
case("SerializeManySparse", "i64_rank3", sparse_indices=V([[1, 0, 2], [1, 1, 0]], "int64"),
     sparse_values=V([7, 8], "int64"), sparse_shape=V([2, 2, 3], "int64"))


def _deserialize_case(rows, dtype="float32"):
    """DeserializeManySparse of the SerializeSparse triples of `rows` (lists of (index,
    value) with their dense shape)."""
    def build(tf, inp):
        triples = []
        for indices, values, shape in rows:
            triples.append(tf.raw_ops.SerializeSparse(
                sparse_indices=tf.constant(indices, tf.int64, shape=[len(indices), len(shape)]),
                sparse_values=tf.constant(values, tf.float32),
                sparse_shape=tf.constant(shape, tf.int64)))
        out = tf.raw_ops.DeserializeManySparse(serialized_sparse=tf.stack(triples),
                                               dtype=getattr(tf, dtype))
        return {"fetches": list(out)}
    return build


custom("DeserializeManySparse", "f32", _deserialize_case(
    [([[0], [3]], [1.0, 2.0], [4]), ([[4]], [3.0], [5]), ([], [], [2])]))
custom("DeserializeManySparse", "rank_mismatch", _deserialize_case(
    [([[0]], [1.0], [2]), ([[4, 1]], [2.0], [5, 2])]), error=True)
custom("DeserializeManySparse", "dtype_mismatch", _deserialize_case(
    [([[0]], [1.0], [2])], dtype="int32"), error=True)
case("StringLength", input=V(_WORDS, "string"))
case("StringLength", "utf8", input=V(_WORDS, "string"), unit="UTF8_CHAR")
case("Substr", input=V([b"abcdef", b"xyz"], "string"), pos=V(1, "int32"), len=V(2, "int32"))
case("Substr", "per_element_i64", input=V([b"abcdef", b"xyz"], "string"),
     pos=V([-2, 0], "int64"), len=V([5, 2], "int64"))
case("Substr", "utf8", input=V(["h\u00e9llo".encode()], "string"), pos=V(1, "int32"),
     len=V(3, "int32"), unit="UTF8_CHAR")
case("Substr", "pos_out_of_range", input=V([b"abc"], "string"), pos=V(5, "int32"),
     len=V(1, "int32"), error=True)
case("StringStrip", input=V([b"  a b ", b"\tx\n", b""], "string"))
case("StringUpper", input=V(_WORDS, "string"))
case("StringLower", input=V(_WORDS, "string"))
case("StringToNumber", string_tensor=V([b"1.5", b" -2e3", b"inf"], "string"))
case("StringToNumber", "i64", string_tensor=V([b"9000000000", b"-3"], "string"),
     out_type="int64")
case("StringToNumber", "bad", string_tensor=V([b"1", b"x2"], "string"), error=True)
case("AsString", "i32", input=I(5, lo=-500, hi=500))
case("AsString", "f32_precision", input=F(4), precision=3)
case("AsString", "f64_scientific_width", input=F(3, dt="float64"), scientific=True, width=14)
case("AsString", "bool", input=V([True, False], "bool"))
case("AsString", "zero_fill", input=I(3, lo=0, hi=99), width=4, fill="0")
case("ReduceJoin", inputs=V([[b"a", b"b", b"c"], [b"d", b"e", b"f"]], "string"),
     reduction_indices=K([1, 0], "int32"), separator="|")
case("ReduceJoin", "keep_dims", inputs=V([[b"a", b"b"], [b"c", b"d"]], "string"),
     reduction_indices=K([0], "int32"), keep_dims=True)
case("RegexFullMatch", input=V([b"bob@example", b"nobody"], "string"),
     pattern=V(b"[a-z]+@[a-z]+", "string"))
case("RegexReplace", input=V([b"aaxaay", b"b"], "string"), pattern=V(b"a+", "string"),
     rewrite=V(b"<\\0>", "string"))
case("RegexReplace", "first", input=V([b"aaxaay"], "string"), pattern=V(b"a+", "string"),
     rewrite=V(b"X", "string"), replace_global=False)
case("StaticRegexReplace", input=V([b"bob@example", b"al@x"], "string"),
     pattern="([a-z]+)@([a-z]+)", rewrite="\\2 at \\1")
case("StringToHashBucketStrong", input=V(_WORDS, "string"), num_buckets=1000, key=[1, 2])
_SPD = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]
_GEN = [[2.0, -1.0, 0.5], [1.0, 3.0, -2.0], [0.5, 1.5, 4.0]]
case("Cholesky", input=V(_SPD, "float32"))
case("Cholesky", "f64_batch", input=V([_SPD, np.eye(3).tolist()], "float64"))
case("MatrixInverse", input=V(_GEN, "float32"))
case("MatrixInverse", "f64_adjoint", input=V([_GEN, _SPD], "float64"), adjoint=True)
case("MatrixInverse", "singular", input=V([[1.0, 2.0], [2.0, 4.0]], "float64"), error=True)
case("MatrixDeterminant", input=V([_GEN, _SPD], "float32"))
case("MatrixDeterminant", "f64_singular", input=V([[1.0, 2.0], [2.0, 4.0]], "float64"))
case("LogMatrixDeterminant", input=V([_GEN, _SPD], "float64"))
case("MatrixSolve", matrix=V(_GEN, "float32"), rhs=F(3, 2))
case("MatrixSolve", "f64_adjoint_batch", matrix=V([_GEN, _SPD], "float64"),
     rhs=F(2, 3, 4, dt="float64"), adjoint=True)
case("MatrixSolve", "singular", matrix=V([[1.0, 2.0], [2.0, 4.0]], "float64"),
     rhs=F(2, 1, dt="float64"), error=True)
case("MatrixTriangularSolve", matrix=V(_GEN, "float32"), rhs=F(3, 2))
case("MatrixTriangularSolve", "upper_adjoint_f64", matrix=V([_GEN, _SPD], "float64"),
     rhs=F(2, 3, 2, dt="float64"), lower=False, adjoint=True)


def _values_only(op, spec, **attrs):
    def build(tf, inp):
        outs = getattr(tf.raw_ops, op)(input=inp(spec, "input"), **attrs)
        return {"fetches": [outs[0]]}  # the other outputs are empty placeholders
    return build


custom("SelfAdjointEigV2", "values_only",
       _values_only("SelfAdjointEigV2", V([_SPD, _SPD], "float64"), compute_v=False))
custom("Svd", "values_only", _values_only("Svd", V(_GEN, "float32"), compute_uv=False))
custom("Svd", "values_only_f64_wide", _values_only("Svd", F(2, 3, 5, dt="float64"),
                                                   compute_uv=False))


def _sign_free_factor(op, **attrs):
    def build(tf, inp):
        x = inp(F(4, 3, dt="float64"), "input")
        outs = getattr(tf.raw_ops, op)(input=x, **attrs)
        if op == "Qr":
            q, r = outs
            return {"fetches": [tf.linalg.matmul(q, r), tf.linalg.matmul(r, r, transpose_a=True),
                                tf.linalg.matmul(q, q, transpose_a=True)]}
        e, v = outs
        return {"fetches": [e, tf.linalg.matmul(v * tf.expand_dims(e, -2), v, transpose_b=True)]}
    return build


custom("Qr", "reconstruct", _sign_free_factor("Qr"))
custom("Qr", "reconstruct_full", _sign_free_factor("Qr", full_matrices=True))
custom("SelfAdjointEigV2", "reconstruct",
       lambda tf, inp: _sign_free_factor("SelfAdjointEigV2")(
           tf, lambda spec, name: tf.constant(_SPD, tf.float64)))


def _svd_reconstruct(tf, inp):
    x = inp(F(4, 3, dt="float64"), "input")
    s, u, v = tf.raw_ops.Svd(input=x, compute_uv=True, full_matrices=False)
    return {"fetches": [s, tf.linalg.matmul(u * tf.expand_dims(s, -2), v, transpose_b=True)]}


custom("Svd", "reconstruct", _svd_reconstruct)
case("SparseReorder", input_indices=V([[2, 1], [0, 3], [0, 1]], "int64"), input_values=F(3),
     input_shape=K([3, 4], "int64"))
case("SparseReorder", "string_3d", input_indices=V([[1, 0, 0], [0, 1, 1], [0, 0, 2]], "int64"),
     input_values=V([b"a", b"b", b"c"], "string"), input_shape=K([2, 2, 3], "int64"))
case("SparseSoftmax", sp_indices=V([[0, 0, 1], [0, 0, 3], [0, 2, 0], [1, 1, 1], [1, 1, 2]],
                                   "int64"),
     sp_values=F(5), sp_shape=K([2, 3, 4], "int64"))
case("SparseSoftmax", "f64_2d", sp_indices=V([[0, 1], [0, 2], [2, 0]], "int64"),
     sp_values=F(3, dt="float64"), sp_shape=K([3, 3], "int64"))
case("SparseSoftmax", "empty", sp_indices=V(np.zeros([0, 2], np.int64)),
     sp_values=V(np.zeros([0], np.float32)), sp_shape=K([3, 3], "int64"))
case("SparseSoftmax", "rank1", sp_indices=V([[0], [2]], "int64"), sp_values=F(2),
     sp_shape=K([3], "int64"), error=True)
for _op in ("SparseSparseMaximum", "SparseSparseMinimum"):
    case(_op, a_indices=V([[0, 1], [1, 0], [1, 3], [3, 2]], "int64"), a_values=F(4),
         a_shape=K([4, 4], "int64"), b_indices=V([[0, 1], [2, 2], [3, 2]], "int64"),
         b_values=F(3), b_shape=K([4, 4], "int64"))
    case(_op, "i64", a_indices=V([[0, 1], [2, 0]], "int64"), a_values=V([7, -3], "int64"),
         a_shape=K([4, 4], "int64"), b_indices=V([[0, 1], [3, 3]], "int64"),
         b_values=V([2, 5], "int64"), b_shape=K([4, 4], "int64"))
    case(_op, "one_empty", a_indices=V(np.zeros([0, 2], np.int64)),
         a_values=V(np.zeros([0], np.float32)), a_shape=K([2, 2], "int64"),
         b_indices=V([[1, 1]], "int64"), b_values=V([-2.0], "float32"),
         b_shape=K([2, 2], "int64"))
    case(_op, "shape_mismatch", a_indices=V([[0, 1]], "int64"), a_values=F(1),
         a_shape=K([4, 4], "int64"), b_indices=V([[0, 1]], "int64"), b_values=F(1),
         b_shape=K([4, 5], "int64"), error=True)
_RED_IND = V([[1, 0, 2], [0, 1, 1], [0, 1, 3], [1, 2, 0], [0, 0, 0]], "int64")
for _op in ("SparseReduceMax", "SparseReduceMaxSparse", "SparseReduceSumSparse"):
    case(_op, input_indices=_RED_IND, input_values=F(5), input_shape=K([2, 3, 4], "int64"),
         reduction_axes=K([1], "int32"))
    case(_op, "keep_neg_axes", input_indices=_RED_IND, input_values=F(5),
         input_shape=K([2, 3, 4], "int64"), reduction_axes=K([-1, 0], "int32"), keep_dims=True)
    case(_op, "all_i64", input_indices=_RED_IND, input_values=V([5, -3, 9, 2, -7], "int64"),
         input_shape=K([2, 3, 4], "int64"), reduction_axes=K([0, 1, 2], "int32"))
    case(_op, "bad_axis", input_indices=_RED_IND, input_values=F(5),
         input_shape=K([2, 3, 4], "int64"), reduction_axes=K([3], "int32"), error=True)
case("ListDiff", x=V([4, 1, 9, 1, 7, 3], "int32"), y=V([1, 3, 8], "int32"))
case("ListDiff", "f32_i64", x=V([2.5, -0.0, 2.5, 1.0], "float32"), y=V([0.0, 7.0], "float32"),
     out_idx="int64")
case("ListDiff", "string", x=V([b"a", b"bc", b"", b"a"], "string"), y=V([b"a"], "string"))
case("ListDiff", "empty_y", x=V([3, 3, 1], "int64"), y=V(np.zeros([0], np.int64)))


# ---- edge values, dtypes and shapes
_NANS = [np.nan, 1.0, -np.inf, -0.0, 0.0, np.inf, -2.0]
for _op in ["Abs", "Neg", "Sign", "Floor", "Ceil", "Round", "Exp", "Expm1", "Log", "Log1p",
            "Sqrt", "Rsqrt", "Reciprocal", "Sigmoid", "Tanh", "Relu", "Relu6", "Elu", "Selu",
            "Softplus", "Softsign", "Square", "Sin", "Cos"]:
    _arg = "features" if _op in ("Softplus", "Softsign", "Relu", "Relu6", "Elu", "Selu") else "x"
    case(_op, "special", **{_arg: V(_NANS, "float32")})
case("Softplus", "extremes", features=V([-100.0, -20.0, -15.0, 15.0, 20.0, 100.0, 1e-4], "float32"))
case("Sigmoid", "extremes", x=V([-100.0, -20.0, -15.0, 15.0, 20.0, 100.0, 1e-4], "float32"))
case("Exp", "overflow", x=V([88.0, 89.0, -104.0, -110.0], "float32"))
case("Abs", "i32_min", x=V([-2147483648, 5], "int32"))
case("Neg", "i64", x=I(4, lo=-100, hi=100, dt="int64"))
case("Abs", "f16", x=F(5, dt="float16"))
case("Sqrt", "f16", x=F(5, lo=0, hi=4, dt="float16"))
case("Tanh", "f16", x=F(5, dt="float16"))
case("Exp", "f16", x=F(5, dt="float16"))
case("Relu", "f16", features=F(5, dt="float16"))
case("Sign", "i64", x=I(5, lo=-3, hi=3, dt="int64"))
case("Square", "i64", x=I(5, lo=-3000, hi=3000, dt="int64"))
case("Identity", "empty", input=F(0, 3))
case("Abs", "scalar", x=V(-3.5, "float32"))
for _op in ["Add", "Sub", "Mul", "Maximum", "Minimum", "RealDiv", "Div"]:
    case(_op, "special", x=V(_NANS, "float32"), y=V([1.0, np.nan, 0.0, 0.0, -0.0, np.inf, np.inf],
                                                    "float32"))
for _op in ["Add", "Mul", "Sub", "Maximum", "Minimum"]:
    case(_op, "u8", x=I(6, lo=0, hi=255, dt="uint8"), y=I(6, lo=0, hi=255, dt="uint8"))
    case(_op, "i8", x=I(6, lo=-128, hi=127, dt="int8"), y=I(6, lo=-128, hi=127, dt="int8"))
    case(_op, "i16", x=I(6, lo=-30000, hi=30000, dt="int16"), y=I(6, lo=-30000, hi=30000, dt="int16"))
    case(_op, "f16", x=F(2, 3, dt="float16"), y=F(3, dt="float16"))
    case(_op, "empty", x=F(0, 3), y=F(3))
case("Add", "i32_overflow", x=V([2147483647, -2147483648], "int32"), y=V([1, -1], "int32"))
case("Mul", "i64_big", x=V([3037000499, -4], "int64"), y=V([3037000499, 2 ** 61], "int64"))
case("Maximum", "i64", x=I(5, dt="int64"), y=I(5, dt="int64"))
case("Pow", "special", x=V([-2.0, -2.0, 0.0, 0.0, np.nan, 1.0, 2.0, -0.0], "float32"),
     y=V([0.5, 3.0, -1.0, 0.0, 0.0, np.nan, np.inf, -3.0], "float32"))
case("Pow", "i64", x=V([3, -2, 10], "int64"), y=V([20, 5, 18], "int64"))
case("FloorMod", "special", x=V([np.nan, 1.0, np.inf, 5.0, -0.0, 1e-30, -1e-30], "float32"),
     y=V([1.0, np.inf, 2.0, 0.0, 3.0, -5.0, 5.0], "float32"))
case("FloorDiv", "special", x=V([np.nan, 1.0, np.inf, 5.0, -0.0, -5.0, 5.0], "float32"),
     y=V([1.0, np.inf, 2.0, 0.0, 3.0, 0.0, -0.0], "float32"))
case("FloorDiv", "i32_min", x=V([-2147483648, -7, 7], "int32"), y=V([-1, 7, -7], "int32"))
case("FloorMod", "i32_big", x=V([2147483647, -2147483648, -1], "int32"), y=V([-2, 3, 2147483647], "int32"))
case("FloorMod", "f64", x=F(6, lo=-10, hi=10, dt="float64"), y=V([3.0, -3.0, 0.5, -0.25, 7.0, 1.0], "float64"))
case("TruncateMod", "i64", x=V([-7, 7, -9], "int64"), y=V([3, -3, 4], "int64"))
case("TruncateDiv", "u8", x=V([250, 7, 0], "uint8"), y=V([3, 2, 9], "uint8"))
case("Div", "u8", x=V([250, 7, 0], "uint8"), y=V([3, 2, 9], "uint8"))
case("FloorDiv", "u8", x=V([250, 7, 0], "uint8"), y=V([3, 2, 9], "uint8"))
case("RealDiv", "f64", x=F(5, dt="float64"), y=F(5, lo=0.5, hi=2, dt="float64"))
case("SquaredDifference", "special", x=V(_NANS, "float32"), y=V([1.0] * 7, "float32"))
case("DivNoNan", "special", x=V([np.nan, np.inf, 1.0, 0.0], "float32"),
     y=V([0.0, 0.0, np.nan, np.inf], "float32"))
for _op in ["Equal", "NotEqual", "Less", "Greater", "LessEqual", "GreaterEqual"]:
    case(_op, "nan", x=V([np.nan, 1.0, np.nan, -0.0, np.inf], "float32"),
         y=V([np.nan, np.nan, 1.0, 0.0, np.inf], "float32"))
    case(_op, "i64_u8", x=I(6, lo=0, hi=3, dt="uint8"), y=I(6, lo=0, hi=3, dt="uint8"))
case("Equal", "i64", x=I(6, lo=0, hi=2, dt="int64"), y=I(6, lo=0, hi=2, dt="int64"))
case("Less", "f64", x=F(6, dt="float64"), y=F(1, dt="float64"))
for _op in ["Sum", "Mean", "Max", "Min", "Prod"]:
    case(_op, "empty_input", input=F(0, 3), axis=K(0, "int32"))
    case(_op, "nan", input=V([[1.0, np.nan, 3.0], [np.inf, -1.0, 2.0]], "float32"),
         axis=K(1, "int32"))
    case(_op, "f16", input=F(4, 6, lo=0.5, hi=1.5, dt="float16"), axis=K(1, "int32"))
    case(_op, "i64", input=I(3, 4, lo=-3, hi=3, dt="int64"), axis=K(0, "int32"))
    case(_op, "scalar_no_axes", input=V(2.5, "float32"), axis=K([], "int32"))
    case(_op, "u8_keep", input=I(2, 3, lo=0, hi=200, dt="uint8"), axis=K([1], "int32"),
         keep_dims=True)
case("Sum", "middle_axis", input=F(3, 70, 5), axis=K(1, "int32"))
case("Mean", "i64_trunc", input=V([[-7, 2], [5, 1]], "int64"), axis=K(0, "int32"))
case("Max", "i32_empty_rows", input=I(0, 4), axis=K(0, "int32"))
for _op in ["ArgMax", "ArgMin"]:
    case(_op, "nan", input=V([[1.0, np.nan, 3.0], [np.nan, -1.0, 2.0], [2.0, 5.0, np.nan]],
                             "float32"), dimension=K(1, "int32"))
    case(_op, "u8", input=I(3, 5, lo=0, hi=4, dt="uint8"), dimension=K(0, "int32"))
    case(_op, "f16", input=F(3, 5, dt="float16"), dimension=K(1, "int32"))
    case(_op, "rank3_mid", input=F(2, 5, 3), dimension=K(1, "int64"))
case("Cast", "nan_inf_to_i32", x=V([np.nan, np.inf, -np.inf, 3e9, -3e9, 2.9, -2.9], "float32"),
     DstT="int32")
case("Cast", "f32_to_f16_edge", x=V([65504.0, 65520.0, 1e-8, 6e-5, -0.0, np.nan, 70000.0,
                                      0.000030517578125 * 1.5], "float32"), DstT="float16")
case("Cast", "f32_to_bf16_round", x=V([1.00390625, 1.01171875, 3.4e38, np.nan, -0.0, 1e-40],
                                      "float32"), DstT="bfloat16")
case("Cast", "i64_to_f32_round", x=V([16777217, 2 ** 40 + 1, -(2 ** 62) - 1], "int64"),
     DstT="float32")
case("Cast", "f64_to_f16", x=V([1.0009765625, 0.1, 65519.99, -3.0], "float64"), DstT="float16")
case("Cast", "i32_to_u8_wrap", x=V([300, -1, 255, 256], "int32"), DstT="uint8")
case("Cast", "i32_to_i8_wrap", x=V([300, -129, 127, 128], "int32"), DstT="int8")
case("Cast", "bool_to_i64", x=B(4), DstT="int64")
case("Cast", "f16_to_i32", x=V([1.5, -2.5, 100.25], "float16"), DstT="int32")
case("Cast", "u16_to_f32", x=V([0, 65535, 1000], "uint16"), DstT="float32")
case("Cast", "f64_to_i64", x=V([1e15 + 0.5, -2.7, 9.1e18], "float64"), DstT="int64")
case("Softmax", "inf", logits=V([[0.0, -np.inf, 1.0], [-np.inf, -np.inf, 2.0]], "float32"))
case("Softmax", "f64", logits=F(2, 5, dt="float64"))
case("Softmax", "rank3", logits=F(2, 2, 5))
case("LogSoftmax", "large", logits=F(2, 5, lo=80, hi=100))
case("LogSoftmax", "inf", logits=V([[0.0, -np.inf, 1.0]], "float32"))
case("LeakyRelu", "f64_neg_alpha", features=F(6, dt="float64"), alpha=-0.5)
case("Relu6", "i32", features=I(6, lo=-10, hi=10))
case("ClipByValue", "nan", t=V([np.nan, 1.0, -5.0, 5.0], "float32"), clip_value_min=V(-1.0, "float32"),
     clip_value_max=V(1.0, "float32"))
case("Select", "nan_string", condition=V([True, False]), x=V([b"a", b"b"], "string"),
     y=V([b"c", b"d"], "string"))
case("Tile", "empty_mult", input=F(2, 3), multiples=K([0, 2], "int32"))
case("Tile", "string", input=V([[b"a"], [b"bc"]], "string"), multiples=K([2, 3], "int32"))
case("Transpose", "rank5", x=F(2, 1, 3, 2, 2), perm=K([4, 2, 0, 3, 1], "int32"))
case("Transpose", "string", x=V([[b"a", b"b"], [b"c", b"d"]], "string"), perm=K([1, 0], "int32"))
case("Transpose", "u8_large", x=I(33, 65, lo=0, hi=255, dt="uint8"), perm=K([1, 0], "int32"))
case("Pad", "string", input=V([b"a", b"b"], "string"), paddings=K([[1, 1]], "int32"))
case("Pad", "rank4_f16", input=F(1, 2, 2, 1, dt="float16"), paddings=K([[0, 0], [1, 1], [2, 0], [0, 1]], "int32"))
case("MirrorPad", "reflect_rank3_f64", input=F(2, 3, 3, dt="float64"),
     paddings=K([[1, 1], [0, 2], [2, 2]], "int32"), mode="REFLECT")
case("ConcatV2", "empty_piece", values=[F(2, 0), F(2, 3), F(2, 1)], axis=K(1, "int32"))
case("ConcatV2", "bool_axis0", values=[B(1, 3), B(2, 3)], axis=K(0, "int32"))
case("Gather", "string", params=V([b"x", b"yy", b"zzz"], "string"), indices=V([2, 2, 0], "int32"))
case("GatherV2", "neg_axis_i64", params=I(3, 4, dt="int64"), indices=V([3, 1], "int64"),
     axis=K(-1, "int32"))
case("GatherV2", "scalar_index", params=F(4, 3), indices=V(2, "int32"), axis=K(0, "int32"))
case("GatherV2", "empty_indices", params=F(4, 3), indices=V(np.zeros([0, 2], np.int32)),
     axis=K(0, "int32"))
case("StridedSlice", "neg_stride_masks", input=F(6, 4), begin=K([-2, 0], "int32"),
     end=K([0, 0], "int32"), strides=K([-1, 3], "int32"), end_mask=1)
case("StridedSlice", "out_of_range", input=F(5), begin=K([-100], "int32"), end=K([100], "int32"),
     strides=K([2], "int32"))
case("StridedSlice", "shrink_all", input=F(3, 4), begin=K([2, -1], "int32"), end=K([3, 0], "int32"),
     strides=K([1, 1], "int32"), shrink_axis_mask=3)
case("StridedSlice", "string", input=V([b"a", b"b", b"c", b"d"], "string"), begin=K([3], "int32"),
     end=K([0], "int32"), strides=K([-2], "int32"))
case("Reverse", "string_rank1", tensor=V([b"a", b"b", b"c"], "string"), dims=K([True], "bool"))
case("ReverseV2", "u8_all", tensor=I(3, 4, 2, lo=0, hi=255, dt="uint8"), axis=K([0, 1, 2], "int32"))
case("Unique", "string", x=V([b"b", b"a", b"b", b""], "string"))
case("Unique", "empty", x=V(np.zeros([0], np.int64)))
case("Where", "empty", condition=V(np.zeros([0, 3], bool)))
case("Where", "rank3_i32", condition=I(2, 3, 2, lo=0, hi=1))
case("Where", "scalar", condition=V(True), error=True)
case("UnsortedSegmentSum", data=F(6, 3), segment_ids=V([2, 0, -1, 2, 3, 0], "int32"),
     num_segments=K(5, "int32"))
case("UnsortedSegmentSum", "i64_2d_ids", data=I(2, 3, 4, dt="int64"),
     segment_ids=V([[1, 0, 1], [-1, 2, 0]], "int64"), num_segments=K(3, "int64"))
case("UnsortedSegmentSum", "f64_fed_count", data=F(4, dt="float64"),
     segment_ids=V([0, 0, 1, 1], "int32"), num_segments=V(2, "int32"))
case("UnsortedSegmentSum", "f16", data=F(5, 2, dt="float16"), segment_ids=V([0, 1, 0, 1, 0], "int32"),
     num_segments=K(2, "int32"))
case("UnsortedSegmentSum", "id_out_of_range", data=F(3), segment_ids=V([0, 3, 1], "int32"),
     num_segments=V(3, "int32"), error=True)
for _op in ["UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd"]:
    case(_op, data=F(6, 3), segment_ids=V([2, 0, -1, 2, 3, 0], "int32"), num_segments=K(5, "int32"))
    case(_op, "i64_2d_ids", data=I(2, 3, 4, lo=-9, hi=9, dt="int64"),
         segment_ids=V([[1, 0, 1], [-1, 2, 0]], "int64"), num_segments=K(4, "int64"))
    case(_op, "i32_empty_segments", data=I(5, lo=-9, hi=9), segment_ids=V([3, 0, 3, 3, 0], "int32"),
         num_segments=K(5, "int32"))
    case(_op, "f64_fed_count", data=F(4, dt="float64"), segment_ids=V([0, 0, 1, 1], "int32"),
         num_segments=V(3, "int32"))
    case(_op, "f16", data=F(5, 2, dt="float16"), segment_ids=V([0, 1, 0, 1, 0], "int32"),
         num_segments=K(3, "int32"))
    case(_op, "u8", data=I(6, lo=0, hi=9, dt="uint8"), segment_ids=V([0, 1, 0, 1, 0, 2], "int32"),
         num_segments=K(4, "int32"))
    case(_op, "id_out_of_range", data=F(3), segment_ids=V([0, 3, 1], "int32"),
         num_segments=V(3, "int32"), error=True)
for _op in ["Cumsum", "Cumprod", "CumulativeLogsumexp"]:
    case(_op, x=F(3, 4, lo=0.5, hi=1.5), axis=K(1, "int32"))
    case(_op, "exclusive", x=F(3, 4, lo=0.5, hi=1.5), axis=K(0, "int32"), exclusive=True)
    case(_op, "reverse_f64", x=F(2, 3, 4, lo=0.5, hi=1.5, dt="float64"), axis=K(-1, "int64"),
         reverse=True)
    case(_op, "exclusive_reverse", x=F(5, 2, lo=0.5, hi=1.5), axis=K(0, "int32"),
         exclusive=True, reverse=True)
    case(_op, "f16", x=F(6, lo=0.5, hi=1.5, dt="float16"), axis=K(0, "int32"))
    case(_op, "empty", x=F(0, 3), axis=K(1, "int32"))
    case(_op, "bad_axis", x=F(3, 4), axis=K(2, "int32"), error=True)
for _op in ["Cumsum", "Cumprod"]:
    case(_op, "i32", x=I(4, 3, lo=-3, hi=3), axis=K(0, "int32"))
    case(_op, "u8", x=I(5, lo=0, hi=3, dt="uint8"), axis=K(0, "int32"), reverse=True)
    case(_op, "i64_exclusive", x=I(2, 5, lo=-3, hi=3, dt="int64"), axis=K(1, "int32"),
         exclusive=True)
case("CumulativeLogsumexp", "wide", x=V([-1000.0, 0.0, 1000.0, -np.inf, 5.0], "float64"),
     axis=K(0, "int32"))
case("Roll", input=F(3, 4), shift=K(1, "int32"), axis=K(1, "int32"))
case("Roll", "multi_axis", input=F(3, 4, 5), shift=K([1, -2, 7], "int64"), axis=K([0, 2, 1], "int64"))
case("Roll", "same_axis_twice", input=I(6), shift=K([2, 3], "int32"), axis=K([0, 0], "int32"))
case("Roll", "string", input=V([[b"a", b"b", b"c"], [b"d", b"e", b"f"]], "string"),
     shift=K(-1, "int32"), axis=K(1, "int32"))
case("Roll", "negative_axis_f64", input=F(2, 3, dt="float64"), shift=K(4, "int32"),
     axis=K(-1, "int32"))
case("Roll", "bad_axis", input=F(2, 3), shift=K(1, "int32"), axis=K(2, "int32"), error=True)
case("GatherNd", params=F(3, 4), indices=V([[0, 1], [2, 3], [1, 0]], "int32"))
case("GatherNd", "slices_i64", params=I(4, 3, 2, dt="int64"), indices=V([[[3], [0]], [[1], [1]]], "int64"))
case("GatherNd", "depth0", params=F(2, 3), indices=V(np.zeros([2, 0], np.int32), "int32"))
case("GatherNd", "string", params=V([[b"a", b"b"], [b"c", b"d"]], "string"),
     indices=V([[1, 0], [0, 1]], "int32"))
case("GatherNd", "f16", params=F(3, 2, dt="float16"), indices=V([[2], [0]], "int32"))
case("GatherNd", "out_of_range", params=F(3, 4), indices=V([[0, 1], [3, 0]], "int32"), error=True)
case("ScatterNd", indices=V([[1], [3], [1]], "int32"), updates=F(3), shape=K([5], "int32"))
case("ScatterNd", "slices_f64", indices=V([[0], [2]], "int64"), updates=F(2, 3, dt="float64"),
     shape=K([4, 3], "int64"))
case("ScatterNd", "i32_2d", indices=V([[0, 1], [2, 2], [0, 1]], "int32"), updates=I(3),
     shape=K([3, 3], "int32"))
case("ScatterNd", "out_of_range", indices=V([[5]], "int32"), updates=F(1), shape=K([4], "int32"),
     error=True)
for _op in ["TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMin",
            "TensorScatterMax"]:
    case(_op, tensor=F(4, 3), indices=V([[0, 1], [3, 2], [2, 0]], "int32"), updates=F(3))
    case(_op, "slices_i64", tensor=I(4, 2, dt="int64"), indices=V([[1], [3]], "int64"),
         updates=I(2, 2, dt="int64"))
    case(_op, "f64", tensor=F(5, dt="float64"), indices=V([[4], [0]], "int32"),
         updates=F(2, dt="float64"))
    case(_op, "out_of_range", tensor=F(4), indices=V([[4]], "int32"), updates=F(1), error=True)
for _op in ["TensorScatterAdd", "TensorScatterSub", "TensorScatterMin", "TensorScatterMax"]:
    case(_op, "duplicates", tensor=F(4), indices=V([[1], [1], [2]], "int32"), updates=F(3))
case("TensorScatterUpdate", "string", tensor=V([b"a", b"b", b"c"], "string"),
     indices=V([[2], [0]], "int32"), updates=V([b"x", b"y"], "string"))
case("TopKV2", input=F(3, 7), k=K(3, "int32"))
case("TopKV2", "ties_i32", input=V([[3, 1, 3, 2, 3], [0, 0, 0, 0, 0]], "int32"), k=K(4, "int32"))
case("TopKV2", "f64_rank3_all", input=F(2, 2, 5, dt="float64"), k=K(5, "int32"))
case("TopKV2", "k0_i64_index", input=F(4, 3), k=K(0, "int64"), index_type="int64")
case("TopKV2", "f16", input=F(2, 6, dt="float16"), k=K(2, "int32"))
case("TopKV2", "u8", input=I(3, 4, lo=0, hi=255, dt="uint8"), k=K(2, "int32"))
case("TopKV2", "k_too_large", input=F(2, 3), k=V(4, "int32"), error=True)
for _op in ["LowerBound", "UpperBound"]:
    case(_op, sorted_inputs=V([[1.0, 2.0, 2.0, 5.0], [-3.0, 0.0, 0.0, 0.0]], "float32"),
         values=V([[2.0, 0.0, 6.0], [0.0, -4.0, 1.0]], "float32"))
    case(_op, "i64_out", sorted_inputs=V([[1, 3, 3, 7]], "int32"), values=V([[3, 8, 0, 7, 4]], "int32"),
         out_type="int64")
case("EnsureShape", input=F(2, 3), shape=[None, 3])
case("EnsureShape", "unknown_dims_i32", input=I(4, 2), shape=[None, None])
case("BroadcastArgs", s0=V([2, 1, 3], "int32"), s1=V([4, 1], "int32"))
case("BroadcastArgs", "i64_empty", s0=V(np.zeros([0], np.int64), "int64"), s1=V([5, 1], "int64"))
case("BroadcastArgs", "incompatible", s0=V([2, 3], "int32"), s1=V([4], "int32"), error=True)
case("Bitcast", "f32_to_i32", input=F(2, 3), type="int32")
case("Bitcast", "f64_to_u8", input=F(3, dt="float64"), type="uint8")
case("Bitcast", "u16_to_f32", input=I(2, 2, lo=0, hi=65535, dt="uint16"), type="float32")
case("Bitcast", "i8_to_u8", input=I(5, lo=-128, hi=127, dt="int8"), type="uint8")
case("UnravelIndex", indices=V([5, 7, 0], "int32"), dims=V([2, 4], "int32"))
case("UnravelIndex", "scalar_i64", indices=V(22, "int64"), dims=V([3, 4, 2], "int64"))
case("UnravelIndex", "out_of_bounds", indices=V([8], "int32"), dims=V([2, 4], "int32"), error=True)
case("HistogramFixedWidth", values=F(40, lo=-1, hi=6), value_range=V([0.0, 5.0], "float32"),
     nbins=V(7, "int32"))
case("HistogramFixedWidth", "f64_i64", values=F(30, lo=0, hi=1, dt="float64"),
     value_range=V([0.0, 1.0], "float64"), nbins=V(10, "int32"), dtype="int64")
case("HistogramFixedWidth", "i32_edges", values=V([0, 1, 2, 3, 4, 5, -3, 9], "int32"),
     value_range=V([0, 5], "int32"), nbins=V(5, "int32"))
case("HistogramFixedWidth", "bad_nbins", values=F(4), value_range=V([0.0, 1.0], "float32"),
     nbins=V(0, "int32"), error=True)
case("LRN", input=F(2, 3, 3, 8))
case("LRN", "attrs", input=F(1, 2, 2, 12), depth_radius=2, bias=2.0, alpha=0.001, beta=0.75)
case("LRN", "radius0_f16", input=F(1, 1, 2, 4, dt="float16"), depth_radius=0)
case("LRNGrad", input_grads=F(2, 2, 2, 7), input_image=F(2, 2, 2, 7),
     output_image=F(2, 2, 2, 7), depth_radius=2, alpha=0.5, beta=0.75, bias=1.5)
case("LRNGrad", "defaults", input_grads=F(1, 2, 1, 13), input_image=F(1, 2, 1, 13),
     output_image=F(1, 2, 1, 13))
_RGB_EDGE = [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.5, 0.5, 0.5], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0],
             [0.0, 0.0, 1.0], [1.0, 1.0, 0.0], [0.2, 0.9, 0.9], [0.3, 0.1, 0.3]]
case("RGBToHSV", images=F(2, 4, 3, lo=0, hi=1))
case("RGBToHSV", "edges_f64", images=V(_RGB_EDGE, "float64"))
case("HSVToRGB", images=F(2, 4, 3, lo=0, hi=1))
case("HSVToRGB", "f64", images=F(5, 3, lo=0, hi=1, dt="float64"))
case("AdjustHue", images=F(2, 3, 3, lo=0, hi=1), delta=V(0.3, "float32"))
case("AdjustHue", "negative", images=V([_RGB_EDGE], "float32"), delta=V(-0.45, "float32"))
case("AdjustSaturation", images=F(2, 3, 3, lo=0, hi=1), scale=V(0.4, "float32"))
case("AdjustSaturation", "boost", images=V([_RGB_EDGE], "float32"), scale=V(3.0, "float32"))
case("OneHot", "f64_depth0", indices=V([0, 1], "int64"), depth=K(0, "int32"),
     on_value=V(1.0, "float64"), off_value=V(0.0, "float64"))
case("OneHot", "u8_indices_bool", indices=V([1, 0, 3], "uint8"), depth=K(3, "int32"),
     on_value=V(True), off_value=V(False))
case("Range", "empty", start=K(5, "int32"), limit=K(5, "int32"), delta=K(1, "int32"))
case("Range", "f64_frac", start=K(0.1, "float64"), limit=K(1.0, "float64"), delta=K(0.3, "float64"))
case("Fill", "empty", dims=K([0, 3], "int32"), value=V(2.0, "float32"))
case("Reshape", "empty", tensor=F(0, 4), shape=K([2, -1, 2], "int32"))
case("Split", "one", axis=K(0, "int32"), value=F(3, 2), num_split=1)
case("SplitV", "zero_size", value=F(4, 2), size_splits=K([0, 4, 0], "int32"), axis=K(0, "int32"),
     num_split=3)
case("Squeeze", "scalar_result", input=F(1, 1))
case("ExpandDims", "scalar", input=V(3.0, "float32"), axis=K(0, "int32"))
case("Pack", "scalars_string", values=[V(b"a", "string"), V(b"b", "string")])
case("Unpack", "string", value=V([[b"a", b"b"], [b"c", b"d"]], "string"), num=2, axis=1)
case("BroadcastTo", "same_shape", input=F(2, 3), shape=K([2, 3], "int32"))
case("BroadcastTo", "string", input=V([b"a", b"b"], "string"), shape=K([3, 2], "int32"))
case("Slice", "empty", input=F(3, 4), begin=K([1, 1], "int32"), size=K([0, 2], "int32"))
case("Slice", "string", input=V([b"a", b"b", b"c"], "string"), begin=K([1], "int32"), size=K([-1], "int32"))
case("InvertPermutation", "empty", x=V(np.zeros([0], np.int32)))
case("AddN", "f64_many", inputs=[F(3, dt="float64") for _ in range(6)])
case("AddN", "f16", inputs=[F(3, dt="float16"), F(3, dt="float16")])
case("BiasAdd", "f64_rank2", value=F(3, 4, dt="float64"), bias=F(4, dt="float64"))
case("BiasAdd", "i32", value=I(2, 3), bias=I(3))
case("BiasAddGrad", "rank2_f64", out_backprop=F(5, 3, dt="float64"))
case("L2Loss", "empty", t=F(0))
case("SoftmaxCrossEntropyWithLogits", "f64_broadcast_labels", features=F(3, 4, dt="float64"),
     labels=F(1, 4, lo=0, hi=1, dt="float64"))
case("SparseSoftmaxCrossEntropyWithLogits", "f64", features=F(2, 4, dt="float64"),
     labels=V([3, 0], "int64"))
case("ResizeBilinear", "downscale", images=F(1, 9, 7, 2), size=K([4, 3], "int32"))
case("ResizeBilinear", "i32_halfpixel_down", images=I(2, 6, 6, 1, lo=-100, hi=100),
     size=K([4, 5], "int32"), half_pixel_centers=True)
case("ResizeBilinear", "f64_align", images=F(1, 3, 4, 1, dt="float64"), size=K([5, 7], "int32"),
     align_corners=True)
case("ResizeBicubic", "downscale", images=F(1, 9, 7, 2), size=K([4, 3], "int32"))
case("ResizeBicubic", "u8_half_pixel", images=I(1, 5, 5, 1, lo=0, hi=255, dt="uint8"),
     size=K([8, 3], "int32"), half_pixel_centers=True)
case("ResizeNearestNeighbor", "downscale", images=F(1, 9, 7, 2), size=K([4, 3], "int32"))
case("ResizeNearestNeighbor", "align_half_i64", images=I(1, 4, 5, 1, dt="int64"),
     size=K([7, 2], "int32"), half_pixel_centers=True, align_corners=False)
case("AdjustContrastv2", "single_pixel", images=F(1, 1, 3, lo=0, hi=1), contrast_factor=V(0.3, "float32"))
case("MaxPool", "valid_s1", input=F(1, 4, 4, 1), padding="VALID", ksize=[1, 2, 2, 1],
     strides=[1, 1, 1, 1])
case("AvgPool", "same_even", value=F(1, 4, 4, 3), padding="SAME", ksize=[1, 2, 2, 1],
     strides=[1, 1, 1, 1])
case("RandomUniform", "large", shape=K([1000], "int32"), dtype="float32", seed=1234, seed2=0)
case("RandomStandardNormal", "large_odd", shape=K([1001], "int32"), dtype="float32", seed=5, seed2=77)
case("TruncatedNormal", "large", shape=K([999], "int32"), dtype="float32", seed=9, seed2=3)
case("RandomUniformInt", "i32_wide", shape=K([100], "int32"), minval=K(-2147483648, "int32"),
     maxval=K(2147483647, "int32"), seed=4, seed2=4)
case("RandomUniform", "f16", shape=K([10], "int32"), dtype="float16", seed=3, seed2=5)
case("RandomStandardNormal", "f16", shape=K([10], "int32"), dtype="float16", seed=3, seed2=5)
case("RandomShuffle", "rank3_string", value=V([[b"a"], [b"b"], [b"c"], [b"d"]], "string"), seed=2,
     seed2=3)
case("RandomShuffle", "large", value=V(np.arange(3000, dtype=np.int64)), seed=11, seed2=12)
case("Multinomial", "many_classes", logits=F(2, 50), num_samples=K(20, "int32"), seed=1, seed2=2)
case("Multinomial", "neg_inf_logits", logits=V([[0.0, -np.inf, 1.0], [-np.inf, 0.0, -np.inf]],
                                               "float32"), num_samples=K(8, "int32"), seed=3, seed2=3)
case("Multinomial", "zero_samples", logits=F(2, 3), num_samples=K(0, "int32"), seed=1, seed2=2)


# ---- steps TF fails: tfc must fail them with the same error class
case("Gather", "index_out_of_range", error=True, params=F(3, 2), indices=V([0, 3], "int32"))
case("GatherV2", "index_out_of_range", error=True, params=F(3, 2), indices=V([-1], "int32"),
     axis=K(0, "int32"))
case("CheckNumerics", "nan", error=True, tensor=V([1.0, np.nan], "float32"), message="found")
case("CheckNumerics", "inf", error=True, tensor=V([np.inf, 1.0], "float32"), message="found")
case("Assert", "false_cond", error=True, condition=V(False), data=[V([1, 2], "int32")])
case("DecodeJpeg", "truncated", error=True, contents=FILE("images/truncated.jpg"))
case("DecodePng", "not_png", error=True, contents=FILE("images/rgb24.bmp"))
case("DecodeBmp", "not_bmp", error=True, contents=FILE("images/rgb.png"))
case("DecodeImage", "unknown_format", error=True, contents=V(b"definitely not an image", "string"))
for _op in ["FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Div"]:
    case(_op, "i32_by_zero", error=True, x=V([1, 2], "int32"), y=V([1, 0], "int32"))
case("InvertPermutation", "not_a_permutation", error=True, x=V([0, 0, 1], "int32"))
case("OneHot", "negative_depth", error=True, indices=V([0], "int32"), depth=V(-1, "int32"),
     on_value=V(1.0, "float32"), off_value=V(0.0, "float32"))
case("Range", "zero_delta", error=True, start=V(0, "int32"), limit=V(5, "int32"),
     delta=V(0, "int32"))
case("Range", "wrong_direction", error=True, start=V(0.0, "float32"), limit=V(5.0, "float32"),
     delta=V(-1.0, "float32"))
case("RandomUniformInt", "empty_range", error=True, shape=K([3], "int32"), minval=V(4, "int32"),
     maxval=V(4, "int32"), seed=1, seed2=1)
case("Multinomial", "negative_samples", error=True, logits=F(2, 3), num_samples=V(-1, "int32"),
     seed=1, seed2=1)
case("ReadFile", "missing", error=True, filename=PATH("ops/no-such-file.bin"))
case("Fill", "negative_dims", error=True, dims=V([2, -3], "int32"), value=V(1.0, "float32"))
case("Reshape", "size_mismatch", error=True, tensor=F(2, 3), shape=V([4, 2], "int32"))
case("Reshape", "two_unknown", error=True, tensor=F(2, 3), shape=V([-1, -1], "int32"))
case("Slice", "out_of_bounds", error=True, input=F(3, 4), begin=V([2, 0], "int32"),
     size=V([2, 4], "int32"))
case("Transpose", "bad_perm", error=True, x=F(2, 3), perm=V([0, 0], "int32"))
case("SparseSoftmaxCrossEntropyWithLogits", "label_out_of_range", error=True, features=F(2, 3),
     labels=V([1, 3], "int32"))
case("Tile", "negative_multiples", error=True, input=F(2), multiples=V([-1], "int32"))
case("Pad", "negative_padding", error=True, input=F(2, 2), paddings=V([[0, -1], [0, 0]], "int32"))
case("MirrorPad", "too_much_padding", error=True, input=F(2, 3), paddings=V([[2, 0], [0, 0]], "int32"),
     mode="REFLECT")
case("ResizeBilinear", "zero_size", error=True, images=F(1, 2, 2, 1), size=V([0, 3], "int32"))
case("EncodeJpeg", "two_channels", error=True, image=I(4, 4, 2, lo=0, hi=255, dt="uint8"))
case("Conv2D", "nchw_on_cpu", error=True, input=F(1, 2, 5, 5), filter=F(3, 3, 2, 2),
     strides=[1, 1, 1, 1], padding="SAME", data_format="NCHW")
case("MaxPool", "nchw_on_cpu", error=True, input=F(1, 2, 4, 4), ksize=[1, 1, 2, 2],
     strides=[1, 1, 2, 2], padding="VALID", data_format="NCHW")
case("BroadcastTo", "incompatible", error=True, input=F(3), shape=V([2, 4], "int32"))
case("StridedSlice", "zero_stride", error=True, input=F(4), begin=V([0], "int32"),
     end=V([2], "int32"), strides=V([0], "int32"))
case("Unpack", "f32_axis_mid", value=F(2, 3, 2), num=3, axis=1)


def _count_up_to_limit(tf, inp):
    v, init = _var(tf, np.array(10, np.int32), "v")
    return {"init": [init], "fetches": [tf.raw_ops.CountUpTo(ref=v, limit=10)]}


def _uninitialized(tf, inp):
    v = tf.raw_ops.VariableV2(shape=[2], dtype=tf.float32, name="v")
    return {"fetches": [tf.raw_ops.Identity(input=v)]}


def _scatter_out_of_range(tf, inp):
    v, init = _var(tf, np.zeros([3, 2], np.float32), "v")
    out = tf.raw_ops.ScatterUpdate(ref=v, indices=inp(V([0, 3], "int32"), "indices"),
                                   updates=inp(F(2, 2), "updates"))
    return {"init": [init], "fetches": [out]}


def _assign_shape_mismatch(tf, inp):
    v, init = _var(tf, np.zeros([3], np.float32), "v")
    val = tf.raw_ops.Placeholder(dtype=tf.float32, shape=None, name="value")
    out = tf.raw_ops.Assign(ref=v, value=val)
    return {"init": [init], "fetches": [out], "extra_feeds": {val: np.ones([4], np.float32)}}


custom("CountUpTo", "at_limit", _count_up_to_limit, error=True)
custom("VariableV2", "uninitialized_read", _uninitialized, error=True)
custom("ScatterUpdate", "index_out_of_range", _scatter_out_of_range, error=True)
custom("Assign", "shape_mismatch", _assign_shape_mismatch, error=True)

_TIES = np.array([[1, 1, 2, 2, 0], [1, 0, 2, 1, 0], [3, 3, 3, 3, 3], [0, 0, 0, 0, 0],
                  [5, 1, 5, 1, 5]], np.float32).reshape(1, 5, 5, 1)


def _maxpool_grad_ties(tf, inp):
    x = inp(V(_TIES), "x")
    g = inp(F(1, 4, 4, 1), "g")
    y = tf.raw_ops.MaxPool(input=x, ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding="VALID")
    out = tf.raw_ops.MaxPoolGrad(orig_input=x, orig_output=y, grad=g, ksize=[1, 2, 2, 1],
                                 strides=[1, 1, 1, 1], padding="VALID")
    return {"fetches": [out]}


custom("MaxPoolGrad", "ties_overlapping", _maxpool_grad_ties)
case("MaxPool", "ties_nan", input=V(np.where(_TIES == 3, np.nan, _TIES)), ksize=[1, 2, 2, 1],
     strides=[1, 1, 1, 1], padding="VALID")
case("Conv2D", "larger_s2_same", input=F(2, 17, 15, 8), filter=F(5, 5, 8, 16), strides=[1, 2, 2, 1],
     padding="SAME")
case("Conv2D", "1x1", input=F(3, 4, 4, 32), filter=F(1, 1, 32, 8), strides=[1, 1, 1, 1],
     padding="VALID")
case("Conv2D", "f64", input=F(1, 5, 5, 2, dt="float64"), filter=F(3, 3, 2, 2, dt="float64"),
     strides=[1, 1, 1, 1], padding="SAME")
case("Conv2D", "f16", input=F(1, 5, 5, 2, dt="float16"), filter=F(3, 3, 2, 2, dt="float16"),
     strides=[1, 1, 1, 1], padding="SAME")
case("Conv2DBackpropInput", "valid_s2_odd", input_sizes=K([1, 8, 7, 3], "int32"),
     filter=F(3, 3, 3, 2), out_backprop=F(1, 3, 3, 2), strides=[1, 2, 2, 1], padding="VALID")
case("Conv2DBackpropInput", "dilated", error=True, input_sizes=K([1, 7, 7, 2], "int32"),
     filter=F(2, 2, 2, 3), out_backprop=F(1, 7, 7, 3), strides=[1, 1, 1, 1], padding="SAME",
     dilations=[1, 2, 2, 1])
case("Conv2DBackpropFilter", "s2_odd", input=F(1, 8, 7, 3), filter_sizes=K([3, 3, 3, 2], "int32"),
     out_backprop=F(1, 4, 4, 2), strides=[1, 2, 2, 1], padding="SAME")
case("DepthwiseConv2dNative", "multiplier3_s2_same", input=F(1, 8, 7, 2), filter=F(3, 3, 2, 3),
     strides=[1, 2, 2, 1], padding="SAME")
case("DepthwiseConv2dNativeBackpropInput", "valid_s2", input_sizes=K([1, 7, 7, 2], "int32"),
     filter=F(3, 3, 2, 2), out_backprop=F(1, 3, 3, 4), strides=[1, 2, 2, 1], padding="VALID")
case("DepthwiseConv2dNativeBackpropFilter", "valid_s2", input=F(1, 7, 7, 2),
     filter_sizes=K([3, 3, 2, 2], "int32"), out_backprop=F(1, 3, 3, 4), strides=[1, 2, 2, 1],
     padding="VALID")
case("AvgPool", "large_window", value=F(1, 6, 6, 2), ksize=[1, 4, 4, 1], strides=[1, 3, 3, 1],
     padding="SAME")
case("AvgPool", "f64", value=F(1, 4, 4, 1, dt="float64"), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
     padding="VALID")
case("MaxPool", "f16", input=F(1, 4, 4, 1, dt="float16"), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
     padding="VALID")
case("MaxPool", "i32", input=I(1, 4, 4, 2), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
     padding="VALID")
case("MatMul", "f16", a=F(3, 4, dt="float16"), b=F(4, 2, dt="float16"))
case("MatMul", "i64", a=I(2, 3, dt="int64"), b=I(3, 2, dt="int64"))
case("MatMul", "empty_inner", a=F(3, 0), b=F(0, 2))
case("MatMul", "transpose_a_large", a=F(70, 33), b=F(70, 41), transpose_a=True)
case("BatchMatMulV2", "i32", x=I(2, 2, 3), y=I(3, 2))
case("BatchMatMulV2", "f64_adj_x", x=F(2, 4, 3, dt="float64"), y=F(2, 4, 2, dt="float64"), adj_x=True)
case("DecodeJpeg", "ratio2", contents=FILE("images/rgb444.jpg"), ratio=2)
case("DecodeJpeg", "ifast", contents=FILE("images/rgb420.jpg"), dct_method="INTEGER_FAST")
case("DecodeJpeg", "truncated_recover", contents=FILE("images/truncated.jpg"),
     try_recover_truncated=True, acceptable_fraction=0.1)
case("DecodePng", "palette_rgba", contents=FILE("images/palette_trns.png"), channels=4)
case("DecodePng", "gray16_as_u16", contents=FILE("images/gray16.png"), dtype="uint16", channels=3)
case("DecodeBmp", "rgba32_as_rgb", contents=FILE("images/rgba32_topdown.bmp"), channels=3)
case("DecodeImage", "jpeg_u16", contents=FILE("images/gray.jpg"), dtype="uint16")
case("EncodePng", "rgba_fast", image=I(3, 4, 4, lo=0, hi=255, dt="uint8"), compression=1)
case("EncodeJpeg", "options", image=I(9, 11, 3, lo=0, hi=255, dt="uint8"), quality=80,
     progressive=True, optimize_size=True, chroma_downsampling=False, density_unit="cm",
     x_density=72, y_density=96, xmp_metadata="tfc")
case("EncodeJpeg", "format_grayscale", image=I(6, 6, 1, lo=0, hi=255, dt="uint8"),
     format="grayscale")


# ---- big tensors: past the kernels' one-thread thresholds (16K elements
# for elementwise ops, 32K for reductions), so the sharded paths run too
case("Add", "big_broadcast", x=FB(150, 120), y=FB(120))
case("Tanh", "big", x=FB(20000, lo=-5, hi=5))
case("Exp", "big", x=FB(20000, lo=-5, hi=5))
case("Softplus", "big", features=FB(20000, lo=-8, hi=8))
case("ReluGrad", "big", gradients=FB(20000), features=FB(20000))
case("Cast", "big_f32_to_i32", x=FB(20000, lo=-100, hi=100), DstT="int32")
case("Select", "big", condition=B(150, 120), x=FB(150, 120), y=FB(150, 120))
case("AddN", "big", inputs=[FB(20000), FB(20000)])
for _ax in (0, 1):
    case("Sum", "big_axis%d" % _ax, input=FB(220, 150), axis=K(_ax, "int32"))
    case("Max", "big_axis%d" % _ax, input=FB(220, 150), axis=K(_ax, "int32"))
    case("ArgMax", "big_axis%d" % _ax, input=FB(220, 150), dimension=K(_ax, "int32"))
case("Mean", "big_all", input=FB(220, 150), axis=K([0, 1], "int32"))
case("Prod", "big_mid", input=FB(15, 200, 11, lo=0.9, hi=1.1), axis=K(1, "int32"))
case("Softmax", "big", logits=FB(200, 100, lo=-5, hi=5))
case("Transpose", "big", x=FB(40, 25, 20), perm=K([2, 0, 1], "int32"))
case("Gather", "big", params=FB(500, 40), indices=I(500, lo=0, hi=499))
case("SoftmaxCrossEntropyWithLogits", "big", features=FB(200, 100, lo=-5, hi=5),
     labels=FB(200, 100, lo=0, hi=1))
case("FusedBatchNormV3", "big_training", x=FB(2, 32, 32, 17), scale=F(17, lo=0.5, hi=1.5),
     offset=F(17), mean=K([], "float32"), variance=K([], "float32"), epsilon=0.001)
case("BiasAddGrad", "big", out_backprop=FB(4, 40, 40, 8))
case("ResizeBilinear", "big", images=FB(1, 50, 60, 3), size=K([91, 83], "int32"))


# ---- complex numbers and FFTs (fft): complex64/complex128 inputs, the
# Complex/Real/Imag/Angle/ComplexAbs/Conj ops, the FFT family with TF's
# cropping and padding to fft_length
class CSpec(Spec):
    """A fed complex tensor: real and imaginary parts uniform in [lo, hi)."""

    def make(self, rng):
        if self.value is not None:
            return np.array(self.value, dtype=self.dtype)
        re = rng.uniform(self.lo, self.hi, size=self.shape)
        im = rng.uniform(self.lo, self.hi, size=self.shape)
        return (re + 1j * im).astype(self.dtype)


def CX(*shape, lo=-2.0, hi=2.0, dt="complex64"):
    """A fed complex tensor (see CSpec)."""
    return CSpec(shape=shape, lo=lo, hi=hi, dtype=dt)


for _dt, _rdt in (("complex64", "float32"), ("complex128", "float64")):
    _s = "c64" if _dt == "complex64" else "c128"
    case("Complex", _s, real=F(2, 3, dt=_rdt), imag=F(3, dt=_rdt), Tout=_dt)
    for _op in ("Real", "Imag", "Angle", "ComplexAbs"):
        case(_op, _s, Tout=_rdt, **{"x" if _op == "ComplexAbs" else "input": CX(2, 5, dt=_dt)})
    case("Conj", _s, input=CX(7, dt=_dt))
    for _op in ("Add", "AddV2", "Sub", "Mul", "Div", "RealDiv", "DivNoNan", "Pow",
                "SquaredDifference", "Equal", "NotEqual"):
        case(_op, _s, x=CX(2, 3, dt=_dt), y=CX(3, dt=_dt))
    for _op in ("Neg", "Square", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p", "Tanh",
                "Sigmoid", "Sign", "Reciprocal", "Sin", "Cos", "OnesLike", "ZerosLike"):
        case(_op, _s, x=CX(6, dt=_dt))
    for _op in ("SigmoidGrad", "TanhGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad"):
        case(_op, _s, y=CX(5, lo=0.5, hi=1.5, dt=_dt), dy=CX(5, dt=_dt))
    case("AddN", _s, inputs=[CX(4, dt=_dt), CX(4, dt=_dt), CX(4, dt=_dt)])
    for _op in ("Sum", "Mean", "Prod"):
        case(_op, _s + "_axis1", input=CX(3, 4, 5, lo=-1, hi=1, dt=_dt), axis=K(1, "int32"))
        case(_op, _s + "_all", input=CX(3, 4, lo=-1, hi=1, dt=_dt), axis=K([0, 1], "int32"))
    case("MatMul", _s, a=CX(3, 4, dt=_dt), b=CX(4, 5, dt=_dt))
    case("MatMul", _s + "_ta_tb", a=CX(4, 3, dt=_dt), b=CX(5, 4, dt=_dt), transpose_a=True,
         transpose_b=True)
    case("MatMul", _s + "_big", a=CX(40, 30, dt=_dt), b=CX(30, 20, dt=_dt))
    case("BatchMatMulV2", _s + "_adj", x=CX(2, 4, 3, dt=_dt), y=CX(1, 5, 4, dt=_dt), adj_x=True,
         adj_y=True)
    case("BatchMatMul", _s + "_adj_x", x=CX(2, 4, 3, dt=_dt), y=CX(2, 4, 5, dt=_dt), adj_x=True)
    case("Select", _s, condition=B(4), x=CX(4, dt=_dt), y=CX(4, dt=_dt))
    case("Cast", _s + "_to_f32", x=CX(5, dt=_dt), DstT="float32")
    case("Cast", _s + "_to_i32", x=CX(5, lo=-50, hi=50, dt=_dt), DstT="int32")
    case("Cast", _s + "_to_bool", x=V([0, 1j, 2.5, -1 + 1j], _dt), DstT="bool")
    case("Cast", "f64_to_" + _s, x=F(5, dt="float64"), DstT=_dt)
    case("Cast", "i64_to_" + _s, x=I(5, lo=-1000, hi=1000, dt="int64"), DstT=_dt)
    case("Cast", _s + "_swap", x=CX(5, dt=_dt),
         DstT="complex128" if _dt == "complex64" else "complex64")
    for _op, _shape in (("FFT", (3, 8)), ("IFFT", (2, 7)), ("FFT2D", (2, 6, 5)),
                        ("IFFT2D", (4, 3)), ("FFT3D", (2, 3, 4, 5)), ("IFFT3D", (3, 4, 2))):
        case(_op, _s, input=CX(*_shape, dt=_dt))
    case("FFT", _s + "_prime_97", input=CX(2, 97, dt=_dt))
    case("IFFT", _s + "_1000", input=CX(1000, dt=_dt))
    for _op, _shape, _len in (("RFFT", (3, 8), [8]), ("RFFT", (3, 8), [5]),
                              ("RFFT2D", (2, 6, 5), [4, 5]),
                              ("RFFT3D", (2, 3, 4, 5), [3, 4, 4])):
        case(_op, "%s_%s" % (_s, "x".join(map(str, _len))), input=F(*_shape, dt=_rdt),
             fft_length=K(_len, "int32"), Tcomplex=_dt)
    for _op, _shape, _len in (("IRFFT", (3, 5), [8]), ("IRFFT", (3, 5), [9]),
                              ("IRFFT", (3, 5), [4]), ("IRFFT2D", (2, 6, 4), [6, 6]),
                              ("IRFFT2D", (2, 6, 4), [4, 7]),
                              ("IRFFT3D", (2, 3, 4, 3), [3, 4, 4])):
        case(_op, "%s_%s" % (_s, "x".join(map(str, _len))), input=CX(*_shape, dt=_dt),
             fft_length=K(_len, "int32"), Treal=_rdt)
    case("RFFT", _s + "_fed_length", input=F(2, 10, dt=_rdt), fft_length=V([6], "int32"),
         Tcomplex=_dt)
case("RFFT", "input_shorter", input=F(3, 8), fft_length=K([13], "int32"), error=True)
case("IRFFT", "input_shorter", input=CX(3, 5), fft_length=K([12], "int32"), error=True)
case("RFFT", "negative_length", input=F(3, 8), fft_length=V([-2], "int32"), error=True)
case("RFFT", "empty_input", input=F(3, 0), fft_length=K([4], "int32"))
DIFFERS["RFFT/empty_input"] = {
    "skip_outputs": [0],
    "reason": "TF allocates the output of an empty input without writing it (uninitialised "
              "values); tfc gives the transform of the zero padding, zeros"}
case("FFT", "big", input=CX(64, 300))
for _dt in ("complex64", "complex128"):
    case("ConjugateTranspose", _dt, x=CX(2, 3, 4, dt=_dt), perm=K([2, 0, 1], "int32"))
    case("Cumsum", _dt, x=CX(3, 5, dt=_dt), axis=K(1, "int32"), exclusive=True)
    case("Cumprod", _dt, x=CX(3, 5, lo=-1, hi=1, dt=_dt), axis=K(0, "int32"), reverse=True)
case("ConjugateTranspose", "f32", x=F(3, 4), perm=K([1, 0], "int32"))
case("ConjugateTranspose", "size1_dims", x=CX(1, 5, 1), perm=K([2, 1, 0], "int32"))



# ---- SequenceExample parsing (seqex): context and feature lists through
# ParseSingleSequenceExample, ParseSequenceExample and ParseSequenceExampleV2

def _pb_sequence_example(context, lists, split=False):
    """A serialized SequenceExample: context (key, serialized Feature) entries
    and lists (key, [serialized Feature per step]) entries, in order;
    split=True puts each feature list in a FeatureLists of its own."""
    ctx = _pb_example(context) if context else b""
    entries = [_pb_len(1, _pb_len(1, k.encode()) + _pb_len(2, b"".join(_pb_len(1, f) for f in steps)))
               for k, steps in lists]
    if split:
        return ctx + b"".join(_pb_len(2, e) for e in entries)
    return ctx + (_pb_len(2, b"".join(entries)) if entries else b"")


_SEQ = [
    _pb_sequence_example(
        [("length", _pb_feature([3], "int64")), ("ctx_f", _pb_feature([1.5, -2.0], "float")),
         ("title", _pb_feature([b"ab", b"c"], "bytes"))],
        [("frames", [_pb_feature([1.0, 2.0], "float"), _pb_feature([3.0, 4.0], "float"),
                     _pb_feature([5.0, 6.0], "float")]),
         ("words", [_pb_feature([b"x"], "bytes"), b"", _pb_feature([b"y", b"zz"], "bytes")]),
         ("ids", [_pb_feature([4], "int64"), _pb_feature([5], "int64"), _pb_feature([6], "int64")])]),
    # lists split over two FeatureLists, a repeated key (the last wins), unpacked values
    _pb_sequence_example(
        [("length", _pb_feature([1], "int64", packed=False))],
        [("frames", [_pb_feature([9.0, 9.0], "float")]),
         ("ids", [_pb_feature([1], "int64")]),
         ("frames", [_pb_feature([7.0, 8.0], "float", packed=False)]),
         ("words", [_pb_feature([b"only"], "bytes")])], split=True) + _pb_len(9, b"junk"),
    # no context, no optional lists
    _pb_sequence_example([("length", _pb_feature([0], "int64"))],
                         [("ids", [])]),
]
_SEQ_NAMES = [b"s0", b"s1", b"s2"]


def _seq_v1(examples, names=True, missing=("frames", "words_dense"), ctx_required=False):
    def build(tf, inp):
        ser = inp(V(examples, "string"), "serialized")
        dbg = inp(V(_SEQ_NAMES[:len(examples)], "string"), "names") if names else \
            tf.constant([], tf.string)
        out = tf.raw_ops.ParseSequenceExample(
            serialized=ser, debug_name=dbg,
            context_dense_defaults=[tf.constant([], tf.int64),
                                    tf.constant([], tf.string) if ctx_required else
                                    tf.constant([b"t0", b"t1"])],
            feature_list_dense_missing_assumed_empty=list(missing),
            context_sparse_keys=["ctx_f"], context_dense_keys=["length", "title"],
            feature_list_sparse_keys=["words"], feature_list_dense_keys=["frames", "ids"],
            Ncontext_sparse=1, Ncontext_dense=2, Nfeature_list_sparse=1, Nfeature_list_dense=2,
            context_sparse_types=[tf.float32], feature_list_sparse_types=[tf.string],
            feature_list_dense_types=[tf.float32, tf.int64],
            context_dense_shapes=[[], [2]], feature_list_dense_shapes=[[2], []])
        return {"fetches": list(out.context_sparse_indices) + list(out.context_sparse_values) +
                list(out.context_sparse_shapes) + list(out.context_dense_values) +
                list(out.feature_list_sparse_indices) + list(out.feature_list_sparse_values) +
                list(out.feature_list_sparse_shapes) + list(out.feature_list_dense_values) +
                list(out.feature_list_dense_lengths)}
    return build


def _seq_v2(examples, scalar=False, missing=(True, False), ctx_type="int64", frames_shape=(2,)):
    def build(tf, inp):
        ser = inp(V(examples[0] if scalar else examples, "string"), "serialized")
        out = tf.raw_ops.ParseSequenceExampleV2(
            serialized=ser, debug_name=tf.constant([], tf.string),
            context_sparse_keys=tf.constant(["ctx_f"]), context_dense_keys=tf.constant(["length"]),
            context_ragged_keys=tf.constant([], tf.string),
            feature_list_sparse_keys=tf.constant(["words"]),
            feature_list_dense_keys=tf.constant(["frames", "ids"]),
            feature_list_ragged_keys=tf.constant([], tf.string),
            feature_list_dense_missing_assumed_empty=tf.constant(list(missing)),
            context_dense_defaults=[tf.constant([], ctx_type)],
            Ncontext_sparse=1, context_sparse_types=[tf.float32], context_dense_shapes=[[]],
            Nfeature_list_sparse=1, Nfeature_list_dense=2,
            feature_list_sparse_types=[tf.string], feature_list_dense_types=[tf.float32, tf.int64],
            feature_list_dense_shapes=[list(frames_shape), []])
        return {"fetches": list(out.context_sparse_indices) + list(out.context_sparse_values) +
                list(out.context_sparse_shapes) + list(out.context_dense_values) +
                list(out.feature_list_sparse_indices) + list(out.feature_list_sparse_values) +
                list(out.feature_list_sparse_shapes) + list(out.feature_list_dense_values) +
                list(out.feature_list_dense_lengths)}
    return build


def _seq_single(example, missing=("frames", "words_dense"), ids_type="int64", ctx_shape=(2,)):
    def build(tf, inp):
        ser = inp(V(example, "string"), "serialized")
        out = tf.raw_ops.ParseSingleSequenceExample(
            serialized=ser, feature_list_dense_missing_assumed_empty=tf.constant(list(missing),
                                                                                 tf.string),
            context_sparse_keys=["ctx_f"], context_dense_keys=["length", "title"],
            feature_list_sparse_keys=["words"], feature_list_dense_keys=["frames", "ids"],
            context_dense_defaults=[tf.constant([], tf.int64),
                                    tf.constant(np.array([b"t"] * int(np.prod(ctx_shape)),
                                                         dtype=object).reshape(ctx_shape))],
            debug_name=tf.constant("dbg"), context_sparse_types=[tf.float32],
            feature_list_sparse_types=[tf.string], feature_list_dense_types=[tf.float32, ids_type],
            context_dense_shapes=[[], list(ctx_shape)], feature_list_dense_shapes=[[2], []])
        return {"fetches": list(out.context_sparse_indices) + list(out.context_sparse_values) +
                list(out.context_sparse_shapes) + list(out.context_dense_values) +
                list(out.feature_list_sparse_indices) + list(out.feature_list_sparse_values) +
                list(out.feature_list_sparse_shapes) + list(out.feature_list_dense_values)}
    return build


custom("ParseSequenceExample", "mixed", _seq_v1(_SEQ))
custom("ParseSequenceExample", "no_names", _seq_v1(_SEQ[:2], names=False))
custom("ParseSequenceExample", "list_required", _seq_v1(_SEQ, missing=()), error=True)
custom("ParseSequenceExample", "ctx_required", _seq_v1(_SEQ, ctx_required=True), error=True)
custom("ParseSequenceExample", "wrong_type", _seq_v1([_SEQ[0]] + [_pb_sequence_example(
    [("length", _pb_feature([1.0], "float"))], [("ids", [])])]), error=True)
custom("ParseSequenceExample", "wrong_step_count", _seq_v1([_pb_sequence_example(
    [("length", _pb_feature([1], "int64"))],
    [("ids", [_pb_feature([1], "int64")]),
     ("frames", [_pb_feature([1.0], "float"), _pb_feature([1.0, 2.0, 3.0], "float")])])]),
    error=True)
custom("ParseSequenceExample", "not_a_sequence_example", _seq_v1([b"\x12\x05abc"]), error=True)
custom("ParseSequenceExampleV2", "batch", _seq_v2(_SEQ))
custom("ParseSequenceExampleV2", "scalar", _seq_v2(_SEQ, scalar=True))
custom("ParseSequenceExampleV2", "list_required", _seq_v2(_SEQ, missing=(False, False)), error=True)
custom("ParseSequenceExampleV2", "wrong_type", _seq_v2(_SEQ, ctx_type="float32"), error=True)
custom("ParseSequenceExampleV2", "wrong_total", _seq_v2(_SEQ, frames_shape=(3,)), error=True)
custom("ParseSingleSequenceExample", "mixed", _seq_single(_SEQ[0]))
custom("ParseSingleSequenceExample", "split_lists", _seq_single(_SEQ[1]))
custom("ParseSingleSequenceExample", "missing_lists", _seq_single(_SEQ[2]))
custom("ParseSingleSequenceExample", "list_required", _seq_single(_SEQ[2], missing=()), error=True)
custom("ParseSingleSequenceExample", "wrong_type", _seq_single(_SEQ[0], ids_type="float32"),
       error=True)
custom("ParseSingleSequenceExample", "wrong_count", _seq_single(_SEQ[0], ctx_shape=(3,)),
       error=True)


def _seq_v2_ragged(examples, scalar=False):
    """ParseSequenceExampleV2 with ragged context and feature-list keys beside
    a dense and a sparse one (int32 and int64 row splits)."""
    def build(tf, inp):
        ser = inp(V(examples[0] if scalar else examples, "string"), "serialized")
        out = tf.raw_ops.ParseSequenceExampleV2(
            serialized=ser, debug_name=tf.constant([], tf.string),
            context_sparse_keys=tf.constant([], tf.string), context_dense_keys=tf.constant(["length"]),
            context_ragged_keys=tf.constant(["ctx_f", "title"]),
            feature_list_sparse_keys=tf.constant(["ids"]),
            feature_list_dense_keys=tf.constant([], tf.string),
            feature_list_ragged_keys=tf.constant(["words", "frames"]),
            feature_list_dense_missing_assumed_empty=tf.constant([], tf.bool),
            context_dense_defaults=[tf.constant(-1, tf.int64)], context_dense_shapes=[[]],
            context_ragged_value_types=[tf.float32, tf.string],
            context_ragged_split_types=[tf.int64, tf.int32],
            Nfeature_list_sparse=1, feature_list_sparse_types=[tf.int64],
            feature_list_ragged_value_types=[tf.string, tf.float32],
            feature_list_ragged_split_types=[tf.int32, tf.int64])
        fetches = (list(out.context_dense_values) + list(out.context_ragged_values) +
                   list(out.feature_list_sparse_indices) + list(out.feature_list_sparse_values) +
                   list(out.feature_list_sparse_shapes) + list(out.feature_list_ragged_values) +
                   list(out.feature_list_ragged_inner_splits))
        if not scalar:  # a scalar input leaves TF's row splits and outer splits unset
            fetches += list(out.context_ragged_row_splits) + list(out.feature_list_ragged_outer_splits)
        return {"fetches": fetches}
    return build


custom("ParseSequenceExampleV2", "ragged", _seq_v2_ragged(_SEQ))
custom("ParseSequenceExampleV2", "ragged_scalar", _seq_v2_ragged(_SEQ, scalar=True))

# SparseTensorsMap ops (seqex): a session resource written by one op and read
# by another in later steps
_SPARSE_MAP = ("SparseTensorsMap op: handles into a session resource that one step writes and a "
               "later step takes; tests/python/test_sparse_tensors_map.py checks handles, takes and "
               "messages against TensorFlow's, tests/python/test_compat_sparse_batching.py whole "
               "queue pipelines with TensorFlow")
SKIPPED.update({"AddSparseToTensorsMap": _SPARSE_MAP, "AddManySparseToTensorsMap": _SPARSE_MAP,
                "TakeManySparseFromTensorsMap": _SPARSE_MAP})

# ---- nnimg: detection-style image ops (non-max suppression, crop and resize,
# bounding boxes, glimpses, area resize)
_NMS_BOXES = V([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                [0, 10.1, 1, 11.1], [0, 100, 1, 101], [1, 1, 0, 0], [0.5, 0.5, 0.5, 0.9]],
               "float32")
_NMS_SCORES = V([0.9, 0.75, 0.6, 0.95, 0.5, 0.3, 0.85, 0.4], "float32")
case("NonMaxSuppression", boxes=_NMS_BOXES, scores=_NMS_SCORES, max_output_size=K(3, "int32"),
     iou_threshold=0.5)
case("NonMaxSuppression", "random", boxes=F(30, 4, lo=0, hi=1), scores=F(30, lo=0, hi=1),
     max_output_size=K(20, "int32"), iou_threshold=0.3)
case("NonMaxSuppression", "bad_iou", error=True, boxes=_NMS_BOXES, scores=_NMS_SCORES,
     max_output_size=K(3, "int32"), iou_threshold=1.5)
case("NonMaxSuppressionV2", boxes=F(30, 4, lo=0, hi=1), scores=F(30, lo=0, hi=1),
     max_output_size=K(10, "int32"), iou_threshold=K(0.4, "float32"))
case("NonMaxSuppressionV2", "f16", boxes=V([[0, 0, 1, 1], [0, 0.5, 1, 1.5], [0, 2, 1, 3]],
                                           "float16"),
     scores=V([0.5, 0.75, 0.25], "float16"), max_output_size=K(3, "int32"),
     iou_threshold=K(0.3, "float16"))
case("NonMaxSuppressionV3", boxes=F(30, 4, lo=0, hi=1), scores=F(30, lo=0, hi=1),
     max_output_size=K(10, "int32"), iou_threshold=K(0.4, "float32"),
     score_threshold=K(0.3, "float32"))
case("NonMaxSuppressionV3", "negative_size", error=True, boxes=_NMS_BOXES, scores=_NMS_SCORES,
     max_output_size=K(-1, "int32"), iou_threshold=K(0.4, "float32"),
     score_threshold=K(0.3, "float32"))
case("NonMaxSuppressionV4", boxes=_NMS_BOXES, scores=_NMS_SCORES, max_output_size=K(6, "int32"),
     iou_threshold=K(0.5, "float32"), score_threshold=K(0.35, "float32"))
case("NonMaxSuppressionV4", "padded", boxes=_NMS_BOXES, scores=_NMS_SCORES,
     max_output_size=K(7, "int32"), iou_threshold=K(0.5, "float32"),
     score_threshold=K(0.35, "float32"), pad_to_max_output_size=True)
case("NonMaxSuppressionV5", "hard", boxes=F(30, 4, lo=0, hi=1), scores=F(30, lo=0, hi=1),
     max_output_size=K(12, "int32"), iou_threshold=K(0.4, "float32"),
     score_threshold=K(0.2, "float32"), soft_nms_sigma=K(0.0, "float32"))
case("NonMaxSuppressionV5", "soft", boxes=F(30, 4, lo=0, hi=1), scores=F(30, lo=0, hi=1),
     max_output_size=K(12, "int32"), iou_threshold=K(0.4, "float32"),
     score_threshold=K(0.2, "float32"), soft_nms_sigma=K(0.5, "float32"),
     pad_to_max_output_size=True)
case("NonMaxSuppressionV5", "bad_sigma", error=True, boxes=_NMS_BOXES, scores=_NMS_SCORES,
     max_output_size=K(3, "int32"), iou_threshold=K(0.4, "float32"),
     score_threshold=K(0.3, "float32"), soft_nms_sigma=K(-1.0, "float32"))
case("NonMaxSuppressionWithOverlaps", overlaps=F(10, 10, lo=0, hi=1), scores=F(10, lo=0, hi=1),
     max_output_size=K(6, "int32"), overlap_threshold=K(0.5, "float32"),
     score_threshold=K(0.1, "float32"))
case("CombinedNonMaxSuppression", boxes=F(2, 12, 1, 4, lo=-0.2, hi=1.2),
     scores=F(2, 12, 3, lo=0, hi=1), max_output_size_per_class=K(4, "int32"),
     max_total_size=K(7, "int32"), iou_threshold=K(0.5, "float32"),
     score_threshold=K(0.2, "float32"))
case("CombinedNonMaxSuppression", "per_class_boxes_no_clip", boxes=F(2, 10, 3, 4, lo=-0.2, hi=1.2),
     scores=F(2, 10, 3, lo=0, hi=1), max_output_size_per_class=K(3, "int32"),
     max_total_size=K(20, "int32"), iou_threshold=K(0.3, "float32"),
     score_threshold=K(0.1, "float32"), clip_boxes=False, pad_per_class=True)
_CR_BOXES = V([[0.1, 0.2, 0.8, 0.9], [0.5, 0.5, 0.5, 0.5], [-0.3, 0.1, 1.2, 0.7],
               [0.9, 0.8, 0.2, 0.1]], "float32")
case("CropAndResize", image=F(2, 6, 7, 3), boxes=_CR_BOXES, box_ind=V([0, 1, 1, 0], "int32"),
     crop_size=K([4, 5], "int32"), extrapolation_value=-1.0)
case("CropAndResize", "nearest_u8", image=I(2, 5, 6, 2, lo=0, hi=255, dt="uint8"),
     boxes=_CR_BOXES, box_ind=V([1, 0, 1, 0], "int32"), crop_size=K([3, 3], "int32"),
     method="nearest")
case("CropAndResize", "one_pixel", image=F(1, 6, 5, 1), boxes=_CR_BOXES,
     box_ind=V([0, 0, 0, 0], "int32"), crop_size=K([1, 1], "int32"))
case("CropAndResize", "bad_box_ind", error=True, image=F(1, 4, 4, 1), boxes=_CR_BOXES,
     box_ind=V([0, 1, 0, 0], "int32"), crop_size=K([2, 2], "int32"))
case("CropAndResizeGradImage", grads=F(4, 4, 5, 3), boxes=_CR_BOXES,
     box_ind=V([0, 1, 1, 0], "int32"), image_size=K([2, 6, 7, 3], "int32"), T="float32")
case("CropAndResizeGradImage", "nearest_f64", grads=F(4, 3, 3, 2), boxes=_CR_BOXES,
     box_ind=V([1, 0, 1, 0], "int32"), image_size=K([2, 5, 6, 2], "int32"), T="float64",
     method="nearest")
case("CropAndResizeGradBoxes", grads=F(4, 4, 5, 3), image=F(2, 6, 7, 3), boxes=_CR_BOXES,
     box_ind=V([0, 1, 1, 0], "int32"))
case("CropAndResizeGradBoxes", "one_pixel_i32", grads=F(4, 1, 1, 1),
     image=I(1, 6, 5, 1, lo=0, hi=50), boxes=_CR_BOXES, box_ind=V([0, 0, 0, 0], "int32"))
_DRAW_BOXES = V([[[0.1, 0.2, 0.6, 0.7], [0.3, -0.2, 1.3, 0.5], [0.8, 0.8, 0.2, 0.9]],
                 [[0.0, 0.0, 1.0, 1.0], [0.5, 0.5, 0.5, 0.5], [1.2, 0.1, 1.5, 0.3]]], "float32")
case("DrawBoundingBoxes", images=F(2, 8, 9, 3, lo=0, hi=0.1), boxes=_DRAW_BOXES)
case("DrawBoundingBoxes", "gray_f16", images=F(2, 6, 6, 1, lo=0, hi=0.1, dt="float16"),
     boxes=_DRAW_BOXES)
case("DrawBoundingBoxesV2", images=F(2, 8, 9, 4, lo=0, hi=0.1), boxes=_DRAW_BOXES,
     colors=V([[0.2, 0.4, 0.6, 0.8, 1.0], [0.9, 0.7, 0.5, 0.3, 0.1]], "float32"))
case("DrawBoundingBoxesV2", "bad_depth", error=True, images=F(1, 4, 4, 2), boxes=F(1, 1, 4),
     colors=V([[1.0, 1.0]], "float32"))
_GL_OFFS = V([[0.3, -0.2], [-0.9, 0.8]], "float32")
for _op in ("ExtractGlimpse", "ExtractGlimpseV2"):
    case(_op, input=F(2, 6, 7, 2), size=K([3, 4], "int32"), offsets=_GL_OFFS,
         uniform_noise=False, noise="zero")
    case(_op, "pixels", input=F(2, 6, 7, 1), size=K([2, 3], "int32"),
         offsets=V([[1.3, 2.6], [-1.7, 6.5]], "float32"), normalized=False, centered=False,
         uniform_noise=False, noise="zero")
    case(_op, "pixels_centered", input=F(2, 6, 7, 1), size=K([3, 2], "int32"),
         offsets=V([[1.3, -2.6], [-2.5, 0.5]], "float32"), normalized=False,
         uniform_noise=False, noise="zero")
    case(_op, "inside_uniform", input=F(1, 6, 7, 2), size=K([2, 2], "int32"),
         offsets=V([[0.0, 0.0]], "float32"))
for _op, _extra in (("SampleDistortedBoundingBox", {"min_object_covered": 0.3}),
                    ("SampleDistortedBoundingBoxV2", {"min_object_covered": K(0.3, "float32")})):
    case(_op, image_size=V([480, 640, 3], "int32"),
         bounding_boxes=V([[[0.1, 0.2, 0.5, 0.6], [0.3, 0.3, 0.9, 0.8]]], "float32"),
         seed=7, seed2=11, **_extra)
    case(_op, "no_boxes_i64", image_size=V([37, 53, 1], "int64"),
         bounding_boxes=V(np.zeros((1, 0, 4)), "float32"), seed=3, seed2=5,
         use_image_if_no_bounding_boxes=True, area_range=[0.1, 0.6],
         aspect_ratio_range=[0.5, 2.0], **_extra)
    case(_op, "u8_small", image_size=V([9, 12, 3], "uint8"),
         bounding_boxes=V([[[0.0, 0.0, 1.0, 1.0]]], "float32"), seed=1, seed2=2,
         max_attempts=5, **_extra)
    case(_op, "bad_box", error=True, image_size=V([9, 12, 3], "int32"),
         bounding_boxes=V([[[0.0, 0.0, 1.5, 1.0]]], "float32"), seed=1, seed2=2, **_extra)
case("ResizeArea", images=F(2, 7, 9, 3), size=K([3, 4], "int32"))
case("ResizeArea", "up_align_i32", images=I(1, 4, 5, 2, lo=0, hi=99), size=K([7, 11], "int32"),
     align_corners=True)
case("ResizeArea", "one_channel", images=F(1, 10, 6, 1), size=K([4, 5], "int32"))
case("ResizeArea", "bad_size", error=True, images=F(1, 4, 4, 1), size=K([0, 2], "int32"))


# ---- nnimg: 3-D convolution and pooling
case("Conv3D", "same_s2", input=F(2, 5, 6, 7, 3), filter=F(3, 2, 3, 3, 4),
     strides=[1, 2, 1, 2, 1], padding="SAME")
case("Conv3D", "valid_f64", input=F(1, 4, 5, 4, 2, dt="float64"),
     filter=F(2, 3, 2, 2, 3, dt="float64"), strides=[1, 1, 2, 1, 1], padding="VALID")
case("Conv3D", "big", input=FB(2, 10, 12, 12, 8), filter=FB(3, 3, 3, 8, 16),
     strides=[1, 1, 1, 1, 1], padding="SAME", rtol=1e-4,
     why="float sums of 216 products in another order (BLAS) than Eigen's")
case("Conv3D", "dilated_error", error=True, input=F(1, 4, 4, 4, 1), filter=F(2, 2, 2, 1, 1),
     strides=[1, 1, 1, 1, 1], padding="SAME", dilations=[1, 2, 2, 2, 1])
case("Conv3DBackpropInputV2", input_sizes=K([2, 5, 6, 7, 3], "int32"), filter=F(3, 2, 3, 3, 4),
     out_backprop=F(2, 3, 6, 4, 4), strides=[1, 2, 1, 2, 1], padding="SAME")
case("Conv3DBackpropInputV2", "valid_i64_f64", input_sizes=K([1, 4, 5, 4, 2], "int64"),
     filter=F(2, 3, 2, 2, 3, dt="float64"), out_backprop=F(1, 3, 2, 3, 3, dt="float64"),
     strides=[1, 1, 2, 1, 1], padding="VALID")
case("Conv3DBackpropFilterV2", input=F(2, 5, 6, 7, 3), filter_sizes=K([3, 2, 3, 3, 4], "int32"),
     out_backprop=F(2, 3, 6, 4, 4), strides=[1, 2, 1, 2, 1], padding="SAME")
case("Conv3DBackpropFilterV2", "valid_f64", input=F(1, 4, 5, 4, 2, dt="float64"),
     filter_sizes=K([2, 3, 2, 2, 3], "int32"), out_backprop=F(1, 3, 2, 3, 3, dt="float64"),
     strides=[1, 1, 2, 1, 1], padding="VALID")
_P3 = dict(ksize=[1, 2, 3, 2, 1], strides=[1, 2, 2, 1, 1])
case("MaxPool3D", input=F(2, 5, 6, 4, 3), padding="SAME", **_P3)
case("MaxPool3D", "valid", input=F(1, 4, 5, 6, 2), padding="VALID", ksize=[1, 2, 2, 2, 1],
     strides=[1, 2, 2, 2, 1])
case("MaxPool3D", "batch_window", error=True, input=F(1, 4, 4, 4, 1), padding="VALID",
     ksize=[2, 2, 2, 2, 1], strides=[1, 1, 1, 1, 1])
case("AvgPool3D", input=F(2, 5, 6, 4, 3), padding="SAME", **_P3)
case("AvgPool3D", "valid", input=F(1, 4, 5, 6, 2), padding="VALID",
     ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1])
case("AvgPool3DGrad", orig_input_shape=K([2, 5, 6, 4, 3], "int32"), grad=F(2, 3, 3, 4, 3),
     padding="SAME", **_P3)
case("AvgPool3DGrad", "valid", orig_input_shape=K([1, 4, 5, 6, 2], "int32"),
     grad=F(1, 2, 2, 3, 2), padding="VALID", ksize=[1, 2, 2, 2, 1],
     strides=[1, 2, 2, 2, 1])
case("AvgPool3DGrad", "big_window", orig_input_shape=K([1, 2, 3, 3, 1], "int32"),
     grad=F(1, 1, 2, 2, 1), padding="SAME", ksize=[1, 4, 4, 4, 1], strides=[1, 2, 2, 2, 1])


def _maxpool3d_grad(gradgrad, padding, ksize, strides, shape):
    """MaxPool3DGrad / MaxPool3DGradGrad of a MaxPool3D computed in the same graph
    (inputs rounded to a few values, so that windows hold ties)."""
    def build(tf, inp):
        x = inp(F(*shape, step=0.5), "x")
        y = tf.raw_ops.MaxPool3D(input=x, ksize=ksize, strides=strides, padding=padding)
        if gradgrad:
            g = inp(F(*shape), "g")
            out = tf.raw_ops.MaxPool3DGradGrad(orig_input=x, orig_output=y, grad=g, ksize=ksize,
                                               strides=strides, padding=padding)
        else:
            g = tf.ones_like(y) * inp(F(1), "scale")
            out = tf.raw_ops.MaxPool3DGrad(orig_input=x, orig_output=y, grad=g, ksize=ksize,
                                           strides=strides, padding=padding)
        return {"fetches": [out]}
    return build


for _name, _pad, _ks, _st, _shape in (("same", "SAME", [1, 2, 3, 2, 1], [1, 2, 2, 1, 1], (2, 5, 6, 4, 3)),
                                      ("valid", "VALID", [1, 2, 2, 2, 1], [1, 1, 2, 2, 1], (1, 4, 5, 6, 2))):
    custom("MaxPool3DGrad", _name, _maxpool3d_grad(False, _pad, _ks, _st, _shape))
    custom("MaxPool3DGradGrad", _name, _maxpool3d_grad(True, _pad, _ks, _st, _shape))


# ---- nnimg: argmax pooling, morphological dilation, patch extraction
case("MaxPoolWithArgmax", input=F(2, 5, 6, 3, step=0.5), ksize=[1, 3, 2, 1],
     strides=[1, 2, 2, 1], padding="SAME")
case("MaxPoolWithArgmax", "batch_index_i32", input=F(2, 6, 5, 2), ksize=[1, 2, 2, 1],
     strides=[1, 2, 1, 1], padding="VALID", include_batch_in_index=True, Targmax="int32")
case("MaxPoolWithArgmax", "u8", input=I(1, 4, 4, 2, lo=0, hi=3, dt="uint8"), ksize=[1, 2, 2, 1],
     strides=[1, 1, 1, 1], padding="SAME")
case("MaxPoolGradWithArgmax", input=F(2, 5, 6, 3), grad=F(2, 3, 3, 3),
     argmax=V(np.random.RandomState(7).randint(0, 90, (2, 3, 3, 3)), "int64"),
     ksize=[1, 3, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
case("MaxPoolGradWithArgmax", "batch_index", input=F(2, 4, 4, 1), grad=F(2, 2, 2, 1),
     argmax=V([[[[0], [5]], [[10], [15]]], [[[16], [17]], [[30], [31]]]], "int64"),
     ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID", include_batch_in_index=True)
case("Dilation2D", input=F(2, 6, 7, 3), filter=F(3, 2, 3), strides=[1, 1, 2, 1],
     rates=[1, 2, 1, 1], padding="SAME")
case("Dilation2D", "valid_i32", input=I(1, 5, 5, 2, lo=-9, hi=9), filter=I(2, 2, 2, lo=-3, hi=3),
     strides=[1, 2, 1, 1], rates=[1, 1, 2, 1], padding="VALID")
case("Dilation2DBackpropInput", input=F(2, 6, 7, 3), filter=F(3, 2, 3), out_backprop=F(2, 6, 4, 3),
     strides=[1, 1, 2, 1], rates=[1, 2, 1, 1], padding="SAME")
case("Dilation2DBackpropFilter", input=F(2, 6, 7, 3), filter=F(3, 2, 3),
     out_backprop=F(2, 6, 4, 3), strides=[1, 1, 2, 1], rates=[1, 2, 1, 1], padding="SAME")
case("Dilation2DBackpropFilter", "valid_f64", input=F(1, 5, 5, 2, dt="float64"),
     filter=F(2, 2, 2, dt="float64"), out_backprop=F(1, 2, 3, 2, dt="float64"),
     strides=[1, 2, 1, 1], rates=[1, 1, 2, 1], padding="VALID")
case("ExtractImagePatches", images=F(2, 5, 6, 3), ksizes=[1, 3, 2, 1], strides=[1, 2, 1, 1],
     rates=[1, 1, 2, 1], padding="SAME")
case("ExtractImagePatches", "valid_i64", images=I(1, 6, 5, 2, dt="int64"), ksizes=[1, 2, 2, 1],
     strides=[1, 3, 2, 1], rates=[1, 2, 1, 1], padding="VALID")
case("ExtractImagePatches", "depth_window", error=True, images=F(1, 4, 4, 2),
     ksizes=[1, 2, 2, 2], strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="VALID")
case("ExtractVolumePatches", input=F(2, 4, 5, 4, 2), ksizes=[1, 2, 3, 2, 1],
     strides=[1, 2, 1, 2, 1], padding="SAME")
case("ExtractVolumePatches", "valid_f64", input=F(1, 4, 4, 5, 1, dt="float64"),
     ksizes=[1, 2, 2, 3, 1], strides=[1, 1, 2, 1, 1], padding="VALID")


# ---- nnimg: connectionist temporal classification
_CTC_IDX = V([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [2, 0], [2, 1], [2, 2], [2, 3]], "int64")
_CTC_VAL = V([1, 3, 3, 0, 2, 2, 2, 1, 1], "int32")
case("CTCLoss", inputs=F(7, 3, 5), labels_indices=_CTC_IDX, labels_values=_CTC_VAL,
     sequence_length=V([7, 5, 6], "int32"))
case("CTCLoss", "f64_no_merge", inputs=F(7, 3, 5, dt="float64"), labels_indices=_CTC_IDX,
     labels_values=_CTC_VAL, sequence_length=V([7, 6, 7], "int32"), ctc_merge_repeated=False)
case("CTCLoss", "collapse_ignore_long", inputs=F(6, 3, 5, lo=-4, hi=4), labels_indices=_CTC_IDX,
     labels_values=_CTC_VAL, sequence_length=V([6, 0, 3], "int32"),
     preprocess_collapse_repeated=True, ignore_longer_outputs_than_inputs=True)
case("CTCLoss", "too_long", error=True, inputs=F(4, 3, 5), labels_indices=_CTC_IDX,
     labels_values=_CTC_VAL, sequence_length=V([4, 4, 3], "int32"))
case("CTCLoss", "bad_label", error=True, inputs=F(4, 1, 5), labels_indices=V([[0, 0], [0, 1]], "int64"),
     labels_values=V([4, 1], "int32"), sequence_length=V([4], "int32"))
case("CTCGreedyDecoder", inputs=F(8, 3, 4, step=0.25), sequence_length=V([8, 5, 0], "int32"))
case("CTCGreedyDecoder", "merge_f64_blank0", inputs=F(8, 2, 4, dt="float64"),
     sequence_length=V([8, 7], "int32"), merge_repeated=True, blank_index=0)
case("CTCGreedyDecoder", "seq_too_long", error=True, inputs=F(3, 2, 4),
     sequence_length=V([3, 4], "int32"))
case("CTCBeamSearchDecoder", inputs=F(9, 3, 5, lo=-3, hi=3), sequence_length=V([9, 6, 4], "int32"),
     beam_width=4, top_paths=3)
case("CTCBeamSearchDecoder", "no_merge_f64", inputs=F(7, 2, 4, lo=-2, hi=2, dt="float64"),
     sequence_length=V([7, 5], "int32"), beam_width=6, top_paths=2, merge_repeated=False)
case("CTCBeamSearchDecoder", "narrow_beam", inputs=F(12, 2, 6, lo=-3, hi=3),
     sequence_length=V([12, 10], "int32"), beam_width=2, top_paths=1)
case("CTCBeamSearchDecoder", "too_many_paths", error=True, inputs=F(3, 1, 4),
     sequence_length=V([0], "int32"), beam_width=3, top_paths=2)
# dataexp: LU factorization and tridiagonal systems (linalg_lu.c)
_LU4 = [[2.0, -1.0, 0.5, 3.0], [1.0, 3.0, -2.0, 0.0], [4.0, 1.5, 4.0, -1.0], [0.5, 0.0, 1.0, 2.0]]
case("Lu", input=V(_GEN, "float32"))
case("Lu", "f64_batch_i64", input=V([_LU4, np.eye(4).tolist()], "float64"), output_idx_type="int64")
case("Lu", "singular", input=V([[1.0, 2.0], [2.0, 4.0]], "float64"), error=True)
case("TridiagonalSolve", diagonals=F(3, 5), rhs=F(5, 2))
case("TridiagonalSolve", "f64_batch_no_pivoting", diagonals=V(
    [[[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 1.0, 1.0]],
     [[0.5, 0.5, 0.0], [3.0, -3.0, 2.0], [0.0, 0.25, 1.0]]], "float64"),
     rhs=F(2, 3, 4, dt="float64"), partial_pivoting=False)
case("TridiagonalSolve", "pivoting_needed", diagonals=V(
    [[1.0, 1.0, 0.0], [0.0, 2.0, 3.0], [0.0, 1.0, 1.0]], "float64"), rhs=F(3, 1, dt="float64"))
case("TridiagonalSolve", "singular", diagonals=V(
    [[1.0, 2.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], "float64"), rhs=F(3, 1, dt="float64"))
case("TridiagonalMatMul", superdiag=F(1, 4), maindiag=F(1, 4), subdiag=F(1, 4), rhs=F(4, 3))
case("MatrixSquareRoot", input=V(_SPD, "float32"))
case("MatrixSquareRoot", "f64_batch_complex_pairs", input=V(
    [[[1.0, -2.0, 0.5], [3.0, 1.0, 0.0], [0.2, 0.1, 2.0]], _SPD], "float64"))
case("MatrixSquareRoot", "f64_general", input=V(
    [[4.0, 1.0, -2.0, 0.5], [0.5, 3.0, 1.0, 0.0], [1.0, -1.0, 5.0, 2.0], [0.0, 2.0, -1.0, 6.0]], "float64"))
case("MatrixSquareRoot", "negative_eigenvalue", input=V([[-1.0, 0.0], [0.0, 4.0]], "float64"))
case("TridiagonalMatMul", "f64_batch", superdiag=F(2, 1, 3, dt="float64"),
     maindiag=F(2, 1, 3, dt="float64"), subdiag=F(2, 1, 3, dt="float64"), rhs=F(2, 3, 2, dt="float64"))


# ---- lookup branch: string hashing (FarmHash Fingerprint64, TF's Hash64) and
# lookup tables (hash, mutable, mutable-of-tensors, dense; key/value and text
# file initializers)
_LONG_WORDS = _WORDS + [b"x" * 17, b"y" * 33, b"z" * 64, b"w" * 65, bytes(range(200))]
case("StringToHashBucketFast", input=V(_LONG_WORDS, "string"), num_buckets=1000)
case("StringToHashBucketFast", "matrix_one_bucket", input=V([[b"a", b"b"], [b"c", b""]], "string"),
     num_buckets=1)
case("StringToHashBucket", string_tensor=V(_LONG_WORDS, "string"), num_buckets=97)
case("Fingerprint", "strings", data=V(_LONG_WORDS, "string"), method=V(b"farmhash64", "string"))
case("Fingerprint", "string_rows", data=V([[b"a", b"bc", b""], [b"xyz", b"q", b"r"]], "string"),
     method=V(b"farmhash64", "string"))
case("Fingerprint", "i32_rows", data=I(3, 5, lo=-100, hi=100), method=V(b"farmhash64", "string"))
case("Fingerprint", "f64_rows", data=F(2, 2, 3, dt="float64"), method=V(b"farmhash64", "string"))
case("Fingerprint", "bad_method", data=I(3), method=V(b"md5", "string"), error=True)


def _hash_table(tf, keys, values, kdt, vdt, name="table"):
    h = tf.raw_ops.HashTableV2(key_dtype=kdt, value_dtype=vdt, shared_name=name)
    init = tf.raw_ops.InitializeTableV2(table_handle=h, keys=tf.constant(keys, dtype=kdt),
                                        values=tf.constant(values, dtype=vdt))
    return h, init


def _lookup_find_str(tf, inp):
    h, init = _hash_table(tf, [b"a", b"bb", b"ccc"], [1, 2, 3], tf.string, tf.int64)
    keys = inp(V([[b"a", b"zz", b"ccc"], [b"", b"bb", b"a"]], "string"), "keys")
    out = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=keys, default_value=tf.constant(-1, tf.int64))
    return {"init": [init], "fetches": [out, tf.raw_ops.LookupTableSizeV2(table_handle=h)]}


def _lookup_find_i64_str(tf, inp):
    h, init = _hash_table(tf, [5, -7, 1 << 40], [b"five", b"minus seven", b"big"], tf.int64, tf.string)
    keys = inp(V([5, 6, 1 << 40, -7], "int64"), "keys")
    out = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=keys, default_value=tf.constant(b"UNK"))
    k, v = tf.raw_ops.LookupTableExportV2(table_handle=h, Tkeys=tf.int64, Tvalues=tf.string)
    return {"init": [init], "fetches": [out, tf.raw_ops.Size(input=k), tf.raw_ops.Size(input=v)]}


def _lookup_find_full_default(tf, inp):
    h, init = _hash_table(tf, [1, 2], [0.5, 1.5], tf.int32, tf.float32)
    keys = inp(V([1, 3, 2, 4], "int32"), "keys")
    out = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=keys,
                                       default_value=inp(V([9.0, 8.0, 7.0, 6.0], "float32"), "dflt"))
    return {"init": [init], "fetches": [out]}


def _lookup_find_uninitialized(tf, inp):
    h = tf.raw_ops.HashTableV2(key_dtype=tf.string, value_dtype=tf.int64)
    out = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=inp(V([b"a"], "string"), "keys"),
                                       default_value=tf.constant(-1, tf.int64))
    return {"fetches": [out]}


def _lookup_find_wrong_key_type(tf, inp):
    h, init = _hash_table(tf, [b"a"], [1], tf.string, tf.int64)
    out = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=inp(V([1], "int64"), "keys"),
                                       default_value=tf.constant(-1, tf.int64))
    return {"init": [init], "fetches": [out]}


def _lookup_init_conflict(tf, inp):
    h, init = _hash_table(tf, [b"a", b"a"], [1, 2], tf.string, tf.int64)
    return {"targets": [init]}


def _lookup_init_twice(tf, inp):
    h, init = _hash_table(tf, [b"a", b"b"], [1, 2], tf.string, tf.int64)
    again = tf.raw_ops.InitializeTableV2(table_handle=h, keys=tf.constant([b"b", b"a"]),
                                         values=tf.constant([2, 1], tf.int64))
    with tf.control_dependencies([again]):
        size = tf.raw_ops.LookupTableSizeV2(table_handle=h)
    return {"init": [init], "fetches": [size]}


def _lookup_init_twice_different(tf, inp):
    h, init = _hash_table(tf, [b"a", b"b"], [1, 2], tf.string, tf.int64)
    again = tf.raw_ops.InitializeTableV2(table_handle=h, keys=tf.constant([b"a", b"b", b"c"]),
                                         values=tf.constant([1, 3, 4], tf.int64))
    return {"init": [init], "targets": [again]}


def _lookup_init_twice_same_size(tf, inp):
    h, init = _hash_table(tf, [b"a", b"b"], [1, 2], tf.string, tf.int64)
    again = tf.raw_ops.InitializeTableV2(table_handle=h, keys=tf.constant([b"a", b"c"]),
                                         values=tf.constant([5, 3], tf.int64))
    with tf.control_dependencies([again]):
        f = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=tf.constant([b"a", b"b", b"c"]),
                                         default_value=tf.constant(-1, tf.int64))
    return {"init": [init], "fetches": [f]}


def _lookup_insert_static(tf, inp):
    h, init = _hash_table(tf, [b"a"], [1], tf.string, tf.int64)
    ins = tf.raw_ops.LookupTableInsertV2(table_handle=h, keys=tf.constant([b"b"]),
                                         values=tf.constant([2], tf.int64))
    return {"init": [init], "targets": [ins]}


custom("LookupTableFindV2", "string_to_int64", _lookup_find_str)
custom("LookupTableFindV2", "int64_to_string", _lookup_find_i64_str)
custom("LookupTableFindV2", "full_size_default", _lookup_find_full_default)
def _mutable_full_default(tf, inp):
    h = tf.raw_ops.MutableHashTableV2(key_dtype=tf.int64, value_dtype=tf.float64)
    ins = tf.raw_ops.LookupTableInsertV2(table_handle=h, keys=tf.constant([1, 2], tf.int64),
                                         values=tf.constant([0.5, 1.5], tf.float64))
    with tf.control_dependencies([ins]):
        out = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=inp(V([1, 3, 2, 4], "int64"), "keys"),
                                           default_value=inp(V([9.0, 8.0, 7.0, 6.0], "float64"), "dflt"))
    return {"fetches": [out]}


custom("LookupTableFindV2", "mutable_full_size_default", _mutable_full_default)
custom("LookupTableFindV2", "uninitialized", _lookup_find_uninitialized, error=True)
custom("LookupTableFindV2", "wrong_key_dtype", _lookup_find_wrong_key_type, error=True)
custom("InitializeTableV2", "duplicate_key_other_value", _lookup_init_conflict, error=True)
custom("InitializeTableV2", "twice_same_data", _lookup_init_twice)
custom("InitializeTableV2", "twice_other_size", _lookup_init_twice_different, error=True)
custom("InitializeTableV2", "twice_same_size_kept", _lookup_init_twice_same_size)
custom("LookupTableInsertV2", "static_table", _lookup_insert_static, error=True)


def _mutable_ops(tf, inp):
    h = tf.raw_ops.MutableHashTableV2(key_dtype=tf.string, value_dtype=tf.float32, shared_name="m")
    ins = tf.raw_ops.LookupTableInsertV2(table_handle=h, keys=inp(V([b"a", b"b", b"c", b"a"], "string"), "keys"),
                                         values=inp(V([1.0, 2.0, 3.0, 4.0], "float32"), "values"))
    with tf.control_dependencies([ins]):
        s1 = tf.raw_ops.LookupTableSizeV2(table_handle=h)
        f1 = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=tf.constant([[b"a", b"b"], [b"c", b"d"]]),
                                          default_value=tf.constant(-1.0))
    with tf.control_dependencies([s1, f1]):
        rm = tf.raw_ops.LookupTableRemoveV2(table_handle=h, keys=tf.constant([b"b", b"zz", b"c"]))
    with tf.control_dependencies([rm]):
        s2 = tf.raw_ops.LookupTableSizeV2(table_handle=h)
        k, v = tf.raw_ops.LookupTableExportV2(table_handle=h, Tkeys=tf.string, Tvalues=tf.float32)
    with tf.control_dependencies([k, v, s2]):
        imp = tf.raw_ops.LookupTableImportV2(table_handle=h, keys=tf.constant([b"x", b"y"]),
                                             values=tf.constant([5.0, 6.0]))
    with tf.control_dependencies([imp]):
        s3 = tf.raw_ops.LookupTableSizeV2(table_handle=h)
        f3 = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=tf.constant([b"a", b"x", b"y"]),
                                          default_value=tf.constant(0.0))
    return {"fetches": [s1, f1, s2, k, v, s3, f3]}


def _mutable_of_tensors(tf, inp):
    h = tf.raw_ops.MutableHashTableOfTensorsV2(key_dtype=tf.int64, value_dtype=tf.int32, value_shape=[3])
    ins = tf.raw_ops.LookupTableInsertV2(table_handle=h, keys=tf.constant([7, 8], tf.int64),
                                         values=inp(I(2, 3, lo=-9, hi=9), "values"))
    with tf.control_dependencies([ins]):
        f = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=tf.constant([[8, 9], [7, 7]], tf.int64),
                                         default_value=tf.constant([0, -1, -2]))
    with tf.control_dependencies([f]):
        rm = tf.raw_ops.LookupTableRemoveV2(table_handle=h, keys=tf.constant([8], tf.int64))
    with tf.control_dependencies([rm]):
        k, v = tf.raw_ops.LookupTableExportV2(table_handle=h, Tkeys=tf.int64, Tvalues=tf.int32)
    return {"fetches": [f, k, v]}


def _mutable_value_shape_mismatch(tf, inp):
    h = tf.raw_ops.MutableHashTableOfTensorsV2(key_dtype=tf.int64, value_dtype=tf.float32, value_shape=[2])
    ins = tf.raw_ops.LookupTableInsertV2(table_handle=h, keys=tf.constant([1, 2], tf.int64),
                                         values=tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    return {"targets": [ins]}


custom("LookupTableInsertV2", "mutable_find_remove_export_import", _mutable_ops)
custom("MutableHashTableOfTensorsV2", "insert_find_remove", _mutable_of_tensors)
custom("LookupTableInsertV2", "value_shape_mismatch", _mutable_value_shape_mismatch, error=True)


def _dense(tf, kdt, vdt, empty, deleted, value_shape=(), buckets=8, load=0.8):
    return tf.raw_ops.MutableDenseHashTableV2(empty_key=tf.constant(empty, kdt), deleted_key=tf.constant(deleted, kdt),
                                              value_dtype=vdt, value_shape=list(value_shape),
                                              initial_num_buckets=buckets, max_load_factor=load)


def _dense_int64(tf, inp):
    h = _dense(tf, tf.int64, tf.float32, -1, -2)
    keys = inp(V([3, 11, 19, 4, 100, 7, 12, 5, 6, 27], "int64"), "keys")
    ins = tf.raw_ops.LookupTableInsertV2(table_handle=h, keys=keys, values=inp(F(10), "values"))
    with tf.control_dependencies([ins]):
        rm = tf.raw_ops.LookupTableRemoveV2(table_handle=h, keys=tf.constant([11, 4, 1000], tf.int64))
    with tf.control_dependencies([rm]):
        ins2 = tf.raw_ops.LookupTableInsertV2(table_handle=h, keys=tf.constant([43, 11], tf.int64),
                                              values=tf.constant([0.5, 0.25]))
    with tf.control_dependencies([ins2]):
        k, v = tf.raw_ops.LookupTableExportV2(table_handle=h, Tkeys=tf.int64, Tvalues=tf.float32)
        f = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=tf.constant([3, 4, 11, 43, 8], tf.int64),
                                         default_value=tf.constant(-9.0))
        s = tf.raw_ops.LookupTableSizeV2(table_handle=h)
    return {"fetches": [k, v, f, s]}


def _dense_string_vector_values(tf, inp):
    h = _dense(tf, tf.string, tf.int32, b"", b"<deleted>", value_shape=[2], buckets=4, load=0.5)
    ins = tf.raw_ops.LookupTableInsertV2(table_handle=h, keys=tf.constant([b"apple", b"kiwi", b"fig"]),
                                         values=inp(I(3, 2), "values"))
    with tf.control_dependencies([ins]):
        k, v = tf.raw_ops.LookupTableExportV2(table_handle=h, Tkeys=tf.string, Tvalues=tf.int32)
        f = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=tf.constant([b"fig", b"plum"]),
                                         default_value=tf.constant([-1, -2]))
    return {"fetches": [k, v, f]}


def _dense_vector_keys(tf, inp):
    h = _dense(tf, tf.int64, tf.int64, [-1, -1], [-2, -2], buckets=4)
    ins = tf.raw_ops.LookupTableInsertV2(table_handle=h, keys=tf.constant([[1, 2], [3, 4], [1, 3]], tf.int64),
                                         values=tf.constant([10, 20, 30], tf.int64))
    with tf.control_dependencies([ins]):
        k, v = tf.raw_ops.LookupTableExportV2(table_handle=h, Tkeys=tf.int64, Tvalues=tf.int64)
        f = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=tf.constant([[3, 4], [2, 1]], tf.int64),
                                         default_value=tf.constant(-1, tf.int64))
    return {"fetches": [k, v, f]}


def _dense_import(tf, inp):
    h = _dense(tf, tf.int64, tf.float32, 0, -1, buckets=4)
    # what a checkpoint restore feeds: the exported [buckets, 1] arrays, shapes unknown to the graph
    keys = tf.raw_ops.PlaceholderWithDefault(input=tf.constant([[0], [5], [-1], [2]], tf.int64), shape=None)
    values = tf.raw_ops.PlaceholderWithDefault(input=tf.constant([[0.0], [1.5], [0.0], [2.5]]), shape=None)
    imp = tf.raw_ops.LookupTableImportV2(table_handle=h, keys=keys, values=values)
    with tf.control_dependencies([imp]):
        s = tf.raw_ops.LookupTableSizeV2(table_handle=h)
        f = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=tf.constant([5, 2, 3], tf.int64),
                                         default_value=tf.constant(-1.0))
    return {"fetches": [s, f]}


def _dense_empty_key_insert(tf, inp):
    h = _dense(tf, tf.int64, tf.float32, -1, -2)
    ins = tf.raw_ops.LookupTableInsertV2(table_handle=h, keys=tf.constant([1, -1], tf.int64),
                                         values=tf.constant([1.0, 2.0]))
    return {"targets": [ins]}


def _dense_bad_buckets(tf, inp):
    h = _dense(tf, tf.int64, tf.float32, -1, -2, buckets=6)
    return {"fetches": [tf.raw_ops.LookupTableSizeV2(table_handle=h)]}


custom("MutableDenseHashTableV2", "int64_insert_remove_export", _dense_int64)
custom("MutableDenseHashTableV2", "string_keys_vector_values", _dense_string_vector_values)
custom("MutableDenseHashTableV2", "vector_keys", _dense_vector_keys)
custom("MutableDenseHashTableV2", "import_buckets", _dense_import)
custom("MutableDenseHashTableV2", "empty_key_insert", _dense_empty_key_insert, error=True)
custom("MutableDenseHashTableV2", "bucket_count_not_power_of_two", _dense_bad_buckets, error=True)


def _text_table(kdt, vdt, rel, probe, default, **attrs):
    def build(tf, inp):
        h = tf.raw_ops.HashTableV2(key_dtype=kdt, value_dtype=vdt)
        init = tf.raw_ops.InitializeTableFromTextFileV2(table_handle=h, filename=inp(PATH(rel), "filename"), **attrs)
        with tf.control_dependencies([init]):
            f = tf.raw_ops.LookupTableFindV2(table_handle=h, keys=tf.constant(probe, kdt),
                                             default_value=tf.constant(default, vdt))
            s = tf.raw_ops.LookupTableSizeV2(table_handle=h)
        return {"fetches": [f, s]}
    return build


custom("InitializeTableFromTextFileV2", "word_to_line", _text_table(
    "string", "int64", "lookup/vocab.txt", [b"cherry", b"apple", b"date", b"fig"], -1, key_index=-2, value_index=-1))
custom("InitializeTableFromTextFileV2", "line_to_word", _text_table(
    "int64", "string", "lookup/vocab.txt", [0, 2, 3, 4], b"?", key_index=-1, value_index=-2))
custom("InitializeTableFromTextFileV2", "columns_csv", _text_table(
    "string", "float32", "lookup/pairs.csv", [b"a", b"c", b"d"], 0.0, key_index=0, value_index=2, delimiter=","))
custom("InitializeTableFromTextFileV2", "int_columns_offset", _text_table(
    "int64", "int32", "lookup/pairs.csv", [2, 0, 5], -1, key_index=-1, value_index=1, delimiter=",", offset=3))
custom("InitializeTableFromTextFileV2", "vocab_size_truncates", _text_table(
    "string", "int64", "lookup/vocab.txt", [b"banana", b"cherry"], -1, key_index=-2, value_index=-1, vocab_size=2))
custom("InitializeTableFromTextFileV2", "vocab_size_too_big", _text_table(
    "string", "int64", "lookup/vocab.txt", [b"a"], -1, key_index=-2, value_index=-1, vocab_size=9), error=True)
custom("InitializeTableFromTextFileV2", "empty_line", _text_table(
    "string", "int64", "lookup/empty_line.txt", [b"x"], -1, key_index=-2, value_index=-1), error=True)
custom("InitializeTableFromTextFileV2", "missing_column", _text_table(
    "string", "int64", "lookup/vocab.txt", [b"x"], -1, key_index=1, value_index=-1), error=True)
custom("InitializeTableFromTextFileV2", "bad_number", _text_table(
    "string", "int64", "lookup/pairs.csv", [b"a"], -1, key_index=1, value_index=0, delimiter=","), error=True)
# the other table ops, each under its own name (same graphs as above)
custom("HashTableV2", "string_to_int64", _lookup_find_str)
custom("MutableHashTableV2", "find_remove_export_import", _mutable_ops)
custom("LookupTableRemoveV2", "mutable", _mutable_ops)
custom("LookupTableRemoveV2", "dense", _dense_int64)
custom("LookupTableSizeV2", "mutable", _mutable_ops)
custom("LookupTableExportV2", "dense_int64", _dense_int64)
custom("LookupTableExportV2", "dense_vector_keys", _dense_vector_keys)
custom("LookupTableImportV2", "mutable", _mutable_ops)
custom("LookupTableImportV2", "dense_buckets", _dense_import)
# version-1 tables: the handle is a Ref(string) [container, name]
def _v1_static(tf, inp):
    h = tf.raw_ops.HashTable(key_dtype=tf.string, value_dtype=tf.int64, shared_name="v1")
    init = tf.raw_ops.InitializeTable(table_handle=h, keys=tf.constant([b"a", b"b"]),
                                      values=tf.constant([1, 2], tf.int64))
    f = tf.raw_ops.LookupTableFind(table_handle=h, keys=inp(V([b"b", b"q", b"a"], "string"), "keys"),
                                   default_value=tf.constant(-1, tf.int64))
    return {"init": [init], "fetches": [f, tf.raw_ops.LookupTableSize(table_handle=h)]}


def _v1_mutable(tf, inp):
    h = tf.raw_ops.MutableHashTable(key_dtype=tf.int64, value_dtype=tf.float32)
    ins = tf.raw_ops.LookupTableInsert(table_handle=h, keys=tf.constant([4, 5], tf.int64),
                                       values=inp(F(2), "values"))
    with tf.control_dependencies([ins]):
        k, v = tf.raw_ops.LookupTableExport(table_handle=h, Tkeys=tf.int64, Tvalues=tf.float32)
    with tf.control_dependencies([k, v]):
        imp = tf.raw_ops.LookupTableImport(table_handle=h, keys=tf.constant([9], tf.int64),
                                           values=tf.constant([0.5]))
    with tf.control_dependencies([imp]):
        f = tf.raw_ops.LookupTableFind(table_handle=h, keys=tf.constant([4, 9], tf.int64),
                                       default_value=tf.constant(-1.0))
    return {"fetches": [tf.raw_ops.Size(input=k), f]}


def _v1_text(tf, inp):
    h = tf.raw_ops.HashTable(key_dtype=tf.string, value_dtype=tf.int64)
    init = tf.raw_ops.InitializeTableFromTextFile(table_handle=h, filename=inp(PATH("lookup/vocab.txt"), "f"),
                                                  key_index=-2, value_index=-1)
    with tf.control_dependencies([init]):
        f = tf.raw_ops.LookupTableFind(table_handle=h, keys=tf.constant([b"date", b"apple", b"x"]),
                                       default_value=tf.constant(-1, tf.int64))
    return {"fetches": [f]}


def _v1_of_tensors(tf, inp):
    h = tf.raw_ops.MutableHashTableOfTensors(key_dtype=tf.string, value_dtype=tf.int64, value_shape=[2])
    ins = tf.raw_ops.LookupTableInsert(table_handle=h, keys=tf.constant([b"k"]),
                                       values=tf.constant([[3, 4]], tf.int64))
    with tf.control_dependencies([ins]):
        f = tf.raw_ops.LookupTableFind(table_handle=h, keys=tf.constant([b"k", b"z"]),
                                       default_value=tf.constant([0, 0], tf.int64))
    return {"fetches": [f]}


for _op in ["HashTable", "InitializeTable", "LookupTableFind", "LookupTableSize"]:
    custom(_op, "v1_static", _v1_static)
for _op in ["MutableHashTable", "LookupTableInsert", "LookupTableExport", "LookupTableImport"]:
    custom(_op, "v1_mutable", _v1_mutable)
custom("InitializeTableFromTextFile", "v1_text", _v1_text)
custom("MutableHashTableOfTensors", "v1_of_tensors", _v1_of_tensors)

# what feature columns build: bucket indices and feature crosses
case("Bucketize", input=V([[-5.0, 0.0, 0.5], [1.0, 10.0, 11.0]], "float32"), boundaries=[0.0, 1.0, 10.0])
case("Bucketize", "f64", input=V([0.1, 0.30000001, 0.3, -1e300], "float64"), boundaries=[0.1, 0.3])
case("Bucketize", "i64", input=V([-3, 0, 2, 3, 100], "int64"), boundaries=[0.0, 2.5, 3.0])
case("Bucketize", "i32_no_boundaries", input=V([-3, 7], "int32"), boundaries=[])
case("Bucketize", "unsorted", input=V([1.0], "float32"), boundaries=[2.0, 1.0], error=True)


def _cross(hashed, num_buckets=0, dense=True, out="int64", internal="int64", key=956888297470, ints=True):
    def build(tf, inp):
        ind_a = tf.constant([[0, 0], [0, 1], [1, 0], [3, 0]], tf.int64)
        val_a = inp(V([b"a", b"bb", b"c", b"d"], "string"), "va")
        ind_b = tf.constant([[0, 0], [1, 0], [1, 1], [3, 2]], tf.int64)
        val_b = inp(V([7, -3, 12, 5], "int64") if ints else V([b"p", b"q", b"r", b"s"], "string"), "vb")
        shape = tf.constant([4, 3], tf.int64)
        dense_in = [inp(V([[b"x", b"y"], [b"z", b"w"], [b"u", b"v"], [b"s", b"t"]], "string"), "d")] if dense else []
        o = tf.raw_ops.SparseCross(indices=[ind_a, ind_b], values=[val_a, val_b], shapes=[shape, shape],
                                   dense_inputs=dense_in, hashed_output=hashed, num_buckets=num_buckets,
                                   hash_key=key, out_type=out, internal_type=internal)
        return {"fetches": list(o)}
    return build


custom("SparseCross", "hashed_buckets", _cross(True, 1000))
custom("SparseCross", "hashed_no_buckets", _cross(True, 0, dense=False))
custom("SparseCross", "strings", _cross(False, out="string", internal="string", ints=False))
custom("SparseCross", "strings_int_internal", _cross(False, out="string", internal="int64"))
custom("SparseCross", "hashed_strings_only", _cross(True, 50, internal="string", ints=False, key=1))

# sets: the last dimension of each input is a set
_SET_A = [[[3, 1, 1, 0], [2, 2, 2, 2]], [[5, 4, 3, 2], [9, 9, 8, 7]]]
_SET_B = [[[1, 5, 3, 3], [7, 8, 9, 2]], [[5, 5, 5, 5], [0, 1, 2, 3]]]
for _op_name in ["a-b", "b-a", "intersection", "union"]:
    case("DenseToDenseSetOperation", _op_name.replace("-", "_minus_"), set1=V(_SET_A, "int32"),
         set2=V(_SET_B, "int32"), set_operation=_op_name)
case("DenseToDenseSetOperation", "strings", set1=V([[b"b", b"a", b""], [b"x", b"x", b"y"]], "string"),
     set2=V([[b"a", b"c", b"c"], [b"z", b"x", b"w"]], "string"), set_operation="union")
case("DenseToDenseSetOperation", "u8_intersection", set1=V([[1, 200, 3]], "uint8"), set2=V([[200, 1, 9]], "uint8"),
     set_operation="intersection")
case("DenseToDenseSetOperation", "bad_operation", set1=V([[1]], "int64"), set2=V([[1]], "int64"),
     set_operation="xor", error=True)
_SP_IND = K([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 1, 2], [1, 1, 3]], "int64")
_SP_SHAPE = K([2, 2, 5], "int64")
for _op_name in ["a-b", "b-a", "intersection", "union"]:
    case("DenseToSparseSetOperation", _op_name.replace("-", "_minus_"), set1=V(_SET_A, "int64"),
         set2_indices=_SP_IND, set2_values=V([3, 7, 2, 9, 4], "int64"), set2_shape=_SP_SHAPE,
         set_operation=_op_name)
    case("SparseToSparseSetOperation", _op_name.replace("-", "_minus_"),
         set1_indices=K([[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 1, 0]], "int64"),
         set1_values=V([b"p", b"q", b"r", b"s"], "string"), set1_shape=K([2, 2, 3], "int64"),
         set2_indices=_SP_IND, set2_values=V([b"q", b"p", b"t", b"s", b"u"], "string"), set2_shape=_SP_SHAPE,
         set_operation=_op_name)
case("SparseToSparseSetOperation", "unordered_indices",
     set1_indices=K([[1, 0], [0, 0]], "int64"), set1_values=V([1, 2], "int32"), set1_shape=K([2, 2], "int64"),
     set2_indices=K([[0, 0]], "int64"), set2_values=V([1], "int32"), set2_shape=K([2, 2], "int64"),
     set_operation="union", error=True)
case("SparseToSparseSetOperation", "mismatched_groups",
     set1_indices=K([[0, 0]], "int64"), set1_values=V([1], "int32"), set1_shape=K([2, 2], "int64"),
     set2_indices=K([[0, 0]], "int64"), set2_values=V([1], "int32"), set2_shape=K([3, 2], "int64"),
     set_operation="union", error=True)
case("SetSize", set_indices=_SP_IND, set_values=V([3, 3, 2, 9, 9], "int64"), set_shape=_SP_SHAPE)
case("SetSize", "strings", set_indices=K([[0, 0], [0, 1], [2, 0]], "int64"),
     set_values=V([b"a", b"b", b"a"], "string"), set_shape=K([3, 4], "int64"))
case("SetSize", "out_of_order", set_indices=K([[0, 1], [0, 0]], "int64"), set_values=V([1, 2], "int32"),
     set_shape=K([2, 3], "int64"), error=True)
# ---- rand: stateless random ops (seeded by a [2] seed; V2 forms by key / counter / alg)
case("StatelessRandomUniform", shape=K([3, 5], "int32"), seed=K([7, 11], "int64"), dtype="float32")
case("StatelessRandomUniform", "f64_i32seed", shape=K([7], "int64"), seed=K([-3, 2], "int32"),
     dtype="float64")
case("StatelessRandomUniform", "f16", shape=K([10], "int32"), seed=K([1, 2], "int64"),
     dtype="float16")
case("StatelessRandomUniform", "bf16", shape=K([9], "int32"), seed=K([1, 2], "int64"),
     dtype="bfloat16")
case("StatelessRandomUniform", "large", shape=K([1000], "int32"), seed=K([123, 456], "int64"),
     dtype="float32")
case("StatelessRandomNormal", shape=K([4, 5], "int32"), seed=K([7, 11], "int64"), dtype="float32")
case("StatelessRandomNormal", "f64", shape=K([9], "int32"), seed=K([2**40, -5], "int64"),
     dtype="float64")
case("StatelessRandomNormal", "large_odd", shape=K([1001], "int32"), seed=K([5, 77], "int32"),
     dtype="float32")
case("StatelessTruncatedNormal", shape=K([4, 5], "int32"), seed=K([7, 11], "int64"),
     dtype="float32")
case("StatelessTruncatedNormal", "f64", shape=K([9], "int32"), seed=K([3, 4], "int64"),
     dtype="float64")
case("StatelessTruncatedNormal", "large", shape=K([999], "int32"), seed=K([9, 3], "int64"),
     dtype="float32")
case("StatelessRandomUniformInt", "i32", shape=K([3, 4], "int32"), seed=K([7, 11], "int64"),
     minval=K(-5, "int32"), maxval=K(17, "int32"))
case("StatelessRandomUniformInt", "i64", shape=K([6], "int32"), seed=K([2, 9], "int32"),
     minval=K(0, "int64"), maxval=K(1000000007, "int64"))
case("StatelessRandomUniformInt", "empty_range", shape=K([2], "int32"), seed=K([2, 9], "int64"),
     minval=V(5, "int32"), maxval=V(5, "int32"), error=True)
case("StatelessRandomUniformFullInt", "u64", shape=K([5], "int32"), seed=K([7, 11], "int64"))
case("StatelessRandomUniformFullInt", "i32", shape=K([2, 5], "int32"), seed=K([7, 11], "int64"),
     dtype="int32")
case("StatelessRandomUniformFullInt", "u32", shape=K([7], "int32"), seed=K([-4, 1], "int32"),
     dtype="uint32")
case("StatelessRandomUniformFullInt", "u32_seed", shape=K([7], "int32"),
     seed=K([4000000000, 1], "uint32"), dtype="uint32", error=True)
case("StatelessRandomUniformFullInt", "i64", shape=K([3], "int64"), seed=K([0, 0], "int64"),
     dtype="int64")
case("StatelessMultinomial", logits=F(3, 4), num_samples=K(6, "int32"), seed=K([5, 6], "int64"))
case("StatelessMultinomial", "i32_out", logits=F(2, 3, dt="float64"), num_samples=K(4, "int32"),
     seed=K([8, 1], "int32"), output_dtype="int32")
case("StatelessMultinomial", "many_classes", logits=F(2, 50), num_samples=K(20, "int32"),
     seed=K([1, 2], "int64"))
case("StatelessRandomGetKeyCounter", seed=K([7, 11], "int64"))
case("StatelessRandomGetAlg")
case("StatelessRandomGetKeyCounterAlg", seed=K([-7, 11], "int32"))
case("StatelessRandomUniformV2", shape=K([3, 5], "int32"), key=K([0x1234567890abcdef], "uint64"),
     counter=K([5, 2**63 + 7], "uint64"), alg=K(1, "int32"), dtype="float32")
case("StatelessRandomUniformV2", "auto_f64", shape=K([7], "int32"), key=K([99], "uint64"),
     counter=K([0, 1], "uint64"), alg=K(3, "int32"), dtype="float64")
case("StatelessRandomNormalV2", shape=K([4, 5], "int32"), key=K([17], "uint64"),
     counter=K([1, 2], "uint64"), alg=K(1, "int32"))
case("StatelessTruncatedNormalV2", shape=K([4, 5], "int32"), key=K([17], "uint64"),
     counter=K([1, 2], "uint64"), alg=K(1, "int32"))
case("StatelessRandomUniformIntV2", "i64", shape=K([6], "int32"), key=K([17], "uint64"),
     counter=K([1, 2], "uint64"), alg=K(1, "int32"), minval=K(-100, "int64"),
     maxval=K(100, "int64"))
case("StatelessRandomUniformFullIntV2", "u64", shape=K([5], "int32"), key=K([17], "uint64"),
     counter=K([1, 2], "uint64"), alg=K(1, "int32"))
case("StatelessRandomUniformFullIntV2", "i32", shape=K([5], "int32"), key=K([17], "uint64"),
     counter=K([1, 2], "uint64"), alg=K(1, "int32"), dtype="int32")

# ---- rand: gamma and Poisson sampling (stateful and stateless), their derivatives
case("RandomGamma", shape=K([5], "int32"), alpha=V([0.5, 1.0, 2.5, 30.0], "float32"), seed=7,
     seed2=11)
case("RandomGamma", "f64_matrix_alpha", shape=K([3, 2], "int64"),
     alpha=V([[0.01, 0.3], [1.0, 7.0]], "float64"), seed=1, seed2=2)
case("RandomGamma", "f16", shape=K([6], "int32"), alpha=V([0.7, 4.0], "float16"), seed=3, seed2=4)
case("RandomGamma", "scalar_alpha_large", shape=K([300], "int32"), alpha=V(3.0, "float32"), seed=5,
     seed2=6)
case("RandomGammaGrad", alpha=F(6, lo=0.1, hi=5.0), sample=F(6, lo=0.05, hi=8.0))
case("RandomGammaGrad", "f64_broadcast", alpha=V([[0.5, 2.0, 20.0]], "float64"),
     sample=V([[0.1, 1.5, 25.0], [3.0, 0.01, 15.0]], "float64"))
case("IgammaGradA", "f64", a=F(8, lo=0.2, hi=6.0, dt="float64"), x=F(8, lo=0.01, hi=9.0, dt="float64"))
case("IgammaGradA", "f32", a=F(5, lo=0.5, hi=3.0), x=F(5, lo=0.1, hi=4.0))
case("RandomPoissonV2", shape=K([6], "int32"), rate=V([0.5, 3.0, 9.9, 10.0, 55.0, 1000.0], "float32"),
     seed=7, seed2=11, dtype="int64")
case("RandomPoissonV2", "f64_out", shape=K([2, 3], "int32"), rate=V([[2.0], [400.0]], "float64"),
     seed=1, seed2=2, dtype="float64")
case("RandomPoissonV2", "int_rate_i32", shape=K([4], "int64"), rate=V([1, 20], "int32"), seed=3,
     seed2=3, dtype="int32")
case("RandomPoissonV2", "f16", shape=K([5], "int32"), rate=V([4.0, 12.0], "float16"), seed=3,
     seed2=3, dtype="float16")
case("StatelessRandomGammaV2", shape=K([5, 4], "int32"), seed=K([7, 11], "int64"),
     alpha=V([0.5, 1.0, 2.5, 30.0], "float32"))
case("StatelessRandomGammaV2", "f64", shape=K([3, 2, 2], "int64"), seed=K([-1, 2], "int32"),
     alpha=V([[0.01, 0.3], [1.0, 7.0]], "float64"))
case("StatelessRandomGammaV2", "bad_shape", shape=K([3, 5], "int32"), seed=K([1, 2], "int64"),
     alpha=V([1.0, 2.0], "float32"), error=True)
case("StatelessRandomGammaV3", shape=K([5, 4], "int32"), key=K([17], "uint64"),
     counter=K([1, 2], "uint64"), alg=K(1, "int32"), alpha=V([0.5, 1.0, 2.5, 30.0], "float32"))
case("StatelessRandomGammaV3", "f64_auto", shape=K([3, 2], "int64"), key=K([5], "uint64"),
     counter=K([0, 9], "uint64"), alg=K(3, "int32"), alpha=V([0.2, 7.0], "float64"))
case("StatelessRandomPoisson", shape=K([4, 3], "int32"), seed=K([7, 11], "int64"),
     lam=V([0.5, 12.0, 300.0], "float32"), dtype="int32")
case("StatelessRandomPoisson", "f64", shape=K([6], "int32"), seed=K([2, 3], "int64"),
     lam=V(4.5, "float64"), dtype="float64")
case("StatelessRandomBinomial", shape=K([4, 6], "int32"), seed=K([7, 11], "int64"),
     counts=V([1.0, 5.0, 30.0, 200.0, 1000.0, 7.0], "float32"),
     probs=V([0.3, 0.9, 0.5, 0.05, 0.7, 0.0], "float32"), dtype="int32")
case("StatelessRandomBinomial", "f64_broadcast", shape=K([3, 2, 4], "int64"),
     seed=K([-1, 2], "int32"), counts=V([[10.0], [500.0]], "float64"),
     probs=V([0.01, 0.2, 0.6, 1.0], "float64"), dtype="float64")
case("StatelessRandomBinomial", "bad_shape", shape=K([3, 5], "int32"), seed=K([1, 2], "int64"),
     counts=V([1.0, 2.0], "float32"), probs=V([0.5, 0.5], "float32"), dtype="int32", error=True)
case("StatelessShuffle", value=V(list(range(20)), "int32"), key=K([17], "uint64"),
     counter=K([1, 2], "uint64"), alg=K(1, "int32"))
case("StatelessShuffle", "rows_string", value=V([[b"a", b"b"], [b"c", b"d"], [b"e", b"f"]], "string"),
     key=K([5], "uint64"), counter=K([0, 9], "uint64"), alg=K(3, "int32"))
case("StatelessShuffle", "large", value=V(np.arange(3000, dtype=np.int64)), key=K([99], "uint64"),
     counter=K([3, 4], "uint64"), alg=K(1, "int32"))
case("RandomIndexShuffle", index=V(list(range(12)), "int64"), seed=K([1, 2, 3], "int64"),
     max_index=K(11, "int64"))
case("RandomIndexShuffle", "scalar_u32", index=V(5, "uint32"), seed=K([7, 8, 9], "uint32"),
     max_index=K(100000, "uint32"))
case("RandomIndexShuffle", "big_range_rows", index=V([0, 1, 2], "int64"),
     seed=K([[1, 2, 3], [4, 5, 6], [7, 8, 9]], "int64"), max_index=V([10, 2**40, 2**62], "int64"),
     rounds=6)
case("RandomIndexShuffle", "i32_pow2", index=V([0, 7, 65535], "int32"), seed=K([3, 2, 1], "int32"),
     max_index=K(65536, "int32"))
case("ParameterizedTruncatedNormal", shape=K([4, 5], "int32"),
     means=V([0.0, 1.0, -2.0, 5.0], "float32"), stdevs=V([1.0, 0.5, 2.0, 1.0], "float32"),
     minvals=V([-1.0, 0.9, 3.0, -np.inf], "float32"), maxvals=V([1.0, 1.1, np.inf, 4.0], "float32"),
     seed=7, seed2=11)
case("ParameterizedTruncatedNormal", "f64_scalars", shape=K([3, 7], "int32"),
     means=V(0.5, "float64"), stdevs=V(2.0, "float64"), minvals=V(-1.0, "float64"),
     maxvals=V(10.0, "float64"), seed=1, seed2=2)
case("ParameterizedTruncatedNormal", "bad_params", shape=K([2, 2], "int32"),
     means=V(0.0, "float32"), stdevs=V(1.0, "float32"), minvals=V(2.0, "float32"),
     maxvals=V(1.0, "float32"), seed=1, seed2=2, error=True)
case("StatelessParameterizedTruncatedNormal", shape=K([6, 4], "int32"), seed=K([7, 11], "int64"),
     means=V([0.0, 1.0, -2.0, 5.0], "float32"), stddevs=V([1.0, 0.5, 2.0, 1.0], "float32"),
     minvals=V([-1.0, 0.9, 3.0, -np.inf], "float32"), maxvals=V([1.0, 1.1, np.inf, 4.0], "float32"))
case("StatelessParameterizedTruncatedNormal", "f64_broadcast", shape=K([5, 2, 3], "int64"),
     seed=K([1, 2], "int32"), means=V([[0.0], [3.0]], "float64"), stddevs=V(1.5, "float64"),
     minvals=V([-0.5, -10.0, 4.0], "float64"), maxvals=V(6.0, "float64"))
case("Betainc", a=F(8, lo=0.1, hi=6.0), b=F(8, lo=0.1, hi=6.0), x=F(8, lo=0.0, hi=1.0))
case("Betainc", "f64_scalars_edges", a=V([0.5, -1.0, 2.0, 2.0, 1e-3, 300.0, 2.0], "float64"),
     b=V(3.0, "float64"), x=V([0.3, 0.5, 1.5, 1.0, 0.999, 0.99, 0.0], "float64"))
case("Betainc", "f64_big_params", a=F(6, lo=20.0, hi=500.0, dt="float64"),
     b=F(6, lo=20.0, hi=500.0, dt="float64"), x=F(6, lo=0.2, hi=0.8, dt="float64"))
_SPECIAL_X = V([-2.0, 0.0, 1e-8, 1e-3, 0.2, 0.5, 1.0, 1.5, 1.6, 3.0, 7.5, 20.0, 39.0, 41.0,
                80.0, 700.0], "float64")
for _op in ("BesselK0", "BesselK0e", "BesselK1", "BesselK1e", "Dawsn", "Expint", "FresnelCos",
            "FresnelSin", "Spence"):
  case(_op, "f64", x=_SPECIAL_X)
  case(_op, x=F(12, lo=0.01, hi=12.0))
case("Dawsn", "negative_large", x=V([-1e9, -300.0, -4.5, -0.15, 1e10], "float64"))
case("FresnelCos", "negative_large", x=V([-1e6, -33.3, -2.2, -0.7, 1e300], "float64"))
case("FresnelSin", "negative_large", x=V([-1e6, -33.3, -2.2, -0.7, 1e300], "float64"))
case("Spence", "large", x=V([0.25, 0.75, 1.25, 2.0, 2.5, 1e6, 1e100], "float64"))

# ---- rand: candidate samplers and accidental hits
_TRUE = V([[1, 2], [3, 4], [5, 0]], "int64")
case("UniformCandidateSampler", "unique", true_classes=_TRUE, num_true=2, num_sampled=5,
     unique=True, range_max=10, seed=7, seed2=11)
case("UniformCandidateSampler", "repeats_big_range", true_classes=_TRUE, num_true=2,
     num_sampled=8, unique=False, range_max=1000003, seed=1, seed2=2)
case("UniformCandidateSampler", "range_too_small", true_classes=_TRUE, num_true=2,
     num_sampled=12, unique=True, range_max=10, seed=1, seed2=2, error=True)
case("LogUniformCandidateSampler", "unique", true_classes=_TRUE, num_true=2, num_sampled=6,
     unique=True, range_max=50, seed=7, seed2=11)
case("LogUniformCandidateSampler", "repeats", true_classes=V([[3], [40]], "int64"), num_true=1,
     num_sampled=10, unique=False, range_max=100000, seed=3, seed2=4)
case("LearnedUnigramCandidateSampler", "unique", true_classes=_TRUE, num_true=2, num_sampled=5,
     unique=True, range_max=10, seed=7, seed2=11)
case("LearnedUnigramCandidateSampler", "repeats", true_classes=V([[3], [3], [3]], "int64"),
     num_true=1, num_sampled=9, unique=False, range_max=37, seed=5, seed2=5)
case("FixedUnigramCandidateSampler", "unique", true_classes=_TRUE, num_true=2, num_sampled=4,
     unique=True, range_max=8, unigrams=[5.0, 1.0, 0.5, 9.0, 3.0, 2.0, 2.0, 0.1], seed=7,
     seed2=11)
case("FixedUnigramCandidateSampler", "reserved_distorted", true_classes=_TRUE, num_true=2,
     num_sampled=12, unique=False, range_max=7, unigrams=[5.0, 1.0, 0.5, 9.0, 3.0],
     num_reserved_ids=2, distortion=0.75, seed=1, seed2=3)
case("FixedUnigramCandidateSampler", "sharded", true_classes=V([[0], [2]], "int64"), num_true=1,
     num_sampled=3, unique=True, range_max=4, unigrams=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
     num_shards=2, shard=1, seed=4, seed2=4)
case("AllCandidateSampler", true_classes=_TRUE, num_true=2, num_sampled=6, unique=True, seed=1,
     seed2=1)
case("UniformCandidateSampler", "true_out_of_range", true_classes=V([[1], [10]], "int64"),
     num_true=1, num_sampled=3, unique=False, range_max=10, seed=1, seed2=2, error=True)
case("ComputeAccidentalHits", true_classes=V([[1, 2], [3, 4], [5, 2]], "int64"),
     sampled_candidates=V([2, 7, 5, 2, 9], "int64"), num_true=2)
case("ComputeAccidentalHits", "none", true_classes=V([[1], [3]], "int64"),
     sampled_candidates=V([2, 7], "int64"), num_true=1)

# ---- misc: tf.print, tf.strings.format, unique_with_counts, edit_distance
case("StringFormat", inputs=[F(2, 3), I(7)], template="a {} b {}", placeholder="{}",
     summarize=2)
case("StringFormat", "all_strings", inputs=[V([[b"x", b"y\n"]], "string"), V(True)],
     template="%s|%s", placeholder="%s", summarize=-1)
case("PrintV2", input=V(b"tfc op fixture: PrintV2", "string"), output_stream="stderr",
     end=" <end>\n")
case("UniqueWithCounts", x=V([4, 1, 4, 7, 1, 1, 9], "int32"))
case("UniqueWithCounts", "string_i64", x=V([b"b", b"a", b"b", b""], "string"), out_idx="int64")
case("EditDistance", hypothesis_indices=K([[0, 0], [0, 1], [0, 2], [1, 0]], "int64"),
     hypothesis_values=V([1, 2, 3, 4], "int32"), hypothesis_shape=K([3, 3], "int64"),
     truth_indices=K([[0, 0], [0, 1], [2, 0], [2, 1]], "int64"),
     truth_values=V([1, 5, 7, 8], "int32"), truth_shape=K([3, 2], "int64"))
case("EditDistance", "strings_raw", normalize=False,
     hypothesis_indices=K([[0, 0, 0], [1, 0, 0]], "int64"),
     hypothesis_values=V([b"a", b"b"], "string"), hypothesis_shape=K([2, 1, 1], "int64"),
     truth_indices=K([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], "int64"),
     truth_values=V([b"a", b"b", b"c", b"a"], "string"), truth_shape=K([2, 2, 2], "int64"))



def _scatter_nd_ref_case(op, dup=False):
    def build(tf, inp):
        base = (_rng(op).uniform(0.5, 3, (4, 3, 2))).astype("float32")
        v, init = _var(tf, base, "v")
        idx = inp(V([[3, 1], [0, 2], [3, 1]] if dup else [[3, 1], [0, 2]], "int32"), "indices")
        upd = inp(F(3 if dup else 2, 2, lo=0.5, hi=2), "updates")
        out = getattr(tf.raw_ops, op)(ref=v, indices=idx, updates=upd)
        return {"init": [init], "fetches": [out]}
    return build


for _op in ["ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub"]:
    custom(_op, "f32", _scatter_nd_ref_case(_op))
custom("ScatterNdAdd", "f32_dup_indices", _scatter_nd_ref_case("ScatterNdAdd", dup=True))
case("EncodeWav", audio=F(5, 2, lo=-1.2, hi=1.2), sample_rate=K(16000, "int32"))
_WAV = bytes.fromhex("524946462c00000057415645666d74201000000001000200803e000000fa0000"
                     "04001000646174610800000000004000010080ff")
case("DecodeWav", contents=V(_WAV, "string"))
case("DecodeWav", "desired", contents=V(_WAV, "string"), desired_channels=3, desired_samples=4)
_FQ_X = F(4, 6, lo=-7, hi=7)
case("FakeQuantWithMinMaxArgs", inputs=_FQ_X)
case("FakeQuantWithMinMaxArgs", "bits5_narrow", inputs=_FQ_X, min=-3.1, max=5.3, num_bits=5,
     narrow_range=True)
case("FakeQuantWithMinMaxArgs", "edges", inputs=V([-6.0, 6.0, 0.0, -6.03, 6.02, 0.0234], "float32"))
case("FakeQuantWithMinMaxArgsGradient", gradients=F(4, 6), inputs=_FQ_X, min=-2.0, max=3.0)
case("FakeQuantWithMinMaxArgs", "bad_range", error=True, inputs=_FQ_X, min=1.0, max=0.5)
case("FakeQuantWithMinMaxVars", inputs=_FQ_X, min=V(-0.7, "float32"), max=V(2.9, "float32"),
     num_bits=4)
case("FakeQuantWithMinMaxVars", "zero_range", inputs=_FQ_X, min=V(0.0, "float32"),
     max=V(0.0, "float32"))
case("FakeQuantWithMinMaxVars", "positive_range", inputs=_FQ_X, min=V(0.3, "float32"),
     max=V(4.4, "float32"), narrow_range=True)
case("FakeQuantWithMinMaxVarsGradient", gradients=F(4, 6), inputs=_FQ_X, min=V(-0.7, "float32"),
     max=V(2.9, "float32"))
case("FakeQuantWithMinMaxVarsGradient", "zero_range", gradients=F(4, 6), inputs=_FQ_X,
     min=V(0.0, "float32"), max=V(0.0, "float32"))
case("FakeQuantWithMinMaxVarsPerChannel", inputs=_FQ_X,
     min=V(np.linspace(-3, -0.5, 6), "float32"), max=V(np.linspace(1, 7, 6), "float32"))
case("FakeQuantWithMinMaxVarsPerChannel", "bits3", inputs=F(2, 3, 4, lo=-3, hi=3),
     min=V([-1.0, -2.0, 0.5, -0.2], "float32"), max=V([1.0, 0.1, 2.5, 3.0], "float32"), num_bits=3)
case("FakeQuantWithMinMaxVarsPerChannelGradient", gradients=F(4, 6), inputs=_FQ_X,
     min=V(np.linspace(-3, -0.5, 6), "float32"), max=V(np.linspace(1, 7, 6), "float32"))


def _quantize_case(T, mode, lo, hi, axis=-1, **kw):
    def build(tf, inp):
        x = inp(F(3, 4, 5, lo=-4, hi=6), "x")
        q = tf.raw_ops.QuantizeV2(input=x, min_range=tf.constant(np.float32(lo)),
                                  max_range=tf.constant(np.float32(hi)), T=getattr(tf, T),
                                  mode=mode, axis=axis, **kw)
        d = tf.raw_ops.Dequantize(input=q.output, min_range=q.output_min,
                                  max_range=q.output_max, mode=mode, axis=axis,
                                  narrow_range=kw.get("narrow_range", False))
        return {"fetches": [q.output, q.output_min, q.output_max, d]}
    return build


for _T in ["quint8", "qint8", "quint16", "qint16", "qint32"]:
    for _mode in ["MIN_COMBINED", "MIN_FIRST", "SCALED"]:
        custom("QuantizeV2", "%s_%s" % (_T, _mode), _quantize_case(_T, _mode, -1.3, 4.7))
        custom("Dequantize", "%s_%s" % (_T, _mode), _quantize_case(_T, _mode, 0.5, 3.0))
custom("QuantizeV2", "scaled_even_narrow", _quantize_case("qint8", "SCALED", -2.0, 5.0,
                                                           round_mode="HALF_TO_EVEN",
                                                           narrow_range=True))
custom("QuantizeV2", "axis1", _quantize_case("qint8", "SCALED", [-1., -2., 0.5, -3.],
                                             [1., 2.5, 3., 0.2], axis=1))
custom("Dequantize", "axis1", _quantize_case("quint8", "MIN_COMBINED", [-1., -2., 0.5, -3.],
                                             [1., 2.5, 3., 0.2], axis=1))
custom("QuantizeV2", "even_needs_scaled", _quantize_case("quint8", "MIN_COMBINED", -1.0, 1.0,
                                                         round_mode="HALF_TO_EVEN"), error=True)
_QDQ_X = F(4, 5, lo=-5, hi=3)
case("QuantizeAndDequantizeV2", input=_QDQ_X, input_min=V(0.0, "float32"),
     input_max=V(0.0, "float32"))
case("QuantizeAndDequantizeV2", "given_unsigned_half_up", input=_QDQ_X,
     input_min=V(0.5, "float32"), input_max=V(4.0, "float32"), range_given=True,
     signed_input=False, num_bits=4, round_mode="HALF_UP")
case("QuantizeAndDequantizeV2", "given_narrow_f64", input=F(4, 5, lo=-5, hi=3, dt="float64"),
     input_min=V(-2.0, "float64"), input_max=V(3.0, "float64"), range_given=True,
     narrow_range=True, num_bits=6)
case("QuantizeAndDequantizeV2", "axis1", input=F(2, 3, 4, lo=-2, hi=4),
     input_min=V([0.0, 0.0, 0.0], "float32"), input_max=V([0.0, 0.0, 0.0], "float32"), axis=1)
case("QuantizeAndDequantizeV3", input=_QDQ_X, input_min=V(-2.0, "float32"),
     input_max=V(3.0, "float32"), num_bits=V(5, "int32"))
case("QuantizeAndDequantizeV3", "data_range", input=_QDQ_X, input_min=V(0.0, "float32"),
     input_max=V(0.0, "float32"), num_bits=V(3, "int32"), range_given=False, signed_input=False)
case("UnsortedSegmentJoin", inputs=V([[b"a", b"b"], [b"", b"d"], [b"e", b""]], "string"),
     segment_ids=V([2, 0, 2], "int32"), num_segments=K(4, "int32"), separator="::")
case("UnsortedSegmentJoin", "nd_ids_i64", inputs=V([[b"a", b"b"], [b"c", b"d"]], "string"),
     segment_ids=V([[0, 1], [1, 0]], "int64"), num_segments=K(2, "int64"))
case("UnsortedSegmentJoin", "out_of_range", error=True, inputs=V([b"a", b"b"], "string"),
     segment_ids=V([0, 2], "int32"), num_segments=K(2, "int32"))
case("StringNGrams", data=V([b"a", b"b", b"c", b"d", b"e", b"f"], "string"),
     data_splits=V([0, 4, 4, 6], "int64"), separator=" ", ngram_widths=[1, 3], left_pad="<",
     right_pad=">", pad_width=-1, preserve_short_sequences=False)
case("StringNGrams", "short_i32", data=V([b"a", b"b", b"c", b"d", b"e"], "string"),
     data_splits=V([0, 1, 5], "int32"), separator="_", ngram_widths=[4], left_pad="",
     right_pad="", pad_width=0, preserve_short_sequences=True)
case("StringNGrams", "bad_splits", error=True, data=V([b"a", b"b"], "string"),
     data_splits=V([0, 3], "int64"), separator=" ", ngram_widths=[2], left_pad="",
     right_pad="", pad_width=0, preserve_short_sequences=False)


def _quantized_concat_case(T, axis):
    def build(tf, inp):
        qs = []
        for i, (shape, lo, hi) in enumerate([((2, 3), -1.0, 2.0), ((2, 2), 0.0, 5.0),
                                             ((2, 1), -3.0, 0.25)]):
            if axis == 0:
                shape = shape[::-1]
            x = inp(F(*shape, lo=-4, hi=6), "x%d" % i)
            qs.append(tf.raw_ops.QuantizeV2(input=x, min_range=tf.constant(np.float32(lo)),
                                            max_range=tf.constant(np.float32(hi)),
                                            T=getattr(tf, T), mode="MIN_FIRST"))
        c = tf.raw_ops.QuantizedConcat(concat_dim=tf.constant(axis),
                                       values=[q.output for q in qs],
                                       input_mins=[q.output_min for q in qs],
                                       input_maxes=[q.output_max for q in qs])
        return {"fetches": list(c)}
    return build


custom("QuantizedConcat", "quint8_axis1", _quantized_concat_case("quint8", 1))
custom("QuantizedConcat", "qint32_axis0", _quantized_concat_case("qint32", 0))

# ---------------------------------------------------------------- building and running

def _tf():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    tf.disable_control_flow_v2()
    return tf


def _config(tf):
    """A session config that runs the graph as written: no Grappler, no
    constant folding or CSE, one thread per pool (reproducible float sums)."""
    cfg = tf.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
    cfg.graph_options.rewrite_options.disable_meta_optimizer = True
    cfg.graph_options.optimizer_options.opt_level = tf.OptimizerOptions.L0
    cfg.graph_options.optimizer_options.do_constant_folding = False
    cfg.graph_options.optimizer_options.do_common_subexpression_elimination = False
    cfg.graph_options.optimizer_options.do_function_inlining = False
    return cfg


def build_op_graph(tf, op, cases):
    """Builds every case of op in one graph; returns (GraphDef, [case record],
    {key: value}) with the feed values in the data dict."""
    g = tf.Graph()
    records, data = [], {}
    with g.as_default():
        for name, (kind, payload, rtol, why) in cases:
            if kind == "custom":
                expect_error, why = why, None
            rng = _rng(op + "/" + name)
            feeds = {}     # tensor -> value
            rec = {"name": name, "feeds": [], "fetches": [], "targets": [], "init": []}
            file_feeds, path_feeds, tmp_feeds = {}, {}, {}

            def inp(spec, argname):
                if spec.file or spec.path or spec.tmp:
                    t = tf.placeholder(tf.string, [], name=argname)
                    if spec.file:
                        file_feeds[t.name] = spec.file
                    elif spec.path:
                        path_feeds[t.name] = spec.path
                    else:
                        tmp_feeds[t.name] = spec.tmp
                    return t
                value = spec.make(rng)
                dt = tf.string if value.dtype == object else tf.as_dtype(value.dtype)
                if spec.const:
                    return tf.constant(value, dtype=dt, name=argname)
                t = tf.placeholder(dt, value.shape, name=argname)
                feeds[t] = value
                return t

            with g.name_scope(name):
                if kind == "raw":
                    kwargs = {}
                    if payload.get("__error__"):
                        rec["error"] = True
                    for k, v in payload.items():
                        if k == "__error__":
                            continue
                        if isinstance(v, Spec):
                            kwargs[k] = inp(v, k)
                        elif isinstance(v, list) and v and isinstance(v[0], Spec):
                            kwargs[k] = [inp(s, "%s_%d" % (k, i)) for i, s in enumerate(v)]
                        elif k in ("DstT", "dtype", "out_type", "output_type", "out_idx",
                                   "output_dtype", "U", "T") and isinstance(v, str):
                            kwargs[k] = tf.as_dtype(v)
                        else:
                            kwargs[k] = v
                    getattr(tf.raw_ops, op)(name=op, **kwargs)
                    node = g.get_operation_by_name(name + "/" + op)
                    if node.outputs:
                        rec["fetches"] = [t.name for t in node.outputs]
                    else:
                        rec["targets"] = [node.name]
                    after = []
                else:
                    if expect_error:
                        rec["error"] = True
                    built = payload(tf, inp)
                    for t, v in built.get("extra_feeds", {}).items():
                        feeds[t] = v
                    rec["fetches"] = [t.name for t in built.get("fetches", [])]
                    rec["targets"] = [o.name for o in built.get("targets", [])]
                    rec["init"] = [o.name for o in built.get("init", [])]
                    after = [t.name for t in built.get("after", [])]
                    if after:
                        rec["after"] = after
            for i, (t, v) in enumerate(feeds.items()):
                rec["feeds"].append(t.name)
                _put(data, "%s.feed%d" % (name, i), v)
            if file_feeds:
                rec["file_feeds"] = file_feeds
            if path_feeds:
                rec["path_feeds"] = path_feeds
            if tmp_feeds:
                rec["tmp_feeds"] = tmp_feeds
            if rtol is not None:
                rec["rtol"], rec["why"] = rtol, why
            records.append(rec)
    return g.as_graph_def(), records, data


def _put(data, key, value):
    """Stores value under key; string tensors as bytes + lengths."""
    value = np.asarray(value)
    if value.dtype.kind in "OSU":
        items = [x if isinstance(x, bytes) else str(x).encode() for x in value.reshape(-1)]
        data[key + ".bytes"] = np.frombuffer(b"".join(items), np.uint8)
        data[key + ".lens"] = np.array([len(x) for x in items], np.int64).reshape(value.shape)
    elif value.dtype.name == "bfloat16":
        data[key + ".bfloat16"] = value.view(np.uint16)
    else:
        data[key] = value


def _get(data, key):
    if key + ".lens" in data:
        lens = data[key + ".lens"]
        raw = data[key + ".bytes"].tobytes()
        out, pos = [], 0
        for n in lens.reshape(-1):
            out.append(raw[pos:pos + n])
            pos += n
        return np.array(out, dtype=object).reshape(lens.shape)
    if key + ".bfloat16" in data:
        import ml_dtypes
        return data[key + ".bfloat16"].view(ml_dtypes.bfloat16)
    return data[key]


def run_case(tf, graph_def, rec, data, tmpdir):
    """Runs one case of graph_def in TensorFlow as the test runs it in tfc:
    init targets in a step of their own, then fetches + targets in one step,
    then the "after" fetches. Returns (outputs, written files)."""
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(graph_def, name="")
    feed = {}
    for i, name in enumerate(rec["feeds"]):
        feed[g.get_tensor_by_name(name)] = _get(data, "%s.feed%d" % (rec["name"], i))
    for name, rel in rec.get("file_feeds", {}).items():
        with open(os.path.join(FIXTURES, rel), "rb") as f:
            feed[g.get_tensor_by_name(name)] = f.read()
    for name, rel in rec.get("path_feeds", {}).items():
        feed[g.get_tensor_by_name(name)] = os.path.join(FIXTURES, rel).encode()
    for name, fname in rec.get("tmp_feeds", {}).items():
        feed[g.get_tensor_by_name(name)] = os.path.join(tmpdir, fname).encode()
    with tf.Session(graph=g, config=_config(tf)) as sess:
        for op in rec["init"]:
            sess.run(g.get_operation_by_name(op))
        fetches = [g.get_tensor_by_name(n) for n in rec["fetches"]]
        targets = [g.get_operation_by_name(n) for n in rec["targets"]]
        try:
            outs = sess.run(fetches + targets, feed)[:len(fetches)]
        except tf.errors.OpError as e:
            if not rec.get("error"):
                raise
            return type(e).__name__, {}
        assert not rec.get("error"), "%s: TF did not fail" % rec["name"]
        after = [g.get_tensor_by_name(n) for n in rec.get("after", [])]
        outs += sess.run(after) if after else []
    files = {}
    for fname in rec.get("tmp_feeds", {}).values():
        # the file itself, or the files of a checkpoint prefix ("<name>.index", ...)
        for entry in sorted(os.listdir(tmpdir)):
            if entry == fname or entry.startswith(fname + "."):
                with open(os.path.join(tmpdir, entry), "rb") as f:
                    files[entry] = f.read()
    return outs, files


def _manifest_text(manifest):
    """The manifest as JSON, one case per line (short diffs, small file)."""
    lines = ["{"]
    keys = ["tensorflow", "tolerance", "skipped", "uncovered", "unregistered", "differs"]
    for k in keys:
        lines.append(" %s: %s," % (json.dumps(k), json.dumps(manifest[k], indent=None)))
    lines.append(' "ops": {')
    ops = sorted(manifest["ops"])
    for i, op in enumerate(ops):
        e = manifest["ops"][op]
        lines.append("  %s: {\"graph\": %s, \"data\": %s, \"cases\": [" % (
            json.dumps(op), json.dumps(e["graph"]), json.dumps(e["data"])))
        for j, rec in enumerate(e["cases"]):
            lines.append("   " + json.dumps(rec) + ("," if j + 1 < len(e["cases"]) else ""))
        lines.append("  ]}" + ("," if i + 1 < len(ops) else ""))
    lines.append(" }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def registered_tfc_ops(python):
    """The op types the installed tfc registers (via its venv's python)."""
    code = "from tfc import _tfc; print('\\n'.join(sorted(_tfc.op_names())))"
    out = subprocess.run([python, "-c", code], cwd=tempfile.gettempdir(), check=True,
                         capture_output=True, text=True).stdout
    return [line for line in out.split() if line]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="comma-separated op types to (re)write")
    ap.add_argument("--tfc-python", default=os.path.join(REPO, ".venv", "bin", "python"),
                    help="python of the venv with tfc installed (for the registered op list)")
    args = ap.parse_args(argv)
    tf = _tf()
    write_checkpoint_fixture(tf)
    by_op = {}
    for op, name, spec in CASES:
        by_op.setdefault(op, []).append((name, spec))
    for op, cases in by_op.items():
        names = [n for n, _ in cases]
        assert len(set(names)) == len(names), "duplicate case names for " + op
    only = set(args.only.split(",")) if args.only else None
    os.makedirs(OUT, exist_ok=True)
    manifest_path = os.path.join(OUT, "manifest.json")
    manifest = {"ops": {}}
    if only and os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    for op in sorted(by_op):
        if only and op not in only:
            continue
        graph_def, records, data = build_op_graph(tf, op, by_op[op])
        for rec in records:
            with tempfile.TemporaryDirectory() as tmpdir:
                outs, files = run_case(tf, graph_def, rec, data, tmpdir)
            if isinstance(outs, str):
                rec["error"] = outs
                continue
            skip = DIFFERS.get("%s/%s" % (op, rec["name"]), {}).get("skip_outputs", [])
            for i, value in enumerate(outs):
                if i in skip:  # undefined in TF: stored as zeros, stable across runs
                    value = np.zeros_like(value)
                _put(data, "%s.fetch%d" % (rec["name"], i), value)
            for fname, content in files.items():
                key = "%s.file.%s" % (rec["name"], fname)
                _put(data, key, np.array(content, dtype=object))
                rec.setdefault("files", {})[fname] = key
        with open(os.path.join(OUT, op + ".pb"), "wb") as f:
            f.write(graph_def.SerializeToString(deterministic=True))
        np.savez_compressed(os.path.join(OUT, op + ".npz"), **data)
        manifest["ops"][op] = {"graph": op + ".pb", "data": op + ".npz", "cases": records}
        print("%-40s %d case(s)" % (op, len(records)))
    registered = registered_tfc_ops(args.tfc_python)
    manifest["tensorflow"] = tf.__version__
    manifest["tolerance"] = TOLERANCE
    manifest["skipped"] = dict(sorted(SKIPPED.items()))
    manifest["differs"] = dict(sorted(DIFFERS.items()))
    cases = {"%s/%s" % (op, rec["name"]) for op, e in manifest["ops"].items() for rec in e["cases"]}
    assert set(DIFFERS) <= cases, "DIFFERS names unknown cases: %s" % (set(DIFFERS) - cases)
    manifest["uncovered"] = sorted(o for o in registered
                                   if o not in manifest["ops"] and o not in SKIPPED)
    manifest["unregistered"] = sorted(o for o in manifest["ops"] if o not in registered)
    manifest["ops"] = dict(sorted(manifest["ops"].items()))
    with open(manifest_path, "w") as f:
        f.write(_manifest_text(manifest))
    print("%d op types with cases, %d skipped, uncovered: %s"
          % (len(manifest["ops"]), len(SKIPPED), " ".join(manifest["uncovered"]) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
