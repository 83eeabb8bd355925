/*
 * xtest: the swtee regression and benchmark runner, with OP-TEE's command
 * line and report format.
 *
 *	xtest [-d <TEE-id>] [-l <level>] [-t <suite>[+suite...]] [--json FILE]
 *	      [[-x] <test-id>]...
 *	xtest --aes-perf | --hash-perf | --sha-perf | --asym-perf [applet options]
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adbg_int.h"
#include "xtest_helpers.h"
#include "xtest_perf.h"

#define XTEST_MAX_LEVEL 15

struct xtest_applet {
	const char *name;
	int (*run)(int argc, char *argv[]);
};

/* Suites swtee runs, and suites OP-TEE has that swtee does not. */
static const char *const xtest_suites[] = {"regression", "benchmark"};
static const char *const xtest_absent_suites[] = {"gp", "pkcs11", "ffa_spmc"};

/* OP-TEE applets that need OP-TEE internals (PTAs, SDP, PKCS#11). */
static const char *const xtest_absent_applets[] = {
    "--sdp-basic",
    "--stats",
    "--clear-storage",
    "--pkcs11-1028-destroy-token-object",
};

static int xtest_applet_missing(const char *applet)
{
	fprintf(stderr, "xtest: %s is not built in\n", applet);
	return 1;
}

/* Stand-ins until the perf applets are linked in; their definitions win. */
__attribute__((weak)) int aes_perf_runner_cmd_parser(int argc, char *argv[])
{
	return xtest_applet_missing(argc > 0 ? argv[0] : "--aes-perf");
}

__attribute__((weak)) int hash_perf_runner_cmd_parser(int argc, char *argv[])
{
	return xtest_applet_missing(argc > 0 ? argv[0] : "--hash-perf");
}

__attribute__((weak)) int asym_perf_runner_cmd_parser(int argc, char *argv[])
{
	return xtest_applet_missing(argc > 0 ? argv[0] : "--asym-perf");
}

static const struct xtest_applet xtest_applets[] = {
    {"--install-ta", install_ta_runner_cmd_parser},
    {"--aes-perf", aes_perf_runner_cmd_parser},
    {"--hash-perf", hash_perf_runner_cmd_parser},
    {"--sha-perf", hash_perf_runner_cmd_parser}, /* OP-TEE's older name */
    {"--asym-perf", asym_perf_runner_cmd_parser},
};

#define XTEST_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void xtest_usage(FILE *out, const char *prog)
{
	fprintf(out,
		"Usage: %s [options] [[-x] <test-id>]...\n"
		"       %s <applet> [applet options]\n"
		"\n"
		"options:\n"
		"  -d <TEE-id>        TEE to use (TEEC_InitializeContext name); default: any\n"
		"  -l <level>         test level 0..15; > 0 adds long and exhaustive tests\n"
		"                     (default 0)\n"
		"  -t <suite>[+...]   test suites to run: regression, benchmark\n"
		"                     (default regression)\n"
		"  <test-id>          run only cases whose name contains it: \"1001\", \"_4\",\n"
		"                     \"4006\" (4006_rsa, 4006_dsa, ...); several are OR-ed\n"
		"  -x <test-id>       leave out cases whose name contains it\n"
		"  --json <file>      also write the results as JSON (swtee extension):\n"
		"                     suites, cases, subcases with their first error,\n"
		"                     durations and the figures benchmarks report\n"
		"  -h, --help         show this help\n"
		"\n"
		"applets (must come first):\n"
		"  --aes-perf [-h]    AES/SM4 cipher performance\n"
		"  --hash-perf [-h]   hash performance (--sha-perf is an alias)\n"
		"  --asym-perf [-h]   asymmetric crypto performance\n"
		"  --install-ta DIR|FILE...  signed TA images into the TEE's secure dir\n"
		"\n"
		"Exit status is 0 when no test case failed. Run against a private TEE with:\n"
		"  swtee run -- %s ...\n",
		prog, prog, prog);
}

static bool xtest_in(const char *s, const char *const *set, size_t n)
{
	size_t i = 0;

	for (i = 0; i < n; i++)
		if (strcmp(s, set[i]) == 0)
			return true;
	return false;
}

static bool xtest_parse_level(const char *arg, int *level)
{
	char *end = NULL;
	long v = 0;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0 || v > XTEST_MAX_LEVEL) {
		fprintf(stderr, "xtest: -l wants a level from 0 to %d, not \"%s\"\n",
			XTEST_MAX_LEVEL, arg);
		return false;
	}
	*level = (int)v;
	return true;
}

/*
 * Splits "regression+benchmark" into the suites to run, in order, without
 * repeats. Suites OP-TEE has and swtee lacks are announced and dropped;
 * unknown names are an error. suites[] has room for every known suite.
 */
static bool xtest_parse_suites(const char *arg, const char *suites[], size_t *n)
{
	const char *p = arg;

	*n = 0;
	for (;;) {
		size_t len = strcspn(p, "+");
		size_t i = 0;
		bool found = false;

		for (i = 0; i < XTEST_ARRAY_SIZE(xtest_suites); i++) {
			if (strlen(xtest_suites[i]) == len && !strncmp(p, xtest_suites[i], len)) {
				found = true;
				if (!xtest_in(xtest_suites[i], suites, *n))
					suites[(*n)++] = xtest_suites[i];
			}
		}
		for (i = 0; !found && i < XTEST_ARRAY_SIZE(xtest_absent_suites); i++) {
			if (strlen(xtest_absent_suites[i]) == len &&
			    !strncmp(p, xtest_absent_suites[i], len)) {
				found = true;
				printf("xtest: suite %s is not available in swtee; skipped\n",
				       xtest_absent_suites[i]);
			}
		}
		if (!found && !len) {
			fprintf(stderr, "xtest: empty suite name in -t %s\n", arg);
			return false;
		}
		if (!found) {
			fprintf(stderr,
				"xtest: unknown test suite \"%.*s\" in -t %s "
				"(known: regression, benchmark)\n",
				(int)len, p, arg);
			return false;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	if (!*n) {
		fprintf(stderr,
			"xtest: nothing to run: -t %s names no suite swtee has "
			"(known: regression, benchmark)\n",
			arg);
		return false;
	}
	return true;
}

/* Everything the command line asks for; the arrays point into argv. */
struct xtest_cmdline {
	int level;
	const char *json_path;
	const char *suites[XTEST_ARRAY_SIZE(xtest_suites)];
	size_t n_suites;
	const char **include;
	size_t n_include;
	const char **exclude;
	size_t n_exclude;
};

static void xtest_cmdline_free(struct xtest_cmdline *cl)
{
	free(cl->include);
	free(cl->exclude);
}

/* Returns -1 to go on, otherwise the exit status (after -h or an error). */
static int xtest_parse_args(int argc, char *argv[], struct xtest_cmdline *cl)
{
	static const struct option longopts[] = {
	    {"json", required_argument, NULL, 'j'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	size_t cap = (size_t)argc;
	const char *suite_arg = "regression";
	int opt = 0;
	int i = 0;

	cl->include = calloc(cap, sizeof(*cl->include));
	cl->exclude = calloc(cap, sizeof(*cl->exclude));
	if (!cl->include || !cl->exclude) {
		fputs("xtest: out of memory\n", stderr);
		return EXIT_FAILURE;
	}

	while ((opt = getopt_long(argc, argv, "d:l:t:x:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			xtest_tee_name = optarg;
			break;
		case 'l':
			if (!xtest_parse_level(optarg, &cl->level))
				return EXIT_FAILURE;
			break;
		case 't':
			suite_arg = optarg;
			break;
		case 'x':
			cl->exclude[cl->n_exclude++] = optarg;
			break;
		case 'j':
			cl->json_path = optarg;
			break;
		case 'h':
			xtest_usage(stdout, argv[0]);
			return EXIT_SUCCESS;
		default:
			xtest_usage(stderr, argv[0]);
			return EXIT_FAILURE;
		}
	}
	/* getopt_long has moved the test ids behind the options, in their order. */
	for (i = optind; i < argc; i++)
		cl->include[cl->n_include++] = argv[i];
	if (!xtest_parse_suites(suite_arg, cl->suites, &cl->n_suites))
		return EXIT_FAILURE;
	return -1;
}

/* Runs argv[1] as an applet if it names one: returns true and its exit status. */
static bool xtest_run_applet(int argc, char *argv[], int *status)
{
	size_t i = 0;

	if (argc < 2)
		return false;
	for (i = 0; i < XTEST_ARRAY_SIZE(xtest_applets); i++) {
		if (strcmp(argv[1], xtest_applets[i].name) == 0) {
			*status = xtest_applets[i].run(argc - 1, argv + 1);
			return true;
		}
	}
	if (xtest_in(argv[1], xtest_absent_applets, XTEST_ARRAY_SIZE(xtest_absent_applets))) {
		fprintf(stderr, "xtest: %s is not available in swtee\n", argv[1]);
		*status = EXIT_FAILURE;
		return true;
	}
	return false;
}

static int xtest_run(const struct xtest_cmdline *cl)
{
	struct adbg_options opt = {
	    .include = cl->include,
	    .n_include = cl->n_include,
	    .exclude = cl->exclude,
	    .n_exclude = cl->n_exclude,
	};
	struct adbg_suite_result results[XTEST_ARRAY_SIZE(xtest_suites)] = {0};
	size_t n_results = 0;
	size_t passed = 0;
	size_t failed = 0;
	size_t skipped = 0;
	int status = EXIT_FAILURE;
	TEEC_Result res = TEEC_ERROR_GENERIC;
	size_t i = 0;

	printf("Run test suite with level=%d\n", cl->level);
	printf("\nTEE test application started over %s TEE instance\n",
	       xtest_tee_name ? xtest_tee_name : "the default");

	res = xtest_teec_ctx_init();
	if (res != TEEC_SUCCESS) {
		fprintf(stderr,
			"xtest: no TEE is reachable (TEEC_InitializeContext: 0x%08x). "
			"Start one with: swtee run -- xtest ...\n",
			(unsigned int)res);
		return EXIT_FAILURE;
	}

	for (i = 0; i < cl->n_suites; i++) {
		if (!adbg_run_suite(cl->suites[i], &opt, &results[n_results])) {
			fputs("xtest: out of memory\n", stderr);
			goto out;
		}
		adbg_suite_result_count(&results[n_results], &passed, &failed, &skipped);
		n_results++;
	}

	printf("xtest: %zu passed, %zu failed, %zu skipped\n", passed, failed, skipped);
	printf("TEE test application done!\n");
	status = failed ? EXIT_FAILURE : EXIT_SUCCESS;
	if (cl->json_path && !adbg_json_write(cl->json_path, results, n_results))
		status = EXIT_FAILURE;
out:
	xtest_teec_ctx_deinit();
	for (i = 0; i < n_results; i++)
		adbg_suite_result_free(&results[i]);
	return status;
}

int main(int argc, char *argv[])
{
	struct xtest_cmdline cl = {0};
	int status = -1;

	/* Line-buffered, so the report interleaves in order with what cases print. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* A TEE that goes away must fail a check, not kill the run. */
	signal(SIGPIPE, SIG_IGN);

	if (xtest_run_applet(argc, argv, &status))
		return status;

	status = xtest_parse_args(argc, argv, &cl);
	if (status < 0) {
		if (!adbg_registry_check()) {
			status = EXIT_FAILURE;
		} else {
			adbg_set_level(cl.level);
			status = xtest_run(&cl);
		}
	}
	xtest_cmdline_free(&cl);
	return status;
}
