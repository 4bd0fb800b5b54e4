#!/usr/bin/env python3
"""Writes tests/fixtures/tfrecord/: TFRecord files and Example protos made by
real TensorFlow, with what TensorFlow reads back from them.

Run with the TensorFlow venv:

  .venv-tf/bin/python tools/make_tfrecord_fixtures.py [--out DIR]

Files (small, committed):
  examples.tfrecord        six tf.train.Examples (image bytes, label, weights,
                           tags, an optional feature), no compression
  examples_gzip.tfrecord   the same records, GZIP
  examples_zlib.tfrecord   the same records, ZLIB
  corrupt_data.tfrecord    examples.tfrecord with one data byte of record 3 flipped
  corrupt_length.tfrecord  ... with one length byte of record 2 flipped
  truncated.tfrecord       examples.tfrecord cut inside record 5's data
  sequence_example.pb      a serialized tf.train.SequenceExample
  expected.json            per file: the records TF's tf_record_iterator yields
                           (hex) and the error it ends with (class, message);
                           the parse_example / parse_single_example results of
                           the records (TF's values); the SequenceExample as text
"""
import argparse
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
OUT = os.path.join(REPO, "tests", "fixtures", "tfrecord")


def make_examples(tf):
    """Six Examples: 12 image bytes, an int64 label, 3 float weights, 0-3 tags,
    and an "extra" float feature in some."""
    rng = np.random.RandomState(13)
    out = []
    for i in range(6):
        feature = {
            "image": tf.train.Feature(bytes_list=tf.train.BytesList(
                value=[rng.randint(0, 256, 12).astype(np.uint8).tobytes()])),
            "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i * 3 - 7])),
            "weights": tf.train.Feature(float_list=tf.train.FloatList(
                value=list(rng.uniform(-1, 1, 3).astype(np.float32)))),
            "tags": tf.train.Feature(bytes_list=tf.train.BytesList(
                value=[("t%d" % k).encode() for k in range(i % 4)])),
        }
        if i % 2:
            feature["extra"] = tf.train.Feature(float_list=tf.train.FloatList(value=[i / 2.0]))
        out.append(tf.train.Example(features=tf.train.Features(feature=feature)))
    return out


FEATURES = "features"  # the feature spec both sides build, by name


def features(tf):
    return {
        "image": tf.io.FixedLenFeature([], tf.string),
        "label": tf.io.FixedLenFeature([1], tf.int64),
        "weights": tf.io.FixedLenFeature([3], tf.float32),
        "tags": tf.io.VarLenFeature(tf.string),
        "extra": tf.io.FixedLenFeature([], tf.float32, default_value=-1.0),
    }


def _jsonable(v):
    if hasattr(v, "indices"):
        return {"indices": v.indices.tolist(), "values": _jsonable(v.values),
                "dense_shape": v.dense_shape.tolist()}
    v = np.asarray(v)
    if v.dtype.kind == "S":
        v = v.astype(object)
    if v.dtype == object:
        return {"bytes_hex": [b.hex() for b in v.ravel().tolist()], "shape": list(v.shape)}
    return {"values": v.ravel().tolist(), "shape": list(v.shape), "dtype": str(v.dtype)}


def read_all(tf, path, compression):
    recs, err = [], None
    try:
        for r in tf.compat.v1.io.tf_record_iterator(path, compression):
            recs.append(r.hex())
    except Exception as e:  # pylint: disable=broad-except
        err = {"class": type(e).__name__, "message": getattr(e, "message", str(e))}
    return {"records": recs, "error": err}


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args(argv)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf  # pylint: disable=g-import-not-at-top
    os.makedirs(args.out, exist_ok=True)
    examples = [e.SerializeToString() for e in make_examples(tf)]
    files = {"examples.tfrecord": "", "examples_gzip.tfrecord": "GZIP",
             "examples_zlib.tfrecord": "ZLIB"}
    for name, comp in files.items():
        with tf.io.TFRecordWriter(os.path.join(args.out, name), comp) as w:
            for e in examples:
                w.write(e)
    plain = open(os.path.join(args.out, "examples.tfrecord"), "rb").read()
    offsets = [0]
    for e in examples:
        offsets.append(offsets[-1] + 16 + len(e))
    damaged = {
        "corrupt_data.tfrecord": (3, 12 + 5, None),
        "corrupt_length.tfrecord": (2, 1, None),
        "truncated.tfrecord": (None, None, offsets[5] + 12 + 7),
    }
    for name, (rec, off, cut) in damaged.items():
        data = bytearray(plain)
        if cut is not None:
            data = data[:cut]
        else:
            data[offsets[rec] + off] ^= 0x20
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(bytes(data))
        files[name] = ""

    expected = {"tensorflow": tf.__version__, "files": {}, "offsets": offsets}
    for name, comp in files.items():
        expected["files"][name] = dict(read_all(tf, os.path.join(args.out, name), comp),
                                       compression=comp)
    # TF's parse results for the records
    tf1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        ser = tf1.placeholder(tf.string, [None])
        batch = tf1.parse_example(ser, features(tf))
        one = tf1.parse_single_example(ser[0], features(tf))
        with tf1.Session() as sess:
            b, o = sess.run([batch, one], {ser: examples})
    expected["parse_example"] = {k: _jsonable(v) for k, v in b.items()}
    expected["parse_single_example"] = {k: _jsonable(v) for k, v in o.items()}

    seq = tf.train.SequenceExample()
    seq.context.feature["length"].int64_list.value.append(3)
    for t in range(3):
        seq.feature_lists.feature_list["tokens"].feature.add().bytes_list.value.append(
            b"tok%d" % t)
        seq.feature_lists.feature_list["scores"].feature.add().float_list.value.extend([t, -t])
    with open(os.path.join(args.out, "sequence_example.pb"), "wb") as f:
        f.write(seq.SerializeToString(deterministic=True))
    from google.protobuf import text_format  # pylint: disable=g-import-not-at-top
    expected["sequence_example_text"] = text_format.MessageToString(seq)
    with open(os.path.join(args.out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", args.out)


if __name__ == "__main__":
    main()
