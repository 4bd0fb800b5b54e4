/*
 * device_name.c — parsing, formatting and matching of device names.
 */
#include "graph/device_name.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses a non-negative decimal int of len chars; false when not one. */
static bool parse_int(const char *s, size_t len, int *out) {
  if (len == 0 || len > 9) return false;
  int v = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isdigit((unsigned char)s[i])) return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

/* Sets type (upper-cased) and id ("*" = any id) from "TYPE" and "ID" pieces. */
static bool set_type_id(tfc_device_name *d, const char *type, size_t tlen, const char *id, size_t ilen) {
  if (tlen == 0 || tlen >= sizeof d->type) return false;
  for (size_t i = 0; i < tlen; i++) {
    if (!isalnum((unsigned char)type[i]) && type[i] != '_') return false;
    d->type[i] = (char)toupper((unsigned char)type[i]);
  }
  d->type[tlen] = 0;
  d->has_type = true;
  if (ilen == 1 && id[0] == '*') return true;
  if (!parse_int(id, ilen, &d->id)) return false;
  d->has_id = true;
  return true;
}

/* Parses one "/field" piece (without the slash). */
static bool parse_piece(tfc_device_name *d, const char *p, size_t len) {
  const char *colon = memchr(p, ':', len);
  if (!colon) return false;
  size_t klen = (size_t)(colon - p);
  const char *v = colon + 1;
  size_t vlen = len - klen - 1;
  if (klen == 3 && strncmp(p, "job", 3) == 0) {
    if (vlen == 0 || vlen >= sizeof d->job) return false;
    for (size_t i = 0; i < vlen; i++)
      if (!isalnum((unsigned char)v[i]) && v[i] != '_' && v[i] != '-') return false;
    memcpy(d->job, v, vlen);
    d->job[vlen] = 0;
    d->has_job = true;
    return true;
  }
  if (klen == 7 && strncmp(p, "replica", 7) == 0) {
    if (vlen == 1 && v[0] == '*') return true;
    d->has_replica = parse_int(v, vlen, &d->replica);
    return d->has_replica;
  }
  if (klen == 4 && strncmp(p, "task", 4) == 0) {
    if (vlen == 1 && v[0] == '*') return true;
    d->has_task = parse_int(v, vlen, &d->task);
    return d->has_task;
  }
  if (klen == 6 && strncmp(p, "device", 6) == 0) {
    const char *c2 = memchr(v, ':', vlen);
    if (!c2) return set_type_id(d, v, vlen, "*", 1);
    return set_type_id(d, v, (size_t)(c2 - v), c2 + 1, vlen - (size_t)(c2 - v) - 1);
  }
  /* legacy "/cpu:0", "/gpu:1" or bare "CPU:0" */
  return set_type_id(d, p, klen, v, vlen);
}

/* Parses a device name (see device_name.h). */
bool tfc_device_name_parse(const char *s, tfc_device_name *out, tfc_status *st) {
  memset(out, 0, sizeof *out);
  if (!s || !*s) return true;
  const char *p = s;
  bool ok = true;
  while (*p && ok) {
    if (*p == '/') p++;
    const char *end = strchr(p, '/');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == 0) {
      if (!end) break;
      ok = false;
      break;
    }
    ok = parse_piece(out, p, len);
    p += len;
  }
  if (!ok) return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Malformed device specification '%s'", s);
  return true;
}

/* Canonical text of the set fields. */
void tfc_device_name_format(const tfc_device_name *d, char *buf, int bufsize) {
  int n = 0;
  buf[0] = 0;
#define APPEND(...)                                                            \
  do {                                                                         \
    if (n < bufsize) n += snprintf(buf + n, (size_t)(bufsize - n), __VA_ARGS__); \
  } while (0)
  if (d->has_job) APPEND("/job:%s", d->job);
  if (d->has_replica) APPEND("/replica:%d", d->replica);
  if (d->has_task) APPEND("/task:%d", d->task);
  if (d->has_type) {
    if (d->has_id) APPEND("/device:%s:%d", d->type, d->id);
    else APPEND("/device:%s:*", d->type);
  }
#undef APPEND
}

/* True when every field set in spec equals dev's. */
bool tfc_device_name_matches(const tfc_device_name *spec, const tfc_device_name *dev) {
  if (spec->has_job && (!dev->has_job || strcmp(spec->job, dev->job) != 0)) return false;
  if (spec->has_replica && (!dev->has_replica || spec->replica != dev->replica)) return false;
  if (spec->has_task && (!dev->has_task || spec->task != dev->task)) return false;
  if (spec->has_type && (!dev->has_type || strcmp(spec->type, dev->type) != 0)) return false;
  if (spec->has_id && (!dev->has_id || spec->id != dev->id)) return false;
  return true;
}

/* True when a and b do not contradict each other. */
bool tfc_device_name_compatible(const tfc_device_name *a, const tfc_device_name *b) {
  if (a->has_job && b->has_job && strcmp(a->job, b->job) != 0) return false;
  if (a->has_replica && b->has_replica && a->replica != b->replica) return false;
  if (a->has_task && b->has_task && a->task != b->task) return false;
  if (a->has_type && b->has_type && strcmp(a->type, b->type) != 0) return false;
  if (a->has_id && b->has_id && a->id != b->id) return false;
  return true;
}

/* Fills unset fields of dst from src. */
void tfc_device_name_merge(tfc_device_name *dst, const tfc_device_name *src) {
  if (!dst->has_job && src->has_job) {
    dst->has_job = true;
    memcpy(dst->job, src->job, sizeof dst->job);
  }
  if (!dst->has_replica && src->has_replica) {
    dst->has_replica = true;
    dst->replica = src->replica;
  }
  if (!dst->has_task && src->has_task) {
    dst->has_task = true;
    dst->task = src->task;
  }
  if (!dst->has_type && src->has_type) {
    dst->has_type = true;
    memcpy(dst->type, src->type, sizeof dst->type);
  }
  if (!dst->has_id && src->has_id) {
    dst->has_id = true;
    dst->id = src->id;
  }
}
