"""Nested structures of values (the parts of TF 1.15's `nest` that control
flow needs): lists, tuples, namedtuples and dicts (sorted by key) are
sequences; everything else is a leaf."""
import collections.abc as _abc


def is_sequence(x):
  """True for lists, tuples (named too) and mappings."""
  return isinstance(x, (list, tuple, _abc.Mapping))


def _children(x):
  if isinstance(x, _abc.Mapping):
    return [x[k] for k in sorted(x)]
  return list(x)


def flatten(structure):
  """The leaves of `structure`, depth first (a leaf gives [leaf])."""
  if not is_sequence(structure):
    return [structure]
  out = []
  for c in _children(structure):
    out.extend(flatten(c))
  return out


def _rebuild(template, items):
  if isinstance(template, _abc.Mapping):
    return type(template)((k, v) for k, v in zip(sorted(template), items))
  if isinstance(template, tuple) and hasattr(template, "_fields"):
    return type(template)(*items)
  if isinstance(template, tuple):
    return tuple(items)
  return list(items)


def _pack(structure, flat, pos):
  if not is_sequence(structure):
    return flat[pos], pos + 1
  items = []
  for c in _children(structure):
    v, pos = _pack(c, flat, pos)
    items.append(v)
  return _rebuild(structure, items), pos


def pack_sequence_as(structure, flat_sequence):
  """`flat_sequence` arranged like `structure`; ValueError on a count mismatch."""
  flat_sequence = list(flat_sequence)
  n = len(flatten(structure))
  if n != len(flat_sequence):
    raise ValueError("Could not pack sequence. Structure had %d elements, but flat_sequence had "
                     "%d elements.  Structure: %s, flat_sequence: %s."
                     % (n, len(flat_sequence), structure, flat_sequence))
  if not is_sequence(structure):
    return flat_sequence[0]
  return _pack(structure, flat_sequence, 0)[0]


def map_structure(fn, *structures):
  """fn applied leafwise over structures of the same shape."""
  for s in structures[1:]:
    assert_same_structure(structures[0], s)
  flats = [flatten(s) for s in structures]
  return pack_sequence_as(structures[0], [fn(*xs) for xs in zip(*flats)])


def _kind(x):
  if isinstance(x, _abc.Mapping):
    return "dict"
  if isinstance(x, tuple) and hasattr(x, "_fields"):
    return type(x).__name__
  return "sequence"


def assert_same_structure(nest1, nest2, check_types=True):
  """ValueError when the nesting or the number of elements differ, TypeError
  when sequence types differ (check_types)."""
  s1, s2 = is_sequence(nest1), is_sequence(nest2)
  if s1 != s2:
    raise ValueError("The two structures don't have the same nested structure.\n\n"
                     "First structure: %s\n\nSecond structure: %s" % (nest1, nest2))
  if not s1:
    return
  if check_types and _kind(nest1) != _kind(nest2):
    raise TypeError("The two structures don't have the same sequence type. First structure "
                    "has type %s, while second structure has type %s."
                    % (type(nest1), type(nest2)))
  if isinstance(nest1, _abc.Mapping) and sorted(nest1) != sorted(nest2):
    raise ValueError("The two dictionaries don't have the same set of keys. First structure "
                     "has keys %s, while second structure has keys %s."
                     % (sorted(nest1), sorted(nest2)))
  c1, c2 = _children(nest1), _children(nest2)
  if len(c1) != len(c2):
    raise ValueError("The two structures don't have the same number of elements.\n\n"
                     "First structure (%d elements): %s\n\nSecond structure (%d elements): %s"
                     % (len(flatten(nest1)), nest1, len(flatten(nest2)), nest2))
  for a, b in zip(c1, c2):
    assert_same_structure(a, b, check_types)
