#!/usr/bin/env python3
"""Writes tests/fixtures/images/: small JPEG/PNG/BMP files and the arrays real
TensorFlow decodes them to (expected.npz), plus resize results.

Run with the TensorFlow oracle venv:  .venv-tf/bin/python tools/make_image_fixtures.py
The image files are written by TensorFlow's own encoders, except the palette
and low-bit-depth PNGs and the BMPs, which are assembled byte by byte here.
expected.npz keys: "<file>|<op>|<attr=value,...>" for decodes and
"resize|<op>|<input>|<h>x<w>|<mode>" for resizes, and the resize inputs.
"""
import os
import struct
import zlib

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_image_ops as g

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "images")


def smooth_image(h, w, c, seed):
  """A natural-ish image: gradients plus a little noise (JPEG-friendly)."""
  rng = np.random.RandomState(seed)
  y, x = np.mgrid[0:h, 0:w].astype(np.float64)
  chans = []
  for k in range(c):
    v = 128 + 100 * np.sin(x / (3.0 + k) + y / (5.0 + 2 * k)) + rng.normal(0, 12, (h, w))
    chans.append(v)
  return np.clip(np.stack(chans, -1), 0, 255).astype(np.uint8)


def png_chunk(kind, data):
  return (struct.pack(">I", len(data)) + kind + data +
          struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))


def raw_png(w, h, depth, color, rows, plte=None, trns=None):
  """A PNG from already packed rows (filter byte 0 each)."""
  out = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color, 0, 0, 0))
  if plte is not None:
    out += png_chunk(b"PLTE", plte)
  if trns is not None:
    out += png_chunk(b"tRNS", trns)
  out += png_chunk(b"IDAT", zlib.compress(b"".join(b"\x00" + r for r in rows)))
  return out + png_chunk(b"IEND", b"")


def bmp(pixels, bottom_up=True):
  """An uncompressed BMP (BGR / BGRA / 8-bit) from an [h, w, c] uint8 array."""
  h, w, c = pixels.shape
  row = (8 * c * w + 31) // 32 * 4
  data = b""
  order = range(h - 1, -1, -1) if bottom_up else range(h)
  for y in order:
    r = pixels[y]
    if c >= 3:
      r = r[:, [2, 1, 0] + ([3] if c == 4 else [])]
    b = r.tobytes()
    data += b + b"\x00" * (row - len(b))
  offset = 14 + 40
  header = b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset)
  info = struct.pack("<IiiHHIIiiII", 40, w, h if bottom_up else -h, 1, 8 * c, 0, len(data),
                     2835, 2835, 0, 0)
  return header + info + data


def main():
  os.makedirs(OUT, exist_ok=True)
  files = {}
  rgb = smooth_image(29, 37, 3, 0)
  gray = smooth_image(19, 23, 1, 1)
  files["rgb420.jpg"] = g.encode_jpeg(rgb, quality=90).numpy()
  files["rgb444.jpg"] = g.encode_jpeg(rgb, quality=75, chroma_downsampling=False).numpy()
  files["progressive.jpg"] = g.encode_jpeg(rgb, quality=85, progressive=True).numpy()
  files["gray.jpg"] = g.encode_jpeg(gray, quality=90).numpy()
  rgba = np.concatenate([smooth_image(11, 13, 3, 2), smooth_image(11, 13, 1, 3)], -1)
  files["rgba.png"] = g.encode_png(rgba).numpy()
  files["rgb.png"] = g.encode_png(smooth_image(9, 10, 3, 4)).numpy()
  files["graya.png"] = g.encode_png(smooth_image(7, 6, 2, 5)).numpy()
  g16 = (np.random.RandomState(6).randint(0, 65536, (5, 8, 1))).astype(np.uint16)
  files["gray16.png"] = g.encode_png(g16).numpy()
  rgb16 = (np.random.RandomState(7).randint(0, 65536, (4, 6, 3))).astype(np.uint16)
  files["rgb16.png"] = g.encode_png(rgb16).numpy()
  pal_idx = np.random.RandomState(8).randint(0, 4, (5, 7)).astype(np.uint8)
  pal_rows = [bytes(r) for r in pal_idx]
  files["palette_trns.png"] = raw_png(7, 5, 8, 3, pal_rows,
                                      plte=bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 99, 199]),
                                      trns=bytes([0, 128]))
  g2 = np.random.RandomState(9).randint(0, 4, (3, 8)).astype(np.uint8)
  g2_rows = [bytes([(r[0] << 6) | (r[1] << 4) | (r[2] << 2) | r[3],
                    (r[4] << 6) | (r[5] << 4) | (r[6] << 2) | r[7]]) for r in g2]
  files["gray2bit.png"] = raw_png(8, 3, 2, 0, g2_rows)
  files["rgb24.bmp"] = bmp(smooth_image(5, 6, 3, 10))
  files["rgba32_topdown.bmp"] = bmp(smooth_image(4, 3, 4, 11), bottom_up=False)
  for name, data in files.items():
    with open(os.path.join(OUT, name), "wb") as f:
      f.write(data)

  exp = {}
  def put(key, value):
    exp[key] = np.asarray(value)

  for name in ("rgb420.jpg", "rgb444.jpg", "progressive.jpg", "gray.jpg"):
    data = files[name]
    for ch in (0, 1, 3):
      put("%s|DecodeJpeg|channels=%d" % (name, ch), g.decode_jpeg(data, channels=ch))
    for ratio in (2, 4, 8):
      put("%s|DecodeJpeg|ratio=%d" % (name, ratio), g.decode_jpeg(data, ratio=ratio))
    put("%s|DecodeJpeg|fancy_upscaling=0" % name, g.decode_jpeg(data, fancy_upscaling=False))
    put("%s|DecodeJpeg|dct_method=INTEGER_FAST" % name,
        g.decode_jpeg(data, dct_method="INTEGER_FAST"))
    put("%s|DecodeJpeg|dct_method=INTEGER_ACCURATE" % name,
        g.decode_jpeg(data, dct_method="INTEGER_ACCURATE"))
    put("%s|DecodeJpeg|channels=1,dct_method=INTEGER_ACCURATE" % name,
        g.decode_jpeg(data, channels=1, dct_method="INTEGER_ACCURATE"))
    put("%s|DecodeJpeg|ratio=2,fancy_upscaling=0" % name,
        g.decode_jpeg(data, ratio=2, fancy_upscaling=False))
  cut = files["rgb420.jpg"][:len(files["rgb420.jpg"]) * 2 // 3]
  with open(os.path.join(OUT, "truncated.jpg"), "wb") as f:
    f.write(cut)
  put("truncated.jpg|DecodeJpeg|try_recover_truncated=1,acceptable_fraction=0.1",
      g.decode_jpeg(cut, try_recover_truncated=True, acceptable_fraction=0.1))
  for name in ("rgba.png", "rgb.png", "graya.png", "gray16.png", "rgb16.png", "palette_trns.png",
               "gray2bit.png"):
    data = files[name]
    for ch in (0, 1, 3, 4):
      for dt in ("uint8", "uint16"):
        put("%s|DecodePng|channels=%d,dtype=%s" % (name, ch, dt),
            g.decode_png(data, channels=ch, dtype=dt))
  for name in files:
    for dt in ("uint8", "uint16", "float32"):
      if name == "rgba32_topdown.bmp" and dt != "uint8":
        continue  # TF 2.21 crashes converting this one
      put("%s|DecodeImage|dtype=%s" % (name, dt),
          g.decode_image(files[name], dtype=dt, expand_animations=False))
  for name in ("rgb24.bmp", "rgba32_topdown.bmp"):
    put("%s|DecodeBmp|channels=0" % name, g.decode_bmp(files[name]))

  rng = np.random.RandomState(12)
  inputs = {"f32": rng.uniform(-3, 3, (2, 5, 7, 3)).astype(np.float32),
            "u8": rng.randint(0, 256, (1, 6, 4, 2)).astype(np.uint8),
            "i32": rng.randint(-1000, 1000, (1, 3, 5, 1)).astype(np.int32)}
  for k, v in inputs.items():
    put("resize_input|" + k, v)
  modes = {"default": {}, "align": {"align_corners": True}, "half": {"half_pixel_centers": True}}
  ops = {"ResizeBilinear": g.resize_bilinear, "ResizeNearestNeighbor": g.resize_nearest_neighbor,
         "ResizeBicubic": g.resize_bicubic}
  for opname, fn in ops.items():
    for k, v in inputs.items():
      for (h, w) in ((3, 4), (11, 13), (1, 1), (5, 7), (10, 2)):
        for mode, kw in modes.items():
          put("resize|%s|%s|%dx%d|%s" % (opname, k, h, w, mode), fn(v, [h, w], **kw))
  np.savez_compressed(os.path.join(OUT, "expected.npz"), **exp)
  print("wrote %d files and %d arrays to %s" % (len(files) + 1, len(exp), os.path.normpath(OUT)))


if __name__ == "__main__":
  main()
