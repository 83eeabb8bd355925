swtee_add_ta(NAME ta_hostile UUID 5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e06
	SOURCES ${CMAKE_CURRENT_LIST_DIR}/ta_hostile.c ${CMAKE_CURRENT_LIST_DIR}/forge_storage.c
		${CMAKE_CURRENT_LIST_DIR}/../common/pta_system_client.c
	INCLUDES ${CMAKE_CURRENT_LIST_DIR}/include ${PROJECT_SOURCE_DIR}/src/common
		${CMAKE_CURRENT_LIST_DIR}/../common ${CMAKE_CURRENT_LIST_DIR}/../common/include)
foreach(n 1 2 3 4)
	swtee_add_ta(NAME ta_hostile_shared${n} UUID 5a1f0b7e-3c2d-4e6f-9a81-273b4c5d710${n}
		SOURCES ${CMAKE_CURRENT_LIST_DIR}/ta_hostile.c ${CMAKE_CURRENT_LIST_DIR}/forge_storage.c
			${CMAKE_CURRENT_LIST_DIR}/../common/pta_system_client.c
		INCLUDES ${CMAKE_CURRENT_LIST_DIR}/include ${PROJECT_SOURCE_DIR}/src/common
			${CMAKE_CURRENT_LIST_DIR}/../common ${CMAKE_CURRENT_LIST_DIR}/../common/include
		DEFINES TA_HOSTILE_SHARED=${n})
endforeach()
