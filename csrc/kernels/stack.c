/*
 * stack.c — CPU kernels for StackV2, StackPushV2, StackPopV2, StackCloseV2
 * (core/ops_data_flow.c).
 *
 * A stack lives for as long as its handle (a RESOURCE tensor made by
 * tfc_tensor_handle): the gradient of a while loop pushes forward values in
 * the forward loop and pops them, last first, in the gradient loop of the same
 * step. Pushed tensors are kept by reference (tensors are immutable once
 * shared), so a push costs no copy; `swap_memory` is accepted and changes
 * nothing (there is no device memory to swap out of).
 *
 * Errors as TF's: popping an empty stack, pushing past max_size, an element of
 * another dtype, or using a closed stack are InvalidArgumentError.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "kernels/kernel.h"
#include "kernels/kernel_tables.h"

#define STACK_MAGIC 0x5354434bu

typedef struct stack {
  unsigned magic;         /* STACK_MAGIC: tells a stack handle from another resource */
  pthread_mutex_t mu;
  tfc_dtype elem_type;
  int64_t max_size;       /* < 0: unbounded */
  bool closed;
  int64_t n, cap;
  tfc_tensor **elems;
  char name[128];
} stack;

/* Release callback of a stack handle: drops the elements and frees the stack. */
static void stack_release(void *owner, void *data) {
  (void)data;
  stack *s = owner;
  for (int64_t i = 0; i < s->n; i++) tfc_tensor_unref(s->elems[i]);
  tfc_free(s->elems);
  pthread_mutex_destroy(&s->mu);
  tfc_free(s);
}

/* The stack behind input 0, or NULL with ctx failed (not a stack handle). */
static stack *stack_input(tfc_kernel_ctx *ctx) {
  stack *s = tfc_tensor_handle_object(ctx->inputs[0]);
  if (!s || s->magic != STACK_MAGIC) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input 0 of %s is not a stack handle",
                    ctx->op_type);
    return NULL;
  }
  return s;
}

/* StackV2(max_size) -> a new empty stack of elem_type. */
static void stack_new_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *ms = ctx->inputs[0];
  if (ms->rank != 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "max_size must be a scalar");
    return;
  }
  tfc_dtype et;
  if (!tfc_attrs_get_type(ctx->attrs, "elem_type", &et, ctx->st)) return;
  const tfc_string *sn = NULL;
  if (!tfc_attrs_get_string(ctx->attrs, "stack_name", &sn, ctx->st)) return;
  stack *s = tfc_malloc(sizeof *s);
  if (!s) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when creating a stack");
    return;
  }
  memset(s, 0, sizeof *s);
  s->magic = STACK_MAGIC;
  pthread_mutex_init(&s->mu, NULL);
  s->elem_type = tfc_dtype_base(et);
  s->max_size = *(const int32_t *)ms->data;
  if (sn && sn->len)
    snprintf(s->name, sizeof s->name, "%.*s", sn->len > 120 ? 120 : (int)sn->len, sn->data);
  else
    snprintf(s->name, sizeof s->name, "%s", ctx->node_name);
  tfc_tensor *h = tfc_tensor_handle(s, stack_release, ctx->st);
  if (!h) {
    stack_release(s, s);
    return;
  }
  tfc_kernel_set_output(ctx, 0, h);
}

/* StackPushV2(handle, elem) -> elem; the stack keeps a reference. */
static void stack_push_compute(tfc_kernel_ctx *ctx) {
  stack *s = stack_input(ctx);
  if (!s) return;
  tfc_tensor *e = ctx->inputs[1];
  pthread_mutex_lock(&s->mu);
  if (s->closed) {
    pthread_mutex_unlock(&s->mu);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Stack[%s] has already been closed.", s->name);
    return;
  }
  if (e->dtype != s->elem_type) {
    pthread_mutex_unlock(&s->mu);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Must have type %s but got %s", tfc_op_dtype_string(s->elem_type),
                    tfc_op_dtype_string(e->dtype));
    return;
  }
  if (s->max_size >= 0 && s->n >= s->max_size) {
    pthread_mutex_unlock(&s->mu);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Stack[%s] overflowed its max_size (%lld)",
                    s->name, (long long)s->max_size);
    return;
  }
  if (s->n == s->cap) {
    int64_t cap = s->cap ? s->cap * 2 : 16;
    tfc_tensor **ne = tfc_realloc(s->elems, (size_t)cap * sizeof *ne);
    if (!ne) {
      pthread_mutex_unlock(&s->mu);
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM when pushing onto Stack[%s]", s->name);
      return;
    }
    s->elems = ne;
    s->cap = cap;
  }
  s->elems[s->n++] = tfc_tensor_ref(e);
  pthread_mutex_unlock(&s->mu);
  tfc_kernel_forward(ctx, 1, 0);
}

/* StackPopV2(handle) -> the last pushed element, removed from the stack. */
static void stack_pop_compute(tfc_kernel_ctx *ctx) {
  stack *s = stack_input(ctx);
  if (!s) return;
  pthread_mutex_lock(&s->mu);
  if (s->closed) {
    pthread_mutex_unlock(&s->mu);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Stack[%s] has already been closed.", s->name);
    return;
  }
  if (s->n == 0) {
    pthread_mutex_unlock(&s->mu);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Stack[%s] is empty.", s->name);
    return;
  }
  tfc_tensor *e = s->elems[--s->n];
  pthread_mutex_unlock(&s->mu);
  if (e->dtype != tfc_dtype_base(ctx->out_types[0])) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "Popped element has type %s but elem_type is %s", tfc_op_dtype_string(e->dtype),
                    tfc_op_dtype_string(ctx->out_types[0]));
    tfc_tensor_unref(e);
    return;
  }
  tfc_kernel_set_output(ctx, 0, e);
}

/* StackCloseV2(handle): drops the elements; later pushes and pops fail. */
static void stack_close_compute(tfc_kernel_ctx *ctx) {
  stack *s = stack_input(ctx);
  if (!s) return;
  pthread_mutex_lock(&s->mu);
  for (int64_t i = 0; i < s->n; i++) tfc_tensor_unref(s->elems[i]);
  s->n = 0;
  s->closed = true;
  pthread_mutex_unlock(&s->mu);
}

static const tfc_kernel_def defs[] = {
    {"StackV2", "CPU", NULL, NULL, NULL, stack_new_compute, NULL, 0},
    {"StackPushV2", "CPU", NULL, NULL, NULL, stack_push_compute, NULL, 0},
    {"StackPopV2", "CPU", NULL, NULL, NULL, stack_pop_compute, NULL, 0},
    {"StackCloseV2", "CPU", NULL, NULL, NULL, stack_close_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_stack = {defs, (int)(sizeof defs / sizeof defs[0])};
