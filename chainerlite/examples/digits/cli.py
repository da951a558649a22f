"""Command line of the digits demo: train, time the functions, save memory.

Run ``python -m chainerlite.examples.digits --help`` for the options.
"""

import argparse
import functools
import os
import sys
import tempfile
import time

import numpy

import chainerlite.links as L
from chainerlite import backend
from chainerlite import optimizers
from chainerlite.backends import cuda
from chainerlite.datasets import get_digits
from chainerlite.examples.digits import models
from chainerlite.examples.digits import profiling
from chainerlite.examples.digits import training
from chainerlite.training import extensions

MODELS = {'mlp': models.MLP, 'cnn': models.CNN}
_MIB = 2.0**20


def _devices():
    devices = ['@numpy']
    if cuda.available:
        count = cuda.cupy.cuda.runtime.getDeviceCount()
        devices += ['@cupy:{}'.format(i) for i in range(count)]
    return devices


def _non_negative(text):
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError('must be >= 0, got {}'.format(value))
    return value


def _positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError('must be >= 1, got {}'.format(value))
    return value


def make_parser():
    """Returns the argument parser of the demo."""
    parser = argparse.ArgumentParser(
        prog='python -m chainerlite.examples.digits',
        description='Trains an MLP and a CNN on the UCI handwritten digits '
        '(8x8) with a Trainer and its extensions, stopping half way and '
        'resuming from the snapshot; prints a TimerHook report of one CNN '
        'epoch, then compares the peak memory of CNN training without and '
        'with F.forget.',
        epilog='The matrices are small: on a busy CPU, setting '
        'OPENBLAS_NUM_THREADS=1 (or OMP_NUM_THREADS=1) can make the run '
        'several times faster.',
    )
    parser.add_argument(
        '--epochs',
        type=_positive,
        default=20,
        help='training epochs per model (default: 20)',
    )
    parser.add_argument(
        '--batch-size',
        type=_positive,
        default=32,
        help='samples per update (default: 32)',
    )
    parser.add_argument(
        '--model',
        choices=('mlp', 'cnn', 'both'),
        default='both',
        help='which model to train; the timing and memory '
        'parts use the CNN unless only the MLP is chosen '
        '(default: both)',
    )
    parser.add_argument(
        '--forget',
        type=_non_negative,
        default=1,
        metavar='EPOCHS',
        help='epochs of the F.forget memory comparison, '
        'run once without and once with F.forget; 0 skips '
        'it (default: 1)',
    )
    parser.add_argument(
        '--device',
        choices=_devices(),
        default='@numpy',
        help='where to compute: @numpy, or @cupy:N when '
        'CuPy sees a GPU (default: @numpy)',
    )
    parser.add_argument(
        '--seed',
        type=int,
        default=0,
        help='seed of the data split, the initial weights '
        'and the shuffling (default: 0)',
    )
    parser.add_argument(
        '--resume-after',
        type=_non_negative,
        metavar='EPOCHS',
        help='stop each training after this many epochs '
        'and resume it from its snapshot in a new trainer; '
        '0 trains in one go (default: half the epochs)',
    )
    parser.add_argument(
        '--out',
        default='result',
        help='folder of the logs, plots and snapshots, one '
        'subfolder per model (default: result)',
    )
    parser.add_argument(
        '--noplot',
        dest='plot',
        action='store_false',
        help='draw no plot (PlotReport needs matplotlib)',
    )
    parser.add_argument(
        '--no-progress',
        dest='progress',
        action='store_false',
        help='hide the progress bar (shown on a terminal only)',
    )
    return parser


def parse_args(argv=None):
    """Parses the command line (``sys.argv[1:]`` when ``argv`` is None).

    ``--resume-after`` defaults to half the epochs and must be less than
    ``--epochs``.
    """
    parser = make_parser()
    args = parser.parse_args(argv)
    if args.resume_after is None:
        args.resume_after = args.epochs // 2
    if args.resume_after >= args.epochs:
        parser.error(
            'argument --resume-after: must be less than --epochs ({}), got {}'.format(
                args.epochs, args.resume_after
            )
        )
    return args


def build(name, seed, device, forget=False):
    """Creates a classifier and its Adam optimizer, seeded for repeatability.

    Args:
        name (str): ``'mlp'`` or ``'cnn'``.
        seed (int): Seed of the initial weights.
        device (str): Device specifier, e.g. ``'@numpy'``.
        forget (bool): Whether the model calls its blocks through
            ``F.forget``.

    Returns:
        tuple: The :class:`~chainerlite.links.Classifier` and the
        :class:`~chainerlite.optimizers.Adam` optimizer set up with it.

    """
    numpy.random.seed(seed)
    model = L.Classifier(MODELS[name](forget=forget))
    model.to_device(device)
    optimizer = optimizers.Adam()
    optimizer.setup(model)
    return model, optimizer


def _trainer(name, args, data, epochs, plots, file):
    model, optimizer = build(name, args.seed, args.device)
    trainer = training.make_trainer(
        model,
        optimizer,
        data,
        epochs,
        args.batch_size,
        args.seed,
        os.path.join(args.out, name),
        args.device,
        report=file,
        plots=plots,
        progress=args.progress,
    )
    return trainer, optimizer


def _train(name, args, data, plots, file):
    log = functools.partial(print, file=file)
    log(
        '\n{} with Adam: {} epochs, batch size {}'.format(
            name.upper(), args.epochs, args.batch_size
        )
    )
    first = args.resume_after or args.epochs
    trainer, optimizer = _trainer(name, args, data, first, plots, file)
    trainer.run()
    result = {}
    if args.resume_after:
        path = training.snapshot_path(trainer)
        log(
            'Stopped after epoch {} (iteration {}); snapshot: {}'.format(
                trainer.updater.epoch, trainer.updater.iteration, path
            )
        )
        trainer, optimizer = _trainer(name, args, data, args.epochs, plots, file)
        result['resumed_at'] = training.resume(trainer, path)
        log(
            'A new trainer resumed from it at epoch {}, iteration {}; the '
            'restored log is printed again:'.format(
                trainer.updater.epoch, result['resumed_at']
            )
        )
        trainer.run()
    result['log'] = training.history(trainer)
    result['iteration'] = trainer.updater.iteration
    result['plot'] = os.path.join(trainer.out, training.PLOT) if plots else None
    last = result['log'][-1]
    log(
        '{}: test accuracy {:.4f} after {} epochs (iteration {}), {:.1f}s'.format(
            name.upper(),
            last['validation/main/accuracy'],
            last['epoch'],
            last['iteration'],
            last['elapsed_time'],
        )
    )
    if plots:
        log('Plot of the losses: {}'.format(result['plot']))
    elif args.plot:
        log('No plot: PlotReport needs matplotlib (pip install matplotlib)')
    return optimizer, result


def _compare_forget(name, args, data, log):
    log(
        '\nMemory: a fresh {} trained {} epoch(s) without and with F.forget '
        'around its blocks (peak traced by tracemalloc{})'.format(
            name.upper(),
            args.forget,
            ', host memory only' if args.device != '@numpy' else '',
        )
    )
    result = {}
    for label, forget in (('plain', False), ('forget', True)):
        model, optimizer = build(name, args.seed, args.device, forget)
        start = time.perf_counter()
        with tempfile.TemporaryDirectory() as out:
            history, peak = profiling.peak_memory(
                lambda: training.fit(
                    model,
                    optimizer,
                    data,
                    args.forget,
                    args.batch_size,
                    args.seed,
                    out,
                    args.device,
                )
            )
        result[label] = {
            'peak': peak,
            'accuracy': history[-1]['validation/main/accuracy'],
            'seconds': time.perf_counter() - start,
        }
        log(
            '  {:6s}  peak {:7.2f} MiB  test accuracy {:.4f}  {:.1f}s'.format(
                label, peak / _MIB, result[label]['accuracy'], result[label]['seconds']
            )
        )
    result['ratio'] = result['forget']['peak'] / result['plain']['peak']
    log('  peak memory with F.forget / without: {:.2f}'.format(result['ratio']))
    return result


def run(args, file=None):
    """Runs the demo with parsed arguments.

    Args:
        args (argparse.Namespace): Options from :func:`parse_args`.
        file: Text stream for the output; ``sys.stdout`` when ``None``.

    Returns:
        dict: ``'mlp'`` and/or ``'cnn'``: for each model, its ``'log'``
        (the LogReport entries, see
        :func:`~chainerlite.examples.digits.training.history`), the final
        ``'iteration'``, the ``'plot'`` written (``None`` without
        matplotlib) and, when it was resumed,
        the iteration it was ``'resumed_at'``; ``'timer'``: the TimerHook
        of the profiled epoch; ``'memory'`` (unless ``--forget 0``): the
        peak bytes, test accuracy and seconds of the ``'plain'`` and
        ``'forget'`` runs and their ``'ratio'``.

    """
    start = time.perf_counter()
    file = sys.stdout if file is None else file
    log = functools.partial(print, file=file)
    device = backend.get_device(args.device)
    data = get_digits(seed=args.seed)
    log(
        'UCI handwritten digits: {} training and {} test images of 8x8 '
        'pixels, on {}'.format(len(data[0][1]), len(data[1][1]), device)
    )
    names = ['mlp', 'cnn'] if args.model == 'both' else [args.model]
    plots = args.plot and extensions.PlotReport.available()
    results = {}
    for name in names:
        optimizer, results[name] = _train(name, args, data, plots, file)
    log(
        '\nTime per function in one more training epoch of the {} (TimerHook):'.format(
            name.upper()
        )
    )
    results['timer'] = profiling.time_functions(
        lambda: training.train_epoch(
            optimizer, data[0], args.batch_size, args.seed, args.device
        ),
        file,
    )
    if args.forget:
        results['memory'] = _compare_forget(name, args, data, log)
    log('\nTotal time: {:.1f}s'.format(time.perf_counter() - start))
    return results


def main(argv=None):
    """Parses the command line and runs the demo.

    Args:
        argv (list of str): Arguments; ``sys.argv[1:]`` when ``None``.

    Returns:
        dict: What :func:`run` returns.

    """
    return run(parse_args(argv))
