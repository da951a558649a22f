"""Writing an output file so that readers never see it half-written."""

import os
import tempfile


def write_file(path, write):
    """Calls ``write(tmp_path)`` then renames the file to ``path``.

    The temporary file is in the same directory (so the rename is atomic)
    and is removed if ``write`` fails.
    """
    directory = os.path.dirname(path) or '.'
    os.makedirs(directory, exist_ok=True)
    fd, tmp_path = tempfile.mkstemp(
        prefix='tmp' + os.path.basename(path), suffix='.part', dir=directory
    )
    os.close(fd)
    try:
        write(tmp_path)
        os.replace(tmp_path, path)
    except BaseException:
        if os.path.exists(tmp_path):
            os.remove(tmp_path)
        raise
