# Makefile — builds, tests and installs tfc.
#
#   make test     deps, C unit tests, layer check, install, Python tests (CI entry)
#   make demo     deps + install, then runs examples/quickstart.py
#   make install-check  sdist -> wheel -> fresh venv -> import outside the clone (part of test)
#   make ctest    C unit tests only (make ctest T=name runs tests whose name contains it)
#   make asan     C tests + Python tests under AddressSanitizer/UBSan (own build dir and venv)
#   make bench    benchmarks/run.py
#   make fuzz     libFuzzer targets for the GraphDef/TensorProto/checkpoint-index/TFRecord decoders and every
#                 RPC request handler of a task (a short run is part of test)
#   make compat   TensorFlow-frozen deep nets (fixtures made by real TF) run by tfc and compared;
#                 TFRecord files and Examples exchanged with TF;
#                 checkpoints exchanged with TF
#   make clean
#
# The C library build is parametrised by BUILD, OPTFLAGS and SANFLAGS so the
# sanitizer build reuses the same rules in its own directory (see `asan`).

SHELL := /bin/bash
.DEFAULT_GOAL := test
.DELETE_ON_ERROR:

ifeq ($(origin CC),default)
CC := gcc
endif
PYTHON3  ?= python3
BUILD    ?= build
OPTFLAGS ?= -O3 -march=native -fno-math-errno
SANFLAGS ?=
VENV     ?= .venv
# gRPC core (Debian's libgrpc-dev): headers only at build time (see LIBS).
GRPC_CFLAGS = $(shell pkg-config --cflags grpc 2>/dev/null)
# Libraries the C code links against (keep in sync with LIBRARIES in setup.py).
# OpenBLAS is not linked: kernels/blas.c loads it on first use; nor is oneDNN
# (kernels/dnn_backend.c loads it, and the OpenMP runtime with it, on the first
# convolution); nor gRPC: distributed/rpc_client.c loads it with the first
# server or grpc:// call.
LIBS     := -lprotobuf-c -ljpeg -lpng -lz -lm -lpthread

WARNFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
CFLAGS_LIB := $(WARNFLAGS) $(OPTFLAGS) $(SANFLAGS) -fPIC -pthread -Icsrc -I$(BUILD)/gen $(GRPC_CFLAGS)
LDFLAGS_LIB := $(SANFLAGS) -pthread

APT_PACKAGES := libopenblas-dev libdnnl-dev libprotobuf-c-dev protobuf-c-compiler libjpeg-dev libpng-dev \
                libgrpc-dev pkg-config zlib1g-dev
PY_PACKAGES  := numpy protobuf pytest setuptools wheel build scikit-learn 'dask[distributed]' \
                nbclient nbformat ipykernel absl-py tensorboard
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

LAYERS   := base core graph io kernels runtime distributed
LIB_SRCS := $(sort $(foreach l,$(LAYERS),$(wildcard csrc/$(l)/*.c)))
LIB_OBJS := $(patsubst csrc/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
TEST_SRCS := $(sort $(wildcard tests/c/*.c))
TEST_OBJS := $(patsubst tests/c/%.c,$(BUILD)/obj/tests/%.o,$(TEST_SRCS))
DEPFILES := $(LIB_OBJS:.o=.d) $(TEST_OBJS:.o=.d)
# protoc-c output for proto/*.proto (compiled through csrc/graph/graphdef_pb.c).
PROTOS   := $(sort $(wildcard proto/*.proto))
GEN_SRCS := $(patsubst proto/%.proto,$(BUILD)/gen/%.pb-c.c,$(PROTOS))
GEN_ALL  := $(BUILD)/gen/tfc_protos.inc

# Everything whose change requires re-installing the Python package.
PKG_INPUTS := $(shell find csrc tfc proto -type f \( -name '*.c' -o -name '*.h' -o -name '*.py' \
                -o -name '*.proto' \) 2>/dev/null) setup.py pyproject.toml

.PHONY: all deps ctest ctest-build layers install test demo bench asan asan-ctest clean

all: $(BUILD)/libtfccore.a

# ---------------------------------------------------------------- deps
# System packages: checked with dpkg on every run (fast); apt runs only when
# something is missing. The venv is stamped.
deps: $(BUILD)/stamp/venv-$(VENV)
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  $(SUDO) apt-get update && $(SUDO) apt-get install -y $$missing; \
	fi

# Order-only on the apt check is not needed: the venv does not depend on it.
$(VENV)/bin/python:
	$(PYTHON3) -m venv $(VENV)

$(BUILD)/stamp/venv-$(VENV): $(VENV)/bin/python Makefile
	@mkdir -p $(@D)
	@$(VENV)/bin/python -c "import numpy, google.protobuf, pytest, setuptools, wheel, build, sklearn, distributed, nbclient, nbformat, ipykernel, absl, tensorboard" 2>/dev/null || \
	  $(VENV)/bin/python -m pip install -q $(PY_PACKAGES)
	@touch $@

# ---------------------------------------------------------------- protobufs
# One protoc-c run per .proto makes both the .c and the .h (a grouped pattern
# rule); tfc_protos.inc includes every generated .c. Objects wait for the
# generated files on a clean build; afterwards their .d files track them.
$(BUILD)/gen/%.pb-c.c $(BUILD)/gen/%.pb-c.h: proto/%.proto
	@mkdir -p $(@D)
	protoc-c --c_out=$(BUILD)/gen -Iproto $<

$(GEN_ALL): $(GEN_SRCS)
	@printf '#include "%s"\n' $(notdir $(GEN_SRCS)) > $@

$(LIB_OBJS) $(TEST_OBJS): | $(GEN_ALL)

# ---------------------------------------------------------------- C library
$(BUILD)/obj/%.o: csrc/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_LIB) -MMD -MP -c $< -o $@

$(BUILD)/libtfccore.a: $(LIB_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	ar rcs $@ $(LIB_OBJS)

# ---------------------------------------------------------------- C tests
$(BUILD)/obj/tests/%.o: tests/c/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_LIB) -Itests/c -MMD -MP -c $< -o $@

$(BUILD)/ctest: $(TEST_OBJS) $(BUILD)/libtfccore.a
	$(CC) $(LDFLAGS_LIB) -o $@ $(TEST_OBJS) $(BUILD)/libtfccore.a $(LIBS)

ctest-build: $(BUILD)/ctest

ctest: $(BUILD)/ctest
	$(BUILD)/ctest $(T)

# ---------------------------------------------------------------- checks
layers:
	$(PYTHON3) tools/check_layers.py

# ---------------------------------------------------------------- Python package
# Re-installs only when a C/Python source or the build config changed. The
# built extension is also linked beside the sources (tfc/_tfc*.so -> the
# setuptools build folder), so `import tfc` works from the repository root,
# in a notebook or a script run in the clone, with the same binary as the
# installed package.
$(BUILD)/stamp/install-$(VENV): $(PKG_INPUTS) $(BUILD)/stamp/venv-$(VENV)
	@mkdir -p $(@D)
	$(VENV)/bin/python -m pip install -q --no-build-isolation --no-deps .
	@so=$$(ls -t $(BUILD)/py/lib.*/tfc/_tfc*.so | head -n 1); \
	  rm -f tfc/_tfc*.so; ln -s ../$$so tfc/$$(basename $$so)
	@touch $@

install: deps $(BUILD)/stamp/install-$(VENV)

# pytest runs from tests/ so the source tfc/ directory cannot shadow the
# installed package (conftest.py also refuses a source-tree import).
# Exit code 5 (no tests collected) is not a failure.
test: deps ctest layers install fuzz-short
	@cd tests && rc=0; ../$(VENV)/bin/python -m pytest -q python || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest: no tests collected"; rc=0; fi; exit $$rc
	@$(MAKE) --no-print-directory install-check

# Packaging as a user outside the clone meets it: an sdist (python -m build),
# a wheel built from that sdist by pip in an isolated environment, installed
# into a fresh venv (NumPy and protobuf from PyPI), then tests/install/smoke.py
# run from a folder outside the source tree. Its own folder: build/install-check.
INSTALL_CHECK := $(BUILD)/install-check
.PHONY: install-check
install-check: deps
	@rm -rf $(INSTALL_CHECK) && mkdir -p $(INSTALL_CHECK)/run
	$(VENV)/bin/python -m build --sdist --outdir $(INSTALL_CHECK)/dist . > $(INSTALL_CHECK)/sdist.log 2>&1 || \
	  { tail -n 30 $(INSTALL_CHECK)/sdist.log; exit 1; }
	$(PYTHON3) -m venv $(INSTALL_CHECK)/venv
	cd $(INSTALL_CHECK) && TFC_BUILD_JOBS=2 venv/bin/python -m pip wheel -q --no-deps -w dist dist/tfc-*.tar.gz \
	  > wheel.log 2>&1 || { tail -n 40 wheel.log; exit 1; }
	cd $(INSTALL_CHECK) && venv/bin/python -m pip install -q dist/tfc-*.whl > install.log 2>&1 || \
	  { tail -n 30 install.log; exit 1; }
	cd $(INSTALL_CHECK)/run && ../venv/bin/python $(abspath tests/install/smoke.py)

demo: deps install
	@if [ ! -f examples/quickstart.py ]; then \
	  echo "demo: examples/quickstart.py is missing" >&2; exit 1; fi
	$(VENV)/bin/python examples/quickstart.py

bench: deps install $(BUILD)/stamp/venv-tf
	$(VENV)/bin/python benchmarks/run.py

# Convolution and GEMM backends side by side (BENCHMARKS.md, "Convolution and GEMM backends").
# OpenBLAS gets the environment the Python package gives it (one thread, its
# AVX-512 kernel on AVX-512 CPUs).
$(BUILD)/bench_conv_backends: tools/bench_conv_backends.c $(BUILD)/libtfccore.a
	$(CC) $(CFLAGS_LIB) -o $@ $< $(BUILD)/libtfccore.a $(LIBS)

.PHONY: bench-backends
bench-backends: deps $(BUILD)/bench_conv_backends
	@if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX; fi; \
	OPENBLAS_NUM_THREADS=1 $(BUILD)/bench_conv_backends $(BENCH_SECONDS)

# Real TensorFlow, the oracle and the benchmark baseline, in its own venv.
$(BUILD)/stamp/venv-tf:
	@mkdir -p $(dir $@)
	[ -x .venv-tf/bin/python ] || $(PYTHON3) -m venv .venv-tf
	.venv-tf/bin/python -c "import tensorflow" 2>/dev/null || .venv-tf/bin/pip install -q tensorflow-cpu numpy
	@touch $@

# ---------------------------------------------------------------- compat
# Frozen models written by real TensorFlow (tools/make_compat_fixtures.py:
# the farm's path-input CNN, MobileNetV2, ResNet50), run by tfc and compared
# with TensorFlow's outputs (tests/python/test_compat.py). The fixtures are
# regenerated when they are missing or when the script, the farm fixture it
# reuses or the TensorFlow venv changed. TFC_COMPAT_REQUIRED turns a missing
# or incomplete fixture folder into a failure instead of a skip.
# tests/python/test_compat_distributed.py mixes tfc and TF servers and clients
# over TF's gRPC protocol (a TF client on a tfc server and the reverse, and
# mixed clusters in both directions).
COMPAT_DIR    := $(BUILD)/compat
COMPAT_INPUTS := tools/make_compat_fixtures.py $(shell find tests/fixtures/farm -type f 2>/dev/null)

$(COMPAT_DIR)/.stamp: $(COMPAT_INPUTS) $(BUILD)/stamp/venv-tf
	.venv-tf/bin/python tools/make_compat_fixtures.py --out $(COMPAT_DIR)
	@touch $@

# Checkpoints exchanged with TensorFlow (tools/make_checkpoint_fixtures.py,
# tests/python/test_compat_checkpoint.py): TF-written sharded/partitioned
# checkpoints and an MLP's training checkpoints.
COMPAT_CKPT_DIR := $(BUILD)/compat-ckpt

$(COMPAT_CKPT_DIR)/.stamp: tools/make_checkpoint_fixtures.py $(BUILD)/stamp/venv-tf
	.venv-tf/bin/python tools/make_checkpoint_fixtures.py --out $(COMPAT_CKPT_DIR)
	@touch $@

.PHONY: compat
compat: install $(COMPAT_DIR)/.stamp $(COMPAT_CKPT_DIR)/.stamp
	@cd tests && TFC_COMPAT_DIR=$(abspath $(COMPAT_DIR)) TFC_COMPAT_REQUIRED=1 \
	  TFC_COMPAT_CKPT_DIR=$(abspath $(COMPAT_CKPT_DIR)) \
	  ../$(VENV)/bin/python -m pytest -q -s python/test_compat.py python/test_compat_checkpoint.py python/test_compat_distributed.py \
	    python/test_compat_sync_replicas.py python/test_compat_tfrecord.py python/test_saved_model.py
	@$(MAKE) --no-print-directory compat-beside-tf

# tfc and TensorFlow imported into one process, in both orders: the wheel from
# install-check (built when missing) goes into the TensorFlow venv.
.PHONY: compat-beside-tf
compat-beside-tf: $(BUILD)/stamp/venv-tf
	@ls $(INSTALL_CHECK)/dist/tfc-*.whl >/dev/null 2>&1 || $(MAKE) --no-print-directory install-check
	.venv-tf/bin/python -m pip install -q --no-deps --force-reinstall $(INSTALL_CHECK)/dist/tfc-*.whl
	cd $(INSTALL_CHECK)/run && for order in tf-first tfc-first; do \
	  $(abspath .venv-tf/bin/python) $(abspath tests/install/beside_tf.py) $$order || exit 1; done

# ---------------------------------------------------------------- sanitizers
# Independent of the normal build: objects in build/asan, Python in .venv-asan,
# setuptools temp files in build/asan/py (TFC_BUILD_BASE, read by setup.py).
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer
ASAN_OPT   := -O1 -g
ASAN_VARS  := BUILD=build/asan VENV=.venv-asan OPTFLAGS="$(ASAN_OPT)" SANFLAGS="$(ASAN_FLAGS)"

asan:
	$(MAKE) --no-print-directory $(ASAN_VARS) asan-ctest asan-pytest

asan-ctest: $(BUILD)/ctest
	ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tools/lsan.supp \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(BUILD)/ctest $(T)

$(BUILD)/stamp/asan-install: $(PKG_INPUTS) $(BUILD)/stamp/venv-$(VENV)
	@mkdir -p $(@D)
	TFC_BUILD_BASE=$(BUILD)/py CFLAGS="$(ASAN_FLAGS) $(ASAN_OPT)" LDFLAGS="$(ASAN_FLAGS)" \
	  $(VENV)/bin/python -m pip install -q --no-build-isolation --no-deps .
	@touch $@

# --capture=sys: C-level stderr (the sanitizer report) must reach the terminal.
.PHONY: asan-pytest
asan-pytest: deps $(BUILD)/stamp/asan-install
	@cd tests && rc=0; \
	LD_PRELOAD="$$($(CC) -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ../$(VENV)/bin/python -m pytest -q --capture=sys python || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest: no tests collected"; rc=0; fi; exit $$rc

# ---------------------------------------------------------------- fuzzing
# libFuzzer targets (tests/fuzz/fuzz_<name>.c) for the GraphDef and
# TensorProto decoders, the checkpoint .index reader and the TFRecord reader, built with clang against the library layers compiled
# with -fsanitize=fuzzer-no-link,address,undefined in build/fuzz (the same rules
# as the normal build, parametrised like `asan`). Corpora grow in
# build/fuzz/corpus/<name>, seeded from the committed fixtures and
# tests/fuzz/seeds/<name>; a crash, leak, timeout or oversized allocation
# fails the run, leaves the input in build/fuzz/artifacts/ and prints the
# command that replays it.
#
#   make fuzz                       every target for FUZZ_SECONDS (300) each
#   make fuzz FUZZ_SECONDS=3600 FUZZ_TARGETS=graphdef
#   make fuzz-short                 FUZZ_SHORT_SECONDS (20) each; part of `make test`
FUZZ_APT           := clang libclang-rt-14-dev
FUZZ_TARGETS       ?= graphdef tensor_proto checkpoint_index tfrecord rpc_requests
FUZZ_SECONDS       ?= 300
FUZZ_SHORT_SECONDS ?= 20
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
              -Wno-unknown-pragmas
# Decoded tensors above 16 MiB are refused, so runs stay fast and in memory.
# The decoders need only the base, core, graph and io layers.
# Table blocks' checksums are not checked, so mutations reach the block parsers.
FUZZ_DEFS  := -DTFC_TENSOR_PROTO_MAX_BYTES=0x1000000 -DTFC_FUZZ_SKIP_CHECKSUMS
FUZZ_VARS  := CC=clang BUILD=build/fuzz LAYERS="base core graph io" OPTFLAGS="-O1 -g" \
              SANFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN) $(FUZZ_DEFS)"
# Per target: the longest input, and per-input time (s) and memory (MB) limits.
FUZZ_MAX_LEN_graphdef     := 65536
FUZZ_MAX_LEN_tensor_proto := 4096
FUZZ_MAX_LEN_checkpoint_index := 16384
FUZZ_MAX_LEN_tfrecord     := 16384
FUZZ_MAX_LEN_rpc_requests := 16384
# rpc_requests drives the WorkerService/MasterService handlers, which need every
# layer: its library is built in build/fuzz-rpc (same flags, all layers).
# The kernels call two OpenMP functions (libgomp is linked); gcc's omp.h does not
# compile with clang, so the fuzz build declares them in tests/fuzz/omp/omp.h.
FUZZ_OMP_INC  := tests/fuzz/omp
FUZZ_RPC_VARS := CC=clang BUILD=build/fuzz-rpc OPTFLAGS="-O1 -g" \
                 SANFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN) $(FUZZ_DEFS) -I$(FUZZ_OMP_INC)"
# Per-input time limit: 10 s in `make fuzz`; the short run inside `make test`
# allows 60 s, so that a loaded machine is not taken for a hang.
FUZZ_TIMEOUT ?= 10
FUZZ_LIMITS := -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -malloc_limit_mb=1024
FUZZ_ENV    := ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 \
               UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

.PHONY: fuzz fuzz-short fuzz-build fuzz-deps fuzz-bins fuzz-run

fuzz-deps:
	@missing=""; for p in $(FUZZ_APT); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "fuzz-deps: installing$$missing"; \
	  $(SUDO) apt-get update && $(SUDO) apt-get install -y $$missing; \
	fi

fuzz-build: deps fuzz-deps
	@$(MAKE) --no-print-directory $(FUZZ_VARS) fuzz-bins
	@if [ -n "$(filter rpc_requests,$(FUZZ_TARGETS))" ]; then \
	  $(MAKE) --no-print-directory $(FUZZ_RPC_VARS) build/fuzz-rpc/fuzz_rpc_requests && \
	  mkdir -p build/fuzz && ln -sf ../fuzz-rpc/fuzz_rpc_requests build/fuzz/fuzz_rpc_requests; fi

fuzz-bins: $(foreach t,$(filter-out rpc_requests,$(FUZZ_TARGETS)),$(BUILD)/fuzz_$(t))

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(BUILD)/libtfccore.a | $(GEN_ALL)
	$(CC) $(CFLAGS_LIB) -fsanitize=fuzzer -Itests/fuzz -o $@ $< $(BUILD)/libtfccore.a $(LIBS)

fuzz: fuzz-build
	@$(MAKE) --no-print-directory BUILD=build/fuzz FUZZ_TIME=$(FUZZ_SECONDS) fuzz-run

fuzz-short: fuzz-build
	@$(MAKE) --no-print-directory BUILD=build/fuzz FUZZ_TIME=$(FUZZ_SHORT_SECONDS) FUZZ_TIMEOUT=60 fuzz-run

# A libFuzzer dictionary for GraphDefs: every op name and arg/attr name from
# the op tables (looked up through hash maps, which the fuzzer cannot see
# into), plus the name syntax of inputs and colocation.
$(BUILD)/graphdef.dict: $(wildcard csrc/core/ops_*.c)
	@mkdir -p $(@D)
	@{ grep -hoE '\{"[A-Z][A-Za-z0-9_]*",' $^ | sed -E 's/^\{(".*"),$$/\1/'; \
	   grep -hoE '"[A-Za-z_][A-Za-z0-9_]*: ' $^ | sed -E 's/^"([A-Za-z0-9_]*): $$/"\1"/'; \
	   printf '"%s"\n' _class loc:@ ^ :0 :1 value dtype shape; } | sort -u > $@

# Seeds: GraphDef fixtures for both targets (a GraphDef's Const values hold
# TensorProtos), plus the hand-made TensorProtos in tests/fuzz/seeds/.
fuzz-run: $(BUILD)/graphdef.dict
	@rc=0; for t in $(FUZZ_TARGETS); do \
	  corpus=$(BUILD)/corpus/$$t; seeds=$(BUILD)/seeds/$$t; mkdir -p $$corpus $$seeds $(BUILD)/artifacts; \
	  cp tests/fixtures/graphdef/*.pb tests/fixtures/farm/*.pb tests/fixtures/functions/*.pb $$seeds/; \
	  if [ -d tests/fuzz/seeds/$$t ]; then cp tests/fuzz/seeds/$$t/* $$seeds/; fi; \
	  case $$t in graphdef) opts="-max_len=$(FUZZ_MAX_LEN_graphdef) -dict=$(BUILD)/graphdef.dict";; \
	    checkpoint_index) opts="-max_len=$(FUZZ_MAX_LEN_checkpoint_index)";; \
	    tfrecord) opts="-max_len=$(FUZZ_MAX_LEN_tfrecord)";; \
	    rpc_requests) opts="-max_len=$(FUZZ_MAX_LEN_rpc_requests)";; \
	    *) opts="-max_len=$(FUZZ_MAX_LEN_tensor_proto)";; esac; \
	  echo "fuzz: $$t for $(FUZZ_TIME) s (log: $(BUILD)/fuzz_$$t.log)"; touch $(BUILD)/fuzz_$$t.start; \
	  $(FUZZ_ENV) $(BUILD)/fuzz_$$t -max_total_time=$(FUZZ_TIME) $$opts $(FUZZ_LIMITS) \
	    -print_final_stats=1 -artifact_prefix=$(BUILD)/artifacts/$$t- $$corpus $$seeds \
	    > $(BUILD)/fuzz_$$t.log 2>&1 || { \
	    rc=1; tail -n 60 $(BUILD)/fuzz_$$t.log; \
	    for a in $$(find $(BUILD)/artifacts -name "$$t-*" -newer $(BUILD)/fuzz_$$t.start); do \
	      echo "fuzz: $$t failed; reproducer $$a; rerun with:"; \
	      echo "  $(FUZZ_ENV) $(BUILD)/fuzz_$$t $$a"; done; }; \
	  grep -E '^#[0-9]+[[:space:]]+DONE' $(BUILD)/fuzz_$$t.log | sed "s/^/fuzz: $$t: /"; \
	done; exit $$rc

# Line coverage of the decoders reached by the corpora in build/fuzz/corpus
# (after `make fuzz`): the targets rebuilt with clang's source coverage in
# build/fuzzcov replay every corpus input once.
FUZZ_COV_FILES := csrc/graph/graphdef.c csrc/graph/graphdef_pb.c csrc/graph/tensor_proto.c \
                  csrc/io/table_reader.c csrc/io/bundle_reader.c csrc/io/bundle_codec.c \
                  csrc/io/record_reader.c csrc/io/zstream.c csrc/io/example.c \
                  csrc/io/sequence_example.c
.PHONY: fuzz-coverage
fuzz-coverage: fuzz-deps
	@$(MAKE) --no-print-directory CC=clang BUILD=build/fuzzcov LAYERS="base core graph io" OPTFLAGS="-O1 -g" \
	  SANFLAGS="-fsanitize=fuzzer-no-link -fprofile-instr-generate -fcoverage-mapping -Wno-unknown-pragmas $(FUZZ_DEFS)" fuzz-bins
	@for t in $(FUZZ_TARGETS); do \
	  LLVM_PROFILE_FILE=build/fuzzcov/$$t.profraw build/fuzzcov/fuzz_$$t -runs=0 \
	    build/fuzz/corpus/$$t build/fuzz/seeds/$$t >/dev/null 2>&1 || exit 1; \
	  llvm-profdata merge -o build/fuzzcov/$$t.profdata build/fuzzcov/$$t.profraw && \
	  echo "fuzz-coverage: $$t" && \
	  llvm-cov report build/fuzzcov/fuzz_$$t -instr-profile=build/fuzzcov/$$t.profdata $(FUZZ_COV_FILES); \
	done

# ---------------------------------------------------------------- clean
clean:
	rm -rf build dist *.egg-info tfc/*.so

-include $(DEPFILES)
