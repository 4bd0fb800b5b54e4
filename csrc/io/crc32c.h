/*
 * crc32c.h — CRC-32C (Castagnoli), as checkpoints, TFRecords and event files
 * store it, and TF's masking of stored CRCs.
 *
 *   uint32_t c = tfc_crc32c(data, n);          // crc32c("123456789") == 0xE3069283
 *   c = tfc_crc32c_extend(c, more, m);         // == tfc_crc32c(data ‖ more)
 *   uint32_t stored = tfc_crc32c_mask(c);      // what a file holds
 *
 * The SSE4.2 crc32 instruction is used when the compiler targets it (three
 * interleaved streams on long buffers), a byte table otherwise. The combine
 * function lets chunks be checksummed on several threads.
 */
#ifndef TFC_IO_CRC32C_H
#define TFC_IO_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32C of data[0, n) appended to a buffer whose CRC-32C is crc
 * (start with 0). Thread-safe. */
uint32_t tfc_crc32c_extend(uint32_t crc, const void *data, size_t n);

/* tfc_crc32c_extend with the byte table only (what CPUs without SSE4.2 run;
 * tests compare both). */
uint32_t tfc_crc32c_extend_portable(uint32_t crc, const void *data, size_t n);

/* The CRC-32C of data[0, n). */
static inline uint32_t tfc_crc32c(const void *data, size_t n) {
  return tfc_crc32c_extend(0, data, n);
}

/* The CRC-32C of A ‖ B from crc_a = crc(A), crc_b = crc(B) and len_b = |B|. */
uint32_t tfc_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);

#define TFC_CRC32C_MASK_DELTA 0xa282ead8u

/* TF's stored form of a CRC (rotate right by 15, add a constant), which keeps
 * a CRC of data that itself holds CRCs from being trivially related. */
static inline uint32_t tfc_crc32c_mask(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + TFC_CRC32C_MASK_DELTA;
}

/* The inverse of tfc_crc32c_mask. */
static inline uint32_t tfc_crc32c_unmask(uint32_t masked) {
  uint32_t r = masked - TFC_CRC32C_MASK_DELTA;
  return (r >> 17) | (r << 15);
}

#endif
