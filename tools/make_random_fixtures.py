#!/usr/bin/env python3
"""Writes tests/fixtures/random/: TensorFlow's values of seeded random
functions (stateless ops, gamma / Poisson sampling, candidate samplers and the
sampled losses), for tests/python/test_random_api.py.

Run with the TensorFlow venv:

  .venv-tf/bin/python tools/make_random_fixtures.py

Every case is a Python expression over `tf` (and `np`), evaluated in a fresh
graph of its own by tf.compat.v1 and run in one session step; the test
evaluates the same expression with `tf` = tfc. Files:

  cases.json   {name: {"expr": expression, "rtol": tolerance}}
  values.npz   "<name>.<i>": TF's i-th output (a case may fetch a tuple)
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "tests", "fixtures", "random")

# name -> (expression, rtol). Seeds are fixed in every expression.
CASES = {}


def case(name, expr, rtol=1e-5, steps=1):
  """A case: expr evaluated once, its outputs fetched in `steps` session steps
  (outputs of step s stored after those of step s - 1)."""
  CASES[name] = {"expr": expr, "rtol": rtol, "steps": steps}


# stateless ops through the public functions
case("uniform_f32", "tf.random.stateless_uniform([3, 4], seed=[1, 2])")
case("uniform_f64_range", "tf.random.stateless_uniform([7], seed=tf.constant([5, -9], tf.int64), "
     "minval=-3.0, maxval=2.5, dtype=tf.float64)")
case("uniform_int", "tf.random.stateless_uniform([10], seed=[3, 4], minval=-7, maxval=100, "
     "dtype=tf.int32)")
case("uniform_int64", "tf.random.stateless_uniform([6], seed=[3, 4], minval=0, maxval=2**40, "
     "dtype=tf.int64)")
case("uniform_full_u64", "tf.random.stateless_uniform([5], seed=[3, 4], minval=None, "
     "maxval=None, dtype=tf.uint64)")
case("uniform_full_i32", "tf.random.stateless_uniform([5], seed=[3, 4], minval=None, "
     "maxval=None, dtype=tf.int32)")
case("normal", "tf.random.stateless_normal([2, 3, 4], seed=[11, 12], mean=1.5, stddev=0.5)")
case("normal_f64", "tf.random.stateless_normal([9], seed=[0, 0], dtype=tf.float64)")
case("truncated_normal", "tf.random.stateless_truncated_normal([50], seed=[7, 7], stddev=3.0)")
case("multinomial", "tf.random.stateless_multinomial([[0.1, 0.5, 1.0], [2.0, -1.0, 0.0]], 7, "
     "seed=[2, 3])")
case("categorical_i32", "tf.random.stateless_categorical(tf.math.log([[0.2, 0.3, 0.5]]), 12, "
     "seed=[4, 5], dtype=tf.int32)")
case("uniform_philox_alg", "tf.random.stateless_uniform([4], seed=[1, 2], alg='philox')")

# gamma and Poisson sampling, and the gamma samplers' gradients
case("gamma", "tf.random.gamma([4], alpha=[0.5, 2.0], beta=[1.0, 3.0], seed=5)")
case("gamma_graph_seed", "[tf.set_random_seed(3), tf.random_gamma([3, 2], 1.5, seed=1, "
     "dtype=tf.float64)][1]")
case("gamma_op_seed_only", "tf.random_gamma([2], [[1.0], [0.2]], seed=9)")
case("gamma_grad", "tf.gradients(tf.reduce_sum(tf.random.gamma([50], "
     "tf.constant([0.3, 1.0, 4.0]), beta=tf.constant([2.0, 1.0, 0.5]), seed=3)), "
     "[tf.get_default_graph().get_tensor_by_name('Const:0'), "
     "tf.get_default_graph().get_tensor_by_name('Const_1:0')])", rtol=1e-4)
case("poisson", "tf.random.poisson(lam=[1.0, 15.0], shape=[5], seed=4)")
case("random_poisson_i64", "tf.random_poisson([3.0, 250.0], [4], dtype=tf.int64, seed=2)")
case("stateless_gamma", "tf.random.stateless_gamma([10, 2], seed=[1, 2], alpha=[0.8, 4.0], "
     "beta=2.0)")
case("stateless_gamma_grad", "tf.gradients(tf.reduce_sum(tf.random.stateless_gamma([20, 3], "
     "seed=[5, 6], alpha=tf.constant([0.5, 1.0, 9.0], tf.float64), dtype=tf.float64)), "
     "tf.get_default_graph().get_tensor_by_name('Const:0'))", rtol=1e-6)
case("stateless_poisson", "tf.random.stateless_poisson([6], seed=[1, 2], lam=7.5)")
case("stateless_poisson_f32", "tf.random.stateless_poisson([3, 2], seed=[1, 2], "
     "lam=[0.5, 40.0], dtype=tf.float32)")
case("stateless_binomial", "tf.random.stateless_binomial([5, 3], seed=[1, 2], counts=[3, 40, 900], "
     "probs=[0.5, 0.25, 0.9])")
case("stateless_binomial_f64", "tf.random.stateless_binomial([4], seed=[1, 2], counts=20.0, "
     "probs=tf.constant(0.3, tf.float64), output_dtype=tf.float64)")
case("stateless_ptn", "tf.random.stateless_parameterized_truncated_normal([5, 3], seed=[1, 2], "
     "means=[0.0, 1.0, -3.0], stddevs=[1.0, 0.2, 2.0], minvals=-1.0, maxvals=[1.0, 2.0, 5.0])")
case("stateless_ptn_grad", "tf.gradients(tf.reduce_sum(tf.square("
     "tf.random.stateless_parameterized_truncated_normal([6, 2], seed=[3, 4], "
     "means=tf.constant([0.5, -1.0], tf.float64, name='m'), "
     "stddevs=tf.constant(1.5, tf.float64, name='s'), "
     "minvals=tf.constant([-1.0, -4.0], tf.float64, name='lo'), "
     "maxvals=tf.constant(2.0, tf.float64, name='hi')))), "
     "[tf.get_default_graph().get_tensor_by_name(n + ':0') for n in ('m', 's', 'lo', 'hi')])",
     rtol=1e-6)

# seeds, shuffles, RNG states and stateless dropout
case("split", "tf.random.split([1, 2], num=3)")
case("split_int64", "tf.random.experimental.stateless_split(tf.constant([5, -6], tf.int64))")
case("fold_in", "tf.random.fold_in([1, 2], 7)")
case("fold_in_int64", "tf.random.experimental.stateless_fold_in(tf.constant([3, 4], tf.int64), "
     "tf.constant(2**40, tf.int64))")
case("stateless_shuffle", "tf.random.experimental.stateless_shuffle(tf.range(15), seed=[4, 5])")
case("stateless_shuffle_rows", "tf.random.experimental.stateless_shuffle([[1.0, 2.0], [3.0, 4.0], "
     "[5.0, 6.0]], seed=[1, 1])")
case("index_shuffle", "tf.random.experimental.index_shuffle(tf.range(10, dtype=tf.int64), "
     "seed=[4, 5], max_index=9)")
case("index_shuffle_scalar", "tf.random.experimental.index_shuffle(3, seed=[4, 5], "
     "max_index=1000)")
case("create_rng_state_int", "tf.random.create_rng_state(2**70 + 5, 'philox')")
case("create_rng_state_list", "tf.random.experimental.create_rng_state([1, 2], "
     "tf.random.Algorithm.THREEFRY)")
case("stateless_dropout", "tf.nn.experimental.stateless_dropout(tf.ones([4, 5]), 0.4, "
     "seed=[1, 2])")
case("stateless_dropout_noise_shape", "tf.nn.experimental.stateless_dropout("
     "tf.reshape(tf.range(12.0), [3, 4]), tf.constant(0.5), seed=[3, 4], noise_shape=[3, 1])")
case("general_dropout", "tf.nn.experimental.general_dropout(tf.ones([6]), 0.5, "
     "uniform_sampler=lambda shape, dtype: tf.random.stateless_uniform(shape, seed=[9, 9], "
     "dtype=dtype))")

# special functions
case("betainc", "tf.math.betainc([0.5, 2.0, 7.0], [3.0, 0.8, 7.0], [0.2, 0.9, 0.5])")
case("betainc_grad", "tf.gradients(tf.betainc(tf.constant(2.5, tf.float64), 1.5, tf.constant([0.1, 0.6, 0.95], "
     "tf.float64, name='x')), tf.get_default_graph().get_tensor_by_name('x:0'))", rtol=1e-6)
case("erfcinv", "tf.math.erfcinv(tf.constant([1e-10, 0.1, 0.5, 1.0, 1.7, 2.0], tf.float64))",
     rtol=1e-7)

# tf.distributions built on the Gamma sampler
case("dist_gamma", "[(d.sample(4, seed=3), d.log_prob(1.5), d.cdf(1.5), d.entropy(), d.mean(), "
     "d.variance(), d.mode()) for d in [tf.distributions.Gamma([0.5, 2.0, 5.0], [1.0, 2.0, 0.5])]"
     "][0]")
case("dist_beta", "[(d.sample(3, seed=4), d.log_prob(0.3), d.cdf(0.3), d.entropy(), d.mean(), "
     "d.variance(), d.mode()) for d in [tf.distributions.Beta([0.5, 2.0, 5.0], [3.0, 2.0, 1.5])]"
     "][0]")
case("dist_student_t", "[(d.sample(3, seed=5), d.log_prob(0.4), d.cdf(-0.7), d.entropy(), "
     "d.mean(), d.variance()) for d in [tf.distributions.StudentT([0.8, 1.5, 7.0], 1.0, 2.0)]][0]")
case("dist_dirichlet", "[(d.sample(2, seed=6), d.log_prob([0.2, 0.3, 0.5]), d.entropy(), "
     "d.mean(), d.variance(), d.covariance()) for d in "
     "[tf.distributions.Dirichlet([[1.0, 2.0, 3.0], [0.5, 0.5, 4.0]])]][0]")
case("dist_dirichlet_multinomial", "[(d.sample(3, seed=7), d.log_prob([[1.0, 2.0, 2.0], "
     "[0.0, 5.0, 0.0]]), d.mean(), d.variance(), d.covariance()) for d in "
     "[tf.distributions.DirichletMultinomial(5.0, [[1.0, 2.0, 3.0], [0.5, 0.5, 4.0]])]][0]")
case("dist_kls", "[tf.distributions.kl_divergence(tf.distributions.Gamma(2.0, 3.0), "
     "tf.distributions.Gamma(1.5, 1.0)), tf.distributions.kl_divergence("
     "tf.distributions.Beta(2.0, 3.0), tf.distributions.Beta(1.5, 1.0)), "
     "tf.distributions.kl_divergence(tf.distributions.Dirichlet([1.0, 2.0]), "
     "tf.distributions.Dirichlet([3.0, 0.5]))]")

# candidate samplers (FIX is the fixtures folder) and the sampled losses
_TRUE = "tf.constant([[1, 2], [3, 4], [5, 0]], tf.int64)"
case("uniform_sampler", "tf.random.uniform_candidate_sampler(%s, 2, 5, True, 10, seed=3)" % _TRUE)
case("uniform_sampler_nn_repeats", "tf.nn.uniform_candidate_sampler(%s, 2, 7, False, 1000, "
     "seed=3)" % _TRUE)
case("log_uniform_sampler", "tf.nn.log_uniform_candidate_sampler(%s, 2, 6, True, 40, seed=4)"
     % _TRUE)
case("learned_unigram_steps", "tf.nn.learned_unigram_candidate_sampler(tf.constant([[3], [3], "
     "[5]], tf.int64), 1, 4, True, 8, seed=6)", steps=3)
case("fixed_unigram_vocab", "tf.nn.fixed_unigram_candidate_sampler(%s, 2, 6, False, 6, "
     "vocab_file=FIX + '/vocab.csv', distortion=0.5, seed=2)" % _TRUE)
case("fixed_unigram_list", "tf.random.fixed_unigram_candidate_sampler(%s, 2, 4, True, 6, "
     "unigrams=[1, 2, 3, 4, 5, 6], seed=2)" % _TRUE)
case("all_sampler", "tf.random.all_candidate_sampler(%s, 2, 7, True)" % _TRUE)
case("accidental_hits", "tf.nn.compute_accidental_hits(%s, tf.constant([4, 1, 9, 4], tf.int64), "
     "num_true=2)" % _TRUE)
_W = "tf.constant(np.random.RandomState(0).randn(50, 4).astype(np.float32))"
_B = "tf.constant(np.random.RandomState(1).randn(50).astype(np.float32))"
_X = "tf.constant(np.random.RandomState(2).randn(3, 4).astype(np.float32))"
# nce_loss takes no seed (its default sampler follows the graph seed, whose op-seed
# rule differs between TF 1.15 and 2.x), so the cases pass seeded samplers
case("nce_loss", "tf.nn.nce_loss(%s, %s, tf.constant([[1], [7], [30]]), %s, num_sampled=5, "
     "num_classes=50, sampled_values=tf.nn.log_uniform_candidate_sampler(tf.constant([[1], [7], "
     "[30]], tf.int64), 1, 5, True, 50, seed=1))" % (_W, _B, _X))
case("nce_loss_two_true_hits", "tf.nn.nce_loss(%s, %s, tf.constant([[1, 2], [0, 3], [30, 1]]), "
     "%s, num_sampled=10, num_classes=50, num_true=2, remove_accidental_hits=True, "
     "sampled_values=tf.random.uniform_candidate_sampler(tf.constant([[1, 2], [0, 3], [30, 1]], "
     "tf.int64), 2, 10, False, 50, seed=4))" % (_W, _B, _X))
case("sampled_softmax_loss", "tf.nn.sampled_softmax_loss(%s, %s, tf.constant([[1], [7], [30]]), "
     "%s, num_sampled=8, num_classes=50, seed=5)" % (_W, _B, _X))
case("sampled_softmax_loss_grad", "tf.gradients(tf.reduce_sum(tf.nn.sampled_softmax_loss(%s, %s, "
     "tf.constant([[1, 2], [7, 8], [30, 0]]), tf.constant(np.random.RandomState(2).randn(3, 4)"
     ".astype(np.float32), name='x'), num_sampled=6, num_classes=50, num_true=2, seed=5)), "
     "tf.get_default_graph().get_tensor_by_name('x:0'))" % (_W, _B))


def main(argv):
  del argv
  import tensorflow.compat.v1 as tf  # pylint: disable=g-import-not-at-top
  tf.disable_eager_execution()
  values = {}
  for name, spec in CASES.items():
    g = tf.Graph()
    with g.as_default():
      out = eval(spec["expr"], {"tf": tf, "np": np, "FIX": OUT})  # pylint: disable=eval-used
      outs = list(out) if isinstance(out, (tuple, list)) else [out]
      with tf.Session(graph=g) as sess:
        res = []
        for _ in range(spec["steps"]):
          res += sess.run(outs)
    for i, v in enumerate(res):
      values["%s.%d" % (name, i)] = np.asarray(v)
    print("%-30s %s" % (name, [np.asarray(v).shape for v in res]))
  os.makedirs(OUT, exist_ok=True)
  np.savez_compressed(os.path.join(OUT, "values.npz"), **values)
  with open(os.path.join(OUT, "cases.json"), "w") as f:
    json.dump(CASES, f, indent=1, sort_keys=True)
    f.write("\n")
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
