# Reads the TA's sub.mk, then the sub.mk of each of its subdirs-y, depth
# first. Paths in a sub.mk are relative to its own directory. A sub.mk sets:
#   srcs-y                  sources: .c, .S, .cpp, .cc, .cxx
#   global-incdirs-y        include directories for every source of the TA
#   incdirs-y               include directories for this sub.mk's sources
#   cflags-y cppflags-y aflags-y cxxflags-y     flags for this sub.mk's sources
#   cflags-<src>-y ...      flags for one source, <src> as written in srcs-y
#   cflags-remove-y, cflags-remove-<src>-y, cppflags-remove-... (likewise
#                           aflags-, cxxflags-): flags to drop, the kit's own
#                           included
#   subdirs-y               directories with a sub.mk of their own
# libnames, libdirs and libdeps may be set here or in the Makefile (see
# link.mk); the kit never clears them.

tdk-submk-vars := srcs-y global-incdirs-y incdirs-y subdirs-y \
	cflags-y cppflags-y aflags-y cxxflags-y \
	cflags-remove-y cppflags-remove-y aflags-remove-y cxxflags-remove-y
tdk-file-kinds := cflags cppflags aflags cxxflags \
	cflags-remove cppflags-remove aflags-remove cxxflags-remove

tdk-objs :=
tdk-global-incdirs :=

# An absolute path for $2, written relative to directory $1.
tdk-path = $(if $(filter /%,$2),$(abspath $2),$(abspath $1/$2))
# The object of source $1 (absolute): under O, at the source's place
# relative to the TA, or under _ext/ for a source outside the TA.
tdk-obj-of = $(basename $(tdk-out)/$(if $(filter $(tdk-ta-dir)/%,$1),$(patsubst $(tdk-ta-dir)/%,%,$1),_ext$1)).o
tdk-lang-of = $(if $(filter .c,$(suffix $1)),c,$(if $(filter .S .s,$(suffix $1)),asm,$(if $(filter .cpp .cc .cxx,$(suffix $1)),cxx,)))

# $1: directory of the sub.mk, $2: the source as written, $3: its path
define tdk-src-body
$(if $(tdk-only-clean),,$(if $(wildcard $3),,$(error ta_dev_kit: $(call tdk-show,$1/sub.mk) lists $2 in srcs-y, but $(call tdk-show,$3) does not exist)))
$(if $(call tdk-lang-of,$3),,$(error ta_dev_kit: $(call tdk-show,$1/sub.mk): $2: the kit builds .c, .S, .cpp, .cc and .cxx sources))
$(if $(filter $(call tdk-obj-of,$3),$(tdk-objs)),$(error ta_dev_kit: $(call tdk-show,$3) is listed twice in srcs-y))
tdk-o := $(call tdk-obj-of,$3)
tdk-objs += $$(tdk-o)
tdk-src-$$(tdk-o) := $3
tdk-lang-$$(tdk-o) := $(call tdk-lang-of,$3)
tdk-inc-$$(tdk-o) := $(foreach d,$(incdirs-y),$(call tdk-path,$1,$d))
tdk-cpp-$$(tdk-o) := $(cppflags-y) $(cppflags-$2-y)
tdk-c-$$(tdk-o) := $(cflags-y) $(cflags-$2-y)
tdk-a-$$(tdk-o) := $(aflags-y) $(aflags-$2-y)
tdk-x-$$(tdk-o) := $(cxxflags-y) $(cxxflags-$2-y)
tdk-rm-$$(tdk-o) := $(cflags-remove-y) $(cflags-remove-$2-y) $(cppflags-remove-y) \
	$(cppflags-remove-$2-y) $(aflags-remove-y) $(aflags-remove-$2-y) \
	$(cxxflags-remove-y) $(cxxflags-remove-$2-y)
endef

# $1: directory of the sub.mk (absolute). Expands to nothing.
define tdk-read-submk
$(foreach v,$(tdk-submk-vars),$(eval $v :=))
$(if $(wildcard $1/sub.mk),,$(error ta_dev_kit: $(if $(filter $(tdk-ta-dir),$1),the TA has no sub.mk in $1,subdirs-y names $(call tdk-show,$1), which has no sub.mk)))
$(eval include $1/sub.mk)
$(eval tdk-global-incdirs += $(foreach d,$(global-incdirs-y),$(call tdk-path,$1,$d)))
$(foreach s,$(srcs-y),$(eval $(call tdk-src-body,$1,$s,$(call tdk-path,$1,$s))))
$(foreach s,$(srcs-y),$(foreach k,$(tdk-file-kinds),$(eval $k-$s-y :=)))
$(eval tdk-subdirs-$1 := $(subdirs-y))
$(foreach d,$(tdk-subdirs-$1),$(call tdk-read-submk,$(call tdk-path,$1,$d)))
endef

tdk-discard := $(call tdk-read-submk,$(tdk-ta-dir))
$(foreach v,$(tdk-submk-vars),$(eval $v :=))

ifeq ($(strip $(tdk-objs)),)
ifeq ($(tdk-only-clean),)
$(error ta_dev_kit: the TA's sub.mk lists no sources in srcs-y)
endif
endif
