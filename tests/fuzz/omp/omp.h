/*
 * omp.h — the two OpenMP runtime calls the kernels make, declared for the
 * clang fuzz build (gcc's omp.h uses gcc-only attributes; libgomp is linked).
 */
#ifndef TFC_FUZZ_OMP_H
#define TFC_FUZZ_OMP_H

int omp_get_max_threads(void);
void omp_set_num_threads(int n);

#endif
