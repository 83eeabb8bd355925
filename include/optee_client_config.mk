# What OP-TEE's client export says about itself (optee_client's config.mk,
# installed as include/optee_client_config.mk), for the Makefiles that
# include it: optee_test's reads it for CFG_TEE_PLUGIN_LOAD_PATH. The values
# describe swtee's libteec and tee-supplicant; ?= lets a command line or an
# earlier Makefile override them, as with OP-TEE's.

# The teec_trace.h level (1: errors only) for libraries built beside
# libteec, as optee_client's Makefiles pass it (-DDEBUGLEVEL_1). swtee's
# libteec itself prints nothing; its tee-supplicant prints errors, and more
# with -v.
CFG_TEE_CLIENT_LOG_LEVEL ?= 1
CFG_TEE_SUPP_LOG_LEVEL ?= 1

# swtee's tee-supplicant loads plugins (tee_invoke_supp_plugin), from -p DIR
# or else from lib/swtee/plugins of its installation. The load path keeps
# OP-TEE's default, where optee_test's "make install" puts its plugin; run
# tee-supplicant (or swtee run) with --plugin-path there to load it.
CFG_TEE_SUPP_PLUGINS ?= y
CFG_TEE_PLUGIN_LOAD_PATH ?= /usr/lib/tee-supplicant/plugins/

# TAs reach TCP and UDP through the supplicant (docs/sockets.md).
CFG_GP_SOCKETS ?= y

# No gprof or ftrace dumps from TAs: a TA is a host process, profiled as one.
CFG_TA_GPROF_SUPPORT ?= n
CFG_FTRACE_SUPPORT ?= n

# Not set here: CFG_TEE_FS_PARENT_PATH and CFG_TEE_CLIENT_LOAD_PATH. swtee
# keeps trusted storage in its state directory ($SWTEE_STATE_DIR, else a
# per-user default) and finds TAs in the installation's lib/swtee/ta, both
# chosen at run time (README.md, `swtee run`), not when a client is built.
