/*
 * A private mount namespace for the storage tests that need a small or a
 * read-only file system under a state dir: as root a mount namespace, as
 * anyone else a user namespace with it (uid and gid mapped to 0). Mounts
 * made here vanish with the last process of the namespace.
 */
#ifndef NS_H
#define NS_H

#include <stdbool.h>
#include <stddef.h>

/* The exit status that tells CTest the test was skipped (SKIP_RETURN_CODE). */
#define NS_SKIP 77

/*
 * Moves the (single-threaded) caller into a private mount namespace. 0, or
 * -1 with the reason in why[n] when this host allows none.
 */
int ns_enter(char *why, size_t n);
/* A tmpfs of kib KiB on dir. 0, or -1 with errno. */
int ns_tmpfs(const char *dir, unsigned long kib);
/* dir bound over itself read-only (ro), or that bind taken off again. 0 or -1. */
int ns_readonly(const char *dir, bool ro);
/*
 * The start of the driver of such a test, after its --client check: the
 * "--swtee PATH --state DIR" of argv into *swtee and *top, DIR emptied,
 * then the caller in a private mount namespace (ns_enter). 0, or the exit
 * status with the reason said: 2 (usage), 1, or NS_SKIP where the host
 * allows no namespace.
 */
int ns_start(int argc, char **argv, const char **swtee, const char **top);

#endif
