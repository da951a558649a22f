"""Theano wrappers (Chainer's ``chainer.links.theano``); see
:mod:`chainerlite.links.theano.theano_function`."""
