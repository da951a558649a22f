"""Testing utilities for chainerlite and code written with it."""

from chainerlite.testing import attr  # NOQA: F401
from chainerlite.testing import condition  # NOQA: F401
from chainerlite.testing.distribution_test import distribution_unittest  # NOQA: F401
from chainerlite.testing._random import fix_random  # NOQA: F401
from chainerlite.testing.array import assert_allclose  # NOQA: F401
from chainerlite.testing.backend import BackendConfig  # NOQA: F401
from chainerlite.testing.backend import inject_backend_tests  # NOQA: F401
from chainerlite.testing.function_link import FunctionTestCase  # NOQA: F401
from chainerlite.testing.function_link import FunctionTestError  # NOQA: F401
from chainerlite.testing.helper import patch  # NOQA: F401
from chainerlite.testing.helper import run_module  # NOQA: F401
from chainerlite.testing.helper import with_requires  # NOQA: F401
from chainerlite.testing.helper import without_requires  # NOQA: F401
from chainerlite.testing.link_test_case import LinkTestCase  # NOQA: F401
from chainerlite.testing.matrix import generate_matrix  # NOQA: F401
from chainerlite.testing.parameterized import parameterize  # NOQA: F401
from chainerlite.testing.parameterized import parameterize_pytest  # NOQA: F401
from chainerlite.testing.parameterized import product  # NOQA: F401
from chainerlite.testing.parameterized import product_dict  # NOQA: F401
from chainerlite.testing.training import get_trainer_with_mock_updater  # NOQA: F401
from chainerlite.testing.serializer import save_and_load  # NOQA: F401
from chainerlite.testing.serializer import save_and_load_hdf5  # NOQA: F401
from chainerlite.testing.serializer import save_and_load_npz  # NOQA: F401
from chainerlite.testing.unary_math_function_test import unary_math_function_unittest  # NOQA: E501,F401
from chainerlite.testing.warning import assert_warns  # NOQA: F401
