/*
 * Prints the identity a TA sees for this process: "<login hex> <uuid>", or
 * "error <result hex>" when the open is refused. Used by test_users.sh.
 * usage: login_identity public|user|group GID|app
 *        login_identity app-after-exec PROGRAM
 * The second connects, forks, and execs PROGRAM (with no arguments but
 * "1"); the child, still this program, opens the APPLICATION session on the
 * connection and prints what it got (app_identity.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "ta_props.h"

/* The parent becomes program; the child returns 0 once the parent has exec'd it. */
static int after_exec(const char *program)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid > 0) {
		execl(program, program, "1", (char *)NULL);
		_exit(127);
	}
	usleep(200 * 1000);
	return 0;
}

int main(int argc, char **argv)
{
	static const TEEC_UUID uuid = TA_PROPS_UUID;
	TEEC_Context ctx;
	TEEC_Session s;
	TEEC_Operation op;
	uint8_t id[16];
	uint32_t login = TEEC_LOGIN_PUBLIC;
	uint32_t orig = 0;
	gid_t gid = 0;
	TEEC_Result res = 0;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "user"))
		login = TEEC_LOGIN_USER;
	else if (!strcmp(argv[1], "group") && argc == 3)
		login = TEEC_LOGIN_GROUP, gid = (gid_t)strtoul(argv[2], NULL, 10);
	else if (!strcmp(argv[1], "app") || !strcmp(argv[1], "app-after-exec"))
		login = TEEC_LOGIN_APPLICATION;
	res = TEEC_InitializeContext(NULL, &ctx);
	if (res) {
		printf("error %08x\n", res);
		return 1;
	}
	if (!strcmp(argv[1], "app-after-exec") && argc == 3 && after_exec(argv[2]))
		return 1;
	res = TEEC_OpenSession(&ctx, &s, &uuid, login, login == TEEC_LOGIN_GROUP ? &gid : NULL,
			       NULL, &orig);
	if (res) {
		printf("error %08x\n", res);
		TEEC_FinalizeContext(&ctx);
		return 1;
	}
	memset(&op, 0, sizeof(op));
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[1].tmpref.buffer = id;
	op.params[1].tmpref.size = sizeof(id);
	res = TEEC_InvokeCommand(&s, TA_PROPS_CMD_IDENTITY, &op, &orig);
	if (res) {
		printf("error %08x\n", res);
	} else {
		printf("%x ", op.params[0].value.a);
		for (int i = 0; i < 16; i++)
			printf("%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", id[i]);
		printf("\n");
	}
	TEEC_CloseSession(&s);
	TEEC_FinalizeContext(&ctx);
	return res ? 1 : 0;
}
