#ifndef TA_SECURE_STORAGE_H
#define TA_SECURE_STORAGE_H

/* ed9e7a38-2a3b-435b-9689-6272e693841c */
/* clang-format off */
#define TA_SECURE_STORAGE_UUID \
	{ 0xed9e7a38, 0x2a3b, 0x435b, { 0x96, 0x89, 0x62, 0x72, 0xe6, 0x93, 0x84, 0x1c } }
/* clang-format on */

/* memref[0] input: object id; memref[1] input: data. Creates or replaces the object. */
#define TA_SECURE_STORAGE_CMD_WRITE_RAW 0
/* memref[0] input: object id; memref[1] output: data (SHORT_BUFFER gives the size) */
#define TA_SECURE_STORAGE_CMD_READ_RAW 1
/* memref[0] input: object id */
#define TA_SECURE_STORAGE_CMD_DELETE 2

#endif
