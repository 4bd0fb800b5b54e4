/*
 * io.c — CPU kernels ReadFile and WriteFile on the local file system.
 *
 * Errors are TensorFlow's: "<path>; <strerror(errno)>" with the status code
 * TF maps the errno to (ENOENT -> NOT_FOUND, EACCES -> PERMISSION_DENIED, ...).
 * WriteFile creates missing parent directories first, as TF does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "kernels/image_internal.h"

/* Fails the kernel with TF's "<path>; <strerror>" for errno e. */
static void fail_errno(tfc_kernel_ctx *ctx, const char *path, int e) {
  tfc_kernel_fail(ctx, tfc_errno_code(e), "%s; %s", path, strerror(e));
}

/* Checks that input i is a scalar string; `what` names it in TF's message. */
static bool scalar_string(tfc_kernel_ctx *ctx, int i, const char *what) {
  const tfc_tensor *t = ctx->inputs[i];
  if (t->rank == 0) return true;
  tfc_shape s = tfc_tensor_shape(t);
  char buf[128];
  tfc_shape_debug_string(&s, buf, sizeof buf);
  return tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s must be scalar, but had shape: %s",
                         what, buf);
}

/* A NUL-terminated copy of a string element (NULL + ctx failed on OOM). */
static char *cstr(tfc_kernel_ctx *ctx, const tfc_string *s) {
  char *p = tfc_malloc(s->len + 1);
  if (!p) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM copying a file name");
    return NULL;
  }
  if (s->len) memcpy(p, s->data, s->len);
  p[s->len] = 0;
  return p;
}

void tfc_image_read_file(tfc_kernel_ctx *ctx) {
  if (!scalar_string(ctx, 0, "Input filename tensor")) return;
  char *path = cstr(ctx, (const tfc_string *)ctx->inputs[0]->data);
  if (!path) return;
  char *buf = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat sb;
  if (fd < 0 || fstat(fd, &sb) != 0) {
    fail_errno(ctx, path, errno);
    goto done;
  }
  size_t cap = S_ISREG(sb.st_mode) && sb.st_size > 0 ? (size_t)sb.st_size : 4096, len = 0;
  buf = tfc_malloc(cap + 1);
  if (!buf) goto oom;
  for (;;) {
    if (len == cap) {
      char *nb = tfc_realloc(buf, cap * 2 + 1);
      if (!nb) goto oom;
      buf = nb;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + len, cap - len);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_errno(ctx, path, errno);
      goto done;
    }
    if (n == 0) break;
    len += (size_t)n;
  }
  tfc_tensor *out = tfc_kernel_alloc_output(ctx, 0, TFC_DTYPE_STRING, 0, NULL);
  if (out) tfc_tensor_set_string(out, 0, buf, len, ctx->st);
  goto done;
oom:
  tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "OOM reading %s", path);
done:
  if (fd >= 0) close(fd);
  tfc_free(buf);
  tfc_free(path);
}

/* mkdir -p of the directory part of path (no-op when it has none). */
static bool make_parents(tfc_kernel_ctx *ctx, char *path) {
  char *slash = strrchr(path, '/');
  if (!slash || slash == path) return true;
  *slash = 0;
  struct stat sb;
  bool ok = true;
  if (stat(path, &sb) != 0) {
    for (char *p = path + 1; ok; p++) {
      if (*p == '/' || *p == 0) {
        char saved = *p;
        *p = 0;
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
          fail_errno(ctx, path, errno);
          ok = false;
        }
        *p = saved;
        if (saved == 0) break;
      }
    }
  }
  *slash = '/';
  return ok;
}

void tfc_image_write_file(tfc_kernel_ctx *ctx) {
  if (!scalar_string(ctx, 0, "Input filename tensor")) return;
  if (!scalar_string(ctx, 1, "Contents tensor")) return;
  char *path = cstr(ctx, (const tfc_string *)ctx->inputs[0]->data);
  if (!path) return;
  const tfc_string *c = ctx->inputs[1]->data;
  if (!make_parents(ctx, path)) {
    tfc_free(path);
    return;
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    fail_errno(ctx, path, errno);
    tfc_free(path);
    return;
  }
  size_t off = 0;
  while (off < c->len) {
    ssize_t n = write(fd, c->data + off, c->len - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_errno(ctx, path, errno);
      break;
    }
    off += (size_t)n;
  }
  if (close(fd) != 0 && tfc_kernel_ok(ctx)) fail_errno(ctx, path, errno);
  tfc_free(path);
}
