swtee_add_ta(NAME ta_crypto_perf UUID 02a42f43-d8b7-4a57-aa4d-87bd9b5587cb
	SOURCES ${CMAKE_CURRENT_LIST_DIR}/ta_crypto_perf.c
		${CMAKE_CURRENT_LIST_DIR}/crypto_perf_cipher.c
		${CMAKE_CURRENT_LIST_DIR}/crypto_perf_hash.c
		${CMAKE_CURRENT_LIST_DIR}/crypto_perf_asym.c
	INCLUDES ${CMAKE_CURRENT_LIST_DIR}/include)
