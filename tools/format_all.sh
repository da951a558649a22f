#!/usr/bin/env bash
# Formats the whole tree with ruff once (the configuration is in
# pyproject.toml), then checks that `make lint` passes. Run it after merging
# the branches that were written before the formatter was configured, and
# commit the result on its own:
#   tools/format_all.sh && git commit -am 'ruff format the whole tree'
set -euo pipefail
cd "$(dirname "$0")/.."
make .venv-lint/bin/ruff
.venv-lint/bin/ruff format .
make lint
