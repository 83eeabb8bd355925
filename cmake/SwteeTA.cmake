# swtee_add_ta(NAME <target> UUID <uuid> SOURCES <files...>
#              [INCLUDES <dirs...>] [LIBS <libs...>] [NO_INSTALL])
#
# Builds a Trusted Application as a host shared object linked against the TA
# runtime's exported API, then signs it into ${SWTEE_TA_OUT_DIR}/<uuid>.ta.
#
# The TAs of tests/ (xtest's, the hostile one among them) install as the
# component "test-tas": a plain install has them, the Debian packages, which
# install the default component alone, do not.
function(swtee_ta_component out)
	string(FIND "${CMAKE_CURRENT_SOURCE_DIR}/" "${PROJECT_SOURCE_DIR}/tests/" at)
	if(at EQUAL 0)
		set(${out} test-tas PARENT_SCOPE)
	else()
		set(${out} Unspecified PARENT_SCOPE)
	endif()
endfunction()

function(swtee_add_ta)
	cmake_parse_arguments(TA "NO_INSTALL" "NAME;UUID" "SOURCES;INCLUDES;LIBS;DEFINES" ${ARGN})
	add_library(${TA_NAME} MODULE ${TA_SOURCES}
		${PROJECT_SOURCE_DIR}/ta_dev_kit/src/user_ta_header.c)
	target_include_directories(${TA_NAME} PRIVATE ${TA_INCLUDES}
		${PROJECT_SOURCE_DIR}/ta_dev_kit/include)
	target_compile_definitions(${TA_NAME} PRIVATE ${TA_DEFINES})
	target_link_libraries(${TA_NAME} PRIVATE ${TA_LIBS})
	set_target_properties(${TA_NAME} PROPERTIES
		PREFIX "" OUTPUT_NAME ${TA_UUID}
		LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/ta-elf)
	set(out ${SWTEE_TA_OUT_DIR}/${TA_UUID}.ta)
	add_custom_command(TARGET ${TA_NAME} POST_BUILD
		COMMAND $<TARGET_FILE:swtee> sign --key ${SWTEE_TA_SIGN_KEY}
			--uuid ${TA_UUID} --in $<TARGET_FILE:${TA_NAME}> --out ${out}
		COMMENT "Signing TA ${TA_UUID}")
	add_dependencies(${TA_NAME} swtee)
	if(NOT TA_NO_INSTALL)
		swtee_ta_component(component)
		install(FILES ${out} DESTINATION ${CMAKE_INSTALL_LIBDIR}/swtee/ta COMPONENT ${component})
	endif()
endfunction()

# swtee_add_ta_lib(NAME <target> UUID <uuid> SOURCES <files...>
#                  [INCLUDES <dirs...>] [LIBS <libs...>])
#
# A TA library: a shared object whose soname is its UUID, so that a TA (or
# another TA library) that links the target names it by UUID, signed into
# ${SWTEE_TA_OUT_DIR}/<uuid>.ta, where the core finds it when it loads a TA
# that needs it.
function(swtee_add_ta_lib)
	cmake_parse_arguments(TL "" "NAME;UUID" "SOURCES;INCLUDES;LIBS" ${ARGN})
	add_library(${TL_NAME} SHARED ${TL_SOURCES})
	target_include_directories(${TL_NAME} PRIVATE ${TL_INCLUDES}
		${PROJECT_SOURCE_DIR}/ta_dev_kit/include)
	target_link_libraries(${TL_NAME} PRIVATE ${TL_LIBS})
	target_link_options(${TL_NAME} PRIVATE -Wl,-soname,${TL_UUID} -Wl,--build-id
		-Wl,-z,now -Wl,-Bsymbolic)
	set_target_properties(${TL_NAME} PROPERTIES NO_SONAME ON
		LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/ta-elf)
	set(out ${SWTEE_TA_OUT_DIR}/${TL_UUID}.ta)
	add_custom_command(TARGET ${TL_NAME} POST_BUILD
		COMMAND $<TARGET_FILE:swtee> sign --library --key ${SWTEE_TA_SIGN_KEY}
			--uuid ${TL_UUID} --in $<TARGET_FILE:${TL_NAME}> --out ${out}
		COMMENT "Signing TA library ${TL_UUID}")
	add_dependencies(${TL_NAME} swtee)
	swtee_ta_component(component)
	install(FILES ${out} DESTINATION ${CMAKE_INSTALL_LIBDIR}/swtee/ta COMPONENT ${component})
endfunction()
