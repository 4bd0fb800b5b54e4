/*
 * matching_files.c — CPU kernel MatchingFiles (core/ops_encoding.c): the
 * sorted names of the local files matching each glob pattern of a scalar or
 * vector input ('*', '?', '[...]' within one path component, as TF's
 * GetMatchingPaths). No match is an empty result, not an error.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

/* Orders two C strings (qsort). */
static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Expands every pattern, then sorts all the names. */
static void matching_files_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *in = ctx->inputs[0];
  if (in->rank > 1) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Input patterns tensor must be scalar or vector, but had shape: [%lld%s]",
                    (long long)in->dims[0], in->rank > 1 ? ",..." : "");
    return;
  }
  const tfc_string *pats = (const tfc_string *)in->data;
  char **names = NULL;
  size_t n = 0, cap = 0;
  glob_t g;
  bool ok = true;
  for (int64_t i = 0; i < in->nelems && ok; i++) {
    char *pat = tfc_malloc(pats[i].len + 1);
    if (!pat) {
      ok = false;
      break;
    }
    if (pats[i].len) memcpy(pat, pats[i].data, pats[i].len);
    pat[pats[i].len] = '\0';
    memset(&g, 0, sizeof g);
    int rc = glob(pat, GLOB_NOSORT, NULL, &g);
    tfc_free(pat);
    if (rc == GLOB_NOSPACE) {
      globfree(&g);
      ok = false;
      break;
    }
    for (size_t k = 0; rc == 0 && k < g.gl_pathc && ok; k++) {
      if (n == cap) {
        size_t ncap = cap ? cap * 2 : 16;
        char **nn = tfc_realloc(names, ncap * sizeof *names);
        if (!nn) {
          ok = false;
          break;
        }
        names = nn;
        cap = ncap;
      }
      size_t len = strlen(g.gl_pathv[k]);
      names[n] = tfc_malloc(len + 1);
      if (!names[n]) {
        ok = false;
        break;
      }
      memcpy(names[n++], g.gl_pathv[k], len + 1);
    }
    globfree(&g);
  }
  if (!ok) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory matching files");
  } else {
    if (n > 1) qsort(names, n, sizeof *names, cmp_str);
    int64_t dim = (int64_t)n;
    tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 1, &dim);
    for (size_t k = 0; out && k < n; k++)
      if (!tfc_tensor_set_string(out, (int64_t)k, names[k], strlen(names[k]), ctx->st)) break;
  }
  for (size_t k = 0; k < n; k++) tfc_free(names[k]);
  tfc_free(names);
}

static const tfc_kernel_def defs[] = {
    {"MatchingFiles", "CPU", NULL, NULL, NULL, matching_files_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_matching_files = {defs, (int)(sizeof defs / sizeof defs[0])};
