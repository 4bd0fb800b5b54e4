/*
 * strbuf.h — growable NUL-terminated string buffer.
 */
#ifndef TFC_BASE_STRBUF_H
#define TFC_BASE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct tfc_strbuf {
  char *data; /* NUL-terminated when non-NULL */
  size_t len;
  size_t cap;
  bool oom;   /* set once an append failed; later appends are no-ops */
} tfc_strbuf;

/* Zero-initialises (no allocation). */
void tfc_strbuf_init(tfc_strbuf *b);
/* Frees the data. */
void tfc_strbuf_free(tfc_strbuf *b);
/* Appends n bytes. Returns false on out of memory (and sets b->oom). */
bool tfc_strbuf_append(tfc_strbuf *b, const char *s, size_t n);
/* Appends a NUL-terminated string. */
bool tfc_strbuf_puts(tfc_strbuf *b, const char *s);
/* Appends printf-formatted text. */
bool tfc_strbuf_printf(tfc_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns the contents ("" when empty; never NULL). */
const char *tfc_strbuf_cstr(const tfc_strbuf *b);

#endif
