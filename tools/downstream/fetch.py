"""Downloads a library's sdist or wheel from the package index and unpacks it."""

import glob
import os
import subprocess
import sys
import tarfile
import zipfile


def fetch(requirement, workdir, sdist):
    """Unpacks ``requirement`` (``name==version``) in ``workdir``; returns its folder.

    An sdist unpacks to ``workdir/<name>-<version>/``; a wheel (pure Python)
    to ``workdir/<name>-<version>-wheel/``. The download is kept in
    ``workdir/dist`` and reused; nothing is built or installed.
    """
    name, _, version = requirement.partition('==')
    if not version:
        raise ValueError(
            'fetch: pin a version, e.g. chainercv==0.13.1, not %r' % requirement
        )
    dist = os.path.join(workdir, 'dist')
    pattern = '%s-%s*' % (name.replace('-', '_') if not sdist else name, version)
    found = glob.glob(os.path.join(dist, pattern + ('.tar.gz' if sdist else '.whl')))
    if not found:
        kind = ['--no-binary', ':all:'] if sdist else ['--only-binary', ':all:']
        subprocess.run(
            [
                sys.executable,
                '-m',
                'pip',
                'download',
                '-q',
                '--no-deps',
                *kind,
                requirement,
                '-d',
                dist,
            ],
            check=True,
        )
        found = glob.glob(
            os.path.join(dist, pattern + ('.tar.gz' if sdist else '.whl'))
        )
    if len(found) != 1:
        raise RuntimeError(
            'fetch: expected one download for %s in %s, found %s'
            % (requirement, dist, found)
        )
    if sdist:
        target = os.path.join(workdir, '%s-%s' % (name, version))
        if not os.path.isdir(target):
            with tarfile.open(found[0]) as archive:
                archive.extractall(workdir, filter='data')
    else:
        target = os.path.join(workdir, '%s-%s-wheel' % (name, version))
        if not os.path.isdir(target):
            with zipfile.ZipFile(found[0]) as archive:
                archive.extractall(target)
    return target
