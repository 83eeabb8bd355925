# socket channel parser harnesses (see CMakeLists.txt)
#   sock_policy   the socket policy file swteed --socket-policy reads
#   sock_ta       the core's parsing of a TA instance's socket requests, with
#                 the supplicant's service behind it
#   sock_reply    the core's parsing of tee-supplicant's answers
#   sock_request  tee-supplicant's parsing of the core's requests
# The two that run tee-supplicant's service give it an in-process network
# (sock_fake_net.c) in place of the real calls, by the linker's --wrap.
set(SWTEE_SOCK_FAKE_NET_WRAP -Wl,--wrap=socket -Wl,--wrap=connect -Wl,--wrap=getaddrinfo
	-Wl,--wrap=freeaddrinfo)

swtee_fuzzer(sock_policy SOURCES fuzz_sock_policy.c LIBS swteed_core)
swtee_fuzzer(sock_reply SOURCES fuzz_sock_reply.c LIBS swteed_core)
swtee_fuzzer(sock_ta
	SOURCES fuzz_sock_ta.c sock_fake_net.c ${PROJECT_SOURCE_DIR}/src/supplicant/sock_serve.c
	LIBS swteed_core
	INCLUDES ${PROJECT_SOURCE_DIR}/src/supplicant)
swtee_fuzzer(sock_request
	SOURCES fuzz_sock_request.c sock_fake_net.c ${PROJECT_SOURCE_DIR}/src/supplicant/sock_serve.c
	LIBS swtee_common Threads::Threads
	INCLUDES ${PROJECT_SOURCE_DIR}/src/supplicant ${PROJECT_SOURCE_DIR}/ta_dev_kit/include)

foreach(name sock_ta sock_request)
	target_link_options(replay_${name} PRIVATE ${SWTEE_SOCK_FAKE_NET_WRAP})
	if(SWTEE_FUZZ)
		target_link_options(fuzz_${name} PRIVATE ${SWTEE_SOCK_FAKE_NET_WRAP})
	endif()
endforeach()
