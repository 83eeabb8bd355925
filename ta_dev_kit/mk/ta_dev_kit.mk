# swtee TA developer kit: builds a Trusted Application from the makefiles an
# OP-TEE TA already has. A TA's Makefile sets BINARY and includes this file:
#
#   BINARY = 8aaaf200-2450-11e4-abe2-0002a5d5c51b
#   include $(TA_DEV_KIT_DIR)/mk/ta_dev_kit.mk
#
# and its sub.mk lists what to build:
#
#   global-incdirs-y += include
#   srcs-y += my_ta.c
#
# Output, in O (default: the TA's directory): <uuid>.elf (with symbols, as
# loaded), <uuid>.map, and <uuid>.ta, the signed image swtee loads.
#
# Variables (on the command line, in the environment, or in the Makefile
# before the include):
#   BINARY=<uuid>        the TA to build; or LIBNAME=<name> for lib<name>.a,
#                        a static library other TAs link with libnames; or
#                        SHLIBNAME=<name> SHLIBUUID=<uuid> for <name>.so, a
#                        TA shared library other TAs link with -l (see
#                        mk/shlib.mk)
#   O=<dir>              output directory
#   CFG_TEE_TA_LOG_LEVEL 0..4: the most verbose trace.h level compiled in (1)
#   CFG_TA_OPTEE_CORE_API_COMPAT_1_1=y   the GP 1.1 API (uint32_t sizes)
#   CFG_TA_SANITIZE=address,undefined     build with those sanitizers
#   CFG_TA_MBEDTLS=y MBEDTLS_DIR=<tree>  mbedTLS 3 from that source tree,
#                        built into libmbedtls.a and linked (mk/mbedtls.mk);
#                        MBEDTLS_CONFIG=<header>, MBEDTLS_BUILD_DIR=<dir>
#   CFG_TA_COVERAGE=y    build with gcov instrumentation (--coverage)
#   CFG_CC_OPT_LEVEL     optimisation level, -O<level> (2; 0 for debugging)
#   CFG_WERROR=y         warnings are errors
#   CFG_TA_VERSION=<n>   version stored in the signed header (0)
#   TA_SIGN_KEY=<pem>    signing key (the kit's keys/default_ta.pem)
#   CROSS_COMPILE        accepted; TAs run on this host, so a prefix for
#                        another architecture gives way to the host compiler
#   CC, COMPILER=clang   the compiler; V=1 shows every command
#
# Every other CFG_<name> (and _CFG_<name>), whether the Makefile, a sub.mk,
# the command line or the environment sets it, reaches the compiler as in
# OP-TEE: y as -DCFG_<name>=1, n or empty not at all, any other value as
# -DCFG_<name>='<value>'. CPPFLAGS, CFLAGS, CXXFLAGS, AFLAGS and LDFLAGS
# (linker flags, as for ld) join the kit's own; CFLAGS_REMOVE and the like
# take flags away.

ifneq ($(words $(BINARY) $(LIBNAME) $(SHLIBNAME)),1)
$(error ta_dev_kit: set one of BINARY=<uuid> (a TA), LIBNAME=<name> (a static library) or SHLIBNAME=<name> with SHLIBUUID=<uuid> (a TA shared library) before including ta_dev_kit.mk$(if $(strip $(BINARY)$(LIBNAME)$(SHLIBNAME)), (they are BINARY=$(BINARY) LIBNAME=$(LIBNAME) SHLIBNAME=$(SHLIBNAME))))
endif

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:

# The kit's own root, whatever TA_DEV_KIT_DIR was spelled as.
tdk-dir := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
tdk-ta-dir := $(CURDIR)
tdk-out := $(if $(O),$(abspath $(O)),$(tdk-ta-dir))
# OP-TEE's names for the output directory, which TA makefiles use.
link-out-dir := $(tdk-out)
out-dir ?= $(tdk-out)

# A relative TA_DEV_KIT_DIR found the kit from here, but would not from the
# directory of a make -C or of another TA.
ifneq ($(filter-out /%,$(TA_DEV_KIT_DIR)),)
$(info ta_dev_kit: note: TA_DEV_KIT_DIR=$(TA_DEV_KIT_DIR) is relative, so it means another directory for each make -C; pass it as an absolute path: TA_DEV_KIT_DIR=$(tdk-dir))
endif
# Paths as shown in messages: relative to the TA when they are inside it.
tdk-show = $(patsubst $(tdk-ta-dir)/%,%,$1)

V ?= 0
ifeq ($(V),1)
tdk-q :=
tdk-say := @true
else
tdk-q := @
tdk-say := @printf '  %-7s %s\n'
endif

# $(call tdk-sign,<uuid>,<extra sign options>): the recipe that signs $< into $@.
# TA_SUBKEY_ARGS (OP-TEE's: --subkey FILE --name NAME) signs it through a
# subkey, TA_SIGN_KEY then being the subkey's private key.
define tdk-sign
	$(tdk-say) SIGN $(call tdk-show,$@)
	$(tdk-q)if [ ! -r '$(TA_SIGN_KEY)' ]; then \
		echo "ta_dev_kit: cannot read the signing key TA_SIGN_KEY=$(TA_SIGN_KEY)" >&2; exit 1; fi
	$(tdk-q)if ! command -v '$(SWTEE)' >/dev/null; then \
		echo "ta_dev_kit: cannot find the signer, swtee (not in $(tdk-dir)/bin nor in PATH); set SWTEE=/path/to/swtee" >&2; \
		exit 1; fi
	$(tdk-q)'$(SWTEE)' sign --key '$(TA_SIGN_KEY)' --uuid $1 $2 $(TA_SUBKEY_ARGS) \
		--ta-version $(CFG_TA_VERSION) --in $< --out $@
endef

include $(tdk-dir)/mk/conf.mk
include $(tdk-dir)/mk/compiler.mk
include $(tdk-dir)/mk/flags.mk
include $(tdk-dir)/mk/subdir.mk
include $(tdk-dir)/mk/mbedtls.mk
include $(tdk-dir)/mk/compile.mk
ifneq ($(BINARY),)
include $(tdk-dir)/mk/link.mk
else ifneq ($(SHLIBNAME),)
include $(tdk-dir)/mk/shlib.mk
else
include $(tdk-dir)/mk/lib.mk
endif

.PHONY: all clean
clean:
	$(tdk-say) CLEAN $(call tdk-show,$(tdk-out))
	$(tdk-q)rm -f $(tdk-objs) $(tdk-objs:.o=.d) $(tdk-objs:.o=.gcno) $(tdk-objs:.o=.gcda) \
		$(tdk-cleanfiles) $(cleanfiles) $(tdk-out)/.ta_dev_kit.flags
	$(tdk-q)rm -rf $(tdk-out)/.ta_dev_kit
	$(tdk-q)if [ "$(tdk-out)" != "$(tdk-ta-dir)" ]; then \
		find "$(tdk-out)" -depth -type d -empty -delete 2>/dev/null || true; fi
