/*
 * ops_internal.c — op definitions the runtime inserts itself: _Send/_Recv
 * carry a tensor across a device boundary through a rendezvous
 * (_HostSend/_HostRecv are the forms TensorFlow's partitioner writes for
 * tensors kept in host memory; on CPU devices they are the same).
 * Names, attrs and defaults follow TensorFlow's sendrecv ops.
 */
#include "core/op_registry.h"
#include "core/op_tables.h"

static const tfc_op_spec specs[] = {
    {"_Recv", "", "tensor: tensor_type",
     "tensor_type: type; tensor_name: string; send_device: string; send_device_incarnation: int; "
     "recv_device: string; client_terminated: bool = false",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"_Send", "tensor: T", "",
     "T: type; tensor_name: string; send_device: string; send_device_incarnation: int; "
     "recv_device: string; client_terminated: bool = false",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"_HostRecv", "", "tensor: tensor_type",
     "tensor_type: type; tensor_name: string; send_device: string; send_device_incarnation: int; "
     "recv_device: string; client_terminated: bool = false",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
    {"_HostSend", "tensor: T", "",
     "T: type; tensor_name: string; send_device: string; send_device_incarnation: int; "
     "recv_device: string; client_terminated: bool = false",
     TFC_OP_STATEFUL, tfc_shape_fn_none},
};

const tfc_op_table tfc_ops_internal = {specs, (int)(sizeof specs / sizeof specs[0])};
