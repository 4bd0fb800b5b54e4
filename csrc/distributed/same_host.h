/*
 * same_host.h — the data plane for large tensors between tfc tasks on one
 * host, negotiated per RecvTensor through TF's hook, transport_options.
 *
 * The receiver offers Any{TFC_SAME_HOST_URL, its host key} in
 * RecvTensorRequest.transport_options (field 6). A tfc sender with the same
 * host key (boot id and pid namespace) and a numeric tensor of at least
 * TFC_SAME_HOST_MIN_BYTES lends the tensor to the step (it stays alive until
 * CleanupGraph) and answers only its dtype and shape, plus Any{TFC_SAME_HOST_URL,
 * "<pid> <address> <bytes> <token>"} in RecvTensorResponse.transport_options
 * (field 4). The receiver copies the bytes straight out of the sender's
 * memory into a new tensor with process_vm_readv (one copy, no socket). If
 * the kernel refuses that (another user, ptrace restrictions), it asks again
 * with Any{TFC_LENT_URL, token} and the sender answers the lent tensor over
 * gRPC. TF peers ignore the offer and answer over gRPC as always.
 */
#ifndef TFC_DISTRIBUTED_SAME_HOST_H
#define TFC_DISTRIBUTED_SAME_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "core/tensor.h"

#define TFC_SAME_HOST_URL "type.googleapis.com/tfc.SameHostTransport"
#define TFC_LENT_URL "type.googleapis.com/tfc.LentTensor"
#define TFC_SAME_HOST_MIN_BYTES (1u << 20)

/* This host's key ("<boot id>/<pid namespace inode>"), computed once; "" when unknown. */
const char *tfc_same_host_key(void);
/* Copies len bytes at address addr of process pid into dst; false + st when
 * the kernel refuses (or TFC_SAME_HOST_READ=0 turns direct reads off). */
bool tfc_same_host_read(int pid, uint64_t addr, void *dst, size_t len, tfc_status *st);

#endif
