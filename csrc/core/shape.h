/*
 * shape.h — tensor shapes, possibly partial (graph-build time).
 *
 * rank == -1 means unknown rank; a dimension of -1 means unknown size.
 * Shapes are small fixed-size values: copying one never allocates.
 */
#ifndef TFC_CORE_SHAPE_H
#define TFC_CORE_SHAPE_H

#include <stdbool.h>
#include <stdint.h>

#define TFC_MAX_RANK 12

typedef struct tfc_shape {
  int rank;                     /* -1 unknown, else 0..TFC_MAX_RANK */
  int64_t dims[TFC_MAX_RANK];   /* -1 for an unknown dimension */
} tfc_shape;

/* The unknown-rank shape. */
tfc_shape tfc_shape_unknown(void);
/* The scalar shape (rank 0). */
tfc_shape tfc_shape_scalar(void);
/* A shape of `rank` dims copied from dims (rank <= TFC_MAX_RANK; caller checks). */
tfc_shape tfc_shape_make(int rank, const int64_t *dims);
/* A shape of `rank` unknown dims. */
tfc_shape tfc_shape_unknown_dims(int rank);
/* True when rank and every dim are known. */
bool tfc_shape_is_fully_defined(const tfc_shape *s);
/* Product of dims; -1 if not fully defined. */
int64_t tfc_shape_num_elements(const tfc_shape *s);
/* True when a and b could describe the same tensor (unknowns match anything). */
bool tfc_shape_compatible(const tfc_shape *a, const tfc_shape *b);
/* Combines two compatible shapes keeping the known facts of both into *out;
 * returns false when they are incompatible. */
bool tfc_shape_merge(const tfc_shape *a, const tfc_shape *b, tfc_shape *out);
/* Writes a TF-style text form ("(2, ?, 3)", "<unknown>", "()") into buf. */
void tfc_shape_to_string(const tfc_shape *s, char *buf, int bufsize);
/* True when a and b are exactly equal (same rank and dims, unknowns included). */
bool tfc_shape_equal(const tfc_shape *a, const tfc_shape *b);
/* NumPy-style broadcast of two partial shapes into *out; false when
 * known dims conflict (neither equal nor 1). */
bool tfc_shape_broadcast(const tfc_shape *a, const tfc_shape *b, tfc_shape *out);

#endif
