"""tf.image's detection-style ops: non-max suppression (V3/V4/V5, overlaps,
combined), crop_and_resize and its gradients, draw_bounding_boxes,
extract_glimpse, sample_distorted_bounding_box and resize_area. Values
against NumPy references, gradients by finite differences, error classes.
(TensorFlow's own outputs: tests/fixtures/ops via test_compat_ops.py.)"""
import numpy as np
import pytest

import tfc as tf


def _run(t, feed=None):
  with tf.Session() as sess:
    return sess.run(t, feed)


def _iou(a, b):
  ay0, ay1 = sorted((a[0], a[2]))
  ax0, ax1 = sorted((a[1], a[3]))
  by0, by1 = sorted((b[0], b[2]))
  bx0, bx1 = sorted((b[1], b[3]))
  aa, ab = (ay1 - ay0) * (ax1 - ax0), (by1 - by0) * (bx1 - bx0)
  if aa <= 0 or ab <= 0:
    return 0.0
  inter = max(min(ay1, by1) - max(ay0, by0), 0) * max(min(ax1, bx1) - max(ax0, bx0), 0)
  return inter / (aa + ab - inter)


def _nms_ref(boxes, scores, k, iou_t, score_t=-np.inf):
  order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
  sel = []
  for i in order:
    if len(sel) == k:
      break
    if scores[i] <= score_t:
      continue
    if all(_iou(boxes[i], boxes[j]) <= iou_t for j in sel):
      sel.append(i)
  return sel


def test_non_max_suppression_matches_greedy_reference():
  rng = np.random.RandomState(0)
  boxes = rng.uniform(0, 1, (40, 4)).astype(np.float32)
  scores = rng.uniform(0, 1, 40).astype(np.float32)
  with tf.Graph().as_default():
    a = tf.image.non_max_suppression(boxes, scores, 15, iou_threshold=0.3)
    b = tf.image.non_max_suppression(boxes, scores, 15, iou_threshold=0.3, score_threshold=0.5)
    ra, rb = _run([a, b])
  assert list(ra) == _nms_ref(boxes, scores, 15, 0.3)
  assert list(rb) == _nms_ref(boxes, scores, 15, 0.3, 0.5)
  assert a.dtype == tf.int32 and a.shape.as_list() == [None]


def test_padded_and_with_scores():
  boxes = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 10, 1, 11], [0, 10.1, 1, 11.1]],
                   np.float32)
  scores = np.array([0.9, 0.8, 0.7, 0.6], np.float32)
  with tf.Graph().as_default():
    idx, valid = tf.image.non_max_suppression_padded(boxes, scores, 4, 0.5,
                                                     pad_to_max_output_size=True)
    assert idx.shape.as_list() == [4]
    si, ss = tf.image.non_max_suppression_with_scores(boxes, scores, 4, 1.0, soft_nms_sigma=0.5)
    ri, rv, rsi, rss = _run([idx, valid, si, ss])
  assert list(ri) == [0, 2, 0, 0] and rv == 2
  # soft NMS: box 1 decays by exp(-0.5 * iou^2 / sigma) after box 0 is taken
  iou01 = _iou(boxes[0], boxes[1])
  assert list(rsi) == [0, 2, 1, 3]
  np.testing.assert_allclose(rss[2], 0.8 * np.exp(-iou01 ** 2), rtol=1e-5)


def test_overlaps_and_combined():
  ov = np.array([[1, 0.7, 0.1], [0.7, 1, 0.2], [0.1, 0.2, 1]], np.float32)
  scores = np.array([0.5, 0.9, 0.3], np.float32)
  boxes = np.array([[[[0, 0, 0.5, 0.5]], [[0, 0, 0.5, 0.55]], [[0.6, 0.6, 1.2, 1]]]], np.float32)
  cls_scores = np.array([[[0.9, 0.1], [0.8, 0.7], [0.2, 0.95]]], np.float32)
  with tf.Graph().as_default():
    o = tf.image.non_max_suppression_overlaps(ov, scores, 3, overlap_threshold=0.5)
    nb, ns, nc, nv = tf.image.combined_non_max_suppression(boxes, cls_scores, 2, 4, 0.5, 0.15)
    assert nb.shape.as_list() == [1, 4, 4]
    ro, rb, rs, rc, rv = _run([o, nb, ns, nc, nv])
  assert list(ro) == [1, 2]
  # class 0 keeps boxes 0 and 2 (box 1 overlaps box 0), class 1 boxes 2 and 1
  np.testing.assert_allclose(rs[0], [0.95, 0.9, 0.7, 0.2], rtol=1e-6)
  np.testing.assert_array_equal(rc[0], [1, 0, 1, 0])
  assert list(rv) == [4]
  np.testing.assert_allclose(rb[0, 0], [0.6, 0.6, 1.0, 1.0])  # clipped to [0, 1]


def _crop_ref(img, boxes, ind, size, extrap=0.0):
  n, (ch, cw) = len(boxes), size
  _, h, w, d = img.shape
  out = np.zeros((n, ch, cw, d), np.float64)
  for k, (y1, x1, y2, x2) in enumerate(boxes.astype(np.float64)):
    for y in range(ch):
      iy = y1 * (h - 1) + y * (y2 - y1) * (h - 1) / (ch - 1) if ch > 1 else 0.5 * (y1 + y2) * (h - 1)
      for x in range(cw):
        ix = x1 * (w - 1) + x * (x2 - x1) * (w - 1) / (cw - 1) if cw > 1 else 0.5 * (x1 + x2) * (w - 1)
        if not (0 <= iy <= h - 1 and 0 <= ix <= w - 1):
          out[k, y, x] = extrap
          continue
        t, l = int(np.floor(iy)), int(np.floor(ix))
        bo, r = int(np.ceil(iy)), int(np.ceil(ix))
        fy, fx = iy - t, ix - l
        im = img[ind[k]].astype(np.float64)
        top = im[t, l] + (im[t, r] - im[t, l]) * fx
        bot = im[bo, l] + (im[bo, r] - im[bo, l]) * fx
        out[k, y, x] = top + (bot - top) * fy
  return out


def test_crop_and_resize_values_and_gradients():
  rng = np.random.RandomState(3)
  img = rng.uniform(-1, 1, (2, 6, 7, 2)).astype(np.float32)
  boxes = np.array([[0.1, 0.2, 0.8, 0.9], [-0.2, 0.1, 1.1, 0.7], [0.6, 0.7, 0.3, 0.2]], np.float32)
  ind = np.array([0, 1, 1], np.int32)
  with tf.Graph().as_default():
    x, b = tf.constant(img), tf.constant(boxes)
    crops = tf.image.crop_and_resize(x, b, ind, [4, 5], extrapolation_value=-3.0)
    assert crops.shape.as_list() == [3, 4, 5, 2]
    got = _run(crops)
    err_img = tf.test.compute_gradient_error(x, img.shape, crops, [3, 4, 5, 2], x_init_value=img)
    # samples off the pixel grid (at a grid point the gradient has a kink, as in TF)
    inner_v = np.array([[0.13, 0.21, 0.77, 0.88]], np.float32)
    inner = tf.constant(inner_v)
    c2 = tf.image.crop_and_resize(x, inner, ind[:1], [3, 3])
    err_box = tf.test.compute_gradient_error(inner, [1, 4], c2, [1, 3, 3, 2],
                                             x_init_value=inner_v, delta=1e-3)
  np.testing.assert_allclose(got, _crop_ref(img, boxes, ind, (4, 5), -3.0), rtol=1e-5, atol=1e-5)
  assert err_img < 1e-3
  assert err_box < 5e-3


def test_crop_and_resize_errors():
  img = np.zeros((1, 4, 4, 1), np.float32)
  with tf.Graph().as_default():
    p = tf.placeholder(tf.int32, [None])
    c = tf.image.crop_and_resize(img, [[0.0, 0.0, 1.0, 1.0]], p, [2, 2])
    with pytest.raises(tf.errors.OutOfRangeError, match="box_index has values outside"):
      _run(c, {p: [1]})
    q = tf.placeholder(tf.float32, [None, 4])
    c = tf.image.crop_and_resize(img, q, [0], [2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not finite"):
      _run(c, {q: [[0, 0, np.inf, 1]]})
    with pytest.raises(ValueError):
      tf.image.crop_and_resize(img, [[0.0, 0.0, 1.0]], [0], [2, 2])


def test_nms_errors():
  boxes = np.zeros((3, 4), np.float32)
  with tf.Graph().as_default():
    t = tf.placeholder(tf.float32, [])
    n = tf.image.non_max_suppression(boxes, [0.1, 0.2, 0.3], 2, iou_threshold=t)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"iou_threshold must be in \[0, 1\]"):
      _run(n, {t: 2.0})
    with pytest.raises(ValueError):
      tf.image.non_max_suppression(np.zeros((3, 5), np.float32), [0.1, 0.2, 0.3], 2)
    with pytest.raises(ValueError):
      tf.image.combined_non_max_suppression(np.zeros((1, 3, 2, 4), np.float32),
                                            np.zeros((1, 3, 3), np.float32), 2, 2)


def test_draw_bounding_boxes_outline():
  img = np.zeros((1, 5, 6, 3), np.float32)
  with tf.Graph().as_default():
    out = _run(tf.image.draw_bounding_boxes(img, [[[0.25, 0.2, 0.75, 0.6]]]))
    red = _run(tf.image.draw_bounding_boxes(img, [[[0.0, 0.0, 1.0, 1.0]]],
                                            colors=[[1.0, 0.0, 0.0]]))
  mask = np.zeros((5, 6), bool)
  mask[1, 1:4] = mask[3, 1:4] = True
  mask[1:4, 1] = mask[1:4, 3] = True
  np.testing.assert_array_equal(out[0, ..., 0] == 1, mask)   # yellow: (1, 1, 0)
  np.testing.assert_array_equal(out[0, ..., 2], 0)
  border = np.ones((5, 6), bool)
  border[1:4, 1:5] = False
  np.testing.assert_array_equal(red[0, ..., 0] == 1, border)


def test_extract_glimpse_inside_and_noise():
  img = np.arange(2 * 6 * 7, dtype=np.float32).reshape(2, 6, 7, 1)
  with tf.Graph().as_default():
    g = _run(tf.image.extract_glimpse(img, [2, 3], [[0.0, 0.0], [-0.5, 0.5]]))
    n = _run(tf.image.extract_glimpse(img, [4, 4], [[-1.0, -1.0], [1.0, 1.0]]))
  np.testing.assert_array_equal(g[0, ..., 0], img[0, 2:4, 2:5, 0])
  # centred normalised offsets: (y, x) = (-0.5, 0.5) -> top-left (0.5, 3.75) truncated
  np.testing.assert_array_equal(g[1, ..., 0], img[1, 0:2, 3:6, 0])
  # outside parts are uniform noise within the image's range
  assert n.shape == (2, 4, 4, 1)
  np.testing.assert_array_equal(n[0, 2:, 2:, 0], img[0, :2, :2, 0])
  assert np.all((n[1] >= img[1].min()) & (n[1] <= img[1].max()))


def test_sample_distorted_bounding_box_constraints():
  with tf.Graph().as_default():
    outs = tf.image.sample_distorted_bounding_box(
        [60, 80, 3], [[[0.2, 0.2, 0.6, 0.7]]], seed=4, seed2=9, min_object_covered=0.5,
        area_range=[0.2, 0.9])
    assert outs[0].shape.as_list() == [3] and outs[2].shape.as_list() == [1, 1, 4]
    begin, size, bbox = _run(outs)
    again = _run(outs)
  assert begin[2] == 0 and size[2] == -1
  assert 0 <= begin[0] and begin[0] + size[0] <= 60 and begin[1] + size[1] <= 80
  area = size[0] * size[1] / (60.0 * 80.0)
  assert 0.2 <= area <= 0.9
  np.testing.assert_allclose(bbox[0, 0], [begin[0] / 60, begin[1] / 80, (begin[0] + size[0]) / 60,
                                          (begin[1] + size[1]) / 80], rtol=1e-6)
  # a fresh session restarts the seeded stream
  np.testing.assert_array_equal(again[0], begin)


def test_resize_area_box_filter():
  rng = np.random.RandomState(5)
  img = rng.uniform(0, 1, (2, 6, 8, 3)).astype(np.float32)
  with tf.Graph().as_default():
    a = _run(tf.image.resize_area(img, [3, 4]))
    b = _run(tf.image.resize_images(img, [3, 4], method=tf.image.ResizeMethod.AREA))
  want = img.reshape(2, 3, 2, 4, 2, 3).mean(axis=(2, 4))
  np.testing.assert_allclose(a, want, rtol=1e-5)
  np.testing.assert_allclose(b, want, rtol=1e-5)


def test_not_differentiable_ops():
  with tf.Graph().as_default():
    boxes = tf.constant(np.random.RandomState(0).rand(4, 4).astype(np.float32))
    idx = tf.image.non_max_suppression(boxes, tf.reduce_sum(boxes, 1), 2)
    assert tf.gradients(tf.cast(idx, tf.float32), boxes) == [None]
