"""tf.nn namespace."""
from tfc.ops.nn_ops import (relu, relu6, elu, selu, softplus, softsign, leaky_relu, sigmoid, tanh,  # noqa: F401
                            softmax, log_softmax, bias_add, l2_loss, xw_plus_b, moments,
                            softmax_cross_entropy_with_logits,
                            softmax_cross_entropy_with_logits_v2,
                            sparse_softmax_cross_entropy_with_logits,
                            sigmoid_cross_entropy_with_logits)
from tfc.ops.nn_ops import (conv2d, depthwise_conv2d_native, max_pool, max_pool2d,  # noqa: F401,E402
                            avg_pool, avg_pool2d, dropout, batch_normalization,
                            fused_batch_norm)
from tfc.ops.nn_ops import (relu_layer, l2_normalize, zero_fraction, crelu, swish, silu,  # noqa: F401,E402
                            log_poisson_loss, weighted_cross_entropy_with_logits, conv1d,
                            conv2d_transpose, conv2d_backprop_input, conv2d_backprop_filter,
                            depthwise_conv2d, separable_conv2d,
                            depthwise_conv2d_native_backprop_input,
                            depthwise_conv2d_native_backprop_filter,
                            depthwise_conv2d_backprop_input, depthwise_conv2d_backprop_filter,
                            max_pool1d, avg_pool1d, embedding_lookup,
                            batch_norm_with_global_normalization, sufficient_statistics,
                            normalize_moments, weighted_moments, in_top_k, convolution, pool,
                            atrous_conv2d, conv1d_transpose)
from tfc.ops.array_ops import (space_to_depth, depth_to_space, space_to_batch,  # noqa: F401,E402
                               batch_to_space)


_NN3D = ("conv3d", "conv3d_transpose", "conv3d_backprop_filter", "conv3d_backprop_filter_v2",
         "max_pool3d", "avg_pool3d", "conv_transpose")
_NN_WINDOW = ("max_pool_with_argmax", "dilation2d", "erosion2d", "atrous_conv2d_transpose",
              "with_space_to_batch")
_CTC = ("ctc_loss", "ctc_loss_v2", "ctc_greedy_decoder", "collapse_repeated", "ctc_unique_labels",
        "ctc_beam_search_decoder", "ctc_beam_search_decoder_v2")


_CANDIDATE_SAMPLING = ("uniform_candidate_sampler", "log_uniform_candidate_sampler",
                       "learned_unigram_candidate_sampler", "fixed_unigram_candidate_sampler",
                       "all_candidate_sampler", "compute_accidental_hits")


def __getattr__(name):
  """tf.nn.rnn_cell, static_rnn and static_bidirectional_rnn, the 3-D
  convolutions and pools, CTC, the candidate samplers and the sampled losses
  load on first use."""
  if name == "rnn_cell":
    from tfc import rnn_cell  # pylint: disable=g-import-not-at-top
    return rnn_cell
  if name in ("static_rnn", "static_bidirectional_rnn", "dynamic_rnn",
              "bidirectional_dynamic_rnn"):
    from tfc.ops import rnn  # pylint: disable=g-import-not-at-top
    return getattr(rnn, name)
  if name in _CTC:
    from tfc.ops import ctc_ops  # pylint: disable=g-import-not-at-top
    return getattr(ctc_ops, name)
  if name in _NN_WINDOW:
    from tfc.ops import nn_window_ops  # pylint: disable=g-import-not-at-top
    return getattr(nn_window_ops, name)
  if name in _NN3D:
    from tfc.ops import nn3d_ops  # pylint: disable=g-import-not-at-top
    return getattr(nn3d_ops, name)
  if name == "experimental":
    from tfc import nn_experimental  # pylint: disable=g-import-not-at-top
    return nn_experimental
  if name in _CANDIDATE_SAMPLING:
    from tfc.ops import candidate_sampling_ops  # pylint: disable=g-import-not-at-top
    return getattr(candidate_sampling_ops, name)
  if name in ("nce_loss", "sampled_softmax_loss"):
    from tfc.ops import sampled_loss_ops  # pylint: disable=g-import-not-at-top
    return getattr(sampled_loss_ops, name)
  if name == "embedding_lookup_sparse":
    from tfc.ops import sparse_ops  # pylint: disable=g-import-not-at-top
    return sparse_ops.embedding_lookup_sparse
  if name == "safe_embedding_lookup_sparse":
    from tfc.ops import safe_embedding_ops  # pylint: disable=g-import-not-at-top
    return safe_embedding_ops.safe_embedding_lookup_sparse
  raise AttributeError("module 'tfc.nn' has no attribute %r" % name)
from tfc.ops.sort_ops import top_k  # noqa: F401,E402
from tfc.ops.einsum_ops import compute_average_loss, scale_regularization_loss  # noqa: F401,E402
from tfc.ops.lrn_ops import local_response_normalization, lrn  # noqa: F401,E402
from tfc.ops.sort_ops import approx_max_k, approx_min_k  # noqa: F401,E402
from tfc.ops.pool_v2_ops import max_pool_v2, avg_pool_v2  # noqa: F401,E402
