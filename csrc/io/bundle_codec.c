/*
 * bundle_codec.c — BundleHeaderProto and BundleEntryProto to and from bytes,
 * through protobuf-c (proto/tensor_bundle.proto) and the graph layer's
 * hardened unpacking (tfc_pb_unpack). The only io file that includes
 * protobuf-c's generated headers.
 */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "graph/graphdef_pb.h"
#include "io/bundle_internal.h"
#include "tensor.pb-c.h"
#include "tensor_bundle.pb-c.h"
#include "tensor_slice.pb-c.h"

bool tfc_bundle_header_encode(int num_shards, uint8_t **data, size_t *len, tfc_status *st) {
  Tensorflow__VersionDef version = TENSORFLOW__VERSION_DEF__INIT;
  version.producer = TFC_BUNDLE_VERSION;
  Tensorflow__BundleHeaderProto h = TENSORFLOW__BUNDLE_HEADER_PROTO__INIT;
  h.num_shards = num_shards;
  h.version = &version;
  void *out;
  if (!tfc_pb_pack(&h.base, NULL, 0, &out, len, st)) return false;
  *data = out;
  return true;
}

bool tfc_bundle_header_decode(const uint8_t *data, size_t len, int *num_shards, tfc_status *st) {
  tfc_status sub;
  tfc_status_clear(&sub);
  Tensorflow__BundleHeaderProto *h = (Tensorflow__BundleHeaderProto *)tfc_pb_unpack(
      &tensorflow__bundle_header_proto__descriptor, data, len, "BundleHeaderProto", &sub);
  if (!h) {
    if (sub.code == TFC_CODE_RESOURCE_EXHAUSTED) return tfc_status_set(st, sub.code, "%s", sub.msg);
    return tfc_status_set(st, TFC_CODE_DATA_LOSS, "Unable to parse the checkpoint header: %s", sub.msg);
  }
  bool ok = true;
  if (h->endianness != TENSORFLOW__BUNDLE_HEADER_PROTO__ENDIANNESS__LITTLE) {
    ok = tfc_status_set(st, TFC_CODE_UNIMPLEMENTED,
                        "Reading a big-endian checkpoint on a little-endian machine is not supported");
  } else if (h->num_shards < 1 || h->num_shards > TFC_BUNDLE_MAX_SHARDS) {
    ok = tfc_status_set(st, TFC_CODE_DATA_LOSS, "Checkpoint header declares %d shards",
                        (int)h->num_shards);
  } else if (h->version && h->version->min_consumer > TFC_BUNDLE_VERSION) {
    ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                        "Checkpoint min consumer version %d above current version %d",
                        (int)h->version->min_consumer, TFC_BUNDLE_VERSION);
  } else if (h->version) {
    for (size_t i = 0; i < h->version->n_bad_consumers; i++)
      if (h->version->bad_consumers[i] == TFC_BUNDLE_VERSION) {
        ok = tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT,
                            "Checkpoint disallows consumer version %d", TFC_BUNDLE_VERSION);
        break;
      }
  }
  if (ok) *num_shards = h->num_shards;
  protobuf_c_message_free_unpacked(&h->base, &tfc_pb_allocator);
  return ok;
}

bool tfc_bundle_entry_encode(const tfc_bundle_entry *e, uint8_t **data, size_t *len,
                             tfc_status *st) {
  tfc_pb_arena arena;
  tfc_pb_arena_init(&arena);
  Tensorflow__BundleEntryProto m = TENSORFLOW__BUNDLE_ENTRY_PROTO__INIT;
  m.dtype = (Tensorflow__DataType)e->dtype;
  tfc_shape s = tfc_shape_make(e->rank, e->dims);
  m.shape = tfc_shape_to_pb(&s, &arena);
  m.shard_id = e->shard_id;
  m.offset = e->offset;
  m.size = e->size;
  m.crc32c = e->crc32c;
  bool ok = m.shape != NULL;
  if (ok && e->n_slices > 0) {
    m.n_slices = (size_t)e->n_slices;
    m.slices = tfc_pb_arena_calloc(&arena, m.n_slices, sizeof *m.slices);
    ok = m.slices != NULL;
    for (int i = 0; ok && i < e->n_slices; i++) {
      const tfc_bundle_slice *sl = &e->slices[i];
      Tensorflow__TensorSliceProto *p = tfc_pb_arena_alloc(&arena, sizeof *p);
      Tensorflow__TensorSliceProto__Extent **ex =
          tfc_pb_arena_calloc(&arena, (size_t)(sl->rank ? sl->rank : 1), sizeof *ex);
      if (!p || !ex) {
        ok = false;
        break;
      }
      tensorflow__tensor_slice_proto__init(p);
      p->n_extent = (size_t)sl->rank;
      p->extent = ex;
      for (int d = 0; d < sl->rank; d++) {
        ex[d] = tfc_pb_arena_alloc(&arena, sizeof **ex);
        if (!ex[d]) {
          ok = false;
          break;
        }
        tensorflow__tensor_slice_proto__extent__init(ex[d]);
        ex[d]->start = sl->extent[d].start;
        if (sl->extent[d].length >= 0) {
          ex[d]->has_length_case = TENSORFLOW__TENSOR_SLICE_PROTO__EXTENT__HAS_LENGTH_LENGTH;
          ex[d]->length = sl->extent[d].length;
        }
      }
      m.slices[i] = p;
    }
  }
  void *out = NULL;
  if (!ok) tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM encoding a checkpoint entry");
  else ok = tfc_pb_pack(&m.base, NULL, 0, &out, len, st);
  tfc_pb_arena_free(&arena);
  if (ok) *data = out;
  return ok;
}

void tfc_bundle_entry_clear(tfc_bundle_entry *e) {
  tfc_free(e->slices);
  memset(e, 0, sizeof *e);
}

/* DATA_LOSS naming the key (printed as TF does, bytes as they are). */
static bool corrupt(tfc_status *st, const char *key, size_t klen, const char *why) {
  return tfc_status_set(st, TFC_CODE_DATA_LOSS, "Corrupted checkpoint entry for key %.*s: %s",
                        (int)(klen > 200 ? 200 : klen), key, why);
}

bool tfc_bundle_entry_decode(const uint8_t *data, size_t len, const char *key, size_t klen,
                             tfc_bundle_entry *e, tfc_status *st) {
  memset(e, 0, sizeof *e);
  tfc_status sub;
  tfc_status_clear(&sub);
  Tensorflow__BundleEntryProto *m = (Tensorflow__BundleEntryProto *)tfc_pb_unpack(
      &tensorflow__bundle_entry_proto__descriptor, data, len, "BundleEntryProto", &sub);
  if (!m) {
    if (sub.code == TFC_CODE_RESOURCE_EXHAUSTED) return tfc_status_set(st, sub.code, "%s", sub.msg);
    return corrupt(st, key, klen, "unparsable BundleEntryProto");
  }
  bool ok = true;
  tfc_shape s;
  tfc_status shape_st;
  tfc_status_clear(&shape_st);
  int dt = (int)m->dtype;
  if (dt <= 0 || dt >= TFC_DTYPE_NUM) ok = corrupt(st, key, klen, "bad dtype");
  else if (!tfc_shape_from_pb(m->shape, &s, &shape_st) || !tfc_shape_is_fully_defined(&s))
    ok = corrupt(st, key, klen, "bad shape");
  else if (m->offset < 0 || m->size < 0 || m->shard_id < 0)
    ok = corrupt(st, key, klen, "negative offset, size or shard");
  if (ok) {
    e->dtype = (tfc_dtype)dt;
    e->rank = s.rank;
    memcpy(e->dims, s.dims, sizeof e->dims);
    e->shard_id = m->shard_id;
    e->offset = m->offset;
    e->size = m->size;
    e->crc32c = m->crc32c;
    /* element count must not overflow */
    int64_t n = 1;
    for (int d = 0; ok && d < s.rank; d++) {
      if (s.dims[d] != 0 && n > INT64_MAX / s.dims[d]) ok = corrupt(st, key, klen, "shape too large");
      else n *= s.dims[d];
    }
  }
  if (ok && m->n_slices > 0) {
    if (m->n_slices > (size_t)INT32_MAX) ok = corrupt(st, key, klen, "too many slices");
    else {
      e->slices = tfc_calloc(m->n_slices, sizeof *e->slices);
      if (!e->slices) ok = tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
      else e->n_slices = (int)m->n_slices;
    }
    for (size_t i = 0; ok && i < m->n_slices; i++) {
      const Tensorflow__TensorSliceProto *p = m->slices[i];
      if (p->n_extent != (size_t)e->rank) {
        ok = corrupt(st, key, klen, "slice rank differs from the tensor's");
        break;
      }
      e->slices[i].rank = e->rank;
      for (size_t d = 0; d < p->n_extent; d++) {
        int64_t start = p->extent[d]->start, length = -1;
        if (p->extent[d]->has_length_case == TENSORFLOW__TENSOR_SLICE_PROTO__EXTENT__HAS_LENGTH_LENGTH)
          length = p->extent[d]->length;
        int64_t dim = e->dims[d];
        if (length == -1 ? start != 0 : (start < 0 || length < 0 || start > dim || length > dim - start)) {
          ok = corrupt(st, key, klen, "slice outside the tensor");
          break;
        }
        e->slices[i].extent[d] = (tfc_bundle_extent){start, length};
      }
    }
  }
  protobuf_c_message_free_unpacked(&m->base, &tfc_pb_allocator);
  if (!ok) tfc_bundle_entry_clear(e);
  return ok;
}

/* Packs a VariantTensorDataProto of (type_name, metadata) (see bundle_internal.h). */
bool tfc_bundle_variant_encode(const char *type_name, const void *meta, size_t mlen, uint8_t **data,
                               size_t *len, tfc_status *st) {
  Tensorflow__VariantTensorDataProto m = TENSORFLOW__VARIANT_TENSOR_DATA_PROTO__INIT;
  m.type_name = (char *)(type_name ? type_name : "");
  m.metadata.data = (uint8_t *)meta;
  m.metadata.len = mlen;
  void *out = NULL;
  if (!tfc_pb_pack(&m.base, NULL, 0, &out, len, st)) return false;
  *data = out;
  return true;
}

/* Unpacks a VariantTensorDataProto's type name and metadata (see bundle_internal.h). */
bool tfc_bundle_variant_decode(const uint8_t *data, size_t len, char **type_name, uint8_t **meta,
                               size_t *mlen, tfc_status *st) {
  tfc_status sub;
  tfc_status_clear(&sub);
  Tensorflow__VariantTensorDataProto *m = (Tensorflow__VariantTensorDataProto *)tfc_pb_unpack(
      &tensorflow__variant_tensor_data_proto__descriptor, data, len, "VariantTensorDataProto", &sub);
  if (!m) {
    if (sub.code == TFC_CODE_RESOURCE_EXHAUSTED) return tfc_status_set(st, sub.code, "%s", sub.msg);
    return tfc_status_set(st, TFC_CODE_DATA_LOSS, "Unparsable VariantTensorDataProto in a checkpoint");
  }
  *type_name = tfc_strdup(m->type_name ? m->type_name : "");
  *meta = tfc_malloc(m->metadata.len + 1);
  bool ok = *type_name && *meta;
  if (ok) {
    if (m->metadata.len) memcpy(*meta, m->metadata.data, m->metadata.len);
    *mlen = m->metadata.len;
  } else {
    tfc_free(*type_name);
    tfc_free(*meta);
    *type_name = NULL;
    *meta = NULL;
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM");
  }
  protobuf_c_message_free_unpacked(&m->base, &tfc_pb_allocator);
  return ok;
}
