/*
 * op_spec_parse.c — turns one tfc_op_spec (TF's REGISTER_OP notation) into a
 * tfc_op_def: attrs first (so arguments can refer to them), then input and
 * output arguments. The grammar is documented in core/op_registry.h.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "core/op_registry.h"

/* A borrowed slice of the spec text. */
typedef struct span {
  const char *p;
  size_t n;
} span;

/* Parsing state: the op being built and where errors go. */
typedef struct parser {
  const tfc_op_spec *spec;
  tfc_op_def *def;
  tfc_status *st;
} parser;

/* Sets INVALID_ARGUMENT "Op '<name>': <reason>" and returns false. */
static bool perr(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool perr(parser *ps, const char *fmt, ...) {
  char reason[TFC_STATUS_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  return tfc_status_set(ps->st, TFC_CODE_INVALID_ARGUMENT, "Op '%s': %s",
                        ps->spec->name ? ps->spec->name : "(null)", reason);
}

/* Sets RESOURCE_EXHAUSTED for the op being parsed and returns false. */
static bool poom(parser *ps) {
  return tfc_status_set(ps->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory parsing op '%s'",
                        ps->spec->name ? ps->spec->name : "(null)");
}

/* Strips leading and trailing white space from s. */
static span trim(span s) {
  while (s.n > 0 && isspace((unsigned char)s.p[0])) s.p++, s.n--;
  while (s.n > 0 && isspace((unsigned char)s.p[s.n - 1])) s.n--;
  return s;
}

/* True when s equals the NUL-terminated word w. */
static bool span_is(span s, const char *w) {
  size_t n = strlen(w);
  return s.n == n && memcmp(s.p, w, n) == 0;
}

/* True when s starts with the NUL-terminated prefix w. */
static bool span_starts(span s, const char *w) {
  size_t n = strlen(w);
  return s.n >= n && memcmp(s.p, w, n) == 0;
}

/* True when s is a C identifier ([A-Za-z_][A-Za-z0-9_]*). */
static bool span_is_ident(span s) {
  if (s.n == 0 || !(isalpha((unsigned char)s.p[0]) || s.p[0] == '_')) return false;
  for (size_t i = 1; i < s.n; i++)
    if (!(isalnum((unsigned char)s.p[i]) || s.p[i] == '_')) return false;
  return true;
}

/* Splits s at top-level occurrences of sep (outside quotes, (), [] and {}).
 * Calls fn(ps, piece, ctx) for every non-empty trimmed piece; stops at the
 * first false. Unbalanced brackets or quotes fail with INVALID_ARGUMENT. */
static bool split_top(parser *ps, span s, char sep, bool (*fn)(parser *, span, void *), void *ctx) {
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i <= s.n; i++) {
    char c = i < s.n ? s.p[i] : sep;
    if (i < s.n && quote) {
      if (c == '\\' && i + 1 < s.n) i++;
      else if (c == quote) quote = 0;
      continue;
    }
    if (i < s.n && (c == '\'' || c == '"')) {
      quote = c;
      continue;
    }
    if (i < s.n && (c == '(' || c == '[' || c == '{')) depth++;
    else if (i < s.n && (c == ')' || c == ']' || c == '}')) {
      if (--depth < 0) return perr(ps, "unbalanced '%c' in '%.*s'", c, (int)s.n, s.p);
    } else if (c == sep && depth == 0) {
      span piece = trim((span){s.p + start, i - start});
      start = i + 1;
      if (piece.n > 0 && !fn(ps, piece, ctx)) return false;
    }
  }
  if (quote) return perr(ps, "unterminated quote in '%.*s'", (int)s.n, s.p);
  if (depth != 0) return perr(ps, "unbalanced brackets in '%.*s'", (int)s.n, s.p);
  return true;
}

/* ------------------------------------------------------------------ type sets */

static const tfc_dtype k_number_types[] = {
    TFC_DTYPE_FLOAT,  TFC_DTYPE_DOUBLE,   TFC_DTYPE_INT32,     TFC_DTYPE_UINT8,
    TFC_DTYPE_INT16,  TFC_DTYPE_INT8,     TFC_DTYPE_COMPLEX64, TFC_DTYPE_INT64,
    TFC_DTYPE_QINT8,  TFC_DTYPE_QUINT8,   TFC_DTYPE_QINT32,    TFC_DTYPE_BFLOAT16,
    TFC_DTYPE_QINT16, TFC_DTYPE_QUINT16,  TFC_DTYPE_UINT16,    TFC_DTYPE_COMPLEX128,
    TFC_DTYPE_HALF,   TFC_DTYPE_UINT32,   TFC_DTYPE_UINT64};
static const tfc_dtype k_real_number_types[] = {
    TFC_DTYPE_FLOAT,    TFC_DTYPE_DOUBLE, TFC_DTYPE_INT32, TFC_DTYPE_UINT8,
    TFC_DTYPE_INT16,    TFC_DTYPE_INT8,   TFC_DTYPE_INT64, TFC_DTYPE_BFLOAT16,
    TFC_DTYPE_UINT16,   TFC_DTYPE_HALF,   TFC_DTYPE_UINT32, TFC_DTYPE_UINT64};
static const tfc_dtype k_quantized_types[] = {TFC_DTYPE_QINT8, TFC_DTYPE_QUINT8, TFC_DTYPE_QINT32,
                                              TFC_DTYPE_QINT16, TFC_DTYPE_QUINT16};

/* Parses a dtype name as written in specs ("float", "int32", "half", ...);
 * TFC_DTYPE_INVALID when s is not one. */
static tfc_dtype parse_dtype(span s) {
  if (s.n == 0) return TFC_DTYPE_INVALID;
  return tfc_dtype_from_name(s.p, s.n);
}

/* Appends t to the attr's allowed-type set unless already present. */
static bool add_allowed_type(parser *ps, tfc_attr_def *a, tfc_dtype t) {
  for (int i = 0; i < a->n_allowed_types; i++)
    if (a->allowed_types[i] == t) return true;
  tfc_dtype *v = tfc_realloc(a->allowed_types, sizeof *v * (size_t)(a->n_allowed_types + 1));
  if (!v) return poom(ps);
  v[a->n_allowed_types++] = t;
  a->allowed_types = v;
  return true;
}

/* Adds every type of a shorthand set (numbertype, ...). */
static bool add_allowed_set(parser *ps, tfc_attr_def *a, const tfc_dtype *set, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!add_allowed_type(ps, a, set[i])) return false;
  return true;
}

/* If s names a shorthand type set, adds it and sets *matched. */
static bool try_shorthand(parser *ps, tfc_attr_def *a, span s, bool *matched) {
  *matched = true;
  if (span_is(s, "numbertype"))
    return add_allowed_set(ps, a, k_number_types, sizeof k_number_types / sizeof k_number_types[0]);
  if (span_is(s, "realnumbertype"))
    return add_allowed_set(ps, a, k_real_number_types,
                           sizeof k_real_number_types / sizeof k_real_number_types[0]);
  if (span_is(s, "quantizedtype"))
    return add_allowed_set(ps, a, k_quantized_types,
                           sizeof k_quantized_types / sizeof k_quantized_types[0]);
  *matched = false;
  return true;
}

/* Decodes a quoted string literal ('...' or "...") with \\, \', \", \n, \t
 * escapes into a fresh heap string; *len receives its length. */
static char *parse_quoted(parser *ps, span s, size_t *len) {
  s = trim(s);
  if (s.n < 2 || (s.p[0] != '\'' && s.p[0] != '"') || s.p[s.n - 1] != s.p[0]) {
    perr(ps, "expected a quoted string, got '%.*s'", (int)s.n, s.p);
    return NULL;
  }
  char *out = tfc_malloc(s.n);
  if (!out) {
    poom(ps);
    return NULL;
  }
  size_t k = 0;
  for (size_t i = 1; i + 1 < s.n; i++) {
    char c = s.p[i];
    if (c == '\\' && i + 2 < s.n) {
      c = s.p[++i];
      if (c == 'n') c = '\n';
      else if (c == 't') c = '\t';
    }
    out[k++] = c;
  }
  out[k] = '\0';
  *len = k;
  return out;
}

/* One element of a type set: a dtype, a shorthand, or a quoted string. */
static bool set_elem(parser *ps, span e, void *ctx) {
  tfc_attr_def *a = ctx;
  bool is_str = e.p[0] == '\'' || e.p[0] == '"';
  bool want_str = strcmp(a->type, "string") == 0;
  if (is_str != want_str)
    return perr(ps, "attr '%s': mixed strings and types in allowed set", a->name);
  if (is_str) {
    size_t len;
    char *v = parse_quoted(ps, e, &len);
    if (!v) return false;
    char **arr = tfc_realloc(a->allowed_strings, sizeof *arr * (size_t)(a->n_allowed_strings + 1));
    if (!arr) {
      tfc_free(v);
      return poom(ps);
    }
    arr[a->n_allowed_strings++] = v;
    a->allowed_strings = arr;
    return true;
  }
  bool matched;
  if (!try_shorthand(ps, a, e, &matched)) return false;
  if (matched) return true;
  tfc_dtype t = parse_dtype(e);
  if (t == TFC_DTYPE_INVALID)
    return perr(ps, "attr '%s': unknown type '%.*s' in allowed set", a->name, (int)e.n, e.p);
  return add_allowed_type(ps, a, t);
}

/* ------------------------------------------------------------------ defaults */

/* Parses a whole-span int64 literal. */
static bool parse_int(span s, int64_t *out) {
  char buf[64];
  s = trim(s);
  if (s.n == 0 || s.n >= sizeof buf) return false;
  memcpy(buf, s.p, s.n);
  buf[s.n] = '\0';
  char *end;
  errno = 0;
  long long v = strtoll(buf, &end, 0);
  if (errno || *end) return false;
  *out = v;
  return true;
}

/* Parses a whole-span float literal (also inf, -inf, nan). */
static bool parse_float(span s, float *out) {
  char buf[64];
  s = trim(s);
  if (s.n == 0 || s.n >= sizeof buf) return false;
  memcpy(buf, s.p, s.n);
  buf[s.n] = '\0';
  char *end;
  double v = strtod(buf, &end);
  if (*end) return false;
  *out = (float)v;
  return true;
}

/* Parses "true"/"false". */
static bool parse_bool(span s, bool *out) {
  s = trim(s);
  if (span_is(s, "true")) return *out = true, true;
  if (span_is(s, "false")) return *out = false, true;
  return false;
}

/* Collects the dims of a shape literal "[2, -1, ?]". */
typedef struct shape_acc {
  tfc_shape *shape;
  bool bad;
} shape_acc;

/* One dimension of a shape literal; '?' and -1 are unknown. */
static bool shape_dim(parser *ps, span e, void *ctx) {
  shape_acc *acc = ctx;
  int64_t v;
  if (span_is(e, "?")) v = -1;
  else if (!parse_int(e, &v) || v < -1) return perr(ps, "bad dimension '%.*s' in shape", (int)e.n, e.p);
  if (acc->shape->rank >= TFC_MAX_RANK) return perr(ps, "shape has more than %d dims", TFC_MAX_RANK);
  acc->shape->dims[acc->shape->rank++] = v;
  return true;
}

/* Parses "<unknown>", "?" (unknown rank) or "[d0, d1, ...]" ("[]" is a scalar). */
static bool parse_shape(parser *ps, span s, tfc_shape *out) {
  s = trim(s);
  if (span_is(s, "<unknown>") || span_is(s, "?")) {
    *out = tfc_shape_unknown();
    return true;
  }
  if (s.n < 2 || s.p[0] != '[' || s.p[s.n - 1] != ']')
    return perr(ps, "bad shape literal '%.*s'", (int)s.n, s.p);
  *out = tfc_shape_scalar();
  shape_acc acc = {out, false};
  return split_top(ps, (span){s.p + 1, s.n - 2}, ',', shape_dim, &acc);
}

/* The element kind of a scalar attr type name ("int" -> I); NONE if unknown. */
static tfc_attr_kind kind_of(const char *type, size_t n) {
  static const struct {
    const char *name;
    tfc_attr_kind kind;
  } k[] = {{"string", TFC_ATTR_S}, {"int", TFC_ATTR_I},       {"float", TFC_ATTR_F},
           {"bool", TFC_ATTR_B},   {"type", TFC_ATTR_TYPE},   {"shape", TFC_ATTR_SHAPE},
           {"tensor", TFC_ATTR_TENSOR}, {"func", TFC_ATTR_FUNC}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if (strlen(k[i].name) == n && memcmp(k[i].name, type, n) == 0) return k[i].kind;
  return TFC_ATTR_NONE;
}

/* Parses one scalar value of kind `kind` from s into *v (v->kind set). */
static bool parse_scalar_value(parser *ps, const tfc_attr_def *a, tfc_attr_kind kind, span s,
                               tfc_attr_value *v) {
  s = trim(s);
  memset(v, 0, sizeof *v);
  switch (kind) {
    case TFC_ATTR_I:
      if (!parse_int(s, &v->v.i)) return perr(ps, "attr '%s': bad int '%.*s'", a->name, (int)s.n, s.p);
      v->kind = TFC_ATTR_I;
      return true;
    case TFC_ATTR_F:
      if (!parse_float(s, &v->v.f))
        return perr(ps, "attr '%s': bad float '%.*s'", a->name, (int)s.n, s.p);
      v->kind = TFC_ATTR_F;
      return true;
    case TFC_ATTR_B:
      if (!parse_bool(s, &v->v.b)) return perr(ps, "attr '%s': bad bool '%.*s'", a->name, (int)s.n, s.p);
      v->kind = TFC_ATTR_B;
      return true;
    case TFC_ATTR_TYPE: {
      tfc_dtype t = parse_dtype(s);
      if (t == TFC_DTYPE_INVALID) return perr(ps, "attr '%s': bad type '%.*s'", a->name, (int)s.n, s.p);
      v->kind = TFC_ATTR_TYPE;
      v->v.type = t;
      return true;
    }
    case TFC_ATTR_SHAPE:
      if (!parse_shape(ps, s, &v->v.shape)) return false;
      v->kind = TFC_ATTR_SHAPE;
      return true;
    case TFC_ATTR_S: {
      size_t len;
      char *str = parse_quoted(ps, s, &len);
      if (!str) return false;
      v->kind = TFC_ATTR_S;
      v->v.s.data = str;
      v->v.s.len = len;
      return true;
    }
    default:
      return perr(ps, "attr '%s': defaults of type %s are not supported", a->name, a->type);
  }
}

/* Collects the elements of a list default. */
typedef struct list_acc {
  const tfc_attr_def *a;
  tfc_attr_kind kind;
  int n, cap;
  tfc_attr_value *items;
} list_acc;

/* One element of a list default. */
static bool list_elem(parser *ps, span e, void *ctx) {
  list_acc *acc = ctx;
  if (acc->n == acc->cap) {
    int cap = acc->cap ? acc->cap * 2 : 8;
    tfc_attr_value *items = tfc_realloc(acc->items, sizeof *items * (size_t)cap);
    if (!items) return poom(ps);
    acc->items = items;
    acc->cap = cap;
  }
  if (!parse_scalar_value(ps, acc->a, acc->kind, e, &acc->items[acc->n])) return false;
  acc->n++;
  return true;
}

/* Moves parsed scalar items into a list attr value of kind `kind`. */
static bool build_list(parser *ps, list_acc *acc, tfc_attr_value *out) {
  *out = tfc_attr_list_new(acc->kind, acc->n);
  if (out->kind != TFC_ATTR_LIST) return poom(ps);
  tfc_attr_list *l = &out->v.list;
  for (int i = 0; i < acc->n; i++) {
    tfc_attr_value *it = &acc->items[i];
    switch (acc->kind) {
      case TFC_ATTR_I: l->v.i[i] = it->v.i; break;
      case TFC_ATTR_F: l->v.f[i] = it->v.f; break;
      case TFC_ATTR_B: l->v.b[i] = it->v.b; break;
      case TFC_ATTR_TYPE: l->v.type[i] = it->v.type; break;
      case TFC_ATTR_SHAPE: l->v.shape[i] = it->v.shape; break;
      case TFC_ATTR_S:
        l->v.s[i] = it->v.s;  /* ownership moves */
        it->kind = TFC_ATTR_NONE;
        it->v.s.data = NULL;
        break;
      default: break;
    }
  }
  return true;
}

/* Frees the scratch items of a list accumulator. */
static void list_acc_free(list_acc *acc) {
  for (int i = 0; i < acc->n; i++) tfc_attr_value_clear(&acc->items[i]);
  tfc_free(acc->items);
}

/* Parses the default literal of attr a into a->default_value. */
static bool parse_default(parser *ps, tfc_attr_def *a, span s) {
  s = trim(s);
  if (strncmp(a->type, "list(", 5) == 0) {
    const char *inner = a->type + 5;
    tfc_attr_kind kind = kind_of(inner, strlen(inner) - 1);
    if (kind == TFC_ATTR_TENSOR || kind == TFC_ATTR_FUNC || kind == TFC_ATTR_NONE)
      return perr(ps, "attr '%s': defaults of type %s are not supported", a->name, a->type);
    if (s.n < 2 || s.p[0] != '[' || s.p[s.n - 1] != ']')
      return perr(ps, "attr '%s': bad list default '%.*s'", a->name, (int)s.n, s.p);
    list_acc acc = {a, kind, 0, 0, NULL};
    bool ok = split_top(ps, (span){s.p + 1, s.n - 2}, ',', list_elem, &acc) &&
              build_list(ps, &acc, &a->default_value);
    list_acc_free(&acc);
    if (!ok) return false;
  } else {
    tfc_attr_kind kind = kind_of(a->type, strlen(a->type));
    if (!parse_scalar_value(ps, a, kind, s, &a->default_value)) return false;
  }
  a->has_default = true;
  return true;
}

/* Checks a's default against its allowed sets and minimum (TF rejects such ops). */
static bool check_default(parser *ps, const tfc_attr_def *a) {
  const tfc_attr_value *v = &a->default_value;
  if (a->n_allowed_types > 0) {
    int n = v->kind == TFC_ATTR_LIST ? v->v.list.n : 1;
    for (int i = 0; i < n; i++) {
      tfc_dtype t = v->kind == TFC_ATTR_LIST ? v->v.list.v.type[i] : v->v.type;
      bool ok = false;
      for (int k = 0; k < a->n_allowed_types; k++) ok |= a->allowed_types[k] == t;
      if (!ok)
        return perr(ps, "attr '%s': default %s is not in the allowed types", a->name,
                    tfc_op_dtype_string(t));
    }
  }
  if (a->n_allowed_strings > 0 && v->kind == TFC_ATTR_S) {
    bool ok = false;
    for (int k = 0; k < a->n_allowed_strings; k++)
      ok |= strlen(a->allowed_strings[k]) == v->v.s.len &&
            memcmp(a->allowed_strings[k], v->v.s.data, v->v.s.len) == 0;
    if (!ok) return perr(ps, "attr '%s': default string is not in the allowed values", a->name);
  }
  if (a->has_minimum) {
    int64_t x = v->kind == TFC_ATTR_LIST ? v->v.list.n : v->v.i;
    if (x < a->minimum)
      return perr(ps, "attr '%s': default %lld is less than minimum %lld", a->name, (long long)x,
                  (long long)a->minimum);
  }
  return true;
}

/* ------------------------------------------------------------------ attrs */

/* Finds attr `name` (span) among the attrs parsed so far. */
static tfc_attr_def *find_attr_span(tfc_op_def *d, span name) {
  for (int i = 0; i < d->n_attrs; i++)
    if (strlen(d->attrs[i].name) == name.n && memcmp(d->attrs[i].name, name.p, name.n) == 0)
      return &d->attrs[i];
  return NULL;
}

/* Sets a->type to a fresh copy of t. */
static bool set_type(parser *ps, tfc_attr_def *a, const char *t) {
  a->type = tfc_strdup(t);
  return a->type ? true : poom(ps);
}

/* Parses the type part of an attr ("int", "{float, double}", "list(type)",
 * "list({int32, int64})", "numbertype") into a. */
static bool parse_attr_type(parser *ps, tfc_attr_def *a, span t) {
  bool is_list = false;
  if (span_starts(t, "list(") && t.p[t.n - 1] == ')') {
    is_list = true;
    t = trim((span){t.p + 5, t.n - 6});
  }
  if (t.n == 0) return perr(ps, "attr '%s': empty type", a->name);
  if (t.p[0] == '{') {
    if (t.p[t.n - 1] != '}') return perr(ps, "attr '%s': bad allowed set", a->name);
    span body = trim((span){t.p + 1, t.n - 2});
    if (body.n == 0) return perr(ps, "attr '%s': empty allowed set", a->name);
    bool strings = body.p[0] == '\'' || body.p[0] == '"';
    if (strings && is_list) return perr(ps, "attr '%s': list of string sets is not supported", a->name);
    if (!set_type(ps, a, strings ? "string" : is_list ? "list(type)" : "type")) return false;
    return split_top(ps, body, ',', set_elem, a);
  }
  bool matched;
  if (!try_shorthand(ps, a, t, &matched)) return false;
  if (matched) return set_type(ps, a, is_list ? "list(type)" : "type");
  tfc_attr_kind kind = kind_of(t.p, t.n);
  if (kind == TFC_ATTR_NONE) return perr(ps, "attr '%s': unknown attr type '%.*s'", a->name, (int)t.n, t.p);
  char buf[32];
  snprintf(buf, sizeof buf, is_list ? "list(%.*s)" : "%.*s", (int)t.n, t.p);
  return set_type(ps, a, buf);
}

/* Finds the end of the type part: a balanced {...} or list(...) or a word. */
static size_t type_extent(span r) {
  size_t i = 0;
  int depth = 0;
  char quote = 0;
  for (; i < r.n; i++) {
    char c = r.p[i];
    if (quote) {
      if (c == '\\') i++;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '(' || c == '{' || c == '[') depth++;
    else if (c == ')' || c == '}' || c == ']') {
      depth--;
      if (depth == 0) return i + 1;
    } else if (depth == 0 && (c == '=' || c == '>' || isspace((unsigned char)c))) return i;
  }
  return i;
}

/* Parses one attr entry "name: type [>= min] [= default]" and appends it. */
static bool attr_entry(parser *ps, span e, void *ctx) {
  (void)ctx;
  tfc_op_def *d = ps->def;
  const char *colon = memchr(e.p, ':', e.n);
  if (!colon) return perr(ps, "attr '%.*s' has no ':'", (int)e.n, e.p);
  span name = trim((span){e.p, (size_t)(colon - e.p)});
  if (!span_is_ident(name)) return perr(ps, "bad attr name '%.*s'", (int)name.n, name.p);
  if (find_attr_span(d, name)) return perr(ps, "duplicate attr '%.*s'", (int)name.n, name.p);
  tfc_attr_def *arr = tfc_realloc(d->attrs, sizeof *arr * (size_t)(d->n_attrs + 1));
  if (!arr) return poom(ps);
  d->attrs = arr;
  tfc_attr_def *a = &arr[d->n_attrs];
  memset(a, 0, sizeof *a);
  d->n_attrs++;  /* counted now so tfc_op_def_clear frees a partial entry */
  a->name = tfc_strndup(name.p, name.n);
  if (!a->name) return poom(ps);
  span rest = trim((span){colon + 1, (size_t)(e.p + e.n - colon - 1)});
  size_t tn = type_extent(rest);
  if (!parse_attr_type(ps, a, trim((span){rest.p, tn}))) return false;
  rest = trim((span){rest.p + tn, rest.n - tn});
  if (span_starts(rest, ">=")) {
    rest = trim((span){rest.p + 2, rest.n - 2});
    size_t k = 0;
    while (k < rest.n && rest.p[k] != '=') k++;
    int64_t m;
    if (!parse_int((span){rest.p, k}, &m)) return perr(ps, "attr '%s': bad minimum", a->name);
    if (strcmp(a->type, "int") != 0 && strncmp(a->type, "list(", 5) != 0)
      return perr(ps, "attr '%s': a minimum needs an int or list type, not %s", a->name, a->type);
    if (strncmp(a->type, "list(", 5) == 0 && m < 0)
      return perr(ps, "attr '%s': negative list minimum", a->name);
    a->has_minimum = true;
    a->minimum = m;
    rest = trim((span){rest.p + k, rest.n - k});
  }
  if (rest.n > 0) {
    if (rest.p[0] != '=') return perr(ps, "attr '%s': unexpected '%.*s'", a->name, (int)rest.n, rest.p);
    if (!parse_default(ps, a, (span){rest.p + 1, rest.n - 1})) return false;
    if (!check_default(ps, a)) return false;
  }
  return true;
}

/* ------------------------------------------------------------------ args */

/* Where arg entries go: inputs or outputs. */
typedef struct arg_list {
  int *n;
  tfc_arg_def **args;
  const char *what;
} arg_list;

/* Resolves a type word of an arg: a `type`/`list(type)` attr or a dtype. */
static bool resolve_arg_type(parser *ps, tfc_arg_def *arg, span t, bool allow_list) {
  tfc_attr_def *a = find_attr_span(ps->def, t);
  if (a) {
    if (strcmp(a->type, "type") == 0) {
      arg->type_attr = tfc_strdup(a->name);
      return arg->type_attr ? true : poom(ps);
    }
    if (strcmp(a->type, "list(type)") == 0) {
      if (!allow_list) return perr(ps, "arg '%s': '%s' is a list(type) attr here", arg->name, a->name);
      arg->type_list_attr = tfc_strdup(a->name);
      return arg->type_list_attr ? true : poom(ps);
    }
    return perr(ps, "arg '%s': attr '%s' has type %s, not type or list(type)", arg->name, a->name,
                a->type);
  }
  tfc_dtype dt = parse_dtype(t);
  if (dt == TFC_DTYPE_INVALID || tfc_dtype_is_ref(dt))
    return perr(ps, "arg '%s': unknown type or attr '%.*s'", arg->name, (int)t.n, t.p);
  arg->type = dt;
  return true;
}

/* Parses one arg entry "name: [Ref(]spec[)]" with spec "T", "int32",
 * "N * T" or "U" (a list(type) attr), and appends it. */
static bool arg_entry(parser *ps, span e, void *ctx) {
  arg_list *L = ctx;
  const char *colon = memchr(e.p, ':', e.n);
  if (!colon) return perr(ps, "%s '%.*s' has no ':'", L->what, (int)e.n, e.p);
  span name = trim((span){e.p, (size_t)(colon - e.p)});
  if (!span_is_ident(name)) return perr(ps, "bad %s name '%.*s'", L->what, (int)name.n, name.p);
  for (int i = 0; i < *L->n; i++)
    if (strlen((*L->args)[i].name) == name.n && memcmp((*L->args)[i].name, name.p, name.n) == 0)
      return perr(ps, "duplicate %s '%.*s'", L->what, (int)name.n, name.p);
  tfc_arg_def *arr = tfc_realloc(*L->args, sizeof *arr * (size_t)(*L->n + 1));
  if (!arr) return poom(ps);
  *L->args = arr;
  tfc_arg_def *arg = &arr[*L->n];
  memset(arg, 0, sizeof *arg);
  (*L->n)++;
  arg->name = tfc_strndup(name.p, name.n);
  if (!arg->name) return poom(ps);
  span t = trim((span){colon + 1, (size_t)(e.p + e.n - colon - 1)});
  if (span_starts(t, "Ref(")) {
    if (t.p[t.n - 1] != ')') return perr(ps, "arg '%s': bad Ref(...)", arg->name);
    arg->is_ref = true;
    t = trim((span){t.p + 4, t.n - 5});
  }
  const char *star = memchr(t.p, '*', t.n);
  if (star) {
    span n = trim((span){t.p, (size_t)(star - t.p)});
    span ty = trim((span){star + 1, (size_t)(t.p + t.n - star - 1)});
    if (span_starts(ty, "Ref(") && ty.p[ty.n - 1] == ')') {
      arg->is_ref = true;
      ty = trim((span){ty.p + 4, ty.n - 5});
    }
    tfc_attr_def *na = find_attr_span(ps->def, n);
    if (!na) return perr(ps, "arg '%s': no attr '%.*s' for its length", arg->name, (int)n.n, n.p);
    if (strcmp(na->type, "int") != 0)
      return perr(ps, "arg '%s': length attr '%s' must be an int", arg->name, na->name);
    if (!na->has_minimum) {
      na->has_minimum = true;
      na->minimum = 0;
    } else if (na->minimum < 0) {
      return perr(ps, "arg '%s': length attr '%s' has a negative minimum", arg->name, na->name);
    }
    arg->number_attr = tfc_strdup(na->name);
    if (!arg->number_attr) return poom(ps);
    return resolve_arg_type(ps, arg, ty, false);
  }
  if (t.n == 0) return perr(ps, "arg '%s': missing type", arg->name);
  return resolve_arg_type(ps, arg, t, true);
}

/* Frees one arg def. */
static void arg_clear(tfc_arg_def *a) {
  tfc_free(a->name);
  tfc_free(a->type_attr);
  tfc_free(a->number_attr);
  tfc_free(a->type_list_attr);
}

/* Frees everything a parsed tfc_op_def owns and zeroes it. */
void tfc_op_def_clear(tfc_op_def *def) {
  if (!def) return;
  tfc_free(def->name);
  for (int i = 0; i < def->n_inputs; i++) arg_clear(&def->inputs[i]);
  tfc_free(def->inputs);
  for (int i = 0; i < def->n_outputs; i++) arg_clear(&def->outputs[i]);
  tfc_free(def->outputs);
  for (int i = 0; i < def->n_attrs; i++) {
    tfc_attr_def *a = &def->attrs[i];
    tfc_free(a->name);
    tfc_free(a->type);
    if (a->has_default) tfc_attr_value_clear(&a->default_value);
    tfc_free(a->allowed_types);
    for (int k = 0; k < a->n_allowed_strings; k++) tfc_free(a->allowed_strings[k]);
    tfc_free(a->allowed_strings);
  }
  tfc_free(def->attrs);
  memset(def, 0, sizeof *def);
}

/* Checks the op name: [A-Z_][A-Za-z0-9_]* as TF requires of op type names. */
static bool valid_op_name(const char *n) {
  if (!n || !(isupper((unsigned char)n[0]) || n[0] == '_')) return false;
  for (const char *p = n; *p; p++)
    if (!(isalnum((unsigned char)*p) || *p == '_')) return false;
  return true;
}

/* Parses one spec into *out. See op_registry.h. */
bool tfc_op_spec_parse(const tfc_op_spec *spec, tfc_op_def *out, tfc_status *st) {
  memset(out, 0, sizeof *out);
  parser ps = {spec, out, st};
  if (!valid_op_name(spec->name)) return perr(&ps, "invalid op name");
  out->name = tfc_strdup(spec->name);
  if (!out->name) return poom(&ps);
  out->flags = spec->flags;
  out->shape_fn = spec->shape_fn;
  arg_list in = {&out->n_inputs, &out->inputs, "input"};
  arg_list outs = {&out->n_outputs, &out->outputs, "output"};
  bool ok = (!spec->attrs || split_top(&ps, (span){spec->attrs, strlen(spec->attrs)}, ';', attr_entry, NULL)) &&
            (!spec->inputs || split_top(&ps, (span){spec->inputs, strlen(spec->inputs)}, ';', arg_entry, &in)) &&
            (!spec->outputs || split_top(&ps, (span){spec->outputs, strlen(spec->outputs)}, ';', arg_entry, &outs));
  if (!ok) {
    tfc_op_def_clear(out);
    return false;
  }
  return true;
}
