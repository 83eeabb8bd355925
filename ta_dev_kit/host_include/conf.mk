# swtee's configuration under OP-TEE's CFG_ names, for the build systems of
# OP-TEE's own code: optee_test's Makefile includes this file (and stops if
# it is missing), its CMake build includes conf.cmake, and its host sources
# are compiled with -include conf.h. The kit's CMake makes conf.h and
# conf.cmake from this file, so the three always agree: a line here is
# CFG_<name>=y (conf.h: #define CFG_<name> 1) or CFG_<name>=n (conf.h
# leaves it undefined, as OP-TEE does). Each setting says what swtee has
# that makes it y, or lacks that makes it n.
#
# Unlike OP-TEE's, this file has no ARCH or PLATFORM: swtee runs on the
# host, and those names mean other things to the Makefiles that include it.

# GP Sockets API v1.0, TCP and UDP, through the supplicant
# (src/core/sockets/, docs/sockets.md): xtest's 2xxx cases and sock_server.
CFG_GP_SOCKETS=y

# Trusted storage lives in files on the REE side, written through
# tee-supplicant (src/supplicant/ree_fs.c, docs/storage.md): xtest 1015.
CFG_REE_FS=y

# The core emulates RPMB: a slot file in its secure directory, MACed with a
# key of its own (docs/storage.md). TEE_STORAGE_PRIVATE_RPMB is a storage
# of its own, and every REE object is anchored by the RPMB counter, which
# is what OP-TEE calls REE FS integrity in RPMB.
CFG_RPMB_FS=y
CFG_REE_FS_INTEGRITY_RPMB=y

# TEE_ALG_RSASSA_PKCS1_V1_5 (no hash, no DigestInfo) is an algorithm of the
# TA runtime (src/ta_runtime/crypto/alg.c): the two 4006 cases that need it.
CFG_CRYPTO_RSASSA_NA1=y

# The kit ships no mbedTLS: by default optee_test's crypt TA builds without
# mbedtls_taf.c and xtest's 8101 to 8103 are left out. CFG_TA_MBEDTLS=y with
# MBEDTLS_DIR=<an mbedTLS 3 source tree> on the make command line builds that
# tree into the TA (mk/mbedtls.mk, docs/ta-development.md).
CFG_TA_MBEDTLS=n
CFG_TA_MBEDTLS_SELF_TEST=n

# Not here: CFG_TA_OPTEE_CORE_API_COMPAT_1_1 is a per-TA choice in swtee (a
# TA's Makefile sets it before including the kit, which reads this file).

# No secure data path: no protected memory, no dma-heap, no SDP TAs.
CFG_SECURE_DATA_PATH=n

# No PKCS#11 TA ships with swtee (ta/ has crypto_perf and ftpm).
CFG_PKCS11_TA=n

# No Arm FF-A: no secure partitions, no SPMC to test.
CFG_SECURE_PARTITION=n
CFG_SPMC_TESTS=n

# No secure element: crypto is the TA runtime's, in software.
CFG_CRYPTO_SE05X=n

# TAs are host shared objects built by the host compiler; the kit does not
# build them with Arm BTI.
CFG_TA_BTI=n

# No TPM event log: swtee's TPM (ta/ftpm) has no measured boot to log, and
# there is no PTA_SYSTEM_GET_TPM_EVENT_LOG (pta_system.h).
CFG_CORE_TPM_EVENT_LOG=n

# xtest's 4005 would download NIST's GCM vectors with curl at build time;
# a build that needs the network is not one the kit asks for.
CFG_GCM_NIST_VECTORS=n

# The supplicant has no gprof or ftrace channel for TAs (a TA is a host
# process: perf, valgrind and gcov work on it directly, docs/ta-development.md).
CFG_TA_GPROF_SUPPORT=n
CFG_FTRACE_SUPPORT=n
