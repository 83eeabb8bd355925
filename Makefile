# swtee: the two commands of the README, and the rest.
#   make          build (build/)
#   make run      build, then xtest's regression and benchmark suites on a private TEE
#   make test     build, then the whole test suite, plain and under ASan+UBSan,
#                 the fuzzers' short pass and make test-vm
#   make check    cppcheck and clang-tidy, both clean (.cppcheck-suppressions, .clang-tidy)
#   make install  PREFIX=/usr/local
#   make deb      Debian packages in build/deb (debian/), checked by lintian
#   make test-deb the packages installed in a fresh Debian root, xtest against them
#   make test-vm  a QEMU guest (Debian's kernel, TCG) with the fTPM as its TPM
#   make bench-vm-hmac  guest kernels built with and without CONFIG_TCG_TPM2_HMAC
#                 (Debian's linux-source-6.12), tpm2_createprimary timed in the
#                 guest on the fTPM and on swtpm (VM_HMAC_RUNS=20 boots each; TCG: slow)
# Missing Debian packages are installed when run as root; otherwise the
# command to install them is printed.

BUILD ?= build
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 60
# How long each harness runs: random inputs for FUZZ_SECONDS (make fuzz), or
# a fixed seed and count (make fuzz-short, in make test: the same inputs on
# every machine, so the default run does not depend on luck or speed).
FUZZ_RUN ?= -max_total_time=$(FUZZ_SECONDS)
# The parsers of the storage engine and of the socket channels, then the rest.
STORAGE_FUZZERS := storage_reply storage_rpmb storage_journal storage_dir storage_map storage_sweep storage_requests
SOCKET_FUZZERS := sock_policy sock_ta sock_reply sock_request
FUZZERS := core_client core_instance ta_params teec_result ta_image tpm_frame ree_fs_batch plugin_msg \
	$(STORAGE_FUZZERS) $(SOCKET_FUZZERS)
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

DEBIAN_PACKAGES := gcc make cmake pkg-config openssl libssl-dev libseccomp-dev libmbedtls-dev\
	cppcheck clang-tidy valgrind libjson-c-dev python3 clang libclang-rt-14-dev llvm \
	libtpms-dev swtpm swtpm-tools tpm2-tools libtss2-tcti-mssim0 libtss2-tcti-swtpm0 libtss2-dev \
	help2man man-db

# What make test-vm needs (tests/tpm/vm_qemu.sh).
VM_PACKAGES := qemu-system-x86 busybox-static linux-image-amd64 cpio
# What make bench-vm-hmac needs (src/tools/bench/tpm-guest/vm_hmac_bench.sh): the kernel's
# source and what builds it.
VM_HMAC_PACKAGES := qemu-system-x86 busybox-static cpio linux-source-6.12 bc bison flex \
	libelf-dev xz-utils
VM_HMAC_RUNS ?= 20

# What the report's test needs (tests/report): a browser to open it, a JSON Schema validator.
REPORT_PACKAGES := chromium python3-jsonschema
REPORT = $(abspath $(BUILD))/report

.PHONY: all build run test test-plain test-asan fuzz fuzz-short check soak install deps clean \
	deps-report report-check deb test-deb install-test-tas test-vm

all: build

deps:
	@missing=""; \
	for p in $(DEBIAN_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
		else \
			echo "swtee needs these Debian packages:$$missing"; \
			echo "Install them with: sudo apt-get install -y$$missing"; \
			exit 1; \
		fi; \
	fi

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS)

# xtest's suites, then every benchmark group, on one private TEE; the report
# (with xtest's outcome and figures) lands in $(REPORT).
run: build
	@mkdir -p $(REPORT) && rm -f $(REPORT)/xtest-*.json
	$(BUILD)/bin/swtee run -- sh -c 'xtest -t regression --json $(REPORT)/xtest-regression.json; \
		r=$$?; xtest -t benchmark --json $(REPORT)/xtest-benchmark.json || r=1; x=; \
		for f in $(REPORT)/xtest-*.json; do [ -f "$$f" ] && x="$$x --xtest $$f"; done; \
		swtee bench --report $(REPORT) $$x || r=1; exit $$r'

deps-report:
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(REPORT_PACKAGES)"

# On a failure, the reasons again at the end of the log (tests/tools/ctest_digest.sh).
test-plain: build deps-report
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS) || \
		{ sh tests/tools/ctest_digest.sh $(BUILD); exit 1; }

# The report's test alone, and the screenshot of the page it checked.
report-check: build deps-report
	ctest --test-dir $(BUILD) --output-on-failure -R '^report\.'
	@test -s $(BUILD)/report-check/screenshot.png && \
		echo "report-check: screenshot in $(abspath $(BUILD))/report-check/screenshot.png"

$(BUILD_ASAN)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DSWTEE_SANITIZE=ON

test-asan: deps $(BUILD_ASAN)/CMakeCache.txt
	cmake --build $(BUILD_ASAN) -j$(JOBS)
	ctest --test-dir $(BUILD_ASAN) --output-on-failure -j$(JOBS) || \
		{ sh tests/tools/ctest_digest.sh $(BUILD_ASAN); exit 1; }

$(BUILD_FUZZ)/CMakeCache.txt: | deps
	CC=clang cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=Debug -DSWTEE_FUZZ=ON

# Each libFuzzer harness for FUZZ_RUN, from its seed corpus; new inputs
# go to $(BUILD_FUZZ)/work (copy a crash into tests/fuzz/corpus/<name>/).
fuzz: deps $(BUILD_FUZZ)/CMakeCache.txt
	cmake --build $(BUILD_FUZZ) -j$(JOBS) --target fuzzers
	@set -e; for f in $(FUZZERS); do \
		mkdir -p $(BUILD_FUZZ)/work/$$f; \
		echo "fuzz_$$f: $(FUZZ_RUN)"; \
		$(BUILD_FUZZ)/bin/fuzz_$$f $(FUZZ_RUN) -print_final_stats=1 \
			-artifact_prefix=$(BUILD_FUZZ)/work/$$f- \
			$(BUILD_FUZZ)/work/$$f tests/fuzz/corpus/$$f 2>$(BUILD_FUZZ)/work/$$f.log || \
			{ tail -40 $(BUILD_FUZZ)/work/$$f.log; exit 1; }; \
		grep -E 'stat::number_of_executed_units|Done' $(BUILD_FUZZ)/work/$$f.log | tail -1; \
	done

# Static analysis with the checked-in configurations (.clang-tidy,
# .cppcheck-suppressions): both must be clean.
check: build
	cppcheck --quiet --enable=warning,portability,performance --inline-suppr --std=c11 \
		-D_GNU_SOURCE -D__x86_64__ -D__linux__ -I src/common -I include -I ta_dev_kit/include \
		--suppress=missingIncludeSystem --suppressions-list=.cppcheck-suppressions \
		--error-exitcode=1 src/ tests/ ta/ examples/
	cmake -S . -B $(BUILD) -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
	@# run-clang-tidy always colours its output: the log is kept without the escapes.
	run-clang-tidy -j$(JOBS) -p $(BUILD) -quiet src/ > $(BUILD)/clang-tidy.raw 2>&1; \
		r=$$?; sed 's/\x1b\[[0-9;]*m//g' $(BUILD)/clang-tidy.raw > $(BUILD)/clang-tidy.log; \
		rm -f $(BUILD)/clang-tidy.raw; [ $$r = 0 ] || { \
		grep -E ': (warning|error):' $(BUILD)/clang-tidy.log | sort -u; \
		echo "check: clang-tidy failed; the paths to each finding are in $(BUILD)/clang-tidy.log"; \
		exit 1; }
	@echo "check: cppcheck and clang-tidy are clean"

# Long load: 64 clients x 4 sessions x 5000 invokes with memrefs, every
# fourth client also making durable storage writes, on a private TEE; zero
# errors and no descriptor or memory growth in the core.
# Then the storage crash test for SOAK_CRASH_TRIALS trials (SIGKILL of the
# core or the supplicant in the middle of changes; see docs/storage.md).
SOAK_CRASH_TRIALS ?= 5000
soak: build
	$(BUILD)/bin/swtee run --state $(BUILD)/soak-state -- $(BUILD)/bin/soak 64 4 5000
	rm -rf $(BUILD)/soak-crash-state
	SWTEE_CRASH_TRIALS=$(SOAK_CRASH_TRIALS) $(BUILD)/bin/storage-crash \
		--swtee $(BUILD)/bin/swtee --state $(BUILD)/soak-crash-state

fuzz-short:
	$(MAKE) fuzz FUZZ_RUN="-seed=1 -runs=1000"

# The guest (test-vm) comes last: it needs only the plain build, and its
# packages are the largest.
test: test-plain test-asan fuzz-short test-vm

# The default component: everything but the TAs of tests/ (xtest's, the
# hostile one among them), which install-test-tas adds for xtest's
# regression suite against an installed TEE.
install: build
	cmake --install $(BUILD) --prefix $(PREFIX) --component Unspecified

install-test-tas: build
	cmake --install $(BUILD) --prefix $(PREFIX) --component test-tas

# Debian packages (debian/control): built with debhelper from a copy of the
# checkout (its files as git lists them, changes included) in $(DEB_DIR), so
# the checkout stays clean; lintian must find no error. TA_KEY=PEM: the TA
# signing key the packaged swteed trusts and the kit carries (default: a new
# one for each build). The build dependencies are installed as make deps
# installs its packages (as root; otherwise the command is printed).
DEB_DIR ?= $(BUILD)/deb
DEB_TOOLS := dpkg-dev debhelper lintian
DEB_TEST_TOOLS := debootstrap
deb:
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(DEB_TOOLS)"
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/swtee
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		git ls-files -z --cached --others --exclude-standard | \
			tar --null -T - --ignore-failed-read -cf - 2>/dev/null; \
	else \
		tar --exclude='./build*' --exclude='./state' --exclude=./.git -cf - .; \
	fi | tar -xf - -C $(DEB_DIR)/swtee
	@cd $(DEB_DIR)/swtee && if ! dpkg-checkbuilddeps 2>/dev/null; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq ./; \
		else \
			dpkg-checkbuilddeps 2>&1 | sed 's/^dpkg-checkbuilddeps: error: //'; \
			echo "Install them with: sudo apt-get build-dep -y $(abspath $(DEB_DIR))/swtee"; \
			exit 1; \
		fi; \
	fi
	cd $(DEB_DIR)/swtee && DEB_BUILD_OPTIONS="parallel=$(JOBS) $(DEB_BUILD_OPTIONS)" \
		SWTEE_TA_KEY="$(if $(TA_KEY),$(abspath $(TA_KEY)))" dpkg-buildpackage -us -uc -b
	lintian --fail-on error $(DEB_DIR)/*.changes
	@ls -l $(DEB_DIR)/*.deb

# The packages in a fresh Debian root (tests/deb/test_deb.sh): debootstrap
# once (cached in $(BUILD)/debootstrap), apt install ./*.deb, the services
# as their units start them, xtest as a user of the group tee. As root.
test-deb: deb
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(DEB_TEST_TOOLS)"
	tests/deb/test_deb.sh $(DEB_DIR) $(DEB_DIR)/swtee/debian/build $(BUILD)/debootstrap

test-vm: build
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(VM_PACKAGES)"
	tests/tpm/vm_qemu.sh $(BUILD)

bench-vm-hmac: build
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(VM_HMAC_PACKAGES)"
	src/tools/bench/tpm-guest/vm_hmac_bench.sh $(BUILD) $(VM_HMAC_RUNS)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ)
