# The flags every source gets. A sub.mk adds its own, and may remove any of
# these with cflags-remove-y.

tdk-only-clean := $(if $(MAKECMDGOALS),$(if $(filter-out clean,$(MAKECMDGOALS)),,y),)

# Every CFG_ and _CFG_ variable reaches the compiler as OP-TEE passes it:
# y as 1, n or empty not at all, anything else as it is written, so that
# CFG_X ?= (32 * 1024) gives -DCFG_X='(32 * 1024)' and IS_ENABLED(CFG_X)
# works. It is worked out once every sub.mk has been read (compile.mk), so
# a value a sub.mk sets counts as much as one from the Makefile.
tdk-shell-quote = '$(subst ','\'',$1)'
tdk-cfg-define = $(if $(filter y,$($1)),-D$1=1,$(if $(filter xn x,x$(strip $($1))),,-D$1=$(call tdk-shell-quote,$(strip $($1)))))
tdk-cfg-vars = $(sort $(filter CFG_% _CFG_%,$(.VARIABLES)))
tdk-cfg-defines = $(foreach v,$(tdk-cfg-vars),$(call tdk-cfg-define,$v))

tdk-compat := $(if $(filter y,$(CFG_TA_OPTEE_CORE_API_COMPAT_1_1)),1,0)

tdk-cppflags = -D__SWTEE__=1 -D__OPTEE_CORE_API_COMPAT_1_1=$(tdk-compat) \
	-DTRACE_LEVEL=$(CFG_TEE_TA_LOG_LEVEL) $(tdk-cfg-defines)

# What the TA's Makefile, the command line or the environment sets, as in
# OP-TEE's kit: CPPFLAGS, CFLAGS (CFLAGS64 for a 64-bit TA when it is set
# apart), CXXFLAGS and AFLAGS join the kit's own flags, before a sub.mk's;
# CFLAGS_REMOVE and the like take flags away; LDFLAGS are the linker's
# (OP-TEE runs ld itself: here each reaches it through -Wl,).
tdk-user-cflags = $(CFLAGS) $(if $(filter-out $(CFLAGS),$(CFLAGS64)),$(CFLAGS64))
tdk-user-rm = $(CFLAGS_REMOVE) $(CPPFLAGS_REMOVE) $(AFLAGS_REMOVE) $(CXXFLAGS_REMOVE)
tdk-user-ldflags = $(foreach f,$(LDFLAGS),-Wl,$f)

tdk-warnings := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	-Wpointer-arith -Wshadow -Wundef -Wformat=2 -Wwrite-strings
ifeq ($(CFG_WERROR),y)
tdk-warnings += -Werror
endif

# Default visibility: a TA's libraries may use its symbols, as on OP-TEE
# (os_test_lib's constructor writes the TA's os_test_global). Nothing of the
# TA is confused with the runtime's symbols for that: the TA is loaded
# RTLD_LOCAL (only it and its libraries see what it exports), and linked
# -Bsymbolic (its calls to its own functions stay inside it); a TA library
# likewise (shlib.mk).
tdk-common := -fPIC -g -O$(CFG_CC_OPT_LEVEL) -fno-common
# C only: g++ warns of each of these as not valid for C++.
tdk-cflags := -std=gnu11 $(tdk-common) $(tdk-warnings) -Wmissing-prototypes -Wstrict-prototypes \
	-Werror=implicit-function-declaration
tdk-cxxflags := -std=gnu++17 $(tdk-common) $(tdk-warnings)
tdk-aflags := -fPIC -g -D__ASSEMBLY__

# Instrumented builds: compiled and linked with these.
tdk-instr :=
tdk-instr-names :=
ifneq ($(strip $(CFG_TA_SANITIZE)),)
tdk-instr += -fsanitize=$(CFG_TA_SANITIZE) -fno-omit-frame-pointer
tdk-instr-names += $(tdk-sanitizers)
endif
ifeq ($(CFG_TA_COVERAGE),y)
tdk-instr += --coverage
tdk-instr-names += coverage
endif
