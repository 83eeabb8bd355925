# How client applications and TA projects outside this tree find swtee, in
# the build tree as once installed:
#   - TEEC_EXPORT, OP-TEE's way: a directory with include/ and lib/. The
#     install prefix is one; in the build tree, build/teec_export.
#   - pkg-config teec: build/lib/pkgconfig/teec.pc names build/include,
#     made here as a link to the public headers.
#   - CMake: find_package(swtee) with swtee::teec and swtee_add_ta(), from
#     lib/cmake/swtee (build/lib/cmake/swtee in the build tree).
set(export ${CMAKE_BINARY_DIR}/teec_export)
file(MAKE_DIRECTORY ${export}/lib)
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/include ${export}/include SYMBOLIC)
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/include ${CMAKE_BINARY_DIR}/include SYMBOLIC)
foreach(name libteec.so libteec.so.2)
	file(CREATE_LINK ../../lib/${name} ${export}/lib/${name} SYMBOLIC)
endforeach()

set(pkg_build ${CMAKE_BINARY_DIR}/lib/cmake/swtee)
set(pkg_install lib/cmake/swtee)
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${pkg_build}/swteeConfigVersion.cmake
	VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
configure_file(${CMAKE_CURRENT_LIST_DIR}/package/swteeTA.cmake ${pkg_build}/swteeTA.cmake COPYONLY)
# One config for each tree: they differ in where the kit is.
set(SWTEE_PKG_KIT_DIR ta_dev_kit)
configure_file(${CMAKE_CURRENT_LIST_DIR}/package/swteeConfig.cmake.in
	${pkg_build}/swteeConfig.cmake @ONLY)
set(SWTEE_PKG_KIT_DIR ${CMAKE_INSTALL_DATADIR}/swtee/ta_dev_kit)
configure_file(${CMAKE_CURRENT_LIST_DIR}/package/swteeConfig.cmake.in
	${CMAKE_CURRENT_BINARY_DIR}/swteeConfig-install.cmake @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/swteeConfig-install.cmake
	DESTINATION ${pkg_install} RENAME swteeConfig.cmake)
install(FILES ${pkg_build}/swteeConfigVersion.cmake
	${CMAKE_CURRENT_LIST_DIR}/package/swteeTA.cmake DESTINATION ${pkg_install})
