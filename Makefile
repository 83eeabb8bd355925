# swtee: the two commands of the README, and the rest.
#   make          build (build/)
#   make run      build, then xtest's regression and benchmark suites on a private TEE
#   make test     build, then the whole test suite, plain and under ASan+UBSan
#   make install  PREFIX=/usr/local
# Missing Debian packages are installed when run as root; otherwise the
# command to install them is printed.

BUILD ?= build
BUILD_ASAN ?= build-asan
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

DEBIAN_PACKAGES := gcc make cmake pkg-config openssl libssl-dev libseccomp-dev libjson-c-dev python3

.PHONY: all build run test test-plain test-asan install deps clean

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

run: build
	$(BUILD)/bin/swtee run -- sh -c 'xtest -t regression; r=$$?; xtest -t benchmark || r=1; exit $$r'

test-plain: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

$(BUILD_ASAN)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DSWTEE_SANITIZE=ON

test-asan: deps $(BUILD_ASAN)/CMakeCache.txt
	cmake --build $(BUILD_ASAN) -j$(JOBS)
	ctest --test-dir $(BUILD_ASAN) --output-on-failure -j$(JOBS)

test: test-plain test-asan

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
