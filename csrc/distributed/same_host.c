/*
 * same_host.c — reading a peer task's tensor bytes on the same host (see same_host.h).
 */
#include "distributed/same_host.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static char host_key[160];

/* Computes the host key once: processes that can name each other's pids. */
static void make_key(void) {
  char boot[64] = "";
  FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
  if (f) {
    if (!fgets(boot, sizeof boot, f)) boot[0] = '\0';
    fclose(f);
  }
  boot[strcspn(boot, "\n")] = '\0';
  struct stat sb;
  if (!boot[0] || stat("/proc/self/ns/pid", &sb) != 0) return;
  snprintf(host_key, sizeof host_key, "%s/%llu", boot, (unsigned long long)sb.st_ino);
}

/* The host key. */
const char *tfc_same_host_key(void) {
  pthread_once(&key_once, make_key);
  return host_key;
}

/* process_vm_readv until everything is copied. TFC_SAME_HOST_READ=0 in the
 * environment turns direct reads off (every lent tensor then comes over gRPC). */
bool tfc_same_host_read(int pid, uint64_t addr, void *dst, size_t len, tfc_status *st) {
  const char *env = getenv("TFC_SAME_HOST_READ");
  if (env && strcmp(env, "0") == 0)
    return tfc_status_set(st, TFC_CODE_UNAVAILABLE, "direct reads are turned off (TFC_SAME_HOST_READ=0)");
  size_t done = 0;
  while (done < len) {
    size_t chunk = len - done > (1u << 30) ? (1u << 30) : len - done;
    struct iovec local = {(char *)dst + done, chunk};
    struct iovec remote = {(void *)(uintptr_t)(addr + done), chunk};
    ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (n <= 0)
      return tfc_status_set(st, TFC_CODE_UNAVAILABLE, "process_vm_readv from pid %d: %s", pid,
                            n < 0 ? strerror(errno) : "no progress");
    done += (size_t)n;
  }
  return true;
}
