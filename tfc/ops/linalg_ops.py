"""Matrix helpers of TF 1.x composed of existing ops: tensordot (transpose, reshape,
matmul), trace and the diagonal/band functions (masks from range comparisons and
SelectV2), cross products, normalize, adjoint.

The diagonal functions take the main diagonal (k = 0); TF 2's other diagonals (k != 0,
num_rows/num_cols, padding) raise NotImplementedError.
"""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.ops import array_ops as _array_ops
from tfc.ops import math_ops as _math_ops


def _static_rank(t, what):
  rank = t.get_shape().ndims
  if rank is None:
    raise ValueError("%s needs a tensor of known rank" % what)
  return rank


def _dims(t, axes):
  """The sizes of `axes` of t: Python ints where static, else a 1-D int32 tensor."""
  static = t.get_shape().as_list()
  if all(static[a] is not None for a in axes):
    return [static[a] for a in axes], True
  return _array_ops.gather(_array_ops.shape(t), axes), False


def _product(dims, static):
  if static:
    p = 1
    for d in dims:
      p *= d
    return p
  return _math_ops.reduce_prod(dims)


def _as_matrix(t, row_dims, rows_static, col_dims, cols_static):
  """t reshaped to [prod(row_dims), prod(col_dims)]."""
  rows, cols = _product(row_dims, rows_static), _product(col_dims, cols_static)
  if rows_static and cols_static:
    return _array_ops.reshape(t, [rows, cols])
  return _array_ops.reshape(t, _array_ops.stack([rows, cols]))


def _tensordot_axes(axes, rank_a, rank_b):
  if isinstance(axes, int):
    if axes < 0:
      raise ValueError("'axes' must be at least 0.")
    if axes > rank_a or axes > rank_b:
      raise ValueError("'axes' must not be larger than the number of dimensions of tensor a "
                       "or b.")
    return list(range(rank_a - axes, rank_a)), list(range(axes))
  if len(axes) != 2:
    raise ValueError("'axes' must be an integer or have length 2.")
  a_axes, b_axes = axes
  a_axes = [a_axes] if isinstance(a_axes, int) else list(a_axes)
  b_axes = [b_axes] if isinstance(b_axes, int) else list(b_axes)
  if len(a_axes) != len(b_axes):
    raise ValueError("Different number of contraction axes 'a' and 'b', %s != %s."
                     % (len(a_axes), len(b_axes)))
  return [a % rank_a for a in a_axes], [b % rank_b for b in b_axes]


def tensordot(a, b, axes, name=None):
  """Sum over the products of a's `axes[0]` and b's `axes[1]` (or a's last and b's first
  `axes` dimensions for an int); the result has a's free dimensions, then b's."""
  with _ops.name_scope(name, "Tensordot", [a, b, axes]) as name:
    a = _ops.convert_to_tensor(a, name="a")
    b = _ops.convert_to_tensor(b, name="b")
    rank_a, rank_b = _static_rank(a, "tensordot"), _static_rank(b, "tensordot")
    a_axes, b_axes = _tensordot_axes(axes, rank_a, rank_b)
    a_free = [i for i in range(rank_a) if i not in a_axes]
    b_free = [i for i in range(rank_b) if i not in b_axes]
    a_perm, b_perm = a_free + a_axes, b_axes + b_free
    if a_perm != list(range(rank_a)):
      a = _array_ops.transpose(a, a_perm)
    if b_perm != list(range(rank_b)):
      b = _array_ops.transpose(b, b_perm)
    # a is now [free_a..., axes...], b [axes..., free_b...]
    a_free_dims, a_free_static = _dims(a, list(range(len(a_free))))
    b_free_dims, b_free_static = _dims(b, list(range(len(b_axes), rank_b)))
    sum_dims, sum_static = _dims(a, list(range(len(a_free), rank_a)))
    b_sum_dims, b_sum_static = _dims(b, list(range(len(b_axes))))
    a_matrix = _as_matrix(a, a_free_dims, a_free_static, sum_dims, sum_static)
    b_matrix = _as_matrix(b, b_sum_dims, b_sum_static, b_free_dims, b_free_static)
    product = _math_ops.matmul(a_matrix, b_matrix)
    if a_free_static and b_free_static:
      return _array_ops.reshape(product, list(a_free_dims) + list(b_free_dims), name=name)
    out_shape = _array_ops.concat([
        _ops.convert_to_tensor(a_free_dims, dtype=_dtypes.int32),
        _ops.convert_to_tensor(b_free_dims, dtype=_dtypes.int32)], 0)
    return _array_ops.reshape(product, out_shape, name=name)


def _check_main_diagonal(k, what, **extra):
  if k != 0 or any(v not in (-1, 0) for v in extra.values()):
    raise NotImplementedError("%s takes the main diagonal only (k=0 and no num_rows/num_cols "
                              "or padding) in tfc" % what)


def _diagonal_mask(rows, cols):
  """A [rows, cols] bool tensor, true on the main diagonal."""
  return _math_ops.equal(_array_ops.expand_dims(_math_ops.range(rows), 1),
                         _array_ops.expand_dims(_math_ops.range(cols), 0))


def _matrix_sizes(x, what):
  if _static_rank(x, what) < 2:
    raise ValueError("%s needs a tensor of rank >= 2, got shape %s" % (what, x.get_shape()))
  shape = _array_ops.shape(x)
  static = x.get_shape().as_list()[-2:]
  return [static[0] if static[0] is not None else shape[-2],
          static[1] if static[1] is not None else shape[-1]]


def matrix_diag_part(input, name="diag_part", k=0, padding_value=0):  # pylint: disable=redefined-builtin
  """The main diagonal of each innermost matrix: [..., M, N] -> [..., min(M, N)]."""
  _check_main_diagonal(k, "matrix_diag_part", padding_value=padding_value)
  with _ops.name_scope(name, "diag_part", [input]) as name:
    x = _ops.convert_to_tensor(input, name="input")
    rows, cols = _matrix_sizes(x, "matrix_diag_part")
    kept = _array_ops.where_v2(_diagonal_mask(rows, cols), x, _array_ops.zeros([], x.dtype))
    summed = _math_ops.reduce_sum(kept, -1)  # [..., M]; rows past min(M, N) are zero
    rank = x.get_shape().ndims
    if isinstance(rows, int) and isinstance(cols, int):
      size = [-1] * (rank - 2) + [min(rows, cols)]
    else:
      length = _array_ops.reshape(_math_ops.minimum(rows, cols), [1])
      size = _array_ops.concat([_ops.convert_to_tensor([-1] * (rank - 2), _dtypes.int32),
                                length], 0) if rank > 2 else length
    return _array_ops.slice(summed, [0] * (rank - 1), size, name=name)


def matrix_diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0):
  """Square matrices with `diagonal` on their main diagonal: [..., N] -> [..., N, N]."""
  _check_main_diagonal(k, "matrix_diag", num_rows=num_rows, num_cols=num_cols,
                       padding_value=padding_value)
  with _ops.name_scope(name, "diag", [diagonal]) as name:
    d = _ops.convert_to_tensor(diagonal, name="diagonal")
    if _static_rank(d, "matrix_diag") < 1:
      raise ValueError("matrix_diag needs a diagonal of rank >= 1")
    n = d.get_shape()[-1].value
    n = n if n is not None else _array_ops.shape(d)[-1]
    return _array_ops.where_v2(_diagonal_mask(n, n), _array_ops.expand_dims(d, -1),
                               _array_ops.zeros([], d.dtype), name=name)


def matrix_set_diag(input, diagonal, name="set_diag", k=0):  # pylint: disable=redefined-builtin
  """input with its main diagonal replaced by `diagonal` ([..., min(M, N)])."""
  _check_main_diagonal(k, "matrix_set_diag")
  with _ops.name_scope(name, "set_diag", [input, diagonal]) as name:
    x = _ops.convert_to_tensor(input, name="input")
    d = _ops.convert_to_tensor(diagonal, name="diagonal", dtype=x.dtype.base_dtype)
    rows, cols = _matrix_sizes(x, "matrix_set_diag")
    if not (isinstance(rows, int) and isinstance(cols, int)):
      raise ValueError("matrix_set_diag needs static matrix sizes, got shape %s"
                       % x.get_shape())
    spread = _array_ops.expand_dims(d, -1) if rows <= cols else _array_ops.expand_dims(d, -2)
    return _array_ops.where_v2(_diagonal_mask(rows, cols), spread, x, name=name)


def matrix_band_part(input, num_lower, num_upper, name=None):  # pylint: disable=redefined-builtin
  """input with everything outside the band zeroed: element (m, n) is kept when
  (num_lower < 0 or m - n <= num_lower) and (num_upper < 0 or n - m <= num_upper)."""
  with _ops.name_scope(name, "MatrixBandPart", [input, num_lower, num_upper]) as name:
    x = _ops.convert_to_tensor(input, name="input")
    num_lower = _ops.convert_to_tensor(num_lower, name="num_lower")
    num_upper = _ops.convert_to_tensor(num_upper, name="num_upper", dtype=num_lower.dtype)
    rows, cols = _matrix_sizes(x, "matrix_band_part")
    index_type = num_lower.dtype.base_dtype
    m = _array_ops.expand_dims(_math_ops.range(_math_ops.cast(rows, index_type)), 1)
    n = _array_ops.expand_dims(_math_ops.range(_math_ops.cast(cols, index_type)), 0)
    zero = _array_ops.zeros([], index_type)
    below = _math_ops.logical_or(_math_ops.less(num_lower, zero),
                                 _math_ops.less_equal(m - n, num_lower))
    above = _math_ops.logical_or(_math_ops.less(num_upper, zero),
                                 _math_ops.less_equal(n - m, num_upper))
    return _array_ops.where_v2(_math_ops.logical_and(below, above), x,
                               _array_ops.zeros([], x.dtype), name=name)


def trace(x, name=None):
  """The sum of the main diagonal of each innermost matrix."""
  with _ops.name_scope(name, "Trace", [x]) as name:
    x = _ops.convert_to_tensor(x, name="x")
    return _math_ops.reduce_sum(matrix_diag_part(x), [-1], name=name)


def adjoint(matrix, name=None):
  """The conjugate transpose of each innermost matrix (the transpose for real ones)."""
  with _ops.name_scope(name, "adjoint", [matrix]):
    matrix = _ops.convert_to_tensor(matrix, name="matrix")
    return _array_ops.matrix_transpose(matrix, conjugate=True)


def cross(a, b, name=None):
  """Cross products of the 3-vectors in the last dimension of a and b."""
  with _ops.name_scope(name, "Cross", [a, b]) as name:
    a = _ops.convert_to_tensor(a, name="a")
    b = _ops.convert_to_tensor(b, name="b", dtype=a.dtype.base_dtype)
    for t in (a, b):
      last = t.get_shape()[-1].value if t.get_shape().ndims else None
      if t.get_shape().ndims == 0 or last not in (None, 3):
        raise ValueError("Cross needs vectors of 3 in the last dimension, got shape %s"
                         % t.get_shape())
    a1, a2, a3 = a[..., 0], a[..., 1], a[..., 2]
    b1, b2, b3 = b[..., 0], b[..., 1], b[..., 2]
    return _array_ops.stack([a2 * b3 - a3 * b2, a3 * b1 - a1 * b3, a1 * b2 - a2 * b1], -1,
                            name=name)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # pylint: disable=redefined-builtin
  """(tensor / norm, norm), the norm (tf.norm's ord and axis) kept as a broadcastable
  tensor."""
  with _ops.name_scope(name, "normalize", [tensor]):
    tensor = _ops.convert_to_tensor(tensor)
    norm = _math_ops.cast(_math_ops.norm(tensor, ord, axis, keepdims=True), tensor.dtype)
    return tensor / norm, norm


def tensor_diag(diagonal, name=None):
  """A tensor of shape s + s with diagonal (shape s) at [i..., i...] and zeros elsewhere."""
  with _ops.name_scope(name, "Diag", [diagonal]) as name:
    d = _ops.convert_to_tensor(diagonal, name="diagonal")
    if _static_rank(d, "diag") < 1:
      raise ValueError("diag needs a diagonal of rank >= 1")
    shape = _array_ops.shape(d)
    square = matrix_diag(_array_ops.reshape(d, [-1]))
    out = _array_ops.reshape(square, _array_ops.concat([shape, shape], 0), name=name)
    out.set_shape(d.get_shape().concatenate(d.get_shape()))
    return out


def tensor_diag_part(input, name=None):  # pylint: disable=redefined-builtin
  """The diagonal [i..., i...] of a tensor of shape s + s (inverse of diag)."""
  with _ops.name_scope(name, "DiagPart", [input]) as name:
    x = _ops.convert_to_tensor(input, name="input")
    rank = _static_rank(x, "diag_part")
    if rank == 0 or rank % 2:
      raise ValueError("diag_part needs a tensor of even rank, got shape %s" % x.get_shape())
    half = _array_ops.shape(x)[:rank // 2]
    size = _math_ops.reduce_prod(half)
    flat = _array_ops.reshape(x, _array_ops.stack([size, size]))
    out = _array_ops.reshape(matrix_diag_part(flat), half, name=name)
    out.set_shape(x.get_shape()[:rank // 2])
    return out
