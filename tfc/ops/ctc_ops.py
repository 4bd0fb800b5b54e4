"""Connectionist temporal classification (TF 1.15 names and signatures):
tf.nn.ctc_loss, ctc_loss_v2, ctc_greedy_decoder, collapse_repeated and
ctc_unique_labels, ctc_beam_search_decoder(_v2). Kernels: csrc/kernels/ctc.c,
ctc_beam.c."""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op


def _sparse(indices, values, shape):
  from tfc.framework import sparse_tensor  # pylint: disable=g-import-not-at-top
  return sparse_tensor.SparseTensor(indices, values, shape)


def _is_sparse(x):
  from tfc.framework import sparse_tensor  # pylint: disable=g-import-not-at-top
  return isinstance(x, sparse_tensor.SparseTensor)


def ctc_loss(labels, inputs=None, sequence_length=None, preprocess_collapse_repeated=False,
             ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False, time_major=True,
             logits=None):
  """CTC loss (TF 1.x): -log p(labels | inputs) per batch entry.

  labels: an int32 SparseTensor ([batch, max_label_len]); inputs (or logits):
  unnormalised log probabilities [max_time, batch, num_classes] (batch-major
  with time_major=False); the last class is the blank.
  """
  if logits is not None:
    if inputs is not None:
      raise ValueError("Cannot specify both 'logits' and 'inputs'")
    inputs = logits
  if not _is_sparse(labels):
    raise TypeError("Expected labels (first argument) to be a SparseTensor")
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  inputs = _ops.convert_to_tensor(inputs, name="inputs")
  if not time_major:
    inputs = array_ops.transpose(inputs, [1, 0, 2])
  loss, _ = _apply_op("CTCLoss", None,
                      [inputs, labels.indices, labels.values, sequence_length],
                      {"preprocess_collapse_repeated": bool(preprocess_collapse_repeated),
                       "ctc_merge_repeated": bool(ctc_merge_repeated),
                       "ignore_longer_outputs_than_inputs":
                           bool(ignore_longer_outputs_than_inputs)}).outputs
  return loss


def _dense_to_sparse(labels, label_length):
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops.scatter_nd_ops import gather_nd  # pylint: disable=g-import-not-at-top
  labels = _ops.convert_to_tensor(labels, name="labels")
  mask = array_ops.sequence_mask(label_length, maxlen=array_ops.shape(labels)[1])
  idx = array_ops.where(mask)
  values = math_ops.cast(gather_nd(labels, idx), _dtypes.int32)
  return _sparse(idx, values, math_ops.cast(array_ops.shape(labels), _dtypes.int64))


def ctc_loss_v2(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,  # pylint: disable=unused-argument
                blank_index=None, name=None):
  """CTC loss (TF 2 signature): labels dense [batch, max_label_len] with
  label_length (blank_index defaults to 0), or a SparseTensor (blank_index
  required). Computed by the CTCLoss kernel after moving the blank class
  last; `unique` is accepted and not needed."""
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "ctc_loss_dense" if not _is_sparse(labels) else "ctc_loss",
                       [logits, labels, label_length, logit_length]):
    logits = _ops.convert_to_tensor(logits, name="logits")
    if _is_sparse(labels):
      if blank_index is None:
        raise ValueError("blank_index must be given when using SparseTensor labels.")
    else:
      if blank_index is None:
        blank_index = 0
      labels = _dense_to_sparse(labels, label_length)
    num_classes = logits.get_shape()[2].value
    if num_classes is None:
      raise ValueError("ctc_loss_v2 needs the number of classes statically known in tfc")
    if blank_index < 0:
      blank_index += num_classes
    if blank_index != num_classes - 1:
      logits = array_ops.concat([logits[:, :, :blank_index], logits[:, :, blank_index + 1:],
                                 logits[:, :, blank_index:blank_index + 1]], axis=2)
      values = array_ops.where(labels.values < blank_index, labels.values, labels.values - 1)
      labels = _sparse(labels.indices, values, labels.dense_shape)
    return ctc_loss(labels, logits, logit_length, time_major=logits_time_major)


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
  """Greedy (best path) CTC decoding: the most likely class per step, blanks
  and (with merge_repeated) repeats removed. Returns ([SparseTensor],
  neg_sum_logits [batch, 1])."""
  attrs = {"merge_repeated": bool(merge_repeated)}
  if blank_index is not None:
    attrs["blank_index"] = int(blank_index)
  ix, val, shape, log_prob = _apply_op("CTCGreedyDecoder", None, [inputs, sequence_length],
                                       attrs).outputs
  return [_sparse(ix, val, shape)], log_prob


def collapse_repeated(labels, seq_length, name=None):
  """Merges repeated labels of each row (up to its seq_length) into one.
  Returns (collapsed labels [batch, new_max_len], new lengths)."""
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops.scatter_nd_ops import scatter_nd  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "collapse_repeated_labels", [labels, seq_length]):
    labels = _ops.convert_to_tensor(labels, name="labels")
    seq_length = _ops.convert_to_tensor(seq_length, name="seq_length")
    label_mask = array_ops.concat(
        [array_ops.ones_like(labels[:, :1], _dtypes.bool),
         math_ops.not_equal(labels[:, 1:], labels[:, :-1])], axis=1)
    seq_mask = array_ops.sequence_mask(seq_length, maxlen=array_ops.shape(labels)[1])
    label_mask = math_ops.logical_and(label_mask, seq_mask)
    new_seq_len = math_ops.reduce_sum(math_ops.cast(label_mask, _dtypes.int32), axis=1)
    new_maxlen = math_ops.reduce_max(new_seq_len)
    idx_mask = array_ops.sequence_mask(new_seq_len, maxlen=new_maxlen)
    flat_labels = array_ops.reshape(labels, [-1])
    flat_label_mask = array_ops.reshape(label_mask, [-1])
    flat_idx_mask = array_ops.reshape(idx_mask, [-1])
    idx = math_ops.range(array_ops.shape(flat_idx_mask)[0])
    flat = scatter_nd(array_ops.expand_dims(array_ops.boolean_mask(idx, flat_idx_mask), axis=1),
                      array_ops.boolean_mask(flat_labels, flat_label_mask),
                      array_ops.shape(flat_idx_mask))
    new_shape = array_ops.stack([array_ops.shape(labels)[0], new_maxlen])
    return (array_ops.reshape(flat, new_shape), math_ops.cast(new_seq_len, seq_length.dtype))


def ctc_unique_labels(labels, name=None):
  """Per row of labels [batch, max_len]: its unique labels in order of first
  appearance (zero-padded, int64) and the index of each label among them
  (int32), as tf.unique gives them."""
  from tfc.ops import array_ops, math_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import functional_ops  # pylint: disable=g-import-not-at-top
  with _ops.name_scope(name, "ctc_unique_labels", [labels]):
    labels = _ops.convert_to_tensor(labels, name="labels")

    def _unique(x):
      y, idx = array_ops.unique(x)
      y = array_ops.pad(y, array_ops.stack([array_ops.stack(
          [0, array_ops.shape(idx)[0] - array_ops.shape(y)[0]])]))
      return [math_ops.cast(y, _dtypes.int64), idx]

    return functional_ops.map_fn(_unique, labels, dtype=[_dtypes.int64, _dtypes.int32])


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1,
                            merge_repeated=True):
  """Beam search CTC decoding (no language model): the top_paths most likely
  label sequences of each batch entry. Returns (a list of top_paths
  SparseTensors, log_probabilities [batch, top_paths])."""
  outs = _apply_op("CTCBeamSearchDecoder", None, [inputs, sequence_length],
                   {"beam_width": int(beam_width), "top_paths": int(top_paths),
                    "merge_repeated": bool(merge_repeated)}).outputs
  n = int(top_paths)
  decoded = [_sparse(outs[i], outs[n + i], outs[2 * n + i]) for i in range(n)]
  return decoded, outs[3 * n]


def ctc_beam_search_decoder_v2(inputs, sequence_length, beam_width=100, top_paths=1):
  """TF 2's ctc_beam_search_decoder (merge_repeated=False)."""
  return ctc_beam_search_decoder(inputs, sequence_length, beam_width=beam_width,
                                 top_paths=top_paths, merge_repeated=False)
