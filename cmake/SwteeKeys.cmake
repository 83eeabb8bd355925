# The development TA signing key is made on first configure and never
# committed. Its public half is compiled into swteed.
set(SWTEE_KEY_DIR ${CMAKE_BINARY_DIR}/keys)
set(SWTEE_TA_SIGN_KEY ${SWTEE_KEY_DIR}/default_ta.pem)
set(SWTEE_TA_PUB_KEY ${SWTEE_KEY_DIR}/default_ta.pub.pem)
if(NOT EXISTS ${SWTEE_TA_SIGN_KEY})
	find_program(OPENSSL_BIN openssl REQUIRED)
	file(MAKE_DIRECTORY ${SWTEE_KEY_DIR})
	execute_process(COMMAND ${OPENSSL_BIN} genpkey -algorithm RSA
			-pkeyopt rsa_keygen_bits:3072 -out ${SWTEE_TA_SIGN_KEY}
		RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
	if(NOT rc EQUAL 0)
		message(FATAL_ERROR "could not generate the development TA key")
	endif()
	execute_process(COMMAND ${OPENSSL_BIN} pkey -in ${SWTEE_TA_SIGN_KEY}
			-pubout -out ${SWTEE_TA_PUB_KEY}
		RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
	if(NOT rc EQUAL 0)
		message(FATAL_ERROR "could not extract the development TA public key")
	endif()
	file(CHMOD ${SWTEE_TA_SIGN_KEY} PERMISSIONS OWNER_READ OWNER_WRITE)
endif()
