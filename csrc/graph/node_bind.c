/*
 * node_bind.c — validates a node against its op definition when it is added:
 * binds the flat inputs to the op's input args, infers type / length / type
 * list attrs from the input dtypes, checks explicit attrs, fills defaults,
 * checks allowed values and minimums, computes the output types and runs the
 * shape function. Error messages follow what TF 1.x users see (Python's
 * op_def_library for input problems, the C++ NodeDef checks otherwise).
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "graph/graph.h"

/* Where the current value of each attr of the op came from. */
enum { SRC_NONE = -2, SRC_EXPLICIT = -1 /* >= 0: index of the input arg that inferred it */ };

/* Everything the binder works with for one node. */
typedef struct binder {
  tfc_graph *g;
  tfc_node *n;
  const tfc_op_def *def;
  const int *arg_sizes;
  int *src;           /* per attr def: SRC_* or the inferring arg */
  tfc_status *st;
} binder;

/* Index of attr `name` in a sorted tfc_attrs, or -1. */
static int attr_index(const tfc_attrs *a, const char *name) {
  int lo = 0, hi = a->n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    int c = strcmp(a->items[mid].name, name);
    if (c == 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/* Index of attr def `name` in def, or -1. */
static int def_index(const tfc_op_def *def, const char *name) {
  for (int i = 0; i < def->n_attrs; i++)
    if (strcmp(def->attrs[i].name, name) == 0) return i;
  return -1;
}

/* Fails with INVALID_ARGUMENT "<msg>; NodeDef: {{node X}}" style text and the
 * node recorded in st. */
static bool bfail(binder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool bfail(binder *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tfc_status_vset(b->st, TFC_CODE_INVALID_ARGUMENT, fmt, ap);
  va_end(ap);
  tfc_status_set_node(b->st, b->n->name);
  return false;
}

/* Like bfail, but appends "; NodeDef: {{node X}}; Op<...>" as TF's C++ checks do. */
static bool bfail_def(binder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool bfail_def(binder *b, const char *fmt, ...) {
  char msg[TFC_STATUS_MSG_MAX], sig[TFC_STATUS_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  tfc_op_summarize_def(b->def, sig, (int)sizeof sig);
  tfc_status_set(b->st, TFC_CODE_INVALID_ARGUMENT, "%s; NodeDef: {{node %s}}; %s", msg, b->n->name,
                 sig);
  tfc_status_set_node(b->st, b->n->name);
  return false;
}

/* RESOURCE_EXHAUSTED for this node. */
static bool boom(binder *b) {
  tfc_status_set(b->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory adding node '%s'", b->n->name);
  tfc_status_set_node(b->st, b->n->name);
  return false;
}

/* Sets attr name := *v in the node's attrs (ownership of *v moves). */
static bool set_attr(binder *b, const char *name, tfc_attr_value *v) {
  if (!tfc_attrs_set(&b->n->attrs, name, v, b->st)) {
    tfc_status_set_node(b->st, b->n->name);
    return false;
  }
  return true;
}

/* The kind (and list element kind) an attr type string expects. */
static void expected_kind(const char *type, tfc_attr_kind *kind, tfc_attr_kind *elem) {
  static const struct {
    const char *name;
    tfc_attr_kind kind;
  } k[] = {{"string", TFC_ATTR_S}, {"int", TFC_ATTR_I},         {"float", TFC_ATTR_F},
           {"bool", TFC_ATTR_B},   {"type", TFC_ATTR_TYPE},     {"shape", TFC_ATTR_SHAPE},
           {"tensor", TFC_ATTR_TENSOR}, {"func", TFC_ATTR_FUNC}};
  bool list = strncmp(type, "list(", 5) == 0;
  const char *base = list ? type + 5 : type;
  size_t n = list ? strlen(base) - 1 : strlen(base);
  *kind = list ? TFC_ATTR_LIST : TFC_ATTR_NONE;
  *elem = TFC_ATTR_NONE;
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if (strlen(k[i].name) == n && strncmp(k[i].name, base, n) == 0) {
      if (list) *elem = k[i].kind;
      else *kind = k[i].kind;
    }
}

/* TF's attr type name of a value ("int", "list(float)"), for messages. */
static const char *kind_name(const tfc_attr_value *v) {
  static const char *const scalar[] = {"none", "string", "int", "float", "bool",
                                       "type", "shape",  "tensor", "func", "list"};
  static const char *const list[] = {"list(none)", "list(string)", "list(int)",
                                     "list(float)", "list(bool)", "list(type)",
                                     "list(shape)", "list(tensor)", "list(func)", "list(list)"};
  if (v->kind == TFC_ATTR_LIST) return list[v->v.list.kind];
  return scalar[v->kind];
}

/* Turns an int (or list of ints) given for a float (list(float)) attr into
 * floats, as TF's Python layer does; anything else is left alone. */
static void coerce_int_to_float(tfc_attr_value *v, tfc_attr_kind kind, tfc_attr_kind elem) {
  if (kind == TFC_ATTR_F && v->kind == TFC_ATTR_I) {
    *v = tfc_attr_float((float)v->v.i);
  } else if (kind == TFC_ATTR_LIST && elem == TFC_ATTR_F && v->kind == TFC_ATTR_LIST &&
             v->v.list.kind == TFC_ATTR_I) {
    /* int64 and float storage differ in size: convert in place into the
     * front of the same buffer (floats are smaller), then relabel. */
    tfc_attr_list *l = &v->v.list;
    float *f = (float *)(void *)l->v.i;
    for (int i = 0; i < l->n; i++) {
      float x = (float)l->v.i[i];
      f[i] = x;
    }
    l->kind = TFC_ATTR_F;
  }
}

/* Moves the explicitly given attrs into n->attrs: '_' attrs are dropped
 * (`_class: ["loc:@x"]` sets colocate_with), unknown attrs and wrong kinds fail. */
static bool take_given(binder *b, tfc_attrs *given) {
  tfc_node *n = b->n;
  for (int i = 0; i < given->n; i++) {
    tfc_attr *it = &given->items[i];
    if (it->name[0] == '_') {
      if (strcmp(it->name, "_class") == 0 && it->value.kind == TFC_ATTR_LIST &&
          it->value.v.list.kind == TFC_ATTR_S && !n->colocate_with) {
        for (int k = 0; k < it->value.v.list.n; k++) {
          const tfc_string *s = &it->value.v.list.v.s[k];
          if (s->len > 5 && memcmp(s->data, "loc:@", 5) == 0) {
            n->colocate_with = tfc_strndup(s->data + 5, s->len - 5);
            if (!n->colocate_with) return boom(b);
            break;
          }
        }
      }
      continue;
    }
    int d = def_index(b->def, it->name);
    if (d < 0) {
      char sig[TFC_STATUS_MSG_MAX];
      tfc_op_summarize_def(b->def, sig, (int)sizeof sig);
      return bfail(b, "NodeDef mentions attr '%s' not in %s; NodeDef: {{node %s}}", it->name, sig,
                   n->name);
    }
    tfc_attr_kind kind, elem;
    expected_kind(b->def->attrs[d].type, &kind, &elem);
    coerce_int_to_float(&it->value, kind, elem);
    bool ok = it->value.kind == kind;
    if (ok && kind == TFC_ATTR_LIST && it->value.v.list.kind != elem) {
      if (it->value.v.list.n == 0) it->value.v.list.kind = elem;  /* [] fits any list */
      else ok = false;
    }
    if (!ok)
      return bfail_def(b, "AttrValue had value with type '%s' when '%s' expected\n\t for attr '%s'",
                       kind_name(&it->value), b->def->attrs[d].type, it->name);
    tfc_attr_value v = it->value;
    memset(&it->value, 0, sizeof it->value);
    if (!set_attr(b, it->name, &v)) return false;
    b->src[d] = SRC_EXPLICIT;
  }
  return true;
}

/* The dtype of input endpoint e (ref types kept). */
static tfc_dtype input_dtype(binder *b, tfc_endpoint e) {
  tfc_node *p = tfc_graph_node(b->g, e.node);
  return p->out_types[e.index];
}

/* Checks every input endpoint refers to an existing node output. */
static bool check_endpoints(binder *b) {
  int nn = b->g->n_nodes;
  for (int i = 0; i < b->n->n_inputs; i++) {
    tfc_endpoint e = b->n->inputs[i];
    if (e.node < 0 || e.node >= nn)
      return bfail(b, "Input %d of node '%s' refers to node id %d, which is not in the graph", i,
                   b->n->name, e.node);
    tfc_node *p = tfc_graph_node(b->g, e.node);
    if (e.index < 0 || e.index >= p->n_outputs)
      return bfail(b, "Input %d of node '%s' refers to output %d of '%s', which has %d outputs", i,
                   b->n->name, e.index, p->name, p->n_outputs);
  }
  return true;
}

/* Binds input arg `ai` with type attr `ta` to input type t (base type):
 * infers the attr or checks t against its current value. */
static bool bind_type_attr(binder *b, int ai, const char *ta, tfc_dtype t) {
  const tfc_arg_def *arg = &b->def->inputs[ai];
  int d = def_index(b->def, ta);
  int k = attr_index(&b->n->attrs, ta);
  if (k < 0) {
    tfc_attr_value v = tfc_attr_type(t);
    if (!set_attr(b, ta, &v)) return false;
    b->src[d] = ai;
    return true;
  }
  const tfc_attr_value *cur = &b->n->attrs.items[k].value;
  if (cur->kind != TFC_ATTR_TYPE) return bfail_def(b, "Attr '%s' is not a type", ta);
  if (cur->v.type == t) return true;
  if (b->src[d] >= 0)
    return bfail(b, "Input '%s' of '%s' Op has type %s that does not match type %s of argument '%s'.",
                 arg->name, b->def->name, tfc_dtype_name(t), tfc_dtype_name(cur->v.type),
                 b->def->inputs[b->src[d]].name);
  return bfail(b, "Input '%s' of '%s' Op has type %s that does not match expected type of %s.",
               arg->name, b->def->name, tfc_dtype_name(t), tfc_dtype_name(cur->v.type));
}

/* Binds the length of list arg `ai` (size s) to its number attr. */
static bool bind_number_attr(binder *b, int ai, int s) {
  const tfc_arg_def *arg = &b->def->inputs[ai];
  const char *na = arg->number_attr;
  int d = def_index(b->def, na);
  int k = attr_index(&b->n->attrs, na);
  if (k >= 0) {
    const tfc_attr_value *cur = &b->n->attrs.items[k].value;
    if (cur->v.i != s) {
      if (b->src[d] >= 0)
        return bfail(b, "List argument '%s' to '%s' Op with length %d must match length %lld of argument '%s'.",
                     arg->name, b->def->name, s, (long long)cur->v.i, b->def->inputs[b->src[d]].name);
      return bfail_def(b, "Inconsistent values for attr '%s' %lld vs. %d while building NodeDef '%s'",
                       na, (long long)cur->v.i, s, b->n->name);
    }
  } else {
    const tfc_attr_def *ad = &b->def->attrs[d];
    if (ad->has_minimum && s < ad->minimum)
      return bfail(b, "List argument '%s' to '%s' Op with length %d shorter than minimum length %lld.",
                   arg->name, b->def->name, s, (long long)ad->minimum);
    tfc_attr_value v = tfc_attr_int(s);
    if (!set_attr(b, na, &v)) return false;
    b->src[d] = ai;
  }
  return true;
}

/* Binds a type-list arg `ai` whose inputs have base types t[0..s). */
static bool bind_type_list(binder *b, int ai, const tfc_dtype *t, int s) {
  const tfc_arg_def *arg = &b->def->inputs[ai];
  const char *la = arg->type_list_attr;
  int d = def_index(b->def, la);
  int k = attr_index(&b->n->attrs, la);
  if (k >= 0) {
    const tfc_attr_value *cur = &b->n->attrs.items[k].value;
    bool same = cur->v.list.n == s;
    for (int i = 0; same && i < s; i++) same = cur->v.list.v.type[i] == t[i];
    if (!same)
      return bfail(b, "Input '%s' of '%s' Op has %d tensors whose types do not match attr '%s' "
                   "(%d types)", arg->name, b->def->name, s, la, cur->v.list.n);
    return true;
  }
  tfc_attr_value v = tfc_attr_list_new(TFC_ATTR_TYPE, s);
  if (v.kind != TFC_ATTR_LIST) return boom(b);
  for (int i = 0; i < s; i++) v.v.list.v.type[i] = t[i];
  if (!set_attr(b, la, &v)) return false;
  b->src[d] = ai;
  return true;
}

/* Binds all input args: lengths, type attrs, fixed types and ref-ness; fills in_types. */
static bool bind_inputs(binder *b, tfc_dtype *scratch) {
  const tfc_op_def *def = b->def;
  int pos = 0;
  for (int ai = 0; ai < def->n_inputs; ai++) {
    const tfc_arg_def *arg = &def->inputs[ai];
    int s = b->arg_sizes[ai];
    bool is_list = arg->number_attr || arg->type_list_attr;
    if (s < 0 || (!is_list && s != 1))
      return bfail(b, "Expected %s for argument '%s' of '%s' Op, got %d tensors",
                   is_list ? "a list" : "a single tensor", arg->name, def->name, s);
    if (s > b->n->n_inputs - pos)
      return bfail(b, "Op '%s' node '%s': more arg_sizes than inputs", def->name, b->n->name);
    for (int j = 0; j < s; j++) {
      tfc_dtype t = input_dtype(b, b->n->inputs[pos + j]);
      if (arg->is_ref && !tfc_dtype_is_ref(t))
        return bfail(b, "Input '%s' of '%s' Op requires l-value input", arg->name, def->name);
      scratch[j] = tfc_dtype_base(t);
    }
    if (arg->number_attr && !bind_number_attr(b, ai, s)) return false;
    if (arg->number_attr && s > 1) {
      bool same = true;
      for (int j = 1; j < s; j++) same &= scratch[j] == scratch[0];
      if (!same) {
        char types[512];
        int len = 0;
        for (int j = 0; j < s && len < (int)sizeof types - 32; j++)
          len += snprintf(types + len, sizeof types - (size_t)len, "%s%s", j ? ", " : "",
                          tfc_dtype_name(scratch[j]));
        return bfail(b, "Tensors in list passed to '%s' of '%s' Op have types [%s] that don't all match.",
                     arg->name, def->name, types);
      }
    }
    if (arg->type_list_attr) {
      if (!bind_type_list(b, ai, scratch, s)) return false;
    } else if (arg->type_attr) {
      if (s > 0 && !bind_type_attr(b, ai, arg->type_attr, scratch[0])) return false;
    } else {
      for (int j = 0; j < s; j++)
        if (scratch[j] != arg->type)
          return bfail(b, "Input '%s' of '%s' Op has type %s that does not match expected type of %s.",
                       arg->name, def->name, tfc_dtype_name(scratch[j]), tfc_dtype_name(arg->type));
    }
    for (int j = 0; j < s; j++)
      b->n->in_types[pos + j] = arg->is_ref ? tfc_dtype_ref(scratch[j]) : scratch[j];
    pos += s;
  }
  if (pos != b->n->n_inputs)
    return bfail(b, "Op '%s' node '%s': %d inputs given, arg sizes add up to %d", def->name,
                 b->n->name, b->n->n_inputs, pos);
  return true;
}

/* Fills defaults for missing attrs; fails on a missing attr without one. */
static bool fill_defaults(binder *b) {
  for (int i = 0; i < b->def->n_attrs; i++) {
    const tfc_attr_def *a = &b->def->attrs[i];
    if (attr_index(&b->n->attrs, a->name) >= 0) continue;
    if (!a->has_default) {
      char sig[TFC_STATUS_MSG_MAX];
      tfc_op_summarize_def(b->def, sig, (int)sizeof sig);
      return bfail(b, "NodeDef missing attr '%s' from %s; NodeDef: {{node %s}}", a->name, sig,
                   b->n->name);
    }
    tfc_attr_value v;
    if (!tfc_attr_value_copy(&v, &a->default_value, b->st)) return boom(b);
    if (!set_attr(b, a->name, &v)) return false;
  }
  return true;
}

/* Writes the allowed types of a as "float32, float64" (Python names) or
 * "float, double" (C++ names). */
static void allowed_list(const tfc_attr_def *a, bool python, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (int k = 0; k < a->n_allowed_types && len + 32 < cap; k++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", k ? ", " : "",
                            python ? tfc_dtype_name(a->allowed_types[k])
                                   : tfc_op_dtype_string(a->allowed_types[k]));
}

/* Checks a type value of attr a against its allowed set. */
static bool check_type_allowed(binder *b, int d, tfc_dtype t) {
  const tfc_attr_def *a = &b->def->attrs[d];
  if (a->n_allowed_types == 0) return true;
  for (int k = 0; k < a->n_allowed_types; k++)
    if (a->allowed_types[k] == t) return true;
  char list[768];
  if (b->src[d] >= 0) {
    allowed_list(a, true, list, sizeof list);
    return bfail(b, "Value passed to parameter '%s' has DataType %s not in list of allowed values: %s",
                 b->def->inputs[b->src[d]].name, tfc_dtype_name(t), list);
  }
  allowed_list(a, false, list, sizeof list);
  return bfail(b, "Value for attr '%s' of %s is not in the list of allowed values: %s\n\t; NodeDef: {{node %s}}",
               a->name, tfc_op_dtype_string(t), list, b->n->name);
}

/* Checks every attr against its allowed values and minimum. */
static bool check_values(binder *b) {
  for (int d = 0; d < b->def->n_attrs; d++) {
    const tfc_attr_def *a = &b->def->attrs[d];
    const tfc_attr_value *v = tfc_attrs_find(&b->n->attrs, a->name);
    if (!v) continue;
    if (v->kind == TFC_ATTR_TYPE && !check_type_allowed(b, d, v->v.type)) return false;
    if (v->kind == TFC_ATTR_LIST && v->v.list.kind == TFC_ATTR_TYPE)
      for (int i = 0; i < v->v.list.n; i++)
        if (!check_type_allowed(b, d, v->v.list.v.type[i])) return false;
    if (v->kind == TFC_ATTR_S && a->n_allowed_strings > 0) {
      bool ok = false;
      for (int k = 0; k < a->n_allowed_strings && !ok; k++)
        ok = strlen(a->allowed_strings[k]) == v->v.s.len &&
             memcmp(a->allowed_strings[k], v->v.s.data, v->v.s.len) == 0;
      if (!ok) {
        char list[768];
        size_t len = 0;
        list[0] = '\0';
        for (int k = 0; k < a->n_allowed_strings && len + 64 < sizeof list; k++)
          len += (size_t)snprintf(list + len, sizeof list - len, "%s\"%s\"", k ? ", " : "",
                                  a->allowed_strings[k]);
        return bfail(b, "Attr '%s' of '%s' Op passed string '%.*s' not in: %s.", a->name,
                     b->def->name, (int)v->v.s.len, v->v.s.data ? v->v.s.data : "", list);
      }
    }
    if (a->has_minimum) {
      if (v->kind == TFC_ATTR_I && v->v.i < a->minimum)
        return bfail(b, "Attr '%s' of '%s' Op passed %lld less than minimum %lld.", a->name,
                     b->def->name, (long long)v->v.i, (long long)a->minimum);
      if (v->kind == TFC_ATTR_LIST && v->v.list.n < a->minimum)
        return bfail(b, "Attr '%s' of '%s' Op passed list of length %d less than minimum %lld.",
                     a->name, b->def->name, v->v.list.n, (long long)a->minimum);
    }
  }
  return true;
}

/* Number of tensors output arg o produces (from its attrs), or -1 when invalid. */
static int output_count(binder *b, const tfc_arg_def *o) {
  if (o->number_attr) {
    const tfc_attr_value *v = tfc_attrs_find(&b->n->attrs, o->number_attr);
    return v && v->kind == TFC_ATTR_I && v->v.i >= 0 && v->v.i <= (1 << 24) ? (int)v->v.i : -1;
  }
  if (o->type_list_attr) {
    const tfc_attr_value *v = tfc_attrs_find(&b->n->attrs, o->type_list_attr);
    return v && v->kind == TFC_ATTR_LIST ? v->v.list.n : -1;
  }
  return 1;
}

/* Computes n_outputs, out_types and (unknown) out_shapes. */
static bool compute_outputs(binder *b) {
  const tfc_op_def *def = b->def;
  tfc_node *n = b->n;
  int total = 0;
  for (int i = 0; i < def->n_outputs; i++) {
    int c = output_count(b, &def->outputs[i]);
    if (c < 0) return bfail_def(b, "Bad length attr for output '%s'", def->outputs[i].name);
    total += c;
  }
  n->out_types = tfc_calloc((size_t)(total > 0 ? total : 1), sizeof *n->out_types);
  n->out_shapes = tfc_malloc(sizeof *n->out_shapes * (size_t)(total > 0 ? total : 1));
  if (!n->out_types || !n->out_shapes) return boom(b);
  n->n_outputs = total;
  int pos = 0;
  for (int i = 0; i < def->n_outputs; i++) {
    const tfc_arg_def *o = &def->outputs[i];
    int c = output_count(b, o);
    for (int j = 0; j < c; j++) {
      tfc_dtype t = o->type;
      if (o->type_attr) {
        const tfc_attr_value *v = tfc_attrs_find(&n->attrs, o->type_attr);
        t = v && v->kind == TFC_ATTR_TYPE ? v->v.type : TFC_DTYPE_INVALID;
      } else if (o->type_list_attr) {
        const tfc_attr_value *v = tfc_attrs_find(&n->attrs, o->type_list_attr);
        t = v->v.list.kind == TFC_ATTR_TYPE ? v->v.list.v.type[j] : TFC_DTYPE_INVALID;
      }
      if (t == TFC_DTYPE_INVALID) return bfail_def(b, "Cannot determine the type of output '%s'", o->name);
      n->out_types[pos] = o->is_ref ? tfc_dtype_ref(t) : t;
      n->out_shapes[pos] = tfc_shape_unknown();
      pos++;
    }
  }
  return true;
}

/* Runs n's shape function from its inputs' current shapes. See graph.h. */
bool tfc_node_infer_shapes(tfc_graph *g, const tfc_node *n, tfc_shape *out, tfc_status *st) {
  for (int i = 0; i < n->n_outputs; i++) out[i] = tfc_shape_unknown();
  if (!n->def->shape_fn) return true;
  int ni = n->n_inputs;
  size_t cnt = (size_t)(ni > 0 ? ni : 1);
  tfc_shape *shapes = tfc_malloc(sizeof *shapes * cnt);
  tfc_dtype *types = tfc_malloc(sizeof *types * cnt);
  tfc_tensor **values = tfc_calloc(cnt, sizeof *values);
  const char **names = tfc_calloc(cnt, sizeof *names);
  char *namebuf = NULL;
  size_t need = 0;
  for (int i = 0; i < ni; i++) need += strlen(tfc_graph_node(g, n->inputs[i].node)->name) + 16;
  namebuf = tfc_malloc(need + 1);
  bool ok = shapes && types && values && names && namebuf;
  if (!ok) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory adding node '%s'", n->name);
  } else {
    char *w = namebuf;
    for (int i = 0; i < ni; i++) {
      tfc_endpoint e = n->inputs[i];
      tfc_node *p = tfc_graph_node(g, e.node);
      shapes[i] = p->out_shapes[e.index];
      types[i] = tfc_dtype_base(n->in_types[i]);
      if (e.index == 0 && strcmp(p->def->name, "Const") == 0) {
        const tfc_attr_value *v = tfc_attrs_find(&p->attrs, "value");
        if (v && v->kind == TFC_ATTR_TENSOR) values[i] = v->v.tensor;
      }
      names[i] = w;
      w += (e.index == 0 ? sprintf(w, "%s", p->name) : sprintf(w, "%s:%d", p->name, e.index)) + 1;
    }
    tfc_shape_ctx ctx = {.def = n->def,
                         .attrs = &n->attrs,
                         .node_name = n->name,
                         .n_inputs = ni,
                         .in_shapes = shapes,
                         .in_types = types,
                         .in_values = values,
                         .n_outputs = n->n_outputs,
                         .out_shapes = out,
                         .st = st,
                         .in_names = names};
    ok = n->def->shape_fn(&ctx);
    if (!ok && st->code == TFC_CODE_OK)
      tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Shape inference failed for node '%s'", n->name);
    if (!ok) tfc_status_set_node(st, n->name);
  }
  tfc_free(shapes);
  tfc_free(types);
  tfc_free(values);
  tfc_free(names);
  tfc_free(namebuf);
  return ok;
}

/* Validates and completes node n. See graph.h. */
bool tfc_node_bind(tfc_graph *g, tfc_node *n, const tfc_node_request *req, tfc_attrs *given,
                   tfc_status *st) {
  const tfc_op_def *def = n->def;
  binder b = {g, n, def, req->arg_sizes, NULL, st};
  if (req->n_args != def->n_inputs)
    return bfail(&b, "Op '%s' has %d input arguments, %d given for node '%s'", def->name,
                 def->n_inputs, req->n_args, n->name);
  if (def->n_inputs > 0 && !req->arg_sizes)
    return bfail(&b, "No arg_sizes given for node '%s'", n->name);
  b.src = tfc_malloc(sizeof *b.src * (size_t)(def->n_attrs > 0 ? def->n_attrs : 1));
  size_t ni = (size_t)(n->n_inputs > 0 ? n->n_inputs : 1);
  tfc_dtype *scratch = tfc_malloc(sizeof *scratch * ni);
  n->in_types = tfc_calloc(ni, sizeof *n->in_types);
  bool ok = b.src && scratch && n->in_types;
  if (!ok) boom(&b);
  for (int i = 0; ok && i < def->n_attrs; i++) b.src[i] = SRC_NONE;
  ok = ok && take_given(&b, given) && check_endpoints(&b) && bind_inputs(&b, scratch) &&
       fill_defaults(&b) && check_values(&b) && compute_outputs(&b) &&
       tfc_node_infer_shapes(g, n, n->out_shapes, st);
  tfc_free(b.src);
  tfc_free(scratch);
  return ok;
}
