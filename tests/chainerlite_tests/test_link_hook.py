"""LinkHook dispatch: global (with hook:) and per link (add_hook)."""

import numpy
import pytest

import chainerlite
from chainerlite import links as L


class Recorder(chainerlite.LinkHook):
    name = 'Recorder'

    def __init__(self):
        self.events = []

    def added(self, link):
        self.events.append(('added', link))

    def deleted(self, link):
        self.events.append(('deleted', link))

    def forward_preprocess(self, args):
        self.events.append(
            ('pre', args.link, args.forward_name, args.args, args.kwargs)
        )

    def forward_postprocess(self, args):
        self.events.append(('post', args.link, args.out))


class Model(chainerlite.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 2)

    def forward(self, x, scale=1):
        return self.l1(x) * scale


def _x():
    return numpy.ones((1, 3), numpy.float32)


def test_global_hook_sees_every_link_call_in_order():
    model, hook = Model(), Recorder()
    with hook:
        y = model(_x(), scale=2)
    kinds = [(e[0], e[1]) for e in hook.events]
    assert kinds == [
        ('added', None),
        ('pre', model),
        ('pre', model.l1),
        ('post', model.l1),
        ('post', model),
        ('deleted', None),
    ]
    pre = hook.events[1]
    assert pre[2] == 'forward' and pre[4] == {'scale': 2}
    assert hook.events[4][2] is y
    assert chainerlite._get_link_hooks() == {}


def test_global_hook_names_are_unique_and_removed_on_error():
    with Recorder():
        with pytest.raises(KeyError, match='Recorder'):
            with Recorder():
                pass
    with pytest.raises(ValueError):
        with Recorder():
            raise ValueError
    assert chainerlite._get_link_hooks() == {}


def test_local_hooks():
    model, hook = Model(), Recorder()
    assert model.add_hook(hook, 'mine') is model
    assert list(model.local_link_hooks) == ['mine']
    model(_x())
    model.delete_hook('mine')
    model(_x())
    kinds = [(e[0], e[1]) for e in hook.events]
    assert kinds == [
        ('added', model),
        ('pre', model),
        ('post', model),
        ('deleted', model),
    ]


def test_local_hook_errors():
    model = Model()
    with pytest.raises(TypeError, match='LinkHook'):
        model.add_hook(object())
    model.add_hook(Recorder())
    with pytest.raises(KeyError):
        model.add_hook(Recorder())
    with pytest.raises(KeyError):
        model.delete_hook('missing')


def test_callback_args_print():
    args = chainerlite.link_hook._ForwardPostprocessCallbackArgs(
        None, 'forward', (1,), {}, 2
    )
    assert 'forward_name=' in repr(args) and 'out=2' in str(args)


def test_shared_copy_has_its_own_hooks():
    model = Model()
    model.add_hook(Recorder())
    copied = model.copy('share')
    copied.delete_hook('Recorder')
    assert list(model.local_link_hooks) == ['Recorder']


def test_callback_arguments_read_as_chainers_named_data():
    seen = []

    class Keep(chainerlite.LinkHook):
        def forward_preprocess(self, args):
            seen.append(repr(args))

        def forward_postprocess(self, args):
            seen.append(repr(args))

    link = chainerlite.links.Linear(2, 1)
    with Keep():
        link(numpy.ones((1, 2), numpy.float32))
    pre, post = seen
    assert pre.startswith(
        '<chainerlite.link_hook._ForwardPreprocessCallbackArgs link=Linear('
    )
    assert ' forward_name=forward args=(array(' in pre
    assert pre.endswith(' kwargs={}>')
    assert post.startswith('<chainerlite.link_hook._ForwardPostprocessCallbackArgs ')
    assert ' out=variable(' in post
