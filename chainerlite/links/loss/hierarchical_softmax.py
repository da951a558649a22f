"""Hierarchical softmax over a binary tree of words."""

import heapq
import itertools

import numpy

import chainerlite
from chainerlite import backend
from chainerlite import initializers
from chainerlite import link
from chainerlite import variable
from chainerlite.functions.activation import softplus
from chainerlite.functions.array import get_item
from chainerlite.functions.math import sum as sum_mod


class TreeParser:
    """Paths from the root of a binary tree to its leaves.

    The tree is nested pairs; anything that is not a tuple is a leaf. The
    internal nodes are numbered in depth-first order from the root (0).
    After :meth:`parse`, :meth:`get_paths` gives each leaf the internal
    nodes from the root to it and :meth:`get_codes` the turns taken there:
    ``+1`` to the left child, ``-1`` to the right one.

    Args:
        dtype: Dtype of the codes.

    """

    def __init__(self, dtype):
        self.dtype = dtype
        self._paths, self._codes, self._size = {}, {}, 0

    def parse(self, tree):
        """Reads ``tree``, replacing what an earlier call read.

        Raises:
            ValueError: If an internal node does not have two children.

        """
        found = {}
        counter = itertools.count()

        def walk(node, path):
            if isinstance(node, tuple):
                if len(node) != 2:
                    raise ValueError(
                        'TreeParser.parse: internal nodes must be pairs, '
                        'got {!r}'.format(node)
                    )
                index = next(counter)
                walk(node[0], path + [(index, 1.0)])
                walk(node[1], path + [(index, -1.0)])
            else:
                found[node] = path

        walk(tree, [])
        self._size = next(counter)
        self._paths, self._codes = {}, {}
        for leaf, path in found.items():
            self._paths[leaf] = numpy.array([s[0] for s in path], numpy.int32)
            self._codes[leaf] = numpy.array([s[1] for s in path], self.dtype)

    def size(self):
        """Returns the number of internal nodes."""
        return self._size

    def get_paths(self):
        """Returns {leaf: int32 array of the internal nodes to it}."""
        return self._paths

    def get_codes(self):
        """Returns {leaf: array of the turns (+1 left, -1 right) to it}."""
        return self._codes


class _FlatTree:
    # The paths of a tree whose leaves are the word ids 0 .. n - 1, as flat
    # arrays: for word w, paths[begins[w]:begins[w + 1]] are the internal
    # nodes from the root to it and codes (same slice) its turns.

    def __init__(self, tree, dtype):
        parser = TreeParser(dtype)
        parser.parse(tree)
        paths, codes = parser.get_paths(), parser.get_codes()
        n = len(paths)
        if sorted(paths) != list(range(n)):
            raise ValueError(
                'BinaryHierarchicalSoftmax: the leaves must be the word ids '
                '0 .. {}, got {}'.format(n - 1, sorted(paths))
            )
        self.n_nodes = parser.size()
        lengths = [len(paths[w]) for w in range(n)]
        self.begins = numpy.concatenate([[0], numpy.cumsum(lengths)]).astype(
            numpy.int32
        )
        self.paths = numpy.concatenate([paths[w] for w in range(n)] or [[]]).astype(
            numpy.int32
        )
        self.codes = numpy.concatenate([codes[w] for w in range(n)] or [[]]).astype(
            dtype
        )


class BinaryHierarchicalSoftmax(link.Link):
    """Hierarchical softmax layer over a binary tree (Morin and Bengio).

    The probability of word ``t`` given ``x`` is the product, along the
    path from the root to ``t``, of ``sigmoid(c * W[node] . x)``, with
    ``c = +1`` for a left turn and ``-1`` for a right one. Calling the
    layer returns the negative log-likelihood summed over the batch.

    Args:
        in_size (int): Dimension of the input vectors.
        tree: Binary tree of nested pairs whose leaves are the word ids
            (e.g. from :meth:`create_huffman_tree`).
        dtype: Dtype of ``W`` (``chainerlite.config.dtype`` when ``None``).

    Attributes:
        W (Parameter): One weight vector per internal node, of shape
            ``(n_nodes, in_size)``.

    """

    def __init__(self, in_size, tree, dtype=None):
        super().__init__()
        dtype = chainerlite.get_dtype(dtype)
        self._func = _FlatTree(tree, dtype)
        with self.init_scope():
            # uniform in [-1, 1), as Chainer draws it
            self.W = variable.Parameter(
                initializers.Uniform(1), (self._func.n_nodes, in_size)
            )

    @staticmethod
    def create_huffman_tree(word_counts):
        """Builds a Huffman tree from word frequencies.

        The two least frequent entries are joined first, the less frequent
        one on the left, until one tree remains.

        Args:
            word_counts (dict): Word to its count.

        Returns:
            The tree as nested pairs of words.

        Raises:
            ValueError: If ``word_counts`` is empty.

        """
        if not word_counts:
            raise ValueError('create_huffman_tree: word_counts is empty')
        order = itertools.count()
        heap = [(count, next(order), word) for word, count in word_counts.items()]
        heapq.heapify(heap)
        while len(heap) > 1:
            c1, _, left = heapq.heappop(heap)
            c2, _, right = heapq.heappop(heap)
            heapq.heappush(heap, (c1 + c2, next(order), (left, right)))
        return heap[0][2]

    def forward(self, x, t):
        """Returns the negative log-likelihood of ``t``, summed.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Inputs of shape
                ``(n, in_size)``.
            t (Variable or numpy.ndarray or cupy.ndarray): Word ids of
                shape ``(n,)``.

        Returns:
            Variable: A scalar of the dtype of ``x``.

        """
        func = self._func
        words = backend.CpuDevice().send(getattr(t, 'array', t))
        starts, ends = func.begins[words], func.begins[words + 1]
        steps = numpy.concatenate([numpy.arange(s, e) for s, e in zip(starts, ends)])
        examples = numpy.repeat(numpy.arange(len(words)), ends - starts)
        device = self.device
        nodes = device.send(func.paths[steps])
        codes = device.send(func.codes[steps].astype(x.dtype, copy=False))
        wx = sum_mod.sum(
            get_item.get_item(self.W, nodes)
            * get_item.get_item(x, device.send(examples)),
            axis=1,
        )
        return sum_mod.sum(softplus.softplus(-wx * codes))
