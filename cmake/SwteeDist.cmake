# What a system TEE needs beside the programs: the systemd units, the users
# (sysusers.d) and directories (tmpfiles.d) of dist/, with the paths of this
# installation in place of dist/'s /usr/local, and the documentation the
# units and man pages point at (share/doc/swtee).
set(SWTEE_SYSTEMD_UNIT_DIR lib/systemd/system CACHE STRING
	"where the systemd units are installed: under the prefix, or an absolute path")
# The login-shell snippet that points tpm2-tools at the system TEE's TPM:
# /etc/profile.d for an installation in /usr or /usr/local (the shells read
# only that), PREFIX/etc/profile.d for any other prefix.
set(SWTEE_PROFILE_DIR "" CACHE STRING
	"where swtee-tpm.sh goes (empty: /etc/profile.d for /usr and /usr/local, else PREFIX/etc/profile.d)")
set(swtee_dist ${PROJECT_SOURCE_DIR}/dist)
install(CODE "
	foreach(f swteed.service:${SWTEE_SYSTEMD_UNIT_DIR}/swteed.service
		tee-supplicant.service:${SWTEE_SYSTEMD_UNIT_DIR}/tee-supplicant.service
		swtee-tpm.service:${SWTEE_SYSTEMD_UNIT_DIR}/swtee-tpm.service
		swtee-tpm.sh:profile.d
		swtee.sysusers:lib/sysusers.d/swtee.conf
		swtee.tmpfiles:lib/tmpfiles.d/swtee.conf)
		string(REPLACE \":\" \";\" pair \"\${f}\")
		list(GET pair 0 from)
		list(GET pair 1 to)
		set(profile \"${SWTEE_PROFILE_DIR}\")
		if(profile STREQUAL \"\")
			if(CMAKE_INSTALL_PREFIX MATCHES \"^/usr(/local)?/?$\")
				set(profile /etc/profile.d)
			else()
				set(profile etc/profile.d)
			endif()
		endif()
		if(to STREQUAL profile.d)
			set(to \"\${profile}/\${from}\")
		endif()
		if(NOT IS_ABSOLUTE \"\${to}\")
			set(to \"\${CMAKE_INSTALL_PREFIX}/\${to}\")
		endif()
		file(READ \"${swtee_dist}/\${from}\" text)
		string(REPLACE \"/usr/local\" \"\${CMAKE_INSTALL_PREFIX}\" text \"\${text}\")
		message(STATUS \"Installing: \$ENV{DESTDIR}\${to}\")
		file(WRITE \"\$ENV{DESTDIR}\${to}\" \"\${text}\")
	endforeach()
")
install(FILES README.md docs/architecture.md docs/benchmarks.md docs/crypto.md
	docs/security.md docs/sockets.md docs/storage.md docs/ta-development.md docs/tpm.md
	DESTINATION ${CMAKE_INSTALL_DOCDIR})
