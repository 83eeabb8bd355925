# swtee_add_ta(NAME <target> UUID <uuid> SOURCES <files>...
#              [INCLUDES <dirs>...] [DEFINES <defs>...] [LIBS <libs>...]
#              [COMPILE_OPTIONS <opts>...] [LOG_LEVEL <0..4>] [COMPAT_1_1]
#              [SANITIZE <address,undefined>] [COVERAGE]
#              [SIGN_KEY <pem>] [OUTPUT_DIRECTORY <dir>] [MBEDTLS])
#
# Builds a Trusted Application the way the kit's ta_dev_kit.mk does:
# <uuid>.elf (a shared object with symbols) and the signed <uuid>.ta beside
# it, in OUTPUT_DIRECTORY (default: the current binary dir). INCLUDES must
# hold the TA's user_ta_header_defines.h. The image's path is the target's
# SWTEE_TA_IMAGE property; run a client against it with
#   ${SWTEE_EXECUTABLE} run --ta-path <dir> -- <client>
#
# LOG_LEVEL is CFG_TEE_TA_LOG_LEVEL (1 by default); COMPAT_1_1 gives the GP
# 1.1 API (CFG_TA_OPTEE_CORE_API_COMPAT_1_1=y); SANITIZE and COVERAGE are the
# kit's CFG_TA_SANITIZE and CFG_TA_COVERAGE (docs/ta-development.md).
#
# MBEDTLS (or CFG_TA_MBEDTLS set to y/ON in the project) is the kit's
# CFG_TA_MBEDTLS=y: mbedTLS 3 from the source tree MBEDTLS_DIR names (a
# variable or in the environment), built once per tree into a static
# libmbedtls.a with the kit's configuration (or the header MBEDTLS_CONFIG
# names), its headers on the TA's include path, linked into the TA.

# swtee_ta_mbedtls(<ta> <out-var> <config-var>): the libmbedtls target of
# MBEDTLS_DIR, and the configuration header it is built with.
function(swtee_ta_mbedtls ta out out_config)
	set(dir "${MBEDTLS_DIR}")
	if(NOT dir)
		set(dir "$ENV{MBEDTLS_DIR}")
	endif()
	if(NOT dir)
		message(FATAL_ERROR "swtee_add_ta(${ta}): CFG_TA_MBEDTLS needs an mbedTLS 3.x source "
			"tree, which the kit does not ship: set MBEDTLS_DIR=<tree> (-DMBEDTLS_DIR=...), an "
			"upstream Mbed-TLS/mbedtls 3.x tree or optee_os's lib/libmbedtls")
	endif()
	get_filename_component(dir "${dir}" ABSOLUTE)
	if(EXISTS "${dir}/include/mbedtls/build_info.h")
		set(root "${dir}")
	elseif(EXISTS "${dir}/mbedtls/include/mbedtls/build_info.h")
		set(root "${dir}/mbedtls")
	else()
		message(FATAL_ERROR "swtee_add_ta(${ta}): MBEDTLS_DIR=${dir} is not an mbedTLS 3.x "
			"source tree: it has no include/mbedtls/build_info.h")
	endif()
	file(STRINGS "${root}/include/mbedtls/build_info.h" major
		REGEX "^#define[ \t]+MBEDTLS_VERSION_MAJOR[ \t]+[0-9]+")
	string(REGEX REPLACE ".*MBEDTLS_VERSION_MAJOR[ \t]+([0-9]+).*" "\\1" major "${major}")
	if(NOT major STREQUAL "3")
		message(FATAL_ERROR "swtee_add_ta(${ta}): MBEDTLS_DIR=${dir} is mbedTLS '${major}'; "
			"the kit builds mbedTLS 3.x")
	endif()
	set(config "${SWTEE_TA_DEV_KIT_DIR}/src/mbedtls/swtee_mbedtls_config.h")
	if(MBEDTLS_CONFIG)
		get_filename_component(config "${MBEDTLS_CONFIG}" ABSOLUTE)
	endif()
	set(defs "MBEDTLS_CONFIG_FILE=\"${config}\"")
	if(CFG_TA_MBEDTLS_SELF_TEST)
		list(APPEND defs CFG_TA_MBEDTLS_SELF_TEST=1)
	endif()
	string(SHA256 key "${root};${defs}")
	string(SUBSTRING "${key}" 0 16 key)
	set(lib swtee_mbedtls_${key})
	if(NOT TARGET ${lib})
		file(GLOB srcs CONFIGURE_DEPENDS "${root}/library/*.c")
		set(entropy "${SWTEE_TA_DEV_KIT_DIR}/src/mbedtls/tee_entropy.c")
		add_library(${lib} STATIC ${srcs} "${entropy}")
		set_source_files_properties("${entropy}" PROPERTIES COMPILE_DEFINITIONS "__SWTEE__=1;__OPTEE_CORE_API_COMPAT_1_1=0")
		set_target_properties(${lib} PROPERTIES OUTPUT_NAME mbedtls
			POSITION_INDEPENDENT_CODE ON
			ARCHIVE_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/swtee-mbedtls/${key}")
		target_compile_options(${lib} PRIVATE -g)
		target_compile_definitions(${lib} PUBLIC ${defs})
		target_include_directories(${lib} SYSTEM PUBLIC "${root}/include")
		# After the tree's: optee_os's bignum.c includes libutils' mempool.h.
		target_include_directories(${lib} PRIVATE "${root}/library"
			"${SWTEE_TA_DEV_KIT_DIR}/include")
	endif()
	set(${out} ${lib} PARENT_SCOPE)
	set(${out_config} "${config}" PARENT_SCOPE)
endfunction()

function(swtee_add_ta)
	cmake_parse_arguments(TA "COMPAT_1_1;COVERAGE;MBEDTLS"
		"NAME;UUID;SIGN_KEY;OUTPUT_DIRECTORY;LOG_LEVEL;SANITIZE"
		"SOURCES;INCLUDES;DEFINES;LIBS;COMPILE_OPTIONS" ${ARGN})
	if(TA_UNPARSED_ARGUMENTS)
		message(FATAL_ERROR "swtee_add_ta: unknown arguments: ${TA_UNPARSED_ARGUMENTS}")
	endif()
	if(NOT TA_NAME OR NOT TA_UUID OR NOT TA_SOURCES)
		message(FATAL_ERROR "swtee_add_ta: NAME, UUID and SOURCES are required")
	endif()
	string(REPEAT "[0-9a-fA-F]" 4 h4)
	if(NOT TA_UUID MATCHES "^${h4}${h4}-${h4}-${h4}-${h4}-${h4}${h4}${h4}$")
		message(FATAL_ERROR "swtee_add_ta(${TA_NAME}): UUID ${TA_UUID} is not a UUID")
	endif()
	string(TOLOWER "${TA_UUID}" uuid)
	if(NOT DEFINED TA_LOG_LEVEL)
		set(TA_LOG_LEVEL 1)
	endif()
	if(NOT TA_SIGN_KEY)
		set(TA_SIGN_KEY "${SWTEE_TA_SIGN_KEY}")
	endif()
	if(NOT TA_OUTPUT_DIRECTORY)
		set(TA_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
	endif()
	set(compat 0)
	if(TA_COMPAT_1_1)
		set(compat 1)
	endif()
	set(instr "")
	set(instr_names "")
	if(TA_SANITIZE)
		list(APPEND instr -fsanitize=${TA_SANITIZE} -fno-omit-frame-pointer)
		string(REPLACE "," ";" san "${TA_SANITIZE}")
		list(APPEND instr_names ${san})
	endif()
	if(TA_COVERAGE)
		list(APPEND instr --coverage)
		list(APPEND instr_names coverage)
	endif()

	add_library(${TA_NAME} MODULE ${TA_SOURCES} "${SWTEE_TA_DEV_KIT_DIR}/src/user_ta_header.c")
	target_include_directories(${TA_NAME} PRIVATE ${TA_INCLUDES} "${SWTEE_TA_DEV_KIT_DIR}/include")
	target_compile_definitions(${TA_NAME} PRIVATE __SWTEE__=1
		__OPTEE_CORE_API_COMPAT_1_1=${compat} TRACE_LEVEL=${TA_LOG_LEVEL}
		CFG_TEE_TA_LOG_LEVEL=${TA_LOG_LEVEL} ${TA_DEFINES})
	if(instr_names)
		list(JOIN instr_names "," instr_names)
		target_compile_definitions(${TA_NAME} PRIVATE
			SWTEE_TA_INSTRUMENTED="${instr_names}")
	endif()
	target_compile_options(${TA_NAME} PRIVATE -fPIC -g ${instr}
		${TA_COMPILE_OPTIONS})
	# As the kit links a TA: its own calls stay inside it (-Bsymbolic), and
	# the static libraries it links export nothing.
	target_link_options(${TA_NAME} PRIVATE ${instr} -Wl,--build-id -Wl,-z,now
		-Wl,-Bsymbolic -Wl,--exclude-libs,ALL)
	target_link_libraries(${TA_NAME} PRIVATE ${TA_LIBS})
	set(mbedtls_config "")
	if(TA_MBEDTLS OR CFG_TA_MBEDTLS)
		swtee_ta_mbedtls(${TA_NAME} mbedtls mbedtls_config)
		target_link_libraries(${TA_NAME} PRIVATE ${mbedtls})
		# Its constructor gives optee_os's mbedTLS its bignum pool.
		target_sources(${TA_NAME} PRIVATE "${SWTEE_TA_DEV_KIT_DIR}/src/mbedtls/tee_mpi_pool.c")
		target_compile_definitions(${TA_NAME} PRIVATE CFG_TA_MBEDTLS=1)
	endif()
	set_target_properties(${TA_NAME} PROPERTIES PREFIX "" SUFFIX ".elf" OUTPUT_NAME ${uuid}
		LIBRARY_OUTPUT_DIRECTORY "${TA_OUTPUT_DIRECTORY}"
		SWTEE_TA_IMAGE "${TA_OUTPUT_DIRECTORY}/${uuid}.ta")
	add_custom_command(TARGET ${TA_NAME} POST_BUILD
		COMMAND sh "${SWTEE_TA_DEV_KIT_DIR}/mk/ta_check.sh" "${CMAKE_NM}" "${CMAKE_OBJCOPY}"
			${uuid} $<TARGET_FILE:${TA_NAME}>
			"${SWTEE_TA_DEV_KIT_DIR}/lib/ta_runtime.syms" "${mbedtls_config}"
		COMMAND "${SWTEE_EXECUTABLE}" sign --key "${TA_SIGN_KEY}" --uuid ${uuid}
			--in $<TARGET_FILE:${TA_NAME}> --out "${TA_OUTPUT_DIRECTORY}/${uuid}.ta"
		COMMENT "Checking and signing TA ${uuid}"
		VERBATIM)
endfunction()
