/* Where things are: sockets, state, and the installed tree around a tool. */
#ifndef SWTEE_PATHS_H
#define SWTEE_PATHS_H

#include <stddef.h>

#include "must_check.h"

#define SWTEE_PATH_MAX 4096

/*
 * The client socket: $SWTEE_SOCKET, else $XDG_RUNTIME_DIR/swtee/tee.sock,
 * else /tmp/swtee-<uid>/tee.sock. Returns 0, or -1 when it does not fit.
 */
SWTEE_MUST_CHECK int paths_default_socket(char *out, size_t n);
/* The system TEE's client socket (dist/swteed.service). */
#define SWTEE_SYSTEM_SOCKET "/run/swtee/tee.sock"
/* The supplicant socket that goes with a client socket: same dir, supplicant.sock. */
SWTEE_MUST_CHECK int paths_supplicant_socket(const char *client_socket, char *out, size_t n);
/* The directory of the running executable (from /proc/self/exe). */
SWTEE_MUST_CHECK int paths_exe_dir(char *out, size_t n);
/* exe_dir/rel, normalised no further. Returns 0, or -1 when it does not fit. */
SWTEE_MUST_CHECK int paths_sibling(const char *rel, char *out, size_t n);
/* out = dir/name. Returns 0, or -1 when it does not fit. */
SWTEE_MUST_CHECK int paths_join(char *out, size_t n, const char *dir, const char *name);
/*
 * dir/name holds p[0..len) or what it held before, whatever happens meanwhile:
 * written to dir/name.new (mode 0600, never through a link), synced,
 * renamed over dir/name, and dir synced. Returns 0, or -1 with errno (the
 * .new file removed).
 */
SWTEE_MUST_CHECK int paths_replace_file(const char *dir, const char *name, const void *p,
					size_t len);
/* Creates dir and its missing parents with mode (existing ones are kept). */
SWTEE_MUST_CHECK int paths_mkdir_p(const char *dir, unsigned int mode);

#endif
