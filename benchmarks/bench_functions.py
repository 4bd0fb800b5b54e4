"""Function-library benchmark: a StatelessWhile of n scalar adds (per-iteration
cost of running a loop's cond and body functions), in TensorFlow and in tfc
on the same GraphDef, which TensorFlow writes.

Usage (from the repository root):
  .venv/bin/python benchmarks/bench_functions.py [--n 10000] [--repeats 7] [--rounds 3]
runs TensorFlow (.venv-tf) and tfc (.venv) alternately, `rounds` times each,
and prints a table and one JSON line with the best seconds and the ratio.
  python bench_functions.py tf GRAPH.pb N REPEATS   (TF venv: writes GRAPH.pb if
                                                     missing, prints JSON)
  python bench_functions.py tfc GRAPH.pb N REPEATS  (tfc: prints JSON)
Both run the graph with one inter-op and one intra-op thread.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TFC_PY = os.path.join(ROOT, ".venv", "bin", "python")
TF_PY = os.path.join(ROOT, ".venv-tf", "bin", "python")


def best_of(fn, repeats):
    """Best seconds of one call of fn over `repeats` calls (after a warm-up)."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def write_graph(tf, path):
    """TF builds `while i < limit: i, x = i + 1, x + 1.0` with control flow v2
    (a StatelessWhile calling cond and body functions) and writes the GraphDef."""
    v1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        limit = v1.placeholder(tf.int32, shape=[], name="limit")
        i, x = tf.while_loop(lambda i, x: i < limit, lambda i, x: (i + 1, x + 1.0),
                             [tf.constant(0), tf.constant(0.0)])
        tf.identity(x, name="sum")
    gd = g.as_graph_def()
    ops = {n.op for n in gd.node}
    assert "StatelessWhile" in ops or "While" in ops, ops
    with open(path, "wb") as f:
        f.write(gd.SerializeToString())


def run(framework, path, n, repeats):
    """Times Session.run of the loop in one framework; returns a dict."""
    if framework == "tf":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow as tf
        if not os.path.exists(path):
            write_graph(tf, path)
        v1 = tf.compat.v1
        v1.disable_eager_execution()
    else:
        import tfc as v1
    gd = v1.GraphDef()
    with open(path, "rb") as f:
        gd.ParseFromString(f.read())
    ops = sorted({nd.op for nd in gd.node if nd.op in ("While", "StatelessWhile")})
    g = v1.Graph()
    with g.as_default():
        v1.import_graph_def(gd, name="")
        cfg = v1.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=1)
        with v1.Session(graph=g, config=cfg) as sess:
            assert float(sess.run("sum:0", {"limit:0": n})) == float(n)
            s = best_of(lambda: sess.run("sum:0", {"limit:0": n}), repeats)
    return {"framework": framework, "ops": ops, "n": n, "seconds": s, "us_per_iter": s / n * 1e6}


def main():
    args = sys.argv[1:]
    if args and args[0] in ("tf", "tfc"):
        print(json.dumps(run(args[0], args[1], int(args[2]), int(args[3]))))
        return
    n, repeats, rounds = 10000, 7, 3
    for i, a in enumerate(args):
        if a == "--n":
            n = int(args[i + 1])
        elif a == "--repeats":
            repeats = int(args[i + 1])
        elif a == "--rounds":
            rounds = int(args[i + 1])
    path = os.path.join(tempfile.mkdtemp(), "stateless_while.pb")
    res = {"tf": [], "tfc": []}
    for _ in range(rounds):
        for fw, py in (("tf", TF_PY), ("tfc", TFC_PY)):
            out = subprocess.run([py, os.path.abspath(__file__), fw, path, str(n), str(repeats)],
                                 cwd="/tmp", capture_output=True, text=True, check=True)
            res[fw].append(json.loads(out.stdout.strip().splitlines()[-1]))
    load = os.getloadavg()
    tf_best = min(r["seconds"] for r in res["tf"])
    tfc_best = min(r["seconds"] for r in res["tfc"])
    print("StatelessWhile of %d scalar adds (ops %s), best of %d x %d runs, load %.2f %.2f %.2f"
          % (n, res["tf"][0]["ops"], rounds, repeats, *load))
    print("  tf : %s ms" % " ".join("%.2f" % (r["seconds"] * 1e3) for r in res["tf"]))
    print("  tfc: %s ms" % " ".join("%.2f" % (r["seconds"] * 1e3) for r in res["tfc"]))
    print("  per-round ratios tf/tfc: %s" % " ".join(
        "%.2fx" % (a["seconds"] / b["seconds"]) for a, b in zip(res["tf"], res["tfc"])))
    print(json.dumps({"n": n, "tf_s": tf_best, "tfc_s": tfc_best, "speedup": tf_best / tfc_best,
                      "load": load}))


if __name__ == "__main__":
    main()
