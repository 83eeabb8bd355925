/* swtee: the user's front door. One subcommand per file, dispatched here. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "run.h"
#include "sign.h"
#include "status.h"

struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *help;
};

static const struct subcommand subcommands[] = {
    {"bench", swtee_bench_main, "measure the TEE against native baselines"},
    {"run", swtee_run_main, "run a command against a private TEE"},
    {"sign", swtee_sign_main, "sign or verify a TA image"},
    {"status", swtee_status_main, "show what the running TEE holds"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: swtee <command> [args]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "  %-8s %s\n", subcommands[i].name, subcommands[i].help);
	fprintf(f, "\n'swtee <command> --help' describes each.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("swtee %s\n", SWTEE_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].main(argc - 1, argv + 1);
	fprintf(stderr, "swtee: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
