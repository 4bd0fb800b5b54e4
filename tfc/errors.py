"""Exception types for TensorFlow errors (TF 1.15 `tf.errors`).

`tfc._tfc` raises these (registered through `_tfc.set_error_classes`) as
`cls(None, op, message)` when a run fails.
"""

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
  """A generic error that is raised when TensorFlow execution fails."""

  def __init__(self, node_def, op, message, error_code=UNKNOWN):
    super(OpError, self).__init__()
    self._node_def = node_def
    self._op = op
    self._message = message
    self._error_code = error_code

  def __reduce__(self):
    init_argspec = (self._node_def, self._op, self._message)
    if type(self) is OpError:
      init_argspec = init_argspec + (self._error_code,)
    return self.__class__, init_argspec

  @property
  def message(self):
    return self._message

  @property
  def op(self):
    return self._op

  @property
  def error_code(self):
    return self._error_code

  @property
  def node_def(self):
    return self._node_def

  def __str__(self):
    return self._message


def _make(name, code, doc):
  def __init__(self, node_def, op, message, *args):
    OpError.__init__(self, node_def, op, message, code)
  cls = type(name, (OpError,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})
  return cls


CancelledError = _make("CancelledError", CANCELLED, "Raised when an operation or step is cancelled.")
UnknownError = _make("UnknownError", UNKNOWN, "Unknown error.")
InvalidArgumentError = _make("InvalidArgumentError", INVALID_ARGUMENT,
                             "Raised when an operation receives an invalid argument.")
DeadlineExceededError = _make("DeadlineExceededError", DEADLINE_EXCEEDED,
                              "Raised when a deadline expires before an operation could complete.")
NotFoundError = _make("NotFoundError", NOT_FOUND,
                      "Raised when a requested entity (e.g., a file or directory) was not found.")
AlreadyExistsError = _make("AlreadyExistsError", ALREADY_EXISTS,
                           "Raised when an entity that we attempted to create already exists.")
PermissionDeniedError = _make("PermissionDeniedError", PERMISSION_DENIED,
                              "Raised when the caller does not have permission to run an operation.")
UnauthenticatedError = _make("UnauthenticatedError", UNAUTHENTICATED,
                             "The request does not have valid authentication credentials.")
ResourceExhaustedError = _make("ResourceExhaustedError", RESOURCE_EXHAUSTED,
                               "Some resource has been exhausted.")
FailedPreconditionError = _make("FailedPreconditionError", FAILED_PRECONDITION,
                                "Operation was rejected because the system is not in a state to "
                                "execute it.")
AbortedError = _make("AbortedError", ABORTED, "The operation was aborted, typically due to a "
                     "concurrent action.")
OutOfRangeError = _make("OutOfRangeError", OUT_OF_RANGE,
                        "Raised when an operation iterates past the valid input range.")
UnimplementedError = _make("UnimplementedError", UNIMPLEMENTED,
                           "Raised when an operation has not been implemented.")
InternalError = _make("InternalError", INTERNAL,
                      "Raised when the system experiences an internal error.")
UnavailableError = _make("UnavailableError", UNAVAILABLE,
                         "Raised when the runtime is currently unavailable.")
DataLossError = _make("DataLossError", DATA_LOSS, "Raised when unrecoverable data loss or "
                      "corruption is encountered.")

_CODE_TO_EXCEPTION_CLASS = {
    CANCELLED: CancelledError,
    UNKNOWN: UnknownError,
    INVALID_ARGUMENT: InvalidArgumentError,
    DEADLINE_EXCEEDED: DeadlineExceededError,
    NOT_FOUND: NotFoundError,
    ALREADY_EXISTS: AlreadyExistsError,
    PERMISSION_DENIED: PermissionDeniedError,
    UNAUTHENTICATED: UnauthenticatedError,
    RESOURCE_EXHAUSTED: ResourceExhaustedError,
    FAILED_PRECONDITION: FailedPreconditionError,
    ABORTED: AbortedError,
    OUT_OF_RANGE: OutOfRangeError,
    UNIMPLEMENTED: UnimplementedError,
    INTERNAL: InternalError,
    UNAVAILABLE: UnavailableError,
    DATA_LOSS: DataLossError,
}

_EXCEPTION_CLASS_TO_CODE = {v: k for k, v in _CODE_TO_EXCEPTION_CLASS.items()}


def exception_type_from_error_code(error_code):
  return _CODE_TO_EXCEPTION_CLASS[error_code]


def error_code_from_exception_type(cls):
  try:
    return _EXCEPTION_CLASS_TO_CODE[cls]
  except KeyError:
    return UNKNOWN


def _make_specific_exception(node_def, op, message, error_code):
  try:
    exc_type = exception_type_from_error_code(error_code)
    return exc_type(node_def, op, message)
  except KeyError:
    return UnknownError(node_def, op, message, error_code)


error_code_to_exception_type = exception_type_from_error_code
