"""Runner for ``chainer.initializers``: the same initializer, shape, dtype
and NumPy seed; the arrays it fills and ``generate_array``'s."""

import inspect

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import pair
from tools.diff_chainer import strategies as S

ABSTRACT = {'Initializer': 'the abstract base class'}
shapes = st.sampled_from(
    [(), (0,), (1,), (3,), (2, 3), (3, 2), (4, 4), (2, 3, 2, 2), (3, 3, 3, 3)]
)


@st.composite
def arguments(draw, cls):
    kwargs = {}
    for p in inspect.signature(cls.__init__).parameters.values():
        if p.name == 'fill_value':
            kwargs[p.name] = draw(st.sampled_from([0.0, -1.5, 2, numpy.float16(0.5)]))
        elif p.name == 'dtype' and draw(st.booleans()):
            kwargs[p.name] = draw(st.sampled_from(S.FLOATS))
        elif p.name == 'scale' and draw(st.booleans()):
            kwargs[p.name] = draw(st.sampled_from([0.5, 1.0, 2.0]))
    return kwargs


def run(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]
    if name in ABSTRACT:
        return ABSTRACT[name]
    cls = getattr(libs[0].initializers, name)

    def draw_case(data):
        kwargs = data.draw(arguments(cls))
        shape = data.draw(shapes)
        dtype = kwargs.get('dtype') or data.draw(st.sampled_from(S.FLOATS))
        seed = data.draw(S.seeds)

        def fill(lib, s):
            numpy.random.seed(seed)
            array = numpy.zeros(shape, dtype)
            getattr(lib.initializers, name)(**kwargs)(array)
            return array

        def generate(lib, s):
            numpy.random.seed(seed)
            init = getattr(lib.initializers, name)(**kwargs)
            return lib.initializers.generate_array(init, shape, numpy)

        label = f'{name}({kwargs}) {shape} {numpy.dtype(dtype).name}'
        pair.run_case(libs, [('fill', fill), ('generate', generate)], tally, label)

    pair.explore(draw_case, examples, seconds)
