/*
 * security.c — environment settings for authentication and TLS (see security.h).
 */
#include "distributed/security.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* The value of an environment variable, NULL when unset or empty. */
static const char *env(const char *name) {
  const char *v = getenv(name);
  return v && v[0] ? v : NULL;
}

/* Reads a whole (small) file as a NUL-terminated string. */
static char *read_file(const char *var, const char *path, tfc_status *st) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "%s: cannot read %s: %s", var, path, strerror(errno));
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = tfc_malloc(cap);
  while (buf) {
    if (n + 1 >= cap) {
      if (cap > (1u << 24)) break; /* no certificate file is this big */
      char *b = tfc_realloc(buf, cap * 2);
      if (!b) {
        tfc_free(buf);
        buf = NULL;
        break;
      }
      buf = b;
      cap *= 2;
    }
    size_t k = fread(buf + n, 1, cap - 1 - n, f);
    n += k;
    if (k == 0) break;
  }
  fclose(f);
  if (!buf) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory reading %s", path);
    return NULL;
  }
  buf[n] = '\0';
  if (n == 0 || !strstr(buf, "-----BEGIN ")) {
    tfc_free(buf);
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "%s: %s is not a PEM file", var, path);
    return NULL;
  }
  return buf;
}

/* Loads the settings (see security.h). */
bool tfc_security_load(tfc_security *sec, bool for_server, tfc_status *st) {
  memset(sec, 0, sizeof *sec);
  sec->max_message = 2147483647;
  const char *mm = env("TFC_MAX_MESSAGE_BYTES");
  if (mm) {
    long long v = atoll(mm);
    if (v > 0 && v <= 2147483647LL) sec->max_message = v;
  }
  const char *tok = tfc_security_token();
  const char *cert = env("TFC_TLS_CERT"), *key = env("TFC_TLS_KEY"), *ca = env("TFC_TLS_CA");
  const char *name = env("TFC_TLS_TARGET_NAME");
  bool ok = true;
  if (tok && !(sec->token = tfc_strdup(tok))) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (ok && for_server && (cert != NULL) != (key != NULL))
    ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "TLS needs both TFC_TLS_CERT and TFC_TLS_KEY");
  if (ok && cert && key) ok = (sec->cert_pem = read_file("TFC_TLS_CERT", cert, st)) != NULL;
  if (ok && cert && key) ok = (sec->key_pem = read_file("TFC_TLS_KEY", key, st)) != NULL;
  if (ok && ca) ok = (sec->ca_pem = read_file("TFC_TLS_CA", ca, st)) != NULL;
  if (ok && name && !(sec->target_name = tfc_strdup(name)))
    ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  if (!ok) tfc_security_free(sec);
  return ok;
}

/* Frees the loaded strings. */
void tfc_security_free(tfc_security *sec) {
  tfc_free(sec->token);
  tfc_free(sec->cert_pem);
  if (sec->key_pem) {
    memset(sec->key_pem, 0, strlen(sec->key_pem));
    tfc_free(sec->key_pem);
  }
  tfc_free(sec->ca_pem);
  tfc_free(sec->target_name);
  memset(sec, 0, sizeof *sec);
}

/* The shared token (see security.h): read at each use, so a process may
 * change it between clusters. */
const char *tfc_security_token(void) { return env("TFC_AUTH_TOKEN"); }

/* Constant-time comparison of "Bearer <want>" with got. */
bool tfc_security_token_matches(const char *want, const void *got, size_t n) {
  static const char prefix[] = "Bearer ";
  size_t pl = sizeof prefix - 1, wl = strlen(want);
  if (n != pl + wl) return false;
  const unsigned char *g = got;
  unsigned diff = 0;
  for (size_t i = 0; i < pl; i++) diff |= (unsigned)(g[i] ^ (unsigned char)prefix[i]);
  for (size_t i = 0; i < wl; i++) diff |= (unsigned)(g[pl + i] ^ (unsigned char)want[i]);
  return diff == 0;
}
