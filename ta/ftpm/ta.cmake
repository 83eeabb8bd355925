# The firmware TPM TA (docs/tpm.md): libtpms as the TPM 2.0 engine, its NV in
# GP trusted storage. Built when libtpms' headers are there (Debian
# libtpms-dev).
pkg_check_modules(LIBTPMS IMPORTED_TARGET libtpms)
find_path(LIBTPMS_INCLUDE_DIR libtpms/tpm_library.h)
if(NOT LIBTPMS_FOUND OR NOT LIBTPMS_INCLUDE_DIR)
	message(STATUS "libtpms not found: the fTPM TA is not built (apt-get install libtpms-dev)")
	return()
endif()

swtee_add_ta(NAME ta_ftpm UUID bc50d971-d4c9-42c4-82cb-343fb7f37896
	SOURCES ${CMAKE_CURRENT_LIST_DIR}/ftpm.c ${CMAKE_CURRENT_LIST_DIR}/ftpm_power.c
		${CMAKE_CURRENT_LIST_DIR}/ftpm_nv.c ${CMAKE_CURRENT_LIST_DIR}/ftpm_rand.c
	INCLUDES ${CMAKE_CURRENT_LIST_DIR}/include ${CMAKE_CURRENT_LIST_DIR}
	LIBS PkgConfig::LIBTPMS OpenSSL::Crypto swtee_common)
# The bounded reader (src/common/buf.c) comes from swtee's static common
# library, built position-independent: the linker takes buf.o alone, and
# keeps its symbols inside the TA, which then never depends on what
# swtee-ta-host happens to export.
target_link_options(ta_ftpm PRIVATE -Wl,--exclude-libs,libswtee_common.a)
