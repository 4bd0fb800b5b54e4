"""Low-level tests of the extension module tfc._tfc, called directly.

These exercise the C boundary itself: graph building through Graph._add_op,
object identity of Operations/Tensors, attr conversion, Session.run's fetch
and feed handling with TF 1.15's messages, zero-copy conversion, error
mapping, reference counts, and concurrent runs. Ops whose CPU kernels are not
registered yet are skipped rather than failed.
"""

import collections
import gc
import io
import sys
import threading
import weakref

import numpy as np
import pytest

from tfc import _tfc

F32, F64, I32, U8, I16, I8, STR, C64, I64, BOOL = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
HALF = 19


# ---------------------------------------------------------------- helpers

def kernels(*ops):
    missing = [o for o in ops if o not in _tfc.op_names() or not _tfc.kernel_exists(o)]
    return pytest.mark.skipif(bool(missing), reason="no CPU kernel for %s" % missing)


def placeholder(g, name, dtype=F32, shape=None):
    return g._add_op("Placeholder", name, [], {"dtype": dtype, "shape": shape}, None, None).outputs[0]


def add(g, name, x, y):
    return g._add_op("AddV2", name, [x, y], {}, None, None).outputs[0]


def const(g, name, value):
    value = np.asarray(value)
    dtype = {np.dtype(np.float32): F32, np.dtype(np.float64): F64, np.dtype(np.int32): I32,
             np.dtype(np.int64): I64, np.dtype(object): STR}[value.dtype]
    return g._add_op("Const", name, [], {"dtype": dtype, "value": value}, None, None).outputs[0]


@pytest.fixture
def bare():
    """Clears what the package registered with _tfc (handlers, classes, errors) and restores it."""
    saved = _tfc._registered()
    base_op, base_tensor = saved["base_classes"]
    _tfc.set_classes(base_op, base_tensor)
    _tfc.set_error_classes(None)
    _tfc.set_fetch_handler(None)
    _tfc.set_feed_handler(None)
    yield
    _tfc.set_classes(*saved["classes"])
    _tfc.set_error_classes(saved["error_classes"])
    _tfc.set_fetch_handler(saved["fetch_handler"])
    _tfc.set_feed_handler(saved["feed_handler"])


@pytest.fixture
def abc():
    """A graph a + b = c over scalar float placeholders, and a session on it."""
    g = _tfc.Graph()
    a = placeholder(g, "a", F32, ())
    b = placeholder(g, "b", F32, ())
    c = add(g, "c", a, b)
    s = _tfc.Session(g)
    yield g, a, b, c, s
    s.close()


# ---------------------------------------------------------------- module functions

def test_op_registry_functions():
    names = _tfc.op_names()
    assert "AddV2" in names and "Placeholder" in names and names == sorted(names)
    d = _tfc.op_def("AddV2")
    assert d["name"] == "AddV2"
    assert [a["name"] for a in d["inputs"]] == ["x", "y"]
    assert d["inputs"][0]["type_attr"] == "T" and d["inputs"][0]["type"] == 0
    assert d["outputs"][0]["is_ref"] is False
    t = [a for a in d["attrs"] if a["name"] == "T"][0]
    assert t["type"] == "type" and F32 in t["allowed_values"] and "default" not in t
    assert d["is_stateful"] is False
    p = _tfc.op_def("Placeholder")
    shape = [a for a in p["attrs"] if a["name"] == "shape"][0]
    assert shape["type"] == "shape" and shape["default"] is None
    with pytest.raises(KeyError):
        _tfc.op_def("NoSuchOp")
    assert _tfc.kernel_exists("AddV2") is True
    assert _tfc.kernel_exists("NoSuchOp") is False


def test_set_classes_rejects_non_subclasses():
    with pytest.raises(TypeError):
        _tfc.set_classes(int, _tfc.Tensor)
    with pytest.raises(TypeError):
        _tfc.set_fetch_handler(3)


# ---------------------------------------------------------------- graph building

def test_add_op_and_identity(bare):
    g = _tfc.Graph()
    a = placeholder(g, "a", F32, (2, None))
    op = a.op
    assert type(op) is _tfc.Operation and type(a) is _tfc.Tensor
    assert op.name == "a" and op.type == "Placeholder" and op.graph is g
    assert a.name == "a:0" and a.value_index == 0 and a.graph is g
    assert a._dtype_enum == F32 and a._shape == (2, None)
    assert op.outputs[0] is a and g._op_by_name("a") is op and g._op_at(0) is op
    assert g._op_by_name("nope") is None
    assert g._num_ops() == 1 and g._version == 1 and g._ops() == [op]
    c = add(g, "c", a, a)
    assert c.op.inputs == (a, a) and c.op._input_types == (F32, F32)
    assert c.op._output_types == (F32,) and c._shape == (2, None)
    assert g._element_by_name("c:0") is c and g._element_by_name("c") is c.op
    assert a._id != c._id
    with pytest.raises(IndexError):
        g._op_at(5)
    with pytest.raises(TypeError):
        _tfc.Operation()
    with pytest.raises(TypeError):
        _tfc.Tensor()


def test_add_op_errors(bare):
    g = _tfc.Graph()
    a = placeholder(g, "a", F32, ())
    i = placeholder(g, "i", I32, ())
    with pytest.raises(ValueError):
        placeholder(g, "a")  # duplicate name
    with pytest.raises(ValueError):
        g._add_op("NoSuchOp", "x", [], {}, None, None)
    with pytest.raises(TypeError):
        add(g, "bad", a, i)  # mismatched input dtypes
    with pytest.raises(TypeError):
        g._add_op("AddV2", "bad2", [a, 3.0], {}, None, None)
    with pytest.raises(ValueError):
        g._add_op("AddV2", "bad3", [a], {}, None, None)  # wrong number of inputs
    with pytest.raises(TypeError):
        g._add_op("Placeholder", "p", [], {"dtype": "nonsense-type"}, None, None)
    with pytest.raises(TypeError):
        g._add_op("Placeholder", "p", [], {"dtype": F32, "shape": "abc"}, None, None)
    g2 = _tfc.Graph()
    b = placeholder(g2, "b", F32, ())
    with pytest.raises(ValueError, match="must be from the same graph"):
        add(g, "cross", a, b)
    with pytest.raises(ValueError, match="must be from the same graph"):
        g._add_op("NoOp", "n", [], {}, None, [b.op])
    assert g._num_ops() == 2  # failed adds leave nothing behind
    g._finalize()
    assert g.finalized
    with pytest.raises(RuntimeError, match="finalized"):
        placeholder(g, "late")
    g._unsafe_unfinalize()
    placeholder(g, "late")


def test_attr_conversion_round_trip(bare):
    class DType:
        as_datatype_enum = F64

    class Shape:
        ndims = 2

        def as_list(self):
            return [3, None]

    class UnknownShape:
        ndims = None

        def as_list(self):
            raise ValueError("unknown")

    g = _tfc.Graph()
    p = g._add_op("Placeholder", "p", [], {"dtype": DType(), "shape": Shape()}, None, None)
    assert p.get_attr("dtype") == F64 and p.get_attr("shape") == (3, None)
    assert p.outputs[0]._shape == (3, None)
    q = g._add_op("Placeholder", "q", [], {"dtype": np.float32, "shape": UnknownShape()}, None, None)
    assert q.get_attr("dtype") == F32 and q.get_attr("shape") is None
    r = g._add_op("Placeholder", "r", [], {"dtype": np.dtype("int64"), "shape": [None]}, None, None)
    assert r.get_attr("dtype") == I64 and r.outputs[0]._shape == (None,)
    assert sorted(p._attr_names()) == ["dtype", "shape"]
    with pytest.raises(ValueError, match="has no attr named"):
        p.get_attr("nope")
    value = np.arange(6, dtype=np.float32).reshape(2, 3)
    k = g._add_op("Const", "k", [], {"dtype": F32, "value": value}, None, None)
    got = k.get_attr("value")
    assert isinstance(got, np.ndarray) and got.dtype == np.float32
    np.testing.assert_array_equal(got, value)
    assert k.outputs[0]._shape == (2, 3)
    s = g._add_op("Const", "s", [], {"dtype": STR, "value": np.array([b"x", "y"], dtype=object)},
                  None, None)
    assert list(s.get_attr("value")) == [b"x", b"y"]
    # underscore attrs are accepted (the graph keeps only _class)
    n = g._add_op("NoOp", "n", [], {"_class": ["loc:@p"], "_extra": 3}, None, None)
    assert n.get_attr("_class") == [b"loc:@p"] and "_class" in n._attr_names()
    with pytest.raises(ValueError):
        n.get_attr("_extra")


@kernels("Print")
def test_attr_string_and_list_attrs(bare):
    g = _tfc.Graph()
    x = placeholder(g, "x", F32, ())
    pr = g._add_op("Print", "pr", [x, [x, x]], {"message": "hi: ", "summarize": 2.0}, None, None)
    assert pr.get_attr("message") == b"hi: "
    assert pr.get_attr("summarize") == 2
    assert pr.get_attr("U") == [F32, F32]
    with pytest.raises(TypeError):
        g._add_op("Print", "pr2", [x, [x]], {"message": 5}, None, None)
    with pytest.raises(TypeError):
        g._add_op("Print", "pr3", [x, [x]], {"first_n": "x"}, None, None)


def test_device_control_inputs_and_shapes(bare):
    g = _tfc.Graph()
    a = placeholder(g, "a", F32, None)
    n = g._add_op("NoOp", "n", [], {}, "/device:CPU:0", [a.op])
    assert n.device == "/device:CPU:0" and n.control_inputs == (a.op,)
    n._set_device("/cpu:0")
    assert n.device == "/cpu:0"
    m = g._add_op("NoOp", "m", [], {}, None, None)
    assert m.device == "" and m.control_inputs == ()
    m._add_control_inputs([n, a])
    assert set(o.name for o in m.control_inputs) == {"n", "a"}
    assert a._shape is None
    a._set_shape((None, 3))
    assert a._shape == (None, 3)
    a._set_shape([2, None])
    assert a._shape == (2, 3)
    with pytest.raises(ValueError, match="not compatible"):
        a._set_shape((4, 3))
    c = add(g, "c", a, a)
    assert a._consumers() == [c.op]


def test_registered_classes_are_instantiated(bare):
    class MyOp(_tfc.Operation):
        pass

    class MyTensor(_tfc.Tensor):
        def twice(self):
            return self.name * 2

    _tfc.set_classes(MyOp, MyTensor)
    g = _tfc.Graph()
    a = placeholder(g, "a")
    assert type(a) is MyTensor and type(a.op) is MyOp
    assert a.twice() == "a:0a:0"
    a.extra = 1  # subclasses get a __dict__
    assert g._op_by_name("a").outputs[0].extra == 1

    class MyGraph(_tfc.Graph):
        def __init__(self, tag):
            super().__init__()
            self.tag = tag

    mg = MyGraph("t")
    assert mg.tag == "t" and placeholder(mg, "z").graph is mg


def test_graph_cycles_are_collected(bare):
    g = _tfc.Graph()
    a = placeholder(g, "a")
    add(g, "c", a, a)
    refs = [weakref.ref(g), weakref.ref(a), weakref.ref(a.op)]
    del g, a
    gc.collect()
    assert all(r() is None for r in refs)


# ---------------------------------------------------------------- Session.run

def test_run_scalar_feeds(abc):
    g, a, b, c, s = abc
    r = s.run(c, {a: 1.0, b: 2.0})
    assert type(r) is np.float32 and r == 3.0
    assert s.run(c, feed_dict={a: 1, b: True}) == 2.0
    assert s.run("c:0", {"a:0": 1.5, "b:0": 2.0}) == 3.5
    assert s.run(c, {a: np.float64(1.25), b: np.array(1, np.int64)}) == 2.25


def test_run_fetch_structures(abc):
    g, a, b, c, s = abc
    feeds = {a: 1.0, b: 2.0}
    r = s.run([c, c.op, "c:0", "c"], feeds)
    assert type(r) is list and r[0] == 3.0 and r[1] is None and r[2] == 3.0 and r[3] is None
    r = s.run((c, c), feeds)
    assert type(r) is tuple and r == (3.0, 3.0)
    assert s.run(c.op, feeds) is None
    assert s.run([], feeds) == [] and s.run((), feeds) == ()
    # a fed tensor fetches as the fed value converted to its dtype (an array, as TF)
    r = s.run([a, c], feeds)
    assert isinstance(r[0], np.ndarray) and r[0].shape == () and r[0].dtype == np.float32


def test_run_fetch_handler(abc, bare):
    g, a, b, c, s = abc
    feeds = {a: 1.0, b: 2.0}
    with pytest.raises(TypeError, match="has invalid type"):
        s.run({"k": c}, feeds)
    calls = []

    def handler(fetches):
        calls.append(fetches)
        keys = sorted(fetches)
        return [fetches[k] for k in keys], lambda vals: dict(zip(keys, vals))

    _tfc.set_fetch_handler(handler)
    od = collections.OrderedDict([("y", c), ("x", c)])
    assert s.run(od, feeds) == {"x": 3.0, "y": 3.0}
    assert len(calls) == 1 and calls[0] is od
    assert s.run([c, c], feeds) == [3.0, 3.0] and len(calls) == 1  # flat lists stay in C
    # exact dicts, lists and tuples of plain fetches are resolved and rebuilt in C too
    assert s.run({"x": c, "y": [c, (c.op,)]}, feeds) == {"x": 3.0, "y": [3.0, (None,)]}
    assert len(calls) == 1
    # a structure holding anything else goes to the handler as a whole (this
    # handler flattens one level only, so the OrderedDict is a bad leaf)
    with pytest.raises(TypeError, match="has invalid type"):
      s.run({"z": od}, feeds)
    assert len(calls) == 2 and list(calls[1]) == ["z"]


def test_run_feed_handler_and_graph_element_hooks(abc, bare):
    g, a, b, c, s = abc

    class VarLike:
        def __init__(self, t):
            self.t = t

        def _as_graph_element(self):
            return self.t

    assert s.run(VarLike(c), {VarLike(a): 1.0, b: 2.0}) == 3.0

    class Pair:
        pass

    pair = Pair()
    _tfc.set_feed_handler(lambda fd: [(a, 5.0) if k is pair else (k, v) for k, v in fd.items()])
    assert s.run(c, {pair: None, b: 1.0}) == 6.0


def test_run_errors_match_tf(abc, bare):
    g, a, b, c, s = abc
    v = placeholder(g, "v", F32, (2,))
    i8 = placeholder(g, "i8", I8, ())
    st = placeholder(g, "st", STR, None)
    with pytest.raises(ValueError) as e:
        s.run(v, {v: [1.0, 2.0, 3.0]})
    assert str(e.value) == "Cannot feed value of shape (3,) for Tensor 'v:0', which has shape '(2,)'"
    with pytest.raises(TypeError, match="is not compatible with Tensor type <class 'numpy.int8'>"):
        s.run(i8, {i8: 300})
    with pytest.raises(TypeError, match="is not compatible with Tensor type <class 'object'>"):
        s.run(st, {st: 5})
    assert s.run(i8, {i8: 2.7}) == 2
    with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor object"):
        s.run(c, {a: b, b: 1.0})
    with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor: The name 'nope:0'"):
        s.run(c, {"nope:0": 1.0})
    with pytest.raises(TypeError, match="refers to an Operation, not a Tensor"):
        s.run(c, {"a": 1.0})
    with pytest.raises(TypeError, match="Can not convert a int into a Tensor"):
        s.run(c, {3: 1.0})
    with pytest.raises(TypeError, match="feed_dict must be a dictionary"):
        s.run(c, [1.0])
    with pytest.raises(ValueError, match="Fetch argument 'nope:0' cannot be interpreted as a Tensor"):
        s.run("nope:0")
    with pytest.raises(ValueError, match="exists but only has 1 outputs"):
        s.run("c:1")
    with pytest.raises(TypeError, match="Fetch argument None has invalid type"):
        s.run(None)
    with pytest.raises(TypeError, match="Fetch argument 1 has invalid type <class 'int'>"):
        s.run(1)
    other = placeholder(_tfc.Graph(), "z")
    with pytest.raises(ValueError, match="is not an element of this graph"):
        s.run(other)
    with pytest.raises(TypeError, match="is not an element of this graph"):
        s.run(c, {other: 1.0, a: 1.0, b: 1.0})
    with pytest.raises(TypeError):
        s.run(c, {a: 1.0}, None, None, None)
    with pytest.raises(TypeError):
        s.run(c, bogus=1)
    # options / run_metadata are accepted
    assert s.run(c, {a: 1.0, b: 1.0}, options=None, run_metadata=None) == 2.0


def test_run_failure_raises_registered_class(abc, bare):
    g, a, b, c, s = abc
    with pytest.raises(RuntimeError):  # before registration
        s.run(c, {a: 1.0})

    class OpError(Exception):
        def __init__(self, node_def, op, message):
            super().__init__(message)
            self.node_def, self.op, self.message = node_def, op, message

    class InvalidArgument(OpError):
        pass

    _tfc.set_error_classes({2: OpError, 3: InvalidArgument})
    with pytest.raises(OpError) as e:
        s.run(c, {a: 1.0})  # b is not fed
    assert e.value.node_def is None and e.value.message
    assert e.value.op is None or e.value.op is b.op


def test_closed_session(abc):
    g, a, b, c, s = abc
    f = s.make_callable(c, [a, b])
    s.close()
    assert s._closed
    with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
        s.run(c, {a: 1.0, b: 2.0})
    with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
        f(1.0, 2.0)
    s.close()  # idempotent


def test_session_constructor_checks():
    with pytest.raises(TypeError):
        _tfc.Session("not a graph")
    s = _tfc.Session.__new__(_tfc.Session)
    with pytest.raises(RuntimeError):
        s.run("x:0")
    g = _tfc.Graph()
    s = _tfc.Session(g, inter_op_threads=2, intra_op_threads=1, cpu_devices=2,
                     allow_soft_placement=True, log_device_placement=False)
    assert not s._closed
    with pytest.raises(ValueError):
        _tfc.Session(g, cpu_devices=0)

    class MySession(_tfc.Session):
        def __init__(self, target="", graph=None, config=None):
            super().__init__(graph, 1, 1)
            self.target = target

    ms = MySession("", g)
    assert ms.target == "" and not ms._closed


def test_make_callable(abc):
    g, a, b, c, s = abc
    f = s.make_callable(c, [a, b])
    r = f(1.0, 2.0)
    assert type(r) is np.float32 and r == 3.0
    assert f(np.float32(2), 3) == 5.0
    assert f(1.0, 1.0, options=None, run_metadata=None) == 2.0
    with pytest.raises(ValueError, match="Expected 2 input feeds, got 1"):
        f(1.0)
    f2 = s.make_callable([c, c.op], feed_list=("a:0", "b:0"))
    assert f2(1.0, 1.0) == [2.0, None]
    with pytest.raises(TypeError):
        s.make_callable(c, a)  # feed_list must be a list or tuple
    with pytest.raises(ValueError):
        s.make_callable("nope:0")


# ---------------------------------------------------------------- conversions

def test_feed_dtype_conversion(bare):
    g = _tfc.Graph()
    v = placeholder(g, "v", F32, (None,))
    w = placeholder(g, "w", F32, (None,))
    out = add(g, "out", v, w)
    s = _tfc.Session(g)
    r = s.run(out, {v: np.array([1.5, 2.5], np.float64), w: [1, 2]})
    assert r.dtype == np.float32 and r.tolist() == [2.5, 4.5]
    # a fetched fed value is np.asarray(value, dtype): float64 -> float32
    r = s.run(v, {v: np.array([1.0, 2.0])})
    assert r.dtype == np.float32
    with pytest.raises(ValueError):
        s.run(out, {v: "abc", w: [1.0]})


def test_fetched_arrays_share_tensor_memory(bare):
    g = _tfc.Graph()
    v = placeholder(g, "v", F32, (None,))
    out = add(g, "out", v, v)
    s = _tfc.Session(g)
    x = np.arange(1000, dtype=np.float32)
    r = s.run(out, {v: x})
    np.testing.assert_array_equal(r, 2 * x)
    assert r.flags.writeable and r.flags.c_contiguous
    owner = r.base
    assert type(owner).__name__ == "_TensorRef"
    m = memoryview(owner)
    assert m.format == "f" and m.shape == (1000,) and m.nbytes == 4000
    assert np.shares_memory(r, np.frombuffer(owner, dtype=np.float32))
    r[0] = 42.0  # results are private to the caller
    assert s.run(out, {v: x})[0] == 0.0
    del m


def test_zero_copy_feed_keeps_array_alive(bare):
    g = _tfc.Graph()
    v = placeholder(g, "v", F32, (None,))
    out = add(g, "out", v, v)
    s = _tfc.Session(g)
    x = np.ones(10, np.float32)
    before = sys.getrefcount(x)
    for _ in range(100):
        s.run(out, {v: x})
    assert sys.getrefcount(x) == before


@kernels("Const")
def test_string_tensors(bare):
    g = _tfc.Graph()
    k = const(g, "k", np.array(b"hello", dtype=object))
    ks = const(g, "ks", np.array([[b"a", b"bc"], [b"", b"d"]], dtype=object))
    s = _tfc.Session(g)
    r = s.run(k)
    assert r == b"hello" and type(r) is bytes
    r = s.run(ks)
    assert r.dtype == object and r.shape == (2, 2) and r.tolist() == [[b"a", b"bc"], [b"", b"d"]]


@kernels("Identity")
def test_string_feeds(bare):
    g = _tfc.Graph()
    p = placeholder(g, "p", STR, None)
    ident = g._add_op("Identity", "i", [p], {}, None, None).outputs[0]
    s = _tfc.Session(g)
    assert s.run(ident, {p: "héllo"}) == "héllo".encode()
    assert s.run(ident, {p: b"\x00\xff"}) == b"\x00\xff"
    r = s.run(ident, {p: ["a", b"b"]})
    assert r.tolist() == [b"a", b"b"]
    r = s.run(ident, {p: np.array(["xy", "z"])})
    assert r.tolist() == [b"xy", b"z"]
    with pytest.raises(TypeError):
        s.run(ident, {p: [1, 2]})


@kernels("Const", "Cast")
def test_fetched_scalar_types(bare):
    g = _tfc.Graph()
    outs = []
    for i, (dt, npdt) in enumerate([(F32, np.float32), (F64, np.float64), (I32, np.int32),
                                    (I64, np.int64), (U8, np.uint8), (I16, np.int16),
                                    (I8, np.int8), (BOOL, np.bool_), (HALF, np.float16)]):
        k = const(g, "k%d" % i, np.float32(1.0))
        outs.append((g._add_op("Cast", "c%d" % i, [k], {"DstT": dt}, None, None).outputs[0], npdt))
    s = _tfc.Session(g)
    vals = s.run([t for t, _ in outs])
    for v, (_, npdt) in zip(vals, outs):
        assert type(v) is npdt and v == 1


@kernels("Const")
def test_const_fetch_is_a_private_copy(bare):
    g = _tfc.Graph()
    k = const(g, "k", np.arange(4, dtype=np.float32))
    s = _tfc.Session(g)
    r = s.run(k)
    r[0] = 99
    assert s.run(k)[0] == 0 and k.op.get_attr("value")[0] == 0


# ---------------------------------------------------------------- logging

@kernels("Print")
def test_print_goes_to_sys_stderr(bare):
    g = _tfc.Graph()
    x = placeholder(g, "x", F32, ())
    pr = g._add_op("Print", "pr", [x, [x]], {"message": "value: "}, None, None).outputs[0]
    s = _tfc.Session(g)
    old, sys.stderr = sys.stderr, io.StringIO()
    try:
        assert s.run(pr, {x: 7.0}) == 7.0
        text = sys.stderr.getvalue()
    finally:
        sys.stderr = old
    assert "value: " in text and "7" in text


def test_placement_log_goes_to_sys_stderr(bare):
    g = _tfc.Graph()
    a = placeholder(g, "a", F32, ())
    c = add(g, "c", a, a)
    s = _tfc.Session(g, cpu_devices=2, log_device_placement=True)
    old, sys.stderr = sys.stderr, io.StringIO()
    try:
        assert s.run(c, {a: 1.0}) == 2.0
        text = sys.stderr.getvalue()
    finally:
        sys.stderr = old
    assert "AddV2" in text and "CPU" in text


# ---------------------------------------------------------------- threads and leaks

def test_concurrent_runs_on_one_session(abc):
    g, a, b, c, s = abc
    f = s.make_callable(c, [a, b])
    errors = []

    def work(k):
        try:
            for i in range(2000):
                if s.run(c, {a: float(i), b: float(k)}) != i + k or f(float(k), 1.0) != k + 1:
                    errors.append((k, i))
                    return
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@kernels("Print")
def test_close_while_other_threads_run_and_print(bare):
    g = _tfc.Graph()
    x = placeholder(g, "x", F32, ())
    pr = g._add_op("Print", "pr", [x, [x]], {"message": "t: "}, None, None).outputs[0]
    s = _tfc.Session(g, inter_op_threads=2)
    outcomes = []
    started = threading.Barrier(5)

    def work():
        started.wait()
        try:
            for i in range(5000):
                s.run(pr, {x: float(i)})
            outcomes.append("done")
        except RuntimeError as e:
            outcomes.append(str(e))

    old, sys.stderr = sys.stderr, io.StringIO()
    try:
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        started.wait()
        s.close()
        for t in threads:
            t.join()
    finally:
        sys.stderr = old
    assert len(outcomes) == 4
    assert all(o in ("done", "Attempted to use a closed Session.") for o in outcomes)


def test_run_does_not_leak_references(abc):
    g, a, b, c, s = abc
    feeds = {a: 1.0, b: 2.0}
    fetches = [c, c.op, "c:0"]
    f = s.make_callable(c, [a, b])
    objs = [feeds, fetches, c, c.op, a, s, f, g]
    before = [sys.getrefcount(o) for o in objs]
    for _ in range(1000):
        s.run(fetches, feeds)
        s.run(c, feeds)
        f(1.0, 2.0)
        try:
            s.run(c, {a: 1.0})
        except Exception:
            pass
        try:
            s.run("nope:0")
        except ValueError:
            pass
    assert [sys.getrefcount(o) for o in objs] == before


def test_run_memory_is_stable(abc):
    import tracemalloc

    g, a, b, c, s = abc
    feeds = {a: 1.0, b: 2.0}
    for _ in range(2000):
        s.run([c, c], feeds)
    tracemalloc.start()
    snap = tracemalloc.take_snapshot()
    for _ in range(20000):
        s.run([c, c], feeds)
    grown = sum(st.size_diff for st in tracemalloc.take_snapshot().compare_to(snap, "filename"))
    tracemalloc.stop()
    assert grown < 64 * 1024


@pytest.mark.filterwarnings("ignore")
def test_bad_arguments_raise_instead_of_crashing(bare):
    g = _tfc.Graph()
    a = placeholder(g, "a", F32, (2,))
    c = add(g, "c", a, a)
    s = _tfc.Session(g)
    values = [None, 0, -1, 2**70, 1.5, float("nan"), "a:0", "c", "c:9", ":", "", "\udcff", b"x",
              [], [None], [[a]], (a,), {a: 1}, {1: 2}, a, c.op, g, s, object(),
              np.zeros((2,)), np.zeros((3, 0)), np.zeros(20 * [1]), np.array(["x"]),
              np.array([1 + 2j]), [1, "x"], [[1, 2], [3]]]
    calls = [
        lambda v: s.run(v), lambda v: s.run(c, v), lambda v: s.run(c, {a: v}),
        lambda v: s.run([c, v]), lambda v: s.make_callable(v), lambda v: s.make_callable(c, v),
        lambda v: s.make_callable(c, [a])(v), lambda v: g._add_op(v, "x", [], {}, None, None),
        lambda v: g._add_op("AddV2", v, [a, a], {}, None, None),
        lambda v: g._add_op("AddV2", "y", v, {}, None, None),
        lambda v: g._add_op("AddV2", "y", [a, a], v, None, None),
        lambda v: g._add_op("AddV2", "y", [a, a], {}, v, None),
        lambda v: g._add_op("AddV2", "y", [a, a], {}, None, v),
        lambda v: g._add_op("Placeholder", "p", [], {"dtype": v}, None, None),
        lambda v: g._add_op("Placeholder", "p", [], {"dtype": F32, "shape": v}, None, None),
        lambda v: g._add_op("Const", "k", [], {"dtype": F32, "value": v}, None, None),
        lambda v: g._op_by_name(v), lambda v: g._op_at(v), lambda v: g._element_by_name(v),
        lambda v: a.op.get_attr(v), lambda v: a.op._set_device(v),
        lambda v: c.op._add_control_inputs(v), lambda v: a._set_shape(v),
        lambda v: _tfc.op_def(v), lambda v: _tfc.kernel_exists(v), lambda v: _tfc.Session(v),
        lambda v: _tfc.Session(g, v),
    ]
    for call in calls:
        for v in values:
            try:
                call(v)
            except Exception:
                pass
    assert s.run(c, {a: [1.0, 2.0]}).tolist() == [2.0, 4.0]


def test_allocation_failures_raise_cleanly(bare):
    """Failing the n-th C allocation must raise, never crash."""
    for n in range(1, 60):
        try:
            _tfc._alloc_fail_after(n)
            g = _tfc.Graph()
            a = placeholder(g, "a", F32, ())
            c = add(g, "c", a, a)
            s = _tfc.Session(g)
            s.run([c, c], {a: 1.0})
        except (MemoryError, RuntimeError, ValueError, TypeError):
            pass
        finally:
            _tfc._alloc_fail_after(0)
    # everything works again afterwards
    g = _tfc.Graph()
    a = placeholder(g, "a", F32, ())
    assert _tfc.Session(g).run(add(g, "c", a, a), {a: 2.0}) == 4.0
