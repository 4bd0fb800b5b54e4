/*
 * device_name.h — TensorFlow's device-name grammar.
 *
 * Accepts full and partial specs in any order of fields:
 *   /job:ps/replica:0/task:1/device:CPU:0   /job:worker/task:1   /cpu:0
 *   /gpu:1   /device:GPU:*   CPU:0   ""  (empty: no constraint)
 * Type names are case-insensitive and stored upper-case ("CPU", "GPU").
 */
#ifndef TFC_GRAPH_DEVICE_NAME_H
#define TFC_GRAPH_DEVICE_NAME_H

#include <stdbool.h>

#include "base/status.h"

typedef struct tfc_device_name {
  bool has_job;
  char job[64];
  bool has_replica;
  int replica;
  bool has_task;
  int task;
  bool has_type;
  char type[16];
  bool has_id;
  int id;
} tfc_device_name;

/* Parses s into *out. Returns false + INVALID_ARGUMENT
 * ("Malformed device specification '...'") when s is not a device name. */
bool tfc_device_name_parse(const char *s, tfc_device_name *out, tfc_status *st);
/* Writes the canonical form ("/job:ps/replica:0/task:1/device:CPU:0", only set fields) into buf. */
void tfc_device_name_format(const tfc_device_name *d, char *buf, int bufsize);
/* True when every field set in spec equals the same field of dev. */
bool tfc_device_name_matches(const tfc_device_name *spec, const tfc_device_name *dev);
/* True when no field set in both a and b differs. */
bool tfc_device_name_compatible(const tfc_device_name *a, const tfc_device_name *b);
/* Copies into dst every field set in src and unset in dst. */
void tfc_device_name_merge(tfc_device_name *dst, const tfc_device_name *src);

#endif
