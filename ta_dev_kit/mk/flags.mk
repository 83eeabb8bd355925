# The flags every source gets. A sub.mk adds its own, and may remove any of
# these with cflags-remove-y.

tdk-only-clean := $(if $(MAKECMDGOALS),$(if $(filter-out clean,$(MAKECMDGOALS)),,y),)

tdk-is-number = $(if $(filter 1,$(words $1)),$(if $(subst 0,,$(subst 1,,$(subst 2,,$(subst 3,,$(subst 4,,$(subst 5,,$(subst 6,,$(subst 7,,$(subst 8,,$(subst 9,,$1)))))))))),,y))
tdk-cfg-define = $(if $(filter y,$($1)),-D$1=1,$(if $(call tdk-is-number,$($1)),-D$1=$($1)))
tdk-cfg-defines := $(foreach v,$(sort $(filter CFG_%,$(.VARIABLES))),$(call tdk-cfg-define,$v))

tdk-compat := $(if $(filter y,$(CFG_TA_OPTEE_CORE_API_COMPAT_1_1)),1,0)

tdk-cppflags := -D__SWTEE__=1 -D__OPTEE_CORE_API_COMPAT_1_1=$(tdk-compat) \
	-DTRACE_LEVEL=$(CFG_TEE_TA_LOG_LEVEL) $(tdk-cfg-defines)

tdk-warnings := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	-Wpointer-arith -Wshadow -Wundef -Wformat=2 -Wwrite-strings \
	-Werror=implicit-function-declaration
ifeq ($(CFG_WERROR),y)
tdk-warnings += -Werror
endif

# -fvisibility=hidden: a TA exports its entry points and its header only
# (the headers mark those), so nothing of it can be confused with the
# runtime's symbols.
tdk-common := -fPIC -g -O$(CFG_CC_OPT_LEVEL) -fvisibility=hidden -fno-common
tdk-cflags := -std=gnu11 $(tdk-common) $(tdk-warnings) -Wmissing-prototypes -Wstrict-prototypes
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
