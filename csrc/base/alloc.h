/*
 * alloc.h — the one allocation funnel of tfc.
 *
 * Every heap allocation in csrc/ goes through these functions, so tests can
 * make the Nth allocation fail (tfc_alloc_fail_after) and check that the API
 * reports RESOURCE_EXHAUSTED cleanly instead of crashing. A NULL return is
 * the only failure signal; callers turn it into a status.
 */
#ifndef TFC_BASE_ALLOC_H
#define TFC_BASE_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#define TFC_ALIGN 64

/* malloc; NULL on failure (or injected failure). size 0 returns a valid pointer. */
void *tfc_malloc(size_t size);
/* calloc(n, size) with overflow check; NULL on failure. */
void *tfc_calloc(size_t n, size_t size);
/* realloc; on failure returns NULL and leaves p untouched. */
void *tfc_realloc(void *p, size_t size);
/* free; NULL is a no-op. Only for pointers from tfc_malloc/calloc/realloc/strdup. */
void tfc_free(void *p);
/* strdup through the funnel; NULL on failure. */
char *tfc_strdup(const char *s);
/* strndup through the funnel; copies at most n bytes and NUL-terminates. */
char *tfc_strndup(const char *s, size_t n);
/* Memory aligned to TFC_ALIGN bytes, size rounded up; free with tfc_aligned_free. */
void *tfc_aligned_alloc(size_t size);
/* Frees memory from tfc_aligned_alloc; NULL is a no-op. */
void tfc_aligned_free(void *p);

/* Test hook: the n-th allocation from now (1-based) and all later ones fail
 * until tfc_alloc_fail_after(0) turns injection off. Thread-safe. */
void tfc_alloc_fail_after(int64_t n);

#endif
