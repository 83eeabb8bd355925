swtee_add_ta_lib(NAME ta_shlib_base UUID 5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6f02
	SOURCES ${CMAKE_CURRENT_LIST_DIR}/lib_base.c
	INCLUDES ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_CURRENT_LIST_DIR}/include)
swtee_add_ta_lib(NAME ta_shlib_top UUID 5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6f01
	SOURCES ${CMAKE_CURRENT_LIST_DIR}/lib_top.c
	INCLUDES ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_CURRENT_LIST_DIR}/include
	LIBS ta_shlib_base)
swtee_add_ta(NAME ta_shlib UUID 5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e10
	SOURCES ${CMAKE_CURRENT_LIST_DIR}/ta_shlib.c
	INCLUDES ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_CURRENT_LIST_DIR}/include
	LIBS ta_shlib_top)
# Not linked by the TA: loaded with dlopen() at run time.
swtee_add_ta_lib(NAME ta_shlib_dl UUID 5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6f03
	SOURCES ${CMAKE_CURRENT_LIST_DIR}/lib_dl.c
	INCLUDES ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_CURRENT_LIST_DIR}/include
	LIBS ta_shlib_base)
