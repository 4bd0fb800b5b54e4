"""Input pipelines beside TensorFlow: queues, readers and tf.data in one run.

Usage (from the repository root):

  .venv/bin/python benchmarks/bench_input.py [--mb 1024] [--queue-mb 256] [--steps 300]

Each pipeline runs in a fresh process (tfc in .venv, TensorFlow in .venv-tf),
best of two passes; the files are written once by tfc and read by both.

  1. TFRecord Examples (3072 image bytes + an int64 label), --mb of them in 8
     files: TFRecordDataset(files).batch(256) -> ParseExample + DecodeRaw on
     the batch (the same graph in both; TensorFlow also with the parse inside
     Dataset.map, its usual fast path), records/s and MB/s, beside the disk's
     O_DIRECT read speed and the page-cache read speed of the same files.
  2. A queue pipeline with 2 reader threads: string_input_producer -> two
     TFRecordReaders (read_up_to 64 + ParseExample + DecodeRaw) ->
     batch_join(batch 256, enqueue_many) run by QueueRunner threads, over
     --queue-mb of the same files.
  3. The digits-sized CNN (8x8x1 inputs, conv 3x3x16 + max-pool + dense 10,
     Adam, batch 64) fed by feed_dict, by a queue (slice_input_producer +
     batch with 2 threads) and by tf.data (from_tensor_slices -> shuffle ->
     repeat -> batch -> prefetch): ms per step, the step with its input
     already in the graph (compute only), and get_next alone (the pipeline's
     own cost per batch).

Prints a Markdown summary and, last, one JSON line with every figure.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TFC_PY = os.path.join(ROOT, ".venv", "bin", "python")
TF_PY = os.path.join(ROOT, ".venv-tf", "bin", "python")

WORKER = r'''
import json, os, sys, time
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
fw, kind, files, steps = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4])
if fw == "tfc":
    import tfc as tf
else:
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
import numpy as np
FEATS = None
if kind in ("data", "data_map", "queue"):
    FEATS = {"image": tf.FixedLenFeature([], tf.string), "label": tf.FixedLenFeature([], tf.int64)}

def parse(ser):
    f = tf.parse_example(ser, FEATS)
    return tf.decode_raw(f["image"], tf.uint8), f["label"]

def best_of(passes, fn):
    best = None
    for _ in range(passes):
        t0 = time.perf_counter(); n = fn(); dt = time.perf_counter() - t0
        best = dt if best is None or dt < best else best
    return n, best

result = {"fw": fw, "kind": kind}
if kind in ("raw", "direct"):
    import mmap
    def one():
        n = 0
        for p in files:
            if kind == "direct":
                fd = os.open(p, os.O_RDONLY | os.O_DIRECT); buf = mmap.mmap(-1, 1 << 22)
                while True:
                    k = os.readv(fd, [buf])
                    if k <= 0: break
                    n += k
            else:
                fd = os.open(p, os.O_RDONLY)
                while True:
                    b = os.read(fd, 1 << 20)
                    if not b: break
                    n += len(b)
            os.close(fd)
        return n
    result["bytes"], result["seconds"] = best_of(2, one)
elif kind in ("data", "data_map"):
    def one():
        with tf.Graph().as_default():
            ds = tf.data.TFRecordDataset(files)
            if kind == "data":
                img, lab = parse(tf.data.make_one_shot_iterator(ds.batch(256)).get_next())
            else:
                img, lab = tf.data.make_one_shot_iterator(ds.batch(256).map(parse)).get_next()
            with tf.Session() as s:
                n = 0
                while True:
                    try:
                        _, l = s.run([img, lab])
                    except tf.errors.OutOfRangeError:
                        return n
                    n += len(l)
    result["records"], result["seconds"] = best_of(2, one)
elif kind == "queue":
    def one():
        with tf.Graph().as_default():
            fq = tf.train.string_input_producer(files, num_epochs=1, shuffle=False)
            parts = []
            for _ in range(2):
                _, ser = tf.TFRecordReader().read_up_to(fq, 64)
                parts.append(list(parse(ser)))
            img, lab = tf.train.batch_join(parts, 256, capacity=1024, enqueue_many=True,
                                           shapes=[[3072], []], allow_smaller_final_batch=True)
            with tf.Session() as s:
                s.run(tf.local_variables_initializer())
                coord = tf.train.Coordinator()
                threads = tf.train.start_queue_runners(s, coord)
                n = 0
                try:
                    while True:
                        n += len(s.run(lab))
                except tf.errors.OutOfRangeError:
                    pass
                coord.request_stop(); coord.join(threads)
                return n
    result["records"], result["seconds"] = best_of(2, one)
else:
    rng = np.random.RandomState(0)
    X = rng.rand(1797, 8, 8, 1).astype(np.float32)
    Y = rng.randint(0, 10, 1797).astype(np.int64)
    B = 64

    def model(x, y):
        tf.set_random_seed(1)
        w1 = tf.get_variable("w1", [3, 3, 1, 16], initializer=tf.glorot_uniform_initializer())
        b1 = tf.get_variable("b1", [16], initializer=tf.zeros_initializer())
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w1, [1, 1, 1, 1], "SAME"), b1))
        h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        h = tf.reshape(h, [-1, 4 * 4 * 16])
        w2 = tf.get_variable("w2", [256, 10], initializer=tf.glorot_uniform_initializer())
        b2 = tf.get_variable("b2", [10], initializer=tf.zeros_initializer())
        logits = tf.matmul(h, w2) + b2
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        return tf.train.AdamOptimizer(0.01).minimize(loss)

    def timed(sess, fn, n):
        for _ in range(20):
            fn()
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - t0) / n * 1e3

    with tf.Graph().as_default():
        if kind == "feed":
            x = tf.placeholder(tf.float32, [None, 8, 8, 1]); y = tf.placeholder(tf.int64, [None])
            train = model(x, y)
            with tf.Session() as s:
                s.run(tf.global_variables_initializer())
                idx = [0]
                def step():
                    i = idx[0]; idx[0] = (i + B) % (1797 - B)
                    s.run(train, {x: X[i:i + B], y: Y[i:i + B]})
                result["ms_per_step"] = timed(s, step, steps)
        elif kind == "compute":
            train = model(tf.constant(X[:B]), tf.constant(Y[:B]))
            with tf.Session() as s:
                s.run(tf.global_variables_initializer())
                result["ms_per_step"] = timed(s, lambda: s.run(train), steps)
        elif kind == "queue_model":
            xs, ys = tf.train.slice_input_producer([tf.constant(X), tf.constant(Y)], seed=1)
            x, y = tf.train.batch([xs, ys], B, num_threads=2, capacity=4 * B)
            train = model(x, y)
            with tf.Session() as s:
                s.run(tf.global_variables_initializer())
                coord = tf.train.Coordinator(); threads = tf.train.start_queue_runners(s, coord)
                result["ms_per_step"] = timed(s, lambda: s.run(train), steps)
                result["ms_get_next_alone"] = timed(s, lambda: s.run(x), steps)
                coord.request_stop(); coord.join(threads)
        elif kind == "data_model":
            ds = tf.data.Dataset.from_tensor_slices((X, Y)).shuffle(1000, seed=1).repeat().batch(B).prefetch(2)
            x, y = tf.data.make_one_shot_iterator(ds).get_next()
            train = model(x, y)
            with tf.Session() as s:
                s.run(tf.global_variables_initializer())
                result["ms_per_step"] = timed(s, lambda: s.run(train), steps)
                result["ms_get_next_alone"] = timed(s, lambda: s.run(x), steps)
print(json.dumps(result))
'''


def write_files(tmp, total_mb, n_files=8, image=3072):
    code = r'''
import sys, numpy as np, tfc as tf
paths, per = sys.argv[1].split(","), int(sys.argv[2])
rng = np.random.RandomState(0)
pool = [rng.randint(0, 256, 3072).astype(np.uint8).tobytes() for _ in range(64)]
for p in paths:
    with tf.python_io.TFRecordWriter(p) as w:
        for i in range(per):
            ex = tf.train.Example(features=tf.train.Features(feature={
                "image": tf.train.Feature(bytes_list=tf.train.BytesList(value=[pool[i % 64]])),
                "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 10]))}))
            w.write(ex.SerializeToString())
'''
    per = int(total_mb * 1e6 / (image + 30) / n_files)
    paths = [os.path.join(tmp, "part-%d.tfrecord" % i) for i in range(n_files)]
    subprocess.run([TFC_PY, "-c", code, ",".join(paths), str(per)], check=True)
    return paths, per * n_files


def run(py, fw, kind, files, steps=300):
    out = subprocess.run([py, "-c", WORKER, fw, kind, json.dumps(files), str(steps)], cwd="/tmp",
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("%s %s failed:\n%s" % (fw, kind, out.stderr[-3000:]))
    return json.loads(out.stdout.strip().splitlines()[-1])


def collect(mb=1024, queue_mb=256, steps=300):
    res = {"uptime_before": os.popen("uptime").read().strip()}
    with tempfile.TemporaryDirectory(dir=os.environ.get("TFC_BENCH_DIR", "/tmp")) as tmp:
        files, n = write_files(tmp, mb)
        size = sum(os.path.getsize(p) for p in files)
        res.update({"records": n, "bytes": size})
        for kind in ("direct", "raw"):
            try:
                r = run(TFC_PY, "tfc", kind, files)
                res[kind + "_MBps"] = r["bytes"] / r["seconds"] / 1e6
            except RuntimeError:
                pass
        for fw, py, kind in (("tfc", TFC_PY, "data"), ("tf", TF_PY, "data"), ("tf", TF_PY, "data_map")):
            r = run(py, fw, kind, files)
            assert r["records"] == n, r
            res["%s_%s_records_per_s" % (fw, kind)] = n / r["seconds"]
            res["%s_%s_MBps" % (fw, kind)] = size / r["seconds"] / 1e6
        qfiles, qn = write_files(tmp, queue_mb, n_files=4)
        res["queue_records"] = qn
        for fw, py in (("tfc", TFC_PY), ("tf", TF_PY)):
            r = run(py, fw, "queue", qfiles)
            assert r["records"] == qn, r
            res["%s_queue_records_per_s" % fw] = qn / r["seconds"]
    for fw, py in (("tfc", TFC_PY), ("tf", TF_PY)):
        for kind in ("compute", "feed", "queue_model", "data_model"):
            r = run(py, fw, kind, [], steps)
            res["%s_%s_ms" % (fw, kind)] = r["ms_per_step"]
            if "ms_get_next_alone" in r:
                res["%s_%s_get_next_ms" % (fw, kind)] = r["ms_get_next_alone"]
    best_tf = max(res["tf_data_records_per_s"], res["tf_data_map_records_per_s"])
    res["tfc_vs_tf_data"] = res["tfc_data_records_per_s"] / best_tf
    res["tfc_vs_tf_queue"] = res["tfc_queue_records_per_s"] / res["tf_queue_records_per_s"]
    for kind in ("feed", "queue_model", "data_model"):
        res["tfc_vs_tf_" + kind] = res["tf_%s_ms" % kind] / res["tfc_%s_ms" % kind]
    res["uptime_after"] = os.popen("uptime").read().strip()
    return res


def markdown(r):
    lines = [
        "## Input pipelines: tf.data, queues and feeding (`benchmarks/bench_input.py`)", "",
        "%d TFRecord Examples (3072 image bytes + label) in 8 files, %.0f MB; best of 2 passes per "
        "pipeline, each in a fresh process; files in the page cache. Read speed of the same files "
        "in the same run: disk (O_DIRECT, 4 MiB) %s MB/s, page cache (os.read, 1 MiB) %.0f MB/s." % (
            r["records"], r["bytes"] / 1e6,
            "%.0f" % r["direct_MBps"] if "direct_MBps" in r else "n/a", r.get("raw_MBps", 0)),
        "",
        "| pipeline | records/s | MB/s | tfc / TF |",
        "|---|---:|---:|---:|",
        "| tfc TFRecordDataset.batch(256) -> ParseExample + DecodeRaw | %.0f | %.0f | %.2fx |" % (
            r["tfc_data_records_per_s"], r["tfc_data_MBps"], r["tfc_vs_tf_data"]),
        "| TF, the same graph | %.0f | %.0f | |" % (r["tf_data_records_per_s"], r["tf_data_MBps"]),
        "| TF, parse inside Dataset.map | %.0f | %.0f | |" % (r["tf_data_map_records_per_s"],
                                                          r["tf_data_map_MBps"]),
        "| tfc queues: 2 TFRecordReader threads -> batch_join(256) (%d records) | %.0f | | %.2fx |" % (
            r["queue_records"], r["tfc_queue_records_per_s"], r["tfc_vs_tf_queue"]),
        "| TF queues, the same graph | %.0f | | |" % r["tf_queue_records_per_s"],
        "",
        "Digits-sized CNN (batch 64, Adam), ms per training step:",
        "",
        "| input | tfc | TF | TF / tfc | get_next alone tfc / TF |",
        "|---|---:|---:|---:|---:|",
        "| compute only (batch in the graph) | %.3f | %.3f | %.2fx | |" % (
            r["tfc_compute_ms"], r["tf_compute_ms"], r["tf_compute_ms"] / r["tfc_compute_ms"]),
        "| feed_dict | %.3f | %.3f | %.2fx | |" % (r["tfc_feed_ms"], r["tf_feed_ms"], r["tfc_vs_tf_feed"]),
        "| queue (slice_input_producer + batch, 2 threads) | %.3f | %.3f | %.2fx | %.3f / %.3f |" % (
            r["tfc_queue_model_ms"], r["tf_queue_model_ms"], r["tfc_vs_tf_queue_model"],
            r["tfc_queue_model_get_next_ms"], r["tf_queue_model_get_next_ms"]),
        "| tf.data (shuffle, repeat, batch, prefetch) | %.3f | %.3f | %.2fx | %.3f / %.3f |" % (
            r["tfc_data_model_ms"], r["tf_data_model_ms"], r["tfc_vs_tf_data_model"],
            r["tfc_data_model_get_next_ms"], r["tf_data_model_get_next_ms"]),
        "",
        "Time blocked in get_next per step is at most the step's time above the compute-only step: "
        "tfc %.3f ms (tf.data), %.3f ms (queue); TF %.3f / %.3f ms." % (
            max(0, r["tfc_data_model_ms"] - r["tfc_compute_ms"]),
            max(0, r["tfc_queue_model_ms"] - r["tfc_compute_ms"]),
            max(0, r["tf_data_model_ms"] - r["tf_compute_ms"]),
            max(0, r["tf_queue_model_ms"] - r["tf_compute_ms"])),
        "",
        "Load: before `%s`; after `%s`." % (r["uptime_before"], r["uptime_after"]),
    ]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=1024)
    ap.add_argument("--queue-mb", type=float, default=256)
    ap.add_argument("--steps", type=int, default=300)
    a = ap.parse_args()
    r = collect(a.mb, a.queue_mb, a.steps)
    print(markdown(r))
    print(json.dumps(r))


if __name__ == "__main__":
    main()
