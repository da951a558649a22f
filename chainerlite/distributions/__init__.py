"""Probability distributions (Chainer's ``chainer.distributions``)."""

from chainerlite.distributions import utils  # NOQA

from chainerlite.distributions.bernoulli import Bernoulli  # NOQA
from chainerlite.distributions.beta import Beta  # NOQA
from chainerlite.distributions.categorical import Categorical  # NOQA
from chainerlite.distributions.cauchy import Cauchy  # NOQA
from chainerlite.distributions.chisquare import Chisquare  # NOQA
from chainerlite.distributions.dirichlet import Dirichlet  # NOQA
from chainerlite.distributions.exponential import Exponential  # NOQA
from chainerlite.distributions.gamma import Gamma  # NOQA
from chainerlite.distributions.geometric import Geometric  # NOQA
from chainerlite.distributions.gumbel import Gumbel  # NOQA
from chainerlite.distributions.independent import Independent  # NOQA
from chainerlite.distributions.laplace import Laplace  # NOQA
from chainerlite.distributions.log_normal import LogNormal  # NOQA
from chainerlite.distributions.multivariate_normal import MultivariateNormal  # NOQA
from chainerlite.distributions.normal import Normal  # NOQA
from chainerlite.distributions.one_hot_categorical import OneHotCategorical  # NOQA
from chainerlite.distributions.pareto import Pareto  # NOQA
from chainerlite.distributions.poisson import Poisson  # NOQA
from chainerlite.distributions.uniform import Uniform  # NOQA
