# The toolchain. A TA runs in a process on this host, so it is built for
# this host: CROSS_COMPILE (which OP-TEE build scripts always pass) is used
# when it targets this architecture and otherwise gives way, with a note,
# to the host compiler. So does a CC for another architecture.

tdk-arch-of = $(firstword $(subst -, ,$(shell $1 -dumpmachine 2>/dev/null)))
tdk-host-arch := $(or $(call tdk-arch-of,gcc),$(call tdk-arch-of,cc),$(shell uname -m))

tdk-cross :=
ifneq ($(strip $(CROSS_COMPILE)),)
tdk-cross-arch := $(call tdk-arch-of,$(CROSS_COMPILE)gcc)
ifeq ($(tdk-cross-arch),$(tdk-host-arch))
tdk-cross := $(CROSS_COMPILE)
else
$(info ta_dev_kit: note: CROSS_COMPILE=$(CROSS_COMPILE) $(if $(tdk-cross-arch),targets $(tdk-cross-arch),names no compiler here); swtee runs TAs on this $(tdk-host-arch) host, so the host compiler builds them)
endif
endif

ifeq ($(COMPILER),clang)
tdk-cc := clang
tdk-cxx := clang++
else
tdk-cc := $(tdk-cross)gcc
tdk-cxx := $(tdk-cross)g++
endif

# A CC or CXX given on the command line or in the environment wins, unless
# it builds for another architecture.
ifneq ($(filter environment% command%,$(origin CC)),)
ifeq ($(call tdk-arch-of,$(CC)),$(tdk-host-arch))
tdk-cc := $(CC)
else
$(info ta_dev_kit: note: CC=$(CC) does not build for this $(tdk-host-arch) host; using $(tdk-cc))
endif
endif
ifneq ($(filter environment% command%,$(origin CXX)),)
ifeq ($(call tdk-arch-of,$(CXX)),$(tdk-host-arch))
tdk-cxx := $(CXX)
endif
endif

tdk-ar := $(if $(filter environment% command%,$(origin AR)),$(AR),$(tdk-cross)ar)
tdk-nm := $(tdk-cross)nm
tdk-objcopy := $(tdk-cross)objcopy
