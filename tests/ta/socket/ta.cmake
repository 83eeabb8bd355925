swtee_add_ta(NAME ta_socket UUID 6b0e3a52-8d1f-4c7a-b2e9-41d5a0c3f7e8
	SOURCES ${CMAKE_CURRENT_LIST_DIR}/ta_socket.c
	INCLUDES ${CMAKE_CURRENT_LIST_DIR}/include)
# The twin: the same TA under another UUID, for the socket policy's tests.
swtee_add_ta(NAME ta_socket_twin UUID abfa6b3d-855b-4085-a2ab-acc4b7adb70c
	SOURCES ${CMAKE_CURRENT_LIST_DIR}/ta_socket.c
	INCLUDES ${CMAKE_CURRENT_LIST_DIR}/include
	DEFINES TA_SOCKET_TWIN
	NO_INSTALL)
