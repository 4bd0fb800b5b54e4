"""Input pipeline benchmark: TFRecord files of tf.train.Examples (image bytes
+ label) read and parsed into batches, tfc beside TensorFlow, and the file's
raw read speed measured in the same run.

Usage (from the repository root):

  .venv/bin/python benchmarks/bench_tfrecord.py [--records 50000] [--batch 256] [--image 3072]

One file is written once (by tfc; TensorFlow reads the same bytes), then each
pipeline runs in a fresh process, best of three passes over the whole file:

  disk read    the file read with O_DIRECT in 4 MiB chunks: the device's speed
  raw read     the file read in 1 MiB chunks (os.read: page cache, the ceiling
               any reader has once the file is cached)
  tfc          tf.python_io's record reader in batches -> feed -> one step of
               parse_example + decode_raw (image bytes to uint8 [batch, image])
  TF iterator  TensorFlow's tf_record_iterator -> the same graph in a tf.Session
  TF tf.data   TFRecordDataset.batch.map(parse_example + decode_raw), TF's fastest
               path (graph mode, iterated with a one-shot iterator)

Prints the BENCHMARKS.md table and, last, one JSON line with the figures
(benchmarks/run.py calls collect() and markdown()).
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
kind, path, batch, image, passes = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), 3
if kind == "raw":
    def one_pass():
        n = 0
        fd = os.open(path, os.O_RDONLY)
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            n += len(b)
        os.close(fd)
        return n, 0
elif kind == "direct":
    import mmap
    def one_pass():
        n = 0
        fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
        buf = mmap.mmap(-1, 1 << 22)  # page-aligned, as O_DIRECT needs
        while True:
            k = os.readv(fd, [buf])
            if k <= 0:
                break
            n += k
        os.close(fd)
        return n, 0
elif kind == "tfc":
    import tfc as tf
    from tfc import _tfc
    ser = tf.placeholder(tf.string, [None])
    f = tf.parse_example(ser, {"image": tf.FixedLenFeature([], tf.string),
                               "label": tf.FixedLenFeature([], tf.int64)})
    out = [tf.decode_raw(f["image"], tf.uint8), f["label"]]
    sess = tf.Session()
    run = sess.make_callable(out, [ser])
    def one_pass():
        n = 0
        reader = _tfc.RecordReader(path)
        while True:
            recs = reader.read_batch(batch)
            if not recs:
                break
            img, lab = run(recs)
            n += len(lab)
        return n, img.shape[1]
else:
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
    feats = {"image": tf.FixedLenFeature([], tf.string), "label": tf.FixedLenFeature([], tf.int64)}
    if kind == "tf_iter":
        ser = tf.placeholder(tf.string, [None])
        f = tf.parse_example(ser, feats)
        out = [tf.decode_raw(f["image"], tf.uint8), f["label"]]
        sess = tf.Session()
        run = sess.make_callable(out, [ser])
        def one_pass():
            n = 0
            recs = []
            for r in tf.io.tf_record_iterator(path):
                recs.append(r)
                if len(recs) == batch:
                    img, lab = run(recs)
                    n += len(lab)
                    recs = []
            if recs:
                img, lab = run(recs)
                n += len(lab)
            return n, img.shape[1]
    else:
        def parse(s):
            f = tf.io.parse_example(s, feats)
            return tf.io.decode_raw(f["image"], tf.uint8), f["label"]
        sess = tf.Session()
        def one_pass():
            ds = tf.data.TFRecordDataset(path).batch(batch).map(parse)
            nxt = tf.data.make_one_shot_iterator(ds).get_next()
            n = 0
            while True:
                try:
                    img, lab = sess.run(nxt)
                except tf.errors.OutOfRangeError:
                    break
                n += len(lab)
            return n, img.shape[1]
best = None
for _ in range(passes):
    t0 = time.perf_counter()
    n, width = one_pass()
    dt = time.perf_counter() - t0
    best = dt if best is None or dt < best else best
print(json.dumps({"kind": kind, "items": n, "seconds": best, "width": width}))
'''


def write_file(path, records, image):
    """Writes `records` Examples (random image bytes, a label) with tfc."""
    code = r'''
import sys, numpy as np, tfc as tf
path, n, image = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.RandomState(0)
with tf.python_io.TFRecordWriter(path) as w:
    for i in range(n):
        ex = tf.train.Example(features=tf.train.Features(feature={
            "image": tf.train.Feature(bytes_list=tf.train.BytesList(
                value=[rng.randint(0, 256, image).astype(np.uint8).tobytes()])),
            "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 10]))}))
        w.write(ex.SerializeToString())
'''
    subprocess.run([TFC_PY, "-c", code, path, str(records), str(image)], check=True)


def run(py, kind, path, batch, image):
    out = subprocess.run([py, "-c", WORKER, kind, path, str(batch), str(image)], cwd="/tmp",
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def collect(tfc_py=TFC_PY, tf_py=TF_PY, records=50000, batch=256, image=3072):
    """Writes the file, runs every pipeline; returns the figures (records/s, MB/s)."""
    have_tf = tf_py is not None and os.path.exists(tf_py)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "images.tfrecord")
        write_file(path, records, image)
        size = os.path.getsize(path)
        results = {"raw": run(tfc_py, "raw", path, batch, image),
                   "tfc": run(tfc_py, "tfc", path, batch, image)}
        try:
            results["direct"] = run(tfc_py, "direct", path, batch, image)
        except subprocess.CalledProcessError:  # a file system without O_DIRECT
            pass
        if have_tf:
            results["tf_iter"] = run(tf_py, "tf_iter", path, batch, image)
            results["tf_data"] = run(tf_py, "tf_data", path, batch, image)
    raw = results["raw"]
    figures = {"records": records, "image": image, "bytes": size, "batch": batch,
               "raw_read_MBps": raw["items"] / raw["seconds"] / 1e6}
    if "direct" in results:
        figures["disk_read_MBps"] = results["direct"]["items"] / results["direct"]["seconds"] / 1e6
    for kind in ("tfc", "tf_iter", "tf_data"):
        r = results.get(kind)
        if not r:
            continue
        assert r["items"] == records and r["width"] == image, r
        figures[kind + "_records_per_s"] = r["items"] / r["seconds"]
        figures[kind + "_MBps"] = size / r["seconds"] / 1e6
    for kind in ("tf_iter", "tf_data"):
        if kind + "_records_per_s" in figures:
            figures["tfc_vs_" + kind] = (figures["tfc_records_per_s"] /
                                         figures[kind + "_records_per_s"])
    return figures


def markdown(res):
    """BENCHMARKS.md lines for collect()'s figures."""
    names = {"tfc": "tfc (record reader + ParseExample + DecodeRaw)",
             "tf_iter": "TF tf_record_iterator + the same graph",
             "tf_data": "TF tf.data (TFRecordDataset.batch.map)"}
    lines = ["", "## Input pipeline: TFRecord Examples", "",
             "%d Examples (%d image bytes + an int64 label; %.0f MB) read and parsed into batches "
             "of %d, best of 3 passes in a fresh process per pipeline (the file in the page "
             "cache); the file's read speed in the same run: from the disk (O_DIRECT, 4 MiB "
             "reads) %s, from the page cache (os.read, 1 MiB chunks) %.0f MB/s "
             "(`.venv/bin/python benchmarks/bench_tfrecord.py`)." % (
                 res["records"], res["image"], res["bytes"] / 1e6, res["batch"],
                 "%.0f MB/s" % res["disk_read_MBps"] if "disk_read_MBps" in res else "n/a",
                 res["raw_read_MBps"]), "",
             "| pipeline | records/s | MB/s | of disk read | of page-cache read | tfc / it | target |",
             "|---|---|---|---|---|---|---|"]
    for kind in ("tfc", "tf_iter", "tf_data"):
        if kind + "_records_per_s" not in res:
            continue
        vs = res.get("tfc_vs_" + kind)
        disk = res.get("disk_read_MBps")
        lines.append("| %s | %.0f | %.0f | %s | %.2fx | %s | %s |" % (
            names[kind], res[kind + "_records_per_s"], res[kind + "_MBps"],
            "%.2fx" % (res[kind + "_MBps"] / disk) if disk else "n/a",
            res[kind + "_MBps"] / res["raw_read_MBps"], "%.2fx" % vs if vs else "",
            "≥ 0.5x of disk read" if kind == "tfc" else "tfc ≥ 1.5x"))
    lines.append("")
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=50000)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--image", type=int, default=3072)
    args = ap.parse_args(argv)
    res = collect(TFC_PY, TF_PY, args.records, args.batch, args.image)
    print("\n".join(markdown(res)))
    print(json.dumps(res))


if __name__ == "__main__":
    sys.exit(main())
