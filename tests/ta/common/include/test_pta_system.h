/*
 * The modes of the test TAs' system pseudo-TA command (TA_BASIC_CMD_PTA_SYSTEM,
 * TA_HOSTILE_CMD_PTA_SYSTEM), shared by the TAs and xtest.
 */
#ifndef TEST_PTA_SYSTEM_H
#define TEST_PTA_SYSTEM_H

#define PTA_SYSTEM_CLIENT_KEY 0	       /* key of p[1].size from extra p[0], via a private buffer */
#define PTA_SYSTEM_CLIENT_KEY_SHARED 1 /* the same, straight into the client's p[1] */
#define PTA_SYSTEM_CLIENT_ENTROPY 2    /* adds p[0] as RNG entropy */

#endif
