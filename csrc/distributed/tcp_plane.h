/*
 * tcp_plane.h — the data plane for large tensors between tfc tasks on
 * different hosts: a plain TCP stream beside gRPC, negotiated per RecvTensor
 * through TF's hook, transport_options (see same_host.h for the same-host
 * plane this complements).
 *
 * The receiver offers Any{TFC_SAME_HOST_URL, its host key} as always (or
 * Any{TFC_TCP_URL, ""} when TFC_DATA_PLANE=tcp forces this plane, e.g. to
 * test it on one machine). A tfc sender on another host (or asked for TCP)
 * with a numeric tensor of at least TFC_SAME_HOST_MIN_BYTES lends the tensor
 * to the step and answers its dtype and shape plus Any{TFC_TCP_URL,
 * "<host> <port> <bytes> <token>"}: host is the sender's address in the
 * cluster spec (or TFC_TCP_PLANE_HOST in its environment), port that of its
 * TCP plane (started on first use, any free
 * port). The receiver connects, sends the step id and token (two
 * little-endian int64), and reads an 8-byte little-endian length followed by
 * the tensor's bytes straight into the new tensor's buffer (one copy on each
 * side, no protobuf framing). If anything fails it asks again with
 * Any{TFC_LENT_URL, token} and gets the lent tensor over gRPC. TF peers ignore
 * the offer and answer over gRPC as always.
 *
 * Like gRPC here, the stream is not encrypted or authenticated: a lent
 * tensor can be read by anyone who can reach the port and knows the step id
 * and token, for the life of the step.
 */
#ifndef TFC_DISTRIBUTED_TCP_PLANE_H
#define TFC_DISTRIBUTED_TCP_PLANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "core/tensor.h"

#define TFC_TCP_URL "type.googleapis.com/tfc.TcpTransport"

/* Finds the tensor lent under (step_id, token): a new reference, or NULL. */
typedef tfc_tensor *(*tfc_tcp_lookup_fn)(void *ctx, int64_t step_id, int64_t token);

typedef struct tfc_tcp_plane tfc_tcp_plane;

/* Listens on every interface at a free port and serves lent tensors found
 * with lookup(ctx, ...) from a thread of its own (one more per connection).
 * NULL + st (UNAVAILABLE) when no socket can be opened. */
tfc_tcp_plane *tfc_tcp_plane_start(tfc_tcp_lookup_fn lookup, void *ctx, tfc_status *st);
/* The port it listens on. */
int tfc_tcp_plane_port(const tfc_tcp_plane *p);
/* Stops listening, waits for the transfers in flight, frees. NULL-safe. */
void tfc_tcp_plane_stop(tfc_tcp_plane *p);

/* Reads the n bytes lent under (step_id, token) from host:port into dst.
 * false + st (UNAVAILABLE: cannot connect, peer closed, timeout after
 * timeout_ms of silence; NOT_FOUND: the peer has no such tensor;
 * INTERNAL: the peer announced another size). */
bool tfc_tcp_plane_fetch(const char *host, int port, int64_t step_id, int64_t token, void *dst, size_t n,
                         int64_t timeout_ms, tfc_status *st);

/* True when TFC_DATA_PLANE=tcp asks receivers to offer this plane even to
 * peers on the same host. */
bool tfc_tcp_plane_forced(void);

#endif
