"""tf.sparse: operations on SparseTensors (TF 1.15's names in this namespace)."""
from tfc.framework.sparse_tensor import SparseTensor  # noqa: F401
from tfc.ops.sparse_ops import (sparse_add as add, sparse_concat as concat,  # noqa: F401
                                sparse_expand_dims as expand_dims,
                                sparse_fill_empty_rows as fill_empty_rows, from_dense,
                                sparse_tensor_dense_matmul as matmul,
                                sparse_tensor_dense_matmul as sparse_dense_matmul,
                                sparse_placeholder as placeholder,
                                sparse_reduce_sum as reduce_sum, sparse_reorder as reorder,
                                sparse_reset_shape as reset_shape, sparse_reshape as reshape,
                                sparse_retain as retain, sparse_segment_mean as segment_mean,
                                sparse_segment_sqrt_n as segment_sqrt_n,
                                sparse_segment_sum as segment_sum, sparse_slice as slice,
                                sparse_split as split, sparse_tensor_to_dense as to_dense,
                                sparse_to_indicator as to_indicator,
                                sparse_transpose as transpose,
                                sparse_softmax as softmax, sparse_maximum as maximum,
                                sparse_minimum as minimum, sparse_mask as mask,
                                sparse_merge as merge, sparse_reduce_max as reduce_max,
                                sparse_reduce_max_sparse as reduce_max_sparse,
                                sparse_reduce_sum_sparse as reduce_sum_sparse,
                                sparse_eye as eye, sparse_cross as cross,
                                sparse_cross_hashed as cross_hashed)
