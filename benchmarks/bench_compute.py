"""Convolution compute beside TensorFlow, as fractions of the machine's float32 peak.

Usage (from the repository root):
    .venv/bin/python benchmarks/bench_compute.py [--rounds N] [--json FILE]

Cases (each in a fresh process per framework, the frameworks alternating
round by round; tfc runs in .venv, TensorFlow in .venv-tf):
  cnn_1t, cnn_2t     one Adam step of bench_train.py's 2-conv CNN, batch 64, 1 / 2 threads
  resnet50_b1_1t ... ResNet50 / MobileNetV2 (frozen by tools/make_compat_fixtures.py into
                     build/compat/) batch 1 on 1 thread and batch 32 on 2 threads
  sgemm_1t, sgemm_2t the float32 peak: a 2048^3 MatMul through tfc (OpenBLAS) on 1 and 2
                     intra-op threads, measured in the same run

Each child reports, per step, the best and median wall time and the process
CPU time (user + system): on a machine shared with other work the wall time
of one process includes time spent waiting for a core, the CPU time does
not. The table gives medians over rounds of each child's best step, TF/tfc
ratios of those, and each step's GFLOP/s as a fraction of the SGEMM rate on
the same number of threads (wall time against SGEMM's wall-clock rate, CPU
time against SGEMM's FLOPs per CPU-second). FLOPs are counted from the graph (2 per
multiply-add of every Conv2D, DepthwiseConv2dNative and MatMul; a training
step counts each convolution's forward pass, its filter gradient and, for
all but the first layer, its input gradient, as both frameworks compute).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
COMPAT_DIR = os.path.join(ROOT, "build", "compat")
PYS = {"tfc": os.path.join(ROOT, ".venv", "bin", "python"),
       "tf": os.path.join(ROOT, ".venv-tf", "bin", "python")}
CASES = [  # (key, label, kind, model, batch, threads, steps)
    ("cnn_1t", "Adam step, CNN 2 conv, batch 64, 1 thread", "train", "cnn", 64, 1, 30),
    ("cnn_2t", "Adam step, CNN 2 conv, batch 64, 2 threads", "train", "cnn", 64, 2, 30),
    ("resnet50_b1_1t", "ResNet50, batch 1, 1 thread", "infer", "resnet50", 1, 1, 20),
    ("mobilenet_v2_b1_1t", "MobileNetV2, batch 1, 1 thread", "infer", "mobilenet_v2", 1, 1, 60),
    ("resnet50_b32_2t", "ResNet50, batch 32, 2 threads", "infer", "resnet50", 32, 2, 3),
    ("mobilenet_v2_b32_2t", "MobileNetV2, batch 32, 2 threads", "infer", "mobilenet_v2", 32, 2, 5),
]


# ------------------------------------------------------------------ child side

def _load(framework):
    sys.path.insert(0, HERE)
    from bench_core import load
    return load(framework)


def _static_dims(t):
    try:
        return [d if d is None else int(d) for d in t.shape.as_list()]
    except (ValueError, AttributeError):
        return None


def _op_flops(op, batch):
    """2 x multiply-adds of a Conv2D / DepthwiseConv2dNative / MatMul node,
    with an unknown batch dimension taken as `batch`; 0 for other ops."""
    if op.type not in ("Conv2D", "DepthwiseConv2dNative", "MatMul"):
        return 0
    out, w = _static_dims(op.outputs[0]), _static_dims(op.inputs[1])
    if not out or not w or None in w:
        return 0
    n = 1
    for d in out:
        n *= batch if d is None else d
    if op.type == "MatMul":
        ta = op.get_attr("transpose_a")
        k = _static_dims(op.inputs[0])[0 if ta else 1]
        return 2 * n * k
    if op.type == "Conv2D":
        return 2 * n * w[0] * w[1] * w[2]
    return 2 * n * w[0] * w[1]  # depthwise: each output reads one channel's window


def _time_steps(fn, steps):
    """(best wall, median wall, best CPU, median CPU) seconds per call of fn."""
    fn()
    fn()
    walls, cpus = [], []
    for _ in range(steps):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return min(walls), statistics.median(walls), min(cpus), statistics.median(cpus)


def child_train(tf, batch, threads, steps):
    import numpy as np
    sys.path.insert(0, HERE)
    import bench_train as bt
    rng = np.random.default_rng(1)
    X = rng.standard_normal((batch, 28, 28, 1), dtype=np.float32)
    Y = rng.integers(0, 10, batch).astype(np.int64)
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(0)
        x = tf.placeholder(tf.float32, [None, 28, 28, 1])
        y = tf.placeholder(tf.int64, [None])
        h = bt._conv(tf, x, 5, 1, 32, "conv2d")
        h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        h = bt._conv(tf, h, 5, 32, 64, "conv2d_1")
        h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        h = tf.reshape(h, [-1, 7 * 7 * 64])
        logits = bt._dense(tf, h, 7 * 7 * 64, 10, "dense", act=False)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                             logits=logits))
        fwd = [op for op in g.get_operations() if _op_flops(op, batch)]
        first = min((op for op in fwd if op.type == "Conv2D"), key=lambda op: op.name)
        flops = sum(3 * _op_flops(op, batch) for op in fwd) - _op_flops(first, batch)
        train = tf.train.AdamOptimizer(1e-3).minimize(loss)
        cfg = tf.ConfigProto(inter_op_parallelism_threads=threads,
                             intra_op_parallelism_threads=threads)
        with tf.Session(graph=g, config=cfg) as sess:
            sess.run(tf.global_variables_initializer())
            feed = {x: X, y: Y}
            for _ in range(3):
                sess.run(train, feed)
            t = _time_steps(lambda: sess.run(train, feed), steps)
    return t, flops


def child_infer(tf, model, batch, threads, steps):
    import numpy as np
    d = os.path.join(COMPAT_DIR, model)
    with open(os.path.join(d, "meta.json")) as f:
        meta = json.load(f)
    shape = list(meta["shape"])
    g = tf.Graph()
    with g.as_default():
        gd = tf.GraphDef()
        with open(os.path.join(d, "model.pb"), "rb") as f:
            gd.ParseFromString(f.read())
        x = tf.placeholder(tf.float32, [None] + shape[1:], name="bench_input")
        tf.import_graph_def(gd, input_map={meta["input"]: x}, name="")
        y = g.get_tensor_by_name(meta["outputs"][meta.get("classes_output", 0)])
        flops = sum(_op_flops(op, batch) for op in g.get_operations())
    feed = np.random.RandomState(0).rand(batch, *shape[1:]).astype(np.float32)
    cfg = tf.ConfigProto(inter_op_parallelism_threads=threads, intra_op_parallelism_threads=threads)
    with tf.Session(graph=g, config=cfg) as sess:
        t = _time_steps(lambda: sess.run(y, {x: feed}), steps)
    return t, flops


def child_sgemm(tf, threads, n=2048):
    import numpy as np
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(np.random.default_rng(0).standard_normal((n, n), dtype=np.float32))
        c = tf.reduce_sum(tf.matmul(a, a))
        cfg = tf.ConfigProto(inter_op_parallelism_threads=1, intra_op_parallelism_threads=threads)
        with tf.Session(graph=g, config=cfg) as sess:
            t = _time_steps(lambda: sess.run(c), 5)
    return t, 2 * n ** 3


def child_main(argv):
    framework, kind = argv[0], argv[1]
    tf = _load(framework)
    if kind == "train":
        t, flops = child_train(tf, int(argv[2]), int(argv[3]), int(argv[4]))
    elif kind == "infer":
        t, flops = child_infer(tf, argv[2], int(argv[3]), int(argv[4]), int(argv[5]))
    else:
        t, flops = child_sgemm(tf, int(argv[2]))
    keys = ("best_s", "median_s", "best_cpu_s", "median_cpu_s")
    out = dict(zip(keys, t), flops=flops)
    print(json.dumps(out))


# ------------------------------------------------------------------ parent side

def _child(framework, *args):
    out = subprocess.run([PYS[framework], os.path.abspath(__file__), "child", framework,
                          *map(str, args)], cwd="/tmp", capture_output=True, text=True,
                         timeout=3600)
    if out.returncode != 0:
        raise RuntimeError("%s child %s failed:\n%s" % (framework, args, out.stderr[-3000:]))
    return json.loads(out.stdout.strip().splitlines()[-1])


def _uptime():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def collect(rounds=3, cases=CASES, log=sys.stderr):
    res = {"load_before": _uptime(), "peak": {}, "cases": {}}
    for threads in (1, 2):
        runs = [_child("tfc", "sgemm", threads) for _ in range(2)]
        best = min(r["best_cpu_s"] for r in runs)
        res["peak"][threads] = {"gflops_cpu": runs[0]["flops"] / best / 1e9,
                                "gflops_wall": runs[0]["flops"] / min(r["best_s"] for r in runs)
                                / 1e9}
        print("sgemm %dt: %s" % (threads, res["peak"][threads]), file=log)
    for key, label, kind, model, batch, threads, steps in cases:
        if kind == "infer" and not os.path.exists(os.path.join(COMPAT_DIR, model, "model.pb")):
            continue
        args = (kind, batch, threads, steps) if kind == "train" else \
            (kind, model, batch, threads, steps)
        runs = {"tfc": [], "tf": []}
        for _ in range(rounds):
            for fw in ("tfc", "tf"):
                if os.path.exists(PYS[fw]):
                    runs[fw].append(_child(fw, *args))
        row = {"label": label, "threads": threads}
        for fw, rs in runs.items():
            if rs:
                row[fw] = {k: statistics.median(r[k] for r in rs)
                           for k in ("best_s", "median_s", "best_cpu_s", "median_cpu_s")}
                row["flops"] = rs[0]["flops"]
        res["cases"][key] = row
        print(key, json.dumps(row), file=log)
    res["load_after"] = _uptime()
    return res


def markdown(res):
    peak = res["peak"]
    lines = [
        "| case | tfc best / median (CPU) ms | TF best / median (CPU) ms | TF/tfc wall | TF/tfc CPU"
        " | tfc of peak (wall / CPU) | TF of peak (wall / CPU) |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, row in res["cases"].items():
        t, f = row.get("tfc"), row.get("tf")
        if not t:
            continue
        p = peak[row["threads"]]
        def frac(x):
            # wall against SGEMM's wall-clock rate on the same threads; CPU time (summed
            # over threads) against SGEMM's FLOPs per CPU-second on the same threads
            return "%.0f%% / %.0f%%" % (100 * row["flops"] / x["best_s"] / 1e9 / p["gflops_wall"],
                                        100 * row["flops"] / x["best_cpu_s"] / 1e9
                                        / p["gflops_cpu"])
        cell = lambda x: "%.2f / %.2f (%.2f)" % (x["best_s"] * 1e3, x["median_s"] * 1e3,
                                                 x["best_cpu_s"] * 1e3)
        lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            row["label"], cell(t), cell(f) if f else "n/a",
            "%.2fx" % (f["best_s"] / t["best_s"]) if f else "n/a",
            "%.2fx" % (f["best_cpu_s"] / t["best_cpu_s"]) if f else "n/a",
            frac(t), frac(f) if f else "n/a"))
    lines += ["", "SGEMM 2048^3 through tfc's MatMul (OpenBLAS), same run: 1 thread %.0f GFLOP/s wall,"
              " %.0f per CPU-second; 2 threads %.0f GFLOP/s wall, %.0f per CPU-second."
              " Load average (1/5/15 min) before %s, after %s." % (
                  peak[1]["gflops_wall"], peak[1]["gflops_cpu"], peak[2]["gflops_wall"],
                  peak[2]["gflops_cpu"], res["load_before"], res["load_after"])]
    return lines


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "child":
        child_main(sys.argv[2:])
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument("--only", help="comma-separated case keys")
    a = ap.parse_args()
    cases = [c for c in CASES if not a.only or c[0] in a.only.split(",")]
    res = collect(a.rounds, cases)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    print("\n".join(markdown(res)))


if __name__ == "__main__":
    main()
