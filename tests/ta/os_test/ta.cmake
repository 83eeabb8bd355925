swtee_add_ta(NAME ta_os_test UUID 59ecbb8e-ed09-428f-9229-5eba4080a8bc
	SOURCES ${CMAKE_CURRENT_LIST_DIR}/ta_os_test.c
	INCLUDES ${CMAKE_CURRENT_LIST_DIR}/include)
