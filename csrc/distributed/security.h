/*
 * security.h — who may talk to a task, read from the environment: a shared
 * token required on every RPC, TLS certificates, the largest request a
 * server accepts. The rpc files turn this into gRPC metadata and
 * credentials; nothing here includes gRPC.
 *
 *   TFC_AUTH_TOKEN=<secret>       every call carries "authorization: Bearer <secret>";
 *                                 a server answers UNAUTHENTICATED without it
 *   TFC_TLS_CERT=/path/cert.pem   server: serve TLS with this certificate ...
 *   TFC_TLS_KEY=/path/key.pem     ... and this private key
 *   TFC_TLS_CA=/path/ca.pem       client: connect with TLS, trusting these roots
 *                                 (with CERT/KEY also set, the client presents them)
 *   TFC_TLS_TARGET_NAME=name      client: the name the server certificate must carry
 *                                 (default: the host of the address)
 *   TFC_MAX_MESSAGE_BYTES=n       server: requests above n bytes get RESOURCE_EXHAUSTED
 *                                 (default 2147483647, protobuf's limit)
 *
 *   tfc_security sec;
 *   if (!tfc_security_load(&sec, true, st)) ...;   // PEM files read now
 *   ... sec.cert_pem ...
 *   tfc_security_free(&sec);
 */
#ifndef TFC_DISTRIBUTED_SECURITY_H
#define TFC_DISTRIBUTED_SECURITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

typedef struct tfc_security {
  char *token;            /* NULL: no token */
  char *cert_pem;         /* contents of TFC_TLS_CERT, or NULL */
  char *key_pem;          /* contents of TFC_TLS_KEY, or NULL */
  char *ca_pem;           /* contents of TFC_TLS_CA, or NULL */
  char *target_name;      /* TFC_TLS_TARGET_NAME, or NULL */
  int64_t max_message;    /* TFC_MAX_MESSAGE_BYTES (default INT32_MAX) */
} tfc_security;

/* Reads the settings. for_server: TLS needs both CERT and KEY (one without
 * the other is INVALID_ARGUMENT); otherwise TLS is on when CA is set. A PEM
 * file that cannot be read is INVALID_ARGUMENT naming it. */
bool tfc_security_load(tfc_security *sec, bool for_server, tfc_status *st);
void tfc_security_free(tfc_security *sec);

/* The shared token (TFC_AUTH_TOKEN), or NULL. */
const char *tfc_security_token(void);

/* True when the n bytes at got are "Bearer <want>"; constant time in n. */
bool tfc_security_token_matches(const char *want, const void *got, size_t n);

#endif
