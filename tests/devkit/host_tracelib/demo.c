/* Calls the trace library; its traces go to stderr, this line to stdout. */
#include <stdio.h>
#include <string.h>

#include "tracelib.h"

int main(int argc, char *argv[])
{
	int r = 0;

	if (argc == 2 && !strcmp(argv[1], "dump")) {
		tracelib_dump();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "long")) {
		tracelib_long();
		return 0;
	}
	r = tracelib_log(7);
	printf("returned %d, plugin %s\n", r, tracelib_plugin_name());
	return 0;
}
