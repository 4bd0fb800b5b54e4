/*
 * resource_rewrite.c — TensorFlow 2.x resource-variable ops in an incoming
 * GraphDef, rewritten onto tfc's ref-variable ops before import (used for
 * graphs a TF client sends a tfc master).
 *
 * A resource variable is a handle (VarHandleOp) that other ops read and
 * update; tfc's variables are ref-typed (VariableV2) with the same container
 * and shared_name semantics, so the rewrite is one-to-one:
 *   VarHandleOp -> VariableV2, ReadVariableOp -> Identity,
 *   AssignVariableOp / AssignAddVariableOp / AssignSubVariableOp -> Assign /
 *   AssignAdd / AssignSub, VarIsInitializedOp -> IsVariableInitialized,
 *   ResourceGather -> Gather, ResourceApply{GradientDescent, Adam, Momentum,
 *   Adagrad, RMSProp, CenteredRMSProp} -> Apply*, DestroyResourceOp -> NoOp
 *   (its input becomes a control input).
 * Node names, inputs and devices stay, so the client's feed and fetch names
 * still resolve. Only the handle output itself (DT_RESOURCE) cannot be fetched.
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hashmap.h"
#include "graph/graph.h"
#include "graph/graphdef_pb.h"

typedef struct op_map {
  const char *from, *to;
  const char *dtype_to;   /* the renamed dtype attr, or NULL */
} op_map;

static const op_map kMap[] = {
    {"VarHandleOp", "VariableV2", NULL},
    {"ReadVariableOp", "Identity", "T"},
    {"AssignVariableOp", "Assign", "T"},
    {"AssignAddVariableOp", "AssignAdd", "T"},
    {"AssignSubVariableOp", "AssignSub", "T"},
    {"VarIsInitializedOp", "IsVariableInitialized", NULL},
    {"ResourceGather", "Gather", "Tparams"},
    {"ResourceApplyGradientDescent", "ApplyGradientDescent", NULL},
    {"ResourceApplyAdam", "ApplyAdam", NULL},
    {"ResourceApplyMomentum", "ApplyMomentum", NULL},
    {"ResourceApplyAdagrad", "ApplyAdagrad", NULL},
    {"ResourceApplyRMSProp", "ApplyRMSProp", NULL},
    {"ResourceApplyCenteredRMSProp", "ApplyCenteredRMSProp", NULL},
    {"DestroyResourceOp", "NoOp", NULL},
};

/* Memory from the allocator the unpacked message uses (so freeing the message frees it). */
static void *pb_alloc(size_t n) { return tfc_pb_allocator.alloc(tfc_pb_allocator.allocator_data, n); }
static void pb_release(void *p) {
  if (p) tfc_pb_allocator.free(tfc_pb_allocator.allocator_data, p);
}

/* Replaces an allocated string field with a copy of s (same allocator). */
static bool set_string(char **field, const char *s) {
  size_t n = strlen(s) + 1;
  char *c = pb_alloc(n);
  if (!c) return false;
  memcpy(c, s, n);
  if (*field && *field != protobuf_c_empty_string) pb_release(*field);
  *field = c;
  return true;
}

/* The AttrValue of key in nd, or NULL. */
static Tensorflow__AttrValue *find_attr(Tensorflow__NodeDef *nd, const char *key) {
  for (size_t i = 0; i < nd->n_attr; i++)
    if (nd->attr[i] && nd->attr[i]->key && strcmp(nd->attr[i]->key, key) == 0) return nd->attr[i]->value;
  return NULL;
}

/* Adds attr key = type dt to nd; false on OOM. */
static bool add_type_attr(Tensorflow__NodeDef *nd, const char *key, int dt) {
  Tensorflow__NodeDef__AttrEntry **a = pb_alloc(sizeof *a * (nd->n_attr + 1));
  Tensorflow__NodeDef__AttrEntry *e = pb_alloc(sizeof *e);
  Tensorflow__AttrValue *v = pb_alloc(sizeof *v);
  char *k = pb_alloc(strlen(key) + 1);
  if (!a || !e || !v || !k) {
    pb_release(a);
    pb_release(e);
    pb_release(v);
    pb_release(k);
    return false;
  }
  if (nd->n_attr) memcpy(a, nd->attr, sizeof *a * nd->n_attr);
  pb_release(nd->attr);
  nd->attr = a;
  strcpy(k, key);
  tensorflow__node_def__attr_entry__init(e);
  tensorflow__attr_value__init(v);
  v->value_case = TENSORFLOW__ATTR_VALUE__VALUE_TYPE;
  v->type = (Tensorflow__DataType)dt;
  e->key = k;
  e->value = v;
  nd->attr[nd->n_attr++] = e;
  return true;
}

/* The node name part of an input ("x:1" -> "x"). */
static size_t input_node_len(const char *in) {
  const char *colon = strchr(in, ':');
  return colon ? (size_t)(colon - in) : strlen(in);
}

/* Rewrites resource-variable ops of gd in place (see the top of this file);
 * g supplies handles defined by earlier imports. */
bool tfc_pb_rewrite_resource_variables(Tensorflow__GraphDef *gd, tfc_graph *g, tfc_status *st) {
  tfc_hashmap handles; /* VarHandleOp name -> dtype + 1 */
  tfc_hashmap_init(&handles);
  bool ok = true;
  for (size_t i = 0; ok && i < gd->n_node; i++) {
    Tensorflow__NodeDef *nd = gd->node[i];
    if (!nd || !nd->op || strcmp(nd->op, "VarHandleOp") != 0) continue;
    Tensorflow__AttrValue *dt = find_attr(nd, "dtype");
    intptr_t v = dt && dt->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ? (intptr_t)dt->type + 1 : 0;
    ok = tfc_hashmap_put(&handles, nd->name, strlen(nd->name), (void *)v) == 0;
  }
  for (size_t i = 0; ok && i < gd->n_node; i++) {
    Tensorflow__NodeDef *nd = gd->node[i];
    if (!nd || !nd->op) continue;
    const op_map *m = NULL;
    for (size_t k = 0; k < sizeof kMap / sizeof kMap[0] && !m; k++)
      if (strcmp(nd->op, kMap[k].from) == 0) m = &kMap[k];
    if (!m) continue;
    if (m->dtype_to)
      for (size_t a = 0; ok && a < nd->n_attr; a++)
        if (nd->attr[a] && nd->attr[a]->key && strcmp(nd->attr[a]->key, "dtype") == 0)
          ok = set_string(&nd->attr[a]->key, m->dtype_to);
    if (ok && strcmp(m->from, "VarIsInitializedOp") == 0 && nd->n_input > 0 && !find_attr(nd, "dtype")) {
      /* IsVariableInitialized needs the variable's dtype: the handle's */
      const char *in = nd->input[0];
      size_t n = input_node_len(in);
      bool found = false;
      intptr_t v = (intptr_t)tfc_hashmap_get(&handles, in, n, &found);
      int dt = found ? (int)v - 1 : 0;
      if (!found && g) {
        char name[512];
        snprintf(name, sizeof name, "%.*s", (int)n, in);
        tfc_node *node = tfc_graph_find(g, name);
        tfc_dtype t;
        tfc_status ignore;
        if (node && tfc_attrs_get_type(&node->attrs, "dtype", &t, &ignore)) dt = (int)t;
      }
      if (dt <= 0) {
        ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Node '%s': cannot find the variable behind '%s'",
                            nd->name, in);
        break;
      }
      ok = add_type_attr(nd, "dtype", dt);
    }
    if (ok && strcmp(m->from, "DestroyResourceOp") == 0) {
      /* NoOp takes no data input: the handle becomes a control input */
      for (size_t k = 0; ok && k < nd->n_input; k++) {
        if (nd->input[k][0] == '^') continue;
        char buf[520];
        snprintf(buf, sizeof buf, "^%.*s", (int)input_node_len(nd->input[k]), nd->input[k]);
        ok = set_string(&nd->input[k], buf);
      }
    }
    if (ok) ok = set_string(&nd->op, m->to);
    if (!ok && st->code == TFC_CODE_OK) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  if (!ok && st->code == TFC_CODE_OK) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  tfc_hashmap_destroy(&handles);
  return ok;
}
