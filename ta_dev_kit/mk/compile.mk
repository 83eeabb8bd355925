# One rule per object, with the flags of the sub.mk that listed its source.
# Objects are rebuilt when the flags change (.ta_dev_kit.flags) or when a
# header they include changes (-MMD).

tdk-flags-file := $(tdk-out)/.ta_dev_kit.flags

# Every sub.mk has been read: the CFG_ values are final.
tdk-cfg-multiline := $(strip $(foreach v,$(tdk-cfg-vars),$(if $(findstring $(tdk-newline),$(value $v)),$v)))
ifneq ($(tdk-cfg-multiline),)
$(error ta_dev_kit: $(tdk-cfg-multiline): a CFG_ value is one line (y, n, a number or an expression), not a multi-line define)
endif
tdk-cppflags := $(tdk-cppflags)

# The TA's own directory comes after its global-incdirs-y, as in OP-TEE:
# that is where user_ta_header_defines.h usually is.
tdk-incflags = $(addprefix -I,$(tdk-inc-$1) $(tdk-global-incdirs) $(tdk-ta-dir) $(tdk-dir)/include) \
	$(tdk-mbedtls-incflags)
tdk-flags-c = $(filter-out $(tdk-rm-$1) $(tdk-user-rm),$(tdk-cflags) $(tdk-user-cflags) \
	$(tdk-instr) $(tdk-cppflags) $(CPPFLAGS) $(call tdk-incflags,$1) $(tdk-cpp-$1) $(tdk-c-$1))
tdk-flags-asm = $(filter-out $(tdk-rm-$1) $(tdk-user-rm),$(tdk-aflags) $(AFLAGS) \
	$(tdk-cppflags) $(CPPFLAGS) $(call tdk-incflags,$1) $(tdk-cpp-$1) $(tdk-a-$1))
tdk-flags-cxx = $(filter-out $(tdk-rm-$1) $(tdk-user-rm),$(tdk-cxxflags) $(CXXFLAGS) \
	$(tdk-instr) $(tdk-cppflags) $(CPPFLAGS) $(call tdk-incflags,$1) $(tdk-cpp-$1) $(tdk-x-$1))
tdk-compiler-c = $(tdk-cc)
tdk-compiler-asm = $(tdk-cc)
tdk-compiler-cxx = $(tdk-cxx)
tdk-label-c := CC
tdk-label-asm := AS
tdk-label-cxx := CXX

define tdk-compile-rule
$1: $(tdk-src-$1) $(tdk-flags-file) $(tdk-gen-other)
	$$(tdk-say) $(tdk-label-$(tdk-lang-$1)) $$(call tdk-show,$(tdk-src-$1))
	@mkdir -p $$(@D)
	$$(tdk-q)$(tdk-compiler-$(tdk-lang-$1)) $(call tdk-flags-$(tdk-lang-$1),$1) -MMD -MP -c $$< -o $$@
endef

$(foreach o,$(tdk-objs),$(eval $(call tdk-compile-rule,$o)))

-include $(tdk-objs:.o=.d)

# Everything that decides what the objects and the TA are made of; a change
# rewrites the flags file, which every object and the link depend on.
tdk-flags-now := $(strip $(tdk-cc) $(tdk-cxx) $(tdk-cflags) $(tdk-cxxflags) $(tdk-aflags) \
	$(tdk-instr) $(tdk-cppflags) $(tdk-global-incdirs) $(LDADD) $(libnames) $(libdirs) $(tdk-mbedtls-lib) \
	$(tdk-user-cflags) $(CPPFLAGS) $(CXXFLAGS) $(AFLAGS) $(tdk-user-rm) $(tdk-user-ldflags) \
	$(foreach o,$(tdk-objs),$o: $(tdk-inc-$o) $(tdk-cpp-$o) $(tdk-c-$o) $(tdk-a-$o) \
		$(tdk-x-$o) $(tdk-rm-$o)))
ifeq ($(tdk-only-clean),)
ifneq ($(tdk-flags-now),$(strip $(file < $(tdk-flags-file))))
$(shell mkdir -p $(tdk-out))
$(file > $(tdk-flags-file),$(tdk-flags-now))
endif
endif
$(tdk-flags-file): ;
