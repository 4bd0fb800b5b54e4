/*
 * py_func.h — the hook through which PyFunc / PyFuncStateless / EagerPyFunc
 * call the Python function registered under their token. The kernels layer
 * knows no Python: the extension module installs the hook when it loads; the
 * hook takes the GIL only for the call into Python.
 */
#ifndef TFC_KERNELS_PY_FUNC_H
#define TFC_KERNELS_PY_FUNC_H

#include <stdbool.h>

#include "base/status.h"
#include "core/tensor.h"

/* Calls the function registered under token (len bytes) with n_in borrowed
 * input tensors; on success stores n_out new tensor references of exactly
 * out_types in out and returns true. On failure returns false with st set
 * (the code follows the Python exception: TF's mapping) and out untouched.
 * eager: the function takes EagerPyFunc's argument form. */
typedef bool (*tfc_py_func_hook)(const char *token, size_t len, bool eager, int n_in,
                                 tfc_tensor *const *in, int n_out, const tfc_dtype *out_types,
                                 tfc_tensor **out, tfc_status *st);

/* Installs the hook (the last call wins); NULL uninstalls. */
void tfc_py_func_set_hook(tfc_py_func_hook hook);

#endif
