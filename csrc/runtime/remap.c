/*
 * remap.c — convolution fusion and constant-weight marking on a plan's
 * partitions (see remap.h).
 *
 * Per partition: count how each snode's outputs are used (data edges,
 * control edges, fetches), fold constant spatial Pads into the VALID
 * convolutions they feed (fold_pads), find the chains conv -> BiasAdd|FusedBatchNorm
 * [-> Add|AddV2] [-> Relu|Relu6] whose links are single-use, turn the last
 * snode of each chain into the fused node (so its consumers and fetches need
 * no rewiring), mark the dropped snodes and finally compact the partition,
 * renumbering inputs, control edges and fetch locations.
 */
#include "runtime/remap.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/conv_internal.h"

/* Input types of a fused node: all float (input, filter, up to 6 args:
 * bias, 4 batch-norm args, residual addend). */
static const tfc_dtype k_float_ins[8] = {TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT,
                                         TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT,
                                         TFC_DTYPE_FLOAT, TFC_DTYPE_FLOAT};

/* Fusion switch (see remap.h). */
bool tfc_remap_fusion_enabled(void) {
  const char *v = getenv("TFC_FUSION");
  return !(v && strcmp(v, "0") == 0);
}

/* How one snode's outputs are used inside its partition. */
typedef struct use_info {
  int uses;        /* data edges + control edges + fetches, all outputs */
  int other_uses;  /* data edges and fetches of outputs other than 0 */
  int consumer;    /* the consuming snode when uses == 1 and it is a data edge, else -1 */
} use_info;

typedef struct remapper {
  tfc_subgraph *sg;
  int part;
  tfc_partition *p;
  use_info *use;
  bool *dead;
  tfc_status *st;
} remapper;

/* True when snode s is an op named `op`. */
static bool is_op(const tfc_snode *s, const char *op) { return strcmp(s->def->name, op) == 0; }

/* True when s's type attr `name` is float. */
static bool float_attr(const tfc_snode *s, const char *name) {
  const tfc_attr_value *v = tfc_attrs_find(s->attrs, name);
  return v && v->kind == TFC_ATTR_TYPE && v->v.type == TFC_DTYPE_FLOAT;
}

/* True when s's data_format is absent or NHWC. */
static bool nhwc(const tfc_snode *s) {
  return !tfc_attrs_find(s->attrs, "data_format") ||
         tfc_attrs_string_is(s->attrs, "data_format", "NHWC");
}

/* Fills r->use from the partition's edges and the subgraph's fetches. */
static void count_uses(remapper *r) {
  tfc_partition *p = r->p;
  for (int i = 0; i < p->n; i++) r->use[i] = (use_info){0, 0, -1};
  for (int i = 0; i < p->n; i++) {
    if (r->dead[i]) continue;
    const tfc_snode *s = &p->nodes[i];
    for (int k = 0; k < s->n_inputs; k++) {
      int src = s->inputs[k].src;
      if (src < 0) continue;
      r->use[src].uses++;
      r->use[src].consumer = i;
      if (s->inputs[k].index != 0) r->use[src].other_uses++;
    }
    for (int k = 0; k < s->n_control; k++) {
      r->use[s->control[k]].uses++;
      r->use[s->control[k]].consumer = -1;
    }
  }
  for (int f = 0; f < r->sg->n_fetches; f++) {
    const tfc_fetch_loc *loc = &r->sg->fetches[f];
    if (loc->feed >= 0 || loc->part != r->part) continue;
    r->use[loc->snode].uses++;
    r->use[loc->snode].consumer = -1;
    if (loc->index != 0) r->use[loc->snode].other_uses++;
  }
  for (int i = 0; i < p->n; i++)
    if (r->use[i].uses != 1) r->use[i].consumer = -1;
}

/* The single consumer of snode i when it reads output 0 as its input 0,
 * has no control inputs and is an op in ops (NULL-terminated); else -1. */
static int next_link(const remapper *r, int i, const char *const *ops) {
  int c = r->use[i].consumer;
  if (c < 0 || r->use[i].other_uses) return -1;
  const tfc_snode *s = &r->p->nodes[c];
  if (r->dead[c] || s->n_control || s->n_inputs < 1 || s->inputs[0].src != i || s->inputs[0].index != 0)
    return -1;
  for (int k = 0; ops[k]; k++)
    if (is_op(s, ops[k])) return c;
  return -1;
}

/* True when the data input `in` of the partition is the output of a Const,
 * possibly through Identity nodes. */
static bool from_const(const tfc_partition *p, tfc_sinput in) {
  for (int hops = 0; in.src >= 0 && hops < 64; hops++) {
    const tfc_snode *s = &p->nodes[in.src];
    if (is_op(s, "Const")) return true;
    if (!is_op(s, "Identity") || s->n_inputs != 1) return false;
    in = s->inputs[0];
  }
  return false;
}

/* Makes s's attrs its own copy (so they can be changed), once. */
static bool own_attrs(tfc_snode *s, tfc_status *st) {
  if (s->attrs == &s->own_attrs) return true;
  if (!tfc_attrs_copy(&s->own_attrs, s->attrs, st)) return false;
  s->attrs = &s->own_attrs;
  return true;
}

/* Sets attr name = v on s (whose attrs are its own). */
static bool set_attr(tfc_snode *s, const char *name, tfc_attr_value v, tfc_status *st) {
  return tfc_attrs_set(&s->own_attrs, name, &v, st);
}

/* True when s's fused_ops list names an Add (its last input is then a
 * residual addend, not a weight). */
static bool fuses_add(const tfc_snode *s) {
  const tfc_attr_value *v = tfc_attrs_find(s->attrs, "fused_ops");
  if (!v || v->kind != TFC_ATTR_LIST || v->v.list.kind != TFC_ATTR_S) return false;
  for (int i = 0; i < v->v.list.n; i++)
    if (v->v.list.v.s[i].len == 3 && memcmp(v->v.list.v.s[i].data, "Add", 3) == 0) return true;
  return false;
}

/* Marks a convolution snode whose weights are constant (see remap.h): the
 * filter and every fused argument but a residual addend. */
static bool mark_const(remapper *r, tfc_snode *s) {
  int n = s->n_inputs - (fuses_add(s) ? 1 : 0);
  for (int k = 1; k < n; k++)
    if (!from_const(r->p, s->inputs[k])) return true;
  return own_attrs(s, r->st) && set_attr(s, TFC_CONV_CONST_ATTR, tfc_attr_bool(true), r->st);
}

/* Copies attr `name` of src (when present) onto dst's own attrs. */
static bool copy_attr(tfc_snode *dst, const tfc_snode *src, const char *name, tfc_status *st) {
  const tfc_attr_value *v = tfc_attrs_find(src->attrs, name);
  if (!v) return true;
  tfc_attr_value c;
  return tfc_attr_value_copy(&c, v, st) && tfc_attrs_set(&dst->own_attrs, name, &c, st);
}

/* Sets fused_ops = names[0..n) on s. */
static bool set_fused_ops(tfc_snode *s, const char *const *names, int n, tfc_status *st) {
  tfc_attr_value v = tfc_attr_list_new(TFC_ATTR_S, n);
  if (v.kind == TFC_ATTR_NONE)
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory fusing a convolution");
  for (int i = 0; i < n; i++) {
    tfc_attr_value e = tfc_attr_string(names[i], strlen(names[i]));
    if (e.kind == TFC_ATTR_NONE) {
      tfc_attr_value_clear(&v);
      return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory fusing a convolution");
    }
    v.v.list.v.s[i] = e.v.s;
  }
  return tfc_attrs_set(&s->own_attrs, "fused_ops", &v, st);
}

/* Rewrites the chain conv (ci) [-> BiasAdd (bi)] [-> FusedBatchNorm (ni)]
 * [-> Add|AddV2 (di) of the residual `res`] [-> Relu|Relu6 (ai)] (absent
 * links -1, at least one of bi, ni) into one fused snode in place of its
 * last node; the others become dead. A BiasAdd followed by a batch norm is
 * fused as fused_ops [BiasAdd, FusedBatchNorm, ...] with the bias first
 * among the args (a combination tfc's kernel takes beyond TF's); the Add
 * shows as "Add" with the residual as the last arg, as in TF. */
static bool fuse(remapper *r, int ci, int bi, int ni, int di, tfc_sinput res, int ai) {
  tfc_partition *p = r->p;
  tfc_snode *conv = &p->nodes[ci];
  int li = ai >= 0 ? ai : di >= 0 ? di : ni >= 0 ? ni : bi;
  bool depthwise = is_op(conv, "DepthwiseConv2dNative");
  int nargs = (bi >= 0 ? 1 : 0) + (ni >= 0 ? 4 : 0) + (di >= 0 ? 1 : 0);
  tfc_snode f = {0};
  f.name = p->nodes[li].name;
  f.def = tfc_op_lookup(depthwise ? "_FusedDepthwiseConv2dNative" : "_FusedConv2D");
  f.attrs = &f.own_attrs;
  f.in_types = k_float_ins;
  f.own_types[1] = TFC_DTYPE_FLOAT;
  f.out_types = &f.own_types[1];
  f.n_outputs = 1;
  f.n_inputs = 2 + nargs;
  f.inputs = tfc_malloc(sizeof(tfc_sinput) * (size_t)f.n_inputs);
  if (!f.def || !f.inputs) {
    tfc_free(f.inputs);
    return tfc_status_set(r->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory fusing a convolution");
  }
  f.inputs[0] = conv->inputs[0];
  f.inputs[1] = conv->inputs[1];
  int na = 2;
  if (bi >= 0) f.inputs[na++] = p->nodes[bi].inputs[1];
  for (int k = 0; ni >= 0 && k < 4; k++) f.inputs[na++] = p->nodes[ni].inputs[1 + k];
  if (di >= 0) f.inputs[na++] = res;
  static const char *const conv_attrs[] = {"T", "strides", "padding", "explicit_paddings",
                                           "data_format", "dilations", "use_cudnn_on_gpu", NULL};
  static const char *const dw_attrs[] = {"T", "strides", "padding", "explicit_paddings",
                                         "data_format", "dilations", NULL};
  const char *const *names = depthwise ? dw_attrs : conv_attrs;
  float eps = 1e-4f;
  if (ni >= 0) {
    const tfc_attr_value *e = tfc_attrs_find(p->nodes[ni].attrs, "epsilon");
    if (e && e->kind == TFC_ATTR_F) eps = e->v.f;
  }
  const char *ops[4];
  int nops = 0;
  if (bi >= 0) ops[nops++] = "BiasAdd";
  if (ni >= 0) ops[nops++] = "FusedBatchNorm";
  if (di >= 0) ops[nops++] = "Add";
  if (ai >= 0) ops[nops++] = p->nodes[ai].def->name;
  bool ok = true;
  for (int k = 0; ok && names[k]; k++) ok = copy_attr(&f, conv, names[k], r->st);
  ok = ok && set_attr(&f, "num_args", tfc_attr_int(nargs), r->st) &&
       set_attr(&f, "epsilon", tfc_attr_float(eps), r->st) && set_fused_ops(&f, ops, nops, r->st);
  if (!ok) {
    tfc_free(f.inputs);
    tfc_attrs_destroy(&f.own_attrs);
    return false;
  }
  /* the conv's control inputs move to the fused node (the others have none) */
  f.control = conv->control;
  f.n_control = conv->n_control;
  conv->control = NULL;
  conv->n_control = 0;
  tfc_snode *last = &p->nodes[li];
  tfc_free(last->inputs);
  tfc_free(last->control);
  tfc_free(last->own_name);
  tfc_attrs_destroy(&last->own_attrs);
  *last = f;
  /* f moved: point at the copy's own storage */
  last->attrs = &last->own_attrs;
  last->out_types = &last->own_types[1];
  int chain[4] = {ci, bi, ni, di};
  for (int k = 0; k < 4; k++)
    if (chain[k] >= 0 && chain[k] != li) r->dead[chain[k]] = true;
  return true;
}

/* True when conv snode s may head a fusion: float, NHWC. (A depthwise
 * convolution with EXPLICIT padding, which only fold_pads makes, fuses too:
 * the plan's kernels read explicit_paddings for every convolution.) */
static bool fusable_conv(const tfc_snode *s) {
  if (!(is_op(s, "Conv2D") || is_op(s, "DepthwiseConv2dNative"))) return false;
  return float_attr(s, "T") && nhwc(s) && s->n_inputs == 2;
}

/* The Const tensor behind data input `in` (through Identity nodes), or
 * NULL. */
static const tfc_tensor *const_value(const tfc_partition *p, tfc_sinput in) {
  for (int hops = 0; in.src >= 0 && hops < 64; hops++) {
    const tfc_snode *s = &p->nodes[in.src];
    if (is_op(s, "Const")) {
      const tfc_attr_value *v = tfc_attrs_find(s->attrs, "value");
      return v && v->kind == TFC_ATTR_TENSOR ? v->v.tensor : NULL;
    }
    if (!is_op(s, "Identity") || s->n_inputs != 1) return NULL;
    in = s->inputs[0];
  }
  return NULL;
}

/* Folds each float Pad whose paddings are a constant [4, 2] that pads only
 * rows and columns, and whose one use is as the input of a NHWC Conv2D or
 * DepthwiseConv2dNative with VALID padding, into that convolution: it then
 * reads the Pad's input with EXPLICIT padding of those amounts (the same
 * values: zeros padded, the same windows), and the Pad is dropped. Image
 * networks pad this way before their strided convolutions (MobileNetV2,
 * ResNet50's first layer); the convolution's kernel pads inside its pass
 * instead of a separate copy of the whole activation. */
static bool fold_pads(remapper *r) {
  tfc_partition *p = r->p;
  for (int i = 0; i < p->n; i++) {
    tfc_snode *pad = &p->nodes[i];
    if (r->dead[i] || !is_op(pad, "Pad") || pad->n_inputs != 2 || pad->n_control ||
        !float_attr(pad, "T") || r->use[i].uses != 1 || r->use[i].other_uses)
      continue;
    int ci = r->use[i].consumer;
    if (ci < 0 || r->dead[ci]) continue;
    tfc_snode *conv = &p->nodes[ci];
    if (!fusable_conv(conv) || conv->inputs[0].src != i || conv->inputs[0].index != 0 ||
        !tfc_attrs_string_is(conv->attrs, "padding", "VALID"))
      continue;
    const tfc_tensor *pv = const_value(p, pad->inputs[1]);
    if (!pv || pv->rank != 2 || pv->dims[0] != 4 || pv->dims[1] != 2 ||
        !(pv->dtype == TFC_DTYPE_INT32 || pv->dtype == TFC_DTYPE_INT64))
      continue;
    int64_t v[8];
    bool ok = true;
    for (int k = 0; k < 8; k++) {
      v[k] = tfc_tensor_get_int64(pv, k);
      ok &= v[k] >= 0 && v[k] <= ((int64_t)1 << 30);
    }
    if (!ok || v[0] || v[1] || v[6] || v[7]) continue;
    tfc_attr_value ep = tfc_attr_list_new(TFC_ATTR_I, 8);
    tfc_attr_value pd = tfc_attr_string("EXPLICIT", 8);
    if (ep.kind == TFC_ATTR_NONE || pd.kind == TFC_ATTR_NONE) {
      tfc_attr_value_clear(&ep);
      tfc_attr_value_clear(&pd);
      return tfc_status_set(r->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory fusing a convolution");
    }
    memcpy(ep.v.list.v.i, v, sizeof v);
    if (!own_attrs(conv, r->st)) {
      tfc_attr_value_clear(&ep);
      tfc_attr_value_clear(&pd);
      return false;
    }
    /* set_attr takes ownership of each value, also when it fails */
    if (!set_attr(conv, "explicit_paddings", ep, r->st)) {
      tfc_attr_value_clear(&pd);
      return false;
    }
    if (!set_attr(conv, "padding", pd, r->st)) return false;
    conv->inputs[0] = pad->inputs[0];
    r->dead[i] = true;
  }
  return true;
}

/* True when the middle snode m (BiasAdd or FusedBatchNorm*) qualifies. */
static bool fusable_mid(const tfc_snode *m) {
  if (!float_attr(m, "T") || !nhwc(m)) return false;
  if (is_op(m, "BiasAdd")) return m->n_inputs == 2;
  const tfc_attr_value *t = tfc_attrs_find(m->attrs, "is_training");
  if (!t || t->kind != TFC_ATTR_B || t->v.b || m->n_inputs != 5) return false;
  return is_op(m, "FusedBatchNorm") || float_attr(m, "U");
}

/* True when the static shapes a and b could be equal: both of rank 4 and
 * no dimension known in both that differs. */
static bool shapes_may_match(const tfc_shape *a, const tfc_shape *b) {
  if (a->rank != 4 || b->rank != 4) return false;
  for (int d = 0; d < 4; d++)
    if (a->dims[d] >= 0 && b->dims[d] >= 0 && a->dims[d] != b->dims[d]) return false;
  return true;
}

/* The static shape of output `index` of snode s, or NULL when s has no
 * graph node (synthesized). */
static const tfc_shape *out_shape(const tfc_snode *s, int index) {
  return s->gnode && index < s->gnode->n_outputs ? &s->gnode->out_shapes[index] : NULL;
}

/* The single consumer of snode i when it is a float Add or AddV2 reading
 * output 0 of i as one operand, with no control inputs, whose other
 * operand (*res) and result may have i's static shape (the kernel checks
 * the actual shapes and broadcasts itself where they differ); else -1. */
static int add_link(const remapper *r, int i, tfc_sinput *res) {
  int c = r->use[i].consumer;
  if (c < 0 || r->use[i].other_uses) return -1;
  const tfc_snode *s = &r->p->nodes[c];
  if (r->dead[c] || s->n_control || s->n_inputs != 2 || !(is_op(s, "AddV2") || is_op(s, "Add")) ||
      !float_attr(s, "T"))
    return -1;
  int k = s->inputs[0].src == i && s->inputs[0].index == 0 ? 0 : 1;
  if (s->inputs[k].src != i || s->inputs[k].index != 0) return -1;
  *res = s->inputs[1 - k];
  const tfc_shape *mine = out_shape(&r->p->nodes[i], 0), *sum = out_shape(s, 0);
  if (!mine || !sum || !shapes_may_match(mine, sum)) return -1;
  if (res->src >= 0) {
    const tfc_shape *rs = out_shape(&r->p->nodes[res->src], res->index);
    if (rs && !shapes_may_match(mine, rs)) return -1;
  }
  return c;
}

/* Finds and fuses the chains of one partition. */
static bool fuse_partition(remapper *r) {
  static const char *const mids[] = {"BiasAdd", "FusedBatchNorm", "FusedBatchNormV2",
                                     "FusedBatchNormV3", NULL};
  static const char *const bns[] = {"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3",
                                    NULL};
  static const char *const acts[] = {"Relu", "Relu6", NULL};
  count_uses(r);
  if (!fold_pads(r)) return false;
  count_uses(r);
  for (int i = 0; i < r->p->n; i++) {
    if (r->dead[i] || !fusable_conv(&r->p->nodes[i])) continue;
    int m = next_link(r, i, mids);
    if (m < 0 || !fusable_mid(&r->p->nodes[m])) continue;
    int bi = -1, ni = m;
    if (is_op(&r->p->nodes[m], "BiasAdd")) {
      bi = m;
      ni = next_link(r, m, bns);
      if (ni >= 0 && !fusable_mid(&r->p->nodes[ni])) ni = -1;
    }
    int last = ni >= 0 ? ni : bi;
    tfc_sinput res = {-1, -1};
    int d = add_link(r, last, &res);
    if (d >= 0) last = d;
    int a = next_link(r, last, acts);
    if (a >= 0 && !float_attr(&r->p->nodes[a], "T")) a = -1;
    /* a batch norm ending the chain must not have its other outputs used */
    if (a < 0 && d < 0 && ni >= 0 && r->use[ni].other_uses) {
      if (bi < 0) continue;
      ni = -1; /* fuse the BiasAdd alone */
      a = -1;
    }
    if (!fuse(r, i, bi, ni, d, res, a)) return false;
  }
  return true;
}

/* Drops the dead snodes of the partition, renumbering the survivors'
 * inputs and control edges and the fetch locations. */
static bool compact(remapper *r) {
  tfc_partition *p = r->p;
  int *to = tfc_malloc(sizeof(int) * (size_t)(p->n ? p->n : 1));
  if (!to)
    return tfc_status_set(r->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory fusing a convolution");
  int n = 0;
  for (int i = 0; i < p->n; i++) to[i] = r->dead[i] ? -1 : n++;
  for (int i = 0; i < p->n; i++) {
    tfc_snode *s = &p->nodes[i];
    if (r->dead[i]) {
      tfc_free(s->inputs);
      tfc_free(s->control);
      tfc_free(s->own_name);
      tfc_attrs_destroy(&s->own_attrs);
      continue;
    }
    for (int k = 0; k < s->n_inputs; k++)
      if (s->inputs[k].src >= 0) s->inputs[k].src = to[s->inputs[k].src];
    for (int k = 0; k < s->n_control; k++) s->control[k] = to[s->control[k]];
    tfc_snode *d = &p->nodes[to[i]];
    if (d != s) {
      bool own = s->attrs == &s->own_attrs;
      bool own_types = s->out_types == &s->own_types[1];
      bool own_in = s->in_types == s->own_types;
      bool own_name = s->name == s->own_name && s->own_name;
      *d = *s;
      if (own) d->attrs = &d->own_attrs;
      if (own_types) d->out_types = &d->own_types[1];
      if (own_in) d->in_types = d->own_types;
      if (own_name) d->name = d->own_name;
    }
  }
  p->n = n;
  for (int f = 0; f < r->sg->n_fetches; f++) {
    tfc_fetch_loc *loc = &r->sg->fetches[f];
    if (loc->feed < 0 && loc->part == r->part) loc->snode = to[loc->snode];
  }
  tfc_free(to);
  return true;
}

/* Rewrites sg (see remap.h). */
bool tfc_remap_subgraph(tfc_subgraph *sg, bool fuse, tfc_status *st) {
  for (int pi = 0; pi < sg->n_parts; pi++) {
    tfc_partition *p = &sg->parts[pi];
    if (p->n == 0) continue;
    remapper r = {.sg = sg, .part = pi, .p = p, .st = st};
    r.use = tfc_malloc(sizeof(use_info) * (size_t)p->n);
    r.dead = tfc_calloc((size_t)p->n, sizeof(bool));
    bool ok = r.use && r.dead;
    if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory fusing a convolution");
    bool any = false;
    if (ok && fuse) {
      ok = fuse_partition(&r);
      for (int i = 0; ok && i < p->n; i++) any |= r.dead[i];
    }
    for (int i = 0; ok && i < p->n; i++) {
      tfc_snode *s = &p->nodes[i];
      if (r.dead[i]) continue;
      if (is_op(s, "Conv2D") || is_op(s, "DepthwiseConv2dNative") || is_op(s, "_FusedConv2D") ||
          is_op(s, "_FusedDepthwiseConv2dNative"))
        ok = mark_const(&r, s);
    }
    if (ok && any) ok = compact(&r);
    tfc_free(r.use);
    tfc_free(r.dead);
    if (!ok) return false;
  }
  return true;
}
