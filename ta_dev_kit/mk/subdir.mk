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
#   gensrcs-y               generated files, as in OP-TEE: for each name G,
#                           produce-G (the file, relative to sub-dir-out),
#                           depends-G and recipe-G. A generated source is
#                           compiled with this sub.mk's flags; any other
#                           generated file (a header) is made before every
#                           object. While a sub.mk is read, sub-dir is its
#                           directory and sub-dir-out its output directory.
# libnames, libdirs and libdeps may be set here or in the Makefile (see
# link.mk); the kit never clears them.

tdk-submk-vars := srcs-y global-incdirs-y incdirs-y subdirs-y gensrcs-y \
	cflags-y cppflags-y aflags-y cxxflags-y \
	cflags-remove-y cppflags-remove-y aflags-remove-y cxxflags-remove-y
tdk-file-kinds := cflags cppflags aflags cxxflags \
	cflags-remove cppflags-remove aflags-remove cxxflags-remove

tdk-objs :=
tdk-global-incdirs :=
tdk-gen-other :=

# An absolute path for $2, written relative to directory $1.
tdk-path = $(if $(filter /%,$2),$(abspath $2),$(abspath $1/$2))
# The object of source $1 (absolute): beside it when it was generated
# under O, else under O at the source's place relative to the TA, or under
# _ext/ for a source outside the TA.
tdk-obj-of = $(if $(filter $(tdk-out)/%,$1),$(basename $1).o,$(basename $(tdk-out)/$(if $(filter $(tdk-ta-dir)/%,$1),$(patsubst $(tdk-ta-dir)/%,%,$1),_ext$1)).o)
tdk-lang-of = $(if $(filter .c,$(suffix $1)),c,$(if $(filter .S .s,$(suffix $1)),asm,$(if $(filter .cpp .cc .cxx,$(suffix $1)),cxx,)))

# The output directory of the sub.mk in directory $1 (absolute).
tdk-out-of = $(patsubst %/,%,$(dir $(call tdk-obj-of,$1/x)))

# $1: directory of the sub.mk, $2: the source as written, $3: its path,
# $4: y when the kit generates it (gensrcs-y), so it need not exist yet
define tdk-src-body
$(if $(tdk-only-clean)$4,,$(if $(wildcard $3),,$(error ta_dev_kit: $(call tdk-show,$1/sub.mk) lists $2 in srcs-y, but $(call tdk-show,$3) does not exist)))
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

# $1: directory of the sub.mk, $2: the gensrcs-y name. The recipe is taken
# as it is now: the next sub.mk may reuse the name.
define tdk-gensrc-body
$(if $(produce-$2),,$(error ta_dev_kit: $(call tdk-show,$1/sub.mk) lists $2 in gensrcs-y but sets no produce-$2 (the file it makes)))
tdk-g := $(sub-dir-out)/$(produce-$2)
tdk-recipe-$$(tdk-g) := $$(recipe-$2)
$$(tdk-g): $(depends-$2)
	$$(tdk-say) GEN $$(call tdk-show,$$@)
	@mkdir -p $$(@D)
	$$(tdk-q)$$(tdk-recipe-$$@)
cleanfiles += $$(tdk-g)
$(if $(call tdk-lang-of,$(produce-$2)),,tdk-gen-other += $$(tdk-g))
endef

# $1: directory of the sub.mk (absolute). Expands to nothing.
define tdk-read-submk
$(foreach v,$(tdk-submk-vars),$(eval $v :=))
$(if $(wildcard $1/sub.mk),,$(error ta_dev_kit: $(if $(filter $(tdk-ta-dir),$1),the TA has no sub.mk in $1,subdirs-y names $(call tdk-show,$1), which has no sub.mk)))
$(eval sub-dir := $(if $(filter $(tdk-ta-dir),$1),.,$(call tdk-show,$1)))
$(eval sub-dir-out := $(call tdk-out-of,$1))
$(eval include $1/sub.mk)
$(eval tdk-global-incdirs += $(foreach d,$(global-incdirs-y),$(call tdk-path,$1,$d)))
$(foreach s,$(srcs-y),$(eval $(call tdk-src-body,$1,$s,$(call tdk-path,$1,$s))))
$(foreach g,$(gensrcs-y),$(eval $(call tdk-gensrc-body,$1,$g)))
$(foreach g,$(gensrcs-y),$(if $(call tdk-lang-of,$(produce-$g)),$(eval $(call tdk-src-body,$1,$(produce-$g),$(sub-dir-out)/$(produce-$g),y))))
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
