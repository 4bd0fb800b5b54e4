"""tf.initializers namespace."""
from tfc.ops.init_ops import (Zeros as zeros, Ones as ones, Constant as constant,  # noqa: F401
                              RandomUniform as random_uniform, RandomNormal as random_normal,
                              TruncatedNormal as truncated_normal,
                              VarianceScaling as variance_scaling,
                              GlorotUniform as glorot_uniform, GlorotNormal as glorot_normal,
                              he_normal, he_uniform, lecun_normal, lecun_uniform,
                              Orthogonal as orthogonal)
from tfc.ops.variables import (global_variables_initializer as global_variables,  # noqa: F401
                               local_variables_initializer as local_variables,
                               variables_initializer as variables)
from tfc.ops.lookup_ops import tables_initializer  # noqa: F401
from tfc.ops.init_ops_extra import (Identity as identity,  # noqa: F401,E402
                                    UniformUnitScaling as uniform_unit_scaling)
