/*
 * fingerprint.h — the stable 64-bit string hashes TensorFlow's ops use, bit
 * for bit: FarmHash's Fingerprint64 (TF's Fingerprint64: what
 * StringToHashBucketFast, Fingerprint and the hashed feature columns use)
 * and TF's legacy Hash64 (a MurmurHash64A variant with seed 0xDECAFCAFFE,
 * what StringToHashBucket uses). Both read the bytes little-endian, so the
 * values are the same on every host.
 */
#ifndef TFC_BASE_FINGERPRINT_H
#define TFC_BASE_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>

/* FarmHash Fingerprint64 of data[0..n) (data may be NULL when n is 0). */
uint64_t tfc_fingerprint64(const void *data, size_t n);
/* TF's Hash64(data, n, seed); TF's one-argument form uses seed 0xDECAFCAFFE. */
uint64_t tfc_hash64(const void *data, size_t n, uint64_t seed);

/* TF's FingerprintCat64: combines two fingerprints into one (order
 * matters); what SparseCross chains its feature hashes with. */
uint64_t tfc_fingerprint_cat64(uint64_t fp1, uint64_t fp2);

#define TFC_HASH64_DEFAULT_SEED 0xDECAFCAFFEull

#endif
