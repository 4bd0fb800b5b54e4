"""Protocol-buffer text format for tfc's pure-Python messages (tfc.protos):
MessageToString, Merge, Parse (google.protobuf.text_format's names)."""
import re as _re

from tfc import protos as _protos

ParseError = _protos.DecodeError

_TOKEN = _re.compile(r"""
    (?P<ws>(?:\s+|\#[^\n]*)+)
  | (?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<num>[-+]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[fF]?|inf(?:inity)?|nan))
  | (?P<ident>[A-Za-z_][A-Za-z0-9_.]*)
  | (?P<sym>[{}<>:\[\],;-])
""", _re.VERBOSE)

_ESCAPES = {"n": 10, "r": 13, "t": 9, "\"": 34, "'": 39, "\\": 92, "a": 7, "b": 8, "f": 12,
            "v": 11, "?": 63}


def _unescape(body):
  out = bytearray()
  i = 0
  raw = body.encode("utf-8")
  while i < len(raw):
    c = raw[i]
    if c != 92:
      out.append(c)
      i += 1
      continue
    i += 1
    if i >= len(raw):
      raise ParseError("bad escape at end of string")
    e = chr(raw[i])
    if e in "01234567":
      j = i
      while j < len(raw) and j < i + 3 and chr(raw[j]) in "01234567":
        j += 1
      out.append(int(raw[i:j], 8) & 0xFF)
      i = j
    elif e == "x":
      j = i + 1
      while j < len(raw) and j < i + 3 and chr(raw[j]) in "0123456789abcdefABCDEF":
        j += 1
      out.append(int(raw[i + 1:j], 16))
      i = j
    elif e in _ESCAPES:
      out.append(_ESCAPES[e])
      i += 1
    else:
      raise ParseError("invalid escape \\%s" % e)
  return bytes(out)


class _Tokens(object):
  def __init__(self, text):
    self.toks = []
    pos = 0
    while pos < len(text):
      m = _TOKEN.match(text, pos)
      if not m:
        raise ParseError("unexpected character %r at offset %d" % (text[pos], pos))
      pos = m.end()
      if m.lastgroup != "ws":
        self.toks.append((m.lastgroup, m.group(m.lastgroup)))
    self.i = 0

  def peek(self):
    return self.toks[self.i] if self.i < len(self.toks) else (None, None)

  def next(self):
    t = self.peek()
    if t[0] is None:
      raise ParseError("unexpected end of input")
    self.i += 1
    return t

  def accept(self, sym):
    if self.peek() == ("sym", sym):
      self.i += 1
      return True
    return False

  def expect(self, sym):
    if not self.accept(sym):
      raise ParseError("expected %r, got %r" % (sym, self.peek()[1]))


def _scalar(tokens, f):
  kind, text = tokens.next()
  if kind == "sym" and text == "-":
    kind, text = tokens.next()
    text = "-" + text
  if f.kind in ("string", "bytes"):
    if kind != "str":
      raise ParseError("expected a string for field %s, got %r" % (f.name, text))
    data = _unescape(text[1:-1])
    while tokens.peek()[0] == "str":
      data += _unescape(tokens.next()[1][1:-1])
    return data.decode("utf-8") if f.kind == "string" else data
  if f.kind == "bool":
    if text in ("true", "True", "t", "1"):
      return True
    if text in ("false", "False", "f", "0"):
      return False
    raise ParseError("expected a bool for field %s, got %r" % (f.name, text))
  if f.kind == "enum":
    if kind == "ident":
      if text not in f.enum:
        raise ParseError("enum field %s has no value named %s" % (f.name, text))
      return f.enum[text]
    return int(text, 0)
  if f.kind in ("float", "double"):
    t = text.lower().rstrip("f") if not text.lower().endswith("inf") else text.lower()
    t = t.replace("infinity", "inf")
    try:
      return float(t)
    except ValueError:
      raise ParseError("expected a number for field %s, got %r" % (f.name, text)) from None
  try:
    return int(text, 0)
  except ValueError:
    raise ParseError("expected an integer for field %s, got %r" % (f.name, text)) from None


def _parse_message(tokens, msg, end):
  cls = type(msg)
  while True:
    if end is None and tokens.peek()[0] is None:
      return
    if end is not None and tokens.accept(end):
      return
    kind, name = tokens.next()
    if kind != "ident":
      raise ParseError("expected a field name, got %r" % name)
    f = cls._by_name.get(name)
    if f is None:
      raise ParseError("message type \"%s\" has no field named \"%s\"." % (cls.__name__, name))
    if f.label == "map":
      tokens.accept(":")
      close = "}" if tokens.accept("{") else (tokens.expect("<") or ">")
      key, value = None, None
      key_field = _protos._Field("key", 1, f.key_kind)
      sub = _protos._resolve(f.msg)() if f.kind == "message" else None
      while not tokens.accept(close):
        _, fname = tokens.next()
        if fname == "key":
          tokens.expect(":")
          key = _scalar(tokens, key_field)
        elif fname == "value":
          if sub is not None:
            tokens.accept(":")
            vclose = "}" if tokens.accept("{") else (tokens.expect("<") or ">")
            _parse_message(tokens, sub, vclose)
          else:
            tokens.expect(":")
            value = _scalar(tokens, f)
        else:
          raise ParseError("map entry has no field %r" % fname)
        tokens.accept(",") or tokens.accept(";")
      if key is None:
        key = key_field.default
      mp = getattr(msg, f.name)
      if sub is not None:
        mp[key].CopyFrom(sub)
      else:
        mp[key] = value if value is not None else f.default
    elif f.kind == "message":
      tokens.accept(":")
      items = []
      if tokens.accept("["):
        while not tokens.accept("]"):
          items.append(_sub_message(tokens, f))
          tokens.accept(",")
      else:
        items.append(_sub_message(tokens, f))
      for sub in items:
        if f.label == "repeated":
          getattr(msg, f.name).append(sub)
        else:
          target = getattr(msg, f.name)
          target.MergeFrom(sub)
          target.SetInParent()
    else:
      tokens.expect(":")
      if f.label == "repeated" and tokens.accept("["):
        while not tokens.accept("]"):
          getattr(msg, f.name).append(_scalar(tokens, f))
          tokens.accept(",")
      elif f.label == "repeated":
        getattr(msg, f.name).append(_scalar(tokens, f))
      else:
        setattr(msg, f.name, _scalar(tokens, f))
    tokens.accept(",") or tokens.accept(";")


def _sub_message(tokens, f):
  close = "}" if tokens.accept("{") else (tokens.expect("<") or ">")
  sub = _protos._resolve(f.msg)()
  sub.SetInParent()
  _parse_message(tokens, sub, close)
  return sub


def Merge(text, message, allow_unknown_extension=False, allow_field_number=False,  # noqa: N802
          descriptor_pool=None, allow_unknown_field=False):
  """Merges the text-format `text` into message; returns message. ParseError on bad text."""
  if isinstance(text, bytes):
    text = text.decode("utf-8")
  if not isinstance(text, str):
    text = "\n".join(text)
  _parse_message(_Tokens(text), message, None)
  return message


def Parse(text, message, allow_unknown_extension=False, allow_field_number=False,  # noqa: N802
          descriptor_pool=None, allow_unknown_field=False):
  """Clears message, then Merge."""
  message.Clear()
  return Merge(text, message)


def MessageToString(message, as_utf8=False, as_one_line=False, **unused):  # noqa: N802
  s = str(message)
  if as_one_line:
    s = " ".join(line.strip() for line in s.splitlines())
  return s
