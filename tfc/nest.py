"""tf.nest: nested structures of lists, tuples, namedtuples and dicts (TF's rules: dict
entries in sorted key order; everything else is a leaf)."""


def is_nested(seq):
  """True for a list, tuple (namedtuples included) or dict."""
  return isinstance(seq, (list, tuple, dict))


is_sequence = is_nested


def _children(seq):
  if isinstance(seq, dict):
    return [seq[k] for k in sorted(seq)]
  return list(seq)


def flatten(structure, expand_composites=False):
  """The leaves of `structure`, depth first (a leaf alone gives [leaf])."""
  del expand_composites  # tfc has no composite tensors
  if not is_nested(structure):
    return [structure]
  flat = []
  for child in _children(structure):
    flat.extend(flatten(child))
  return flat


def _rebuild(structure, children):
  """A container like `structure` holding `children` (in structure's child order)."""
  if isinstance(structure, dict):
    keys = sorted(structure)
    return type(structure)((k, c) for k, c in zip(keys, children))
  if isinstance(structure, tuple) and hasattr(structure, "_fields"):
    return type(structure)(*children)
  return type(structure)(children)


def _pack(structure, flat, index):
  if not is_nested(structure):
    return flat[index], index + 1
  children = []
  for child in _children(structure):
    packed, index = _pack(child, flat, index)
    children.append(packed)
  return _rebuild(structure, children), index


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
  """`flat_sequence` arranged like `structure` (ValueError when the counts differ)."""
  del expand_composites
  flat_sequence = list(flat_sequence)
  expected = len(flatten(structure))
  if expected != len(flat_sequence):
    raise ValueError("Could not pack sequence. Structure had %d elements, but flat_sequence "
                     "had %d elements." % (expected, len(flat_sequence)))
  return _pack(structure, flat_sequence, 0)[0]


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
  """ValueError unless nest1 and nest2 nest alike (TypeError when check_types and the
  container types differ)."""
  del expand_composites
  if is_nested(nest1) != is_nested(nest2):
    raise ValueError("The two structures don't have the same nested structure.\n\n"
                     "First structure: %s\n\nSecond structure: %s" % (nest1, nest2))
  if not is_nested(nest1):
    return
  if check_types and type(nest1) is not type(nest2):
    raise TypeError("The two structures don't have the same sequence type. First structure "
                    "has type %s, while second structure has type %s."
                    % (type(nest1), type(nest2)))
  if isinstance(nest1, dict) and sorted(nest1) != sorted(nest2):
    raise ValueError("The two dictionaries don't have the same set of keys. First structure "
                     "has keys %s, while second structure has keys %s."
                     % (sorted(nest1), sorted(nest2)))
  c1, c2 = _children(nest1), _children(nest2)
  if len(c1) != len(c2):
    raise ValueError("The two structures don't have the same number of elements.\n\n"
                     "First structure: %s\n\nSecond structure: %s" % (nest1, nest2))
  for a, b in zip(c1, c2):
    assert_same_structure(a, b, check_types)


def map_structure(func, *structure, **kwargs):
  """func applied to the corresponding leaves of every structure, arranged like the first."""
  if not structure:
    raise ValueError("Must provide at least one structure")
  check_types = kwargs.pop("check_types", True)
  kwargs.pop("expand_composites", None)
  if kwargs:
    raise ValueError("Only valid keyword arguments are `check_types` and "
                     "`expand_composites`, got %s" % sorted(kwargs))
  for other in structure[1:]:
    assert_same_structure(structure[0], other, check_types=check_types)
  flats = [flatten(s) for s in structure]
  return pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*flats)])
