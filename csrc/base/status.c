/*
 * status.c — TF error codes and the fixed-size status object.
 */
#include "base/status.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Sets *st to OK with empty message and node. */
void tfc_status_clear(tfc_status *st) {
  st->code = TFC_CODE_OK;
  st->msg[0] = '\0';
  st->node[0] = '\0';
}

/* Sets code and a formatted message; the node is kept. Formats into a local
 * buffer first, so arguments may point into st->msg itself. Returns false. */
bool tfc_status_vset(tfc_status *st, tfc_code code, const char *fmt, va_list ap) {
  char tmp[TFC_STATUS_MSG_MAX];
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  size_t len = n < 0 ? 0 : (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1;
  st->code = code;
  memcpy(st->msg, tmp, len);
  st->msg[len] = '\0';
  return false;
}

/* printf-style front end of tfc_status_vset. Returns false. */
bool tfc_status_set(tfc_status *st, tfc_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tfc_status_vset(st, code, fmt, ap);
  va_end(ap);
  return false;
}

/* Records node (truncated to fit) unless a node is already recorded. */
void tfc_status_set_node(tfc_status *st, const char *node) {
  if (st->node[0] != '\0' || node == NULL) return;
  size_t n = strlen(node);
  if (n >= TFC_STATUS_NODE_MAX) n = TFC_STATUS_NODE_MAX - 1;
  memcpy(st->node, node, n);
  st->node[n] = '\0';
}

static const char *const k_code_names[] = {
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
};
_Static_assert(sizeof k_code_names / sizeof k_code_names[0] == TFC_CODE_UNAUTHENTICATED + 1,
               "code name table out of sync with tfc_code");

/* TF's upper-case name of code; "UNKNOWN" when out of range. */
const char *tfc_code_name(tfc_code code) {
  if ((int)code < 0 || (int)code > TFC_CODE_UNAUTHENTICATED) return "UNKNOWN";
  return k_code_names[code];
}

/* Copies src into dst; they must not alias. */
void tfc_status_copy(tfc_status *dst, const tfc_status *src) {
  if (dst == src) return;
  memcpy(dst, src, sizeof *dst);
}

/* Maps errno values onto TF's codes; see status.h. */
tfc_code tfc_errno_code(int e) {
  switch (e) {
    case 0: return TFC_CODE_OK;
    case ENOENT: case ESRCH: case ENXIO: case ENODEV: return TFC_CODE_NOT_FOUND;
    case EACCES: case EPERM: case EROFS: return TFC_CODE_PERMISSION_DENIED;
    case EEXIST: return TFC_CODE_ALREADY_EXISTS;
    case EINVAL: case ENAMETOOLONG: case E2BIG: case EFAULT: case ESPIPE: case ENOTTY:
      return TFC_CODE_INVALID_ARGUMENT;
    case ENOTDIR: case EISDIR: case ENOTEMPTY: case EBADF: case EBUSY: case ELOOP:
      return TFC_CODE_FAILED_PRECONDITION;
    case ENOSPC: case EMFILE: case ENFILE: case ENOMEM: case EFBIG: case EDQUOT:
      return TFC_CODE_RESOURCE_EXHAUSTED;
    case EAGAIN: case EINTR: return TFC_CODE_UNAVAILABLE;
    default: return TFC_CODE_UNKNOWN;
  }
}
