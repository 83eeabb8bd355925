# swtee_add_ta(NAME <target> UUID <uuid> SOURCES <files>...
#              [INCLUDES <dirs>...] [DEFINES <defs>...] [LIBS <libs>...]
#              [COMPILE_OPTIONS <opts>...] [LOG_LEVEL <0..4>] [COMPAT_1_1]
#              [SANITIZE <address,undefined>] [COVERAGE]
#              [SIGN_KEY <pem>] [OUTPUT_DIRECTORY <dir>])
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
function(swtee_add_ta)
	cmake_parse_arguments(TA "COMPAT_1_1;COVERAGE"
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
	set_target_properties(${TA_NAME} PROPERTIES PREFIX "" SUFFIX ".elf" OUTPUT_NAME ${uuid}
		LIBRARY_OUTPUT_DIRECTORY "${TA_OUTPUT_DIRECTORY}"
		SWTEE_TA_IMAGE "${TA_OUTPUT_DIRECTORY}/${uuid}.ta")
	add_custom_command(TARGET ${TA_NAME} POST_BUILD
		COMMAND sh "${SWTEE_TA_DEV_KIT_DIR}/mk/ta_check.sh" "${CMAKE_NM}" "${CMAKE_OBJCOPY}"
			${uuid} $<TARGET_FILE:${TA_NAME}>
			"${SWTEE_TA_DEV_KIT_DIR}/lib/ta_runtime.syms"
		COMMAND "${SWTEE_EXECUTABLE}" sign --key "${TA_SIGN_KEY}" --uuid ${uuid}
			--in $<TARGET_FILE:${TA_NAME}> --out "${TA_OUTPUT_DIRECTORY}/${uuid}.ta"
		COMMENT "Checking and signing TA ${uuid}"
		VERBATIM)
endfunction()
