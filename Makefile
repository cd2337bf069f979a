# gemmprof build. `make` builds everything (CUDA objects included) into $(BUILD)/;
# `make V=1` echoes the commands. SM=89 builds for an RTX 4090, SM=90 (default) for H100/H200.
CUDA_HOME ?= /usr/local/cuda
SM        ?= 90
BUILD     ?= build
OUT       ?= out
V         ?= 0

NVCC := $(CUDA_HOME)/bin/nvcc
CC   := gcc
CXX  := g++
ifeq ($(V),0)
Q := @
else
Q :=
endif

ifeq ($(wildcard $(NVCC)),)
$(error nvcc not found at $(NVCC): set CUDA_HOME to your CUDA toolkit, e.g. make CUDA_HOME=/opt/cuda)
endif

# The git revision is baked in so every results.json names the code that produced it.
GIT_REV ?= $(shell git describe --always --dirty 2>/dev/null || cat .gitrev 2>/dev/null || echo unknown)
VERSION := 0.1.0
DEFS    := -DGP_VERSION=\"$(VERSION)\" -DGP_GIT_REV=\"$(GIT_REV)\" -DGP_CUDA_HOME=\"$(CUDA_HOME)\"
INCS    := -I. -I$(CUDA_HOME)/include
WARN    := -Wall -Wextra

CFLAGS   := -std=c11 -O2 -g $(WARN) -D_GNU_SOURCE -fopenmp $(INCS) $(DEFS) -MMD -MP
CXXFLAGS := -std=c++17 -O2 -g $(WARN) $(INCS) $(DEFS) -MMD -MP
# Machine code for $(SM) plus PTX, so newer GPUs can still JIT the kernels.
GENCODE  := -gencode arch=compute_$(SM),code=sm_$(SM) -gencode arch=compute_$(SM),code=compute_$(SM)
NVCCFLAGS := -O3 -std=c++17 $(GENCODE) -lineinfo -Xcompiler -Wall,-Wextra $(INCS) $(DEFS) -MMD -MP
LDLIBS   := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 \
            -lcublas -lcupti -lcudart -ldl -lm -lgomp -lstdc++

ANALYSIS_SRC := $(wildcard analysis/*.c)
SRC_SRC      := $(filter-out src/main.c,$(wildcard src/*.c))
CUPTI_SRC    := $(wildcard cupti/*.c) $(wildcard cupti/*.cpp)
KERNEL_SRC   := $(wildcard kernels/*.cu)
# the kernels' host code (simt_auto's plan rule), which the host tests link too
KERNEL_HOST_SRC := $(wildcard kernels/*.c)
TEST_SRC     := $(wildcard tests/test_*.c)

obj = $(patsubst %,$(BUILD)/%.o,$(basename $(1)))
ANALYSIS_OBJ := $(call obj,$(ANALYSIS_SRC))
CORE_OBJ     := $(call obj,$(SRC_SRC) $(CUPTI_SRC) $(KERNEL_SRC) $(KERNEL_HOST_SRC))
MAIN_OBJ     := $(call obj,src/main.c)
TEST_BIN     := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
GEMMPROF     := $(BUILD)/gemmprof

# Host tests link the analysis objects and the src/ files that need no CUDA library,
# through an archive so each test pulls in only what it uses; only GPU tests (those that
# drive CUPTI or CUDA) link the full set with cuBLAS, CUPTI and the CUDA runtime.
HOST_SRC      := src/cli.c src/variant_names.c src/plugin.c src/print.c src/outdir.c src/ranks.c src/interrupt.c \
                 $(wildcard src/cmd_*.c) $(KERNEL_HOST_SRC)
HOST_LIB      := $(BUILD)/libgemmprof_host.a
EXAMPLE_PLUGIN := $(BUILD)/examples/libgemmprof_example.so
BAD_PLUGINS    := $(BUILD)/tests/plugins/libbad_plugins.so
DIAG_PLUGIN    := $(BUILD)/tests/diagnosis/libgemmprof_bottlenecks.so
GPU_TEST_BIN  := $(BUILD)/tests/test_cupti
HOST_TEST_BIN := $(filter-out $(GPU_TEST_BIN),$(TEST_BIN))
SIMT_EMULATED := $(BUILD)/tests/test_simt_emulated
SM90_EMULATED := $(BUILD)/tests/test_sm90_emulated

.DEFAULT_GOAL := all

# Objects that print the revision are rebuilt when it changes (the stamp file is
# rewritten only then, so other objects are not).
GITREV_STAMP := $(BUILD)/gitrev.txt
$(shell mkdir -p $(BUILD); echo '$(GIT_REV) $(VERSION)' | cmp -s - $(GITREV_STAMP) 2>/dev/null || echo '$(GIT_REV) $(VERSION)' > $(GITREV_STAMP))
$(BUILD)/src/main.o $(BUILD)/src/harness.o $(BUILD)/analysis/report.o: $(GITREV_STAMP)

.PHONY: all run test test-host test-gpu test-ncu deps plots report clean sass help fuzz
all: $(GEMMPROF) $(TEST_BIN) $(SIMT_EMULATED) $(SM90_EMULATED) $(EXAMPLE_PLUGIN) $(BAD_PLUGINS) $(DIAG_PLUGIN)

help:
	@echo "make            build $(GEMMPROF) and the tests"
	@echo "make run        the main job: every variant at the default sizes into $(OUT)/, then the report"
	@echo "make test       host tests, and GPU tests (skipped with the reason where there is no GPU), not ncu's"
	@echo "make test-gpu   only the GPU tests, the comparisons with Nsight Compute included"
	@echo "make test-ncu   only the comparisons with Nsight Compute (counters, launch facts)"
	@echo "make deps       install gnuplot where it is missing and we may (root and apt-get), else say how"
	@echo "make plots      re-render the charts of OUT=DIR without a GPU"
	@echo "make report     re-render the report of OUT=DIR without a GPU"
	@echo "make sass       dump the SASS of every kernel object into $(BUILD)/sass/"
	@echo "make fuzz       fuzz the readers and the CLI under ASan+UBSan for FUZZ_SECONDS=$(FUZZ_SECONDS) in all"
	@echo "options: CUDA_HOME=$(CUDA_HOME) SM=$(SM) BUILD=$(BUILD) OUT=$(OUT) V=1"

$(GEMMPROF): $(MAIN_OBJ) $(CORE_OBJ) $(ANALYSIS_OBJ)
	@echo "  LINK    $@"
	$(Q)$(CXX) -fopenmp -o $@ $^ $(LDLIBS)

$(GPU_TEST_BIN): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(CORE_OBJ) $(ANALYSIS_OBJ)
	@echo "  LINK    $@"
	$(Q)$(CXX) -fopenmp -o $@ $^ $(LDLIBS)

# (the Makefile too: a file added to HOST_SRC must rebuild the archive)
$(HOST_LIB): $(ANALYSIS_OBJ) $(call obj,$(HOST_SRC)) Makefile
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $(filter %.o,$^)

$(HOST_TEST_BIN): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(HOST_LIB)
	@echo "  LINK    $@"
	$(Q)$(CC) -fopenmp -o $@ $^ -lm -ldl

# The SIMT kernel's body run on the host, threads as threads (tests/simt_emulated.cpp):
# its index math checked where there is no GPU.
$(SIMT_EMULATED): tests/simt_emulated.cpp $(HOST_LIB)
	@mkdir -p $(dir $@)
	@echo "  CXX     $@"
	$(Q)$(CXX) -std=c++20 -O2 $(WARN) -Wno-unknown-pragmas -I. -MMD -MP -o $@ $< $(HOST_LIB) -lpthread -lm

# The warp-specialised wgmma kernel of kernels/sm90_rs.cuh (wgmma_rs, tf32_auto) run on the
# host, its mbarriers, TMA and wgmma emulated (tests/sm90_emulated.cpp).
$(SM90_EMULATED): tests/sm90_emulated.cpp $(HOST_LIB)
	@mkdir -p $(dir $@)
	@echo "  CXX     $@"
	$(Q)$(CXX) -std=c++20 -O2 $(WARN) -Wno-unknown-pragmas -I. -I$(CUDA_HOME)/include -MMD -MP -o $@ $< $(HOST_LIB) -lpthread -lm

# Plugins (include/gemmprof_plugin.h): the example, built like any user's would be, and
# the broken ones the host tests must see refused.
$(EXAMPLE_PLUGIN): examples/example_plugin.cu include/gemmprof_plugin.h
	@mkdir -p $(dir $@)
	@echo "  NVCC    $@"
	$(Q)$(NVCC) -O3 -std=c++17 $(GENCODE) -Xcompiler -fPIC,-Wall,-Wextra -I. -shared -o $@ $< -L$(CUDA_HOME)/lib64 -lcudart
# The diagnosis benchmark (tests/diagnosis/README.md): one injected bottleneck per entry point.
# -Xptxas -v prints each kernel's registers, shared memory and spills.
$(DIAG_PLUGIN): tests/diagnosis/bottlenecks.cu include/gemmprof_plugin.h
	@mkdir -p $(dir $@)
	@echo "  NVCC    $@"
	$(Q)$(NVCC) -O3 -std=c++17 $(GENCODE) -lineinfo -Xcompiler -fPIC,-Wall,-Wextra -I. -shared -o $@ $< -L$(CUDA_HOME)/lib64 -lcudart
$(BAD_PLUGINS): tests/plugins/bad_plugins.c include/gemmprof_plugin.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -std=c11 -O2 $(WARN) -fPIC -shared -I. -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/%.o: %.cpp
	@mkdir -p $(dir $@)
	@echo "  CXX     $<"
	$(Q)$(CXX) $(CXXFLAGS) -c $< -o $@

$(BUILD)/%.o: %.cu
	@mkdir -p $(dir $@)
	@echo "  NVCC    $<"
	$(Q)$(NVCC) $(NVCCFLAGS) -c $< -o $@

# Hopper-only code (wgmma, TMA, setmaxnreg) needs the architecture-specific target
# sm_90a; with SM=90 these objects are built for it alone (and told so by GP_SM90A),
# for any other SM they compile to launchers that return cudaErrorNotSupported.
SM90A_SRC := kernels/12_wgmma.cu kernels/13_wgmma_ws.cu kernels/18_tf32x3_wgmma.cu kernels/14_wgmma_ss.cu kernels/15_wgmma_rs.cu kernels/16_tf32_auto.cu kernels/ceil_tensor.cu
SM90A_SRC += kernels/20_wgmma16.cu
ifeq ($(SM),90)
$(call obj,$(SM90A_SRC)): NVCCFLAGS := $(filter-out $(GENCODE),$(NVCCFLAGS)) \
                                       -gencode arch=compute_90a,code=sm_90a -DGP_SM90A
endif

# Without a GPU (exit status 3) the main job renders the recorded H200 run instead,
# marked in the report as recorded elsewhere; out/recorded/ is a whole results directory,
# so `make plots OUT=out/recorded` and `make report OUT=out/recorded` work on it.
RECORDED ?= results/h200
run: $(GEMMPROF) deps
	$(Q)$(GEMMPROF) --out $(OUT) || { rc=$$?; [ $$rc -eq 3 ] || exit $$rc; \
	  echo "gemmprof: no GPU here: rendering the recorded run $(RECORDED)/ into $(OUT)/recorded/ instead"; \
	  mkdir -p $(OUT)/recorded && cp $(RECORDED)/results.csv $(RECORDED)/results.json $(RECORDED)/ceilings.csv $(OUT)/recorded/ && \
	  $(GEMMPROF) report $(OUT)/recorded; }

test: all deps
	$(Q)tests/run.sh $(BUILD) all

test-host: all
	$(Q)tests/run.sh $(BUILD) host

test-gpu: all
	$(Q)tests/run.sh $(BUILD) full

test-ncu: all
	$(Q)tests/run.sh $(BUILD) ncu

# What the charts need and a fresh machine may lack: installed when we can, otherwise the
# exact command is printed and the job carries on (it renders no charts then).
deps:
	$(Q)sh plots/deps.sh

# libFuzzer targets under AddressSanitizer and UBSan (clang; `apt-get install clang-14
# libclang-rt-14-dev`): the CSV, results.csv, results.json and ceilings.csv readers, a
# whole results directory, and the command line. FUZZ_SECONDS is the budget for all of
# them together; tests/fuzz/run.sh splits it and sums the findings.
FUZZ_CC      ?= $(firstword $(shell command -v clang-14 clang 2>/dev/null) clang)
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := csv results json ceilings dataset cli merge summary
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_FLAGS   := -std=c11 -g -O1 -fno-omit-frame-pointer -D_GNU_SOURCE -I. -I$(CUDA_HOME)/include \
                -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_LIB_SRC := $(filter-out analysis/report.c analysis/plots.c analysis/verify.c,$(ANALYSIS_SRC)) \
                src/cli.c src/variant_names.c src/plugin.c
FUZZ_LIB_OBJ := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(FUZZ_LIB_SRC))
FUZZ_BIN     := $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_TARGETS))

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $<"
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_LIB_OBJ)
	@echo "  FUZZLD  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) -lm -ldl

.SECONDARY: $(FUZZ_LIB_OBJ)

fuzz: $(FUZZ_BIN)
	$(Q)tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

plots: $(GEMMPROF)
	$(GEMMPROF) plots $(OUT)

report: $(GEMMPROF)
	$(GEMMPROF) report $(OUT)

sass: $(call obj,$(KERNEL_SRC))
	@mkdir -p $(BUILD)/sass
	$(Q)for o in $^; do $(CUDA_HOME)/bin/cuobjdump --dump-sass $$o > $(BUILD)/sass/$$(basename $$o .o).sass; done
	@echo "SASS in $(BUILD)/sass/"

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
