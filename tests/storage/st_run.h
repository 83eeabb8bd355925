/*
 * The drivers of the storage tests run themselves in client mode under
 * "swtee run": st_run starts one such run and waits for it. And the
 * processes and commands around those runs.
 */
#ifndef ST_RUN_H
#define ST_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

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
/*
 * One step of a driver: st_run with flags 0. Says "WHO: WHAT: passed" on
 * stdout, or "WHO: WHAT: failed (exit N)" and the log's last 60 lines on
 * stderr (WHO: st_who). Whether the run passed.
 */
bool st_run_step(const char *swtee, const char *state, const char *log, const char *what,
		 const char *const args[]);

/*
 * Runs the command fmt makes, as printf, with system(). Returns system()'s
 * status (0: the command exited 0), or -1 for a command too long to run.
 */
int st_run_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for a command that must work: st_die("failed: COMMAND") when it does not. */
void st_run_sh_or_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The pid of the child of parent whose name (/proc/PID/comm) is comm, or 0. */
pid_t st_run_child(pid_t parent, const char *comm);

#endif
