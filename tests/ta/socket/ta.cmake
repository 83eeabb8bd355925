swtee_add_ta(NAME ta_socket UUID 6b0e3a52-8d1f-4c7a-b2e9-41d5a0c3f7e8
	SOURCES ${CMAKE_CURRENT_LIST_DIR}/ta_socket.c
	INCLUDES ${CMAKE_CURRENT_LIST_DIR}/include)
