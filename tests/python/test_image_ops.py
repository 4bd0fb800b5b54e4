"""Image ops and tf.image / tf.io against real TensorFlow.

Decoded pixels and resize results must equal the arrays TensorFlow 2.21
produced for the same inputs (tests/fixtures/images/expected.npz, written by
tools/make_image_fixtures.py), bit for bit. Also: encoders round-trip,
ReadFile/WriteFile, convert_image_dtype and per_image_standardization against
NumPy formulas, and TF's error messages.
"""
import pathlib

import numpy as np
import pytest

import tfc as tf
from tfc import errors

FIX = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "images"


@pytest.fixture(scope="module")
def expected():
  with np.load(FIX / "expected.npz") as z:
    return {k: z[k] for k in z.files}


def _attrs(spec):
  out = {}
  for item in spec.split(","):
    k, v = item.split("=")
    if k in ("channels", "ratio"):
      out[k] = int(v)
    elif k in ("fancy_upscaling", "try_recover_truncated"):
      out[k] = bool(int(v))
    elif k == "acceptable_fraction":
      out[k] = float(v)
    else:
      out[k] = v
  return out


def _run(t, feed=None):
  with tf.Session() as sess:
    return sess.run(t, feed)


def _decode(op, data, attrs):
  if op == "DecodeJpeg":
    return tf.image.decode_jpeg(data, **attrs)
  if op == "DecodePng":
    return tf.image.decode_png(data, **attrs)
  if op == "DecodeBmp":
    return tf.image.decode_bmp(data, **attrs)
  return tf.image.decode_image(data, expand_animations=False, **attrs)


def test_decoders_match_tensorflow(expected):
  keys = [k for k in expected if not k.startswith("resize")]
  assert len(keys) > 120
  with tf.Graph().as_default():
    data = tf.placeholder(tf.string, [])
    fetches, feeds = [], []
    for key in keys:
      name, op, spec = key.split("|")
      fetches.append((key, _decode(op, data, _attrs(spec)), (FIX / name).read_bytes()))
    with tf.Session() as sess:
      for key, t, raw in fetches:
        got = sess.run(t, {data: raw})
        want = expected[key]
        assert got.dtype == want.dtype, key
        assert got.shape == want.shape, key
        np.testing.assert_array_equal(got, want, err_msg=key)


def test_resize_matches_tensorflow(expected):
  keys = [k for k in expected if k.startswith("resize|")]
  fns = {"ResizeBilinear": tf.image.resize_bilinear,
         "ResizeNearestNeighbor": tf.image.resize_nearest_neighbor,
         "ResizeBicubic": tf.image.resize_bicubic}
  modes = {"default": {}, "align": {"align_corners": True}, "half": {"half_pixel_centers": True}}
  with tf.Graph().as_default():
    outs = []
    for key in keys:
      _, op, inp, hw, mode = key.split("|")
      h, w = (int(x) for x in hw.split("x"))
      outs.append((key, fns[op](expected["resize_input|" + inp], [h, w], **modes[mode])))
    with tf.Session() as sess:
      vals = sess.run([t for _, t in outs])
  for (key, t), got in zip(outs, vals):
    want = expected[key]
    assert got.dtype == want.dtype, key
    assert t.shape.as_list() == list(want.shape), key
    np.testing.assert_array_equal(got, want, err_msg=key)


def test_resize_images_v1():
  img = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4, 1)
  with tf.Graph().as_default():
    same = tf.image.resize_images(img, [3, 4])
    assert same.dtype == tf.float32
    r3 = tf.image.resize_images(img[0], [6, 8], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
    assert r3.shape.as_list() == [6, 8, 1]
    r4 = tf.image.resize_images(img.astype(np.uint8), [5, 5])
    assert r4.dtype == tf.float32 and r4.shape.as_list() == [2, 5, 5, 1]
    a, b, c = _run([same, r3, r4])
  np.testing.assert_array_equal(a, img)
  np.testing.assert_array_equal(b, img[0].repeat(2, 0).repeat(2, 1))
  assert c.shape == (2, 5, 5, 1)


def test_encode_roundtrip_and_files(tmp_path):
  rng = np.random.RandomState(0)
  img = rng.randint(0, 256, (6, 9, 3)).astype(np.uint8)
  img16 = rng.randint(0, 65536, (4, 5, 2)).astype(np.uint16)
  path = str(tmp_path / "sub" / "dir" / "x.png")
  with tf.Graph().as_default():
    png = tf.image.encode_png(img, compression=9)
    write = tf.io.write_file(path, png)
    back = tf.image.decode_png(tf.read_file(path))
    png16 = tf.image.decode_png(tf.image.encode_png(img16), dtype=tf.uint16)
    smooth = (np.mgrid[0:16, 0:16, 0:3].sum(0) * 5).astype(np.uint8)
    jpg = tf.image.decode_jpeg(tf.image.encode_jpeg(smooth, quality=100, chroma_downsampling=False),
                               dct_method="INTEGER_ACCURATE")
    gray = tf.image.decode_jpeg(tf.image.encode_jpeg(img[:, :, :1], format="grayscale"))
    xmp = tf.image.encode_jpeg(img, xmp_metadata="<x:xmpmeta/>", progressive=True,
                               optimize_size=True)
    with tf.Session() as sess:
      sess.run(write)
      b, p16, j, gr, x = sess.run([back, png16, jpg, gray, xmp])
  np.testing.assert_array_equal(b, img)
  np.testing.assert_array_equal(p16, img16)
  assert np.abs(j.astype(int) - smooth).max() <= 3
  assert gr.shape == (6, 9, 1)
  assert b"http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta/>" in x


def test_read_file_errors(tmp_path):
  with tf.Graph().as_default():
    missing = str(tmp_path / "nope.bin")
    with pytest.raises(errors.NotFoundError, match=r"nope\.bin; No such file or directory"):
      _run(tf.io.read_file(missing))
    with pytest.raises(errors.FailedPreconditionError, match="Is a directory"):
      _run(tf.io.read_file(str(tmp_path)))


def test_decode_errors():
  with tf.Graph().as_default():
    data = tf.placeholder(tf.string, [])
    jpeg = tf.image.decode_jpeg(data)
    png = tf.image.decode_png(data)
    img = tf.image.decode_image(data)
    with tf.Session() as sess:
      with pytest.raises(errors.InvalidArgumentError,
                         match=r"Invalid JPEG data or crop window, data size 11"):
        sess.run(jpeg, {data: b"hello world"})
      trunc = (FIX / "truncated.jpg").read_bytes()
      with pytest.raises(errors.InvalidArgumentError, match="Invalid JPEG data"):
        sess.run(jpeg, {data: trunc})
      with pytest.raises(errors.InvalidArgumentError, match=r"Invalid PNG header, data size 11"):
        sess.run(png, {data: b"hello world"})
      cut = (FIX / "rgb.png").read_bytes()[:60]
      with pytest.raises(errors.InvalidArgumentError, match="Invalid PNG"):
        sess.run(png, {data: cut})
      with pytest.raises(errors.InvalidArgumentError, match="Unknown image file format"):
        sess.run(img, {data: b"hello world"})
    with pytest.raises(errors.InvalidArgumentError, match="channels must be 0, 1, or 3, got 2"):
      _run(tf.image.decode_jpeg(b"x", channels=2))
    with pytest.raises(errors.InvalidArgumentError, match="ratio must be 1, 2, 4, or 8, got 3"):
      _run(tf.image.decode_jpeg(b"x", ratio=3))
    with pytest.raises(errors.InvalidArgumentError, match="dct_method must be one of"):
      _run(tf.image.decode_jpeg(b"x", dct_method="FOO"))
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
      tf.image.decode_jpeg([b"x"])


def test_encode_errors():
  with tf.Graph().as_default():
    with pytest.raises(errors.InvalidArgumentError, match=r"image must have 1 or 3 channels, got \[4,4,2\]"):
      _run(tf.image.encode_jpeg(np.zeros((4, 4, 2), np.uint8)))
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"format grayscale expects 1 channels, got \[4,4,3\]"):
      _run(tf.image.encode_jpeg(np.zeros((4, 4, 3), np.uint8), format="grayscale"))
    with pytest.raises(errors.InvalidArgumentError, match=r"quality must be in \[0,100\], got 101"):
      _run(tf.image.encode_jpeg(np.zeros((4, 4, 3), np.uint8), quality=101))
    with pytest.raises(errors.InvalidArgumentError, match=r"compression should be in \[-1,9\], got 10"):
      _run(tf.image.encode_png(np.zeros((4, 4, 3), np.uint8), compression=10))
    with pytest.raises(errors.InvalidArgumentError, match="image must have 1, 2, 3, or 4 channels, got 5"):
      _run(tf.image.encode_png(np.zeros((4, 4, 5), np.uint8)))


def test_resize_errors():
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [1, None, None, 1])
    with pytest.raises(errors.InvalidArgumentError, match="output dimensions must be positive"):
      _run(tf.image.resize_bilinear(x, [0, 2]), {x: np.zeros((1, 2, 2, 1))})
    with pytest.raises(errors.InvalidArgumentError, match="input image must be of non-zero size"):
      _run(tf.image.resize_bilinear(x, [2, 2]), {x: np.zeros((1, 0, 2, 1))})
    with pytest.raises(errors.InvalidArgumentError,
                       match="If half_pixel_centers is True, align_corners must be False."):
      _run(tf.image.resize_nearest_neighbor(x, [2, 2], align_corners=True, half_pixel_centers=True),
           {x: np.zeros((1, 2, 2, 1))})
    with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 3"):
      tf.image.resize_bilinear(np.zeros((2, 2, 1), np.float32), [1, 1])


def test_convert_image_dtype():
  u8 = np.array([[[0], [1], [127], [128], [255]]], np.uint8)
  f = np.array([[[-0.5], [0.0], [0.25], [0.999], [1.0], [1.5]]], np.float32)
  i32 = np.array([[[0], [2 ** 31 - 1], [-5]]], np.int32)
  with tf.Graph().as_default():
    ops = [tf.image.convert_image_dtype(u8, tf.float32),
           tf.image.convert_image_dtype(u8, tf.uint16),
           tf.image.convert_image_dtype(u8, tf.int32),
           tf.image.convert_image_dtype(f, tf.uint8, saturate=True),
           tf.image.convert_image_dtype(f, tf.float64),
           tf.image.convert_image_dtype(i32, tf.uint8, saturate=True),
           tf.image.convert_image_dtype(u8, tf.uint8)]
    a, b, c, d, e, g, h = _run(ops)
  np.testing.assert_array_equal(a, u8.astype(np.float32) * np.float32(1 / 255.))
  assert b.dtype == np.uint16 and (b == u8.astype(np.uint16) * 256).all()
  assert (c == u8.astype(np.int32) * (2 ** 23)).all()
  np.testing.assert_array_equal(d.ravel(), np.clip(f.ravel() * 255.5, 0, 255).astype(np.uint8))
  assert e.dtype == np.float64
  np.testing.assert_array_equal(g.ravel(), [0, 255, 0])
  np.testing.assert_array_equal(h, u8)


def test_per_image_standardization():
  rng = np.random.RandomState(1)
  imgs = rng.randint(0, 256, (2, 4, 5, 3)).astype(np.uint8)
  flat = np.full((3, 3, 1), 7, np.float32)
  with tf.Graph().as_default():
    a, b = _run([tf.image.per_image_standardization(imgs),
                 tf.image.per_image_standardization(flat)])
  x = imgs.astype(np.float64)
  mean = x.mean(axis=(1, 2, 3), keepdims=True)
  std = np.maximum(x.std(axis=(1, 2, 3), keepdims=True), 1 / np.sqrt(60))
  np.testing.assert_allclose(a, (x - mean) / std, rtol=1e-4, atol=1e-4)
  assert a.dtype == np.float32
  np.testing.assert_array_equal(b, np.zeros_like(flat))


def test_grayscale_contrast_flips():
  rng = np.random.RandomState(2)
  img = rng.uniform(0, 1, (3, 4, 3)).astype(np.float32)
  with tf.Graph().as_default():
    g, c, lr, ud = _run([tf.image.rgb_to_grayscale(img), tf.image.adjust_contrast(img, 1.5),
                         tf.image.flip_left_right(img), tf.image.flip_up_down(img)])
  np.testing.assert_allclose(g[..., 0], img @ np.array([0.2989, 0.5870, 0.1140], np.float32),
                             rtol=1e-5)
  m = img.mean(axis=(0, 1))
  np.testing.assert_allclose(c, (img - m) * 1.5 + m, rtol=1e-5, atol=1e-6)
  np.testing.assert_array_equal(lr, img[:, ::-1])
  np.testing.assert_array_equal(ud, img[::-1])
