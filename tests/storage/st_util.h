/*
 * What every storage test driver does alike: its lines on stderr prefixed
 * by its name, failures counted for its exit status, errors that end it,
 * its options and its paths. The names have the plain st_ prefix of the
 * storage test helpers, as st_client.h's do.
 */
#ifndef ST_UTIL_H
#define ST_UTIL_H

#include <stddef.h>

/* The driver's name ("storage-crash"), defined by each driver: the prefix of its lines. */
extern const char *const st_who;
/* The failures counted so far: st_fail counts one; a driver may count its own here. */
extern unsigned int st_failures;

/* "WHO: " and the message on stderr, a line; counts one failure. */
void st_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "WHO: " and the message on stderr, a line; exits 1. */
void st_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* snprintf into out[n] that refuses to cut a path short: st_die when it would. */
void st_pathf(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/*
 * The directory of the one store under STATE/ree into out[n] (st_die
 * unless there is exactly one); its name, the TA's directory name, is the
 * part after the last '/'.
 */
void st_store_dir(const char *state, char *out, size_t n);
/* The value of the last "NAME VALUE" pair of argv (the pairs from argv[1] on), or NULL. */
const char *st_arg(int argc, char **argv, const char *name);

#endif
