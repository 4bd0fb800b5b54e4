/*
 * test_script.c — the PyFunc / PyFuncStateless / EagerPyFunc kernels through
 * their hook: without a hook they fail with FAILED_PRECONDITION; with one they
 * hand it the token, inputs and output types and take its outputs or status.
 */
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "kernel_call.h"
#include "kernels/py_func.h"

static char g_seen_token[32];
static int g_seen_eager = -1;

/* A hook that doubles a float input (token "double") or fails (any other token). */
static bool doubling_hook(const char *token, size_t len, bool eager, int n_in,
                          tfc_tensor *const *in, int n_out, const tfc_dtype *out_types,
                          tfc_tensor **out, tfc_status *st) {
  size_t n = len < sizeof g_seen_token - 1 ? len : sizeof g_seen_token - 1;
  memcpy(g_seen_token, token, n);
  g_seen_token[n] = '\0';
  g_seen_eager = eager;
  if (strcmp(g_seen_token, "double") != 0 || n_in != 1 || n_out != 1 ||
      out_types[0] != TFC_DTYPE_FLOAT) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "ValueError: boom");
    return false;
  }
  out[0] = tfc_tensor_new(TFC_DTYPE_FLOAT, in[0]->rank, in[0]->dims, st);
  if (!out[0]) return false;
  for (int64_t i = 0; i < in[0]->nelems; i++)
    ((float *)out[0]->data)[i] = 2 * ((const float *)in[0]->data)[i];
  return true;
}

TFC_TEST(script_py_func_without_hook_fails) {
  tfc_py_func_set_hook(NULL);
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  set_str(&c, "token", "double");
  int64_t d = 2;
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, &d, (const double[]){1, 2});
  CHECK(!call_run(&c, "PyFunc", 1, &x, 1));
  CHECK(c.st.code == TFC_CODE_FAILED_PRECONDITION);
  tfc_tensor_unref(x);
  call_done(&c);
}

TFC_TEST(script_py_func_through_hook) {
  tfc_py_func_set_hook(doubling_hook);
  call c;
  call_init(&c, TFC_DTYPE_FLOAT);
  set_str(&c, "token", "double");
  int64_t d = 3;
  tfc_tensor *x = mk(TFC_DTYPE_FLOAT, 1, &d, (const double[]){1, 2, -4});
  CHECK(call_run(&c, "PyFuncStateless", 1, &x, 1));
  CHECK(g_seen_eager == 0);
  CHECK(c.out[0] && c.out[0]->nelems == 3 && at(c.out[0], 2) == -8.0);
  CHECK(call_run(&c, "EagerPyFunc", 1, &x, 1));
  CHECK(g_seen_eager == 1);
  set_str(&c, "token", "other");
  CHECK(!call_run(&c, "PyFunc", 1, &x, 1));
  CHECK(c.st.code == TFC_CODE_INVALID_ARGUMENT);
  CHECK(strcmp(g_seen_token, "other") == 0);
  tfc_tensor_unref(x);
  call_done(&c);
  tfc_py_func_set_hook(NULL);
}
