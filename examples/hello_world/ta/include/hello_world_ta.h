/* What the hello_world TA and its client share: the UUID and the commands. */
#ifndef TA_HELLO_WORLD_H
#define TA_HELLO_WORLD_H

/* 42e9bdc6-1133-4040-8ad9-bc069848aa89 */
/* clang-format off */
#define TA_HELLO_WORLD_UUID \
	{ 0x42e9bdc6, 0x1133, 0x4040, { 0x8a, 0xd9, 0xbc, 0x06, 0x98, 0x48, 0xaa, 0x89 } }
/* clang-format on */

/* value[0] inout: a is incremented */
#define TA_HELLO_WORLD_CMD_INC_VALUE 0
/* value[0] inout: a is decremented */
#define TA_HELLO_WORLD_CMD_DEC_VALUE 1

#endif
