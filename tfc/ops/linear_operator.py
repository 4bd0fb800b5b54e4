"""tf.linalg.LinearOperator and its structured subclasses (TF 1.15).

A LinearOperator stands for a batch of matrices [B1, ..., Bb, M, N] without
necessarily holding them: each subclass computes matmul, solve, the
determinant and friends from its structure (a diagonal, a triangle, a
composition, ...) with graph ops, and `to_dense()` builds the matrices when
asked. The base class supplies the dense fallback for whatever a subclass
does not specialise. Hints (is_non_singular, is_self_adjoint,
is_positive_definite, is_square) follow TF's rules: they are promises of
the caller, checked for consistency, and they decide which methods refuse
to run (solve on an operator hinted singular raises NotImplementedError).
"""
import numpy as _np


def _tf():
  import tfc  # pylint: disable=g-import-not-at-top
  return tfc


def _tensor(x, name, dtype=None):
  return _tf().convert_to_tensor(x, dtype=dtype, name=name)


def _adjoint(x):
  tf = _tf()
  return tf.linalg.adjoint(x) if x.dtype.is_complex else tf.linalg.matrix_transpose(x)


class LinearOperator(object):
  """Base class of the linear operators (tf.linalg.LinearOperator).

  Subclasses implement `_shape()` (a static TensorShape), `_shape_tensor()`
  and at least `_to_dense()` or `_matmul()`; the rest has dense defaults.
  """

  def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=None, name=None, parameters=None):
    if is_positive_definite:
      if is_non_singular is False:
        raise ValueError("A positive definite matrix is always non-singular.")
      is_non_singular = True
    if is_non_singular:
      if is_square is False:
        raise ValueError("A non-singular matrix is always square.")
      is_square = True
    if is_self_adjoint:
      if is_square is False:
        raise ValueError("A self-adjoint matrix is always square.")
      is_square = True
    self._dtype = _tf().as_dtype(dtype) if dtype is not None else None
    self._graph_parents = list(graph_parents or [])
    self._is_non_singular = is_non_singular
    self._is_self_adjoint = is_self_adjoint
    self._is_positive_definite = is_positive_definite
    self._name = name or type(self).__name__
    self._parameters = parameters or {}
    static = self.shape
    if static.ndims is not None and static.ndims < 2:
      raise ValueError("The operator's shape must have rank >= 2, got %s" % static)
    auto_square = None
    if static.ndims is not None and static[-1].value is not None and static[-2].value is not None:
      auto_square = static[-1].value == static[-2].value
    if is_square is not None and auto_square is not None and is_square != auto_square:
      raise ValueError("User set is_square hint to %s but the operator's shape says otherwise."
                       % is_square)
    self._is_square = is_square if is_square is not None else auto_square

  # ---- properties ----

  @property
  def dtype(self):
    return self._dtype

  @property
  def name(self):
    return self._name

  @property
  def parameters(self):
    return dict(self._parameters)

  @property
  def graph_parents(self):
    return list(self._graph_parents)

  @property
  def is_non_singular(self):
    return self._is_non_singular

  @property
  def is_self_adjoint(self):
    return self._is_self_adjoint

  @property
  def is_positive_definite(self):
    return self._is_positive_definite

  @property
  def is_square(self):
    return self._is_square

  @property
  def shape(self):
    """The static shape [B1, ..., Bb, M, N] as a TensorShape."""
    return self._shape()

  def shape_tensor(self, name="shape_tensor"):
    """The shape as a 1-D int32 tensor."""
    with _tf().name_scope(self._name):
      with _tf().name_scope(name):
        if self.shape.is_fully_defined():
          return _tensor(self.shape.as_list(), "shape", _tf().int32)
        return self._shape_tensor()

  @property
  def batch_shape(self):
    return self.shape[:-2]

  def batch_shape_tensor(self, name="batch_shape_tensor"):
    return self.shape_tensor(name)[:-2]

  @property
  def tensor_rank(self):
    return self.shape.ndims

  def tensor_rank_tensor(self, name="tensor_rank_tensor"):
    if self.shape.ndims is not None:
      return _tensor(self.shape.ndims, name, _tf().int32)
    return _tf().size(self.shape_tensor(), name=name)

  @property
  def range_dimension(self):
    return self.shape[-2] if self.shape.ndims is not None else _tf().Dimension(None)

  def range_dimension_tensor(self, name="range_dimension_tensor"):
    v = self.range_dimension.value
    return _tensor(v, name, _tf().int32) if v is not None else self.shape_tensor()[-2]

  @property
  def domain_dimension(self):
    return self.shape[-1] if self.shape.ndims is not None else _tf().Dimension(None)

  def domain_dimension_tensor(self, name="domain_dimension_tensor"):
    v = self.domain_dimension.value
    return _tensor(v, name, _tf().int32) if v is not None else self.shape_tensor()[-1]

  def _shape_tensor(self):
    return _tf().shape(self.to_dense())

  # ---- checks ----

  def _check_input_dtype(self, arg):
    if arg.dtype != self.dtype:
      raise TypeError("Expected argument to have dtype %s.  Found: %s in tensor %s"
                      % (self.dtype, arg.dtype, arg))

  def assert_non_singular(self, name="assert_non_singular"):
    """An op failing (InvalidArgumentError) when a determinant is 0."""
    tf = _tf()
    with tf.name_scope(self._name):
      return tf.assert_positive(tf.abs(self.determinant()), message="Singular operator:", name=name)

  def assert_positive_definite(self, name="assert_positive_definite"):
    """An op failing when the operator is not positive definite (Cholesky fails)."""
    tf = _tf()
    with tf.name_scope(self._name):
      return tf.identity(tf.linalg.cholesky(self.to_dense()), name=name).op

  def assert_self_adjoint(self, name="assert_self_adjoint"):
    tf = _tf()
    with tf.name_scope(self._name):
      dense = self.to_dense()
      return tf.assert_equal(dense, _adjoint(dense), message="Matrix was not equal to its adjoint.",
                             name=name)

  # ---- algebra ----

  def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
    """op(A) @ op(x) (op: adjoint or not); x [..., N, R] (or a LinearOperator:
    their composition)."""
    if isinstance(x, LinearOperator):
      left = self.adjoint() if adjoint else self
      right = x.adjoint() if adjoint_arg else x
      return LinearOperatorComposition([left, right])
    tf = _tf()
    with tf.name_scope(self._name):
      with tf.name_scope(name):
        x = _tensor(x, "x")
        self._check_input_dtype(x)
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

  def __matmul__(self, other):
    return self.matmul(other)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    return _tf().matmul(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

  def matvec(self, x, adjoint=False, name="matvec"):
    """op(A) @ x for vectors x [..., N]."""
    tf = _tf()
    with tf.name_scope(self._name):
      with tf.name_scope(name):
        x = _tensor(x, "x")
        self._check_input_dtype(x)
        return tf.squeeze(self._matmul(tf.expand_dims(x, -1), adjoint=adjoint), [-1])

  def _check_solvable(self):
    if self.is_non_singular is False:
      raise NotImplementedError("Exact solve not implemented for an operator that is expected to "
                                "be singular.")
    if self.is_square is False:
      raise NotImplementedError("Exact solve not implemented for an operator that is expected to "
                                "not be square.")

  def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
    """X with op(A) X = op(rhs) (or the composition with A's inverse for a
    LinearOperator rhs)."""
    self._check_solvable()
    if isinstance(rhs, LinearOperator):
      left = (self.adjoint() if adjoint else self).inverse()
      right = rhs.adjoint() if adjoint_arg else rhs
      return LinearOperatorComposition([left, right])
    tf = _tf()
    with tf.name_scope(self._name):
      with tf.name_scope(name):
        rhs = _tensor(rhs, "rhs")
        self._check_input_dtype(rhs)
        return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    tf = _tf()
    if adjoint_arg:
      rhs = _adjoint(rhs)
    dense = self.to_dense()
    if self.is_positive_definite and self.is_self_adjoint:
      return tf.linalg.cholesky_solve(tf.linalg.cholesky(dense), rhs)
    return tf.linalg.solve(dense, rhs, adjoint=adjoint)

  def solvevec(self, rhs, adjoint=False, name="solve"):
    """x with op(A) x = rhs for vectors rhs [..., M]."""
    self._check_solvable()
    tf = _tf()
    with tf.name_scope(self._name):
      with tf.name_scope(name):
        rhs = _tensor(rhs, "rhs")
        self._check_input_dtype(rhs)
        return tf.squeeze(self._solve(tf.expand_dims(rhs, -1), adjoint=adjoint), [-1])

  def _check_square(self, what):
    if self.is_square is False:
      raise NotImplementedError("%s not implemented for an operator that is expected to not be "
                                "square." % what)

  def determinant(self, name="det"):
    """The determinant of each matrix of the batch."""
    self._check_square("Determinant")
    tf = _tf()
    with tf.name_scope(self._name):
      with tf.name_scope(name):
        return self._determinant()

  def _determinant(self):
    return _tf().linalg.det(self.to_dense())

  def log_abs_determinant(self, name="log_abs_det"):
    """log |det| of each matrix of the batch."""
    self._check_square("Determinant")
    tf = _tf()
    with tf.name_scope(self._name):
      with tf.name_scope(name):
        return self._log_abs_determinant()

  def _log_abs_determinant(self):
    tf = _tf()
    if self.is_positive_definite and self.is_self_adjoint:
      chol = tf.linalg.cholesky(self.to_dense())
      return 2. * tf.reduce_sum(tf.log(tf.linalg.diag_part(chol)), axis=-1)
    return tf.linalg.slogdet(self.to_dense())[1]

  def to_dense(self, name="to_dense"):
    """The matrices as a dense [..., M, N] tensor."""
    tf = _tf()
    with tf.name_scope(self._name):
      with tf.name_scope(name):
        return self._to_dense()

  def _to_dense(self):
    tf = _tf()
    n = self.domain_dimension_tensor()
    eye = tf.eye(n, batch_shape=self.batch_shape_tensor(), dtype=self.dtype)
    return self.matmul(eye)

  def diag_part(self, name="diag_part"):
    """The main diagonals [..., min(M, N)]."""
    tf = _tf()
    with tf.name_scope(self._name):
      with tf.name_scope(name):
        return self._diag_part()

  def _diag_part(self):
    return _tf().linalg.diag_part(self.to_dense())

  def trace(self, name="trace"):
    """The sum of the main diagonal of each matrix."""
    tf = _tf()
    with tf.name_scope(self._name):
      with tf.name_scope(name):
        return self._trace()

  def _trace(self):
    return _tf().reduce_sum(self.diag_part(), axis=-1)

  def add_to_tensor(self, x, name="add_to_tensor"):
    """x + the dense operator."""
    tf = _tf()
    with tf.name_scope(self._name):
      with tf.name_scope(name):
        x = _tensor(x, "x")
        self._check_input_dtype(x)
        return self._add_to_tensor(x)

  def _add_to_tensor(self, x):
    return self.to_dense() + x

  def adjoint(self, name="adjoint"):
    """The adjoint operator (the operator itself when hinted self-adjoint)."""
    if self.is_self_adjoint is True:
      return self
    return LinearOperatorAdjoint(self)

  H = property(adjoint)

  def inverse(self, name="inverse"):
    """The inverse operator (a square, non-singular operator)."""
    if self.is_square is False:
      raise ValueError("Cannot take the Inverse: This operator represents a non square matrix.")
    if self.is_non_singular is False:
      raise ValueError("Cannot take the Inverse: This operator represents a singular matrix.")
    return LinearOperatorInversion(self)

  def cholesky(self, name="cholesky"):
    """The lower-triangular Cholesky factor as a LinearOperatorLowerTriangular."""
    if not self._can_use_cholesky():
      raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite self "
                       "adjoint matrix.")
    return LinearOperatorLowerTriangular(_tf().linalg.cholesky(self.to_dense()),
                                         is_non_singular=True, is_self_adjoint=False, is_square=True)

  def _can_use_cholesky(self):
    return bool(self.is_self_adjoint and self.is_positive_definite)

  def eigvals(self, name="eigvals"):
    """The eigenvalues of a self-adjoint operator (ascending)."""
    if not self.is_self_adjoint:
      raise NotImplementedError("Only self-adjoint matrices are supported.")
    return _tf().linalg.eigvalsh(self.to_dense())

  def cond(self, name="cond"):
    """The condition number (largest / smallest singular value)."""
    tf = _tf()
    s = tf.linalg.svd(self.to_dense(), compute_uv=False)
    return tf.reduce_max(s, axis=-1) / tf.reduce_min(s, axis=-1)


# ---------------------------------------------------------------- dense

class LinearOperatorFullMatrix(LinearOperator):
  """An operator holding its matrices [..., M, N]."""

  def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
               is_square=None, name="LinearOperatorFullMatrix"):
    tf = _tf()
    with tf.name_scope(name, values=[matrix]):
      self._matrix = _tensor(matrix, "matrix")
      allowed = (tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128)
      if self._matrix.dtype not in allowed:
        raise TypeError("Argument matrix must have dtype in %s.  Found: %s" % (allowed, self._matrix.dtype))
      self._matrix.shape.with_rank_at_least(2)
    super(LinearOperatorFullMatrix, self).__init__(
        self._matrix.dtype, [self._matrix], is_non_singular, is_self_adjoint, is_positive_definite,
        is_square, name, {"matrix": matrix})

  def _shape(self):
    return self._matrix.shape

  def _shape_tensor(self):
    return _tf().shape(self._matrix)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    return _tf().matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

  def _to_dense(self):
    return self._matrix


class LinearOperatorLowerTriangular(LinearOperator):
  """The lower triangle of tril [..., N, N] (the rest is ignored)."""

  def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
               is_square=None, name="LinearOperatorLowerTriangular"):
    if is_square is False:
      raise ValueError("Only square lower triangular operators supported at this time.")
    tf = _tf()
    with tf.name_scope(name, values=[tril]):
      self._tril = tf.linalg.band_part(_tensor(tril, "tril"), -1, 0)
    super(LinearOperatorLowerTriangular, self).__init__(
        self._tril.dtype, [self._tril], is_non_singular, is_self_adjoint, is_positive_definite, True,
        name, {"tril": tril})

  def _shape(self):
    return self._tril.shape

  def _shape_tensor(self):
    return _tf().shape(self._tril)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    return _tf().matmul(self._tril, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    if adjoint_arg:
      rhs = _adjoint(rhs)
    return _tf().linalg.triangular_solve(self._tril, rhs, lower=True, adjoint=adjoint)

  def _diag_part(self):
    return _tf().linalg.diag_part(self._tril)

  def _determinant(self):
    return _tf().reduce_prod(self._diag_part(), axis=-1)

  def _log_abs_determinant(self):
    tf = _tf()
    return tf.reduce_sum(tf.log(tf.abs(self._diag_part())), axis=-1)

  def _to_dense(self):
    return self._tril


# ---------------------------------------------------------------- diagonal family

class LinearOperatorDiag(LinearOperator):
  """The diagonal matrices of diag [..., N]."""

  def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
               is_square=None, name="LinearOperatorDiag"):
    tf = _tf()
    with tf.name_scope(name, values=[diag]):
      self._diag = _tensor(diag, "diag")
      self._diag.shape.with_rank_at_least(1)
      if not self._diag.dtype.is_complex and is_self_adjoint is False:
        raise ValueError("A real diagonal operator is always self adjoint.")
      if not self._diag.dtype.is_complex:
        is_self_adjoint = True
      if is_square is False:
        raise ValueError("Only square diagonal operators currently supported.")
    super(LinearOperatorDiag, self).__init__(
        self._diag.dtype, [self._diag], is_non_singular, is_self_adjoint, is_positive_definite, True,
        name, {"diag": diag})

  @property
  def diag(self):
    return self._diag

  def _shape(self):
    s = self._diag.shape
    return s.concatenate(s[-1:]) if s.ndims is not None else s

  def _shape_tensor(self):
    tf = _tf()
    s = tf.shape(self._diag)
    return tf.concat([s, s[-1:]], 0)

  def _scale(self, adjoint):
    tf = _tf()
    return tf.conj(self._diag) if adjoint and self._diag.dtype.is_complex else self._diag

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    tf = _tf()
    if adjoint_arg:
      x = _adjoint(x)
    return tf.expand_dims(self._scale(adjoint), -1) * x

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    tf = _tf()
    if adjoint_arg:
      rhs = _adjoint(rhs)
    return rhs / tf.expand_dims(self._scale(adjoint), -1)

  def _determinant(self):
    return _tf().reduce_prod(self._diag, axis=-1)

  def _log_abs_determinant(self):
    tf = _tf()
    return tf.reduce_sum(tf.log(tf.abs(self._diag)), axis=-1)

  def _diag_part(self):
    return self._diag

  def _trace(self):
    return _tf().reduce_sum(self._diag, axis=-1)

  def _to_dense(self):
    return _tf().linalg.diag(self._diag)

  def _add_to_tensor(self, x):
    tf = _tf()
    return tf.linalg.set_diag(x, tf.linalg.diag_part(x) + self._diag)

  def cholesky(self, name="cholesky"):
    if not self._can_use_cholesky():
      raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite self "
                       "adjoint matrix.")
    return LinearOperatorDiag(_tf().sqrt(self._diag), is_non_singular=True, is_self_adjoint=True,
                              is_positive_definite=True, is_square=True)

  def inverse(self, name="inverse"):
    super(LinearOperatorDiag, self).inverse()
    return LinearOperatorDiag(1. / self._diag, is_non_singular=self.is_non_singular,
                              is_self_adjoint=self.is_self_adjoint,
                              is_positive_definite=self.is_positive_definite, is_square=True)

  def eigvals(self, name="eigvals"):
    return _tf().sort(self._diag, axis=-1) if not self._diag.dtype.is_complex else self._diag


def _batch_shape_arg(batch_shape):
  if batch_shape is None:
    return None
  if isinstance(batch_shape, (list, tuple)):
    return [int(b) for b in batch_shape]
  return batch_shape


class LinearOperatorIdentity(LinearOperator):
  """The identity matrix of size num_rows (optionally batched by batch_shape)."""

  def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True,
               is_self_adjoint=True, is_positive_definite=True, is_square=True,
               assert_proper_shapes=False, name="LinearOperatorIdentity"):
    tf = _tf()
    dtype = dtype or tf.float32
    if not is_self_adjoint:
      raise ValueError("An identity operator is always self adjoint.")
    if not is_non_singular:
      raise ValueError("An identity operator is always non-singular.")
    if not is_positive_definite:
      raise ValueError("An identity operator is always positive-definite.")
    if not is_square:
      raise ValueError("An identity operator is always square.")
    self._num_rows_static = num_rows if isinstance(num_rows, int) else None
    if isinstance(num_rows, int) and num_rows < 0:
      raise ValueError("Argument num_rows must be non-negative.  Found: %s" % num_rows)
    self._num_rows = _tensor(num_rows, "num_rows", tf.int32)
    self._batch_shape_static = _batch_shape_arg(batch_shape)
    if isinstance(self._batch_shape_static, list) and any(b < 0 for b in self._batch_shape_static):
      raise ValueError("Argument batch_shape must be non-negative.  Found: %s" % batch_shape)
    self._batch_shape_arg = (None if batch_shape is None
                             else _tensor(batch_shape, "batch_shape", tf.int32))
    super(LinearOperatorIdentity, self).__init__(dtype, [], is_non_singular, is_self_adjoint,
                                                 is_positive_definite, is_square, name,
                                                 {"num_rows": num_rows, "batch_shape": batch_shape})

  def _shape(self):
    tf = _tf()
    n = self._num_rows_static
    mat = tf.TensorShape([n, n])
    if self._batch_shape_arg is None:
      return mat
    if isinstance(self._batch_shape_static, list):
      return tf.TensorShape(self._batch_shape_static).concatenate(mat)
    return tf.TensorShape(None)

  def _shape_tensor(self):
    tf = _tf()
    mat = tf.stack([self._num_rows, self._num_rows])
    if self._batch_shape_arg is None:
      return mat
    return tf.concat([self._batch_shape_arg, mat], 0)

  def _ones_batch(self):
    tf = _tf()
    shape = self._batch_shape_arg if self._batch_shape_arg is not None else tf.constant([], tf.int32)
    return tf.ones(shape, dtype=self.dtype)

  def _possibly_broadcast(self, x):
    """x broadcast against the operator's batch shape (when it has one)."""
    tf = _tf()
    if self._batch_shape_arg is None:
      return x
    return x + tf.zeros(tf.concat([self._batch_shape_arg, [1, 1]], 0), dtype=x.dtype)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    if adjoint_arg:
      x = _adjoint(x)
    return self._possibly_broadcast(x)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    return self._matmul(rhs, adjoint_arg=adjoint_arg)

  def _determinant(self):
    return self._ones_batch()

  def _log_abs_determinant(self):
    return _tf().zeros_like(self._ones_batch())

  def _trace(self):
    return self._ones_batch() * _tf().cast(self._num_rows, self.dtype)

  def _diag_part(self):
    tf = _tf()
    return tf.expand_dims(self._ones_batch(), -1) * tf.ones([self._num_rows], dtype=self.dtype)

  def _to_dense(self):
    tf = _tf()
    return tf.eye(self._num_rows, batch_shape=self._batch_shape_arg, dtype=self.dtype)

  def _add_to_tensor(self, x):
    tf = _tf()
    return tf.linalg.set_diag(x, tf.linalg.diag_part(x) + tf.ones_like(tf.linalg.diag_part(x)))

  def adjoint(self, name="adjoint"):
    return self

  H = property(adjoint)

  def inverse(self, name="inverse"):
    return self

  def cholesky(self, name="cholesky"):
    return self


class LinearOperatorScaledIdentity(LinearOperator):
  """multiplier * the identity of size num_rows; multiplier's shape is the batch shape."""

  def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=True, assert_proper_shapes=False,
               name="LinearOperatorScaledIdentity"):
    tf = _tf()
    if not is_square:
      raise ValueError("A ScaledIdentity operator is always square.")
    with tf.name_scope(name, values=[multiplier, num_rows]):
      self._multiplier = _tensor(multiplier, "multiplier")
      self._num_rows_static = num_rows if isinstance(num_rows, int) else None
      self._num_rows = _tensor(num_rows, "num_rows", tf.int32)
    if not self._multiplier.dtype.is_complex and is_self_adjoint is None:
      is_self_adjoint = True
    super(LinearOperatorScaledIdentity, self).__init__(
        self._multiplier.dtype, [self._multiplier], is_non_singular, is_self_adjoint,
        is_positive_definite, is_square, name, {"num_rows": num_rows, "multiplier": multiplier})

  @property
  def multiplier(self):
    return self._multiplier

  def _shape(self):
    tf = _tf()
    return self._multiplier.shape.concatenate([self._num_rows_static, self._num_rows_static])

  def _shape_tensor(self):
    tf = _tf()
    return tf.concat([tf.shape(self._multiplier), tf.stack([self._num_rows, self._num_rows])], 0)

  def _m(self, adjoint):
    tf = _tf()
    m = tf.conj(self._multiplier) if adjoint and self._multiplier.dtype.is_complex else self._multiplier
    return tf.expand_dims(tf.expand_dims(m, -1), -1)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    if adjoint_arg:
      x = _adjoint(x)
    return x * self._m(adjoint)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    if adjoint_arg:
      rhs = _adjoint(rhs)
    return rhs / self._m(adjoint)

  def _determinant(self):
    tf = _tf()
    return self._multiplier ** tf.cast(self._num_rows, self.dtype)

  def _log_abs_determinant(self):
    tf = _tf()
    return tf.cast(self._num_rows, self.dtype.real_dtype) * tf.log(tf.abs(self._multiplier))

  def _trace(self):
    return _tf().cast(self._num_rows, self.dtype) * self._multiplier

  def _diag_part(self):
    tf = _tf()
    return tf.expand_dims(self._multiplier, -1) * tf.ones([self._num_rows], dtype=self.dtype)

  def _to_dense(self):
    tf = _tf()
    return tf.linalg.diag(self._diag_part())

  def _add_to_tensor(self, x):
    tf = _tf()
    return tf.linalg.set_diag(x, tf.linalg.diag_part(x) + tf.expand_dims(self._multiplier, -1))

  def cholesky(self, name="cholesky"):
    if not self._can_use_cholesky():
      raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite self "
                       "adjoint matrix.")
    return LinearOperatorScaledIdentity(self._num_rows, _tf().sqrt(self._multiplier),
                                        is_non_singular=True, is_self_adjoint=True,
                                        is_positive_definite=True)

  def inverse(self, name="inverse"):
    super(LinearOperatorScaledIdentity, self).inverse()
    return LinearOperatorScaledIdentity(self._num_rows, 1. / self._multiplier,
                                        is_non_singular=self.is_non_singular,
                                        is_self_adjoint=self.is_self_adjoint,
                                        is_positive_definite=self.is_positive_definite)


class LinearOperatorZeros(LinearOperator):
  """The zero matrix [num_rows, num_columns] (optionally batched)."""

  def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None, is_non_singular=False,
               is_self_adjoint=True, is_positive_definite=False, is_square=True,
               assert_proper_shapes=False, name="LinearOperatorZeros"):
    tf = _tf()
    dtype = dtype or tf.float32
    if is_non_singular:
      raise ValueError("A Zeros operator is always singular.")
    if is_positive_definite:
      raise ValueError("A Zeros operator is always not positive-definite.")
    num_columns = num_rows if num_columns is None else num_columns
    if isinstance(num_rows, int) and isinstance(num_columns, int) and num_rows != num_columns:
      is_square, is_self_adjoint = False, False
    self._rows_static = num_rows if isinstance(num_rows, int) else None
    self._cols_static = num_columns if isinstance(num_columns, int) else None
    self._num_rows = _tensor(num_rows, "num_rows", tf.int32)
    self._num_columns = _tensor(num_columns, "num_columns", tf.int32)
    self._batch_shape_static = _batch_shape_arg(batch_shape)
    self._batch_shape_arg = (None if batch_shape is None
                             else _tensor(batch_shape, "batch_shape", tf.int32))
    super(LinearOperatorZeros, self).__init__(
        dtype, [], is_non_singular, is_self_adjoint if is_square else False, is_positive_definite,
        is_square, name, {"num_rows": num_rows, "num_columns": num_columns})

  def _shape(self):
    tf = _tf()
    mat = tf.TensorShape([self._rows_static, self._cols_static])
    if self._batch_shape_arg is None:
      return mat
    if isinstance(self._batch_shape_static, list):
      return tf.TensorShape(self._batch_shape_static).concatenate(mat)
    return tf.TensorShape(None)

  def _shape_tensor(self):
    tf = _tf()
    mat = tf.stack([self._num_rows, self._num_columns])
    return mat if self._batch_shape_arg is None else tf.concat([self._batch_shape_arg, mat], 0)

  def _zeros_batch(self):
    tf = _tf()
    shape = self._batch_shape_arg if self._batch_shape_arg is not None else tf.constant([], tf.int32)
    return tf.zeros(shape, dtype=self.dtype)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    tf = _tf()
    if adjoint_arg:
      x = _adjoint(x)
    rows = self._num_columns if adjoint else self._num_rows
    out_shape = tf.concat([tf.shape(x)[:-2], tf.stack([rows, tf.shape(x)[-1]])], 0)
    out = tf.zeros(out_shape, dtype=x.dtype)
    if self._batch_shape_arg is not None:
      out = out + tf.zeros(tf.concat([self._batch_shape_arg, [1, 1]], 0), dtype=x.dtype)
    return out

  def _determinant(self):
    return self._zeros_batch()

  def _log_abs_determinant(self):
    tf = _tf()
    return tf.log(tf.abs(self._zeros_batch()))

  def _trace(self):
    return self._zeros_batch()

  def _diag_part(self):
    tf = _tf()
    return tf.expand_dims(self._zeros_batch(), -1) * tf.zeros(
        [tf.minimum(self._num_rows, self._num_columns)], dtype=self.dtype)

  def _to_dense(self):
    tf = _tf()
    return tf.zeros(self._shape_tensor(), dtype=self.dtype)

  def _add_to_tensor(self, x):
    return x

  def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
    raise NotImplementedError("Zeros operators are not invertible.")

  def solvevec(self, rhs, adjoint=False, name="solve"):
    raise NotImplementedError("Zeros operators are not invertible.")


# ---------------------------------------------------------------- wrappers

class LinearOperatorAdjoint(LinearOperator):
  """The adjoint of another operator."""

  def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
               is_square=None, name=None):
    self._operator = operator
    pick = lambda mine, theirs: theirs if mine is None else mine  # noqa: E731
    super(LinearOperatorAdjoint, self).__init__(
        operator.dtype, operator.graph_parents, pick(is_non_singular, operator.is_non_singular),
        pick(is_self_adjoint, operator.is_self_adjoint),
        pick(is_positive_definite, operator.is_positive_definite),
        pick(is_square, operator.is_square), name or operator.name + "_adjoint",
        {"operator": operator})

  @property
  def operator(self):
    return self._operator

  def _shape(self):
    s = self._operator.shape
    if s.ndims is None:
      return s
    return s[:-2].concatenate([s[-1], s[-2]])

  def _shape_tensor(self):
    tf = _tf()
    s = self._operator.shape_tensor()
    return tf.concat([s[:-2], s[-1:], s[-2:-1]], 0)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    return self._operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

  def _determinant(self):
    tf = _tf()
    d = self._operator.determinant()
    return tf.conj(d) if d.dtype.is_complex else d

  def _log_abs_determinant(self):
    return self._operator.log_abs_determinant()

  def _trace(self):
    tf = _tf()
    t = self._operator.trace()
    return tf.conj(t) if t.dtype.is_complex else t

  def _diag_part(self):
    tf = _tf()
    d = self._operator.diag_part()
    return tf.conj(d) if d.dtype.is_complex else d

  def _to_dense(self):
    return _adjoint(self._operator.to_dense())

  def adjoint(self, name="adjoint"):
    return self._operator

  H = property(adjoint)


class LinearOperatorInversion(LinearOperator):
  """The inverse of a square, non-singular operator."""

  def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
               is_square=None, name=None):
    if operator.is_square is False or is_square is False:
      raise ValueError("Cannot take the Inverse: This operator represents a non square matrix.")
    if operator.is_non_singular is False or is_non_singular is False:
      raise ValueError("Cannot take the Inverse: This operator represents a singular matrix.")
    self._operator = operator
    pick = lambda mine, theirs: theirs if mine is None else mine  # noqa: E731
    super(LinearOperatorInversion, self).__init__(
        operator.dtype, operator.graph_parents, pick(is_non_singular, operator.is_non_singular),
        pick(is_self_adjoint, operator.is_self_adjoint),
        pick(is_positive_definite, operator.is_positive_definite), True,
        name or operator.name + "_inv", {"operator": operator})

  @property
  def operator(self):
    return self._operator

  def _shape(self):
    return self._operator.shape

  def _shape_tensor(self):
    return self._operator.shape_tensor()

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

  def _determinant(self):
    return 1. / self._operator.determinant()

  def _log_abs_determinant(self):
    return -1. * self._operator.log_abs_determinant()

  def inverse(self, name="inverse"):
    return self._operator


class LinearOperatorComposition(LinearOperator):
  """The product operators[0] @ operators[1] @ ... of operators of one dtype."""

  def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
               is_square=None, name=None):
    operators = list(operators)
    if not operators:
      raise ValueError("Expected a non-empty list of operators. Found: %s" % operators)
    dtype = operators[0].dtype
    for op in operators:
      if op.dtype != dtype:
        raise TypeError("Expected all operators to have the same dtype.  Found %s"
                        % [o.dtype for o in operators])
    if all(op.is_non_singular for op in operators):
      if is_non_singular is False:
        raise ValueError("The composition of non-singular operators is always non-singular.")
      is_non_singular = True
    self._operators = operators
    super(LinearOperatorComposition, self).__init__(
        dtype, [p for o in operators for p in o.graph_parents], is_non_singular, is_self_adjoint,
        is_positive_definite, is_square, name or "_o_".join(o.name for o in operators),
        {"operators": operators})

  @property
  def operators(self):
    return list(self._operators)

  def _shape(self):
    tf = _tf()
    first, last = self._operators[0].shape, self._operators[-1].shape
    if first.ndims is None or last.ndims is None:
      return tf.TensorShape(None)
    batch = first[:-2]
    for op in self._operators[1:]:
      if op.shape.ndims is None:
        return tf.TensorShape(None)
      batch = tf.broadcast_static_shape(batch, op.shape[:-2])
    return batch.concatenate([first[-2], last[-1]])

  def _shape_tensor(self):
    tf = _tf()
    first, last = self._operators[0].shape_tensor(), self._operators[-1].shape_tensor()
    batch = first[:-2]
    for op in self._operators[1:]:
      batch = tf.broadcast_dynamic_shape(batch, op.batch_shape_tensor())
    return tf.concat([batch, first[-2:-1], last[-1:]], 0)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    ops = self._operators[::-1] if not adjoint else self._operators
    result = ops[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
    for op in ops[1:]:
      result = op.matmul(result, adjoint=adjoint)
    return result

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    ops = self._operators if not adjoint else self._operators[::-1]
    result = ops[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
    for op in ops[1:]:
      result = op.solve(result, adjoint=adjoint)
    return result

  def _determinant(self):
    result = self._operators[0].determinant()
    for op in self._operators[1:]:
      result = result * op.determinant()
    return result

  def _log_abs_determinant(self):
    result = self._operators[0].log_abs_determinant()
    for op in self._operators[1:]:
      result = result + op.log_abs_determinant()
    return result

  def _to_dense(self):
    if self.shape.is_fully_defined() or len(self._operators) > 0:
      return self._matmul(self._operators[-1]._dense_identity())  # pylint: disable=protected-access
    return super(LinearOperatorComposition, self)._to_dense()


def _dense_identity(self):
  """The identity of this operator's domain with its batch shape (for to_dense)."""
  tf = _tf()
  return tf.eye(self.domain_dimension_tensor(), batch_shape=self.batch_shape_tensor(), dtype=self.dtype)


LinearOperator._dense_identity = _dense_identity  # pylint: disable=protected-access


# ---------------------------------------------------------------- block structure

class LinearOperatorBlockDiag(LinearOperator):
  """The block-diagonal matrix of square operators."""

  def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
               is_square=True, name=None):
    operators = list(operators)
    if not operators:
      raise ValueError("Expected a non-empty list of operators. Found: %s" % operators)
    for op in operators:
      if op.dtype != operators[0].dtype:
        raise TypeError("Expected all operators to have the same dtype.  Found %s"
                        % [o.dtype for o in operators])
      if op.is_square is False:
        raise ValueError("For a non-square operator to be square, all operators must be square.")
    if all(op.is_non_singular for op in operators):
      is_non_singular = True if is_non_singular is None else is_non_singular
    if all(op.is_self_adjoint for op in operators):
      is_self_adjoint = True if is_self_adjoint is None else is_self_adjoint
    if all(op.is_positive_definite for op in operators):
      is_positive_definite = True if is_positive_definite is None else is_positive_definite
    self._operators = operators
    super(LinearOperatorBlockDiag, self).__init__(
        operators[0].dtype, [p for o in operators for p in o.graph_parents], is_non_singular,
        is_self_adjoint, is_positive_definite, True, name or "_ds_".join(o.name for o in operators),
        {"operators": operators})

  @property
  def operators(self):
    return list(self._operators)

  def _shape(self):
    tf = _tf()
    shapes = [op.shape for op in self._operators]
    if any(s.ndims is None for s in shapes):
      return tf.TensorShape(None)
    batch = shapes[0][:-2]
    for s in shapes[1:]:
      batch = tf.broadcast_static_shape(batch, s[:-2])
    dims = [s[-1].value for s in shapes]
    n = None if any(d is None for d in dims) else sum(dims)
    return batch.concatenate([n, n])

  def _shape_tensor(self):
    tf = _tf()
    batch = self._operators[0].batch_shape_tensor()
    n = self._operators[0].domain_dimension_tensor()
    for op in self._operators[1:]:
      batch = tf.broadcast_dynamic_shape(batch, op.batch_shape_tensor())
      n = n + op.domain_dimension_tensor()
    return tf.concat([batch, tf.stack([n, n])], 0)

  def _split_rows(self, x):
    tf = _tf()
    sizes = [op.domain_dimension_tensor() for op in self._operators]
    return tf.split(x, tf.stack(sizes), axis=-2)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    tf = _tf()
    if adjoint_arg:
      x = _adjoint(x)
    parts = self._split_rows(x)
    return tf.concat([op.matmul(p, adjoint=adjoint) for op, p in zip(self._operators, parts)], -2)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    tf = _tf()
    if adjoint_arg:
      rhs = _adjoint(rhs)
    parts = self._split_rows(rhs)
    return tf.concat([op.solve(p, adjoint=adjoint) for op, p in zip(self._operators, parts)], -2)

  def _determinant(self):
    result = self._operators[0].determinant()
    for op in self._operators[1:]:
      result = result * op.determinant()
    return result

  def _log_abs_determinant(self):
    result = self._operators[0].log_abs_determinant()
    for op in self._operators[1:]:
      result = result + op.log_abs_determinant()
    return result

  def _diag_part(self):
    return _tf().concat([op.diag_part() for op in self._operators], -1)

  def _trace(self):
    result = self._operators[0].trace()
    for op in self._operators[1:]:
      result = result + op.trace()
    return result

  def _to_dense(self):
    tf = _tf()
    dense = [op.to_dense() for op in self._operators]
    sizes = [op.domain_dimension_tensor() for op in self._operators]
    rows = []
    for i, d in enumerate(dense):
      left = sum(sizes[:i]) if i else 0
      right = sum(sizes[i + 1:]) if i + 1 < len(sizes) else 0
      rank = d.shape.ndims
      pad = [[0, 0]] * (rank - 1) + [[left, right]]
      rows.append(tf.pad(d, tf.convert_to_tensor(pad) if not all(
          isinstance(v, int) for p in pad for v in p) else pad))
    return tf.concat(rows, -2)


class LinearOperatorKronecker(LinearOperator):
  """The Kronecker product operators[0] (x) operators[1] (x) ...."""

  def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
               is_square=None, name=None):
    operators = list(operators)
    if not operators:
      raise ValueError("Expected a list of >=1 operators. Found: %s" % operators)
    for op in operators:
      if op.dtype != operators[0].dtype:
        raise TypeError("Expected all operators to have the same dtype.  Found %s"
                        % [o.dtype for o in operators])
    if all(op.is_non_singular for op in operators):
      is_non_singular = True if is_non_singular is None else is_non_singular
    if all(op.is_self_adjoint for op in operators):
      is_self_adjoint = True if is_self_adjoint is None else is_self_adjoint
    self._operators = operators
    super(LinearOperatorKronecker, self).__init__(
        operators[0].dtype, [p for o in operators for p in o.graph_parents], is_non_singular,
        is_self_adjoint, is_positive_definite, is_square,
        name or "_x_".join(o.name for o in operators), {"operators": operators})

  @property
  def operators(self):
    return list(self._operators)

  def _shape(self):
    tf = _tf()
    shapes = [op.shape for op in self._operators]
    if any(s.ndims is None for s in shapes):
      return tf.TensorShape(None)
    batch = shapes[0][:-2]
    rows, cols = 1, 1
    for s in shapes:
      batch = tf.broadcast_static_shape(batch, s[:-2])
      rows = None if rows is None or s[-2].value is None else rows * s[-2].value
      cols = None if cols is None or s[-1].value is None else cols * s[-1].value
    return batch.concatenate([rows, cols])

  def _shape_tensor(self):
    tf = _tf()
    batch = self._operators[0].batch_shape_tensor()
    rows = self._operators[0].range_dimension_tensor()
    cols = self._operators[0].domain_dimension_tensor()
    for op in self._operators[1:]:
      batch = tf.broadcast_dynamic_shape(batch, op.batch_shape_tensor())
      rows = rows * op.range_dimension_tensor()
      cols = cols * op.domain_dimension_tensor()
    return tf.concat([batch, tf.stack([rows, cols])], 0)

  def _to_dense(self):
    tf = _tf()
    result = self._operators[0].to_dense()
    for op in self._operators[1:]:
      b = op.to_dense()
      ra, ca = tf.shape(result)[-2], tf.shape(result)[-1]
      rb, cb = tf.shape(b)[-2], tf.shape(b)[-1]
      prod = tf.expand_dims(tf.expand_dims(result, -1), -3) * tf.expand_dims(tf.expand_dims(b, -3), -2)
      batch = tf.shape(prod)[:-4]
      result = tf.reshape(prod, tf.concat([batch, tf.stack([ra * rb, ca * cb])], 0))
    return result

  def _determinant(self):
    tf = _tf()
    n = tf.cast(self.domain_dimension_tensor(), self.dtype)
    result = None
    for op in self._operators:
      term = op.determinant() ** (n / tf.cast(op.domain_dimension_tensor(), self.dtype))
      result = term if result is None else result * term
    return result

  def _log_abs_determinant(self):
    tf = _tf()
    n = tf.cast(self.domain_dimension_tensor(), self.dtype.real_dtype)
    result = None
    for op in self._operators:
      term = op.log_abs_determinant() * (n / tf.cast(op.domain_dimension_tensor(), n.dtype))
      result = term if result is None else result + term
    return result

  def _trace(self):
    result = None
    for op in self._operators:
      t = op.trace()
      result = t if result is None else result * t
    return result


class LinearOperatorLowRankUpdate(LinearOperator):
  """base_operator + U diag(diag_update) V^H (V = U unless given), with
  solve and the determinant through the Woodbury identity and the matrix
  determinant lemma."""

  def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
               is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
               name="LinearOperatorLowRankUpdate"):
    tf = _tf()
    with tf.name_scope(name, values=[u, v, diag_update]):
      self._u = _tensor(u, "u", base_operator.dtype)
      self._v = self._u if v is None else _tensor(v, "v", base_operator.dtype)
      self._diag_update = None if diag_update is None else _tensor(diag_update, "diag_update",
                                                                   base_operator.dtype)
    self._base_operator = base_operator
    self._is_diag_update_positive = is_diag_update_positive
    if v is None and base_operator.is_self_adjoint and is_self_adjoint is None:
      is_self_adjoint = True
    super(LinearOperatorLowRankUpdate, self).__init__(
        base_operator.dtype, base_operator.graph_parents + [self._u], is_non_singular,
        is_self_adjoint, is_positive_definite, is_square, name,
        {"base_operator": base_operator, "u": u, "diag_update": diag_update, "v": v})

  @property
  def u(self):
    return self._u

  @property
  def v(self):
    return self._v

  @property
  def diag_update(self):
    return self._diag_update

  @property
  def base_operator(self):
    return self._base_operator

  def _shape(self):
    return self._base_operator.shape

  def _shape_tensor(self):
    return self._base_operator.shape_tensor()

  def _d(self):
    return (LinearOperatorIdentity(_tf().shape(self._u)[-1], dtype=self.dtype)
            if self._diag_update is None else LinearOperatorDiag(self._diag_update))

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    tf = _tf()
    u, v = (self._v, self._u) if adjoint else (self._u, self._v)
    base = self._base_operator.matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
    vh_x = tf.matmul(v, x, adjoint_a=True, adjoint_b=adjoint_arg)
    return base + tf.matmul(u, self._d().matmul(vh_x, adjoint=adjoint))

  def _capacitance(self):
    """C = D^-1 + V^H L^-1 U."""
    tf = _tf()
    linv_u = self._base_operator.solve(self._u)
    return self._d().inverse().to_dense() + tf.matmul(self._v, linv_u, adjoint_a=True)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    tf = _tf()
    if adjoint_arg:
      rhs = _adjoint(rhs)
    base, u, v = self._base_operator, self._u, self._v
    if adjoint:
      u, v = v, u
    linv_rhs = base.solve(rhs, adjoint=adjoint)
    linv_u = base.solve(u, adjoint=adjoint)
    cap = self._d().inverse().to_dense()
    if adjoint:
      cap = _adjoint(cap)
    cap = cap + tf.matmul(v, linv_u, adjoint_a=True)
    return linv_rhs - tf.matmul(linv_u, tf.linalg.solve(cap, tf.matmul(v, linv_rhs, adjoint_a=True)))

  def _log_abs_determinant(self):
    tf = _tf()
    return (self._base_operator.log_abs_determinant() + self._d().log_abs_determinant() +
            tf.linalg.slogdet(self._capacitance())[1])

  def _determinant(self):
    tf = _tf()
    return (self._base_operator.determinant() * self._d().determinant() *
            tf.linalg.det(self._capacitance()))

  def _to_dense(self):
    tf = _tf()
    return self._base_operator.to_dense() + tf.matmul(self._u, self._d().matmul(self._v, adjoint_arg=True))


# ---------------------------------------------------------------- special matrices

class LinearOperatorPermutation(LinearOperator):
  """The permutation matrices P with P x = x[perm] (perm [..., N])."""

  def __init__(self, perm, dtype=None, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
    tf = _tf()
    if is_non_singular is False:
      raise ValueError("A Permutation operator is always non-singular.")
    if is_square is False:
      raise ValueError("A Permutation operator is always square.")
    with tf.name_scope(name, values=[perm]):
      self._perm = _tensor(perm, "perm")
      if not self._perm.dtype.is_integer:
        raise TypeError("`perm` must be integer dtype")
    super(LinearOperatorPermutation, self).__init__(
        dtype or tf.float32, [self._perm], is_non_singular, is_self_adjoint, is_positive_definite,
        True, name,
        {"perm": perm})

  @property
  def perm(self):
    return self._perm

  def _shape(self):
    s = self._perm.shape
    return s.concatenate(s[-1:]) if s.ndims is not None else s

  def _shape_tensor(self):
    tf = _tf()
    s = tf.shape(self._perm)
    return tf.concat([s, s[-1:]], 0)

  def _to_dense(self):
    tf = _tf()
    return tf.one_hot(self._perm, tf.shape(self._perm)[-1], dtype=self.dtype)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    tf = _tf()
    if adjoint_arg:
      x = _adjoint(x)
    perm = tf.argsort(self._perm, axis=-1) if adjoint else self._perm
    rank = self._perm.shape.ndims
    if rank is None:
      return tf.matmul(self.to_dense(), x, adjoint_a=adjoint)
    return tf.gather(x, perm, axis=rank - 1, batch_dims=rank - 1)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    return self._matmul(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

  def _determinant(self):
    return _tf().linalg.det(self.to_dense())

  def _log_abs_determinant(self):
    tf = _tf()
    return tf.zeros(tf.shape(self._perm)[:-1], dtype=self.dtype)


class LinearOperatorHouseholder(LinearOperator):
  """The reflection I - 2 v v^H / (v^H v) through the hyperplane normal to
  reflection_axis v [..., N]; it is its own inverse, with determinant -1."""

  def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=None, name="LinearOperatorHouseholder"):
    tf = _tf()
    if is_self_adjoint is False:
      raise ValueError("A Householder operator is always self adjoint.")
    if is_non_singular is False:
      raise ValueError("A Householder operator is always non-singular.")
    if is_positive_definite is True:
      raise ValueError("A Householder operator is always non-positive definite.")
    if is_square is False:
      raise ValueError("A Householder operator is always square.")
    with tf.name_scope(name, values=[reflection_axis]):
      self._axis = _tensor(reflection_axis, "reflection_axis")
    super(LinearOperatorHouseholder, self).__init__(
        self._axis.dtype, [self._axis], is_non_singular, True, False, True, name,
        {"reflection_axis": reflection_axis})

  @property
  def reflection_axis(self):
    return self._axis

  def _shape(self):
    s = self._axis.shape
    return s.concatenate(s[-1:]) if s.ndims is not None else s

  def _shape_tensor(self):
    tf = _tf()
    s = tf.shape(self._axis)
    return tf.concat([s, s[-1:]], 0)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    tf = _tf()
    if adjoint_arg:
      x = _adjoint(x)
    v = tf.expand_dims(self._axis, -1)
    norm2 = tf.reduce_sum(tf.conj(v) * v if v.dtype.is_complex else v * v, axis=-2, keepdims=True)
    return x - 2. * v * tf.matmul(v, x, adjoint_a=True) / norm2

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    return self._matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

  def _to_dense(self):
    tf = _tf()
    n = tf.shape(self._axis)[-1]
    return self._matmul(tf.eye(n, batch_shape=tf.shape(self._axis)[:-1], dtype=self.dtype))

  def _determinant(self):
    tf = _tf()
    return -tf.ones(tf.shape(self._axis)[:-1], dtype=self.dtype)

  def _log_abs_determinant(self):
    tf = _tf()
    return tf.zeros(tf.shape(self._axis)[:-1], dtype=self.dtype)

  def _trace(self):
    tf = _tf()
    return tf.cast(tf.shape(self._axis)[-1] - 2, self.dtype) * tf.ones(tf.shape(self._axis)[:-1],
                                                                        dtype=self.dtype)

  def inverse(self, name="inverse"):
    return self


class LinearOperatorToeplitz(LinearOperator):
  """The Toeplitz matrices with first column col and first row row ([..., N];
  row[0] is ignored: the diagonal is col[0])."""

  def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None,
               is_positive_definite=None, is_square=None, name="LinearOperatorToeplitz"):
    tf = _tf()
    with tf.name_scope(name, values=[row, col]):
      self._col = _tensor(col, "col")
      self._row = _tensor(row, "row", self._col.dtype)
    super(LinearOperatorToeplitz, self).__init__(
        self._col.dtype, [self._col, self._row], is_non_singular, is_self_adjoint,
        is_positive_definite, True if is_square is None else is_square, name, {"col": col, "row": row})

  @property
  def col(self):
    return self._col

  @property
  def row(self):
    return self._row

  def _shape(self):
    tf = _tf()
    s = tf.broadcast_static_shape(self._col.shape, self._row.shape)
    return s.concatenate(s[-1:]) if s.ndims is not None else s

  def _shape_tensor(self):
    tf = _tf()
    s = tf.broadcast_dynamic_shape(tf.shape(self._col), tf.shape(self._row))
    return tf.concat([s, s[-1:]], 0)

  def _to_dense(self):
    tf = _tf()
    n = tf.shape(self._col)[-1]
    # entry (i, j): col[i - j] when i >= j, else row[j - i]
    full = tf.concat([tf.reverse(self._row[..., 1:], [-1]), self._col], -1)  # index n-1+i-j
    i = tf.range(n)
    idx = tf.expand_dims(i, -1) - tf.expand_dims(i, 0) + n - 1
    rank = full.shape.ndims
    if rank == 1:
      return tf.gather(full, idx)
    return tf.gather(full, idx, axis=rank - 1, batch_dims=rank - 1)


class LinearOperatorTridiag(LinearOperator):
  """The tridiagonal matrices of diagonals (tf.linalg.tridiagonal_solve's
  formats: 'compact' [..., 3, N], 'sequence' or 'matrix'); matmul and solve
  run TridiagonalMatMul / TridiagonalSolve."""

  def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None,
               is_self_adjoint=None, is_positive_definite=None, is_square=None,
               name="LinearOperatorTridiag"):
    from tfc.ops import linalg_lu  # pylint: disable=g-import-not-at-top
    if diagonals_format not in ("compact", "sequence", "matrix"):
      raise ValueError("Diagonals Format must be one of compact, matrix, sequence, got : %s"
                       % diagonals_format)
    if is_square is False:
      raise ValueError("Tridiagonal operators are always square.")
    tf = _tf()
    with tf.name_scope(name):
      self._diagonals = diagonals
      self._compact = linalg_lu._compact(diagonals, diagonals_format)  # pylint: disable=protected-access
    self._diagonals_format = diagonals_format
    super(LinearOperatorTridiag, self).__init__(
        self._compact.dtype, [self._compact], is_non_singular, is_self_adjoint,
        is_positive_definite, True, name,
        {"diagonals": diagonals, "diagonals_format": diagonals_format})

  @property
  def diagonals(self):
    return self._diagonals

  @property
  def diagonals_format(self):
    return self._diagonals_format

  def _shape(self):
    s = self._compact.shape
    if s.ndims is None:
      return s
    return s[:-2].concatenate([s[-1], s[-1]])

  def _shape_tensor(self):
    tf = _tf()
    s = tf.shape(self._compact)
    return tf.concat([s[:-2], s[-1:], s[-1:]], 0)

  def _transposed_compact(self):
    """The compact diagonals of the transpose: super and sub swap, shifted."""
    tf = _tf()
    sup, main, sub = self._compact[..., 0, :], self._compact[..., 1, :], self._compact[..., 2, :]
    zero = tf.zeros_like(main[..., :1])
    new_sup = tf.concat([sub[..., 1:], zero], -1)
    new_sub = tf.concat([zero, sup[..., :-1]], -1)
    return tf.stack([new_sup, main, new_sub], -2)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    tf = _tf()
    if adjoint_arg:
      x = _adjoint(x)
    return tf.linalg.tridiagonal_matmul(self._transposed_compact() if adjoint else self._compact, x)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    tf = _tf()
    return tf.linalg.tridiagonal_solve(self._transposed_compact() if adjoint else self._compact, rhs,
                                       transpose_rhs=adjoint_arg)

  def _diag_part(self):
    return self._compact[..., 1, :]

  def _to_dense(self):
    tf = _tf()
    s = tf.shape(self._compact)
    return tf.linalg.tridiagonal_matmul(self._compact, tf.eye(s[-1], batch_shape=s[:-2], dtype=self.dtype))


class LinearOperatorBlockLowerTriangular(LinearOperator):
  """The block lower triangular matrix of operators[i][j] (j <= i; row i
  holds i + 1 operators, the diagonal ones square): matmul by block rows,
  solve by block forward substitution, determinant from the diagonal blocks."""

  def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
               is_square=None, name="LinearOperatorBlockLowerTriangular"):
    rows = [list(r) for r in operators]
    if not rows:
      raise ValueError("Expected a non-empty list of operators. Found: %s" % operators)
    for i, row in enumerate(rows):
      if len(row) != i + 1:
        raise ValueError("Argument `operators[%d]` must contain `%d` blocks. Found: %d" % (i, i + 1, len(row)))
    dtype = rows[0][0].dtype
    for row in rows:
      for op in row:
        if op.dtype != dtype:
          raise TypeError("Expected all operators to have the same dtype.  Found %s" % op.dtype)
    diag = [row[-1] for row in rows]
    for op in diag:
      if op.is_square is False:
        raise ValueError("Diagonal operators must be square.")
    if all(op.is_non_singular for op in diag):
      is_non_singular = True if is_non_singular is None else is_non_singular
    self._rows = rows
    super(LinearOperatorBlockLowerTriangular, self).__init__(
        dtype, [p for row in rows for op in row for p in op.graph_parents], is_non_singular,
        is_self_adjoint, is_positive_definite, True, name, {"operators": operators})

  @property
  def operators(self):
    return [list(r) for r in self._rows]

  def _diag(self):
    return [row[-1] for row in self._rows]

  def _shape(self):
    tf = _tf()
    shapes = [op.shape for op in self._diag()]
    if any(s.ndims is None for s in shapes):
      return tf.TensorShape(None)
    batch = shapes[0][:-2]
    for row in self._rows:
      for op in row:
        if op.shape.ndims is None:
          return tf.TensorShape(None)
        batch = tf.broadcast_static_shape(batch, op.shape[:-2])
    dims = [s[-1].value for s in shapes]
    n = None if any(d is None for d in dims) else sum(dims)
    return batch.concatenate([n, n])

  def _shape_tensor(self):
    tf = _tf()
    batch = self._diag()[0].batch_shape_tensor()
    n = None
    for row in self._rows:
      for op in row:
        batch = tf.broadcast_dynamic_shape(batch, op.batch_shape_tensor())
    for op in self._diag():
      d = op.domain_dimension_tensor()
      n = d if n is None else n + d
    return tf.concat([batch, tf.stack([n, n])], 0)

  def _split(self, x):
    tf = _tf()
    return tf.split(x, tf.stack([op.domain_dimension_tensor() for op in self._diag()]), axis=-2)

  def _matmul(self, x, adjoint=False, adjoint_arg=False):
    tf = _tf()
    if adjoint_arg:
      x = _adjoint(x)
    parts = self._split(x)
    k = len(self._rows)
    out = []
    for i in range(k):
      acc = None
      # A[i][j] for j <= i; the adjoint's block (i, j) is A[j][i]^H for j >= i
      pairs = ([(self._rows[i][j], parts[j]) for j in range(i + 1)] if not adjoint else
               [(self._rows[j][i], parts[j]) for j in range(i, k)])
      for op, p in pairs:
        y = op.matmul(p, adjoint=adjoint)
        acc = y if acc is None else acc + y
      out.append(acc)
    return tf.concat(out, -2)

  def _solve(self, rhs, adjoint=False, adjoint_arg=False):
    tf = _tf()
    if adjoint_arg:
      rhs = _adjoint(rhs)
    parts = self._split(rhs)
    k = len(self._rows)
    sol = [None] * k
    order = range(k) if not adjoint else range(k - 1, -1, -1)
    for i in order:
      r = parts[i]
      others = (range(i) if not adjoint else range(i + 1, k))
      for j in others:
        op = self._rows[i][j] if not adjoint else self._rows[j][i]
        r = r - op.matmul(sol[j], adjoint=adjoint)
      sol[i] = self._rows[i][i].solve(r, adjoint=adjoint)
    return tf.concat(sol, -2)

  def _determinant(self):
    result = None
    for op in self._diag():
      d = op.determinant()
      result = d if result is None else result * d
    return result

  def _log_abs_determinant(self):
    result = None
    for op in self._diag():
      d = op.log_abs_determinant()
      result = d if result is None else result + d
    return result

  def _diag_part(self):
    return _tf().concat([op.diag_part() for op in self._diag()], -1)

  def _to_dense(self):
    tf = _tf()
    k = len(self._rows)
    dims = [op.domain_dimension_tensor() for op in self._diag()]
    rows = []
    for i in range(k):
      blocks = [self._rows[i][j].to_dense() for j in range(i + 1)]
      if i + 1 < k:
        rest = dims[i + 1]
        for d in dims[i + 2:]:
          rest = rest + d
        b = blocks[0]
        shape = tf.concat([tf.shape(b)[:-2], tf.stack([tf.shape(blocks[-1])[-2], rest])], 0)
        blocks.append(tf.zeros(shape, dtype=self.dtype))
      rows.append(tf.concat(blocks, -1))
    return tf.concat(rows, -2)
