"""Variable, random and logging kernels driven through tfc._tfc directly.

Graphs are built with Graph._add_op (no Python Variable class involved), so
these tests pin the C kernels' TF 1.x behaviour: ref variables with
copy-on-write updates, TF's error messages, random streams equal to
TensorFlow's bit for bit (values recorded from TensorFlow 2.21 graph mode with
tf.raw_ops.* and seed=7, seed2=3), and Print / Assert output.
"""

import numpy as np
import pytest

from tfc import _tfc

F32, F64, I32, STR, I64, BOOL, HALF = 1, 2, 3, 7, 9, 10, 19


def kernels(*ops):
    missing = [o for o in ops if o not in _tfc.op_names() or not _tfc.kernel_exists(o)]
    return pytest.mark.skipif(bool(missing), reason="no CPU kernel for %s" % missing)


class OpError(Exception):
    code = None

    def __init__(self, node_def, op, message):
        super().__init__(message)
        self.node_def, self.op, self.message = node_def, op, message


def _error_class(code):
    return type("Error%d" % code, (OpError,), {"code": code})


@pytest.fixture
def errors():
    """Registers simple error classes (code attribute) and restores the package's."""
    saved = _tfc._registered()
    _tfc.set_error_classes({c: _error_class(c) for c in range(1, 17)})
    yield
    _tfc.set_error_classes(saved["error_classes"])


def op(g, op_type, name, inputs=(), **attrs):
    return g._add_op(op_type, name, list(inputs), attrs, None, None)


def const(g, name, value, dtype=None):
    value = np.asarray(value, dtype=dtype)
    code = {np.dtype(np.float32): F32, np.dtype(np.float64): F64, np.dtype(np.int32): I32,
            np.dtype(np.int64): I64, np.dtype(object): STR, np.dtype(bool): BOOL}[value.dtype]
    return op(g, "Const", name, dtype=code, value=value).outputs[0]


def variable(g, name, shape, dtype=F32):
    return op(g, "VariableV2", name, shape=shape, dtype=dtype).outputs[0]


# ---------------------------------------------------------------- variables

@kernels("VariableV2", "Assign", "AssignAdd", "AssignSub", "Identity", "IsVariableInitialized")
def test_variable_lifecycle_and_copy_on_write(errors):
    g = _tfc.Graph()
    v = variable(g, "v", (2,))
    assert v._dtype_enum == F32 + 100
    init = op(g, "Assign", "v/Assign", [v, const(g, "init", [1.0, 2.0], np.float32)])
    read = op(g, "Identity", "v/read", [v]).outputs[0]
    add = op(g, "AssignAdd", "v/AssignAdd", [v, const(g, "d", [10.0, 20.0], np.float32)])
    sub = op(g, "AssignSub", "v/AssignSub", [v, const(g, "e", [1.0, 1.0], np.float32)])
    is_init = op(g, "IsVariableInitialized", "v/IsInit", [v]).outputs[0]
    s = _tfc.Session(g)
    assert s.run(is_init) == False  # noqa: E712
    with pytest.raises(OpError) as e:
        s.run(read)
    assert e.value.code == 9
    assert "Attempting to use uninitialized value v" in e.value.message
    s.run(init)
    first = s.run(read)
    np.testing.assert_array_equal(first, [1.0, 2.0])
    after_add = s.run(add.outputs[0])
    np.testing.assert_array_equal(after_add, [11.0, 22.0])
    s.run(sub)
    np.testing.assert_array_equal(s.run(read), [10.0, 21.0])
    # Arrays handed to Python never change behind their back.
    np.testing.assert_array_equal(first, [1.0, 2.0])
    np.testing.assert_array_equal(after_add, [11.0, 22.0])
    assert s.run(is_init) == True  # noqa: E712


@kernels("VariableV2", "Assign")
def test_assign_shape_errors(errors):
    g = _tfc.Graph()
    v = variable(g, "v", (2,))
    with pytest.raises(ValueError) as e:
        op(g, "Assign", "bad", [v, const(g, "three", [1.0, 2.0, 3.0], np.float32)])
    assert ("Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]."
            in str(e.value))
    # validate_shape=False accepts another shape; validation then uses the value's shape.
    c3 = const(g, "c3", [1.0, 2.0, 3.0], np.float32)
    loose = op(g, "Assign", "loose", [v, c3], validate_shape=False)
    u = variable(g, "u", None)
    strict = op(g, "Assign", "strict", [u, c3])
    s = _tfc.Session(g)
    np.testing.assert_array_equal(s.run(loose.outputs[0]), [1.0, 2.0, 3.0])
    with pytest.raises(OpError) as e:
        s.run(strict)
    assert e.value.code == 3
    assert ("Assign requires shapes of both tensors to match. lhs shape= [] rhs shape= [3]"
            in e.value.message)


@kernels("VariableV2", "Assign", "ApplyGradientDescent", "ApplyMomentum", "ApplyAdam",
         "ApplyRMSProp")
def test_training_updates_match_tf(errors):
    g = _tfc.Graph()
    grad = const(g, "grad", [0.5, -1.5, 2.25], np.float32)

    def var(name, values):
        v = variable(g, name, (3,))
        return v, op(g, "Assign", name + "/Assign", [v, const(g, name + "/init", values, np.float32)])

    v1, i1 = var("v1", [1.0, 2.0, -3.0])
    v2, i2 = var("v2", [1.0, 2.0, -3.0])
    a2, ia2 = var("a2", [0.1, 0.2, 0.3])
    v3, i3 = var("v3", [1.0, 2.0, -3.0])
    m3, im3 = var("m3", [0.1, -0.2, 0.3])
    s3, is3 = var("s3", [0.01, 0.02, 0.03])
    v4, i4 = var("v4", [1.0, 2.0, -3.0])
    ms4, ims4 = var("ms4", [0.1, 0.2, 0.3])
    mo4, imo4 = var("mo4", [0.01, -0.02, 0.03])
    scal = {}

    def c(x):
        if x not in scal:
            scal[x] = const(g, "k%d" % len(scal), np.float32(x))
        return scal[x]

    gd = op(g, "ApplyGradientDescent", "gd", [v1, c(0.1), grad])
    mom = op(g, "ApplyMomentum", "mom", [v2, a2, c(0.1), grad, c(0.9)])
    adam = op(g, "ApplyAdam", "adam", [v3, m3, s3, c(0.9 * 0.9), c(0.999 * 0.999), c(0.01),
                                       c(0.9), c(0.999), c(1e-8), grad])
    rms = op(g, "ApplyRMSProp", "rms", [v4, ms4, mo4, c(0.01), c(0.9), c(0.5), c(1e-7), grad])
    s = _tfc.Session(g)
    s.run([i1, i2, ia2, i3, im3, is3, i4, ims4, imo4])
    s.run([gd, mom, adam, rms])
    bits = lambda t: [hex(b) for b in s.run(t).view(np.uint32)]
    assert bits(v1) == ["0x3f733333", "0x4009999a", "0xc04e6666"]
    assert bits(v2) == ["0x3f70e560", "0x400872b0", "0xc05020c5"]
    assert bits(a2) == ["0x3f170a3d", "0xbfa8f5c3", "0x402147ae"]
    assert bits(v3) == ["0x3f7f2aa4", "0x40005555", "0xc04065f7"]
    assert bits(m3) == ["0x3e0f5c2a", "0xbea8f5c4", "0x3efd70a6"]
    assert bits(s3) == ["0x3c27c5a9", "0x3cb61ba1", "0x3d0f7e2c"]
    assert bits(v4) == ["0x3f7af20c", "0x40022604", "0xc042982b"]
    assert bits(ms4) == ["0x3deb8520", "0x3ecf5c2a", "0x3f46b854"]
    assert bits(mo4) == ["0x3ca1be90", "0xbd0980ee", "0x3d260ad9"]


# ---------------------------------------------------------------- random

def _random(g, op_type, name, shape, **extra):
    return op(g, op_type, name, [const(g, name + "/shape", np.array(shape, np.int32))] +
              extra.pop("inputs", []), seed=7, seed2=3, **extra).outputs[0]


@kernels("RandomUniform", "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt",
         "RandomShuffle")
def test_random_streams_match_tf():
    g = _tfc.Graph()
    u = _random(g, "RandomUniform", "u", [5], dtype=F32)
    n = _random(g, "RandomStandardNormal", "n", [5], dtype=F32)
    t = _random(g, "TruncatedNormal", "t", [6], dtype=F32)
    ud = _random(g, "RandomUniform", "ud", [3], dtype=F64)
    ui = _random(g, "RandomUniformInt", "ui", [5],
                 inputs=[const(g, "lo", np.int32(-10)), const(g, "hi", np.int32(100))])
    sh = op(g, "RandomShuffle", "sh", [const(g, "r10", np.arange(10, dtype=np.int32))],
            seed=7, seed2=3).outputs[0]
    assert u._shape == (5,)
    s = _tfc.Session(g)
    runs = [s.run([u, n, t, ud, ui, sh]) for _ in range(2)]
    u32 = lambda a: a.view(np.uint32).tolist()
    assert u32(runs[0][0]) == [1053645668, 1052832008, 1050565536, 1035231488, 1061092764]
    assert u32(runs[1][0]) == [1055928740, 1044598520, 1061430796, 1021176128, 1063211500]
    assert u32(runs[0][1]) == [1064425500, 3212279704, 1062084539, 1067897615, 1046220784]
    assert u32(runs[1][1]) == [1066578092, 1055208467, 1040001631, 1060643107, 3204577908]
    assert u32(runs[0][2]) == [1064425500, 3212279704, 1062084539, 1067897615, 3193964534,
                               3209563621]
    assert u32(runs[1][2]) == [3206025589, 3210204725, 3127005663, 1060646139, 3205084469,
                               1069834309]
    assert runs[0][3].view(np.uint64).tolist() == [4596687344047874576, 4602216622276286528,
                                                   4606898319253596080]
    assert runs[0][4].tolist() == [-7, 28, 70, 98, 12]
    assert runs[1][4].tolist() == [53, 81, 22, 89, 50]
    assert runs[0][5].tolist() == [3, 4, 2, 9, 8, 5, 1, 6, 7, 0]
    assert runs[1][5].tolist() == [2, 9, 6, 7, 1, 0, 8, 5, 3, 4]


@kernels("RandomStandardNormal", "TruncatedNormal")
def test_random_distributions():
    g = _tfc.Graph()
    n = op(g, "RandomStandardNormal", "n", [const(g, "s1", np.array([100000], np.int32))],
           dtype=F32).outputs[0]
    t = op(g, "TruncatedNormal", "t", [const(g, "s2", np.array([100000], np.int32))],
           dtype=F32).outputs[0]
    s = _tfc.Session(g)
    a, b = s.run([n, t])
    assert abs(a.mean()) < 0.02 and abs(a.std() - 1.0) < 0.02
    assert abs(b.mean()) < 0.02 and abs(b.std() - 0.8796) < 0.02
    assert np.all(np.abs(b) < 2.0)
    a2 = s.run(n)
    assert not np.array_equal(a, a2)


# ---------------------------------------------------------------- logging

@kernels("Print")
def test_print_writes_summary_to_stderr(capsys):
    g = _tfc.Graph()
    x = const(g, "x", np.array([1, 2, 3, 4, 5], np.int32))
    m = const(g, "m", np.array([[1.5, 2, 3], [4, 5, 6]], np.float32))
    p = op(g, "Print", "p", [x, [x, m]], message="portion is").outputs[0]
    s = _tfc.Session(g)
    np.testing.assert_array_equal(s.run(p), [1, 2, 3, 4, 5])
    assert capsys.readouterr().err == "portion is[1 2 3...][[1.5 2 3]...]\n"


@kernels("Assert")
def test_assert_failure_message(errors):
    g = _tfc.Graph()
    ok = op(g, "Assert", "ok", [const(g, "t", True), [const(g, "a", np.int32(1))]])
    bad = op(g, "Assert", "bad", [const(g, "f", False),
                                  [const(g, "v", np.array([1, 2, 3, 4], np.int32)),
                                   const(g, "hi", np.array("hi", dtype=object))]])
    s = _tfc.Session(g)
    s.run(ok)
    with pytest.raises(OpError) as e:
        s.run(bad)
    assert e.value.code == 3
    assert "assertion failed: [1 2 3...] [hi]" in e.value.message
