/*
 * status.h — error codes and the status object every fallible tfc call fills.
 *
 * Codes are TensorFlow's (tensorflow/core/protobuf/error_codes.proto), so a
 * status maps 1:1 onto tfc.errors classes and onto gRPC status codes.
 * A tfc_status is a plain struct with a fixed message buffer: setting one never
 * allocates, so out-of-memory can itself be reported.
 */
#ifndef TFC_BASE_STATUS_H
#define TFC_BASE_STATUS_H

#include <stdarg.h>
#include <stdbool.h>

typedef enum tfc_code {
  TFC_CODE_OK = 0,
  TFC_CODE_CANCELLED = 1,
  TFC_CODE_UNKNOWN = 2,
  TFC_CODE_INVALID_ARGUMENT = 3,
  TFC_CODE_DEADLINE_EXCEEDED = 4,
  TFC_CODE_NOT_FOUND = 5,
  TFC_CODE_ALREADY_EXISTS = 6,
  TFC_CODE_PERMISSION_DENIED = 7,
  TFC_CODE_RESOURCE_EXHAUSTED = 8,
  TFC_CODE_FAILED_PRECONDITION = 9,
  TFC_CODE_ABORTED = 10,
  TFC_CODE_OUT_OF_RANGE = 11,
  TFC_CODE_UNIMPLEMENTED = 12,
  TFC_CODE_INTERNAL = 13,
  TFC_CODE_UNAVAILABLE = 14,
  TFC_CODE_DATA_LOSS = 15,
  TFC_CODE_UNAUTHENTICATED = 16
} tfc_code;

#define TFC_STATUS_MSG_MAX 1024
#define TFC_STATUS_NODE_MAX 256

typedef struct tfc_status {
  tfc_code code;
  char msg[TFC_STATUS_MSG_MAX];   /* NUL-terminated, truncated if longer */
  char node[TFC_STATUS_NODE_MAX]; /* name of the node that failed, or "" */
} tfc_status;

/* Sets *st to OK with empty message and node. */
void tfc_status_clear(tfc_status *st);

/* Sets code and printf-formatted message; node is left unchanged.
 * Returns false (so `return tfc_status_set(...)` reads as failure). */
bool tfc_status_set(tfc_status *st, tfc_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The status code TF gives errno e (ENOENT -> NOT_FOUND, EACCES ->
 * PERMISSION_DENIED, ENOSPC -> RESOURCE_EXHAUSTED, ...; 0 -> OK; others UNKNOWN). */
tfc_code tfc_errno_code(int e);

/* va_list form of tfc_status_set. */
bool tfc_status_vset(tfc_status *st, tfc_code code, const char *fmt, va_list ap);

/* Records `node` as the failing node if none is recorded yet. */
void tfc_status_set_node(tfc_status *st, const char *node);

/* True when st->code is OK. */
static inline bool tfc_status_ok(const tfc_status *st) { return st->code == TFC_CODE_OK; }

/* TF's upper-case name of a code ("INVALID_ARGUMENT"); "UNKNOWN" if out of range. */
const char *tfc_code_name(tfc_code code);

/* Copies src into dst (both may not alias). */
void tfc_status_copy(tfc_status *dst, const tfc_status *src);

#endif
