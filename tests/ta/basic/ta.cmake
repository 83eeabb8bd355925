swtee_add_ta(NAME ta_basic UUID 5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e01
	SOURCES ${CMAKE_CURRENT_LIST_DIR}/ta_basic.c
		${CMAKE_CURRENT_LIST_DIR}/../common/pta_system_client.c
	INCLUDES ${CMAKE_CURRENT_LIST_DIR}/include ${PROJECT_SOURCE_DIR}/src/tools/bench/include ${CMAKE_CURRENT_LIST_DIR}/../common ${CMAKE_CURRENT_LIST_DIR}/../common/include)
