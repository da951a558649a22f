"""ChainerCV 0.13.1's own tests on Chainer and on chainerlite, scored test by test."""

import os
import subprocess
import sys

from tools.downstream import fetch, score

REQUIREMENT = 'chainercv==0.13.1'
# tests that need a GPU, a download (pretrained weights, datasets) or much
# time are left out on both sides
MARKERS = 'not slow and not gpu and not cudnn'
SIDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'side')

# chainercv imports a Cython extension that only its GPU code calls
# (non_maximum_suppression on CuPy arrays); the suite runs on the CPU, so a
# stand-in that says so replaces it instead of building it
_NMS_STANDIN = '''def _nms_gpu_post(*args, **kwargs):
    raise RuntimeError(
        "_nms_gpu_post: chainercv's GPU non-maximum suppression is not "
        "built in this checkout (the downstream tests run on the CPU)")
'''


def prepare(workdir):
    """Fetches and unpacks ChainerCV, writes the stand-in; returns its folder."""
    root = fetch.fetch(REQUIREMENT, workdir, sdist=True)
    standin = os.path.join(root, 'chainercv', 'utils', 'bbox', '_nms_gpu_post.py')
    with open(standin, 'w') as f:
        f.write(_NMS_STANDIN)
    return root


def run_side(root, side, workdir, tree=None, markers=MARKERS):
    """Runs the suite on one side; returns ``{test id: outcome}``."""
    xml = os.path.join(workdir, 'chainercv-%s.xml' % side)
    env = dict(
        os.environ, DOWNSTREAM_SIDE=side, PYTHONPATH=os.pathsep.join([SIDE_DIR, root])
    )
    if tree:
        env['CHAINERLITE_TREE'] = tree
    cmd = [
        sys.executable,
        '-W',
        'ignore',
        '-m',
        'pytest',
        '-q',
        '-p',
        'no:cacheprovider',
        '-p',
        'downstream_side',
        '-m',
        markers,
        '-o',
        'addopts=',
        '--continue-on-collection-errors',
        '--junitxml',
        xml,
        'tests',
    ]
    with open(os.path.join(workdir, 'chainercv-%s.log' % side), 'w') as log:
        subprocess.run(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    return score.junit_outcomes(xml)


def run(workdir, tree=None, markers=MARKERS):
    """Both sides; returns :func:`score.compare_suites`'s dict."""
    root = prepare(workdir)
    base = run_side(root, 'chainer', workdir, None, markers)
    other = run_side(root, 'chainerlite', workdir, tree, markers)
    return score.compare_suites(base, other)
