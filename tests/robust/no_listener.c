/*
 * robust.no_listener: a TEE started under a seccomp filter that has a
 * listener already, as some container runtimes install. A TA sandbox then
 * gets no listener of its own (the kernel allows one per filter chain), so
 * a TA library the TA does not link cannot be loaded once it runs: dlopen
 * must fail with a message and the TA carry on, every linked library still
 * working.
 *
 *   no_listener wrap CMD [ARGS...]  runs CMD under such a filter, holding
 *                                   its listener until CMD ends
 *   no_listener client              the TA's side of the check (under CMD)
 */
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "ta_shlib.h"

static int wrap(char **argv)
{
	/* Allows everything; only vhangup(2), which nothing here makes, goes to the listener. */
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int status = 0;
	pid_t pid = 0;

	if (!ctx || seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(vhangup), 0) ||
	    seccomp_load(ctx) || seccomp_notify_fd(ctx) < 0) {
		fprintf(stderr, "no_listener: cannot load a filter with a listener\n");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		close(seccomp_notify_fd(ctx));
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	seccomp_release(ctx);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int client(void)
{
	const TEEC_UUID uuid = TA_SHLIB_UUID;
	TEEC_Context ctx;
	TEEC_Session s;
	TEEC_Operation op;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;
	int rc = 1;

	memset(&op, 0, sizeof(op));
	if (TEEC_InitializeContext(NULL, &ctx))
		return 1;
	if (TEEC_OpenSession(&ctx, &s, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig))
		goto out;
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 3;
	res = TEEC_InvokeCommand(&s, TA_SHLIB_CMD_DL_CALL, &op, &orig);
	if (res != TEEC_ERROR_ITEM_NOT_FOUND) {
		fprintf(stderr, "no_listener: dlopen of an unlinked library gave 0x%08x\n", res);
		goto close;
	}
	op.params[0].value.b = 7;
	res = TEEC_InvokeCommand(&s, TA_SHLIB_CMD_CALL, &op, &orig);
	if (res || op.params[1].value.a != 3 + 3 * 7) {
		fprintf(stderr, "no_listener: the linked libraries no longer answer (0x%08x)\n",
			res);
		goto close;
	}
	rc = 0;
close:
	TEEC_CloseSession(&s);
out:
	TEEC_FinalizeContext(&ctx);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "wrap"))
		return wrap(argv + 2);
	if (argc == 2 && !strcmp(argv[1], "client"))
		return client();
	fprintf(stderr, "usage: no_listener wrap CMD [ARGS...] | no_listener client\n");
	return 2;
}
