# The TA: link <uuid>.elf, check it, sign it into <uuid>.ta.
#
# Static libraries: libnames lists them by name, libdirs where to look
# (relative to the TA's directory), libdeps files whose change relinks the
# TA. A name is linked from lib<name>.a in libdirs or, failing that, where
# the compiler finds it (so Debian's libmbedcrypto.a is linked in whole,
# not loaded from the system at run time); otherwise as -l<name>. LDADD is
# passed to the linker as it is.

ifeq ($(shell printf '%s\n' '$(BINARY)' | grep -Eq '$(tdk-uuid-re)' && echo ok),)
$(error ta_dev_kit: BINARY=$(BINARY) is not a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx))
endif

tdk-elf := $(tdk-out)/$(BINARY).elf
tdk-map := $(tdk-out)/$(BINARY).map
tdk-ta := $(tdk-out)/$(BINARY).ta
tdk-hdr-src := $(tdk-dir)/src/user_ta_header.c
tdk-hdr-obj := $(tdk-out)/.ta_dev_kit/user_ta_header.o
tdk-cleanfiles := $(tdk-elf) $(tdk-map) $(tdk-ta)

tdk-defines-h := $(firstword $(wildcard $(addsuffix /user_ta_header_defines.h,$(tdk-global-incdirs) $(tdk-ta-dir))))
ifeq ($(tdk-defines-h)$(tdk-only-clean),)
$(error ta_dev_kit: no user_ta_header_defines.h in the TA's directory or its global-incdirs-y ($(if $(tdk-global-incdirs),$(call tdk-show,$(tdk-global-incdirs)),none)); every TA has one defining TA_UUID, TA_FLAGS, TA_STACK_SIZE and TA_DATA_SIZE)
endif

tdk-libdirs := $(foreach d,$(libdirs),$(abspath $d))
tdk-libdeps-missing := $(if $(tdk-only-clean),,$(filter-out $(wildcard $(libdeps)),$(libdeps)))
ifneq ($(tdk-libdeps-missing),)
$(error ta_dev_kit: libdeps names $(tdk-libdeps-missing), which does not exist: build that library first (LIBNAME=...), or correct libdeps)
endif
tdk-cc-finds = $(filter /%,$(shell $(tdk-cc) -print-file-name=lib$1.a))
tdk-lib-of = $(or $(firstword $(wildcard $(addsuffix /lib$1.a,$(tdk-libdirs)))),$(call tdk-cc-finds,$1),-l$1)
tdk-libs := $(foreach n,$(libnames),$(call tdk-lib-of,$n))

# -Bsymbolic: the TA's calls to its own functions stay in the TA, whatever
# the runtime or libcrypto export under the same names.
tdk-ldflags := -shared -fPIC -Wl,--build-id -Wl,-z,relro -Wl,-z,now -Wl,-z,noexecstack \
	-Wl,-Bsymbolic -Wl,--exclude-libs,ALL -Wl,-Map,$(tdk-map) $(tdk-instr)
tdk-linker := $(if $(filter cxx,$(foreach o,$(tdk-objs),$(tdk-lang-$o))),$(tdk-cxx),$(tdk-cc))

# The kit's TA header, from the TA's user_ta_header_defines.h. It is not
# instrumented for coverage: the counts are about the TA's own sources.
tdk-hdr-flags := $(filter-out --coverage,$(tdk-cflags) $(tdk-instr)) $(tdk-cppflags) \
	$(addprefix -I,$(tdk-global-incdirs) $(tdk-ta-dir) $(tdk-dir)/include) \
	$(if $(strip $(tdk-instr-names)),-DSWTEE_TA_INSTRUMENTED='"$(subst $(tdk-space),$(tdk-comma),$(strip $(tdk-instr-names)))"')

all: $(tdk-ta)

$(tdk-hdr-obj): $(tdk-hdr-src) $(tdk-flags-file)
	$(tdk-say) CC $(call tdk-show,$(tdk-defines-h))
	@mkdir -p $(@D)
	$(tdk-q)$(tdk-cc) $(tdk-hdr-flags) -MMD -MP -c $< -o $@ || { \
		echo "ta_dev_kit: cannot build the TA header from $(call tdk-show,$(tdk-defines-h)) (see above)" >&2; \
		exit 1; }
-include $(tdk-hdr-obj:.o=.d)

$(tdk-elf): $(tdk-objs) $(tdk-hdr-obj) $(libdeps) $(tdk-mbedtls-link) $(tdk-flags-file)
	$(tdk-say) LD $(call tdk-show,$@)
	$(tdk-q)$(tdk-linker) $(tdk-ldflags) $(tdk-user-ldflags) -o $@ $(tdk-objs) $(tdk-hdr-obj) \
		$(addprefix -L,$(tdk-libdirs)) -Wl,--start-group $(tdk-libs) $(tdk-mbedtls-link) -Wl,--end-group $(LDADD)
	$(tdk-q)$(SHELL) $(tdk-dir)/mk/ta_check.sh '$(tdk-nm)' '$(tdk-objcopy)' '$(BINARY)' \
		'$@' '$(tdk-runtime-syms)' '$(tdk-mbedtls-config)'

$(tdk-ta): $(tdk-elf) $(wildcard $(TA_SIGN_KEY)) $(TA_SUBKEY_DEPS)
	$(call tdk-sign,$(BINARY))
