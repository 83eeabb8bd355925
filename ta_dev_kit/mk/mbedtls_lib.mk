# Builds the libmbedtls.a of mk/mbedtls.mk: run by it as a sub-make, under a
# lock on the build directory (so that TAs built at once that share a
# MBEDTLS_BUILD_DIR build it once), with what to build in the environment:
#   TDK_MB_ROOT     the mbedTLS tree (include/, library/)
#   TDK_MB_OUT      the build directory of this tree, configuration and flags
#   TDK_MB_KIT      the kit (include/, src/mbedtls/)
#   TDK_MB_CC, TDK_MB_AR, TDK_MB_CFLAGS (the tree's sources),
#   TDK_MB_KIT_CFLAGS (the kit's entropy and pool sources), TDK_MB_V

.SUFFIXES:
.DELETE_ON_ERROR:

ifeq ($(TDK_MB_V),1)
q :=
say := @true
else
q := @
say := @printf '  %-7s %s\n'
endif

srcs := $(sort $(wildcard $(TDK_MB_ROOT)/library/*.c))
objs := $(patsubst $(TDK_MB_ROOT)/library/%.c,$(TDK_MB_OUT)/%.o,$(srcs))
entropy := $(TDK_MB_OUT)/swtee_tee_entropy.o
pool := $(TDK_MB_OUT)/swtee_tee_mpi_pool.o
lib := $(TDK_MB_OUT)/libmbedtls.a

all: $(lib) $(pool)

# The kit's headers come after the tree's: optee_os's bignum.c takes
# mempool.h from OP-TEE's libutils.
$(TDK_MB_OUT)/%.o: $(TDK_MB_ROOT)/library/%.c
	$(say) CC "mbedtls/$*.c"
	$(q)$(TDK_MB_CC) $(TDK_MB_CFLAGS) -I$(TDK_MB_ROOT)/include -I$(TDK_MB_ROOT)/library \
		-I$(TDK_MB_KIT)/include -MMD -MP -c $< -o $@

$(TDK_MB_OUT)/swtee_tee_%.o: $(TDK_MB_KIT)/src/mbedtls/tee_%.c
	$(say) CC "mbedtls $*.c (kit)"
	$(q)$(TDK_MB_CC) $(TDK_MB_KIT_CFLAGS) -I$(TDK_MB_KIT)/include -MMD -MP -c $< -o $@

$(lib): $(objs) $(entropy)
	$(say) AR "$@"
	$(q)rm -f $@
	$(q)$(TDK_MB_AR) rcs $@ $^

-include $(objs:.o=.d) $(entropy:.o=.d) $(pool:.o=.d)
