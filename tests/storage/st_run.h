/*
 * The drivers of the storage tests run themselves in client mode under
 * "swtee run": st_run starts one such run and waits for it.
 */
#ifndef ST_RUN_H
#define ST_RUN_H

#include <stddef.h>

/* This program's own path, for the client runs. 0 or -1. */
int st_run_self(char *out, size_t n);
/* The TEE logs all it can: swtee run -v -v (the core and the supplicant at debug level). */
#define ST_RUN_VERBOSE 0x1
/* The run's stdout goes to the log too. */
#define ST_RUN_STDOUT 0x2

/*
 * Runs "SWTEE run --state STATE -- SELF --client ARGS..." (args
 * NULL-terminated) and waits for it. With log, the run's stderr (the
 * core's, the supplicant's, the TAs' and the client's lines) is appended
 * to that file. flags: ST_RUN_*. Returns the exit status of the run, or -1.
 */
int st_run(const char *swtee, const char *state, const char *log, int flags,
	   const char *const args[]);
/* Prints the file's last lines to stderr (a failed run's log). */
void st_run_tail(const char *log, int lines);

#endif
