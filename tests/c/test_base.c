/*
 * test_base.c — unit tests of csrc/base: status, alloc, hashmap (and TF's Hash64), strbuf, threadpool.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/block_cache.h"
#include "base/hashmap.h"
#include "base/status.h"
#include "base/strbuf.h"
#include "base/threadpool.h"
#include "harness.h"

TFC_TEST(status_set_and_clear) {
  tfc_status st;
  tfc_status_clear(&st);
  CHECK(tfc_status_ok(&st));
  CHECK(!tfc_status_set(&st, TFC_CODE_NOT_FOUND, "x=%d", 42));
  CHECK_CODE(&st, TFC_CODE_NOT_FOUND);
  CHECK(strcmp(st.msg, "x=42") == 0);
  tfc_status_set_node(&st, "first");
  tfc_status_set_node(&st, "second");
  CHECK(strcmp(st.node, "first") == 0);
  /* message may refer to itself */
  tfc_status_set(&st, st.code, "prefix: %s", st.msg);
  CHECK(strcmp(st.msg, "prefix: x=42") == 0);
  tfc_status copy;
  tfc_status_copy(&copy, &st);
  CHECK_CODE(&copy, TFC_CODE_NOT_FOUND);
  CHECK(strcmp(copy.node, "first") == 0);
  tfc_status_clear(&st);
  CHECK_STATUS_OK(&st);
  CHECK(st.msg[0] == 0 && st.node[0] == 0);
}

TFC_TEST(status_truncates) {
  tfc_status st;
  tfc_status_clear(&st);
  char big[3000];
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = 0;
  tfc_status_set(&st, TFC_CODE_INTERNAL, "%s", big);
  CHECK_EQ_INT(strlen(st.msg), TFC_STATUS_MSG_MAX - 1);
  tfc_status_set_node(&st, big);
  CHECK_EQ_INT(strlen(st.node), TFC_STATUS_NODE_MAX - 1);
}

TFC_TEST(status_code_names) {
  CHECK(strcmp(tfc_code_name(TFC_CODE_OK), "OK") == 0);
  CHECK(strcmp(tfc_code_name(TFC_CODE_INVALID_ARGUMENT), "INVALID_ARGUMENT") == 0);
  CHECK(strcmp(tfc_code_name(TFC_CODE_RESOURCE_EXHAUSTED), "RESOURCE_EXHAUSTED") == 0);
  CHECK(strcmp(tfc_code_name(TFC_CODE_UNAUTHENTICATED), "UNAUTHENTICATED") == 0);
  CHECK(strcmp(tfc_code_name((tfc_code)99), "UNKNOWN") == 0);
}

TFC_TEST(alloc_basics) {
  void *p = tfc_malloc(0);
  CHECK(p != NULL);
  tfc_free(p);
  int *z = tfc_calloc(10, sizeof(int));
  CHECK(z != NULL);
  for (int i = 0; i < 10; i++) CHECK_EQ_INT(z[i], 0);
  z = tfc_realloc(z, 100 * sizeof(int));
  CHECK(z != NULL);
  tfc_free(z);
  CHECK(tfc_calloc(SIZE_MAX / 2, 4) == NULL);
  char *s = tfc_strdup("hello");
  CHECK(strcmp(s, "hello") == 0);
  tfc_free(s);
  s = tfc_strndup("hello", 3);
  CHECK(strcmp(s, "hel") == 0);
  tfc_free(s);
  void *a = tfc_aligned_alloc(3);
  CHECK(a != NULL && ((uintptr_t)a % TFC_ALIGN) == 0);
  tfc_aligned_free(a);
  a = tfc_aligned_alloc(0);
  CHECK(a != NULL && ((uintptr_t)a % TFC_ALIGN) == 0);
  tfc_aligned_free(a);
  CHECK(tfc_aligned_alloc(SIZE_MAX) == NULL);
  tfc_free(NULL);
  tfc_aligned_free(NULL);
}

TFC_TEST(alloc_fail_injection) {
  tfc_alloc_fail_after(3);
  void *a = tfc_malloc(8), *b = tfc_malloc(8);
  void *c = tfc_malloc(8), *d = tfc_aligned_alloc(8);
  tfc_alloc_fail_after(0);
  CHECK(a != NULL && b != NULL);
  CHECK(c == NULL && d == NULL); /* third and all later fail */
  tfc_free(a);
  tfc_free(b);
  void *e = tfc_malloc(8);
  CHECK(e != NULL);
  tfc_free(e);
  /* realloc failure leaves the block untouched */
  char *p = tfc_malloc(4);
  memcpy(p, "abc", 4);
  tfc_alloc_fail_after(1);
  CHECK(tfc_realloc(p, 1000) == NULL);
  CHECK(tfc_strdup("x") == NULL);
  tfc_alloc_fail_after(0);
  CHECK(strcmp(p, "abc") == 0);
  tfc_free(p);
}

#if !defined(__SANITIZE_ADDRESS__)
TFC_TEST(block_cache_recycles_large_blocks) {
  /* with no user, nothing is kept */
  tfc_block_cache_trim();
  tfc_aligned_free(tfc_aligned_alloc((size_t)1 << 20));
  CHECK(tfc_block_cache_bytes() == 0);
  tfc_block_cache_retain();
  const size_t big = (size_t)6 << 20, mid = (size_t)1 << 20;
  void *a = tfc_aligned_alloc(big);
  void *b = tfc_aligned_alloc(mid);
  CHECK(a && b);
  CHECK(((uintptr_t)a & (((size_t)2 << 20) - 1)) == 0);
  memset(a, 1, big);
  tfc_aligned_free(a);
  tfc_aligned_free(b);
  CHECK(tfc_block_cache_bytes() >= big + mid);
  /* same sizes come back from the cache, with the large block's alignment */
  void *a2 = tfc_aligned_alloc(big);
  void *b2 = tfc_aligned_alloc(mid);
  CHECK(a2 == a);
  CHECK(b2 == b);
  CHECK(tfc_block_cache_bytes() == 0);
  /* a much smaller request does not take a big block */
  tfc_aligned_free(a2);
  void *c = tfc_aligned_alloc(mid / 2);
  CHECK(c != a2);
  tfc_aligned_free(c);
  tfc_aligned_free(b2);
  /* small blocks are not cached */
  size_t before = tfc_block_cache_bytes();
  tfc_aligned_free(tfc_aligned_alloc(1000));
  CHECK(tfc_block_cache_bytes() == before);
  /* injected failures still fail on a cache hit */
  tfc_alloc_fail_after(1);
  CHECK(tfc_aligned_alloc(mid) == NULL);
  tfc_alloc_fail_after(0);
  /* the last user's release empties the cache */
  tfc_aligned_free(tfc_aligned_alloc(mid));
  CHECK(tfc_block_cache_bytes() > 0);
  tfc_block_cache_release();
  CHECK(tfc_block_cache_bytes() == 0);
}
#endif

TFC_TEST(hashmap_put_get_remove) {
  tfc_hashmap m;
  tfc_hashmap_init(&m);
  bool found = true;
  CHECK(tfc_hashmap_get(&m, "a", 1, &found) == NULL && !found);
  CHECK(tfc_hashmap_remove(&m, "a", 1) == NULL);
  static int vals[2000];
  char key[32];
  for (int i = 0; i < 2000; i++) {
    int n = snprintf(key, sizeof key, "key%d", i);
    CHECK_EQ_INT(tfc_hashmap_put(&m, key, (size_t)n, &vals[i]), 0);
  }
  CHECK_EQ_INT(m.count, 2000);
  for (int i = 0; i < 2000; i++) {
    int n = snprintf(key, sizeof key, "key%d", i);
    CHECK(tfc_hashmap_get(&m, key, (size_t)n, &found) == &vals[i] && found);
  }
  /* remove every other key; the rest must stay reachable (backward shift) */
  for (int i = 0; i < 2000; i += 2) {
    int n = snprintf(key, sizeof key, "key%d", i);
    CHECK(tfc_hashmap_remove(&m, key, (size_t)n) == &vals[i]);
  }
  CHECK_EQ_INT(m.count, 1000);
  for (int i = 0; i < 2000; i++) {
    int n = snprintf(key, sizeof key, "key%d", i);
    void *v = tfc_hashmap_get(&m, key, (size_t)n, &found);
    CHECK(i % 2 ? (v == &vals[i] && found) : (v == NULL && !found));
  }
  /* replace, NULL values, empty and binary keys */
  CHECK_EQ_INT(tfc_hashmap_put(&m, "key1", 4, NULL), 0);
  CHECK(tfc_hashmap_get(&m, "key1", 4, &found) == NULL && found);
  CHECK_EQ_INT(tfc_hashmap_put(&m, "", 0, &vals[0]), 0);
  CHECK(tfc_hashmap_get(&m, "", 0, NULL) == &vals[0]);
  CHECK_EQ_INT(tfc_hashmap_put(&m, "a\0b", 3, &vals[1]), 0);
  CHECK(tfc_hashmap_get(&m, "a\0c", 3, &found) == NULL && !found);
  CHECK(tfc_hashmap_get(&m, "a\0b", 3, NULL) == &vals[1]);
  /* iteration sees every entry once */
  size_t seen = 0;
  for (size_t i = 0; i < m.cap; i++) {
    const char *k;
    size_t len;
    void *v;
    if (tfc_hashmap_slot(&m, i, &k, &len, &v)) seen++;
  }
  CHECK_EQ_INT(seen, m.count);
  tfc_hashmap_destroy(&m);
  CHECK_EQ_INT(m.count, 0);
}

/* TensorFlow's Hash64 (MurmurHash64A, seed 0xDECAFCAFFE): the values are
 * TF's StringToHashBucket(s, 2^63 - 1), which is Hash64(s) mod that. */
TFC_TEST(hash64_matches_tensorflow) {
  static const struct {
    const char *s;
    uint64_t bucket;
  } cases[] = {{"", 105434511174508092ull},
               {"a", 2996632905371535868ull},
               {"abcdefgh", 3429851175771700306ull},
               {"while/while_context", 4608138368000096215ull},
               {"gradients/while/while_context", 6034003334927963874ull}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint64_t h = tfc_hash64_murmur(cases[i].s, strlen(cases[i].s), TFC_HASH64_TF_SEED);
    CHECK(h % 9223372036854775807ull == cases[i].bucket);
  }
  CHECK(tfc_hash64_combine(0, 0) == 0x9e3779b97f4a7800ull);
  CHECK(tfc_hash64_combine(1, 2) == (1ull ^ (2ull + 0x9e3779b97f4a7800ull + (1ull << 10))));
}

TFC_TEST(hashmap_oom) {
  tfc_hashmap m;
  tfc_hashmap_init(&m);
  int v = 0;
  tfc_alloc_fail_after(1);
  CHECK_EQ_INT(tfc_hashmap_put(&m, "a", 1, &v), -1);
  tfc_alloc_fail_after(2); /* slots ok, key copy fails */
  CHECK_EQ_INT(tfc_hashmap_put(&m, "a", 1, &v), -1);
  tfc_alloc_fail_after(0);
  CHECK_EQ_INT(m.count, 0);
  CHECK(tfc_hashmap_get(&m, "a", 1, NULL) == NULL);
  CHECK_EQ_INT(tfc_hashmap_put(&m, "a", 1, &v), 0);
  CHECK(tfc_hashmap_get(&m, "a", 1, NULL) == &v);
  tfc_hashmap_destroy(&m);
  CHECK_EQ_INT(tfc_hash_bytes("", 0), 1469598103934665603ull);
}

TFC_TEST(strbuf_appends) {
  tfc_strbuf b;
  tfc_strbuf_init(&b);
  CHECK(strcmp(tfc_strbuf_cstr(&b), "") == 0);
  CHECK(tfc_strbuf_puts(&b, "abc"));
  CHECK(tfc_strbuf_append(&b, "defgh", 2));
  CHECK(tfc_strbuf_printf(&b, "-%d-%s", 7, "x"));
  CHECK(strcmp(tfc_strbuf_cstr(&b), "abcde-7-x") == 0);
  CHECK_EQ_INT(b.len, 9);
  char big[1000];
  memset(big, 'z', sizeof big - 1);
  big[999] = 0;
  CHECK(tfc_strbuf_printf(&b, "%s!", big));
  CHECK_EQ_INT(b.len, 9 + 1000);
  CHECK(b.data[b.len - 1] == '!' && b.data[b.len] == 0);
  tfc_strbuf_free(&b);
  CHECK(b.data == NULL && b.len == 0);
}

TFC_TEST(strbuf_oom_sticks) {
  tfc_strbuf b;
  tfc_strbuf_init(&b);
  tfc_alloc_fail_after(1);
  CHECK(!tfc_strbuf_puts(&b, "abc"));
  tfc_alloc_fail_after(0);
  CHECK(b.oom);
  CHECK(!tfc_strbuf_puts(&b, "abc"));
  CHECK(strcmp(tfc_strbuf_cstr(&b), "") == 0);
  tfc_strbuf_free(&b);
}

typedef struct counter_ctx {
  atomic_llong sum;
  atomic_int calls;
  unsigned char *hits;
} counter_ctx;

static void add_range(void *ctx, int64_t b, int64_t e) {
  counter_ctx *c = ctx;
  atomic_fetch_add(&c->calls, 1);
  for (int64_t i = b; i < e; i++) {
    c->hits[i]++;
    atomic_fetch_add(&c->sum, i);
  }
}

static void incr_task(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }

TFC_TEST(threadpool_schedule_and_free_drains) {
  tfc_threadpool *pool = tfc_threadpool_new(3);
  CHECK(pool != NULL);
  CHECK_EQ_INT(tfc_threadpool_size(pool), 3);
  static atomic_int n;
  atomic_store(&n, 0);
  for (int i = 0; i < 1000; i++) CHECK_EQ_INT(tfc_threadpool_schedule(pool, incr_task, &n), 0);
  tfc_threadpool_free(pool);
  CHECK_EQ_INT(atomic_load(&n), 1000);
  CHECK(tfc_threadpool_new(0) == NULL);
  tfc_threadpool_free(NULL);
}

TFC_TEST(threadpool_parallel_for_covers_range) {
  tfc_threadpool *pool = tfc_threadpool_new(2);
  CHECK(pool != NULL);
  static unsigned char hits[100003];
  int64_t sizes[] = {0, 1, 7, 100, 100003};
  int64_t mins[] = {1, 1, 3, 1000, 10};
  for (int k = 0; k < 5; k++) {
    memset(hits, 0, sizeof hits);
    counter_ctx c = {.hits = hits};
    atomic_init(&c.sum, 0);
    atomic_init(&c.calls, 0);
    int64_t n = sizes[k];
    tfc_threadpool_parallel_for(pool, n, mins[k], add_range, &c);
    for (int64_t i = 0; i < n; i++) CHECK_EQ_INT(hits[i], 1);
    CHECK_EQ_INT(atomic_load(&c.sum), n * (n - 1) / 2);
    int64_t expect_calls = n == 0 ? 0 : ((n - 1) / mins[k] + 1 < 3 ? (n - 1) / mins[k] + 1 : 3);
    CHECK_EQ_INT(atomic_load(&c.calls), expect_calls);
  }
  /* NULL pool runs inline in one call */
  memset(hits, 0, 50);
  counter_ctx c = {.hits = hits};
  atomic_init(&c.sum, 0);
  atomic_init(&c.calls, 0);
  tfc_threadpool_parallel_for(NULL, 50, 1, add_range, &c);
  CHECK_EQ_INT(atomic_load(&c.calls), 1);
  tfc_threadpool_free(pool);
}

typedef struct nested_ctx {
  tfc_threadpool *pool;
  atomic_llong total;
} nested_ctx;

static void inner_range(void *ctx, int64_t b, int64_t e) {
  atomic_fetch_add(&((nested_ctx *)ctx)->total, e - b);
}

static void outer_range(void *ctx, int64_t b, int64_t e) {
  nested_ctx *c = ctx;
  for (int64_t i = b; i < e; i++) tfc_threadpool_parallel_for(c->pool, 1000, 10, inner_range, c);
}

static void nested_task(void *arg) {
  nested_ctx *c = arg;
  tfc_threadpool_parallel_for(c->pool, 8, 1, outer_range, c);
}

TFC_TEST(threadpool_nested_no_deadlock) {
  nested_ctx c;
  c.pool = tfc_threadpool_new(2);
  CHECK(c.pool != NULL);
  atomic_init(&c.total, 0);
  /* from the caller thread, nesting into worker threads */
  tfc_threadpool_parallel_for(c.pool, 16, 1, outer_range, &c);
  CHECK_EQ_INT(atomic_load(&c.total), 16 * 1000);
  /* from inside pool tasks, with every worker busy */
  for (int i = 0; i < 4; i++) CHECK_EQ_INT(tfc_threadpool_schedule(c.pool, nested_task, &c), 0);
  tfc_threadpool_free(c.pool);
  CHECK_EQ_INT(atomic_load(&c.total), 16 * 1000 + 4 * 8 * 1000);
}

TFC_TEST(threadpool_oom) {
  tfc_threadpool *pool = tfc_threadpool_new(2);
  CHECK(pool != NULL);
  static atomic_int n;
  atomic_store(&n, 0);
  tfc_alloc_fail_after(1);
  CHECK_EQ_INT(tfc_threadpool_schedule(pool, incr_task, &n), -1);
  /* parallel_for falls back to one inline call */
  static unsigned char hits[100];
  memset(hits, 0, sizeof hits);
  counter_ctx c = {.hits = hits};
  atomic_init(&c.sum, 0);
  atomic_init(&c.calls, 0);
  tfc_threadpool_parallel_for(pool, 100, 1, add_range, &c);
  CHECK(tfc_threadpool_new(2) == NULL);
  tfc_alloc_fail_after(0);
  CHECK_EQ_INT(atomic_load(&c.calls), 1);
  CHECK_EQ_INT(atomic_load(&c.sum), 4950);
  tfc_threadpool_free(pool);
  CHECK_EQ_INT(atomic_load(&n), 0);
}
