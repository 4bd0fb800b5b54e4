"""tf.distributions (TF 1.15's graph-mode probability distributions): Distribution,
ReparameterizationType, kl_divergence / RegisterKL, and the Normal, Bernoulli,
Categorical, Uniform, Exponential, Laplace, Multinomial, Gamma, Beta, StudentT,
Dirichlet and DirichletMultinomial distributions."""
from tfc.distributions.distribution import (Distribution, ReparameterizationType,  # noqa: F401
                                            FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED,
                                            RegisterKL, kl_divergence)
from tfc.distributions.distributions import (Normal, Bernoulli, Categorical, Uniform,  # noqa: F401
                                             Exponential, Laplace, Multinomial)
from tfc.distributions.gamma_family import (Gamma, Beta, StudentT, Dirichlet,  # noqa: F401,E402
                                            DirichletMultinomial)
