#ifndef TA_HOTP_H
#define TA_HOTP_H

/* dc8bc37f-94b2-429d-ab78-5ce740beba21 */
/* clang-format off */
#define TA_HOTP_UUID \
	{ 0xdc8bc37f, 0x94b2, 0x429d, { 0xab, 0x78, 0x5c, 0xe7, 0x40, 0xbe, 0xba, 0x21 } }
/* clang-format on */

/* memref[0] input: the shared secret (at most 64 bytes); resets the counter to 0 */
#define TA_HOTP_CMD_REGISTER_SHARED_KEY 0
/* value[0] output: a = the next 6-digit HOTP value; the counter advances */
#define TA_HOTP_CMD_GET_HOTP 1

#endif
