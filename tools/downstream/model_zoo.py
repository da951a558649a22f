"""chainercv2 0.0.62 (imgclsmob's Chainer model zoo): models compared side by side.

For each model, Chainer builds it and saves its parameters; chainerlite
builds the same model, loads them, and both save the output and every
parameter gradient of a fixed loss (side/zoo_side.py). In float64 (the
default) the two agree to ~1e-14 where they compute the same thing, so
``TOLERANCE`` separates a real difference from rounding.
"""

import json
import os
import subprocess
import sys

from tools.downstream import fetch, sides

REQUIREMENT = 'chainercv2==0.0.62'
TOLERANCE = {'float64': 1e-9, 'float32': 1e-2}
SECONDS = 900

_FAMILIES = """import downstream_side, json
from chainercv2.model_provider import _models
families = {}
for name, make in _models.items():
    families.setdefault(make.__module__, []).append(name)
print(json.dumps([min(names, key=len) for names in families.values()]))
"""


def family_picks(root):
    """One model per family: the shortest name of each model module."""
    out = subprocess.run(
        [sys.executable, '-c', _FAMILIES],
        env=sides.environment([root], 'chainer'),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.splitlines()[-1])


def compare_model(
    paths, name, outdir, dtype='float64', tree=None, script='zoo_side.py'
):
    """One model, both sides: a record with each side's result and the agreement.

    ``script`` (in side/) builds and runs the model, with ``paths`` importable.
    A model that Chainer cannot run in float64 (some of its functions take
    float32 only) is compared in float32, with float32's tolerance.
    """
    for record_dtype in (dtype, 'float32') if dtype == 'float64' else (dtype,):
        args = (name, outdir, record_dtype)
        record = {
            'name': name,
            'dtype': record_dtype,
            'chainer': sides.run_side(script, args, paths, 'chainer', None, SECONDS),
        }
        if record['chainer']['ok']:
            break
    else:
        return record
    record['chainerlite'] = sides.run_side(
        script, args, paths, 'chainerlite', tree, SECONDS
    )
    sides.agreement(record, outdir, TOLERANCE[record['dtype']])
    return record


def run(workdir, models=None, dtype='float64', tree=None, log=print):
    """Compares ``models`` (default: one per family); returns the records."""
    root = fetch.fetch(REQUIREMENT, workdir, sdist=False)
    outdir = os.path.join(workdir, 'zoo')
    os.makedirs(outdir, exist_ok=True)
    names = models or family_picks(root)
    return sides.each(
        names,
        outdir + '.jsonl',
        log,
        lambda name: compare_model([root], name, outdir, dtype, tree),
    )
