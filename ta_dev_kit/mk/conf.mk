# Defaults of the kit's settings, and where its tools are. OP-TEE TA
# makefiles include this file on its own too, before or after ta_dev_kit.mk.

# swtee's configuration as OP-TEE states its own (host_include/conf.mk: the
# CFG_ options this TEE provides are y), for TAs that test them.
-include $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../host_include/conf.mk)

CFG_TEE_TA_LOG_LEVEL ?= 1
CFG_TA_OPTEE_CORE_API_COMPAT_1_1 ?= n
CFG_CC_OPT_LEVEL ?= 2
CFG_TA_VERSION ?= 0
CFG_WERROR ?= n
CFG_TA_COVERAGE ?= n
CFG_TA_SANITIZE ?=

ifeq ($(filter 0 1 2 3 4,$(CFG_TEE_TA_LOG_LEVEL)),)
$(error ta_dev_kit: CFG_TEE_TA_LOG_LEVEL=$(CFG_TEE_TA_LOG_LEVEL): use 0 (none) to 4 (flow))
endif
tdk-comma := ,
tdk-uuid-re := ^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$$
define tdk-newline


endef
tdk-space := $() $()
tdk-sanitizers := $(subst $(tdk-comma), ,$(CFG_TA_SANITIZE))
ifneq ($(filter-out address undefined,$(tdk-sanitizers)),)
$(error ta_dev_kit: CFG_TA_SANITIZE=$(CFG_TA_SANITIZE): the kit knows address and undefined)
endif

# The signing key: the development key that the swtee this kit belongs to
# trusts, unless the TA names another.
TA_SIGN_KEY ?= $(tdk-dir)/keys/default_ta.pem
# `swtee sign`, from the installation the kit belongs to, else from PATH.
SWTEE ?= $(firstword $(wildcard $(tdk-dir)/bin/swtee) swtee)

# The GP and OP-TEE functions the TA runtime provides, one per line.
tdk-runtime-syms := $(tdk-dir)/lib/ta_runtime.syms
