/*
 * swtee-tpm, the normal-world bridge to the firmware TPM TA: its private
 * header. The bridge is untrusted by the TEE (it is one more client) and
 * trusts none of its own peers: every byte they send goes through
 * frame_parse. One thread serves every peer, one request at a time, each
 * whole before the next (docs/tpm.md).
 */
#ifndef SWTEE_TPM_BRIDGE_H
#define SWTEE_TPM_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "buf.h"
#include "frame.h"

#define TPM_HEADER_SIZE 10
#define TPM_ST_NO_SESSIONS 0x8001
#define TPM_RC_SUCCESS 0x000
#define TPM_RC_FAILURE 0x101
#define TPM_RC_COMMAND_SIZE 0x142
#define TPM_RC_OBJECT_MEMORY 0x902

/* ---- tpm.c: the session to the fTPM TA, and TPM headers ---- */

/* The header of a TPM 2.0 command or response (TPM_HEADER_SIZE bytes, big-endian). */
struct tpm_header {
	uint16_t tag;
	uint32_t size; /* of the whole command or response, as the header claims */
	uint32_t code; /* the command code, or the response code */
};

/* Reads a header from r: false (r failed, *h all zero) when r holds less than one. */
bool tpm_header_get(struct buf_reader *r, struct tpm_header *h);
/* The header at the start of p[0..len): all zero when len is shorter than one. */
struct tpm_header tpm_header_of(const uint8_t *p, size_t len);
/* Writes a header to w: false (w failed) when it does not fit. */
bool tpm_header_put(struct buf_writer *w, const struct tpm_header *h);

/*
 * Opens the session to the fTPM TA of the TEE that $SWTEE_SOCKET names and
 * powers the TPM on (manual_startup: without the TA's own Startup). 0, or
 * -1 after logging why.
 */
int tpm_open(bool manual_startup);
/* Powers the TPM off in order (see TA_FTPM_POWER_OFF) and closes the session. */
void tpm_close(void);

/*
 * Runs one TPM command (cmd, len <= FRAME_TPM_MAX) at a locality and writes
 * the response to rsp (FRAME_TPM_MAX bytes), *rsp_len its size. A TPM that
 * is off, or a command the TA refuses, gets a TPM error response made here
 * (TPM_RC_FAILURE, TPM_RC_COMMAND_SIZE). -1 only when the TEE is gone and
 * cannot be reopened.
 */
int tpm_execute(const uint8_t *cmd, size_t len, uint8_t locality, uint8_t *rsp, size_t *rsp_len);
/* The platform signals; each returns 0 or -1 (the TA refused or failed). */
int tpm_power_on(void);
int tpm_power_off(bool orderly);
int tpm_hash_start(void);
int tpm_hash_data(const uint8_t *data, size_t len);
int tpm_hash_end(void);
int tpm_established_get(bool *set);
int tpm_established_reset(uint8_t locality);

/* ---- rm.c: the transient-object resource manager ---- */

/*
 * Who sent a command: the connection (an id never reused; rm_conn_closed
 * says when it closes) and, on a Unix socket, the peer's process (pid 0
 * when not known) and that process's start time (0: read it when needed),
 * so that a reused pid is not taken for it.
 */
struct rm_owner {
	uint64_t conn;
	pid_t pid;
	uint64_t start;
};

/* The start time of process pid (/proc/PID/stat), 0 when it is gone or unknown. */
uint64_t rm_process_start(pid_t pid);

/*
 * Runs a client's TPM command through tpm_execute. When the TPM is out of
 * object slots (TPM_RC_OBJECT_MEMORY), flushes the least recently used
 * transient object whose owner (the client that created or loaded it) is
 * gone, and runs the command again; when every object still has its owner,
 * the client gets TPM_RC_OBJECT_MEMORY as from a TPM. Same contract as
 * tpm_execute.
 */
int rm_execute(const uint8_t *cmd, size_t len, uint8_t locality, const struct rm_owner *owner,
	       uint8_t *rsp, size_t *rsp_len);
/* The connection of that id is closed: what it holds is held by its process alone. */
void rm_conn_closed(uint64_t conn);
/* Forgets what it learnt of the TPM (after a power cycle). */
void rm_reset(void);

/* ---- listen.c: the sockets ---- */

enum listen_kind { LISTEN_MSSIM, LISTEN_SWTPM, LISTEN_VM };

/*
 * One protocol endpoint: a pair of sockets (mssim command and platform
 * ports, or swtpm data and control channels) at addr: "PORT" or
 * "HOST:PORT" (TCP, the second socket on PORT + 1), or "unix:PATH" or any
 * string with a '/' (Unix sockets PATH and PATH.ctrl). LISTEN_VM: one
 * Unix socket at addr (unix:PATH or PATH), the swtpm control channel as
 * QEMU's tpm-emulator backend drives it; the data channel is the socket
 * QEMU passes with CMD_SET_DATAFD.
 */
struct endpoint {
	enum listen_kind kind;
	const char *addr;
	int fd[2];	    /* [0] command/data, [1] platform/control */
	char *unix_path[2]; /* to unlink at exit */
	uint8_t locality;   /* swtpm: set on the control channel for the data channel */
};

/*
 * Who may reach the bridge. Unix sockets are the bridge's user's only
 * (0600), or with group_set also group gid's (0660, given to the group).
 * TCP addresses, open to every local user whatever the address, only with
 * tcp (--tcp), and each then says so in the log.
 */
struct listen_policy {
	bool tcp;
	bool group_set;
	gid_t gid;
};

/* Binds and listens on e's two sockets. 0, or -1 after logging why. */
int listen_open(struct endpoint *e, const struct listen_policy *p);
/*
 * The directory of the default Unix sockets: $XDG_RUNTIME_DIR/swtee-tpm,
 * else /tmp/swtee-tpm-UID, made when missing and refused unless a directory
 * (not a link) of the bridge's user that no one else may write; then made
 * 0700, or 0710 for p's group. out[n]; 0, or -1 after logging why.
 */
int listen_default_dir(const struct listen_policy *p, char *out, size_t n);
/* Closes them and removes Unix socket files. */
void listen_close(struct endpoint *e);

/* ---- serve.c: the peers ---- */

/*
 * Serves the endpoints until SIGTERM, SIGINT or SIGHUP (signal_fd readable)
 * or until the TEE is gone. 0 on a signal, -1 when the TEE is gone.
 */
int serve_run(struct endpoint *eps, size_t n, int signal_fd);

#endif
