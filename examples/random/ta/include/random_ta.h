#ifndef TA_RANDOM_H
#define TA_RANDOM_H

/* a46e2783-f924-4d21-8208-6992892502f1 */
/* clang-format off */
#define TA_RANDOM_UUID \
	{ 0xa46e2783, 0xf924, 0x4d21, { 0x82, 0x08, 0x69, 0x92, 0x89, 0x25, 0x02, 0xf1 } }
/* clang-format on */

/* memref[0] output: filled with random bytes */
#define TA_RANDOM_CMD_GENERATE 0

#endif
