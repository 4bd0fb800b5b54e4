/*
 * bundle_file.c — POSIX file helpers of the checkpoint files: TF's errno to
 * status mapping and messages ("<path>; No such file or directory"), mkdir
 * -p, whole writes and exact positioned reads, temporary names and atomic
 * whole-file writes (write a temporary file, then rename it into place).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "io/bundle_internal.h"

bool tfc_io_errno_status(tfc_status *st, int err, const char *what, const char *path) {
  return tfc_status_set(st, tfc_errno_code(err), "%s%s; %s", what, path, strerror(err));
}

char *tfc_io_dup_bytes(const void *p, size_t n) {
  char *s = tfc_malloc(n + 1);
  if (!s) return NULL;
  if (n) memcpy(s, p, n);
  s[n] = 0;
  return s;
}

bool tfc_io_make_parent_dirs(const char *path, tfc_status *st) {
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path) return true;
  char *dir = tfc_strndup(path, (size_t)(slash - path));
  if (!dir) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  struct stat sb;
  bool ok = true;
  if (stat(dir, &sb) != 0) {
    for (char *p = dir + 1;; p++) {
      if (*p == '/' || *p == 0) {
        char saved = *p;
        *p = 0;
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
          ok = tfc_io_errno_status(st, errno, "Failed to create a directory: ", dir);
          break;
        }
        *p = saved;
        if (saved == 0) break;
      }
    }
  } else if (!S_ISDIR(sb.st_mode)) {
    ok = tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "%s is not a directory", dir);
  }
  tfc_free(dir);
  return ok;
}

bool tfc_io_write_all(int fd, const void *data, size_t n, const char *path, tfc_status *st) {
  const char *p = data;
  while (n) {
    ssize_t w = write(fd, p, n > ((size_t)1 << 30) ? ((size_t)1 << 30) : n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return tfc_io_errno_status(st, errno, "Failed to write to ", path);
    }
    p += w;
    n -= (size_t)w;
  }
  return true;
}

bool tfc_io_pread_all(int fd, void *buf, size_t n, uint64_t offset, const char *path,
                      tfc_status *st) {
  char *p = buf;
  while (n) {
    ssize_t r = pread(fd, p, n > ((size_t)1 << 30) ? ((size_t)1 << 30) : n, (off_t)offset);
    if (r < 0) {
      if (errno == EINTR) continue;
      return tfc_io_errno_status(st, errno, "Failed to read ", path);
    }
    if (r == 0)
      return tfc_status_set(st, TFC_CODE_OUT_OF_RANGE, "Read less bytes than requested");
    p += r;
    n -= (size_t)r;
    offset += (uint64_t)r;
  }
  return true;
}

bool tfc_io_read_file(const char *path, uint8_t **data, size_t *len, tfc_status *st) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return tfc_io_errno_status(st, errno, "", path);
  struct stat sb;
  if (fstat(fd, &sb) != 0) {
    int e = errno;
    close(fd);
    return tfc_io_errno_status(st, e, "", path);
  }
  if (!S_ISREG(sb.st_mode)) {
    close(fd);
    return tfc_status_set(st, TFC_CODE_FAILED_PRECONDITION, "%s is not a file", path);
  }
  size_t n = (size_t)sb.st_size;
  uint8_t *buf = tfc_malloc(n ? n : 1);
  if (!buf) {
    close(fd);
    return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM reading %s", path);
  }
  bool ok = tfc_io_pread_all(fd, buf, n, 0, path, st);
  close(fd);
  if (!ok) {
    tfc_free(buf);
    return false;
  }
  *data = buf;
  *len = n;
  return true;
}

char *tfc_io_temp_name(const char *path) {
  static _Thread_local unsigned seed;
  if (!seed) seed = (unsigned)time(NULL) ^ (unsigned)getpid() ^ (unsigned)(uintptr_t)&seed;
  unsigned long long r = ((unsigned long long)rand_r(&seed) << 31) ^ (unsigned long long)rand_r(&seed);
  size_t n = strlen(path) + 48;
  char *s = tfc_malloc(n);
  if (s) snprintf(s, n, "%s.tempstate%llu", path, r);
  return s;
}

bool tfc_io_write_file_atomic(const char *path, const void *data, size_t len, tfc_status *st) {
  char *tmp = tfc_io_temp_name(path);
  if (!tmp) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  bool ok;
  if (fd < 0) {
    ok = tfc_io_errno_status(st, errno, "Failed to create a NewWriteableFile: ", tmp);
  } else {
    ok = tfc_io_write_all(fd, data, len, tmp, st);
    if (close(fd) != 0 && ok) ok = tfc_io_errno_status(st, errno, "Failed to close ", tmp);
    if (ok && rename(tmp, path) != 0) ok = tfc_io_errno_status(st, errno, "Failed to rename to ", path);
    if (!ok) unlink(tmp);
  }
  tfc_free(tmp);
  return ok;
}
