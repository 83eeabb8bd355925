# mbedTLS 3 for TAs, as OP-TEE's CFG_TA_MBEDTLS=y gives it: the kit ships no
# mbedTLS, so the user names a 3.x source tree,
#
#   make CFG_TA_MBEDTLS=y MBEDTLS_DIR=/path/to/mbedtls ...
#
# either an upstream Mbed-TLS/mbedtls 3.x tree or optee_os's lib/libmbedtls
# (whose mbedtls/ subdirectory is one). The kit builds its library/*.c, with
# its own configuration (MBEDTLS_CONFIG=<header> to use another) and the
# TA's compiler, optimisation and sanitizer flags, into one libmbedtls.a
# (the kit's headers come after the tree's: optee_os's bignum.c takes
# mempool.h from OP-TEE's libutils, whose functions the TA runtime has),
# and every TA source gets the tree's include/ and the configuration. The
# library is built once per tree, configuration and flags, in
# MBEDTLS_BUILD_DIR (default: .ta_dev_kit/mbedtls in the TA's O); TAs that
# share one MBEDTLS_BUILD_DIR build it once, even when built at once.
#
# Entropy comes from TEE_GenerateRandom (src/mbedtls/tee_entropy.c, built
# into the library as mbedtls_hardware_poll()).

CFG_TA_MBEDTLS_SELF_TEST ?= n
MBEDTLS_CONFIG ?= $(tdk-dir)/src/mbedtls/swtee_mbedtls_config.h
MBEDTLS_BUILD_DIR ?= $(tdk-out)/.ta_dev_kit/mbedtls

tdk-mbedtls-incflags :=
tdk-mbedtls-lib :=
tdk-mbedtls-link :=

ifeq ($(CFG_TA_MBEDTLS)$(tdk-only-clean),y)

ifeq ($(strip $(MBEDTLS_DIR)),)
$(error ta_dev_kit: CFG_TA_MBEDTLS=y needs an mbedTLS 3.x source tree, which the kit does not ship: set MBEDTLS_DIR=<tree>, an upstream Mbed-TLS/mbedtls 3.x tree or optee_os's lib/libmbedtls (docs/ta-development.md, "mbedTLS in a TA"))
endif
tdk-mbedtls-given := $(abspath $(MBEDTLS_DIR))
# optee_os's lib/libmbedtls holds the tree in mbedtls/.
tdk-mbedtls-root := $(patsubst %/include/mbedtls/build_info.h,%,$(firstword $(wildcard \
	$(tdk-mbedtls-given)/include/mbedtls/build_info.h \
	$(tdk-mbedtls-given)/mbedtls/include/mbedtls/build_info.h)))
ifeq ($(tdk-mbedtls-root),)
$(error ta_dev_kit: MBEDTLS_DIR=$(MBEDTLS_DIR) is not an mbedTLS 3.x source tree: it has no include/mbedtls/build_info.h (nor mbedtls/include/mbedtls/build_info.h, as optee_os's lib/libmbedtls has)$(if $(wildcard $(tdk-mbedtls-given)/include/mbedtls/config.h), -- its include/mbedtls/config.h is mbedTLS 2's layout))
endif
tdk-mbedtls-major := $(shell sed -n 's/^\#define[[:space:]]*MBEDTLS_VERSION_MAJOR[[:space:]]*\([0-9]*\).*/\1/p' \
	'$(tdk-mbedtls-root)/include/mbedtls/build_info.h')
ifneq ($(tdk-mbedtls-major),3)
$(error ta_dev_kit: MBEDTLS_DIR=$(MBEDTLS_DIR) is mbedTLS $(or $(tdk-mbedtls-major),of no known version) (MBEDTLS_VERSION_MAJOR in include/mbedtls/build_info.h); the kit builds mbedTLS 3.x)
endif
tdk-mbedtls-srcs := $(sort $(wildcard $(tdk-mbedtls-root)/library/*.c))
ifeq ($(tdk-mbedtls-srcs),)
$(error ta_dev_kit: MBEDTLS_DIR=$(MBEDTLS_DIR): no library/*.c in $(tdk-mbedtls-root))
endif
tdk-mbedtls-config := $(abspath $(MBEDTLS_CONFIG))
ifeq ($(wildcard $(tdk-mbedtls-config)),)
$(error ta_dev_kit: MBEDTLS_CONFIG=$(MBEDTLS_CONFIG): no such file)
endif

# What the library is made of: a change of any of these builds it anew,
# in a directory of its own.
tdk-mbedtls-cppflags := -DMBEDTLS_CONFIG_FILE='"$(tdk-mbedtls-config)"' \
	$(if $(filter y,$(CFG_TA_MBEDTLS_SELF_TEST)),-DCFG_TA_MBEDTLS_SELF_TEST=1)
tdk-mbedtls-cflags := -std=gnu11 $(tdk-common) $(tdk-instr) $(tdk-mbedtls-cppflags)
tdk-mbedtls-key := $(shell { printf '%s\n' '$(tdk-cc)' '$(tdk-mbedtls-root)' \
	'$(subst ','\'',$(tdk-mbedtls-cflags))'; sha256sum < '$(tdk-mbedtls-config)'; } | \
	sha256sum | cut -c1-16)
tdk-mbedtls-out := $(abspath $(MBEDTLS_BUILD_DIR))/$(tdk-mbedtls-key)
tdk-mbedtls-lib := $(tdk-mbedtls-out)/libmbedtls.a
# Linked as an object, not from the archive: its constructor gives
# optee_os's mbedTLS its bignum pool (src/mbedtls/tee_mpi_pool.c).
tdk-mbedtls-pool := $(tdk-mbedtls-out)/swtee_tee_mpi_pool.o
tdk-mbedtls-link := $(tdk-mbedtls-pool) $(tdk-mbedtls-lib)

# The TA's sources: the tree's headers (as system headers: the TA's
# warnings are about its own code) and the same configuration.
tdk-mbedtls-incflags := -isystem $(tdk-mbedtls-root)/include
tdk-cppflags += $(tdk-mbedtls-cppflags)
# A TA that names the library itself (libnames += mbedtls) gets this one.
libnames := $(filter-out mbedtls,$(libnames))

# The library is made by mk/mbedtls_lib.mk, under a lock on its directory:
# TAs built at once that share a MBEDTLS_BUILD_DIR (optee_test's top-level
# make builds its TAs in parallel) build it once, the others wait. The
# sub-make runs every time and leaves the archive alone when it is up to
# date, so the TA is relinked only when the library changed.
tdk-mbedtls-lock := $(if $(shell command -v flock),flock '$(tdk-mbedtls-out).lock')
$(tdk-mbedtls-lib): export TDK_MB_ROOT := $(tdk-mbedtls-root)
$(tdk-mbedtls-lib): export TDK_MB_OUT := $(tdk-mbedtls-out)
$(tdk-mbedtls-lib): export TDK_MB_KIT := $(tdk-dir)
$(tdk-mbedtls-lib): export TDK_MB_CC := $(tdk-cc)
$(tdk-mbedtls-lib): export TDK_MB_AR := $(tdk-ar)
$(tdk-mbedtls-lib): export TDK_MB_CFLAGS := $(tdk-mbedtls-cflags)
$(tdk-mbedtls-lib): export TDK_MB_KIT_CFLAGS := $(tdk-cflags) $(tdk-instr) -D__SWTEE__=1 \
	-D__OPTEE_CORE_API_COMPAT_1_1=0
$(tdk-mbedtls-lib): export TDK_MB_V := $(V)
$(tdk-mbedtls-lib): tdk-mbedtls-always
	@mkdir -p '$(tdk-mbedtls-out)'
	$(tdk-q)$(tdk-mbedtls-lock) $(MAKE) $(if $(filter 1,$(V)),,-s) --no-print-directory \
		-f '$(tdk-dir)/mk/mbedtls_lib.mk'
$(tdk-mbedtls-pool): $(tdk-mbedtls-lib) ;
.PHONY: tdk-mbedtls-always
endif
