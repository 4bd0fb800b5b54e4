/*
 * test_linalg.c — the LAPACK-backed kernels run by hand (kernels/linalg.c):
 * Cholesky, MatrixInverse, MatrixDeterminant and MatrixSolve on small
 * matrices with known results, and TF's messages for singular and
 * non-positive-definite inputs.
 */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "kernel_call.h"

TFC_TEST(linalg_cholesky_inverse_determinant) {
  int64_t d[2] = {2, 2};
  double spd[4] = {4, 2, 2, 3};  /* L = [[2, 0], [1, sqrt(2)]], det 8 */
  tfc_tensor *a = mk(TFC_DTYPE_DOUBLE, 2, d, spd);
  call c;
  call_init(&c, TFC_DTYPE_DOUBLE);
  CHECK(call_run(&c, "Cholesky", 1, &a, 1));
  CHECK_NEAR(at(c.out[0], 0), 2, 1e-12);
  CHECK_NEAR(at(c.out[0], 1), 0, 0);
  CHECK_NEAR(at(c.out[0], 2), 1, 1e-12);
  CHECK_NEAR(at(c.out[0], 3), sqrt(2.0), 1e-12);
  CHECK(call_run(&c, "MatrixInverse", 1, &a, 1));
  CHECK_NEAR(at(c.out[0], 0), 3.0 / 8, 1e-12);
  CHECK_NEAR(at(c.out[0], 1), -2.0 / 8, 1e-12);
  CHECK(call_run(&c, "MatrixDeterminant", 1, &a, 1));
  CHECK_NEAR(at(c.out[0], 0), 8, 1e-12);
  double rhs_v[2] = {8, 7};  /* x = [1.25, 1.5] */
  int64_t rd[2] = {2, 1};
  tfc_tensor *ins[2] = {a, mk(TFC_DTYPE_DOUBLE, 2, rd, rhs_v)};
  CHECK(call_run(&c, "MatrixSolve", 2, ins, 1));
  CHECK_NEAR(at(c.out[0], 0), 1.25, 1e-12);
  CHECK_NEAR(at(c.out[0], 1), 1.5, 1e-12);
  tfc_tensor_unref(ins[1]);
  tfc_tensor_unref(a);
  double bad[4] = {1, 2, 2, 4};
  a = mk(TFC_DTYPE_DOUBLE, 2, d, bad);
  CHECK(!call_run(&c, "Cholesky", 1, &a, 1));
  CHECK(strstr(c.st.msg, "Cholesky decomposition was not successful") != NULL);
  CHECK(!call_run(&c, "MatrixInverse", 1, &a, 1));
  CHECK(strstr(c.st.msg, "Input is not invertible.") != NULL);
  CHECK(call_run(&c, "MatrixDeterminant", 1, &a, 1));
  CHECK_NEAR(at(c.out[0], 0), 0, 0);
  tfc_tensor_unref(a);
  int64_t nd[2] = {2, 3};
  double ns[6] = {0};
  a = mk(TFC_DTYPE_DOUBLE, 2, nd, ns);
  CHECK(!call_run(&c, "MatrixInverse", 1, &a, 1));
  CHECK(strstr(c.st.msg, "must be square") != NULL);
  tfc_tensor_unref(a);
  call_done(&c);
}
