"""tf.nn.rnn_cell: TF 1.15's RNN cells (see tfc/ops/rnn_cell_impl.py)."""
from tfc.ops.rnn_cell_impl import (RNNCell, BasicRNNCell, BasicLSTMCell, LSTMCell,  # noqa: F401
                                   GRUCell, MultiRNNCell, LSTMStateTuple, DropoutWrapper,
                                   ResidualWrapper, DeviceWrapper)
