/*
 * py_protos.c — the serialized FileDescriptorSet of tfc's .proto files.
 *
 * The build runs `protoc-c --descriptor_set_out --include_imports` over
 * every proto/NAME.proto and writes the bytes as a C initializer list into
 * <build>/gen/tfc_protos_desc.inc (setup.py, _generate_protos). tfc/protos.py
 * turns them into google.protobuf message classes in a descriptor pool of
 * its own, so the Python messages and the C side's protoc-c code come from
 * the same files.
 *
 * Module function (entry in module.c's method table):
 *   _proto_descriptor_set() -> bytes (a serialized FileDescriptorSet whose
 *   files appear dependencies first)
 */
#include "python/py_internal.h"

static const unsigned char descriptor_set[] = {
#include "tfc_protos_desc.inc"
};

/* Returns a new bytes object holding the descriptor set; never fails except
 * for out-of-memory (then NULL with MemoryError set). */
PyObject *tfc_py_mod_proto_descriptor_set(PyObject *module, PyObject *unused) {
  (void)module;
  (void)unused;
  return PyBytes_FromStringAndSize((const char *)descriptor_set, (Py_ssize_t)sizeof descriptor_set);
}
