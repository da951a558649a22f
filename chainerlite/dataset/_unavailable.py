"""The error of a download that failed, for loaders that explain the way out."""

import urllib.error


class DownloadUnavailable(urllib.error.URLError, RuntimeError):
    """A failed download, with a message saying how to do without it.

    It is a :class:`urllib.error.URLError` (an :class:`OSError`), which is
    what Chainer's loaders let through offline, so ``except URLError`` and
    ``except OSError`` in user code catch it; it is also a
    :class:`RuntimeError`, which chainerlite's dataset loaders raised
    before. Its ``reason`` and ``str()`` are the whole message (not
    ``URLError``'s ``<urlopen error ...>`` form); the network error is its
    ``__cause__``.
    """

    def __str__(self):
        return str(self.reason)
