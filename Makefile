PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test fuzz mutants test-numpy1 compat bench perf-docs docs wheel clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install 'setuptools>=64' wheel 'cython>=3.0,<3.4' 'numpy>=2'

$(STAMP): $(VENV)/bin/python setup.py pyproject.toml $(wildcard _core/*.pyx _core/*.pxd)
	$(PY) -m pip install --no-build-isolation -e '.[test]'
	touch $(STAMP)

DEMO_STAMP := $(VENV)/.installed-demo

$(DEMO_STAMP): $(STAMP)
	$(PY) -m pip install --no-build-isolation -e '.[demo]'
	touch $(DEMO_STAMP)

# One BLAS thread: the demo's matrices are tiny and two threads fight for
# the two cores. glibc keeps freed memory for reuse instead of handing it
# back and faulting it in again (see README, Speed).
DEMO_ENV := OPENBLAS_NUM_THREADS=1 MALLOC_TRIM_THRESHOLD_=1073741824 \
	MALLOC_MMAP_THRESHOLD_=1073741824

demo: $(DEMO_STAMP)
	$(DEMO_ENV) $(PY) -m chainerlite.examples.demo

test: $(STAMP)
	$(PY) -m pytest -q

# The property-based tests of backprop with many more random graphs (about
# 7 minutes); `make test` runs a bounded profile of the same tests.
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -q tests/_core_tests/test_grad_properties.py

# Mutation check of the Python nodes' backward paths (tools/mutants.py): each
# backward/_backward_arrays is mutated (scale, drop, swap) and its module's
# tests are run against it; prints the survivors and the kill rate and writes
# build/mutants.json. A report (exit status 0); a full run (423 mutants)
# took 16 minutes on two cores. MUTANTS_ARGS narrows it, e.g.
#   make mutants MUTANTS_ARGS='--only activation --operators scale'
mutants: $(STAMP)
	$(PY) -m tools.mutants $(MUTANTS_ARGS)

# The same tests against NumPy 1.26 (NumPy 1 promotes 0-d arrays with Python
# scalars differently), with the wheel built here installed in a second venv
# and the tests (and the doctests of the installed package) run from outside
# the source tree.
NP1 := .venv-numpy1

$(NP1)/bin/python:
	$(PYTHON) -m venv $(NP1)
	$(NP1)/bin/python -m pip install 'numpy>=1.26,<2' 'pytest>=7' 'hypothesis>=6' tqdm

test-numpy1: $(STAMP) $(NP1)/bin/python
	rm -rf build/numpy1 && mkdir -p build/numpy1
	$(PY) -m pip wheel -q --no-build-isolation --no-deps -w build/numpy1 .
	$(NP1)/bin/python -m pip install -q --force-reinstall --no-deps build/numpy1/chainerlite-*.whl
	cd build/numpy1 && ../../$(NP1)/bin/python -m pytest -q ../../tests
	cd build/numpy1 && ../../$(NP1)/bin/python -m pytest -q -p no:cacheprovider \
		--doctest-modules --import-mode=importlib --pyargs chainerlite

# Chainer 7.8.1's own unit tests (../shared/chainer-compat) against the wheel
# built here, in the NumPy 1.26 venv (the baseline ran on it), scored test by
# test against Chainer's results. Fails when a group falls below the ratios in
# tests/chainer_compat_floor.json (raise them as more passes). About 12 minutes
# on two cores; COMPAT_ARGS='--files LIST' runs a subset.
COMPAT_DIR ?= ../shared/chainer-compat
COMPAT_FLOOR := tests/chainer_compat_floor.json

compat: $(STAMP) $(NP1)/bin/python
	$(NP1)/bin/python -m pip install -q mock pytest-timeout six
	rm -rf build/compat && mkdir -p build/compat
	$(PY) -m pip wheel -q --no-build-isolation --no-deps -w build/compat .
	$(NP1)/bin/python -m pip install -q --force-reinstall --no-deps build/compat/chainerlite-*.whl
	FLOOR=$(if $(COMPAT_ARGS),,$(abspath $(COMPAT_FLOOR))) PYTHON=$(abspath $(NP1))/bin/python \
		CHAINER_COMPAT_CACHE=$(abspath build/compat/cache) \
		$(COMPAT_DIR)/run --out $(abspath build/compat/run.json) $(COMPAT_ARGS)

$(VENV)/bin/asv: $(STAMP)
	$(PY) -m pip install --no-build-isolation -e '.[bench]'

# Quick asv run (each benchmark once) printed as tables, then the side-by-side
# comparison; `cd benchmarks && ../.venv/bin/asv run` gives full statistics.
bench: $(VENV)/bin/asv
	cd benchmarks && ../$(VENV)/bin/asv machine --yes --machine local >/dev/null
	cd benchmarks && ../$(VENV)/bin/asv run --python=same --quick --machine local --show-stderr
	$(PY) benchmarks/compare.py --quick

# Full comparison (a few minutes; not run in CI), written up as
# docs/performance.md and docs/performance.png. PERF_PYTHON is the interpreter
# that measures; the most columns come from a venv that also holds chainer
# 7.8.1, torch and matplotlib, with chainerlite installed from this tree:
#   P=/path/to/venv/bin; $P/pip install 'setuptools>=64,<81'
#   $P/pip wheel --no-build-isolation --no-deps -w /tmp/cl_dist .
#   $P/pip install --force-reinstall --no-deps /tmp/cl_dist/chainerlite-*.whl
#   $P/pip install 'setuptools<60'    # chainer needs it at runtime
#   make perf-docs PERF_PYTHON=$P/python
PERF_PYTHON ?= $(PY)
PERF_JSON := build/performance.json

perf-docs: $(if $(filter $(PY),$(PERF_PYTHON)),$(VENV)/bin/asv)
	mkdir -p build
	$(PERF_PYTHON) benchmarks/compare.py --json $(PERF_JSON)
	$(PERF_PYTHON) benchmarks/plot.py $(PERF_JSON) --out docs

docs: $(STAMP)
	$(PY) -m pip install -e '.[docs]'
	$(PY) -m sphinx -b html docs docs/_build/html

wheel: $(VENV)/bin/python
	$(PY) -m pip wheel --no-deps -w dist .

clean:
	rm -rf build dist $(VENV) $(NP1) _core/*.c _core/*.so *.egg-info
