set(storage_ta_dir ${CMAKE_CURRENT_LIST_DIR})
swtee_add_ta(NAME ta_storage UUID c5b8deb4-e439-4b92-8b25-fa7300bdf3bd
	SOURCES ${storage_ta_dir}/ta_storage.c INCLUDES ${storage_ta_dir}/include
	${PROJECT_SOURCE_DIR}/src/tools/bench/include)
swtee_add_ta(NAME ta_storage2 UUID cc76674c-54ec-4384-a624-2b541d025629
	SOURCES ${storage_ta_dir}/ta_storage.c
	INCLUDES ${storage_ta_dir}/storage2 ${storage_ta_dir}/include
	${PROJECT_SOURCE_DIR}/src/tools/bench/include)
