#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <ta_socket.h>

#ifdef TA_SOCKET_TWIN
#define TA_UUID TA_SOCKET_TWIN_UUID
#else
#define TA_UUID TA_SOCKET_UUID
#endif
#define TA_FLAGS 0
#define TA_STACK_SIZE TA_SOCKET_STACK_SIZE
#define TA_DATA_SIZE TA_SOCKET_DATA_SIZE
#define TA_VERSION "1.0"
#define TA_DESCRIPTION "GP Sockets API test TA"

#endif
