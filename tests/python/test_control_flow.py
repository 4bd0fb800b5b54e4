"""tf.cond, tf.case and tf.while_loop built as TF 1.15 builds them (v1
control flow: Switch/Merge, Enter/Exit/NextIteration/LoopCond) and run by
the executor's frames, with TF 1.15's build-time errors and the run-time
ones (a dead fetch, case without a match, a loop past its deadline)."""
import collections
import threading
import time

import numpy as np
import pytest

import tfc as tf


def _types(g):
  return [op.type for op in g.get_operations()]


def test_cond_takes_one_branch_with_tf_names():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [], name="x")
    p = tf.placeholder(tf.bool, [], name="p")
    y = tf.cond(p, lambda: x + 1.0, lambda: x * 10.0)
    names = [op.name for op in g.get_operations()]
    for n in ("cond/Switch", "cond/switch_t", "cond/switch_f", "cond/pred_id", "cond/Merge"):
      assert n in names
    assert y.op.type == "Merge" and y.name == "cond/Merge:0"
    assert y.shape.as_list() == []
    with tf.Session() as sess:
      assert sess.run(y, {x: 2.0, p: True}) == 3.0
      assert sess.run(y, {x: 2.0, p: False}) == 20.0


def test_cond_runs_only_the_taken_branch_side_effects():
  g = tf.Graph()
  with g.as_default():
    v = tf.Variable(0, name="v")
    p = tf.placeholder(tf.bool, [])

    def true_fn():
      with tf.control_dependencies([tf.assign_add(v, 1)]):
        return tf.constant(1)

    def false_fn():
      with tf.control_dependencies([tf.assign_add(v, 100)]):
        return tf.constant(2)

    out = tf.cond(p, true_fn, false_fn)
    with tf.Session() as sess:
      sess.run(v.initializer)
      assert sess.run(out, {p: True}) == 1
      assert sess.run(out, {p: True}) == 1
      assert sess.run(out, {p: False}) == 2
      assert sess.run(v) == 102


def test_cond_nested_structures_and_nested_conds():
  g = tf.Graph()
  with g.as_default():
    a = tf.placeholder(tf.int32, [])
    b = tf.placeholder(tf.int32, [])
    Pair = collections.namedtuple("Pair", "s d")

    def inner(x):
      return tf.cond(x > 0, lambda: x * 2, lambda: -x)

    res = tf.cond(a < b,
                  lambda: {"p": Pair(a + b, inner(a)), "l": [a]},
                  lambda: {"p": Pair(a - b, inner(b)), "l": [b]})
    assert isinstance(res["p"], Pair)
    with tf.Session() as sess:
      got = sess.run(res, {a: 3, b: 5})
      assert got["p"].s == 8 and got["p"].d == 6 and list(got["l"]) == [3]
      got = sess.run(res, {a: 5, b: -4})
      assert got["p"].s == 9 and got["p"].d == 4 and list(got["l"]) == [-4]


def test_cond_strict_and_singletons():
  g = tf.Graph()
  with g.as_default():
    p = tf.constant(True)
    x = tf.constant(1)
    assert isinstance(tf.cond(p, lambda: [x], lambda: [x + 1]), tf.Tensor)
    out = tf.cond(p, lambda: [x], lambda: [x + 1], strict=True)
    assert isinstance(out, list) and len(out) == 1
    with tf.Session() as sess:
      assert sess.run(out) == [1]


def test_cond_build_errors_as_tf():
  g = tf.Graph()
  with g.as_default():
    x = tf.constant(1.0)
    with pytest.raises(TypeError):
      tf.cond(tf.constant(1), lambda: x, lambda: x)
    with pytest.raises(TypeError, match="Python bool"):
      tf.cond(True, lambda: x, lambda: x)
    with pytest.raises(ValueError):
      tf.cond(tf.constant([True, False]), lambda: x, lambda: x)
    with pytest.raises(TypeError, match="true_fn must be callable"):
      tf.cond(tf.constant(True), x, lambda: x)
    with pytest.raises(ValueError, match="Incompatible return values"):
      tf.cond(tf.constant(True), lambda: (x, x), lambda: x)
    with pytest.raises(ValueError, match="same type"):
      tf.cond(tf.constant(True), lambda: x, lambda: tf.constant(1))
    with pytest.raises(ValueError, match="must have a return value"):
      tf.cond(tf.constant(True), lambda: None, lambda: x)


def test_cond_returning_an_op_and_outer_tensor():
  g = tf.Graph()
  with g.as_default():
    v = tf.Variable(1.0)
    p = tf.placeholder(tf.bool, [])
    x = tf.constant(7.0)
    y = tf.cond(p, lambda: x, lambda: x * 2.0)
    upd = tf.cond(p, lambda: tf.assign(v, 5.0).op, lambda: tf.assign(v, 9.0).op)
    with tf.Session() as sess:
      sess.run(v.initializer)
      assert sess.run(y, {p: True}) == 7.0
      assert sess.run(y, {p: False}) == 14.0
      sess.run(upd, {p: False})
      assert sess.run(v) == 9.0


def test_fetching_a_dead_branch_fails():
  from tfc.ops import control_flow_ops as cfo
  g = tf.Graph()
  with g.as_default():
    p = tf.placeholder(tf.bool, [])
    f, t = cfo.switch(tf.constant(1.0), p)
    with tf.Session() as sess:
      assert sess.run(t, {p: True}) == 1.0
      with pytest.raises(tf.errors.InvalidArgumentError, match="does not have value"):
        sess.run(f, {p: True})


def test_conds_alone_and_beside_a_loop_agree():
  """A step whose only control flow is conds runs on the straight-line runner
  (deadness kept per node, no frames); beside a while loop the same nodes run
  on the frames runner. Both give TF's results: the taken branch's value, a
  node behind a control edge from the untaken branch dead (its fetch fails),
  a ref Switch on a variable read before and after initialisation, and the
  untaken branch's side effects skipped."""
  g = tf.Graph()
  with g.as_default():
    p = tf.placeholder(tf.bool, [], name="p")
    x = tf.constant(2.0)
    v = tf.Variable(5.0, name="v")
    count = tf.Variable(0, name="count")
    inner = []

    def true_fn():
      a = x + 1.0
      inner.append(a)
      with tf.control_dependencies([tf.assign_add(count, 1)]):
        return tf.identity(a)

    y = tf.cond(p, true_fn, lambda: x * 10.0)
    with tf.control_dependencies([inner[0].op]):
      z = tf.identity(x, name="z")
    w = y + 1.0
    iv = v.initialized_value()
    loop = tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)])
    with tf.Session() as sess:
      assert sess.run(iv) == 5.0          # before initialisation: the initial value
      sess.run(tf.global_variables_initializer())
      sess.run(tf.assign(v, 9.0))
      for extra in ([], [loop]):
        assert sess.run([y, w] + extra, {p: True})[:2] == [3.0, 4.0]
        assert sess.run([y, w] + extra, {p: False})[:2] == [20.0, 21.0]
        assert sess.run([z] + extra, {p: True})[0] == 2.0
        with pytest.raises(tf.errors.InvalidArgumentError, match="does not have value"):
          sess.run([z] + extra, {p: False})
        assert sess.run([iv] + extra)[0] == 9.0
      assert sess.run(count) == 2         # one per true run of y; z needs the branch's add only


def test_case_picks_first_true_and_default():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.int32, [])
    r = tf.case([(tf.less(x, 0), lambda: tf.constant(-1)),
                 (tf.equal(x, 0), lambda: tf.constant(0))],
                default=lambda: tf.constant(1))
    r_nodefault = tf.case([(tf.less(x, 0), lambda: tf.constant(-1)),
                           (tf.equal(x, 0), lambda: tf.constant(0))])
    r_excl = tf.case([(tf.less(x, 5), lambda: tf.constant(10)),
                      (tf.less(x, 3), lambda: tf.constant(20))],
                     default=lambda: tf.constant(30), exclusive=True)
    with tf.Session() as sess:
      assert [sess.run(r, {x: v}) for v in (-3, 0, 4)] == [-1, 0, 1]
      assert sess.run(r_nodefault, {x: 0}) == 0
      with pytest.raises(tf.errors.InvalidArgumentError):
        sess.run(r_nodefault, {x: 4})
      assert sess.run(r_excl, {x: 4}) == 10
      with pytest.raises(tf.errors.InvalidArgumentError):
        sess.run(r_excl, {x: 1})
    with pytest.raises(TypeError):
      tf.case([(x, lambda: x)])


def test_while_loop_counts_with_tf_names():
  g = tf.Graph()
  with g.as_default():
    i = tf.constant(0)
    r = tf.while_loop(lambda i: i < 10, lambda i: i + 1, [i])
    names = [op.name for op in g.get_operations()]
    for n in ("while/Enter", "while/Merge", "while/LoopCond", "while/Switch", "while/Identity",
              "while/NextIteration", "while/Exit"):
      assert n in names
    assert r.name == "while/Exit:0"
    enter = g.get_operation_by_name("while/Enter")
    assert enter.get_attr("frame_name") == b"while/while_context"
    assert enter.get_attr("parallel_iterations") == 10
    with tf.Session() as sess:
      assert sess.run(r) == 10


def test_while_loop_structures_outer_tensors_and_constants():
  g = tf.Graph()
  with g.as_default():
    n = tf.placeholder(tf.int32, [])
    w = tf.constant([1.0, 2.0])
    State = collections.namedtuple("State", "i acc")

    def body(s, extra):
      # `w` and `n` come from outside the loop; the constant 2.0 has no inputs
      return State(s.i + 1, s.acc + w * 2.0), {"k": extra["k"] + n}

    res = tf.while_loop(lambda s, e: s.i < n, body,
                        [State(tf.constant(0), tf.zeros([2])), {"k": tf.constant(0)}])
    assert isinstance(res[0], State)
    with tf.Session() as sess:
      s, e = sess.run(res, {n: 5})
      assert s.i == 5
      np.testing.assert_allclose(s.acc, [10.0, 20.0])
      assert e["k"] == 25
      s, e = sess.run(res, {n: 0})
      assert s.i == 0 and e["k"] == 0


def test_while_loop_parallel_iterations_and_nesting():
  g = tf.Graph()
  with g.as_default():
    def outer_body(i, acc):
      inner = tf.while_loop(lambda j, a: j < i, lambda j, a: (j + 1, a + j), [0, acc])
      return i + 1, inner[1]

    for par in (1, 2, 10):
      r = tf.while_loop(lambda i, a: i < 6, outer_body, [tf.constant(0), tf.constant(0)],
                        parallel_iterations=par)
      with tf.Session() as sess:
        # sum over i < 6 of sum over j < i of j
        assert sess.run(r)[1] == sum(j for i in range(6) for j in range(i))


def test_while_loop_with_cond_inside_and_loop_inside_cond():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.int32, [])

    def body(i, acc):
      return i + 1, tf.cond(tf.equal(i % 2, 0), lambda: acc + i, lambda: acc - 1)

    r = tf.while_loop(lambda i, a: i < x, body, [0, 0])
    c = tf.cond(x > 3, lambda: tf.while_loop(lambda k: k < x * 2, lambda k: k + 1, [x]),
                lambda: tf.constant(-5))
    with tf.Session() as sess:
      want = 0
      for i in range(7):
        want = want + i if i % 2 == 0 else want - 1
      assert sess.run(r, {x: 7})[1] == want
      assert sess.run(c, {x: 7}) == 14
      assert sess.run(c, {x: 2}) == -5


def test_while_loop_shape_invariants():
  g = tf.Graph()
  with g.as_default():
    x = tf.constant([1.0])

    def grow(i, v):
      return i + 1, tf.concat([v, v], 0)

    with pytest.raises(ValueError, match="enters the loop with shape"):
      tf.while_loop(lambda i, v: i < 3, grow, [tf.constant(0), x])
    r = tf.while_loop(lambda i, v: i < 3, grow, [tf.constant(0), x],
                      shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
    assert r[1].shape.as_list() == [None]
    with pytest.raises(ValueError, match="shape invariant"):
      tf.while_loop(lambda i, v: i < 3, grow, [tf.constant(0), x],
                    shape_invariants=[tf.TensorShape([]), tf.TensorShape([2])])
    with tf.Session() as sess:
      assert sess.run(r)[1].shape == (8,)


def test_while_loop_maximum_iterations_and_errors():
  g = tf.Graph()
  with g.as_default():
    m = tf.placeholder(tf.int32, [])
    r = tf.while_loop(lambda i: i < 100, lambda i: i + 1, [tf.constant(0)], maximum_iterations=m)
    r2 = tf.while_loop(lambda i, j: i < 100, lambda i, j: (i + 1, j + 2), (0, 0),
                       maximum_iterations=4)
    with tf.Session() as sess:
      assert sess.run(r, {m: 7}) == 7
      assert sess.run(r, {m: 1000}) == 100
      assert sess.run(r, {m: -3}) == 0
      assert list(sess.run(r2)) == [4, 8]
    with pytest.raises(TypeError, match="cond must be callable"):
      tf.while_loop(1, lambda i: i, [0])
    with pytest.raises(TypeError, match="parallel_iterations"):
      tf.while_loop(lambda i: i < 1, lambda i: i, [0], parallel_iterations=0)
    with pytest.raises(ValueError, match="No loop variables"):
      tf.while_loop(lambda: True, lambda: 1, [])
    with pytest.raises(ValueError):
      tf.while_loop(lambda i: i < 3, lambda i: (i, i), [0])
    # swap_memory and back_prop are accepted
    r3 = tf.while_loop(lambda i: i < 3, lambda i: i + 1, [0], swap_memory=True, back_prop=False)
    with tf.Session() as sess:
      assert sess.run(r3) == 3


def test_endless_loop_stops_at_timeout_and_close():
  g = tf.Graph()
  with g.as_default():
    r = tf.while_loop(lambda i: i >= 0, lambda i: (i + 1) % 1000, [tf.constant(0)])
    sess = tf.Session()
    t0 = time.time()
    with pytest.raises(tf.errors.DeadlineExceededError):
      sess.run(r, options=tf.RunOptions(timeout_in_ms=100))
    assert time.time() - t0 < 5
    errors = []

    def run():
      try:
        sess.run(r)
      except Exception as e:  # pylint: disable=broad-except
        errors.append(e)

    th = threading.Thread(target=run)
    th.start()
    time.sleep(0.2)
    sess.close()
    th.join(10)
    assert not th.is_alive()
    assert errors and isinstance(errors[0], tf.errors.CancelledError)


def test_graph_def_round_trip_of_a_loop():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [])
    r = tf.while_loop(lambda i, a: i < 4, lambda i, a: (i + 1, a * x), [0, tf.constant(1.0)])
    gd = g.as_graph_def()
  g2 = tf.Graph()
  with g2.as_default():
    tf.import_graph_def(gd, name="")
    with tf.Session() as sess:
      assert sess.run("while/Exit_1:0", {"Placeholder:0": 3.0}) == 81.0


def test_imported_graph_errors():
  g = tf.Graph()
  with g.as_default():
    r = tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)])
    tf.constant(5, name="outside")
    gd = g.as_graph_def()
  # an op fed from inside the loop and from outside it (no Enter): TF's
  # "inputs from different frames" InvalidArgumentError when the step is planned
  bad = tf.GraphDef()
  bad.CopyFrom(gd)
  node = bad.node.add()
  node.name = "mixed"
  node.op = "AddV2"
  node.input.extend(["while/Identity", "outside"])
  node.attr["T"].type = tf.int32.as_datatype_enum
  g2 = tf.Graph()
  with g2.as_default():
    tf.import_graph_def(bad, name="")
    with tf.Session() as sess:
      assert sess.run("while/Exit:0") == 3
      with pytest.raises(tf.errors.InvalidArgumentError, match="different frames"):
        sess.run("mixed:0")
  # a Merge whose inputs all come from NextIteration has nothing to start it
  bad2 = tf.GraphDef()
  bad2.CopyFrom(gd)
  for n in bad2.node:
    if n.name == "while/Merge":
      n.input[0] = "while/NextIteration"
  with tf.Graph().as_default():
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError), match="outside its loop"):
      tf.import_graph_def(bad2, name="")
  # a Merge input naming a node that does not exist
  bad3 = tf.GraphDef()
  bad3.CopyFrom(gd)
  for n in bad3.node:
    if n.name == "while/Merge":
      n.input[1] = "while/NoSuchNode"
  with tf.Graph().as_default():
    with pytest.raises(ValueError):
      tf.import_graph_def(bad3, name="")
