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
#include "msg.h"
#include "uuid.h"

enum endpoint_kind {
	EP_LISTEN_CLIENT,
	EP_LISTEN_SUPPLICANT,
	EP_CLIENT,
	EP_SUPPLICANT,
	EP_ZYGOTE,
	EP_INSTANCE,
	EP_SIGNAL,
};

struct endpoint {
	enum endpoint_kind kind;
	int fd;
	void *owner;
};

#define CLIENT_MAX_GROUPS 64

/* What the kernel says about a client, read when it connects. */
struct client_facts {
	struct ucred cred;
	char exe[4096];
	bool exe_ok; /* false: /proc/PID/exe was not ours to read */
	uint32_t groups[CLIENT_MAX_GROUPS];
	size_t ngroups;
};

struct client {
	struct endpoint ep;
	struct ucred cred;
	struct client_facts facts;
	struct client *next;
};

struct session_ref {
	uint32_t id;
	struct client *client;	     /* the client that opened it, NULL once gone */
	struct instance *owner_inst; /* or the TA instance that did (TA to TA) */
	struct timespec orphaned;
	struct session_ref *next;
};

struct instance {
	struct endpoint ep;
	uint32_t id;
	uint32_t fork_tag;
	pid_t pid; /* 0 until the zygote reports it */
	struct swtee_uuid uuid;
	uint32_t flags; /* TA_FLAG_* from the verified image */
	uint32_t nsessions;
	struct session_ref *sessions;
	bool destroying; /* out of every lookup: no new session goes here */
	bool gone;	 /* its control socket closed */
	bool exited;	 /* the zygote reported its end */
	bool ping_pending;
	struct timespec ping_sent;
	struct instance *next;
};

struct spare {
	int fd;
	uint32_t fork_tag;
	pid_t pid;
};

#define CORE_SPARES 2
#define CORE_MAX_KEYS 8
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
	EVP_PKEY *keys[CORE_MAX_KEYS];
	size_t nkeys;
	int log_level;
	bool stopping;
};

/* main.c */
int core_watch(struct core *c, struct endpoint *ep);
void core_unwatch(struct core *c, struct endpoint *ep);

/* sandbox.c: the core's seccomp allowlist, no processes, programs or networks */
int core_sandbox_enter(void);
unsigned core_sandbox_refusals(void);

/* client.c: requests on a client connection */
void client_accept(struct core *c);
void client_readable(struct core *c, struct client *cl);

/* identity.c: the client identity a login method gives, from kernel facts */
void identity_capture(const struct ucred *cred, struct client_facts *facts);
uint32_t identity_for_login(const struct client_facts *facts, uint32_t login, uint32_t gid,
			    struct swtee_uuid *out);

/* instance.c: TA instances, spares and the zygote */
int instance_zygote_start(struct core *c);
void instance_zygote_readable(struct core *c);
/* Returns false when the instance record was freed. */
bool instance_readable(struct core *c, struct instance *in);
/*
 * Opens a session for client cl or, TA to TA, for instance owner (the other
 * is NULL): on success *sock is the caller's end.
 */
uint32_t instance_open_session(struct core *c, struct client *cl, struct instance *owner,
			       const struct swtee_uuid *uuid, uint32_t login,
			       const struct swtee_uuid *identity, int *sock, uint32_t *session_id);
/* Ends an instance that broke the protocol, with a log line saying why. */
void instance_kill(struct instance *in, const char *why);
/* Sends a response on an instance's control socket. */
int instance_send(struct instance *in, const void *msg, size_t len, const int *fds, size_t nfds);

/* storage/worker.c: trusted storage (see src/core/storage/storage.h) */
/* Keys from the secure dir (HUK made on first start); storage stays off without one. */
int storage_init(const char *secure_dir);
/* Ends the storage workers (each finishes its request) and wipes the keys. */
void storage_fini(void);
/* MSG_CTL_STORAGE: the instance's storage channel. */
void storage_ctl_request(struct core *c, struct instance *in, struct buf_reader *r,
			 struct msg_fds *fds);

/* sockets/relay.c: the GP Sockets API (see src/core/sockets/sockets.h) */
/* MSG_CTL_SOCKET: the instance's socket channel. */
void sockets_ctl_request(struct core *c, struct instance *in, struct buf_reader *r,
			 struct msg_fds *fds);
/* Ends every socket channel; the supplicant closes their sockets. */
void sockets_fini(void);
/* sockets/policy.c: replaces the default (loopback only) with path's rules. */
int sock_policy_load(const char *path);

/* plugins.c: tee-supplicant plugins (see src/core/plugins.c) */
/* MSG_CTL_PLUGIN: the instance's plugin channel. */
void plugins_ctl_request(struct core *c, struct instance *in, struct buf_reader *r,
			 struct msg_fds *fds);

/* ta_request.c: requests instances make of the core */
void ta_request_dispatch(struct core *c, struct instance *in, uint32_t type, struct buf_reader *r,
			 struct msg_fds *fds);
void instance_client_gone(struct core *c, struct client *cl);
/* Kills instances whose every session lost its client more than a grace ago. */
void instance_reap_orphans(struct core *c);
size_t instance_count(const struct core *c, size_t *sessions);
void instance_shutdown_all(struct core *c);

/* supplicant.c */
void supplicant_accept(struct core *c);
void supplicant_readable(struct core *c);
/*
 * Loads and verifies the TA image of uuid through the supplicant. On success
 * *elf_fd is a sealed memfd holding only the verified ELF.
 */
uint32_t supplicant_load_ta(struct core *c, const struct swtee_uuid *uuid, int *elf_fd,
			    uint32_t *flags);
/*
 * A channel the supplicant serves on a thread of its own: the other end of
 * *sock goes to it in a message of type (MSG_SUPP_*_CHANNEL, which has no
 * reply). Returns 0, or -1 (no supplicant, or it took no message).
 */
int supplicant_open_channel(struct core *c, uint32_t type, int *sock);
/* The same for the TA library uuid (ta_image_verify_lib). */
uint32_t supplicant_load_lib(struct core *c, const struct swtee_uuid *uuid, int *elf_fd);

/* ta_libs.c: the verified TA libraries of a TA, each after those it needs. */
struct ta_libs {
	struct swtee_uuid uuid[PROTO_LIBS_MAX];
	int fd[PROTO_LIBS_MAX]; /* sealed memfds of their ELF */
	size_t n;
};
/* Fills l for the TA ta whose ELF is on elf_fd. Returns 0 or a TEEC_ERROR_*, logged. */
uint32_t ta_libs_resolve(struct core *c, const struct swtee_uuid *ta, int elf_fd,
			 struct ta_libs *l);
void ta_libs_close(struct ta_libs *l);

#endif
