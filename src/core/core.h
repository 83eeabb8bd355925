/*
 * swteed, the TEE core: its private types. The core is one thread around an
 * epoll loop; every peer (client, TA instance, zygote, supplicant) is an
 * endpoint in that loop and is treated as hostile.
 */
#ifndef SWTEE_CORE_H
#define SWTEE_CORE_H

#include <openssl/evp.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>

#include "buf.h"
#include "elf_dyn.h"
#include "msg.h"
#include "proto.h"
#include "uuid.h"

struct ta_libs;

enum endpoint_kind {
	EP_LISTEN_CLIENT,
	EP_LISTEN_SUPPLICANT,
	EP_CLIENT,
	EP_SUPPLICANT,
	EP_ZYGOTE,
	EP_INSTANCE,
	EP_TA_LISTENER, /* an instance's seccomp listener (ta_dlopen.c) */
	EP_TA_OUTPUT,
	EP_SIGNAL,
};

struct endpoint {
	enum endpoint_kind kind;
	int fd;
	void *owner;
};

#define CLIENT_MAX_GROUPS 64

/* What the kernel says about a client, read when it connects. */
/*
 * Where an exec put a process's code, stack, arguments and environment
 * (/proc/PID/stat): new at every exec (address space randomisation), the
 * same in a child forked since.
 */
#define CLIENT_LAYOUT_FIELDS 10

struct client_facts {
	struct ucred cred;
	char exe[4096];
	bool exe_ok; /* false: /proc/PID/exe was not ours to read */
	uint64_t layout[CLIENT_LAYOUT_FIELDS];
	bool layout_ok; /* false: not ours to read */
	uint32_t groups[CLIENT_MAX_GROUPS];
	size_t ngroups;
};

#define CLIENT_NONCE_SIZE PROTO_NONCE_SIZE

struct client {
	struct endpoint ep;
	struct ucred cred;
	struct client_facts facts;
	uint32_t nsessions; /* sessions it holds */
	/* Sent on MSG_CORE_NONCE, after facts were read; an open by executable echoes it. */
	uint8_t nonce[CLIENT_NONCE_SIZE];
	bool nonce_sent;
	struct client *next;
};

struct session_ref {
	uint32_t id;
	struct client *client;	     /* the client that opened it, NULL once gone */
	struct instance *owner_inst; /* or the TA instance that did (TA to TA) */
	struct timespec orphaned;
	struct session_ref *next;
};

/* The largest TA image the core reads, from the supplicant or an install. */
#define TA_IMAGE_MAX (64u * 1024 * 1024)

/*
 * ta_store.c: TAs installed into the secure dir (the secure-storage TA
 * management pseudo-TA). ta_store_open is the installed image of uuid,
 * read-only, or -1; ta_store_request answers MSG_CTL_TA_INSTALL.
 */
int ta_store_open(const struct swtee_uuid *uuid);
struct core;
struct instance;
void ta_store_request(struct core *c, struct instance *in, struct buf_reader *r,
		      const struct msg_fds *fds);

/* What the core keeps of a verified TA image besides its ELF. */
struct ta_facts {
	uint32_t flags;				 /* TA_FLAG_* from .ta_head */
	uint32_t stack_size;			 /* from .ta_head */
	uint32_t data_size;			 /* TA_DATA_SIZE, 0 when the image does not say */
	uint8_t digest[PROTO_ATTEST_DIGEST_LEN]; /* its signed header's SHA-256 */
};

struct instance {
	struct endpoint ep;
	uint32_t id;
	uint32_t fork_tag;
	pid_t pid; /* 0 until the zygote reports it */
	struct swtee_uuid uuid;
	uint32_t flags; /* TA_FLAG_* from the verified image */
	/*
	 * Its TA and its libraries, in load order, those loaded at run time
	 * last: their UUIDs and signed header digests.
	 */
	struct swtee_uuid code_uuid[1 + PROTO_LIBS_MAX];
	uint8_t code_digest[1 + PROTO_LIBS_MAX][PROTO_ATTEST_DIGEST_LEN];
	size_t ncode;
	struct endpoint *listener; /* its sandbox's seccomp listener, NULL until sent */
	int lib_fd;		   /* the library it is to map next (ta_dlopen.c), or -1 */
	uid_t uid; /* the user it counts against: its first client's, TA to TA too */
	uint32_t nsessions;
	struct session_ref *sessions;
	bool destroying; /* out of every lookup: no new session goes here */
	bool gone;	 /* its control socket closed */
	bool exited;	 /* the zygote reported its end */
	bool ping_pending;
	struct timespec ping_sent;
	uint32_t visit_mark;	     /* instance_reaches' walk */
	struct instance *visit_next; /* its work list */
	struct instance *next;
};

struct ta_output;

struct spare {
	int fd;
	uint32_t fork_tag;
	pid_t pid;
};

/*
 * What one user or one client may hold at once, so that no user can deny
 * the TEE to the others (swteed --max-*). A refusal is TEEC_ERROR_BUSY and a
 * log line naming the user and the limit.
 */
struct core_limits {
	uint32_t clients_per_user;    /* connections */
	uint32_t sessions_per_client; /* sessions a connection holds */
	uint32_t instances_per_user;  /* TA processes, those its TAs start TA to TA included */
	uint32_t opens_per_user;      /* opens in progress, those of clients gone included */
};

#define CORE_CLIENTS_PER_USER 1024
#define CORE_SESSIONS_PER_CLIENT 1024
#define CORE_INSTANCES_PER_USER 512
#define CORE_OPENS_PER_USER 256

#define CORE_SPARES 2
#define CORE_MAX_KEYS 32
#define CORE_KEY_UUIDS 64

/*
 * The TA UUIDs a trusted key may sign: every one (n == 0), or those its key
 * file lists ("uuid UUID" lines before the PEM block).
 */
struct key_scope {
	char file[128]; /* the key file, for the log ("built-in" for the kit's key) */
	struct swtee_uuid uuid[CORE_KEY_UUIDS];
	size_t n;
};
#define CORE_MAX_CLIENTS 4096

struct core {
	int epfd;
	struct endpoint listen_client;
	struct endpoint listen_supplicant;
	struct endpoint zygote;
	struct endpoint sig;
	struct endpoint *supplicant; /* NULL while none is connected */
	uid_t supplicant_uid;	     /* the user tee-supplicant runs as */
	pid_t zygote_pid;
	struct client *clients;
	size_t nclients;
	struct instance *instances;
	struct spare spares[CORE_SPARES];
	size_t nspares;
	uint32_t next_session;
	uint32_t next_instance;
	uint32_t next_tag;
	uint32_t next_supp_req;
	struct open_req *opens;	   /* sessions being opened */
	struct ta_output *outputs; /* what TA processes write */
	struct core_limits limits;
	int fork_errno; /* why the zygote last failed to fork, or 0 */
	EVP_PKEY *keys[CORE_MAX_KEYS];
	struct key_scope key_scope[CORE_MAX_KEYS];
	size_t nkeys;
	int log_level;
	bool stopping;
};

/* ta_keys.c: the keys trusted to sign TAs, each for the UUIDs its file lists */
struct ta_image_info;
/*
 * The built-in key, the --ta-key files extra[0..nextra) and, when dir is not
 * NULL, every *.pem of dir (--ta-key-dir: missing is empty; it and its files
 * must be writable by root or the core's user alone). Returns 0, or -1, logged.
 */
int ta_keys_load(struct core *c, char **extra, size_t nextra, const char *dir);
/*
 * Verifies the image img[0..len) of uuid (a TA library when lib) with the
 * keys that may sign uuid: TEEC_SUCCESS and *info, or TEEC_ERROR_SECURITY
 * with a log line saying why, which names the key file when a key that may
 * not sign uuid signed it.
 */
uint32_t ta_keys_verify(const struct core *c, const uint8_t *img, size_t len,
			const struct swtee_uuid *uuid, bool lib, struct ta_image_info *info,
			const char *what);

/* endpoint.c: the epoll set, and deadlines on CLOCK_MONOTONIC */
int core_watch(struct core *c, struct endpoint *ep);
void core_unwatch(struct core *c, struct endpoint *ep);
void deadline_in(struct timespec *d, long ms);
bool deadline_passed(const struct timespec *d, const struct timespec *now);

/*
 * ta_memcg.c: one memory cgroup per TA process where the kernel allows it.
 * ta_memcg_init, before the zygote starts, finds the core's cgroup, makes
 * the directory of TA cgroups in it (ta_memcg_dir, handed to the zygote,
 * which does the rest: src/ta_runtime/memcg.c) and logs what it found;
 * ta_memcg_version is then 1 or 2, or 0 (rlimits only). ta_memcg_budget is
 * the cap of a TA's cgroup, in 64 MiB steps, and ta_memcg_spare_budget a
 * spare's, which most TAs keep. ta_memcg_off gives cgroups up (a spare
 * could not join its own); ta_memcg_fini removes them, once the TA
 * processes have ended.
 */
void ta_memcg_init(bool off);
int ta_memcg_version(void);
int ta_memcg_dir(void);
uint64_t ta_memcg_budget(uint32_t data_size, uint32_t stack_size);
uint64_t ta_memcg_spare_budget(void);
void ta_memcg_off(const char *why);
void ta_memcg_fini(void);

/* sandbox.c: the core's seccomp allowlist, no processes, programs or networks */
int core_sandbox_enter(void);
unsigned core_sandbox_refusals(void);

/*
 * ta_output.c: the standard output and error of TA processes, on the log.
 * The write end of a new pipe whose lines are logged as name's (taken by
 * the caller), for the process of fork tag tag; -1 on failure.
 */
int ta_output_open(struct core *c, uint32_t tag, const char *name);
/* The process of fork tag tag now runs TA uuid: its lines are logged as that TA's. */
void ta_output_name(struct core *c, uint32_t tag, const struct swtee_uuid *uuid);
void ta_output_readable(struct core *c, struct ta_output *o);
/* Reads again the pipes whose window has ended. Whether any is still waiting. */
bool ta_output_tick(struct core *c, const struct timespec *now);
/* At shutdown: logs what is left, waiting up to wait_ms for the processes to end. */
void ta_output_drain(struct core *c, int wait_ms);

/* client.c: requests on a client connection */
void client_accept(struct core *c);
void client_readable(struct core *c, struct client *cl);
/* The answer to cl's MSG_CORE_OPEN: res, and the session's socket (not taken) when 0. */
void client_open_answer(struct client *cl, uint32_t res, uint32_t sid, int sock);

/* identity.c: the client identity a login method gives, from kernel facts */
void identity_capture(const struct ucred *cred, struct client_facts *facts);
/* The executable process pid runs now, into out[n]: false when it is not ours to read. */
bool identity_exe(pid_t pid, char *out, size_t n);
/* The layout of process pid now (struct client_facts): false when it is not ours to read. */
bool identity_layout(pid_t pid, uint64_t out[CLIENT_LAYOUT_FIELDS]);
uint32_t identity_for_login(const struct client_facts *facts, uint32_t login, uint32_t gid,
			    struct swtee_uuid *out);

/* instance.c: TA instances, spares and the zygote */
int instance_zygote_start(struct core *c);
void instance_zygote_readable(struct core *c);
/*
 * Asks the zygote for spares up to CORE_SPARES: from the event loop, once
 * the requests at hand are answered (making one costs the core a cgroup
 * and a few descriptors, which no open waits for).
 */
void instance_spares_fill(struct core *c);
/* Returns false when the instance record was freed. */
bool instance_readable(struct core *c, struct instance *in);
struct instance *instance_by_id(struct core *c, uint32_t id);
/* Has the instance sent what the core has not read yet? */
bool instance_has_input(const struct instance *in);
/*
 * The instance a new session on uuid goes to, for a client or, TA to TA, for
 * the instance owner: *out, or NULL when a new instance is needed. *settle
 * set: *out has messages to be read first (ask again after them). Returns 0,
 * or TEEC_ERROR_BUSY (a single-session TA in use, a cycle of TA calls, an
 * owner that holds PROTO_TA2TA_MAX sessions already).
 */
uint32_t instance_pick(struct core *c, const struct swtee_uuid *uuid, struct instance *owner,
		       struct instance **out, bool *settle);
/*
 * A new instance of uuid from a spare, given the verified ELF and libraries
 * (not taken). NULL and *res on failure.
 */
struct instance *instance_start(struct core *c, const struct swtee_uuid *uuid, int elf_fd,
				const struct ta_facts *facts, const struct ta_libs *libs,
				uint32_t *res);
/*
 * A session on in for client cl or for instance owner (the other is NULL):
 * on success *sock is the caller's end, *session_id its id.
 */
uint32_t instance_attach(struct core *c, struct instance *in, struct client *cl,
			 struct instance *owner, uint32_t login, const struct swtee_uuid *identity,
			 int *sock, uint32_t *session_id);
/* Ends an instance that broke the protocol, with a log line saying why. */
void instance_kill(struct instance *in, const char *why);
/* Sends a response on an instance's control socket. */
int instance_send(struct instance *in, const void *msg, size_t len, const int *fds, size_t nfds);

/*
 * ta_dlopen.c: TA libraries loaded at run time. ta_dlopen_request takes
 * MSG_CTL_DLOPEN, ta_dlopen_listener the instance's seccomp listener (fd,
 * taken), ta_dlopen_notified what a listener endpoint has to read;
 * ta_dlopen_close drops both when the instance ends. A listener's endpoint
 * may still have an event in the loop's batch then: it is freed by
 * ta_dlopen_reap, after the batch.
 */
void ta_dlopen_request(struct core *c, struct instance *in, struct buf_reader *r,
		       const struct msg_fds *fds);
void ta_dlopen_listener(struct core *c, struct instance *in, int fd);
void ta_dlopen_notified(struct core *c, struct endpoint *ep);
void ta_dlopen_reap(void);
void ta_dlopen_close(struct core *c, struct instance *in);

/*
 * What a handler of an instance's request gives ta_request.c to send: an
 * answer of type with res, up to two words and descriptors (taken, closed
 * once sent); or, for a request that breaks the protocol, why the instance
 * is to be stopped (no answer then).
 */
struct ta_reply {
	uint32_t type;
	uint32_t res;
	uint32_t word[2];
	size_t nwords;
	int fd[2];
	size_t nfds;
	const char *violation;
};

/*
 * storage/worker.c: trusted storage, the entry points of the engine in
 * src/core/storage (docs/storage.md lists its files; storage.h has them).
 */
/* Keys from the secure dir (HUK made on first start); storage stays off without one. */
int storage_init(const char *secure_dir);
/* Ends the storage workers (each finishes its request) and wipes the keys. */
void storage_fini(void);
/*
 * MSG_CTL_STORAGE: the instance's storage channel, served by a worker thread
 * of its own. rep gets MSG_CTL_STORAGE_RSP: the result, word[0] 1 when the
 * instance's heap (fds, optional) is mapped for writes from it, and on
 * success the channel socket and the request window memfd. A malformed
 * request, or a second one from the instance, sets rep->violation instead.
 */
void storage_ctl_request(struct core *c, uint32_t instance, const struct swtee_uuid *uuid,
			 struct buf_reader *r, struct msg_fds *fds, struct ta_reply *rep);

/* sockets/relay.c: the GP Sockets API (see src/core/sockets/sockets.h) */
/* MSG_CTL_SOCKET: the instance's socket channel. */
void sockets_ctl_request(struct core *c, uint32_t instance, const struct swtee_uuid *uuid,
			 struct buf_reader *r, struct msg_fds *fds, struct ta_reply *rep);
/* Ends every socket channel; the supplicant closes their sockets. */
void sockets_fini(void);
/* sockets/policy.c: replaces the default (loopback only) with path's rules. */
int sock_policy_load(const char *path);

/* plugins.c: tee-supplicant plugins (see src/core/plugins.c) */
/* MSG_CTL_PLUGIN: the instance's plugin channel. */
void plugins_ctl_request(struct core *c, uint32_t instance, const struct swtee_uuid *uuid,
			 struct buf_reader *r, struct msg_fds *fds, struct ta_reply *rep);

/* ta_request.c: requests instances make of the core */
void ta_request_dispatch(struct core *c, struct instance *in, uint32_t type, struct buf_reader *r,
			 struct msg_fds *fds);
/* The answer to in's MSG_CTL_OPEN_TA: res, and the session's socket (not taken) when 0. */
void ta_request_open_answer(struct instance *in, uint32_t res, uint32_t sid, int sock);
void instance_client_gone(struct core *c, struct client *cl);
/* Kills instances whose every session lost its client more than a grace ago. */
void instance_reap_orphans(struct core *c);
/* Instances (not on their way out) and their sessions; of user uid's clients only unless all. */
size_t instance_count(const struct core *c, bool all, uid_t uid, size_t *sessions);
/* The TA processes that count against user uid. */
size_t instance_count_user(const struct core *c, uid_t uid);
void instance_shutdown_all(struct core *c);

/* supplicant.c: requests to tee-supplicant, each answered as an event */
#define SUPP_TIMEOUT_MS 10000
void supplicant_accept(struct core *c);
void supplicant_readable(struct core *c);
/* Drops the supplicant connection, saying why; the opens waiting on it fail. */
void supplicant_fail(struct core *c, const char *why);
/* Drops a connection that has not said hello by its deadline. */
void supplicant_tick(struct core *c, const struct timespec *now);
/*
 * Sends MSG_SUPP_LOAD_TA for uuid: 0 and the request's id in *req, or -1
 * (no supplicant, or it was dropped for not taking the request). The reply
 * goes to open_image_arrived.
 */
int supplicant_ask_image(struct core *c, const struct swtee_uuid *uuid, uint32_t *req);
/*
 * The regular file on fd, of at most TA_IMAGE_MAX bytes, read whole with
 * pread (its offset stays) into memory the core owns (*img, freed by the
 * caller). Returns 0, TEEC_ERROR_SECURITY for any other file or a failed
 * read, or TEEC_ERROR_OUT_OF_MEMORY.
 */
uint32_t supplicant_read_image(int fd, uint8_t **img, size_t *len);
/*
 * The TA image (a TA library when lib) the supplicant handed over for uuid
 * on file_fd (taken): verified and copied, *elf_fd is a sealed memfd holding
 * only the verified ELF, *facts what its headers say. Returns 0 or a
 * TEEC_ERROR_*, logged.
 */
uint32_t supplicant_image_verify(struct core *c, const struct swtee_uuid *uuid, bool lib,
				 int file_fd, int *elf_fd, struct ta_facts *facts);
/*
 * A channel the supplicant serves on a thread of its own: the other end of
 * *sock goes to it in a message of type (MSG_SUPP_*_CHANNEL, which has no
 * reply), with extra_fd (not taken) when >= 0. Returns 0, or -1 (no
 * supplicant, or it took no message).
 */
int supplicant_open_channel(struct core *c, uint32_t type, int extra_fd, int *sock);

/*
 * session_open.c: opening a session, a pending request answered as events
 * (the supplicant's replies, an instance's messages read first).
 */
/* Starts opening a session on uuid for client cl or, TA to TA, instance owner. */
void open_start(struct core *c, struct client *cl, struct instance *owner,
		const struct swtee_uuid *uuid, uint32_t login, const struct swtee_uuid *identity);
/* Is an open of cl's (or owner's) pending? Each has at most one. */
bool open_pending(const struct core *c, const struct client *cl, const struct instance *owner);
/*
 * The supplicant's reply to request req: res, and the file in fds when 0
 * (taken). Returns false when no open asked it.
 */
bool open_image_arrived(struct core *c, uint32_t req, uint32_t res, struct msg_fds *fds);
/* The supplicant is gone: opens waiting on it fail. */
void open_supplicant_gone(struct core *c);
/* cl (or owner) is gone: its opens finish without an answer. */
void open_requester_gone(struct core *c, const struct client *cl, const struct instance *owner);
/* Goes on with opens whose instance has been heard, fails those past their deadline. */
void open_tick(struct core *c, const struct timespec *now);
/* Frees every pending open, at shutdown. */
void open_fini(struct core *c);

/* ta_libs.c: the verified TA libraries of a TA, each after those it needs. */
struct ta_libs {
	struct swtee_uuid uuid[PROTO_LIBS_MAX];
	int fd[PROTO_LIBS_MAX];					 /* sealed memfds of their ELF */
	uint8_t digest[PROTO_LIBS_MAX][PROTO_ATTEST_DIGEST_LEN]; /* their signed headers' */
	size_t n;
};

struct lib_frame {
	int fd; /* the ELF whose needs these are; -1 once handed on */
	struct swtee_uuid uuid;
	uint8_t digest[PROTO_ATTEST_DIGEST_LEN];
	struct swtee_uuid need[ELF_DYN_NEEDED_MAX]; /* its DT_NEEDED that name TA libraries */
	int n;
	int next; /* the first of need[] not yet listed */
};

/*
 * A depth-first walk of a TA's libraries that stops at each library it
 * needs: frame[0] is the TA, frame[1..depth] the libraries being visited.
 */
struct lib_walk {
	struct lib_frame frame[PROTO_LIBS_MAX + 1];
	size_t depth;
	struct ta_libs libs; /* those done, each after those it needs */
	char ta[SWTEE_UUID_STR_LEN];
};

enum lib_walk_next {
	LIB_WALK_DONE,	 /* w->libs is the whole list */
	LIB_WALK_NEED,	 /* *want is the next library to load and verify */
	LIB_WALK_FAILED, /* *res says why, logged */
};

/* Starts the walk of the TA ta whose ELF is on elf_fd (not taken). Returns 0 or a TEEC_ERROR_*. */
uint32_t ta_libs_begin(struct lib_walk *w, const struct swtee_uuid *ta, int elf_fd);
enum lib_walk_next ta_libs_next(struct lib_walk *w, struct swtee_uuid *want, uint32_t *res);
/*
 * The library the last LIB_WALK_NEED named, verified, on lib_fd (taken, also
 * on failure), with its signed header's digest. Returns 0 or a TEEC_ERROR_*;
 * then ta_libs_next again.
 */
uint32_t ta_libs_push(struct lib_walk *w, int lib_fd,
		      const uint8_t digest[PROTO_ATTEST_DIGEST_LEN]);
/* Closes what the walk holds, w->libs included. */
void ta_libs_abandon(struct lib_walk *w);
void ta_libs_close(struct ta_libs *l);

#endif
