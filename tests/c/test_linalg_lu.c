/*
 * test_linalg_lu.c — the kernels of linalg_lu.c and linalg_sqrtm.c run by
 * hand: Lu's packed factors and permutation, TridiagonalSolve with and
 * without pivoting, TridiagonalMatMul and MatrixSquareRoot on small
 * matrices with known results, and TF's messages for the failures.
 */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "kernel_call.h"

TFC_TEST(linalg_lu_packed_factors) {
  int64_t d[2] = {2, 2};
  double v[4] = {0, 1, 2, 3};  /* rows swapped: A[p] = [[2, 3], [0, 1]] = I U */
  tfc_tensor *a = mk(TFC_DTYPE_DOUBLE, 2, d, v);
  call c;
  call_init(&c, TFC_DTYPE_DOUBLE);
  set_type(&c, "output_idx_type", TFC_DTYPE_INT32);
  c.out_types[1] = TFC_DTYPE_INT32;
  CHECK(call_run(&c, "Lu", 1, &a, 2));
  CHECK_NEAR(at(c.out[0], 0), 2, 0);
  CHECK_NEAR(at(c.out[0], 1), 3, 0);
  CHECK_NEAR(at(c.out[0], 2), 0, 0);
  CHECK_NEAR(at(c.out[0], 3), 1, 0);
  CHECK(c.out[1]->dtype == TFC_DTYPE_INT32);
  CHECK_NEAR(at(c.out[1], 0), 1, 0);
  CHECK_NEAR(at(c.out[1], 1), 0, 0);
  tfc_tensor_unref(a);
  double bad[4] = {1, 2, 2, 4};
  a = mk(TFC_DTYPE_DOUBLE, 2, d, bad);
  CHECK(!call_run(&c, "Lu", 1, &a, 2));
  CHECK(strstr(c.st.msg, "Input is not invertible.") != NULL);
  tfc_tensor_unref(a);
  call_done(&c);
}

TFC_TEST(linalg_tridiagonal_solve_and_matmul) {
  int64_t dd[2] = {3, 2}, rd[2] = {2, 1};
  double diags[6] = {1, 0, 2, 2, 0, 1};  /* [[2, 1], [1, 2]] */
  double rhs_v[2] = {3, 3};              /* x = [1, 1] */
  tfc_tensor *ins[2] = {mk(TFC_DTYPE_DOUBLE, 2, dd, diags), mk(TFC_DTYPE_DOUBLE, 2, rd, rhs_v)};
  call c;
  call_init(&c, TFC_DTYPE_DOUBLE);
  CHECK(call_run(&c, "TridiagonalSolve", 2, ins, 1));
  CHECK_NEAR(at(c.out[0], 0), 1, 1e-15);
  CHECK_NEAR(at(c.out[0], 1), 1, 1e-15);
  tfc_tensor_unref(ins[0]);
  double piv[6] = {1, 0, 0, 2, 0, 1};  /* [[0, 1], [1, 2]]: needs a row swap */
  ins[0] = mk(TFC_DTYPE_DOUBLE, 2, dd, piv);
  CHECK(call_run(&c, "TridiagonalSolve", 2, ins, 1));
  CHECK_NEAR(at(c.out[0], 0), -3, 1e-15);
  CHECK_NEAR(at(c.out[0], 1), 3, 1e-15);
  set_bool(&c, "partial_pivoting", false);
  CHECK(!call_run(&c, "TridiagonalSolve", 2, ins, 1));
  CHECK(strstr(c.st.msg, "requires pivoting") != NULL);
  tfc_tensor_unref(ins[0]);
  tfc_tensor_unref(ins[1]);
  call_done(&c);

  int64_t vd[2] = {1, 2};
  double sup[2] = {1, 0}, mid[2] = {2, 2}, sub[2] = {0, 1}, r2[2] = {1, 2};
  tfc_tensor *mm[4] = {mk(TFC_DTYPE_DOUBLE, 2, vd, sup), mk(TFC_DTYPE_DOUBLE, 2, vd, mid),
                       mk(TFC_DTYPE_DOUBLE, 2, vd, sub), mk(TFC_DTYPE_DOUBLE, 2, rd, r2)};
  call_init(&c, TFC_DTYPE_DOUBLE);
  CHECK(call_run(&c, "TridiagonalMatMul", 4, mm, 1));
  CHECK_NEAR(at(c.out[0], 0), 4, 0);  /* [[2, 1], [1, 2]] @ [1, 2] */
  CHECK_NEAR(at(c.out[0], 1), 5, 0);
  for (int i = 0; i < 4; i++) tfc_tensor_unref(mm[i]);
  call_done(&c);
}

TFC_TEST(linalg_matrix_square_root) {
  int64_t d[2] = {2, 2};
  double diag[4] = {4, 0, 0, 9};
  tfc_tensor *a = mk(TFC_DTYPE_DOUBLE, 2, d, diag);
  call c;
  call_init(&c, TFC_DTYPE_DOUBLE);
  CHECK(call_run(&c, "MatrixSquareRoot", 1, &a, 1));
  CHECK_NEAR(at(c.out[0], 0), 2, 1e-14);
  CHECK_NEAR(at(c.out[0], 1), 0, 1e-14);
  CHECK_NEAR(at(c.out[0], 3), 3, 1e-14);
  tfc_tensor_unref(a);
  double rot[4] = {1, -2, 3, 1};  /* complex eigenvalues: one 2x2 Schur block */
  a = mk(TFC_DTYPE_DOUBLE, 2, d, rot);
  CHECK(call_run(&c, "MatrixSquareRoot", 1, &a, 1));
  double r[4];
  for (int i = 0; i < 4; i++) r[i] = at(c.out[0], i);
  CHECK_NEAR(r[0] * r[0] + r[1] * r[2], 1, 1e-12);
  CHECK_NEAR(r[0] * r[1] + r[1] * r[3], -2, 1e-12);
  CHECK_NEAR(r[2] * r[0] + r[3] * r[2], 3, 1e-12);
  CHECK_NEAR(r[2] * r[1] + r[3] * r[3], 1, 1e-12);
  tfc_tensor_unref(a);
  int64_t nd[2] = {2, 3};
  a = mk(TFC_DTYPE_DOUBLE, 2, nd, NULL);
  CHECK(!call_run(&c, "MatrixSquareRoot", 1, &a, 1));
  CHECK(strstr(c.st.msg, "must be square") != NULL);
  tfc_tensor_unref(a);
  call_done(&c);
}
