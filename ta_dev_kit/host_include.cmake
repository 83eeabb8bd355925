# host_include/, OP-TEE's name for the headers and configuration a host
# program built against a TA developer kit takes from it (optee_test's xtest
# compiles with -I$(TA_DEV_KIT_DIR)/host_include -include conf.h). It holds
# the kit's include/*.h and swtee's configuration: conf.mk, written by hand,
# and conf.h and conf.cmake, made from it here so the three never disagree.

# swtee_conf_lines(CONF_MK OUT_H OUT_CMAKE): reads CONF_MK's CFG_<name>=<value>
# lines (y, n or a number) into the text of conf.h and conf.cmake, in
# OP-TEE's forms. Any other line that is not a comment or blank stops the
# configuration: a typo must not turn an option off in silence.
function(swtee_conf_lines conf_mk out_h out_cmake)
	file(STRINGS ${conf_mk} lines)
	set(h "/* swtee's configuration, made from conf.mk (which says why). */\n")
	string(APPEND h "#ifndef SWTEE_HOST_INCLUDE_CONF_H\n#define SWTEE_HOST_INCLUDE_CONF_H\n")
	set(cm "# swtee's configuration, made from conf.mk (which says why).\n")
	foreach(line IN LISTS lines)
		if(line MATCHES "^[ \t]*(#.*)?$")
			continue()
		endif()
		if(NOT line MATCHES "^(CFG_[A-Z0-9_]+)=(y|n|[0-9]+)$")
			message(FATAL_ERROR "${conf_mk}: not CFG_<NAME>=y|n|<number>: '${line}'")
		endif()
		set(name ${CMAKE_MATCH_1})
		set(value ${CMAKE_MATCH_2})
		if(value STREQUAL "n")
			string(APPEND h "/* ${name} is not set */\n")
			string(APPEND cm "# ${name} is not set\n")
		elseif(value STREQUAL "y")
			string(APPEND h "#define ${name} 1\n")
			string(APPEND cm "set(${name} y)\n")
		else()
			string(APPEND h "#define ${name} ${value}\n")
			string(APPEND cm "set(${name} ${value})\n")
		endif()
	endforeach()
	string(APPEND h "#endif\n")
	set(${out_h} "${h}" PARENT_SCOPE)
	set(${out_cmake} "${cm}" PARENT_SCOPE)
endfunction()

# swtee_host_include(SRC_DIR DEST GEN_DIR): DEST (the build tree's
# host_include) made afresh, so a header removed from include/ leaves no
# dangling link: links to include/'s headers and folders (sys/), to
# host_include/'s own files, and
# the generated conf.h and conf.cmake, also written to GEN_DIR for install.
function(swtee_host_include src dest gen)
	file(REMOVE_RECURSE ${dest})
	file(MAKE_DIRECTORY ${dest} ${gen})
	file(GLOB headers LIST_DIRECTORIES true CONFIGURE_DEPENDS ${src}/include/*)
	file(GLOB own CONFIGURE_DEPENDS ${src}/host_include/*)
	foreach(f IN LISTS headers own)
		get_filename_component(name ${f} NAME)
		file(CREATE_LINK ${f} ${dest}/${name} SYMBOLIC)
	endforeach()
	set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
		${src}/host_include/conf.mk)
	swtee_conf_lines(${src}/host_include/conf.mk h cm)
	file(CONFIGURE OUTPUT ${gen}/conf.h CONTENT "${h}" @ONLY)
	file(CONFIGURE OUTPUT ${gen}/conf.cmake CONTENT "${cm}" @ONLY)
	file(CREATE_LINK ${gen}/conf.h ${dest}/conf.h SYMBOLIC)
	file(CREATE_LINK ${gen}/conf.cmake ${dest}/conf.cmake SYMBOLIC)
endfunction()
