/*
 * fuzz_graphdef.c — libFuzzer target for GraphDef import and export.
 *
 * Each input is imported as a GraphDef into a fresh graph. Corrupt bytes
 * must fail with a status (never crash, leak, hang or allocate absurd
 * amounts); whatever the graph then holds (an import may fail after adding
 * some nodes) must export. A GraphDef that imports must survive a round
 * trip: its export imports into another fresh graph, and exporting that
 * graph gives the same bytes. Finally the input is imported again into the
 * first graph under a prefix and with name uniquification, as
 * tf.import_graph_def does for a second copy.
 *
 *   make fuzz-build && build/fuzz/fuzz_graphdef CORPUS_DIR
 */
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "core/op_registry.h"
#include "fuzz_common.h"
#include "graph/graph.h"
#include "graph/graphdef.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  tfc_status st;
  tfc_status_clear(&st);
  FUZZ_ASSERT(tfc_op_registry_load(&st), "op registry: %s", st.msg);
  return 0;
}

/* Exports g (it must succeed: export fails only on OOM) into *out and *len. */
static void export_graph(tfc_graph *g, const tfc_import_result *r, void **out, size_t *len) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_export_options eo = {0};
  if (r) {
    eo.library = r->library;
    eo.library_len = r->library_len;
  }
  FUZZ_ASSERT(tfc_graph_export_ex(g, &eo, out, len, &st), "export: %s", st.msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tfc_status st;
  tfc_status_clear(&st);
  tfc_graph *g = tfc_graph_new();
  FUZZ_ASSERT(g != NULL, "tfc_graph_new");
  tfc_import_result r;
  bool ok = tfc_graph_import(g, data, size, NULL, &r, &st);
  FUZZ_ASSERT(ok || (st.code != TFC_CODE_OK && st.msg[0] != '\0'), "failed without a status");

  void *out = NULL;
  size_t out_len = 0;
  export_graph(g, ok ? &r : NULL, &out, &out_len);
  if (ok) {
    /* Round trip: export -> import -> export gives the same bytes. */
    tfc_graph *g2 = tfc_graph_new();
    FUZZ_ASSERT(g2 != NULL, "tfc_graph_new");
    tfc_import_result r2;
    bool ok2 = tfc_graph_import(g2, out, out_len, NULL, &r2, &st);
    FUZZ_ASSERT(ok2, "re-importing the export failed: %s (node '%s')", st.msg, st.node);
    FUZZ_ASSERT(tfc_graph_num_nodes(g2) == tfc_graph_num_nodes(g), "node count changed: %d -> %d",
                tfc_graph_num_nodes(g), tfc_graph_num_nodes(g2));
    void *out2 = NULL;
    size_t out2_len = 0;
    export_graph(g2, &r2, &out2, &out2_len);
    FUZZ_ASSERT(out2_len == out_len && memcmp(out, out2, out_len) == 0,
                "export -> import -> export changed the bytes (%zu -> %zu)", out_len, out2_len);
    tfc_free(out2);
    tfc_import_result_clear(&r2);
    tfc_graph_unref(g2);

    /* A second copy beside the first, as tf.import_graph_def(name=...) does. */
    tfc_import_options o = {.prefix = "copy", .uniquify_names = true};
    tfc_import_result r3;
    if (tfc_graph_import(g, data, size, &o, &r3, &st)) tfc_import_result_clear(&r3);
    void *out3 = NULL;
    size_t out3_len = 0;
    export_graph(g, NULL, &out3, &out3_len);
    tfc_free(out3);
  }
  tfc_free(out);
  tfc_import_result_clear(&r);
  tfc_graph_unref(g);
  return 0;
}
