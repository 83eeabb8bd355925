# A TA shared library (SHLIBNAME=<name>, SHLIBUUID=<uuid>), as OP-TEE builds
# one: <name>.so in O, whose soname is the UUID, so that a TA linked with
# -L<O> -l<name without lib> names the library by its UUID; and
# <uuid>.elf, the same object under its UUID; and <uuid>.ta, it signed,
# which the core loads (from the TA path, like a TA) for each TA that needs
# it (docs/ta-development.md). With CFG_TA_MBEDTLS=y the kit's libmbedtls.a
# is linked in and, as in a TA, exports nothing.

ifeq ($(shell printf '%s\n' '$(SHLIBUUID)' | grep -Eq '$(tdk-uuid-re)' && echo ok),)
$(error ta_dev_kit: SHLIBNAME=$(SHLIBNAME) needs SHLIBUUID=<uuid>, the UUID TAs load it by (it is '$(SHLIBUUID)'))
endif

tdk-shlib := $(tdk-out)/$(SHLIBNAME).so
tdk-shlib-elf := $(tdk-out)/$(SHLIBUUID).elf
tdk-shlib-ta := $(tdk-out)/$(SHLIBUUID).ta
tdk-cleanfiles := $(tdk-shlib) $(tdk-shlib-elf) $(tdk-shlib-ta) $(tdk-out)/$(SHLIBUUID).map
tdk-linker := $(if $(filter cxx,$(foreach o,$(tdk-objs),$(tdk-lang-$o))),$(tdk-cxx),$(tdk-cc))
tdk-libdirs := $(foreach d,$(libdirs),$(abspath $d))

all: $(tdk-shlib) $(tdk-shlib-elf) $(tdk-shlib-ta)

$(tdk-shlib): $(tdk-objs) $(libdeps) $(tdk-mbedtls-link) $(tdk-flags-file)
	$(tdk-say) LD $(call tdk-show,$@)
	$(tdk-q)$(tdk-linker) -shared -fPIC -Wl,-soname,$(SHLIBUUID) -Wl,--build-id -Wl,-Bsymbolic \
		-Wl,-z,relro -Wl,-z,now -Wl,-z,noexecstack -Wl,-Map,$(tdk-out)/$(SHLIBUUID).map \
		$(tdk-instr) $(tdk-user-ldflags) -o $@ $(tdk-objs) $(addprefix -L,$(tdk-libdirs)) \
		$(addprefix -l,$(libnames)) $(tdk-mbedtls-link) $(LDADD) \
		$(if $(tdk-mbedtls-lib),-Wl$(tdk-comma)--exclude-libs$(tdk-comma)libmbedtls.a)

$(tdk-shlib-elf): $(tdk-shlib)
	$(tdk-q)cp $< $@

$(tdk-shlib-ta): $(tdk-shlib-elf) $(wildcard $(TA_SIGN_KEY)) $(TA_SUBKEY_DEPS)
	$(call tdk-sign,$(SHLIBUUID),--library)
