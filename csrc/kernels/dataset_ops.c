/*
 * dataset_ops.c — kernels of the tf.data ops: dataset constructors (a
 * scalar variant tensor holding the dataset), the iterator resource
 * (IteratorV2, MakeIterator, IteratorGetNext, string handles) and tfc's
 * _OneShotIterator; the family's kernel table.
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "core/function.h"
#include "core/variant_data.h"
#include "kernels/data_flow_internal.h"
#include "io/record.h"
#include "kernels/dataset_internal.h"
#include "kernels/kernel_tables.h"
#include "kernels/optional.h"

#define MAXC 64

/* Reads scalar int input i. */
static int64_t in_i64(tfc_kernel_ctx *ctx, int i) { return tfc_tensor_get_int64(ctx->inputs[i], 0); }

/* Copies list attr `name` of types/shapes into out (n entries); returns n or -1. */
int tfc_ds_attr_types(tfc_kernel_ctx *ctx, const char *name, tfc_dtype *out) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  if (!v || v->kind != TFC_ATTR_LIST) return 0;
  if (v->v.list.n > MAXC) return -1;
  for (int i = 0; i < v->v.list.n; i++) out[i] = v->v.list.v.type[i];
  return v->v.list.n;
}

int tfc_ds_attr_shapes(tfc_kernel_ctx *ctx, const char *name, tfc_shape *out) {
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, name);
  if (!v || v->kind != TFC_ATTR_LIST || v->v.list.kind != TFC_ATTR_SHAPE) return 0;
  if (v->v.list.n > MAXC) return -1;
  for (int i = 0; i < v->v.list.n; i++) out[i] = v->v.list.v.shape[i];
  return v->v.list.n;
}

/* Outputs ds (taking the caller's reference) as a scalar variant. */
void tfc_ds_output(tfc_kernel_ctx *ctx, tfc_dataset *ds) {
  if (!ds) return;
  /* the op's declared shapes are the more specific ones (Python computed them) */
  tfc_shape shapes[MAXC];
  int ns = tfc_ds_attr_shapes(ctx, "output_shapes", shapes);
  for (int i = 0; i < ns && i < ds->n; i++) {
    tfc_shape merged;
    if (tfc_shape_merge(&ds->shapes[i], &shapes[i], &merged)) ds->shapes[i] = merged;
  }
  tfc_tensor *t = tfc_tensor_object_scalar(TFC_DTYPE_VARIANT, &ds->base, ctx->st);
  tfc_object_unref(&ds->base);
  if (t) tfc_kernel_set_output(ctx, 0, t);
}

/* The dataset of input i. */
static tfc_dataset *in_ds(tfc_kernel_ctx *ctx, int i) { return tfc_dataset_from_tensor(ctx->inputs[i], ctx->st); }

static void tensor_ds_compute(tfc_kernel_ctx *ctx) {
  tfc_shape shapes[MAXC];
  int ns = tfc_ds_attr_shapes(ctx, "output_shapes", shapes);
  bool slices = strcmp(ctx->op_type, "TensorSliceDataset") == 0;
  if (ns != ctx->n_inputs) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "output_shapes must have one shape per component");
    return;
  }
  tfc_ds_output(ctx, tfc_ds_tensors(ctx->inputs, ctx->n_inputs, slices, shapes, ctx->st));
}

static void range_ds_compute(tfc_kernel_ctx *ctx) {
  tfc_dtype t[MAXC];
  int nt = tfc_ds_attr_types(ctx, "output_types", t);
  tfc_ds_output(ctx, tfc_ds_range(in_i64(ctx, 0), in_i64(ctx, 1), in_i64(ctx, 2), nt > 0 ? t[0] : TFC_DTYPE_INT64,
                                   ctx->st));
}

/* A NUL-terminated copy of scalar string input i (caller frees). */
static char *in_str(tfc_kernel_ctx *ctx, int i) {
  const tfc_tensor *t = ctx->inputs[i];
  const tfc_string *s = t->dtype == TFC_DTYPE_STRING && t->nelems == 1 ? t->data : NULL;
  char *out = tfc_malloc(s ? s->len + 1 : 1);
  if (!out) return NULL;
  if (s && s->len) memcpy(out, s->data, s->len);
  out[s ? s->len : 0] = '\0';
  return out;
}

static void file_ds_compute(tfc_kernel_ctx *ctx) {
  const char *op = ctx->op_type;
  tfc_ds_file_kind kind = strcmp(op, "TFRecordDataset") == 0    ? TFC_DS_TFRECORD
                          : strcmp(op, "TextLineDataset") == 0 ? TFC_DS_TEXT_LINE
                                                               : TFC_DS_FIXED_LENGTH;
  char *comp = in_str(ctx, kind == TFC_DS_FIXED_LENGTH ? 5 : 1);
  if (!comp) {
    tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  int64_t h = 0, r = 0, f = 0;
  if (kind == TFC_DS_FIXED_LENGTH) {
    h = in_i64(ctx, 1);
    r = in_i64(ctx, 2);
    f = in_i64(ctx, 3);
  }
  tfc_ds_output(ctx, tfc_ds_files(kind, ctx->inputs[0], comp, h, r, f, ctx->st));
  tfc_free(comp);
}

static void zip_ds_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *ins[MAXC];
  if (ctx->n_inputs > MAXC) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "too many datasets");
    return;
  }
  for (int i = 0; i < ctx->n_inputs; i++)
    if (!(ins[i] = in_ds(ctx, i))) return;
  tfc_ds_output(ctx, tfc_ds_zip(ins, ctx->n_inputs, ctx->st));
}

static void concat_ds_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *a = in_ds(ctx, 0), *b = a ? in_ds(ctx, 1) : NULL;
  if (b) tfc_ds_output(ctx, tfc_ds_concatenate(a, b, ctx->st));
}

static void batch_ds_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *in = in_ds(ctx, 0);
  if (!in) return;
  tfc_shape shapes[MAXC];
  int ns = tfc_ds_attr_shapes(ctx, "output_shapes", shapes);
  const tfc_shape *sh = ns == in->n ? shapes : NULL;
  tfc_shape batched[MAXC];
  if (!sh) {
    for (int c = 0; c < in->n && c < MAXC; c++) {
      batched[c] = tfc_shape_unknown();
      if (in->shapes[c].rank >= 0 && in->shapes[c].rank < TFC_MAX_RANK) {
        batched[c].rank = in->shapes[c].rank + 1;
        batched[c].dims[0] = -1;
        for (int d = 0; d < in->shapes[c].rank; d++) batched[c].dims[d + 1] = in->shapes[c].dims[d];
      }
    }
    sh = batched;
  }
  if (strcmp(ctx->op_type, "PaddedBatchDatasetV2") == 0) {
    int n = in->n;
    if (ctx->n_inputs != 3 + 2 * n) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "padded_shapes and padding_values need one entry per component");
      return;
    }
    int64_t dims[MAXC][TFC_MAX_RANK];
    const int64_t *pd[MAXC];
    int ranks[MAXC];
    tfc_tensor *pv[MAXC];
    for (int c = 0; c < n; c++) {
      const tfc_tensor *p = ctx->inputs[2 + c];
      if (p->rank != 1 || p->nelems > TFC_MAX_RANK) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "padded_shapes[%d] must be a vector", c);
        return;
      }
      ranks[c] = (int)p->nelems;
      for (int d = 0; d < ranks[c]; d++) dims[c][d] = tfc_tensor_get_int64(p, d);
      pd[c] = dims[c];
      pv[c] = ctx->inputs[2 + n + c];
      if (pv[c]->nelems != 1 || pv[c]->dtype != in->types[c]) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "padding_values[%d] must be a scalar of the component's type",
                        c);
        return;
      }
    }
    bool drop = tfc_tensor_get_int64(ctx->inputs[2 + 2 * n], 0) != 0;
    tfc_ds_output(ctx, tfc_ds_batch(in, in_i64(ctx, 1), drop, pd, ranks, pv, sh, ctx->st));
    return;
  }
  bool drop = tfc_tensor_get_int64(ctx->inputs[2], 0) != 0;
  tfc_ds_output(ctx, tfc_ds_batch(in, in_i64(ctx, 1), drop, NULL, NULL, NULL, sh, ctx->st));
}

static void shuffle_ds_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *in = in_ds(ctx, 0);
  if (!in) return;
  bool reshuffle = true;
  const tfc_attr_value *v = tfc_attrs_find(ctx->attrs, "reshuffle_each_iteration");
  if (v && v->kind == TFC_ATTR_B) reshuffle = v->v.b;
  tfc_ds_output(ctx, tfc_ds_shuffle(in, in_i64(ctx, 1), in_i64(ctx, 2), in_i64(ctx, 3), reshuffle, ctx->st));
}

static void count_ds_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *in = in_ds(ctx, 0);
  if (!in) return;
  const char *op = ctx->op_type;
  tfc_ds_count_kind k = strcmp(op, "RepeatDataset") == 0 ? TFC_DS_REPEAT
                        : strcmp(op, "TakeDataset") == 0 ? TFC_DS_TAKE
                                                         : TFC_DS_SKIP;
  tfc_ds_output(ctx, tfc_ds_count(k, in, in_i64(ctx, 1), ctx->st));
}

static void cache_ds_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *in = in_ds(ctx, 0);
  if (!in) return;
  const tfc_tensor *f = ctx->inputs[1];
  const tfc_string *s = f->dtype == TFC_DTYPE_STRING && f->nelems == 1 ? f->data : NULL;
  if (s && s->len) {
    char *name = in_str(ctx, 1);
    if (!name) {
      tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
    tfc_ds_output(ctx, tfc_ds_file_cache(in, name, ctx->st));
    tfc_free(name);
    return;
  }
  tfc_ds_output(ctx, tfc_ds_cache(in, ctx->st));
}

static void prefetch_ds_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *in = in_ds(ctx, 0);
  if (in) tfc_ds_output(ctx, tfc_ds_prefetch(in, in_i64(ctx, 1), ctx->st));
}

static void generator_ds_compute(tfc_kernel_ctx *ctx) {
  tfc_dtype t[MAXC];
  tfc_shape sh[MAXC];
  int nt = tfc_ds_attr_types(ctx, "output_types", t);
  int ns = tfc_ds_attr_shapes(ctx, "output_shapes", sh);
  const tfc_attr_value *tok = tfc_attrs_find(ctx->attrs, "token");
  if (nt <= 0 || ns != nt || !tok || tok->kind != TFC_ATTR_I) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "bad generator dataset attrs");
    return;
  }
  tfc_ds_output(ctx, tfc_ds_generator(tok->v.i, nt, t, sh, ctx->st));
}

/* Map/ParallelMap/FlatMap/Interleave/Filter: instantiates the function
 * through the session's library runtime and captures other_arguments. */
static void function_ds_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *in = in_ds(ctx, 0);
  if (!in) return;
  const char *op = ctx->op_type;
  /* ParallelInterleaveDatasetV2 (interleave with num_parallel_calls) and
   * ParallelInterleaveDataset (tf.data.experimental.parallel_interleave) */
  int par = strcmp(op, "ParallelInterleaveDatasetV2") == 0 ? 1 : strcmp(op, "ParallelInterleaveDataset") == 0 ? 2 : 0;
  tfc_function_ds_kind kind = strcmp(op, "MapDataset") == 0                 ? TFC_FN_MAP
                              : strncmp(op, "ParallelMap", 11) == 0          ? TFC_FN_PARALLEL_MAP
                              : strcmp(op, "FlatMapDataset") == 0             ? TFC_FN_FLAT_MAP
                              : strcmp(op, "InterleaveDataset") == 0 || par ? TFC_FN_INTERLEAVE
                                                                              : TFC_FN_FILTER;
  int extra = kind == TFC_FN_PARALLEL_MAP ? 1 : par == 1 ? 3 : par == 2 ? 5 : kind == TFC_FN_INTERLEAVE ? 2 : 0;
  const tfc_attr_value *fv = tfc_attrs_find(ctx->attrs, kind == TFC_FN_FILTER ? "predicate" : "f");
  if (!fv || fv->kind != TFC_ATTR_FUNC || fv->v.s.len >= 512) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s needs a function attr", op);
    return;
  }
  char fname[512];
  memcpy(fname, fv->v.s.data, fv->v.s.len);
  fname[fv->v.s.len] = '\0';
  const tfc_fhandle *f = tfc_func_instantiate(ctx->step->flib, fname, NULL, ctx->st);
  if (!f) return;
  tfc_dtype t[MAXC];
  tfc_shape sh[MAXC];
  int nt = tfc_ds_attr_types(ctx, "output_types", t);
  int ns = tfc_ds_attr_shapes(ctx, "output_shapes", sh);
  if (nt <= 0 || ns != nt) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "%s needs output_types and output_shapes", op);
    return;
  }
  int n_captured = ctx->n_inputs - 1 - extra;
  int64_t a = 0, b = 0;
  if (kind == TFC_FN_PARALLEL_MAP) a = in_i64(ctx, ctx->n_inputs - 1);
  int first = ctx->n_inputs - extra; /* the numbers after the captured tensors */
  if (kind == TFC_FN_INTERLEAVE) {
    a = in_i64(ctx, first);
    b = in_i64(ctx, first + 1);
  }
  if (kind == TFC_FN_PARALLEL_MAP && a < 0) a = 4; /* AUTOTUNE */
  int64_t workers = 0, buffer = 0;
  bool sloppy = false;
  if (par == 1) {
    workers = in_i64(ctx, first + 2);
    const tfc_attr_value *sv = tfc_attrs_find(ctx->attrs, "sloppy");
    sloppy = sv && sv->kind == TFC_ATTR_B && sv->v.b;
    if (workers < 0 || workers > a) workers = a; /* AUTOTUNE: one per cycle slot */
    if (a < 0) a = workers = 2;
    buffer = b > 1 ? 2 * b : 2;
  } else if (par == 2) {
    sloppy = tfc_tensor_get_int64(ctx->inputs[first + 2], 0) != 0;
    buffer = in_i64(ctx, first + 3);
    workers = a;
    if (buffer <= 0) buffer = 2;
  }
  if (par && workers == 0) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "num_parallel_calls must be positive");
    return;
  }
  tfc_dataset *ds = tfc_ds_function(kind, in, ctx->step->flib, f, ctx->inputs + 1, n_captured, nt, t, sh, a, b,
                                    ctx->st);
  if (ds && par) tfc_ds_interleave_set_parallel(ds, workers, buffer, sloppy);
  /* a map keeps its input's count only when built to (TF 1.x maps are not) */
  const tfc_attr_value *pc = tfc_attrs_find(ctx->attrs, "preserve_cardinality");
  if (ds && (kind == TFC_FN_MAP || kind == TFC_FN_PARALLEL_MAP) && pc && pc->kind == TFC_ATTR_B && pc->v.b)
    ds->cardinality = in->cardinality;
  tfc_ds_output(ctx, ds);
}

/* DatasetCardinality / ExperimentalDatasetCardinality: the dataset's element
 * count as a scalar int64 (-1 infinite, -2 unknown). */
static void cardinality_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *ds = in_ds(ctx, 0);
  if (!ds) return;
  tfc_tensor *t = tfc_tensor_new(TFC_DTYPE_INT64, 0, NULL, ctx->st);
  if (!t) return;
  *(int64_t *)t->data = ds->cardinality;
  tfc_kernel_set_output(ctx, 0, t);
}

/* DatasetToTFRecord: writes every element (a scalar string) of the dataset
 * as a record of filename (compression_type "", "ZLIB" or "GZIP"). */
static void to_tfrecord_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *ds = in_ds(ctx, 0);
  if (!ds) return;
  if (ds->n != 1 || ds->types[0] != TFC_DTYPE_STRING) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "DatasetToTFRecord needs a dataset of scalar strings");
    return;
  }
  char *name = in_str(ctx, 1), *comp = in_str(ctx, 2);
  tfc_zstream_kind kind;
  tfc_record_writer *w = NULL;
  tfc_iter *it = NULL;
  if (!name || !comp) tfc_kernel_fail(ctx, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  else if (tfc_record_compression_parse(comp, &kind, ctx->st) && (it = tfc_dataset_iter(ds, ctx->st)))
    w = tfc_record_writer_open(name, kind, -1, ctx->st);
  while (w) {
    tfc_tensor *el = NULL;
    int rc = it->vt->next(it, &el, ctx->st);
    if (rc <= 0) break;
    bool ok = el->nelems == 1 && el->dtype == TFC_DTYPE_STRING;
    if (!ok) tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "DatasetToTFRecord needs scalar string elements");
    else {
      const tfc_string *rec = el->data;
      ok = tfc_record_writer_write(w, rec->data ? rec->data : "", rec->len, ctx->st);
    }
    tfc_tensor_unref(el);
    if (!ok) break;
  }
  if (w) {
    tfc_status st;
    tfc_status_clear(&st);
    if (!tfc_record_writer_close(w, &st) && tfc_kernel_ok(ctx)) tfc_status_copy(ctx->st, &st);
  }
  tfc_iter_free(it);
  tfc_free(name);
  tfc_free(comp);
}

/* ---- iterators ---- */

typedef struct iter_res {
  tfc_object base;
  pthread_mutex_t mu;
  tfc_iter *it;
  tfc_dataset *ds;        /* it's dataset (referenced), for restoring */
  bool made;              /* an iterator was made at least once (one-shot) */
  int n;
  tfc_dtype types[MAXC];
  tfc_shape shapes[MAXC];
  char *container, *name;
} iter_res;

static void iter_res_destroy(tfc_object *o) {
  iter_res *r = (iter_res *)o;
  tfc_iter_free(r->it);
  if (r->ds) tfc_object_unref(&r->ds->base);
  pthread_mutex_destroy(&r->mu);
  tfc_free(r->container);
  tfc_free(r->name);
  tfc_free(r);
}

static const tfc_object_type k_iter_type = {"Iterator", iter_res_destroy};

typedef struct iter_args {
  tfc_kernel_ctx *ctx;
  const char *container, *name;
} iter_args;

static tfc_object *create_iter(void *arg, tfc_status *st) {
  iter_args *a = arg;
  iter_res *r = tfc_calloc(1, sizeof *r);
  if (r) {
    r->container = tfc_strdup(a->container);
    r->name = tfc_strdup(a->name);
  }
  if (!r || !r->container || !r->name) {
    if (r) {
      tfc_free(r->container);
      tfc_free(r->name);
    }
    tfc_free(r);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  tfc_object_init(&r->base, &k_iter_type);
  pthread_mutex_init(&r->mu, NULL);
  r->n = tfc_ds_attr_types(a->ctx, "output_types", r->types);
  int ns = tfc_ds_attr_shapes(a->ctx, "output_shapes", r->shapes);
  for (int i = ns; i < r->n; i++) r->shapes[i] = tfc_shape_unknown();
  return &r->base;
}

typedef struct iter_op {
  char *container, *name;
} iter_op;

static bool iter_op_init(const tfc_kernel_init *ki, void **state) {
  iter_op *op = tfc_calloc(1, sizeof *op);
  if (!op) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  *state = op;
  op->container = tfc_attrs_dup_string(ki->attrs, "container");
  op->name = tfc_attrs_dup_string(ki->attrs, "shared_name");
  if (op->name && !op->name[0]) {
    tfc_free(op->name);
    op->name = tfc_unique_resource_name(ki->node_name);
  }
  if (!op->container || !op->name) return tfc_status_set(ki->st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory");
  return true;
}

static void iter_op_free(void *state) {
  iter_op *op = state;
  if (!op) return;
  tfc_free(op->container);
  tfc_free(op->name);
  tfc_free(op);
}

/* The iterator resource of this node (created on first use); new reference. */
static iter_res *node_iter(tfc_kernel_ctx *ctx) {
  iter_op *op = ctx->state;
  iter_args a = {ctx, op->container, op->name};
  return (iter_res *)tfc_resource_object(ctx->step->resources, op->container, op->name, &k_iter_type, create_iter, &a,
                                         ctx->st);
}

/* Outputs a handle to r (taking the caller's reference). */
static void output_iter(tfc_kernel_ctx *ctx, iter_res *r) {
  tfc_tensor *h = tfc_tensor_object_scalar(TFC_DTYPE_RESOURCE, &r->base, ctx->st);
  tfc_object_unref(&r->base);
  if (h) tfc_kernel_set_output(ctx, 0, h);
}

static void iterator_v2_compute(tfc_kernel_ctx *ctx) {
  iter_res *r = node_iter(ctx);
  if (r) output_iter(ctx, r);
}

/* The iterator resource of input i (borrowed). */
static iter_res *in_iter(tfc_kernel_ctx *ctx, int i) {
  tfc_object *o = tfc_tensor_object_at(ctx->inputs[i], 0);
  if (!o || o->type != &k_iter_type) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Input is not an iterator handle");
    return NULL;
  }
  return (iter_res *)o;
}

/* Checks a dataset against an iterator's structure. */
static bool compatible(tfc_kernel_ctx *ctx, const iter_res *r, const tfc_dataset *ds) {
  bool ok = r->n == ds->n;
  for (int i = 0; ok && i < r->n; i++)
    ok = r->types[i] == ds->types[i] && tfc_shape_compatible(&r->shapes[i], &ds->shapes[i]);
  if (!ok)
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT,
                    "The iterator's component types and shapes do not match those of the dataset (%d vs %d components)",
                    r->n, ds->n);
  return ok;
}

/* Replaces r's iterator with a fresh one over ds. */
static void reset_iter(tfc_kernel_ctx *ctx, iter_res *r, tfc_dataset *ds) {
  tfc_iter *it = tfc_dataset_iter(ds, ctx->st);
  if (!it) return;
  pthread_mutex_lock(&r->mu);
  tfc_iter *old = r->it;
  tfc_dataset *old_ds = r->ds;
  r->it = it;
  r->ds = (tfc_dataset *)tfc_object_ref(&ds->base);
  r->made = true;
  pthread_mutex_unlock(&r->mu);
  tfc_iter_free(old);
  if (old_ds) tfc_object_unref(&old_ds->base);
}

static void make_iterator_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *ds = in_ds(ctx, 0);
  iter_res *r = ds ? in_iter(ctx, 1) : NULL;
  if (r && compatible(ctx, r, ds)) reset_iter(ctx, r, ds);
}

static void one_shot_compute(tfc_kernel_ctx *ctx) {
  tfc_dataset *ds = in_ds(ctx, 0);
  if (!ds) return;
  iter_res *r = node_iter(ctx);
  if (!r) return;
  pthread_mutex_lock(&r->mu);
  bool made = r->made;
  pthread_mutex_unlock(&r->mu);
  if (!made && compatible(ctx, r, ds)) {
    tfc_iter *it = tfc_dataset_iter(ds, ctx->st);
    if (it) {
      pthread_mutex_lock(&r->mu);
      if (!r->made) {
        r->it = it;
        r->ds = (tfc_dataset *)tfc_object_ref(&ds->base);
        r->made = true;
        it = NULL;
      }
      pthread_mutex_unlock(&r->mu);
      tfc_iter_free(it);
    }
  }
  output_iter(ctx, r);
}

/* TF's OneShotIterator: on the first run calls dataset_factory (no
 * arguments, one variant result) and starts the iterator on that dataset. */
static void tf_one_shot_compute(tfc_kernel_ctx *ctx) {
  iter_res *r = node_iter(ctx);
  if (!r) return;
  pthread_mutex_lock(&r->mu);
  bool made = r->made;
  pthread_mutex_unlock(&r->mu);
  if (!made) {
    const tfc_attr_value *fv = tfc_attrs_find(ctx->attrs, "dataset_factory");
    char fname[512];
    if (!fv || fv->kind != TFC_ATTR_FUNC || fv->v.s.len >= sizeof fname) {
      tfc_object_unref(&r->base);
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "OneShotIterator needs a dataset_factory function");
      return;
    }
    memcpy(fname, fv->v.s.data, fv->v.s.len);
    fname[fv->v.s.len] = '\0';
    const tfc_fhandle *f = tfc_func_instantiate(ctx->step->flib, fname, NULL, ctx->st);
    tfc_tensor *v = NULL;
    if (f && (f->n_inputs != 0 || f->n_outputs != 1)) {
      tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "dataset_factory must take nothing and return a dataset");
      f = NULL;
    }
    if (f && tfc_func_run(ctx->step->flib, f, ctx->step, NULL, &v, ctx->st)) {
      tfc_dataset *ds = tfc_dataset_from_tensor(v, ctx->st);
      if (ds && compatible(ctx, r, ds)) {
        tfc_iter *it = tfc_dataset_iter(ds, ctx->st);
        if (it) {
          pthread_mutex_lock(&r->mu);
          if (!r->made) {
            r->it = it;
            r->ds = (tfc_dataset *)tfc_object_ref(&ds->base);
            r->made = true;
            it = NULL;
          }
          pthread_mutex_unlock(&r->mu);
          tfc_iter_free(it);
        }
      }
    }
    tfc_tensor_unref(v);
    if (!tfc_kernel_ok(ctx)) {
      tfc_object_unref(&r->base);
      return;
    }
  }
  output_iter(ctx, r);
}

static void get_next_compute(tfc_kernel_ctx *ctx) {
  iter_res *r = in_iter(ctx, 0);
  if (!r) return;
  if (ctx->n_outputs != r->n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "get_next expects %d components but the iterator has %d",
                    ctx->n_outputs, r->n);
    return;
  }
  tfc_tensor *out[MAXC];
  pthread_mutex_lock(&r->mu);
  int rc;
  if (!r->it) {
    rc = -2;
  } else {
    rc = r->it->vt->next(r->it, out, ctx->st);
  }
  pthread_mutex_unlock(&r->mu);
  if (rc == -2) {
    tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION,
                    "GetNext() failed because the iterator has not been initialized. Ensure that you have run the "
                    "initializer operation for this iterator before getting the next element.");
  } else if (rc == 0) {
    tfc_kernel_fail(ctx, TFC_CODE_OUT_OF_RANGE, "End of sequence");
  } else if (rc == 1) {
    for (int c = 0; c < r->n; c++) {
      if (out[c]->dtype != tfc_dtype_base(ctx->out_types[c])) {
        tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Component %d has type %s, expected %s", c,
                        tfc_dtype_name(out[c]->dtype), tfc_dtype_name(ctx->out_types[c]));
        for (int k = c; k < r->n; k++) tfc_tensor_unref(out[k]);
        return;
      }
      tfc_kernel_set_output(ctx, c, out[c]);
    }
  }
}

/* ---- iterator state in checkpoints ---- */

#define STATE_TYPE "tfc::IteratorState"
#define STATE_MAGIC "tfc-iterator-state/1"

/* SerializeIterator: the iterator's position as a [1] variant tensor whose
 * value a checkpoint stores (a VariantTensorDataProto). The iterator is
 * held (no get_next runs) while it is written. */
static void serialize_iterator_compute(tfc_kernel_ctx *ctx) {
  iter_res *r = in_iter(ctx, 0);
  if (!r) return;
  const tfc_attr_value *pv = tfc_attrs_find(ctx->attrs, "external_state_policy");
  tfc_ds_writer w = {NULL, 0, 0, pv && pv->kind == TFC_ATTR_I && pv->v.i != 2};
  pthread_mutex_lock(&r->mu);
  bool ok;
  if (!r->it) {
    ok = tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION,
                         "Save() failed because the iterator has not been initialized. Ensure that you have run the "
                         "initializer operation for this iterator before saving it.");
  } else {
    ok = tfc_ds_put_bytes(&w, STATE_MAGIC, strlen(STATE_MAGIC), ctx->st) && tfc_iter_save(r->it, &w, ctx->st);
  }
  pthread_mutex_unlock(&r->mu);
  tfc_object *v = ok ? tfc_variant_data_new(STATE_TYPE, w.buf, w.len, ctx->st) : NULL;
  tfc_free(w.buf);
  if (!v) return;
  int64_t one = 1;
  tfc_tensor *t = tfc_tensor_new_objects(TFC_DTYPE_VARIANT, 1, &one, ctx->st);
  if (t) {
    tfc_tensor_object_set(t, 0, v);
    tfc_kernel_set_output(ctx, 0, t);
  }
  tfc_object_unref(v);
}

/* Fails ctx with TF's message for a state that cannot be restored. */
static void restore_failed(tfc_kernel_ctx *ctx, tfc_code code, const char *why) {
  tfc_kernel_fail(ctx, code,
                  "Failed to restore dataset iterator from checkpoint: %s. Make sure the dataset definition has not "
                  "changed between the process that saved the checkpoint and the process that is restoring it.",
                  why);
}

/* DeserializeIterator: a fresh iterator of the resource's dataset, moved to
 * the saved position, replaces the current one (which stays on failure). */
static void deserialize_iterator_compute(tfc_kernel_ctx *ctx) {
  iter_res *r = in_iter(ctx, 0);
  if (!r) return;
  const tfc_tensor *t = ctx->inputs[1];
  const tfc_variant_data *v = t->nelems >= 1 ? tfc_variant_data_cast(tfc_tensor_object_at(t, 0)) : NULL;
  if (!v) {
    restore_failed(ctx, TFC_CODE_INVALID_ARGUMENT, "the serialized state is not an iterator state");
    return;
  }
  if (strcmp(v->type_name, STATE_TYPE) != 0) {
    char why[256];
    snprintf(why, sizeof why, "the state is a %.64s value, which tfc cannot restore (a TensorFlow iterator state?)",
             v->type_name);
    restore_failed(ctx, TFC_CODE_INVALID_ARGUMENT, why);
    return;
  }
  pthread_mutex_lock(&r->mu);
  tfc_dataset *ds = r->ds ? (tfc_dataset *)tfc_object_ref(&r->ds->base) : NULL;
  pthread_mutex_unlock(&r->mu);
  if (!ds) {
    restore_failed(ctx, TFC_CODE_FAILED_PRECONDITION,
                   "Restore() failed because the iterator has not been initialized. Ensure that you have run the "
                   "initializer operation for this iterator before restoring it.");
    return;
  }
  tfc_status st;
  tfc_status_clear(&st);
  tfc_ds_reader rd = {v->data, v->data + v->len};
  const void *magic;
  size_t mlen;
  tfc_iter *it = NULL;
  if (tfc_ds_get_bytes(&rd, &magic, &mlen, &st) && (mlen != strlen(STATE_MAGIC) || memcmp(magic, STATE_MAGIC, mlen)))
    tfc_status_set(&st, TFC_CODE_INVALID_ARGUMENT, "unknown iterator state version");
  if (tfc_status_ok(&st)) it = tfc_dataset_iter(ds, &st);
  if (it && tfc_iter_restore(it, &rd, &st) && rd.p != rd.end)
    tfc_status_set(&st, TFC_CODE_NOT_FOUND, "the saved state holds more than this dataset's iterators");
  if (!tfc_status_ok(&st)) {
    tfc_iter_free(it);
    tfc_object_unref(&ds->base);
    restore_failed(ctx, st.code, st.msg);
    return;
  }
  pthread_mutex_lock(&r->mu);
  tfc_iter *old = r->it;
  tfc_dataset *old_ds = r->ds;
  r->it = it;
  r->ds = ds;
  r->made = true;
  pthread_mutex_unlock(&r->mu);
  tfc_iter_free(old);
  if (old_ds) tfc_object_unref(&old_ds->base);
}

static void to_string_handle_compute(tfc_kernel_ctx *ctx) {
  iter_res *r = in_iter(ctx, 0);
  if (!r) return;
  char buf[1024];
  int len = snprintf(buf, sizeof buf, "tfc-iterator\n%s\n%s", r->container, r->name);
  if (len < 0 || len >= (int)sizeof buf) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "iterator name too long");
    return;
  }
  tfc_string s = {buf, (size_t)len};
  tfc_tensor *t = tfc_tensor_scalar(TFC_DTYPE_STRING, &s, ctx->st);
  if (t) tfc_kernel_set_output(ctx, 0, t);
}

static tfc_object *no_create(void *arg, tfc_status *st) {
  (void)arg;
  tfc_status_set(st, TFC_CODE_NOT_FOUND, "No iterator with this string handle exists in the session");
  return NULL;
}

static void from_string_handle_compute(tfc_kernel_ctx *ctx) {
  const tfc_tensor *t = ctx->inputs[0];
  const tfc_string *s = t->dtype == TFC_DTYPE_STRING && t->nelems == 1 ? t->data : NULL;
  char buf[1024];
  if (!s || s->len >= sizeof buf) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "string_handle must be a scalar string");
    return;
  }
  memcpy(buf, s->data, s->len);
  buf[s->len] = '\0';
  char *c = strchr(buf, '\n'), *n = c ? strchr(c + 1, '\n') : NULL;
  if (strncmp(buf, "tfc-iterator\n", 13) != 0 || !n) {
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "Could not parse an iterator string handle");
    return;
  }
  *n = '\0';
  iter_res *r = (iter_res *)tfc_resource_object(ctx->step->resources, c + 1, n + 1, &k_iter_type, no_create, NULL,
                                                ctx->st);
  if (!r) return;
  tfc_dtype types[MAXC];
  int nt = tfc_ds_attr_types(ctx, "output_types", types);
  bool ok = nt == 0 || nt == r->n;
  for (int i = 0; ok && i < nt; i++) ok = types[i] == r->types[i];
  if (!ok) {
    tfc_object_unref(&r->base);
    tfc_kernel_fail(ctx, TFC_CODE_INVALID_ARGUMENT, "The iterator of this string handle has other component types");
    return;
  }
  output_iter(ctx, r);
}

/* IteratorGetNextAsOptional: the next element as an Optional, or an empty
 * Optional at the end of the sequence. */
static void get_next_as_optional_compute(tfc_kernel_ctx *ctx) {
  iter_res *r = in_iter(ctx, 0);
  if (!r) return;
  tfc_tensor *out[MAXC];
  pthread_mutex_lock(&r->mu);
  int rc = r->it ? r->it->vt->next(r->it, out, ctx->st) : -2;
  pthread_mutex_unlock(&r->mu);
  if (rc == -2) {
    tfc_kernel_fail(ctx, TFC_CODE_FAILED_PRECONDITION,
                    "GetNext() failed because the iterator has not been initialized. Ensure that you have run the "
                    "initializer operation for this iterator before getting the next element.");
    return;
  }
  if (rc < 0) return;
  tfc_object *o = tfc_optional_new(rc == 1, out, rc == 1 ? r->n : 0, ctx->st);
  if (rc == 1) tfc_element_clear(out, r->n);
  if (!o) return;
  tfc_tensor *t = tfc_tensor_object_scalar(TFC_DTYPE_VARIANT, o, ctx->st);
  tfc_object_unref(o);
  if (t) tfc_kernel_set_output(ctx, 0, t);
}

static const tfc_kernel_def defs[] = {
    {"TensorDataset", "CPU", NULL, NULL, NULL, tensor_ds_compute, NULL, 0},
    {"TensorSliceDataset", "CPU", NULL, NULL, NULL, tensor_ds_compute, NULL, 0},
    {"RangeDataset", "CPU", NULL, NULL, NULL, range_ds_compute, NULL, 0},
    {"ZipDataset", "CPU", NULL, NULL, NULL, zip_ds_compute, NULL, 0},
    {"ConcatenateDataset", "CPU", NULL, NULL, NULL, concat_ds_compute, NULL, 0},
    {"TFRecordDataset", "CPU", NULL, NULL, NULL, file_ds_compute, NULL, 0},
    {"TextLineDataset", "CPU", NULL, NULL, NULL, file_ds_compute, NULL, 0},
    {"FixedLengthRecordDatasetV2", "CPU", NULL, NULL, NULL, file_ds_compute, NULL, 0},
    {"BatchDatasetV2", "CPU", NULL, NULL, NULL, batch_ds_compute, NULL, 0},
    {"PaddedBatchDatasetV2", "CPU", NULL, NULL, NULL, batch_ds_compute, NULL, 0},
    {"ShuffleDataset", "CPU", NULL, NULL, NULL, shuffle_ds_compute, NULL, 0},
    {"RepeatDataset", "CPU", NULL, NULL, NULL, count_ds_compute, NULL, 0},
    {"TakeDataset", "CPU", NULL, NULL, NULL, count_ds_compute, NULL, 0},
    {"SkipDataset", "CPU", NULL, NULL, NULL, count_ds_compute, NULL, 0},
    {"CacheDataset", "CPU", NULL, NULL, NULL, cache_ds_compute, NULL, 0},
    {"PrefetchDataset", "CPU", NULL, NULL, NULL, prefetch_ds_compute, NULL, 0},
    {"DatasetToTFRecord", "CPU", NULL, NULL, NULL, to_tfrecord_compute, NULL, 0},
    {"DatasetCardinality", "CPU", NULL, NULL, NULL, cardinality_compute, NULL, 0},
    {"ExperimentalDatasetCardinality", "CPU", NULL, NULL, NULL, cardinality_compute, NULL, 0},
    {"IteratorV2", "CPU", NULL, NULL, iter_op_init, iterator_v2_compute, iter_op_free, 0},
    {"MakeIterator", "CPU", NULL, NULL, NULL, make_iterator_compute, NULL, 0},
    {"SerializeIterator", "CPU", NULL, NULL, NULL, serialize_iterator_compute, NULL, 0},
    {"DeserializeIterator", "CPU", NULL, NULL, NULL, deserialize_iterator_compute, NULL, 0},
    {"IteratorGetNext", "CPU", NULL, NULL, NULL, get_next_compute, NULL, 0},
    {"IteratorGetNextAsOptional", "CPU", NULL, NULL, NULL, get_next_as_optional_compute, NULL, 0},
    {"IteratorToStringHandle", "CPU", NULL, NULL, NULL, to_string_handle_compute, NULL, 0},
    {"IteratorFromStringHandleV2", "CPU", NULL, NULL, NULL, from_string_handle_compute, NULL, 0},
    {"_OneShotIterator", "CPU", NULL, NULL, iter_op_init, one_shot_compute, iter_op_free, 0},
    {"OneShotIterator", "CPU", NULL, NULL, iter_op_init, tf_one_shot_compute, iter_op_free, 0},
    {"_PyGeneratorDataset", "CPU", NULL, NULL, NULL, generator_ds_compute, NULL, 0},
    {"MapDataset", "CPU", NULL, NULL, NULL, function_ds_compute, NULL, 0},
    {"ParallelMapDataset", "CPU", NULL, NULL, NULL, function_ds_compute, NULL, 0},
    {"ParallelMapDatasetV2", "CPU", NULL, NULL, NULL, function_ds_compute, NULL, 0},
    {"FlatMapDataset", "CPU", NULL, NULL, NULL, function_ds_compute, NULL, 0},
    {"InterleaveDataset", "CPU", NULL, NULL, NULL, function_ds_compute, NULL, 0},
    {"ParallelInterleaveDatasetV2", "CPU", NULL, NULL, NULL, function_ds_compute, NULL, 0},
    {"ParallelInterleaveDataset", "CPU", NULL, NULL, NULL, function_ds_compute, NULL, 0},
    {"FilterDataset", "CPU", NULL, NULL, NULL, function_ds_compute, NULL, 0},
};

const tfc_kernel_table tfc_kernels_dataset = {defs, (int)(sizeof defs / sizeof defs[0])};
