"""tf.strings.ngrams (StringNGrams) on dense string tensors: the n-grams TF 2.21's
tf.compat.v1 gives on the same inputs (widths, separators, padding, short
sequences, rank 2), and the argument errors."""
import pytest

import tfc as tf

D1 = ["a", "b", "c", "d"]
D2 = [["a", "b", "c"], ["d", "e", "f"]]
CASES = [
    ((D1, 2), {}, [b"a b", b"b c", b"c d"]),
    ((D1, [1, 3]), dict(separator="_"), [b"a", b"b", b"c", b"d", b"a_b_c", b"b_c_d"]),
    ((D1, 3), dict(pad_values="#"), [b"# # a", b"# a b", b"a b c", b"b c d", b"c d #", b"d # #"]),
    ((D1, 3), dict(pad_values=("<", ">"), padding_width=1), [b"< a b", b"a b c", b"b c d", b"c d >"]),
    ((D1, 6), dict(pad_values="#", padding_width=1, preserve_short_sequences=True), [b"# a b c d #"]),
    ((D1, 6), {}, []),
    ((D1, 6), dict(preserve_short_sequences=True), [b"a b c d"]),
    ((D2, 2), {}, [[b"a b", b"b c"], [b"d e", b"e f"]]),
    ((D2, [2, 3]), dict(pad_values="$", padding_width=2),
     [[b"$ a", b"a b", b"b c", b"c $", b"$ $ a", b"$ a b", b"a b c", b"b c $", b"c $ $"],
      [b"$ d", b"d e", b"e f", b"f $", b"$ $ d", b"$ d e", b"d e f", b"e f $", b"f $ $"]]),
    ((["x"], 3), dict(pad_values="#"), [b"# # x", b"# x #", b"x # #"]),
]


@pytest.mark.parametrize("args,kw,want", CASES)
def test_ngrams_match_tf(args, kw, want):
  with tf.Graph().as_default():
    out = tf.strings.ngrams(*args, **kw)
    with tf.Session() as sess:
      assert sess.run(out).tolist() == want


def test_ngrams_errors():
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="Data must have rank>0"):
      tf.strings.ngrams("a", 2)
    with pytest.raises(ValueError, match="padding_width must be greater than 0"):
      tf.strings.ngrams(D1, 2, pad_values="#", padding_width=0)
    with pytest.raises(ValueError, match="pad_values must be provided"):
      tf.strings.ngrams(D1, 2, padding_width=1)
