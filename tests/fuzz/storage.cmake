# storage parser harnesses (see CMakeLists.txt): what tee-supplicant and the
# files of the normal world hand back to the trusted storage engine
# (src/core/storage/, docs/fuzzing.md). All but storage_reply run against
# the fake supplicant and the fixed test keys of fuzz_storage_env.c, and
# the builders of fuzz_storage_build.c.
set(SWTEE_FUZZ_STORAGE_INC ${PROJECT_SOURCE_DIR}/src/core/storage)

swtee_fuzzer(storage_reply
	SOURCES fuzz_storage_reply.c
	LIBS swteed_core
	INCLUDES ${SWTEE_FUZZ_STORAGE_INC})
foreach(NAME rpmb journal dir map sweep requests)
	swtee_fuzzer(storage_${NAME}
		SOURCES fuzz_storage_${NAME}.c fuzz_storage_env.c fuzz_storage_build.c
		LIBS swteed_core
		INCLUDES ${SWTEE_FUZZ_STORAGE_INC})
endforeach()
