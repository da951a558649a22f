import warnings

import pytest

from chainerlite import testing


def test_passes_when_the_warning_is_issued():
    with testing.assert_warns(DeprecationWarning):
        warnings.warn('old', DeprecationWarning)


class MyWarning(UserWarning):
    pass


def test_a_subclass_counts():
    with testing.assert_warns(UserWarning):
        warnings.warn('mine', MyWarning)


def test_fails_without_the_warning():
    with pytest.raises(AssertionError, match='DeprecationWarning not issued'):
        with testing.assert_warns(DeprecationWarning):
            warnings.warn('other', RuntimeWarning)


def test_repeated_warning_from_the_same_place_is_seen_again():
    def warn():
        warnings.warn('again', FutureWarning)

    for _ in range(2):
        with testing.assert_warns(FutureWarning):
            warn()
