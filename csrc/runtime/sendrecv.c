/*
 * sendrecv.c — kernels of _Send and _Recv: hand a tensor to the step's
 * rendezvous under TF's key, and wait for it (asynchronously) on the other
 * side. They live in the runtime because they need the step's rendezvous.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "runtime/executor.h"
#include "runtime/function.h"

/* Builds the rendezvous key from the node's attrs; state is the key string. */
static bool key_init(const tfc_kernel_init *ki, void **state) {
  const tfc_string *send = NULL, *recv = NULL, *name = NULL;
  int64_t inc = 0;
  if (!tfc_attrs_get_string(ki->attrs, "send_device", &send, ki->st) ||
      !tfc_attrs_get_string(ki->attrs, "recv_device", &recv, ki->st) ||
      !tfc_attrs_get_string(ki->attrs, "tensor_name", &name, ki->st) ||
      !tfc_attrs_get_int(ki->attrs, "send_device_incarnation", &inc, ki->st))
    return false;
  size_t size = send->len + recv->len + name->len + 64;
  char *key = tfc_malloc(size);
  char *s = tfc_strndup(send->data ? send->data : "", send->len);
  char *r = tfc_strndup(recv->data ? recv->data : "", recv->len);
  char *n = tfc_strndup(name->data ? name->data : "", name->len);
  bool ok = key && s && r && n && tfc_rendezvous_key(key, size, s, (long long)inc, r, n);
  tfc_free(s);
  tfc_free(r);
  tfc_free(n);
  if (!ok) {
    tfc_free(key);
    return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory building a rendezvous key");
  }
  *state = key;
  return true;
}

/* Frees the key. */
static void key_destroy(void *state) { tfc_free(state); }

/* The key of this call: the node's key (which ends in the root frame's
 * ";0:0") as it is outside every loop, else with the frame instance and
 * iteration the node runs in, so that each iteration of a loop that spans
 * devices moves its own tensor. Writes into buf (size bytes) when it must
 * build one; NULL when it does not fit. */
static const char *call_key(const tfc_kernel_ctx *ctx, char *buf, size_t size) {
  const char *key = ctx->state;
  if (ctx->frame_id == 0 && ctx->iter_id == 0) return key;
  size_t base = strlen(key);
  while (base > 0 && key[base - 1] != ';') base--;
  int n = snprintf(buf, size, "%.*s%llu:%lld", (int)base, key, (unsigned long long)ctx->frame_id,
                   (long long)ctx->iter_id);
  return n >= 0 && (size_t)n < size ? buf : NULL;
}

/* _Send: deliver input 0 (NULL when the control-flow runner hands over a
 * dead input: the tensor then arrives dead). */
static void send_compute(tfc_kernel_ctx *ctx) {
  tfc_rendezvous *r = tfc_step_rendezvous(ctx->step);
  if (!r) {
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "_Send outside a step with a rendezvous");
    return;
  }
  char buf[1024];
  const char *key = call_key(ctx, buf, sizeof buf);
  if (!key) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "rendezvous key of %s is too long", ctx->node_name);
    return;
  }
  r->ops->send(r, key, ctx->inputs[0], ctx->st);
}

/* Receive callback: sets the output (or the error) and completes the kernel.
 * A dead tensor leaves the output unset, which the control-flow runner takes
 * as a dead output (the straight-line runner, which never expects one, fails
 * the step). */
static void recv_done(void *arg, tfc_tensor *value, const tfc_status *st) {
  tfc_kernel_ctx *ctx = arg;
  if (st->code != TFC_CODE_OK) {
    if (ctx->st->code == TFC_CODE_OK) tfc_status_copy(ctx->st, st);
  } else if (value) {
    tfc_kernel_set_output(ctx, 0, tfc_tensor_ref(value));
  }
  tfc_kernel_async_done(ctx);
}

/* _Recv: ask the rendezvous; completes in recv_done. */
static void recv_compute(tfc_kernel_ctx *ctx) {
  tfc_rendezvous *r = tfc_step_rendezvous(ctx->step);
  if (!r) {
    tfc_kernel_fail(ctx, TFC_CODE_INTERNAL, "_Recv outside a step with a rendezvous");
    tfc_kernel_async_done(ctx);
    return;
  }
  char buf[1024];
  const char *key = call_key(ctx, buf, sizeof buf);
  if (!key) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "rendezvous key of %s is too long", ctx->node_name);
    tfc_kernel_async_done(ctx);
    return;
  }
  r->ops->recv_async(r, key, recv_done, ctx);
}

static const tfc_kernel_def defs[] = {
    {"_Recv", "CPU", NULL, NULL, key_init, recv_compute, key_destroy, TFC_KERNEL_ASYNC},
    {"_Send", "CPU", NULL, NULL, key_init, send_compute, key_destroy, 0},
    {"_HostRecv", "CPU", NULL, NULL, key_init, recv_compute, key_destroy, TFC_KERNEL_ASYNC},
    {"_HostSend", "CPU", NULL, NULL, key_init, send_compute, key_destroy, 0},
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool registered;

/* pthread_once body. */
static void do_register(void) {
  registered = tfc_kernel_register_table(defs, (int)(sizeof defs / sizeof defs[0])) &&
               tfc_function_kernels_register();
}

/* Registers the _Send/_Recv (and _HostSend/_HostRecv) kernels and the
 * function kernels once. */
bool tfc_sendrecv_register(void) {
  pthread_once(&once, do_register);
  return registered;
}
