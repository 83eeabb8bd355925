/*
 * The TA runtime: what runs inside a TA instance process around the TA's
 * own code. It receives the verified TA from the core, runs the entry points
 * one at a time, and implements the GP Internal Core API the TA calls.
 */
#ifndef SWTEE_RUNTIME_H
#define SWTEE_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tee_internal_api.h>
#include <tee_api_defines_extensions.h>
#include <user_ta_header.h>

#include "buf.h"
#include "msg.h"
#include "proto.h"
#include "uuid.h"

#define RT_SHM_MAX 1024
#define RT_SESSIONS_MAX 1024

struct rt_shm {
	uint32_t id;
	uint8_t *map;
	size_t size;
};

struct rt_session {
	uint32_t id;
	int fd;
	uint32_t login;
	struct swtee_uuid identity;
	struct proto_ctl_page *ctl;
	void *ta_ctx;
	bool opened;
	bool cancel_masked;
	uint32_t serial; /* of the operation being run */
	/* Its parameters as the TA received them (for TEE_CheckMemoryAccessRights). */
	uint32_t op_types;
	TEE_Param op_params[TEE_NUM_PARAMS];
	struct rt_shm *shm;
	size_t nshm;
	struct rt_session *next;
};

struct rt_ta {
	TEE_Result (*create)(void);
	void (*destroy)(void);
	TEE_Result (*open)(uint32_t, TEE_Param *, void **);
	void (*close)(void *);
	TEE_Result (*invoke)(void *, uint32_t, uint32_t, TEE_Param *);
	void *handle; /* from dlopen */
	const struct ta_head *head;
	const struct user_ta_property *props;
	size_t nprops;
};

struct rt_state {
	int ctl_fd;
	struct swtee_uuid uuid;
	char uuid_str[SWTEE_UUID_STR_LEN];
	uint32_t flags;
	uint32_t instance_id;
	int log_level;
	struct rt_ta ta;
	const char *load_error; /* set when the TA could not be loaded */
	bool created;
	uint32_t data_size; /* the heap bound, TA_DATA_SIZE */
	const void *instance_data;
	struct rt_session *sessions;
	size_t nsessions;
	struct rt_session *current; /* the session whose entry point runs */
	/* The TA's libraries as loaded: patched copies (libs.c), dependencies first. */
	int lib_fd[PROTO_LIBS_MAX];
	size_t nlibs;
};

extern struct rt_state rt;

/* instance.c */
void rt_instance_main(int ctl_fd) __attribute__((noreturn));
/* The same, for an instance whose process was re-executed (debug.c). */
void rt_instance_main_loaded(int ctl_fd, int elf_fd, int level) __attribute__((noreturn));
/*
 * Does, once, in the zygote, the work every instance would otherwise redo
 * after its fork: the seccomp allowlist's compilation and the stack's
 * bounds. Both are inherited by a fork; nothing per process is made here.
 */
void rt_instance_zygote_prepare(void);
/* Reports a panic to the core and ends the process. */
void rt_panic(TEE_Result code, const char *func) __attribute__((noreturn));
/*
 * Ends the instance with status: what the TA has printed and not yet
 * written goes to the core's log first (an instance never runs exit()).
 */
void rt_exit(int status) __attribute__((noreturn));
/*
 * Closes the storage channel: the core closes every object the instance has
 * open, and the instance has no storage from then on (storage/stor_chan.c).
 */
void rt_storage_end(void);

/*
 * Sends a request to the core and waits for its response of type rsp_type
 * (copied into rsp, with descriptors in fds); what else the core sends
 * meanwhile is handled. Returns the response's length.
 */
ssize_t rt_ctl_call(const void *req, size_t len, uint32_t rsp_type, uint8_t *rsp, size_t cap,
		    struct msg_fds *fds);
/* rt_ctl_call, the request carrying descriptor give (none when give < 0). */
ssize_t rt_ctl_call_fd(const void *req, size_t len, int give, uint32_t rsp_type, uint8_t *rsp,
		       size_t cap, struct msg_fds *fds);
/*
 * rt_ctl_call_fd for a response that starts with a result word, as every
 * one does: returns that result (TEE_ERROR_COMMUNICATION for a response too
 * short to hold one), *r reading what follows it.
 */
uint32_t rt_ctl_request(const void *req, size_t len, int give, uint32_t rsp_type, uint8_t *rsp,
			size_t cap, struct msg_fds *fds, struct buf_reader *r);

/*
 * pta.c: the pseudo-TAs the runtime answers itself. invoke gets the
 * caller's parameters as they are (no copy: the caller is this instance).
 */
struct rt_pta {
	TEE_UUID uuid;
	const char *name;
	TEE_Result (*invoke)(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS]);
};
const struct rt_pta *rt_pta_find(const TEE_UUID *uuid);

/*
 * libs.c: links the TA's libraries (fds[0..n), UUIDs uuids, each after those
 * it needs) into private copies and replaces *elf_fd with the TA's; takes
 * the descriptors. Returns NULL, or why the TA cannot run.
 */
const char *rt_libs_prepare(int *elf_fd, const struct swtee_uuid *uuids, int *fds, size_t n);
/* From now on dlopen() only finds what is loaded. */
void rt_libs_lock(void);

/* params.c: client messages to TEE_Param and back */
TEE_Result rt_params_in(struct rt_session *s, struct buf_reader *r, const struct msg_fds *fds,
			uint32_t *types, TEE_Param params[TEE_NUM_PARAMS]);
void rt_params_out(struct buf_writer *w, uint32_t types, const TEE_Param params[TEE_NUM_PARAMS]);
/* Unmaps every shm of s. */
void rt_shm_release_all(struct rt_session *s);

/*
 * sandbox.c: enters the instance's sandbox (see there). Returns NULL, or why
 * it could not, in which case the TA must not run.
 */
const char *rt_sandbox_enter(uint32_t data_size, uint32_t stack_size);
/*
 * Prepares the sandbox while the process is a spare, or before the zygote
 * forks it (then a spare inherits it and the call does nothing more).
 * Returns 0, or -1.
 */
int rt_sandbox_prepare(void);
/*
 * Before the TA is loaded: no file but the system's shared libraries for
 * its constructors (Landlock, where the kernel has it). Returns NULL, or
 * why it could not, in which case the TA must not run.
 */
const char *rt_sandbox_files(void);
/* Can a TA library be loaded at run time (libs.c)? Not where the sandbox has no listener. */
bool rt_sandbox_libs_at_run_time(void);

/*
 * memcg.c: the memory cgroup of each TA process. In the zygote:
 * rt_memcg_init with the core's directory of TA cgroups (-1: none);
 * rt_memcg_spare gives the next spare a cgroup, ta-ID (1, or 0 without
 * cgroups, or -1 logged): an idle one, or ta-TAG made for it;
 * rt_memcg_forked and rt_memcg_reaped track it, the latter keeping it idle
 * or removing it, as rt_memcg_discard does; rt_memcg_off gives cgroups up. In the new process:
 * rt_memcg_join first thing (it exits PROTO_ZYG_EXIT_NO_CGROUP if it
 * cannot), and rt_memcg_limit with the core's limit for its TA before the
 * TA is loaded (NULL, or why not).
 */
struct rt_memcg_spare {
	uint32_t id;
	int procs_fd, limit_fd, swap_fd;
};
int rt_memcg_init(int dir, int version, uint64_t spare_limit);
int rt_memcg_spare(uint32_t tag, struct rt_memcg_spare *sp);
void rt_memcg_spare_close(struct rt_memcg_spare *sp);
void rt_memcg_join(struct rt_memcg_spare *sp);
int rt_memcg_forked(pid_t pid, uint32_t id);
void rt_memcg_reaped(pid_t pid);
void rt_memcg_discard(uint32_t id);
void rt_memcg_off(void);
const char *rt_memcg_limit(uint64_t bytes);

/* tee_api_mem.c */
void rt_heap_init(uint32_t limit);
/* The main thread's stack bounds, read once (a fork inherits them). */
void rt_mem_prepare(void);
/* Per process, before the TA is named: the pipe memory probes write through. */
void rt_mem_prepare_process(void);

/*
 * debug.c: a TA under a debugger, a wrapper or a sanitizer (see there).
 * rt_debug_exec decides from the environment and the TA's ELF whether this
 * process must re-execute itself (under SWTEE_DEBUG_WRAPPER, or with the
 * ASan runtime preloaded): it returns only when not, or with why it failed.
 */
const char *rt_debug_exec(int elf_fd);
/* The name to dlopen the TA by: /proc/PID/fd/N, or a debug copy on disk. */
int rt_debug_load_path(int elf_fd, char *path, size_t n);
/* Waits for a debugger to attach when the TA is under debug without wrapper. */
void rt_debug_wait(void);
/* True (and logged) when this instance must run without the sandbox. */
/* 1: run without the sandbox (debugging, allowed instrumentation); 0: sandbox; -1: refuse. */
int rt_debug_unsandboxed(void *handle);
/*
 * After rt_debug_exec: whether the TA loads with the file system open (a TA
 * under debug, or instrumented ones allowed), so without rt_sandbox_files.
 */
bool rt_debug_files_open(void);
/* Ends the process after a clean destroy: exit handlers only when exec'd. */
void rt_debug_end(int status) __attribute__((noreturn));
/* main of `swtee-ta-host --instance ...`, the re-executed instance. */
int rt_debug_instance_main(int argc, char **argv);

#endif
