/*
 * strbuf.c — growable NUL-terminated string buffer.
 */
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"

/* Empty buffer, no allocation. */
void tfc_strbuf_init(tfc_strbuf *b) {
  b->data = NULL;
  b->len = 0;
  b->cap = 0;
  b->oom = false;
}

/* Frees the data and resets to empty (the oom flag is cleared too). */
void tfc_strbuf_free(tfc_strbuf *b) {
  tfc_free(b->data);
  tfc_strbuf_init(b);
}

/* Makes room for `extra` more bytes plus the NUL. false (and oom) on failure. */
static bool reserve(tfc_strbuf *b, size_t extra) {
  if (b->oom) return false;
  if (extra > SIZE_MAX - b->len - 1) {
    b->oom = true;
    return false;
  }
  size_t need = b->len + extra + 1;
  if (need <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 32;
  while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
  char *d = tfc_realloc(b->data, cap);
  if (!d) {
    b->oom = true;
    return false;
  }
  b->data = d;
  b->cap = cap;
  return true;
}

/* Appends n bytes of s. false once out of memory. */
bool tfc_strbuf_append(tfc_strbuf *b, const char *s, size_t n) {
  if (!reserve(b, n)) return false;
  if (n) memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
  return true;
}

/* Appends the NUL-terminated string s. */
bool tfc_strbuf_puts(tfc_strbuf *b, const char *s) { return tfc_strbuf_append(b, s, strlen(s)); }

/* Appends printf-formatted text. false on out of memory or a format error. */
bool tfc_strbuf_printf(tfc_strbuf *b, const char *fmt, ...) {
  if (b->oom) return false;
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return false;
  if ((size_t)n < sizeof small) return tfc_strbuf_append(b, small, (size_t)n);
  if (!reserve(b, (size_t)n)) return false;
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return true;
}

/* The contents; "" when nothing was appended. Never NULL. */
const char *tfc_strbuf_cstr(const tfc_strbuf *b) { return b->data ? b->data : ""; }
