"""Gradient functions of the complex-number ops (Complex, Real, Imag, Conj,
ComplexAbs, Angle) and of the FFT ops, with TF's conventions: the gradient
with respect to a complex z is dL/dRe(z) + i dL/dIm(z)."""
from tfc import dtypes as _dtypes
from tfc.ops.gradient_registry import RegisterGradient
from tfc.ops.math_grad import _out, _const, _unbroadcast_pair, _static_shape

_COMPLEX_OF = {_dtypes.float32: _dtypes.complex64, _dtypes.float64: _dtypes.complex128}


def _real(t):
  return _out("Real", [t], {"Tout": t.dtype.real_dtype})


def _imag(t):
  return _out("Imag", [t], {"Tout": t.dtype.real_dtype})


def _complex(re, im):
  return _out("Complex", [re, im], {"Tout": _COMPLEX_OF[re.dtype.base_dtype]})


# -- complex numbers -------------------------------------------------------------------

@RegisterGradient("Complex")
def _complex_grad(op, grad):
  x, y = op.inputs
  return list(_unbroadcast_pair(x, y, _real(grad), _imag(grad)))


@RegisterGradient("Real")
def _real_grad(unused_op, grad):
  return _complex(grad, _out("ZerosLike", [grad]))


@RegisterGradient("Imag")
def _imag_grad(unused_op, grad):
  return _complex(_out("ZerosLike", [grad]), grad)


@RegisterGradient("Conj")
def _conj_grad(unused_op, grad):
  return _out("Conj", [grad])


@RegisterGradient("ConjugateTranspose")
def _conjugate_transpose_grad(op, grad):
  inverse = _out("InvertPermutation", [op.inputs[1]])
  return [_out("ConjugateTranspose", [grad, inverse]), None]


@RegisterGradient("ComplexAbs")
def _complex_abs_grad(op, grad):
  """grad * x / |x| (0 where x is 0)."""
  y = op.outputs[0]
  num = _out("Mul", [_complex(grad, _out("ZerosLike", [grad])), op.inputs[0]])
  return _out("DivNoNan", [num, _complex(y, _out("ZerosLike", [y]))])


@RegisterGradient("Angle")
def _angle_grad(op, grad):
  """-grad / (Im(x) + i Re(x))."""
  x = op.inputs[0]
  z = _out("Reciprocal", [_complex(_imag(x), _real(x))])
  g = _complex(grad, _const(0, dtype=grad.dtype.base_dtype))
  return _out("Mul", [_out("Neg", [g]), z])


# -- FFT -------------------------------------------------------------------------------

def _inner_size(t, rank):
  """The product of the innermost `rank` dims of t (an int32 scalar tensor)."""
  s = _static_shape(t)
  if s is not None:
    n = 1
    for d in s[-rank:]:
      n *= d
    return _const(n)
  shape = _out("Shape", [t], {"out_type": _dtypes.int32})
  inner = _out("StridedSlice", [shape, _const([-rank]), _const([0]), _const([1])],
               {"end_mask": 1})
  return _out("Prod", [inner, _const(0)], {"keep_dims": False})


def _scaled(t, size, reciprocal):
  """t * size (or t / size) with size cast to t's complex type."""
  real_t = t.dtype.real_dtype
  s = _out("Cast", [size], {"DstT": real_t})
  if reciprocal:
    s = _out("Reciprocal", [s])
  return _out("Mul", [t, _out("Cast", [s], {"DstT": t.dtype.base_dtype})])


def _fft_grad(inverse_type, rank):
  def grad_fn(unused_op, grad):
    return _scaled(_out(inverse_type, [grad]), _inner_size(grad, rank), False)
  return grad_fn


def _ifft_grad(forward_type, rank):
  def grad_fn(unused_op, grad):
    return _scaled(_out(forward_type, [grad]), _inner_size(grad, rank), True)
  return grad_fn


for _r, _sfx in ((1, ""), (2, "2D"), (3, "3D")):
  RegisterGradient("FFT" + _sfx)(_fft_grad("IFFT" + _sfx, _r))
  RegisterGradient("IFFT" + _sfx)(_ifft_grad("FFT" + _sfx, _r))


def _rfft_grad(ifft_type, rank):
  """The adjoint of RFFT: the dropped negative frequencies are zeros, so the
  gradient is Re(n * IFFT(grad zero-extended to fft_length)), cropped or
  zero-padded back to the input's shape."""
  def grad_fn(op, grad):
    x, fft_length = op.inputs
    i32 = _dtypes.int32
    grad_rank = _out("Rank", [grad])
    h = _out("StridedSlice", [_out("Shape", [grad], {"out_type": i32}), _const([-1]), _const([0]),
                              _const([1])], {"shrink_axis_mask": 1})
    n_last = _out("StridedSlice", [fft_length, _const([-1]), _const([0]), _const([1])],
                  {"shrink_axis_mask": 1})
    zeros = _out("Fill", [_out("Pack", [[_out("Sub", [grad_rank, _const(1)]), _const(2)]],
                               {"axis": 0}), _const(0)])
    last = _out("Reshape", [_out("Pack", [[_const(0), _out("Sub", [n_last, h])]], {"axis": 0}),
                            _const([1, 2])])
    full = _out("Pad", [grad, _out("ConcatV2", [[zeros, last], _const(0)])])
    spatial = _scaled(_out(ifft_type, [full]), _out("Prod", [fft_length, _const(0)]), False)
    re = _real(spatial)
    xs = _out("Shape", [x], {"out_type": i32})
    size = _out("Minimum", [xs, _out("Shape", [re], {"out_type": i32})])
    cropped = _out("Slice", [re, _out("ZerosLike", [xs]), size])
    pads = _out("Pack", [[_out("ZerosLike", [xs]), _out("Sub", [xs, size])]], {"axis": 1})
    return [_out("Pad", [cropped, pads]), None]
  return grad_fn


def _irfft_grad(rfft_type, rank):
  """TF's gradient of IRFFT: RFFT(grad) * mask / n, mask = [1, 2, ..., 2, 1 (n even)]."""
  def grad_fn(op, grad):
    fft_length = op.inputs[1]
    real_t = grad.dtype.base_dtype
    complex_t = _COMPLEX_OF[real_t]
    n_last = _out("StridedSlice", [fft_length, _const([-1]), _const([0]), _const([1])],
                  {"shrink_axis_mask": 1})
    is_odd = _out("FloorMod", [n_last, _const(2)])
    in_last = _out("StridedSlice", [_out("Shape", [op.inputs[0]], {"out_type": _dtypes.int32}),
                                    _const([-1]), _const([0]), _const([1])],
                   {"shrink_axis_mask": 1})

    def ones(count, value):
      shape = _out("Reshape", [count, _const([1])])
      return _out("Fill", [shape, _const(value, dtype=real_t)])

    mask = _out("ConcatV2", [[_const([1.0], dtype=real_t),
                              ones(_out("Sub", [_out("AddV2", [in_last, is_odd]), _const(2)]), 2.0),
                              ones(_out("Sub", [_const(1), is_odd]), 1.0)], _const(0)])
    rsize = _out("Reciprocal", [_out("Cast", [_inner_size(grad, rank)], {"DstT": real_t})])
    the_rfft = _out(rfft_type, [grad, fft_length], {"Tcomplex": complex_t})
    scale = _out("Cast", [_out("Mul", [rsize, mask])], {"DstT": complex_t})
    return [_out("Mul", [the_rfft, scale]), None]
  return grad_fn


for _r, _sfx in ((1, ""), (2, "2D"), (3, "3D")):
  RegisterGradient("RFFT" + _sfx)(_rfft_grad("IFFT" + _sfx, _r))
  RegisterGradient("IRFFT" + _sfx)(_irfft_grad("RFFT" + _sfx, _r))
