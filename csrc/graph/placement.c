/*
 * placement.c — assigns every needed node to one device.
 *
 * Nodes are grouped by colocation (a Ref input lives with its variable, whose
 * request wins a conflict; a `_class: loc:@x` hint joins x's group, whose
 * request must agree), the group's requested devices are merged, and the
 * first device matching the merged spec is chosen. With
 * allow_soft_placement an unsatisfiable spec falls back, field by field, to
 * a device that exists; without it the error names the node as TF does.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/alloc.h"
#include "graph/subgraph.h"

/* Union-find root with path halving. */
static int uf_find(int *parent, int x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

/* Joins the sets of a and b. */
static void uf_union(int *parent, int a, int b) {
  a = uf_find(parent, a);
  b = uf_find(parent, b);
  if (a != b) parent[b] = a;
}

/* Writes "[ dev0, dev1 ]" into buf. */
static void list_devices(const tfc_device_set *ds, char *buf, size_t size) {
  size_t n = (size_t)snprintf(buf, size, "[ ");
  for (int i = 0; i < ds->n && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", ds->names[i]);
  if (n < size) snprintf(buf + n, size - n, " ]");
}

/* First device matching spec, or -1. */
static int first_match(const tfc_device_set *ds, const tfc_device_name *spec) {
  for (int i = 0; i < ds->n; i++)
    if (tfc_device_name_matches(spec, &ds->parsed[i])) return i;
  return -1;
}

/* Soft placement: drops constraints until a device matches. */
static int soft_match(const tfc_device_set *ds, const tfc_device_name *spec) {
  tfc_device_name s = *spec;
  int d;
  if ((d = first_match(ds, &s)) >= 0) return d;
  s.has_id = false;                         /* any device of that type */
  if ((d = first_match(ds, &s)) >= 0) return d;
  tfc_device_name t = *spec;                /* keep type/id, drop the task address */
  t.has_job = t.has_replica = t.has_task = false;
  if ((d = first_match(ds, &t)) >= 0) return d;
  t.has_id = false;
  if ((d = first_match(ds, &t)) >= 0) return d;
  memset(&t, 0, sizeof t);                  /* anything, CPU preferred */
  strcpy(t.type, "CPU");
  t.has_type = true;
  if ((d = first_match(ds, &t)) >= 0) return d;
  return ds->n > 0 ? 0 : -1;
}

/* Places the needed nodes (see subgraph.h). */
bool tfc_place_nodes(tfc_graph *g, const bool *needed, const tfc_device_set *ds, int *placement,
                     tfc_status *st) {
  int n = g->n_nodes;
  int *parent = tfc_malloc(sizeof(int) * (size_t)(n ? n : 1));
  int *group_dev = tfc_malloc(sizeof(int) * (size_t)(n ? n : 1));
  tfc_device_name *spec = tfc_malloc(sizeof(tfc_device_name) * (size_t)(n ? n : 1));
  bool *has_spec = tfc_calloc((size_t)(n ? n : 1), sizeof(bool));
  bool ok = parent && group_dev && spec && has_spec;
  if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory placing nodes");
  for (int i = 0; ok && i < n; i++) parent[i] = i;
  /* Every needed node's own requested device. */
  for (int i = 0; ok && i < n; i++) {
    if (!needed[i]) continue;
    tfc_node *node = tfc_graph_node(g, i);
    if (!node->device || !node->device[0]) continue;
    if (!tfc_device_name_parse(node->device, &spec[i], st)) {
      tfc_status_set_node(st, node->name);
      ok = false;
      break;
    }
    has_spec[i] = true;
  }
  /* Ref and resource edges first, as TF's placer does: a node that takes a
   * variable by reference (or by handle) runs where the variable lives; when
   * its own request conflicts with the variable's, the variable's wins (TF
   * logs "Ignoring device specification ... because the input edge from ...
   * is a reference connection"). */
  for (int i = 0; ok && i < n; i++) {
    if (!needed[i]) continue;
    tfc_node *node = tfc_graph_node(g, i);
    for (int k = 0; k < node->n_inputs; k++) {
      if (!tfc_dtype_is_ref(node->in_types[k]) && tfc_dtype_base(node->in_types[k]) != TFC_DTYPE_RESOURCE)
        continue;
      int rs = uf_find(parent, node->inputs[k].node), rd = uf_find(parent, i);
      if (rs == rd) continue;
      if (has_spec[rs] && has_spec[rd] && tfc_device_name_compatible(&spec[rs], &spec[rd]))
        tfc_device_name_merge(&spec[rs], &spec[rd]);
      else if (!has_spec[rs] && has_spec[rd])
        spec[rs] = spec[rd], has_spec[rs] = true;
      uf_union(parent, rs, rd);  /* rs stays the root: its request wins a conflict */
    }
  }
  /* `_class` colocation: requests must agree (soft placement keeps the group's). */
  for (int i = 0; ok && i < n; i++) {
    if (!needed[i]) continue;
    tfc_node *node = tfc_graph_node(g, i);
    if (!node->colocate_with) continue;
    /* the caller holds g->mu (plans are built under it): look up directly */
    tfc_node *other = tfc_hashmap_get(&g->by_name, node->colocate_with, strlen(node->colocate_with), NULL);
    if (!other) continue;
    int ra = uf_find(parent, other->id), rb = uf_find(parent, i);
    if (ra == rb) continue;
    if (has_spec[ra] && has_spec[rb]) {
      if (tfc_device_name_compatible(&spec[ra], &spec[rb])) {
        tfc_device_name_merge(&spec[ra], &spec[rb]);
      } else if (!ds->allow_soft_placement) {
        char a[128], b[128];
        tfc_device_name_format(&spec[ra], a, sizeof a);
        tfc_device_name_format(&spec[rb], b, sizeof b);
        tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                       "Cannot colocate nodes: node '%s' requests device '%s', which conflicts with "
                       "'%s' required by its colocation group",
                       node->name, b, a);
        tfc_status_set_node(st, node->name);
        ok = false;
        break;
      }
    } else if (has_spec[rb]) {
      spec[ra] = spec[rb];
      has_spec[ra] = true;
    }
    uf_union(parent, ra, rb);
  }
  for (int i = 0; ok && i < n; i++) group_dev[i] = -2;
  for (int i = 0; ok && i < n; i++) {
    if (!needed[i]) {
      placement[i] = -1;
      continue;
    }
    int r = uf_find(parent, i);
    if (group_dev[r] == -2) {
      int d;
      if (!has_spec[r]) {
        d = ds->n > 0 ? 0 : -1;
      } else {
        d = first_match(ds, &spec[r]);
        if (d < 0 && ds->allow_soft_placement) d = soft_match(ds, &spec[r]);
        if (d < 0) {
          tfc_node *node = tfc_graph_node(g, i);
          char req[160], avail[512];
          tfc_device_name_format(&spec[r], req, sizeof req);
          list_devices(ds, avail, sizeof avail);
          tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                         "Cannot assign a device for operation %s: Operation was explicitly assigned "
                         "to %s but available devices are %s. Make sure the device specification "
                         "refers to a valid device.%s",
                         node->name, node->device && node->device[0] ? node->device : req, avail,
                         /* TF's hint on a build without GPUs (tfc has none) */
                         spec[r].has_type && strcasecmp(spec[r].type, "GPU") == 0
                             ? " The requested device appears to be a GPU, but CUDA is not enabled."
                             : "");
          tfc_status_set_node(st, node->name);
          ok = false;
          break;
        }
      }
      group_dev[r] = d;
    }
    placement[i] = group_dev[r];
  }
  tfc_free(parent);
  tfc_free(group_dev);
  tfc_free(spec);
  tfc_free(has_spec);
  return ok;
}
