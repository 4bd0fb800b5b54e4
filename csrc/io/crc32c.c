/*
 * crc32c.c — CRC-32C with the SSE4.2 instruction (three interleaved streams
 * over 8 KiB blocks, joined with a precomputed "shift by 8 KiB" table) or a
 * byte table, and the GF(2) combine of two CRCs.
 *
 * All arithmetic below is on the raw (pre/post-inverted) register of the
 * reflected CRC with polynomial 0x82F63B78, which is linear: the register
 * after A ‖ B equals shift(reg(A), |B|) ^ reg0(B), where reg0(B) is B's
 * register started from zero.
 */
#include <pthread.h>
#include <string.h>

#include "io/crc32c.h"

/* The hardware path is compiled for SSE4.2 whatever -march says and chosen
 * at run time when the CPU has the instruction. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>
#define HAVE_HW_CRC 1
#define HW_TARGET __attribute__((target("sse4.2")))
#else
#define HAVE_HW_CRC 0
#endif

#define POLY 0x82F63B78u
#define LONG_BLOCK 8192u /* bytes per stream and interleaved round */

static uint32_t byte_table[256];      /* one byte through the register */
static uint32_t shift_long[4][256];   /* the register advanced over LONG_BLOCK zero bytes */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static int use_hw;                    /* the CPU has SSE4.2's crc32 */

/* mat * vec over GF(2): mat holds 32 columns. */
static uint32_t gf2_times(const uint32_t *mat, uint32_t vec) {
  uint32_t sum = 0;
  for (; vec; vec >>= 1, mat++)
    if (vec & 1) sum ^= *mat;
  return sum;
}

/* sq = mat * mat. */
static void gf2_square(uint32_t *sq, const uint32_t *mat) {
  for (int n = 0; n < 32; n++) sq[n] = gf2_times(mat, mat[n]);
}

/* The operator that advances the register over one zero byte, in op[32]. */
static void zero_byte_op(uint32_t *op) {
  uint32_t bit[32], two[32];
  bit[0] = POLY;
  for (int n = 1; n < 32; n++) bit[n] = 1u << (n - 1);
  gf2_square(two, bit);  /* 2 bits */
  gf2_square(bit, two);  /* 4 bits */
  gf2_square(op, bit);   /* 8 bits */
}

/* Fills the byte table and the LONG_BLOCK shift table (once). */
static void init_tables(void) {
  for (uint32_t b = 0; b < 256; b++) {
    uint32_t c = b;
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ ((c & 1) ? POLY : 0);
    byte_table[b] = c;
  }
  uint32_t op[32], tmp[32];
  zero_byte_op(op);
  for (uint32_t len = 1; len < LONG_BLOCK; len <<= 1) {  /* LONG_BLOCK is a power of two */
    gf2_square(tmp, op);
    memcpy(op, tmp, sizeof op);
  }
  for (int k = 0; k < 4; k++)
    for (uint32_t b = 0; b < 256; b++) shift_long[k][b] = gf2_times(op, b << (8 * k));
#if HAVE_HW_CRC
  __builtin_cpu_init();
  use_hw = __builtin_cpu_supports("sse4.2");
#endif
}

/* Register update over p[0, n) with the byte table (no inversion). */
static uint32_t sw_update(uint32_t reg, const uint8_t *p, size_t n) {
  while (n--) reg = byte_table[(reg ^ *p++) & 0xff] ^ (reg >> 8);
  return reg;
}

#if HAVE_HW_CRC
/* The register advanced over LONG_BLOCK zero bytes. */
static inline uint32_t shift_by_long(uint32_t reg) {
  return shift_long[0][reg & 0xff] ^ shift_long[1][(reg >> 8) & 0xff] ^
         shift_long[2][(reg >> 16) & 0xff] ^ shift_long[3][reg >> 24];
}

/* Register update over p[0, n) with the crc32 instruction, one stream. */
HW_TARGET static uint32_t hw_update(uint32_t reg, const uint8_t *p, size_t n) {
  while (n && ((uintptr_t)p & 7)) {
    reg = _mm_crc32_u8(reg, *p++);
    n--;
  }
  uint64_t r64 = reg;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    r64 = _mm_crc32_u64(r64, w);
    p += 8;
    n -= 8;
  }
  reg = (uint32_t)r64;
  while (n--) reg = _mm_crc32_u8(reg, *p++);
  return reg;
}

/* Register update over p[0, n): three interleaved streams per round of
 * 3 * LONG_BLOCK bytes (the instruction's latency hidden), joined with
 * the shift table; the tail in one stream. */
HW_TARGET static uint32_t hw_update_long(uint32_t reg, const uint8_t *p, size_t n) {
  while (n >= 3 * LONG_BLOCK) {
    uint64_t a = reg, b = 0, c = 0;
    const uint8_t *end = p + LONG_BLOCK;
    do {
      uint64_t wa, wb, wc;
      memcpy(&wa, p, 8);
      memcpy(&wb, p + LONG_BLOCK, 8);
      memcpy(&wc, p + 2 * LONG_BLOCK, 8);
      a = _mm_crc32_u64(a, wa);
      b = _mm_crc32_u64(b, wb);
      c = _mm_crc32_u64(c, wc);
      p += 8;
    } while (p < end);
    reg = shift_by_long(shift_by_long((uint32_t)a) ^ (uint32_t)b) ^ (uint32_t)c;
    p += 2 * LONG_BLOCK;
    n -= 3 * LONG_BLOCK;
  }
  return hw_update(reg, p, n);
}
#endif

uint32_t tfc_crc32c_extend(uint32_t crc, const void *data, size_t n) {
  pthread_once(&tables_once, init_tables);
  uint32_t reg = ~crc;
#if HAVE_HW_CRC
  if (use_hw) return ~hw_update_long(reg, data, n);
#endif
  return ~sw_update(reg, data, n);
}

uint32_t tfc_crc32c_extend_portable(uint32_t crc, const void *data, size_t n) {
  pthread_once(&tables_once, init_tables);
  return ~sw_update(~crc, data, n);
}

uint32_t tfc_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b) {
  if (len_b == 0) return crc_a;
  /* crc(A‖B) = shift(crc_a, len_b) ^ crc_b with the pre/post inversions
   * cancelling to the same form as zlib's crc32_combine. */
  uint32_t op[32], sq[32];
  zero_byte_op(op);
  uint32_t reg = crc_a;
  for (;;) {
    if (len_b & 1) reg = gf2_times(op, reg);
    len_b >>= 1;
    if (!len_b) break;
    gf2_square(sq, op);
    memcpy(op, sq, sizeof op);
  }
  return reg ^ crc_b;
}
