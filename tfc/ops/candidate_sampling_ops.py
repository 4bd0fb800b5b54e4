"""Candidate samplers (tf.random.*_candidate_sampler, tf.nn.*_candidate_sampler) and
tf.nn.compute_accidental_hits, as TF 1.15 defines them. Each sampler draws
`num_sampled` classes from [0, range_max) and reports the expected count of every
sampled and true class under its distribution; seeded samples equal TF's."""
from tfc.framework import random_seed as _random_seed
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def _seed_attrs(seed):
  seed1, seed2 = _random_seed.get_seed(seed)
  return {"seed": int(seed1 or 0), "seed2": int(seed2 or 0)}


def _sample(op_type, true_classes, name, attrs, seed):
  attrs.update(_seed_attrs(seed))
  true_classes = _ops.convert_to_tensor(true_classes, name="true_classes")
  return tuple(_apply_op(op_type, name, [true_classes], attrs).outputs)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                              name=None):
  """Samples classes uniformly from [0, range_max) (`UniformCandidateSampler`).

  Returns (sampled_candidates [num_sampled] int64, true_expected_count
  [batch_size, num_true] float32, sampled_expected_count [num_sampled] float32)."""
  return _sample("UniformCandidateSampler", true_classes, name,
                 {"num_true": num_true, "num_sampled": num_sampled, "unique": unique,
                  "range_max": range_max}, seed)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
  """Samples classes from the log-uniform (Zipfian) distribution
  P(c) = log((c + 2) / (c + 1)) / log(range_max + 1) (`LogUniformCandidateSampler`)."""
  return _sample("LogUniformCandidateSampler", true_classes, name,
                 {"num_true": num_true, "num_sampled": num_sampled, "unique": unique,
                  "range_max": range_max}, seed)


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                      seed=None, name=None):
  """Samples classes in proportion to how often they appeared as true classes in
  earlier steps (every class starts with count 1) (`LearnedUnigramCandidateSampler`)."""
  return _sample("LearnedUnigramCandidateSampler", true_classes, name,
                 {"num_true": num_true, "num_sampled": num_sampled, "unique": unique,
                  "range_max": range_max}, seed)


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file="", distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(), seed=None, name=None):
  """Samples classes in proportion to fixed weights (`unigrams`, or the last field of each
  line of `vocab_file`) raised to `distortion`, after `num_reserved_ids` classes of weight
  0, keeping the ids of `shard` of `num_shards` (`FixedUnigramCandidateSampler`)."""
  return _sample("FixedUnigramCandidateSampler", true_classes, name,
                 {"num_true": num_true, "num_sampled": num_sampled, "unique": unique,
                  "range_max": range_max, "vocab_file": vocab_file,
                  "distortion": float(distortion), "num_reserved_ids": num_reserved_ids,
                  "num_shards": num_shards, "shard": shard,
                  "unigrams": [float(u) for u in unigrams]}, seed)


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
  """Returns every class in [0, num_sampled) with expected count 1
  (`AllCandidateSampler`)."""
  return _sample("AllCandidateSampler", true_classes, name,
                 {"num_true": num_true, "num_sampled": num_sampled, "unique": unique}, seed)


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
  """The positions where a sampled candidate equals one of its row's true classes:
  (indices [n] int32 rows, ids [n] int64 candidate positions, weights [n] float32, all
  -FLT_MAX) (`ComputeAccidentalHits`)."""
  attrs = {"num_true": num_true}
  attrs.update(_seed_attrs(seed))
  true_classes = _ops.convert_to_tensor(true_classes, name="true_classes")
  sampled_candidates = _ops.convert_to_tensor(sampled_candidates, name="sampled_candidates")
  return tuple(_apply_op("ComputeAccidentalHits", name, [true_classes, sampled_candidates],
                         attrs).outputs)
