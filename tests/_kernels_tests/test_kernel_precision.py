"""Every CPU kernel states one precision promise, in one place: its
module's ``PRECISION`` (see ``chainerlite._kernels``), in a form its tests
check (bitwise ones against the path they replace, the others within the
stated ulps or relative tolerance)."""

import importlib
import pkgutil
import re

import chainerlite._kernels as kernels

# 'bitwise NumPy', 'bitwise Chainer', or per dtype 'N ulp DTYPE' /
# 'rtol X DTYPE', comma separated ('rtol' said once)
_FORM = re.compile(
    r'bitwise (NumPy|Chainer)'
    r'|(?:(?:\d+ ulp|rtol [0-9.e-]+) float(?:32|64))'
    r'(?:, (?:\d+ ulp|(?:rtol )?[0-9.e-]+) float(?:32|64))*'
)


def _kernel_modules():
    return [
        importlib.import_module('chainerlite._kernels.' + info.name)
        for info in pkgutil.iter_modules(kernels.__path__)
    ]


def test_every_kernel_states_its_precision():
    modules = _kernel_modules()
    assert len(modules) >= 9
    for module in modules:
        promise = getattr(module, 'PRECISION', None)
        assert isinstance(promise, str), module.__name__
        assert _FORM.fullmatch(promise), (module.__name__, promise)
