import warnings

import chainerlite
from chainerlite import utils


def test_silent_by_default():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        utils.nondeterministic('my_function')
    assert caught == []


def test_warns_with_the_name_when_asked():
    with chainerlite.using_config('warn_nondeterministic', True):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            utils.nondeterministic('my_function')
    assert len(caught) == 1
    assert 'my_function' in str(caught[0].message)
