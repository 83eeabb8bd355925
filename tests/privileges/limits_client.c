/*
 * A client for privileges.limits: takes what one user may hold, prints what
 * it got, then holds it until its standard input closes.
 *   limits_client conns N      N connections, a session on the basic TA each
 *   limits_client sessions N single|multi
 *                              N sessions on one connection, on a
 *                              single-instance TA or on one whose every
 *                              session is a process of its own
 *   limits_client fanout N     a session on the hostile TA, which opens N
 *                              sessions on the basic TA, TA to TA
 *   limits_client stats N      N sessions on the basic TA, then how many TAs
 *                              the stats pseudo-TA lists for this user
 *   limits_client commit N malloc|mmap|memfd
 *                              the hostile TA commits N MiB that way: "got"
 *                              is 1 if it had it all
 *   limits_client hoard N MIB  the hostile TA holds N memory files of MIB
 *                              MiB each: "got" is the MiB it held
 * Prints "<mode> <how many it got> <the first refusal, hex, or 0>".
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pta_stats.h>

#include <tee_client_api.h>

#include "ta_basic.h"
#include "ta_hostile.h"
#include "ta_sims.h"

#define MAX_HOLD 64

static TEEC_Context ctx[MAX_HOLD];
static TEEC_Session sess[MAX_HOLD];

static TEEC_Result open_on(TEEC_Context *c, TEEC_Session *s, const TEEC_UUID *uuid)
{
	uint32_t orig = 0;

	return TEEC_OpenSession(c, s, uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig);
}

static unsigned conns(unsigned n, TEEC_Result *refusal)
{
	static const TEEC_UUID basic = TA_BASIC_UUID;
	unsigned got = 0;

	for (unsigned i = 0; i < n && !*refusal; i++) {
		*refusal = TEEC_InitializeContext(NULL, &ctx[i]);
		if (!*refusal)
			*refusal = open_on(&ctx[i], &sess[i], &basic);
		if (!*refusal)
			got++;
	}
	return got;
}

static unsigned sessions(unsigned n, const char *kind, TEEC_Result *refusal)
{
	static const TEEC_UUID single = TA_SIMS_UUID;
	static const TEEC_UUID multi = TA_BASIC_UUID;
	unsigned got = 0;

	*refusal = TEEC_InitializeContext(NULL, &ctx[0]);
	for (unsigned i = 0; i < n && !*refusal; i++) {
		*refusal = open_on(&ctx[0], &sess[i], strcmp(kind, "single") ? &multi : &single);
		if (!*refusal)
			got++;
	}
	return got;
}

static unsigned fanout(unsigned n, TEEC_Result *refusal)
{
	static const TEEC_UUID hostile = TA_HOSTILE_UUID;
	/* The basic TA's UUID in its canonical 16 bytes. */
	uint8_t basic[16] = {0x5a, 0x1f, 0x0b, 0x7e, 0x3c, 0x2d, 0x4e, 0x6f,
			     0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6e, 0x01};
	TEEC_Operation op;
	uint32_t orig = 0;

	*refusal = TEEC_InitializeContext(NULL, &ctx[0]);
	if (!*refusal)
		*refusal = open_on(&ctx[0], &sess[0], &hostile);
	if (*refusal)
		return 0;
	memset(&op, 0, sizeof(op));
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = basic;
	op.params[0].tmpref.size = sizeof(basic);
	op.params[1].value.a = n;
	*refusal = TEEC_InvokeCommand(&sess[0], TA_HOSTILE_CMD_RAW_OPEN_TA, &op, &orig);
	if (*refusal)
		return 0;
	*refusal = op.params[1].value.b;
	return op.params[1].value.a;
}

/* The hostile TA's command cmd with value[0] = (a, b): its value[1].a. */
static unsigned hostile_values(uint32_t cmd, uint32_t a, uint32_t b, TEEC_Result *refusal)
{
	static const TEEC_UUID hostile = TA_HOSTILE_UUID;
	TEEC_Operation op;
	uint32_t orig = 0;

	*refusal = TEEC_InitializeContext(NULL, &ctx[0]);
	if (!*refusal)
		*refusal = open_on(&ctx[0], &sess[0], &hostile);
	if (*refusal)
		return 0;
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = a;
	op.params[0].value.b = b;
	*refusal = TEEC_InvokeCommand(&sess[0], cmd, &op, &orig);
	return *refusal ? 0 : op.params[1].value.a;
}

static unsigned commit(unsigned mib, const char *how, TEEC_Result *refusal)
{
	uint32_t way = !strcmp(how, "malloc") ? 0 : !strcmp(how, "mmap") ? 1 : 2;

	return hostile_values(TA_HOSTILE_CMD_COMMIT, mib, way, refusal);
}

static unsigned stats(unsigned n, TEEC_Result *refusal)
{
	static const TEEC_UUID stats_uuid = STATS_UUID;
	struct pta_stats_ta st[MAX_HOLD + 1];
	TEEC_Operation op;
	TEEC_Session s = {0};
	uint32_t orig = 0;

	memset(&op, 0, sizeof(op));
	if (conns(n, refusal) != n)
		return 0;
	*refusal = open_on(&ctx[0], &s, &stats_uuid);
	if (*refusal)
		return 0;
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = st;
	op.params[0].tmpref.size = sizeof(st);
	*refusal = TEEC_InvokeCommand(&s, STATS_CMD_TA_STATS, &op, &orig);
	TEEC_CloseSession(&s);
	return *refusal ? 0 : (unsigned)(op.params[0].tmpref.size / sizeof(st[0]));
}

int main(int argc, char **argv)
{
	TEEC_Result refusal = TEEC_SUCCESS;
	unsigned got = 0;
	unsigned n = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 0;
	char c = 0;

	bool commits = argc > 1 && !strcmp(argv[1], "commit");
	bool hoards = argc > 1 && !strcmp(argv[1], "hoard");

	if (argc < 3 || (n > MAX_HOLD && !commits) ||
	    ((!strcmp(argv[1], "sessions") || commits || hoards) && argc != 4)) {
		fprintf(stderr,
			"usage: limits_client conns|sessions|fanout|stats N [single|multi]\n"
			"       limits_client commit MIB malloc|mmap|memfd\n"
			"       limits_client hoard N MIB\n");
		return 2;
	}
	if (commits)
		got = commit(n, argv[3], &refusal);
	else if (hoards)
		got = hostile_values(TA_HOSTILE_CMD_HOARD, n, (uint32_t)strtoul(argv[3], NULL, 10),
				     &refusal);
	else if (!strcmp(argv[1], "conns"))
		got = conns(n, &refusal);
	else if (!strcmp(argv[1], "sessions"))
		got = sessions(n, argv[3], &refusal);
	else if (!strcmp(argv[1], "stats"))
		got = stats(n, &refusal);
	else
		got = fanout(n, &refusal);
	printf("%s %u %x\n", argv[1], got, refusal);
	fflush(stdout);
	while (read(STDIN_FILENO, &c, 1) > 0)
		;
	return 0;
}
