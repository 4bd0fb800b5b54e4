/*
 * tcp_plane.c — lent tensors over a plain TCP stream (see tcp_plane.h).
 */
#include "distributed/tcp_plane.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "base/alloc.h"

#define NOT_FOUND_LEN UINT64_MAX
#define SERVE_TIMEOUT_MS 60000

struct tfc_tcp_plane {
  int listen_fd;
  int port;
  tfc_tcp_lookup_fn lookup;
  void *ctx;
  pthread_t acceptor;
  atomic_bool stopping;
  pthread_mutex_t mu;
  pthread_cond_t idle;
  int active;              /* connections being served */
};

/* Little-endian encode/decode of a 64-bit value. */
static void put_le64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t get_le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* Sends all n bytes; false on error. */
static bool send_all(int fd, const void *data, size_t n) {
  const char *p = data;
  while (n > 0) {
    ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= (size_t)k;
  }
  return true;
}

/* Receives exactly n bytes; false on error, timeout or early close. */
static bool recv_all(int fd, void *data, size_t n) {
  char *p = data;
  while (n > 0) {
    ssize_t k = recv(fd, p, n, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= (size_t)k;
  }
  return true;
}

/* Socket options of both ends: no Nagle delay, send and receive timeouts
 * (so a dead peer cannot hang a transfer). The buffer sizes are left to the
 * kernel: setting them would turn off its autotuning, which grows them
 * further than an unprivileged process may. */
static void tune(int fd, int64_t timeout_ms) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct timeval tv = {(time_t)(timeout_ms / 1000), (suseconds_t)((timeout_ms % 1000) * 1000)};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

typedef struct conn {
  tfc_tcp_plane *p;
  int fd;
} conn;

/* Serves one connection: request (step id, token), answer (length, bytes). */
static void *serve_main(void *arg) {
  conn *c = arg;
  tfc_tcp_plane *p = c->p;
  uint8_t req[16], head[8];
  if (recv_all(c->fd, req, sizeof req)) {
    int64_t step_id = (int64_t)get_le64(req), token = (int64_t)get_le64(req + 8);
    tfc_tensor *t = p->lookup(p->ctx, step_id, token);
    put_le64(head, t ? (uint64_t)tfc_tensor_nbytes(t) : NOT_FOUND_LEN);
    if (send_all(c->fd, head, sizeof head) && t) send_all(c->fd, t->data, tfc_tensor_nbytes(t));
    tfc_tensor_unref(t);
  }
  close(c->fd);
  tfc_free(c);
  pthread_mutex_lock(&p->mu);
  if (--p->active == 0) pthread_cond_broadcast(&p->idle);
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* Accepts connections until stopped; polls so tfc_tcp_plane_stop can end it. */
static void *accept_main(void *arg) {
  tfc_tcp_plane *p = arg;
  while (!atomic_load(&p->stopping)) {
    struct pollfd pf = {p->listen_fd, POLLIN, 0};
    int r = poll(&pf, 1, 100);
    if (r <= 0) continue;
    int fd = accept(p->listen_fd, NULL, NULL);
    if (fd < 0) continue;
    tune(fd, SERVE_TIMEOUT_MS);
    conn *c = tfc_malloc(sizeof *c);
    pthread_t th;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    bool started = false;
    if (c) {
      c->p = p;
      c->fd = fd;
      pthread_mutex_lock(&p->mu);
      p->active++;
      pthread_mutex_unlock(&p->mu);
      started = pthread_create(&th, &attr, serve_main, c) == 0;
      if (!started) {
        pthread_mutex_lock(&p->mu);
        p->active--;
        pthread_mutex_unlock(&p->mu);
      }
    }
    pthread_attr_destroy(&attr);
    if (!started) {
      close(fd);
      tfc_free(c);
    }
  }
  return NULL;
}

/* Starts the plane (see tcp_plane.h). */
tfc_tcp_plane *tfc_tcp_plane_start(tfc_tcp_lookup_fn lookup, void *ctx, tfc_status *st) {
  int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  bool v6 = fd >= 0;
  if (!v6) fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    tfc_status_set(st, TFC_CODE_UNAVAILABLE, "TCP data plane: socket: %s", strerror(errno));
    return NULL;
  }
  int one = 1, zero = 0;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_storage ss;
  socklen_t sl;
  memset(&ss, 0, sizeof ss);
  if (v6) {
    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);  /* IPv4 too */
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
    a->sin6_family = AF_INET6;
    a->sin6_addr = in6addr_any;
    sl = sizeof *a;
  } else {
    struct sockaddr_in *a = (struct sockaddr_in *)&ss;
    a->sin_family = AF_INET;
    a->sin_addr.s_addr = htonl(INADDR_ANY);
    sl = sizeof *a;
  }
  if (bind(fd, (struct sockaddr *)&ss, sl) != 0 || listen(fd, 64) != 0 ||
      getsockname(fd, (struct sockaddr *)&ss, &sl) != 0) {
    tfc_status_set(st, TFC_CODE_UNAVAILABLE, "TCP data plane: cannot listen: %s", strerror(errno));
    close(fd);
    return NULL;
  }
  tfc_tcp_plane *p = tfc_calloc(1, sizeof *p);
  if (!p) {
    close(fd);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  p->listen_fd = fd;
  p->port = v6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port) : ntohs(((struct sockaddr_in *)&ss)->sin_port);
  p->lookup = lookup;
  p->ctx = ctx;
  atomic_init(&p->stopping, false);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->idle, NULL);
  if (pthread_create(&p->acceptor, NULL, accept_main, p) != 0) {
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->idle);
    close(fd);
    tfc_free(p);
    tfc_status_set(st, TFC_CODE_UNAVAILABLE, "TCP data plane: cannot start a thread");
    return NULL;
  }
  return p;
}

/* The listening port. */
int tfc_tcp_plane_port(const tfc_tcp_plane *p) { return p->port; }

/* Stops the plane (see tcp_plane.h). */
void tfc_tcp_plane_stop(tfc_tcp_plane *p) {
  if (!p) return;
  atomic_store(&p->stopping, true);
  pthread_join(p->acceptor, NULL);
  close(p->listen_fd);
  pthread_mutex_lock(&p->mu);
  while (p->active > 0) pthread_cond_wait(&p->idle, &p->mu);
  pthread_mutex_unlock(&p->mu);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->idle);
  tfc_free(p);
}

/* Fetches a lent tensor (see tcp_plane.h). */
bool tfc_tcp_plane_fetch(const char *host, int port, int64_t step_id, int64_t token, void *dst, size_t n,
                         int64_t timeout_ms, tfc_status *st) {
  char service[16];
  snprintf(service, sizeof service, "%d", port);
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  int gai = getaddrinfo(host, service, &hints, &res);
  if (gai != 0)
    return tfc_status_set(st, TFC_CODE_UNAVAILABLE, "TCP data plane: cannot resolve %s: %s", host,
                          gai_strerror(gai));
  int fd = -1;
  for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    tune(fd, timeout_ms > 0 ? timeout_ms : SERVE_TIMEOUT_MS);
    if (connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(res);
  if (fd < 0)
    return tfc_status_set(st, TFC_CODE_UNAVAILABLE, "TCP data plane: cannot connect to %s:%d", host, port);
  uint8_t req[16], head[8];
  put_le64(req, (uint64_t)step_id);
  put_le64(req + 8, (uint64_t)token);
  bool ok = send_all(fd, req, sizeof req) && recv_all(fd, head, sizeof head);
  if (!ok) {
    close(fd);
    return tfc_status_set(st, TFC_CODE_UNAVAILABLE, "TCP data plane: %s:%d closed the stream", host, port);
  }
  uint64_t len = get_le64(head);
  if (len == NOT_FOUND_LEN) {
    close(fd);
    return tfc_status_set(st, TFC_CODE_NOT_FOUND, "TCP data plane: %s:%d has no tensor %lld of step %lld",
                          host, port, (long long)token, (long long)step_id);
  }
  if (len != (uint64_t)n) {
    close(fd);
    return tfc_status_set(st, TFC_CODE_INTERNAL, "TCP data plane: %s:%d announced %llu bytes, expected %zu",
                          host, port, (unsigned long long)len, n);
  }
  ok = recv_all(fd, dst, n);
  close(fd);
  if (!ok)
    return tfc_status_set(st, TFC_CODE_UNAVAILABLE, "TCP data plane: transfer from %s:%d broke off", host,
                          port);
  return true;
}

/* TFC_DATA_PLANE=tcp. */
bool tfc_tcp_plane_forced(void) {
  const char *env = getenv("TFC_DATA_PLANE");
  return env && strcmp(env, "tcp") == 0;
}
