/*
 * graphdef.c — GraphDef import into and export from a tfc_graph (see
 * graphdef.h for the contract). Protobuf-c types are used here and in the
 * other codec files only (graphdef_pb.h).
 *
 * Import runs in three passes over the parsed GraphDef: (1) index the nodes
 * and input_map keys; (2) validate everything that can be checked before a
 * node is added and build the edge lists; (3) add the nodes in a
 * topological order (Kahn's algorithm preferring GraphDef order). All scratch
 * memory of an import lives in one arena.
 */
#include "graph/graphdef.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "base/strbuf.h"
#include "graph/function_lib.h"
#include "graph/graphdef_pb.h"

/* Largest list-arg length or input count accepted from a GraphDef. */
#define TFC_MAX_ARG_LIST (1 << 24)

/* ------------------------------------------------------------ helpers */

/* Sets INVALID_ARGUMENT with a printf message, records `node` (may be NULL)
 * as the failing node, and returns false. */
__attribute__((format(printf, 3, 4))) static bool fail(tfc_status *st, const char *node,
                                                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tfc_status_vset(st, TFC_CODE_INVALID_ARGUMENT, fmt, ap);
  va_end(ap);
  if (node) tfc_status_set_node(st, node);
  return false;
}

/* Sets RESOURCE_EXHAUSTED for an import or export and returns false. */
static bool oom(tfc_status *st) {
  return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "Out of memory while converting a GraphDef");
}

/* True when name matches TF's node-name rule [A-Za-z0-9.][A-Za-z0-9_./>-]*. */
static bool valid_node_name(const char *name) {
  if (!name || !(isalnum((unsigned char)name[0]) || name[0] == '.')) return false;
  for (const char *p = name + 1; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (!(isalnum(c) || c == '_' || c == '.' || c == '/' || c == '-' || c == '>')) return false;
  }
  return true;
}

/* A parsed input or tensor name: node name span, output index, control flag. */
typedef struct tname {
  const char *name;
  size_t len;
  int index;     /* -1 for a control reference */
  bool ctrl;
  bool has_index;  /* an explicit ":k" was written */
} tname;

/* Splits "x", "x:k" or "^x" (TF's ParseTensorName: the part after the last
 * ':' is an index only when it is all digits; a huge index saturates). */
static tname parse_tname(const char *s) {
  tname t = {s, strlen(s), 0, false, false};
  if (t.len > 0 && s[0] == '^') {
    t.name++;
    t.len--;
    t.ctrl = true;
    t.index = -1;
    return t;
  }
  const char *colon = strrchr(s, ':');
  if (colon && colon[1]) {
    long long v = 0;
    const char *d = colon + 1;
    for (; *d && isdigit((unsigned char)*d); d++) v = v < 100000000 ? v * 10 + (*d - '0') : v;
    if (!*d) {
      t.len = (size_t)(colon - s);
      t.index = (int)v;
      t.has_index = true;
    }
  }
  return t;
}

/* The AttrValue of `name` in a NodeDef, or NULL (the last entry wins, as in
 * protobuf map semantics). */
static const Tensorflow__AttrValue *nd_attr(const Tensorflow__NodeDef *nd, const char *name) {
  const Tensorflow__AttrValue *v = NULL;
  for (size_t i = 0; i < nd->n_attr; i++)
    if (nd->attr[i] && nd->attr[i]->key && strcmp(nd->attr[i]->key, name) == 0) v = nd->attr[i]->value;
  return v;
}

/* Number of tensors bound to arg `a` of `op` for the NodeDef nd: 1 for a
 * plain arg, else the number_attr value or the type_list_attr length (from
 * nd, or the attr's default). -1 when the attr is missing or malformed. */
static int arg_count(const tfc_op_def *op, const tfc_arg_def *a, const Tensorflow__NodeDef *nd) {
  if (a->number_attr) {
    const Tensorflow__AttrValue *v = nd_attr(nd, a->number_attr);
    if (v) {
      if (v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_I || v->i < 0 || v->i > TFC_MAX_ARG_LIST)
        return -1;
      return (int)v->i;
    }
    const tfc_attr_def *d = tfc_op_find_attr(op, a->number_attr);
    if (d && d->has_default && d->default_value.kind == TFC_ATTR_I) return (int)d->default_value.v.i;
    return -1;
  }
  if (a->type_list_attr) {
    const Tensorflow__AttrValue *v = nd_attr(nd, a->type_list_attr);
    if (v) {
      if (v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !v->list) return -1;
      return v->list->n_type > TFC_MAX_ARG_LIST ? -1 : (int)v->list->n_type;
    }
    const tfc_attr_def *d = tfc_op_find_attr(op, a->type_list_attr);
    if (d && d->has_default && d->default_value.kind == TFC_ATTR_LIST) return d->default_value.v.list.n;
    return -1;
  }
  return 1;
}

/* Total outputs of a node of `op` configured by nd; -1 when unknown. */
static int output_count(const tfc_op_def *op, const Tensorflow__NodeDef *nd) {
  long total = 0;
  for (int i = 0; i < op->n_outputs; i++) {
    int c = arg_count(op, &op->outputs[i], nd);
    if (c < 0) return -1;
    total += c;
    if (total > TFC_MAX_ARG_LIST) return -1;
  }
  return (int)total;
}

/* Appends TF's DataTypeString of the k-th tensor of arg `a` (k < count) to b,
 * resolving type attrs from nd where possible ("?" otherwise). */
static void append_arg_type(tfc_strbuf *b, const tfc_op_def *op, const tfc_arg_def *a, int k,
                            const Tensorflow__NodeDef *nd) {
  int t = a->type;
  if (a->type_attr) {
    const Tensorflow__AttrValue *v = nd_attr(nd, a->type_attr);
    const tfc_attr_def *d = tfc_op_find_attr(op, a->type_attr);
    t = v && v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ? (int)v->type
        : d && d->has_default && d->default_value.kind == TFC_ATTR_TYPE ? (int)d->default_value.v.type
        : 0;
  } else if (a->type_list_attr) {
    const Tensorflow__AttrValue *v = nd_attr(nd, a->type_list_attr);
    t = v && v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_LIST && v->list &&
                (size_t)k < v->list->n_type
            ? (int)v->list->type[k]
            : 0;
  }
  if (t > 0 && a->is_ref) t = (int)tfc_dtype_ref((tfc_dtype)t);
  tfc_strbuf_puts(b, t > 0 ? tfc_op_dtype_string((tfc_dtype)t) : "?");
}

/* ------------------------------------------------------------ attrs in */

/* True for a DataType value tfc can represent (base or reference). */
static bool valid_type(int t) {
  int b = t > TFC_DTYPE_REF_OFFSET ? t - TFC_DTYPE_REF_OFFSET : t;
  return b > 0 && b < TFC_DTYPE_NUM;
}

/* Converts an AttrValue into *out (kind NONE first). `node`/`attr` name the
 * value in messages. Tensors take over large tensor_content blocks
 * (tfc_tensor_from_pb_take), so v is converted once. false + st on a
 * malformed value or OOM. */
static bool attr_from_pb(Tensorflow__AttrValue *v, const char *node, const char *attr,
                         tfc_attr_value *out, tfc_status *st) {
  memset(out, 0, sizeof *out);
  switch (v ? v->value_case : TENSORFLOW__ATTR_VALUE__VALUE__NOT_SET) {
    case TENSORFLOW__ATTR_VALUE__VALUE_S:
      *out = tfc_attr_string((const char *)v->s.data, v->s.len);
      return out->kind == TFC_ATTR_S || oom(st);
    case TENSORFLOW__ATTR_VALUE__VALUE_I: *out = tfc_attr_int(v->i); return true;
    case TENSORFLOW__ATTR_VALUE__VALUE_F: *out = tfc_attr_float(v->f); return true;
    case TENSORFLOW__ATTR_VALUE__VALUE_B: *out = tfc_attr_bool(v->b != 0); return true;
    case TENSORFLOW__ATTR_VALUE__VALUE_TYPE:
      if (!valid_type((int)v->type))
        return fail(st, node, "Node '%s': attr '%s' has unsupported DataType %d", node, attr,
                    (int)v->type);
      *out = tfc_attr_type((tfc_dtype)v->type);
      return true;
    case TENSORFLOW__ATTR_VALUE__VALUE_SHAPE: {
      tfc_shape s;
      if (!tfc_shape_from_pb(v->shape, &s, st)) {
        tfc_status_set_node(st, node);
        return false;
      }
      *out = tfc_attr_shape(s);
      return true;
    }
    case TENSORFLOW__ATTR_VALUE__VALUE_TENSOR: {
      if (!v->tensor) return fail(st, node, "Node '%s': attr '%s' has an empty tensor", node, attr);
      tfc_tensor *t = tfc_tensor_from_pb_take(v->tensor, st);
      if (!t) {
        if (st->code == TFC_CODE_INVALID_ARGUMENT) {
          char why[TFC_STATUS_MSG_MAX];
          snprintf(why, sizeof why, "%s", st->msg);
          tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Node '%s': attr '%s': %s", node, attr, why);
        }
        tfc_status_set_node(st, node);
        return false;
      }
      out->kind = TFC_ATTR_TENSOR;
      out->v.tensor = t;
      return true;
    }
    case TENSORFLOW__ATTR_VALUE__VALUE_FUNC: {
      const char *name = v->func && v->func->name ? v->func->name : "";
      *out = tfc_attr_string(name, strlen(name));
      if (out->kind != TFC_ATTR_S) return oom(st);
      out->kind = TFC_ATTR_FUNC;
      return true;
    }
    case TENSORFLOW__ATTR_VALUE__VALUE_LIST: break;
    case TENSORFLOW__ATTR_VALUE__VALUE_PLACEHOLDER:
      return fail(st, node, "Node '%s': attr '%s' is a placeholder, which is only valid inside "
                  "a function body", node, attr);
    default:
      return fail(st, node, "Node '%s': attr '%s' has no value", node, attr);
  }
  const Tensorflow__AttrValue__ListValue *l = v->list;
  size_t counts[8] = {0};
  if (l) {
    counts[0] = l->n_s, counts[1] = l->n_i, counts[2] = l->n_f, counts[3] = l->n_b;
    counts[4] = l->n_type, counts[5] = l->n_shape, counts[6] = l->n_tensor, counts[7] = l->n_func;
  }
  static const tfc_attr_kind kinds[8] = {TFC_ATTR_S, TFC_ATTR_I, TFC_ATTR_F, TFC_ATTR_B,
                                         TFC_ATTR_TYPE, TFC_ATTR_SHAPE, TFC_ATTR_TENSOR,
                                         TFC_ATTR_FUNC};
  int which = -1;
  for (int k = 0; k < 8; k++) {
    if (!counts[k]) continue;
    if (which >= 0)
      return fail(st, node, "Node '%s': list attr '%s' holds values of more than one type", node, attr);
    which = k;
  }
  if (which < 0) {
    *out = tfc_attr_list_new(TFC_ATTR_NONE, 0);
    return true;
  }
  if (counts[which] > (size_t)TFC_MAX_ARG_LIST)
    return fail(st, node, "Node '%s': list attr '%s' has too many values", node, attr);
  int n = (int)counts[which];
  tfc_attr_value lv = tfc_attr_list_new(kinds[which], n);
  if (lv.kind != TFC_ATTR_LIST) return oom(st);
  tfc_attr_list *dst = &lv.v.list;
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    switch (kinds[which]) {
      case TFC_ATTR_S: {
        tfc_attr_value s = tfc_attr_string((const char *)l->s[i].data, l->s[i].len);
        if (s.kind != TFC_ATTR_S) {
          ok = oom(st);
          break;
        }
        dst->v.s[i] = s.v.s;
        break;
      }
      case TFC_ATTR_I: dst->v.i[i] = l->i[i]; break;
      case TFC_ATTR_F: dst->v.f[i] = l->f[i]; break;
      case TFC_ATTR_B: dst->v.b[i] = l->b[i] != 0; break;
      case TFC_ATTR_TYPE:
        if (!valid_type((int)l->type[i]))
          ok = fail(st, node, "Node '%s': attr '%s' has unsupported DataType %d", node, attr,
                    (int)l->type[i]);
        else
          dst->v.type[i] = (tfc_dtype)l->type[i];
        break;
      case TFC_ATTR_SHAPE:
        ok = tfc_shape_from_pb(l->shape[i], &dst->v.shape[i], st);
        if (!ok) tfc_status_set_node(st, node);
        break;
      case TFC_ATTR_TENSOR:
        dst->v.tensor[i] = l->tensor[i] ? tfc_tensor_from_pb_take(l->tensor[i], st) : NULL;
        if (!dst->v.tensor[i]) {
          if (!l->tensor[i]) fail(st, node, "Node '%s': attr '%s' has an empty tensor", node, attr);
          tfc_status_set_node(st, node);
          ok = false;
        }
        break;
      case TFC_ATTR_FUNC: {
        const char *name = l->func[i] && l->func[i]->name ? l->func[i]->name : "";
        tfc_attr_value s = tfc_attr_string(name, strlen(name));
        if (s.kind != TFC_ATTR_S) {
          ok = oom(st);
          break;
        }
        dst->v.func[i] = s.v.s;
        break;
      }
      default: break;
    }
  }
  if (!ok) {
    tfc_attr_value_clear(&lv);
    return false;
  }
  *out = lv;
  return true;
}

/* Public wrappers of the helpers above (graphdef_pb.h). */
int tfc_pb_arg_count(const tfc_op_def *op, const tfc_arg_def *a, const Tensorflow__NodeDef *nd) {
  return arg_count(op, a, nd);
}

/* AttrValue message -> tfc value (graphdef_pb.h). */
bool tfc_pb_attr_to_tfc(Tensorflow__AttrValue *v, const char *node, const char *attr,
                        tfc_attr_value *out, tfc_status *st) {
  return attr_from_pb(v, node, attr, out, st);
}

/* ------------------------------------------------------------ import */

typedef struct imp_node {
  const Tensorflow__NodeDef *nd;
  const tfc_op_def *op;
  int n_data;          /* data inputs (the first n_data entries of nd->input) */
  int *src;            /* per input entry: GraphDef index of the source, or -1 */
  int *map;            /* per input entry: input_map index, or -1 */
  int *idx;            /* per input entry: output index (-1 for control) */
  int *arg_sizes;      /* per input arg of op */
  int n_outputs;       /* -1 when unknown before binding */
  bool *back;          /* per input entry: a loop's back edge (NextIteration -> Merge), or NULL */
  int pending;         /* unprocessed GraphDef-internal in-edges (topological sort) */
  bool internal_in;    /* some input comes from another imported node */
  int first_out;       /* range of this node's consumers in importer.out_edges */
  int n_out;
  const char *final_name;
  int new_id;
} imp_node;

typedef struct importer {
  tfc_graph *g;
  const tfc_import_options *o;
  tfc_status *st;
  tfc_pb_arena arena;
  int n;
  imp_node *nodes;
  int *out_edges;      /* consumers, grouped per source (CSR) */
  tfc_hashmap by_name;       /* GraphDef name -> index + 1 */
  int n_map;
  tname *map_key;            /* parsed input_map keys */
  char **map_norm;           /* "x:k" or "^x" */
  bool *map_used;
  tfc_hashmap map_index;     /* normalised key -> map index + 1 */
  tfc_hashmap final_names;   /* final names taken by this import */
} importer;

/* Looks up a GraphDef node by name span; -1 when absent. */
static int gd_index(importer *im, const char *name, size_t len) {
  bool found = false;
  void *v = tfc_hashmap_get(&im->by_name, name, len, &found);
  return found ? (int)((intptr_t)v - 1) : -1;
}

/* The normalised text of a parsed name ("x:k" or "^x") in the arena. */
static char *norm_key(importer *im, const tname *t) {
  size_t cap = t->len + 16;
  char *s = tfc_pb_arena_alloc(&im->arena, cap);
  if (!s) return NULL;
  if (t->ctrl)
    snprintf(s, cap, "^%.*s", (int)t->len, t->name);
  else
    snprintf(s, cap, "%.*s:%d", (int)t->len, t->name, t->index);
  return s;
}

/* The input_map entry for a parsed input name, or -1. */
static int map_lookup(importer *im, const tname *t) {
  if (im->n_map == 0) return -1;
  char buf[512];
  const char *key = buf;
  char *heap = NULL;
  size_t need = t->len + 16;
  if (need > sizeof buf) {
    heap = tfc_malloc(need);
    if (!heap) return -2;
    key = heap;
  }
  if (t->ctrl)
    snprintf((char *)key, need, "^%.*s", (int)t->len, t->name);
  else
    snprintf((char *)key, need, "%.*s:%d", (int)t->len, t->name, t->index);
  bool found = false;
  void *v = tfc_hashmap_get(&im->map_index, key, strlen(key), &found);
  tfc_free(heap);
  return found ? (int)((intptr_t)v - 1) : -1;
}

/* Pass 1: indexes GraphDef nodes by name (checking names and uniqueness)
 * and parses the input_map keys. */
static bool index_nodes(importer *im, const Tensorflow__GraphDef *gd) {
  im->n = (int)gd->n_node;
  im->nodes = tfc_pb_arena_calloc(&im->arena, (size_t)(im->n > 0 ? im->n : 1), sizeof *im->nodes);
  if (!im->nodes) return oom(im->st);
  for (int i = 0; i < im->n; i++) {
    const Tensorflow__NodeDef *nd = gd->node[i];
    if (!nd) return fail(im->st, NULL, "Invalid GraphDef: node %d is empty", i);
    im->nodes[i].nd = nd;
    im->nodes[i].new_id = -1;
    const char *name = nd->name ? nd->name : "";
    bool internal = im->o && im->o->internal_names && name[0] == '_' && valid_node_name(name + 1);
    if (!valid_node_name(name) && !internal)
      return fail(im->st, name, "Node '%s': Node name contains invalid characters", name);
    size_t len = strlen(name);
    if (gd_index(im, name, len) >= 0) return fail(im->st, name, "Node '%s' is not unique", name);
    if (tfc_hashmap_put(&im->by_name, name, len, (void *)(intptr_t)(i + 1)) != 0) return oom(im->st);
  }
  const tfc_import_options *o = im->o;
  im->n_map = o ? o->n_input_map : 0;
  if (im->n_map <= 0) {
    im->n_map = 0;
    return true;
  }
  if (!o->input_map) return fail(im->st, NULL, "input_map entries missing");
  im->map_key = tfc_pb_arena_calloc(&im->arena, (size_t)im->n_map, sizeof *im->map_key);
  im->map_norm = tfc_pb_arena_calloc(&im->arena, (size_t)im->n_map, sizeof *im->map_norm);
  im->map_used = tfc_pb_arena_calloc(&im->arena, (size_t)im->n_map, sizeof *im->map_used);
  if (!im->map_key || !im->map_norm || !im->map_used) return oom(im->st);
  int gn = tfc_graph_num_nodes(im->g);
  for (int i = 0; i < im->n_map; i++) {
    const tfc_import_mapping *m = &o->input_map[i];
    if (!m->key || !*m->key) return fail(im->st, NULL, "input_map key %d is empty", i);
    im->map_key[i] = parse_tname(m->key);
    if (im->map_key[i].len == 0) return fail(im->st, NULL, "input_map key '%s' is malformed", m->key);
    if (m->value.node < 0 || m->value.node >= gn)
      return fail(im->st, NULL, "input_map value for '%s' refers to node id %d, which is not in "
                  "the graph", m->key, m->value.node);
    if (!im->map_key[i].ctrl) {
      tfc_node *vn = tfc_graph_node(im->g, m->value.node);
      if (m->value.index < 0 || m->value.index >= vn->n_outputs)
        return fail(im->st, NULL, "input_map value for '%s' refers to output %d of '%s', which "
                    "has %d outputs", m->key, m->value.index, vn->name, vn->n_outputs);
    }
    im->map_norm[i] = norm_key(im, &im->map_key[i]);
    if (!im->map_norm[i]) return oom(im->st);
    if (tfc_hashmap_put(&im->map_index, im->map_norm[i], strlen(im->map_norm[i]),
                        (void *)(intptr_t)(i + 1)) != 0)
      return oom(im->st);
  }
  return true;
}

/* Checks the input count of node i against its op and records arg sizes,
 * inferring one unknown list length from the count. */
static bool bind_arg_sizes(importer *im, int i) {
  imp_node *in = &im->nodes[i];
  const tfc_op_def *op = in->op;
  const char *name = in->nd->name;
  in->arg_sizes = tfc_pb_arena_calloc(&im->arena, (size_t)(op->n_inputs > 0 ? op->n_inputs : 1),
                                      sizeof(int));
  if (!in->arg_sizes) return oom(im->st);
  long known = 0;
  int unknown = -1, n_unknown = 0;
  for (int a = 0; a < op->n_inputs; a++) {
    int c = arg_count(op, &op->inputs[a], in->nd);
    in->arg_sizes[a] = c;
    if (c < 0) {
      unknown = a;
      n_unknown++;
    } else {
      known += c;
    }
  }
  char sig[TFC_STATUS_MSG_MAX / 2];
  if (n_unknown > 1 || (n_unknown == 1 && known > in->n_data)) {
    const tfc_arg_def *ua = &op->inputs[unknown];
    tfc_op_summarize_def(op, sig, (int)sizeof sig);
    return fail(im->st, name, "NodeDef missing attr '%s' from %s; NodeDef: {{node %s}}",
                ua->number_attr ? ua->number_attr : ua->type_list_attr, sig, name);
  }
  if (n_unknown == 1) {
    in->arg_sizes[unknown] = in->n_data - (int)known;
    return true;
  }
  if (known == in->n_data) return true;
  tfc_strbuf types;
  tfc_strbuf_init(&types);
  int written = 0;
  for (int a = 0; a < op->n_inputs && written < 64; a++)
    for (int k = 0; k < in->arg_sizes[a] && written < 64; k++, written++) {
      if (written) tfc_strbuf_puts(&types, ", ");
      append_arg_type(&types, op, &op->inputs[a], k, in->nd);
    }
  if (known > written) tfc_strbuf_puts(&types, ", ...");
  tfc_op_summarize_def(op, sig, (int)sizeof sig);
  fail(im->st, name, "NodeDef expected inputs '%s' do not match %d inputs specified; %s; NodeDef: "
       "{{node %s}}", tfc_strbuf_cstr(&types), in->n_data, sig, name);
  tfc_strbuf_free(&types);
  return false;
}

/* True when (name, len) is a node already in the target graph. */
static bool in_target_graph(importer *im, const char *name, size_t len) {
  if (len == 0 || memchr(name, 0, len)) return false;
  char *z = tfc_pb_arena_strndup(&im->arena, name, len);
  return z && tfc_graph_find(im->g, z) != NULL;
}

/* As TF's import: every "loc:@x" entry of a `_class` list must name a node
 * of the GraphDef ("loc:@" alone, or a name with a NUL byte, names none).
 * tfc also accepts a node already in the graph: import_graph_def under
 * tf.colocate_with passes the colocation group in force that way. */
static bool check_colocation(importer *im, const Tensorflow__NodeDef *nd) {
  for (size_t k = 0; k < nd->n_attr; k++) {
    const Tensorflow__NodeDef__AttrEntry *e = nd->attr[k];
    if (!e || !e->key || strcmp(e->key, "_class") != 0 || !e->value ||
        e->value->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !e->value->list)
      continue;
    const Tensorflow__AttrValue__ListValue *l = e->value->list;
    for (size_t j = 0; j < l->n_s; j++) {
      const char *s = (const char *)l->s[j].data;
      size_t len = l->s[j].len;
      if (len < 5 || memcmp(s, "loc:@", 5) != 0 || gd_index(im, s + 5, len - 5) >= 0 ||
          in_target_graph(im, s + 5, len - 5))
        continue;
      return fail(im->st, nd->name, "Node '%s' expects to be colocated with unknown node '%.*s'",
                  nd->name, (int)(len - 5 > 200 ? 200 : len - 5), s + 5);
    }
  }
  return true;
}

/* Pass 2a for node i: op lookup, input parsing (controls last), input_map
 * and source resolution, input counts, colocation names. */
static bool resolve_node(importer *im, int i) {
  imp_node *in = &im->nodes[i];
  const Tensorflow__NodeDef *nd = in->nd;
  const char *name = nd->name;
  const char *op_type = nd->op ? nd->op : "";
  in->op = tfc_graph_lookup_op(im->g, op_type);
  if (!in->op) {
    tfc_status_set(im->st, TFC_CODE_NOT_FOUND, "Op type not registered '%s' in binary running on "
                   "tfc. Make sure the Op and Kernel are registered in the binary running in this "
                   "process.", op_type);
    tfc_status_set_node(im->st, name);
    return false;
  }
  size_t n_in = nd->n_input;
  if (n_in > (size_t)TFC_MAX_ARG_LIST) return fail(im->st, name, "Node '%s' has too many inputs", name);
  in->src = tfc_pb_arena_calloc(&im->arena, n_in + 1, sizeof(int));
  in->map = tfc_pb_arena_calloc(&im->arena, n_in + 1, sizeof(int));
  in->idx = tfc_pb_arena_calloc(&im->arena, n_in + 1, sizeof(int));
  if (!in->src || !in->map || !in->idx) return oom(im->st);
  bool seen_ctrl = false;
  for (size_t k = 0; k < n_in; k++) {
    const char *s = nd->input[k] ? nd->input[k] : "";
    tname t = parse_tname(s);
    if (t.len == 0) return fail(im->st, name, "Node '%s': Malformed input name '%s'", name, s);
    if (t.ctrl) {
      seen_ctrl = true;
    } else {
      if (seen_ctrl)
        return fail(im->st, name, "Node '%s': Control dependencies must come after regular "
                    "dependencies", name);
      in->n_data++;
    }
    in->idx[k] = t.index;
    int m = map_lookup(im, &t);
    if (m == -2) return oom(im->st);
    in->map[k] = m;
    in->src[k] = -1;
    if (m >= 0) {
      im->map_used[m] = true;
      continue;
    }
    int src = gd_index(im, t.name, t.len);
    if (src < 0) return fail(im->st, name, "Node '%s': Unknown input node '%s'", name, s);
    in->src[k] = src;
    in->internal_in = true;
  }
  if (!check_colocation(im, nd)) return false;
  in->n_outputs = output_count(in->op, nd);
  return bind_arg_sizes(im, i);
}

/* qsort comparator for C strings. */
static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Pass 2b: source output indices, unused input_map keys, return elements. */
static bool check_references(importer *im) {
  for (int i = 0; i < im->n; i++) {
    imp_node *in = &im->nodes[i];
    for (int k = 0; k < in->n_data; k++) {
      int src = in->src[k];
      if (src < 0) continue;
      int no = im->nodes[src].n_outputs;
      if (no >= 0 && in->idx[k] >= no)
        return fail(im->st, in->nd->name, "Node '%s': Connecting to invalid output %d of source "
                    "node %s which has %d outputs.", in->nd->name, in->idx[k],
                    im->nodes[src].nd->name, no);
    }
  }
  int n_missing = 0;
  const char **missing = tfc_pb_arena_calloc(&im->arena, (size_t)im->n_map + 1, sizeof(char *));
  if (!missing) return oom(im->st);
  for (int m = 0; m < im->n_map; m++) {
    if (im->map_used[m]) continue;
    const tname *t = &im->map_key[m];
    int src = gd_index(im, t->name, t->len);
    bool exists = src >= 0 && (t->ctrl || im->nodes[src].n_outputs < 0 ||
                               t->index < im->nodes[src].n_outputs);
    if (!exists) missing[n_missing++] = im->map_norm[m];
  }
  if (n_missing > 0) {
    qsort(missing, (size_t)n_missing, sizeof *missing, cmp_str);
    tfc_strbuf b;
    tfc_strbuf_init(&b);
    for (int k = 0; k < n_missing; k++) tfc_strbuf_printf(&b, "%s%s", k ? ", " : "", missing[k]);
    fail(im->st, NULL, "Attempted to map inputs that were not found in graph_def: [%s]",
         tfc_strbuf_cstr(&b));
    tfc_strbuf_free(&b);
    return false;
  }
  const tfc_import_options *o = im->o;
  int nr = o ? o->n_return_elements : 0;
  for (int r = 0; r < nr; r++) {
    const char *s = o->return_elements && o->return_elements[r] ? o->return_elements[r] : "";
    tname t = parse_tname(s);
    int src = gd_index(im, t.name, t.len);
    if (!t.has_index || t.ctrl) {
      if (t.ctrl || src < 0)
        return fail(im->st, NULL, "Requested return node '%s' not found in graph def", s);
      continue;
    }
    int m = map_lookup(im, &t);
    if (m == -2) return oom(im->st);
    if (m >= 0) continue;
    if (src < 0) return fail(im->st, NULL, "Requested return tensor '%s' not found in graph def", s);
    int no = im->nodes[src].n_outputs;
    if (no >= 0 && t.index >= no)
      return fail(im->st, NULL, "Invalid return output %d of node '%s', which has %d output(s)",
                  t.index, im->nodes[src].nd->name, no);
  }
  return true;
}

/* True for op type names of the given family (plain or Ref form). */
static bool op_is(const char *op, const char *plain, const char *ref) {
  return strcmp(op, plain) == 0 || strcmp(op, ref) == 0;
}

/* Marks the data inputs of Merge nodes that come from NextIteration nodes:
 * loop back edges, left out of the topological sort and connected after
 * every node exists. */
static bool mark_back_edges(importer *im) {
  for (int i = 0; i < im->n; i++) {
    imp_node *in = &im->nodes[i];
    if (!op_is(in->op->name, "Merge", "RefMerge")) continue;
    for (int k = 0; k < in->n_data; k++) {
      int s = in->src[k];
      if (s < 0 || !op_is(im->nodes[s].op->name, "NextIteration", "RefNextIteration")) continue;
      if (!in->back) {
        in->back = tfc_pb_arena_calloc(&im->arena, (size_t)in->n_data + 1, sizeof(bool));
        if (!in->back) return oom(im->st);
      }
      in->back[k] = true;
    }
  }
  return true;
}

/* Builds consumer lists and pending counts for the topological sort. */
static bool build_edges(importer *im) {
  int total = 0;
  if (!mark_back_edges(im)) return false;
  for (int i = 0; i < im->n; i++) {
    imp_node *in = &im->nodes[i];
    for (size_t k = 0; k < in->nd->n_input; k++)
      if (in->src[k] >= 0 && !(in->back && (int)k < in->n_data && in->back[k])) {
        im->nodes[in->src[k]].n_out++;
        in->pending++;
        total++;
      }
  }
  im->out_edges = tfc_pb_arena_calloc(&im->arena, (size_t)total + 1, sizeof(int));
  if (!im->out_edges) return oom(im->st);
  int pos = 0;
  for (int i = 0; i < im->n; i++) {
    im->nodes[i].first_out = pos;
    pos += im->nodes[i].n_out;
    im->nodes[i].n_out = 0;
  }
  for (int i = 0; i < im->n; i++) {
    imp_node *in = &im->nodes[i];
    for (size_t k = 0; k < in->nd->n_input; k++)
      if (in->src[k] >= 0 && !(in->back && (int)k < in->n_data && in->back[k])) {
        imp_node *s = &im->nodes[in->src[k]];
        im->out_edges[s->first_out + s->n_out++] = i;
      }
  }
  return true;
}

/* Pushes node index v onto the min-heap h[0..*n). */
static void heap_push(int *h, int *n, int v) {
  int i = (*n)++;
  while (i > 0 && h[(i - 1) / 2] > v) {
    h[i] = h[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h[i] = v;
}

/* Pops the smallest node index from the non-empty min-heap h[0..*n). */
static int heap_pop(int *h, int *n) {
  int top = h[0], v = h[--*n], i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && h[c + 1] < h[c]) c++;
    if (h[c] >= v) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = v;
  return top;
}

/* Orders nodes topologically into order[]: Kahn's algorithm always taking
 * the ready node that comes first in the GraphDef, so a GraphDef that is
 * already in topological order keeps its order. INVALID_ARGUMENT "N nodes in
 * a cycle" when some nodes never become ready. */
static bool topo_order(importer *im, int *order) {
  int *heap = tfc_pb_arena_calloc(&im->arena, (size_t)im->n + 1, sizeof(int));
  if (!heap) return oom(im->st);
  int nh = 0, done = 0;
  for (int i = 0; i < im->n; i++)
    if (im->nodes[i].pending == 0) heap_push(heap, &nh, i);
  while (nh > 0) {
    int v = heap_pop(heap, &nh);
    order[done++] = v;
    imp_node *s = &im->nodes[v];
    for (int e = 0; e < s->n_out; e++) {
      int c = im->out_edges[s->first_out + e];
      if (--im->nodes[c].pending == 0) heap_push(heap, &nh, c);
    }
  }
  if (done < im->n) return fail(im->st, NULL, "%d nodes in a cycle", im->n - done);
  return true;
}

/* True when `name` is taken in the graph or by this import. */
static bool name_taken(importer *im, const char *name) {
  bool found = false;
  tfc_hashmap_get(&im->final_names, name, strlen(name), &found);
  return found || tfc_graph_find(im->g, name) != NULL;
}

/* Pass 2c: final names (prefix, uniquify) for every node. */
static bool assign_names(importer *im) {
  const char *prefix = im->o && im->o->prefix && *im->o->prefix ? im->o->prefix : NULL;
  bool uniquify = im->o && im->o->uniquify_names;
  tfc_hashmap natural;
  tfc_hashmap_init(&natural);
  bool ok = true;
  for (int i = 0; i < im->n && ok; i++) {
    const char *name = im->nodes[i].nd->name;
    size_t len = strlen(name) + (prefix ? strlen(prefix) + 1 : 0);
    char *fn = tfc_pb_arena_alloc(&im->arena, len + 1);
    if (!fn) {
      ok = oom(im->st);
      break;
    }
    if (prefix)
      snprintf(fn, len + 1, "%s/%s", prefix, name);
    else
      memcpy(fn, name, len + 1);
    im->nodes[i].final_name = fn;
    if (tfc_hashmap_put(&natural, fn, len, NULL) != 0) ok = oom(im->st);
  }
  for (int i = 0; i < im->n && ok; i++) {
    imp_node *in = &im->nodes[i];
    const char *fn = in->final_name;
    if (name_taken(im, fn)) {
      if (!uniquify) {
        ok = fail(im->st, fn, "Node name '%s' already exists in the Graph", fn);
        break;
      }
      size_t cap = strlen(fn) + 24;
      char *cand = tfc_pb_arena_alloc(&im->arena, cap);
      if (!cand) {
        ok = oom(im->st);
        break;
      }
      for (long k = 1;; k++) {
        snprintf(cand, cap, "%s_%ld", fn, k);
        bool natural_clash = false;
        tfc_hashmap_get(&natural, cand, strlen(cand), &natural_clash);
        if (!natural_clash && !name_taken(im, cand)) break;
      }
      in->final_name = cand;
    }
    if (tfc_hashmap_put(&im->final_names, in->final_name, strlen(in->final_name), NULL) != 0)
      ok = oom(im->st);
  }
  tfc_hashmap_destroy(&natural);
  return ok;
}

/* The `_class` value for an imported node: "loc:@x" entries naming GraphDef
 * nodes are rewritten to their final names. */
static bool rewrite_class(importer *im, const Tensorflow__AttrValue *v, const char *node,
                          tfc_attrs *attrs) {
  if (!v || v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !v->list || v->list->n_s == 0)
    return true;
  const Tensorflow__AttrValue__ListValue *l = v->list;
  if (l->n_s > (size_t)TFC_MAX_ARG_LIST) return fail(im->st, node, "Node '%s': _class too long", node);
  tfc_attr_value lv = tfc_attr_list_new(TFC_ATTR_S, (int)l->n_s);
  if (lv.kind != TFC_ATTR_LIST) return oom(im->st);
  for (size_t k = 0; k < l->n_s; k++) {
    const char *s = (const char *)l->s[k].data;
    size_t len = l->s[k].len;
    const char *rep = NULL;
    if (len > 5 && memcmp(s, "loc:@", 5) == 0) {
      int src = gd_index(im, s + 5, len - 5);
      if (src >= 0) rep = im->nodes[src].final_name;
    }
    tfc_attr_value sv;
    if (rep) {
      size_t rl = strlen(rep) + 6;
      char *buf = tfc_malloc(rl);
      if (!buf) {
        tfc_attr_value_clear(&lv);
        return oom(im->st);
      }
      snprintf(buf, rl, "loc:@%s", rep);
      sv = tfc_attr_string(buf, rl - 1);
      tfc_free(buf);
    } else {
      sv = tfc_attr_string(s, len);
    }
    if (sv.kind != TFC_ATTR_S) {
      tfc_attr_value_clear(&lv);
      return oom(im->st);
    }
    lv.v.list.v.s[k] = sv.v.s;
  }
  return tfc_attrs_set(attrs, "_class", &lv, im->st);
}

/* Converts node i's attrs: known attrs of its op, plus `_class`. */
static bool node_attrs(importer *im, int i, tfc_attrs *attrs) {
  const imp_node *in = &im->nodes[i];
  const Tensorflow__NodeDef *nd = in->nd;
  for (size_t k = 0; k < nd->n_attr; k++) {
    Tensorflow__NodeDef__AttrEntry *e = nd->attr[k];
    if (!e || !e->key) continue;
    if (e->key[0] == '_') {
      if (strcmp(e->key, "_class") == 0 && !rewrite_class(im, e->value, nd->name, attrs)) return false;
      continue;
    }
    if (!tfc_op_find_attr(in->op, e->key)) continue;  /* unknown: ignored, as TF does */
    tfc_attr_value v;
    if (!attr_from_pb(e->value, nd->name, e->key, &v, im->st)) return false;
    if (!tfc_attrs_set(attrs, e->key, &v, im->st)) return false;
  }
  return true;
}

/* Pass 3 for node i: builds the request and adds the node. */
static bool add_one(importer *im, int i) {
  imp_node *in = &im->nodes[i];
  const Tensorflow__NodeDef *nd = in->nd;
  const tfc_import_options *o = im->o;
  int n_in = (int)nd->n_input;
  int n_extra = (o && !in->internal_in && o->n_control_dependencies > 0 && o->control_dependencies)
                    ? o->n_control_dependencies : 0;
  tfc_endpoint *ins = tfc_malloc(sizeof *ins * (size_t)(in->n_data + 1));
  int *ctrl = tfc_malloc(sizeof(int) * (size_t)(n_in - in->n_data + n_extra + 1));
  if (!ins || !ctrl) {
    tfc_free(ins);
    tfc_free(ctrl);
    return oom(im->st);
  }
  int nc = 0;
  int stand_in = -1; /* a forward input standing in for back edges until they are connected */
  for (int k = 0; in->back && k < in->n_data && stand_in < 0; k++)
    if (!in->back[k] || in->map[k] >= 0) stand_in = k;
  if (in->back && stand_in < 0) {
    tfc_free(ins);
    tfc_free(ctrl);
    return fail(im->st, NULL, "Merge node '%s' has no input from outside its loop", nd->name);
  }
  for (int k = 0; k < n_in; k++) {
    tfc_endpoint e;
    int kk = (in->back && k < in->n_data && in->back[k] && in->map[k] < 0) ? stand_in : k;
    if (in->map[kk] >= 0) {
      e = o->input_map[in->map[kk]].value;
    } else if (kk != k) {
      e.node = im->nodes[in->src[kk]].new_id;
      e.index = in->idx[kk];
    } else {
      e.node = im->nodes[in->src[k]].new_id;
      e.index = in->idx[k];
    }
    if (k < in->n_data)
      ins[k] = e;
    else
      ctrl[nc++] = e.node;
  }
  for (int k = 0; k < n_extra; k++) ctrl[nc++] = o->control_dependencies[k];
  tfc_attrs attrs;
  tfc_attrs_init(&attrs);
  bool ok = node_attrs(im, i, &attrs);
  if (ok) {
    const char *dev = nd->device && *nd->device ? nd->device
                      : o && o->default_device ? o->default_device : "";
    tfc_node_request req = {
        .op_type = in->op->name,
        .name = in->final_name,
        .device = dev,
        .n_args = in->op->n_inputs,
        .arg_sizes = in->arg_sizes,
        .inputs = ins,
        .n_control = nc,
        .control_inputs = ctrl,
        .attrs = &attrs,
        .internal_name = im->o && im->o->internal_names,
    };
    tfc_node *node = tfc_graph_add_node(im->g, &req, im->st);
    ok = node != NULL;
    if (ok) {
      in->new_id = node->id;
      in->n_outputs = node->n_outputs;
    }
  }
  tfc_attrs_destroy(&attrs);
  tfc_free(ins);
  tfc_free(ctrl);
  return ok;
}

/* Connects the loop back edges left out by add_one. */
static bool connect_back_edges(importer *im) {
  for (int i = 0; i < im->n; i++) {
    imp_node *in = &im->nodes[i];
    if (!in->back) continue;
    tfc_node *node = tfc_graph_node(im->g, in->new_id);
    for (int k = 0; k < in->n_data; k++) {
      if (!in->back[k] || in->map[k] >= 0) continue;
      const imp_node *src = &im->nodes[in->src[k]];
      tfc_endpoint e = {src->new_id, in->idx[k]};
      if (!tfc_node_update_input(im->g, node, k, e, im->st)) {
        tfc_status_set_node(im->st, node->name);
        return false;
      }
    }
  }
  return true;
}

/* Resolves options->return_elements into res (after all nodes are added). */
static bool resolve_returns(importer *im, tfc_import_result *res) {
  const tfc_import_options *o = im->o;
  int nr = o ? o->n_return_elements : 0;
  if (nr <= 0 || !res) return true;
  res->returns = tfc_calloc((size_t)nr, sizeof *res->returns);
  if (!res->returns) return oom(im->st);
  res->n_returns = nr;
  for (int r = 0; r < nr; r++) {
    tname t = parse_tname(o->return_elements[r]);
    tfc_import_element *e = &res->returns[r];
    int m = t.has_index ? map_lookup(im, &t) : -1;
    if (m == -2) return oom(im->st);
    if (m >= 0) {
      e->node = o->input_map[m].value.node;
      e->index = o->input_map[m].value.index;
      continue;
    }
    const imp_node *in = &im->nodes[gd_index(im, t.name, t.len)];
    e->node = in->new_id;
    e->index = t.has_index ? t.index : -1;
    if (t.has_index && t.index >= in->n_outputs)
      return fail(im->st, NULL, "Invalid return output %d of node '%s', which has %d output(s)",
                  t.index, in->nd->name, in->n_outputs);
  }
  return true;
}

/* Adds the GraphDef's functions and gradients to g's library (before any
 * node binds, so nodes may call them by name). */
static bool add_library(tfc_graph *g, const Tensorflow__GraphDef *gd, tfc_status *st) {
  if (!gd->library) return true;
  g->has_library = true;
  void *bytes = NULL;
  size_t n = 0;
  bool ok = tfc_pb_pack(&gd->library->base, NULL, 0, &bytes, &n, st) &&
            tfc_func_lib_add_library(g->library, bytes, n, st);
  tfc_free(bytes);
  return ok;
}

/* Serializes the GraphDef's library (if any) into res. */
static bool keep_library(importer *im, const Tensorflow__GraphDef *gd, tfc_import_result *res) {
  if (!res || !gd->library) return true;
  size_t n = protobuf_c_message_get_packed_size(&gd->library->base);
  res->library = tfc_malloc(n + 1);  /* non-NULL even when empty: `library {}` */
  if (!res->library) return oom(im->st);
  res->library_len = protobuf_c_message_pack(&gd->library->base, res->library);
  return true;
}

/* Frees what a result owns and zeroes it. */
void tfc_import_result_clear(tfc_import_result *res) {
  if (!res) return;
  tfc_free(res->nodes);
  tfc_free(res->returns);
  tfc_free(res->library);
  memset(res, 0, sizeof *res);
}

/* Imports a serialized GraphDef; see graphdef.h. */
bool tfc_graph_import(tfc_graph *g, const void *data, size_t len, const tfc_import_options *opts,
                      tfc_import_result *res, tfc_status *st) {
  if (res) memset(res, 0, sizeof *res);
  tfc_status_clear(st);
  pthread_mutex_lock(&g->mu);
  bool finalized = g->finalized;
  pthread_mutex_unlock(&g->mu);
  if (finalized)
    return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "Graph is finalized and cannot be modified.");
  if (!tfc_op_registry_load(st)) return false;
  Tensorflow__GraphDef *gd = (Tensorflow__GraphDef *)tfc_pb_unpack(
      &tensorflow__graph_def__descriptor, data, len, "GraphDef", st);
  if (!gd) return false;
  if (opts && opts->resource_variables_as_ref && !tfc_pb_rewrite_resource_variables(gd, g, st)) {
    protobuf_c_message_free_unpacked(&gd->base, &tfc_pb_allocator);
    return false;
  }
  importer im;
  memset(&im, 0, sizeof im);
  im.g = g;
  im.o = opts;
  im.st = st;
  tfc_pb_arena_init(&im.arena);
  tfc_hashmap_init(&im.by_name);
  tfc_hashmap_init(&im.map_index);
  tfc_hashmap_init(&im.final_names);
  int graph_was_empty = tfc_graph_num_nodes(g) == 0;
  int *order = NULL;
  bool ok = add_library(g, gd, st) && index_nodes(&im, gd);
  for (int i = 0; ok && i < im.n; i++) ok = resolve_node(&im, i);
  ok = ok && check_references(&im) && build_edges(&im);
  if (ok) {
    order = tfc_pb_arena_calloc(&im.arena, (size_t)im.n + 1, sizeof(int));
    ok = order ? topo_order(&im, order) : oom(st);
  }
  ok = ok && assign_names(&im);
  if (ok && res) {
    res->nodes = tfc_calloc((size_t)im.n + 1, sizeof(int));
    if (!res->nodes) ok = oom(st);
  }
  for (int k = 0; ok && k < im.n; k++) ok = add_one(&im, order[k]);
  ok = ok && connect_back_edges(&im);
  if (ok && res) {
    res->n_nodes = im.n;
    for (int i = 0; i < im.n; i++) res->nodes[i] = im.nodes[i].new_id;
  }
  ok = ok && resolve_returns(&im, res) && keep_library(&im, gd, res);
  if (ok && gd->versions) {
    if (res) {
      res->producer = gd->versions->producer;
      res->min_consumer = gd->versions->min_consumer;
    }
    if (graph_was_empty && gd->versions->producer > 0) {
      pthread_mutex_lock(&g->mu);
      g->producer = gd->versions->producer;
      pthread_mutex_unlock(&g->mu);
    }
  }
  if (!ok) tfc_import_result_clear(res);
  tfc_hashmap_destroy(&im.by_name);
  tfc_hashmap_destroy(&im.map_index);
  tfc_hashmap_destroy(&im.final_names);
  tfc_pb_arena_free(&im.arena);
  protobuf_c_message_free_unpacked(&gd->base, &tfc_pb_allocator);
  return ok;
}

/* ------------------------------------------------------------ export */

/* Fills *out (initialised here) with v; storage from the arena, strings and
 * tensor data borrowed from v. false on OOM. */
static bool attr_to_pb(const tfc_attr_value *v, tfc_pb_arena *a, Tensorflow__AttrValue *out,
                       tfc_status *st) {
  static uint8_t empty[1];
  tensorflow__attr_value__init(out);
  switch (v->kind) {
    case TFC_ATTR_S:
      out->value_case = TENSORFLOW__ATTR_VALUE__VALUE_S;
      out->s.len = v->v.s.len;
      out->s.data = v->v.s.len ? (uint8_t *)v->v.s.data : empty;
      return true;
    case TFC_ATTR_I:
      out->value_case = TENSORFLOW__ATTR_VALUE__VALUE_I;
      out->i = v->v.i;
      return true;
    case TFC_ATTR_F:
      out->value_case = TENSORFLOW__ATTR_VALUE__VALUE_F;
      out->f = v->v.f;
      return true;
    case TFC_ATTR_B:
      out->value_case = TENSORFLOW__ATTR_VALUE__VALUE_B;
      out->b = v->v.b;
      return true;
    case TFC_ATTR_TYPE:
      out->value_case = TENSORFLOW__ATTR_VALUE__VALUE_TYPE;
      out->type = (Tensorflow__DataType)v->v.type;
      return true;
    case TFC_ATTR_SHAPE:
      out->value_case = TENSORFLOW__ATTR_VALUE__VALUE_SHAPE;
      out->shape = tfc_shape_to_pb(&v->v.shape, a);
      return out->shape || oom(st);
    case TFC_ATTR_TENSOR:
      out->value_case = TENSORFLOW__ATTR_VALUE__VALUE_TENSOR;
      out->tensor = tfc_pb_arena_alloc(a, sizeof *out->tensor);
      if (!out->tensor) return oom(st);
      return tfc_tensor_to_pb(v->v.tensor, TFC_TENSOR_PB_COMPACT, a, out->tensor, st);
    case TFC_ATTR_FUNC: {
      out->value_case = TENSORFLOW__ATTR_VALUE__VALUE_FUNC;
      out->func = tfc_pb_arena_alloc(a, sizeof *out->func);
      if (!out->func) return oom(st);
      tensorflow__name_attr_list__init(out->func);
      out->func->name = tfc_pb_arena_strndup(a, v->v.s.data ? v->v.s.data : "", v->v.s.len);
      return out->func->name || oom(st);
    }
    case TFC_ATTR_LIST: break;
    default:
      return true;  /* NONE: an AttrValue with no value */
  }
  const tfc_attr_list *l = &v->v.list;
  Tensorflow__AttrValue__ListValue *lv = tfc_pb_arena_alloc(a, sizeof *lv);
  if (!lv) return oom(st);
  tensorflow__attr_value__list_value__init(lv);
  out->value_case = TENSORFLOW__ATTR_VALUE__VALUE_LIST;
  out->list = lv;
  size_t n = l->n > 0 ? (size_t)l->n : 0;
  if (n == 0) return true;
  switch (l->kind) {
    case TFC_ATTR_S:
      if (!(lv->s = tfc_pb_arena_calloc(a, n, sizeof *lv->s))) return oom(st);
      for (size_t i = 0; i < n; i++) {
        lv->s[i].len = l->v.s[i].len;
        lv->s[i].data = l->v.s[i].len ? (uint8_t *)l->v.s[i].data : empty;
      }
      lv->n_s = n;
      return true;
    case TFC_ATTR_I:
      lv->i = l->v.i;  /* same layout: int64_t */
      lv->n_i = n;
      return true;
    case TFC_ATTR_F:
      lv->f = l->v.f;
      lv->n_f = n;
      return true;
    case TFC_ATTR_B:
      if (!(lv->b = tfc_pb_arena_calloc(a, n, sizeof *lv->b))) return oom(st);
      for (size_t i = 0; i < n; i++) lv->b[i] = l->v.b[i];
      lv->n_b = n;
      return true;
    case TFC_ATTR_TYPE:
      if (!(lv->type = tfc_pb_arena_calloc(a, n, sizeof *lv->type))) return oom(st);
      for (size_t i = 0; i < n; i++) lv->type[i] = (Tensorflow__DataType)l->v.type[i];
      lv->n_type = n;
      return true;
    case TFC_ATTR_SHAPE:
      if (!(lv->shape = tfc_pb_arena_calloc(a, n, sizeof *lv->shape))) return oom(st);
      for (size_t i = 0; i < n; i++)
        if (!(lv->shape[i] = tfc_shape_to_pb(&l->v.shape[i], a))) return oom(st);
      lv->n_shape = n;
      return true;
    case TFC_ATTR_TENSOR:
      if (!(lv->tensor = tfc_pb_arena_calloc(a, n, sizeof *lv->tensor))) return oom(st);
      for (size_t i = 0; i < n; i++) {
        if (!(lv->tensor[i] = tfc_pb_arena_alloc(a, sizeof *lv->tensor[i]))) return oom(st);
        if (!tfc_tensor_to_pb(l->v.tensor[i], TFC_TENSOR_PB_COMPACT, a, lv->tensor[i], st)) return false;
      }
      lv->n_tensor = n;
      return true;
    case TFC_ATTR_FUNC:
      if (!(lv->func = tfc_pb_arena_calloc(a, n, sizeof *lv->func))) return oom(st);
      for (size_t i = 0; i < n; i++) {
        Tensorflow__NameAttrList *f = tfc_pb_arena_alloc(a, sizeof *f);
        if (!f) return oom(st);
        tensorflow__name_attr_list__init(f);
        f->name = tfc_pb_arena_strndup(a, l->v.func[i].data ? l->v.func[i].data : "", l->v.func[i].len);
        if (!f->name) return oom(st);
        lv->func[i] = f;
      }
      lv->n_func = n;
      return true;
    default:
      return true;
  }
}

/* qsort comparator: attr entries in the order TF 2.x Python's deterministic
 * serializer (upb) writes map keys, so exports match its files byte for
 * byte: bytewise, except that a key comes before its own prefixes ("Tidx"
 * before "T"). */
static int cmp_entry(const void *a, const void *b) {
  const char *x = (*(Tensorflow__NodeDef__AttrEntry *const *)a)->key;
  const char *y = (*(Tensorflow__NodeDef__AttrEntry *const *)b)->key;
  size_t lx = strlen(x), ly = strlen(y);
  int c = memcmp(x, y, lx < ly ? lx : ly);
  if (c) return c;
  return lx == ly ? 0 : lx > ly ? -1 : 1;
}

/* A new attr entry (key borrowed) in the arena, or NULL. */
static Tensorflow__NodeDef__AttrEntry *new_entry(tfc_pb_arena *a, const char *key) {
  Tensorflow__NodeDef__AttrEntry *e = tfc_pb_arena_alloc(a, sizeof *e);
  Tensorflow__AttrValue *v = tfc_pb_arena_alloc(a, sizeof *v);
  if (!e || !v) return NULL;
  tensorflow__node_def__attr_entry__init(e);
  tensorflow__attr_value__init(v);
  e->key = (char *)key;
  e->value = v;
  return e;
}

/* tfc value -> AttrValue message (graphdef_pb.h). */
bool tfc_pb_attr_from_tfc(const tfc_attr_value *v, tfc_pb_arena *a, Tensorflow__AttrValue *out,
                          tfc_status *st) {
  return attr_to_pb(v, a, out, st);
}

/* Fills nd from graph node n. */
static bool node_to_pb(tfc_graph *g, const tfc_node *n, const tfc_export_options *o,
                       tfc_pb_arena *a, Tensorflow__NodeDef *nd, tfc_status *st) {
  tensorflow__node_def__init(nd);
  nd->name = n->name;
  nd->op = n->def->name;
  nd->device = n->device ? n->device : "";
  size_t n_in = (size_t)n->n_inputs + (size_t)n->n_control;
  nd->input = tfc_pb_arena_calloc(a, n_in + 1, sizeof *nd->input);
  if (!nd->input) return oom(st);
  for (int k = 0; k < n->n_inputs; k++) {
    const tfc_node *src = tfc_graph_node(g, n->inputs[k].node);
    size_t cap = strlen(src->name) + 16;
    char *s = tfc_pb_arena_alloc(a, cap);
    if (!s) return oom(st);
    if (n->inputs[k].index == 0)
      memcpy(s, src->name, cap - 16 + 1);
    else
      snprintf(s, cap, "%s:%d", src->name, n->inputs[k].index);
    nd->input[k] = s;
  }
  for (int k = 0; k < n->n_control; k++) {
    const tfc_node *src = tfc_graph_node(g, n->control_inputs[k]);
    size_t cap = strlen(src->name) + 2;
    char *s = tfc_pb_arena_alloc(a, cap);
    if (!s) return oom(st);
    snprintf(s, cap, "^%s", src->name);
    nd->input[n->n_inputs + k] = s;
  }
  nd->n_input = n_in;
  size_t n_attr = (size_t)n->attrs.n + (n->colocate_with ? 1 : 0) + (o->add_shapes ? 1 : 0);
  nd->attr = tfc_pb_arena_calloc(a, n_attr + 1, sizeof *nd->attr);
  if (!nd->attr) return oom(st);
  size_t w = 0;
  for (int k = 0; k < n->attrs.n; k++) {
    Tensorflow__NodeDef__AttrEntry *e = new_entry(a, n->attrs.items[k].name);
    if (!e) return oom(st);
    if (!attr_to_pb(&n->attrs.items[k].value, a, e->value, st)) return false;
    nd->attr[w++] = e;
  }
  if (n->colocate_with) {
    Tensorflow__NodeDef__AttrEntry *e = new_entry(a, "_class");
    Tensorflow__AttrValue__ListValue *lv = tfc_pb_arena_alloc(a, sizeof *lv);
    ProtobufCBinaryData *s = tfc_pb_arena_alloc(a, sizeof *s);
    size_t cap = strlen(n->colocate_with) + 6;
    char *text = tfc_pb_arena_alloc(a, cap);
    if (!e || !lv || !s || !text) return oom(st);
    snprintf(text, cap, "loc:@%s", n->colocate_with);
    tensorflow__attr_value__list_value__init(lv);
    s->data = (uint8_t *)text;
    s->len = cap - 1;
    lv->s = s;
    lv->n_s = 1;
    e->value->value_case = TENSORFLOW__ATTR_VALUE__VALUE_LIST;
    e->value->list = lv;
    nd->attr[w++] = e;
  }
  if (o->add_shapes) {
    Tensorflow__NodeDef__AttrEntry *e = new_entry(a, "_output_shapes");
    if (!e) return oom(st);
    tfc_attr_value lv;
    memset(&lv, 0, sizeof lv);
    lv.kind = TFC_ATTR_LIST;
    lv.v.list.kind = TFC_ATTR_SHAPE;
    lv.v.list.n = n->n_outputs;
    lv.v.list.v.shape = n->out_shapes;
    if (!attr_to_pb(&lv, a, e->value, st)) return false;
    nd->attr[w++] = e;
  }
  qsort(nd->attr, w, sizeof *nd->attr, cmp_entry);
  nd->n_attr = w;
  return true;
}

/* Serializes g with options; see graphdef.h. */
bool tfc_graph_export_ex(tfc_graph *g, const tfc_export_options *opts, void **data, size_t *len,
                         tfc_status *st) {
  static const tfc_export_options defaults = {0};
  const tfc_export_options *o = opts ? opts : &defaults;
  tfc_status_clear(st);
  int n = tfc_graph_num_nodes(g);
  int end = o->end_node > 0 && o->end_node < n ? o->end_node : n;
  int first = o->first_node > 0 ? (o->first_node < end ? o->first_node : end) : 0;
  size_t count = (size_t)(end - first);
  tfc_pb_arena a;
  tfc_pb_arena_init(&a);
  Tensorflow__GraphDef gd;
  Tensorflow__VersionDef versions;
  tensorflow__graph_def__init(&gd);
  tensorflow__version_def__init(&versions);
  pthread_mutex_lock(&g->mu);
  versions.producer = g->producer;
  pthread_mutex_unlock(&g->mu);
  /* Fields after `node` are appended as bytes in number order (library = 2,
   * versions = 4), as TF's deterministic serializer orders them. */
  uint8_t vbytes[64];
  size_t vlen = tensorflow__version_def__pack(&versions, vbytes);
  tfc_pb_field tail[2];
  int n_tail = 0;
  void *own_lib = NULL;
  size_t own_lib_len = 0;
  if (o->library) {
    tail[n_tail++] = (tfc_pb_field){2, o->library, o->library_len};
  } else if (g->has_library || tfc_func_lib_size(g->library) > 0) {
    if (!tfc_func_lib_export(g->library, &own_lib, &own_lib_len, st)) {
      tfc_pb_arena_free(&a);
      return false;
    }
    tail[n_tail++] = (tfc_pb_field){2, own_lib, own_lib_len};
  }
  tail[n_tail++] = (tfc_pb_field){4, vbytes, vlen};
  Tensorflow__NodeDef *nds = tfc_pb_arena_calloc(&a, count + 1, sizeof *nds);
  gd.node = tfc_pb_arena_calloc(&a, count + 1, sizeof *gd.node);
  bool ok = (nds && gd.node) || oom(st);
  for (size_t i = 0; ok && i < count; i++) {
    ok = node_to_pb(g, tfc_graph_node(g, first + (int)i), o, &a, &nds[i], st);
    gd.node[i] = &nds[i];
  }
  if (ok) {
    gd.n_node = count;
    ok = tfc_pb_pack(&gd.base, tail, n_tail, data, len, st);
  }
  tfc_free(own_lib);
  tfc_pb_arena_free(&a);
  return ok;
}

/* Serializes the whole graph; see graphdef.h. */
bool tfc_graph_export(tfc_graph *g, void **data, size_t *len, tfc_status *st) {
  return tfc_graph_export_ex(g, NULL, data, len, st);
}

/* ------------------------------------------------------------ partition export */

/* Name of snode k of partition p as written (synthesized nodes get the suffix). */
static char *pe_name(const tfc_snode *sn, const char *suffix, tfc_pb_arena *a) {
  if (sn->gnode || !suffix || !suffix[0]) return (char *)sn->name;
  size_t n = strlen(sn->name) + strlen(suffix) + 1;
  char *s = tfc_pb_arena_alloc(a, n);
  if (s) snprintf(s, n, "%s%s", sn->name, suffix);
  return s;
}

/* An arena string "name" or "name:index". */
static char *pe_input(const char *name, int index, tfc_pb_arena *a) {
  size_t n = strlen(name) + 16;
  char *s = tfc_pb_arena_alloc(a, n);
  if (!s) return NULL;
  if (index == 0)
    snprintf(s, n, "%s", name);
  else
    snprintf(s, n, "%s:%d", name, index);
  return s;
}

/* A NodeDef attr entry from a value (borrowed storage). */
static Tensorflow__NodeDef__AttrEntry *pe_attr(tfc_pb_arena *a, const char *key, const tfc_attr_value *v,
                                               tfc_status *st) {
  Tensorflow__NodeDef__AttrEntry *e = new_entry(a, key);
  if (!e) {
    oom(st);
    return NULL;
  }
  if (!attr_to_pb(v, a, e->value, st)) return NULL;
  return e;
}

/* Fills a client-terminated _Send/_Recv NodeDef. */
static bool pe_sendrecv(tfc_pb_arena *a, Tensorflow__NodeDef *nd, bool is_send, const char *name,
                        const char *input, tfc_dtype dt, const char *tensor_name, const char *send_dev,
                        const char *recv_dev, int64_t incarnation, const char *device, tfc_status *st) {
  tensorflow__node_def__init(nd);
  nd->name = (char *)name;
  nd->op = is_send ? "_Send" : "_Recv";
  nd->device = (char *)device;
  if (is_send) {
    nd->input = tfc_pb_arena_calloc(a, 1, sizeof *nd->input);
    if (!nd->input) return oom(st);
    nd->input[0] = (char *)input;
    nd->n_input = 1;
  }
  tfc_attr_value vals[6];
  const char *keys[6] = {is_send ? "T" : "tensor_type", "client_terminated", "recv_device", "send_device",
                         "send_device_incarnation", "tensor_name"};
  memset(vals, 0, sizeof vals);
  vals[0].kind = TFC_ATTR_TYPE;
  vals[0].v.type = dt;
  vals[1].kind = TFC_ATTR_B;
  vals[1].v.b = true;
  vals[2].kind = TFC_ATTR_S;
  vals[2].v.s.data = (char *)recv_dev;
  vals[2].v.s.len = strlen(recv_dev);
  vals[3].kind = TFC_ATTR_S;
  vals[3].v.s.data = (char *)send_dev;
  vals[3].v.s.len = strlen(send_dev);
  vals[4].kind = TFC_ATTR_I;
  vals[4].v.i = incarnation;
  vals[5].kind = TFC_ATTR_S;
  vals[5].v.s.data = (char *)tensor_name;
  vals[5].v.s.len = strlen(tensor_name);
  nd->attr = tfc_pb_arena_calloc(a, 6, sizeof *nd->attr);
  if (!nd->attr) return oom(st);
  for (int i = 0; i < 6; i++)
    if (!(nd->attr[i] = pe_attr(a, keys[i], &vals[i], st))) return false;
  nd->n_attr = 6;
  qsort(nd->attr, 6, sizeof *nd->attr, cmp_entry);
  return true;
}

/* Replaces characters TF does not allow in node names. */
static void pe_sanitize(char *s) {
  for (; *s; s++)
    if (*s == ':' || *s == '^') *s = '_';
}

/* Serializes one partition (see graphdef.h). */
bool tfc_partition_export(const tfc_subgraph *sg, int part, const tfc_partition_export_options *o,
                          void **data, size_t *len, tfc_status *st) {
  tfc_status_clear(st);
  const tfc_partition *p = &sg->parts[part];
  tfc_pb_arena a;
  tfc_pb_arena_init(&a);
  Tensorflow__GraphDef gd;
  Tensorflow__VersionDef versions;
  tensorflow__graph_def__init(&gd);
  tensorflow__version_def__init(&versions);
  versions.producer = o->producer;
  uint8_t vbytes[64];
  size_t vlen = tensorflow__version_def__pack(&versions, vbytes);
  tfc_pb_field tail[2];
  int n_tail = 0;
  if (o->library) tail[n_tail++] = (tfc_pb_field){2, o->library, o->library_len};
  tail[n_tail++] = (tfc_pb_field){4, vbytes, vlen};
  /* which feeds this partition reads, which fetches it holds */
  int nf = sg->n_feeds, nx = sg->n_fetches;
  char **feed_node = tfc_pb_arena_calloc(&a, (size_t)nf + 1, sizeof(char *));
  tfc_dtype *feed_type = tfc_pb_arena_calloc(&a, (size_t)nf + 1, sizeof(tfc_dtype));
  size_t cap = (size_t)p->n + (size_t)nf + (size_t)nx + 1;
  Tensorflow__NodeDef *nds = tfc_pb_arena_calloc(&a, cap, sizeof *nds);
  gd.node = tfc_pb_arena_calloc(&a, cap, sizeof *gd.node);
  char **names = tfc_pb_arena_calloc(&a, (size_t)p->n + 1, sizeof(char *));
  bool ok = (feed_node && feed_type && nds && gd.node && names) || oom(st);
  for (int i = 0; ok && i < p->n; i++) ok = (names[i] = pe_name(&p->nodes[i], o->suffix, &a)) || oom(st);
  for (int i = 0; ok && i < p->n; i++) {
    const tfc_snode *sn = &p->nodes[i];
    for (int k = 0; k < sn->n_inputs; k++)
      if (sn->inputs[k].src < 0 && !feed_node[sn->inputs[k].index]) {
        int f = sn->inputs[k].index;
        size_t n = strlen(o->feed_names[f]) + 32;
        char *nm = tfc_pb_arena_alloc(&a, n);
        if (!nm) {
          ok = oom(st);
          break;
        }
        snprintf(nm, n, "_recv_%s_%d", o->feed_names[f], f);
        pe_sanitize(nm);
        feed_node[f] = nm;
        feed_type[f] = tfc_dtype_base(sn->in_types[k]);
      }
  }
  size_t w = 0;
  for (int f = 0; ok && f < nf; f++) {
    if (!feed_node[f]) continue;
    ok = pe_sendrecv(&a, &nds[w], false, feed_node[f], NULL, feed_type[f], o->feed_names[f], o->client_device,
                     o->device_name, o->client_incarnation, o->device_name, st);
    gd.node[w] = &nds[w];
    w++;
  }
  for (int i = 0; ok && i < p->n; i++) {
    const tfc_snode *sn = &p->nodes[i];
    Tensorflow__NodeDef *nd = &nds[w];
    tensorflow__node_def__init(nd);
    nd->name = names[i];
    nd->op = (char *)sn->def->name;
    nd->device = (char *)o->device_name;
    size_t n_in = (size_t)sn->n_inputs + (size_t)sn->n_control;
    nd->input = tfc_pb_arena_calloc(&a, n_in + 1, sizeof *nd->input);
    if (!nd->input) {
      ok = oom(st);
      break;
    }
    for (int k = 0; ok && k < sn->n_inputs; k++) {
      const tfc_sinput *in = &sn->inputs[k];
      nd->input[k] = in->src < 0 ? feed_node[in->index] : pe_input(names[in->src], in->index, &a);
      ok = nd->input[k] || oom(st);
    }
    for (int k = 0; ok && k < sn->n_control; k++) {
      const char *src = names[sn->control[k]];
      size_t n = strlen(src) + 2;
      char *s = tfc_pb_arena_alloc(&a, n);
      if (!s) {
        ok = oom(st);
        break;
      }
      snprintf(s, n, "^%s", src);
      nd->input[sn->n_inputs + k] = s;
    }
    if (!ok) break;
    nd->n_input = n_in;
    nd->attr = tfc_pb_arena_calloc(&a, (size_t)sn->attrs->n + 1, sizeof *nd->attr);
    if (!nd->attr) {
      ok = oom(st);
      break;
    }
    for (int k = 0; ok && k < sn->attrs->n; k++)
      ok = (nd->attr[k] = pe_attr(&a, sn->attrs->items[k].name, &sn->attrs->items[k].value, st)) != NULL;
    if (!ok) break;
    nd->n_attr = (size_t)sn->attrs->n;
    qsort(nd->attr, nd->n_attr, sizeof *nd->attr, cmp_entry);
    gd.node[w] = nd;
    w++;
  }
  for (int i = 0; ok && i < nx; i++) {
    const tfc_fetch_loc *fl = &sg->fetches[i];
    if (fl->feed >= 0 || fl->part != part) continue;
    size_t n = strlen(o->fetch_names[i]) + 32;
    char *nm = tfc_pb_arena_alloc(&a, n);
    char *in = pe_input(names[fl->snode], fl->index, &a);
    if (!nm || !in) {
      ok = oom(st);
      break;
    }
    snprintf(nm, n, "_send_%s_%d", o->fetch_names[i], i);
    pe_sanitize(nm);
    tfc_dtype dt = tfc_dtype_base(p->nodes[fl->snode].out_types[fl->index]);
    ok = pe_sendrecv(&a, &nds[w], true, nm, in, dt, o->fetch_names[i], o->device_name, o->client_device,
                     o->device_incarnation, o->device_name, st);
    gd.node[w] = &nds[w];
    w++;
  }
  if (ok) {
    gd.n_node = w;
    ok = tfc_pb_pack(&gd.base, tail, n_tail, data, len, st);
  }
  tfc_pb_arena_free(&a);
  return ok;
}
