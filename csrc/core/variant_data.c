/*
 * variant_data.c — serialisable variant values (see variant_data.h).
 */
#include "core/variant_data.h"

#include <string.h>

#include "base/alloc.h"

/* Frees a value and its copies. */
static void variant_data_destroy(tfc_object *o) {
  tfc_variant_data *v = (tfc_variant_data *)o;
  tfc_free(v->type_name);
  tfc_free(v->data);
  tfc_free(v);
}

const tfc_object_type tfc_variant_data_type = {"VariantTensorData", variant_data_destroy};

/* A new value holding copies of type_name and data (see variant_data.h). */
tfc_object *tfc_variant_data_new(const char *type_name, const void *data, size_t len, tfc_status *st) {
  tfc_variant_data *v = tfc_calloc(1, sizeof *v);
  if (v) {
    v->type_name = tfc_strdup(type_name ? type_name : "");
    v->data = tfc_malloc(len + 1);
  }
  if (!v || !v->type_name || !v->data) {
    if (v) {
      tfc_free(v->type_name);
      tfc_free(v->data);
    }
    tfc_free(v);
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "out of memory creating a variant value");
    return NULL;
  }
  if (len) memcpy(v->data, data, len);
  v->data[len] = '\0';
  v->len = len;
  tfc_object_init(&v->base, &tfc_variant_data_type);
  return &v->base;
}

/* o as a variant data value, or NULL. */
const tfc_variant_data *tfc_variant_data_cast(const tfc_object *o) {
  return o && o->type == &tfc_variant_data_type ? (const tfc_variant_data *)o : NULL;
}
