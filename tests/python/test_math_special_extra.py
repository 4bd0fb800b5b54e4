"""tf.math.special's K Bessel functions, Dawson's, exponential and Fresnel integrals and
Spence's function: identities, closed-form values and gradients by finite differences
(TF's values are checked by test_compat_ops.py's fixtures)."""
import math

import numpy as np
import pytest

import tfc as tf

sp = tf.math.special
FUNCS = ["bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "dawsn", "expint",
         "fresnel_cos", "fresnel_sin", "spence"]


def _run(*t):
  with tf.Session() as sess:
    return sess.run(list(t))


def test_identities_and_known_values():
  x = np.array([0.3, 1.0, 2.5, 9.0])
  with tf.Graph().as_default():
    c = tf.constant(x)
    k0, k0e, k1, k1e, ei, fc, fs, s = _run(sp.bessel_k0(c), sp.bessel_k0e(c), sp.bessel_k1(c),
                                           sp.bessel_k1e(c), sp.expint(c), sp.fresnel_cos(c),
                                           sp.fresnel_sin(c), sp.spence(c))
  np.testing.assert_allclose(k0e, np.exp(x) * k0, rtol=1e-13)
  np.testing.assert_allclose(k1e, np.exp(x) * k1, rtol=1e-13)
  # K0(1), K1(1), Ei(1), C(1), S(1) to 15 digits
  np.testing.assert_allclose([k0[1], k1[1], ei[1], fc[1], fs[1]],
                             [0.42102443824070834, 0.6019072301972346, 1.8951178163559368,
                              0.7798934003768228, 0.4382591473903548], rtol=1e-13)
  # Spence(x) = Li2(1 - x): Li2(1/2) = pi^2/12 - log(2)^2/2, and spence(1) = 0
  with tf.Graph().as_default():
    half, one = _run(sp.spence(tf.constant(0.5, tf.float64)), sp.spence(tf.constant(1.0, tf.float64)))
  assert abs(half - (math.pi ** 2 / 12 - math.log(2) ** 2 / 2)) < 1e-14 and one == 0


@pytest.mark.parametrize("name", FUNCS)
def test_gradients_by_finite_differences(name):
  x0 = np.array([0.35, 0.8, 1.7, 2.9]) if name != "spence" else np.array([0.4, 0.9, 1.6, 3.0])
  with tf.Graph().as_default():
    x = tf.constant(x0)
    y = getattr(sp, name)(x)
    with tf.Session():
      err = tf.test.compute_gradient_error(x, [4], y, [4], x_init_value=x0, delta=1e-6)
  assert err < 1e-6, (name, err)


def test_spence_gradient_at_one():
  with tf.Graph().as_default():
    x = tf.constant([1.0], tf.float64)
    g, = _run(tf.gradients(sp.spence(x), x)[0])
  assert g[0] == -1.0
