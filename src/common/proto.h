/*
 * The wire protocol between swtee's processes. Every channel is a Unix
 * SOCK_SEQPACKET socket, so a message arrives whole or not at all; file
 * descriptors (shared memory, TA images, session sockets) travel beside a
 * message as SCM_RIGHTS. All integers are little-endian and every message is
 * parsed with the bounded reader of buf.h: unknown types, short messages and
 * trailing bytes are refused.
 *
 * Channels:
 *   client  <-> swteed       open a session (the core checks the caller's
 *                            identity with SO_PEERCRED and hands back a
 *                            socket connected to the TA instance)
 *   client  <-> TA instance  open-session parameters, invoke, close: one round
 *                            trip per call, shared memory as memfds
 *   swteed  <-> TA instance  load, new session, destroy; session-closed and
 *                            panic reports back
 *   swteed  <-> zygote       fork a spare TA instance process
 *   swteed  <-> supplicant   TA file loading, and REE FS channels for the
 *                            trusted storage (ciphertext and opaque names)
 *   TA instance <-> swteed   the storage channel of an instance
 *   TA instance <-> swteed <-> supplicant   the socket channel of an instance
 *   TA instance <-> swteed <-> supplicant   the plugin channel of an instance
 */
#ifndef SWTEE_PROTO_H
#define SWTEE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROTO_MSG_MAX 4096 /* no message on any channel is longer */
#define PROTO_FDS_MAX 8	   /* no message carries more descriptors */
#define PROTO_NUM_PARAMS 4

/* client -> core */
#define MSG_CORE_OPEN 0x0101   /* uuid[16] login:u32 gid:u32 nonce[16] */
#define MSG_CORE_STATUS 0x0102 /* (none) */
/*
 * The connection's nonce, which an open by executable (APPLICATION logins)
 * carries, zeros for others: proof that the open was written after the core
 * read who connected.
 */
#define MSG_CORE_NONCE 0x0103 /* (none) */
#define PROTO_NONCE_SIZE 16

/*
 * Whether a GP login method names the client's executable, so that its
 * open carries the nonce: TEEC_LOGIN_APPLICATION (4), USER_APPLICATION (5)
 * and GROUP_APPLICATION (6). libteec and the core decide it here alike.
 */
static inline bool proto_login_names_executable(uint32_t login)
{
	return login >= 4 && login <= 6;
}
/* core -> client */
#define MSG_CORE_OPEN_RSP 0x0181 /* result:u32 origin:u32 session:u32 [fd: session socket] */
/* ta_memory: 0 rlimits only, 1 or 2 one memory cgroup (v1, v2) per TA process */
#define MSG_CORE_STATUS_RSP                                                                        \
	0x0182 /* instances:u32 sessions:u32 spares:u32 supplicant:u32 ta_memory:u32 */
#define MSG_CORE_NONCE_RSP 0x0184 /* nonce[16] */
/* Sent in place of any answer, then the connection closes: the core will not serve it. */
#define MSG_CORE_REFUSED 0x0183 /* result:u32 */

/* client -> TA instance */
#define MSG_TA_OPEN 0x0201   /* serial:u32 params [fds: ctl page, then new shms] */
#define MSG_TA_INVOKE 0x0202 /* serial:u32 cmd:u32 params [fds: new shms] */
#define MSG_TA_CLOSE 0x0203  /* (none) */
/* TA instance -> client */
#define MSG_TA_RESULT 0x0281 /* result:u32 origin:u32 params_out */

/*
 * params (client -> TA): types:u32 (TEE_PARAM_TYPE_* nibbles), forget:u32 and
 * that many shm ids the TA may unmap, then PROTO_NUM_PARAMS times
 *   a:u32 b:u32 offset:u64 size:u64
 * For values a and b are the value. For memrefs a is the shm id (0 for a
 * NULL buffer), b the index of the descriptor attached to this message for
 * that shm (PROTO_NO_FD when the TA has it already), and offset/size place
 * the buffer inside the shm. params_out (TA -> client): PROTO_NUM_PARAMS
 * times a:u32 b:u32 size:u64.
 */
#define PROTO_NO_FD 0xffffffffu
#define PROTO_FORGET_MAX 64

/*
 * Temporary memrefs travel in a bounce shm, each at a PROTO_BOUNCE_ALIGN
 * boundary. proto_bounce_span() is the room one takes: its size rounded up,
 * and one unit for an empty one, so that a non-NULL buffer of size 0 still
 * reaches the TA as a non-NULL pointer into mapped memory (as on OP-TEE).
 * 0 when the size cannot be rounded up.
 */
#define PROTO_BOUNCE_ALIGN 64
static inline size_t proto_bounce_span(size_t size)
{
	size_t span = (size + PROTO_BOUNCE_ALIGN - 1) & ~(size_t)(PROTO_BOUNCE_ALIGN - 1);

	if (!size)
		return PROTO_BOUNCE_ALIGN;
	return span < size ? 0 : span;
}
#define PROTO_PARAM_BYTES 24
#define PROTO_PARAM_OUT_BYTES 16

/* core -> TA instance */
/*
 * MSG_CTL_LOAD: uuid[16] flags:u32 instance:u32 log_level:u32 memory:u64
 * nlibs:u32 and nlibs library UUIDs [16], with the descriptors of the TA's
 * verified ELF and then of each library's, a library always after those it
 * needs. memory is the limit of the instance's memory cgroup, which the
 * instance sets before it loads the TA (0: no cgroup).
 */
#define MSG_CTL_LOAD 0x0301
#define PROTO_LIBS_MAX (PROTO_FDS_MAX - 1)
/* The sessions one TA instance may hold on other TAs; the core refuses more. */
#define PROTO_TA2TA_MAX 64
/*
 * An instance's memory past its TA_DATA_SIZE and stack: the largest span of
 * client shared memory it maps at once, and what the runtime itself needs.
 * Its rlimits (the runtime) and its memory cgroup (the core) both allow these.
 */
#define TA_SHM_WINDOW (512ull * 1024 * 1024)
#define TA_RUNTIME_SLACK (64ull * 1024 * 1024)
#define MSG_CTL_NEW_SESSION 0x0302 /* session:u32 login:u32 identity[16] [fd: socket] */
#define MSG_CTL_DESTROY 0x0303	   /* (none) */
#define MSG_CTL_PING 0x0304	   /* (none): are you stuck in an entry point? */
/* TA instance -> core */
#define MSG_CTL_SESSION_CLOSED 0x0381 /* session:u32 */
#define MSG_CTL_PANIC 0x0382	      /* code:u32 */
#define MSG_CTL_PONG 0x0383	      /* (none): no */
/* [fd: the seccomp listener of the instance's sandbox (MSG_CTL_DLOPEN)], once */
#define MSG_CTL_LISTENER 0x0384

/*
 * Requests an instance makes of the core, each answered by one response on
 * the control socket. While it waits, the instance still handles what else
 * the core sends it (a new session may arrive). Requests are numbered from
 * MSG_CTL_REQ_FIRST, their responses from MSG_CTL_RSP_FIRST.
 */
#define MSG_CTL_REQ_FIRST 0x0390
#define MSG_CTL_REQ_LAST 0x03ff
#define MSG_CTL_RSP_FIRST 0x0310
#define MSG_CTL_RSP_LAST 0x037f
#define MSG_CTL_OPEN_TA 0x0390	   /* uuid[16]: a session to another TA */
#define MSG_CTL_OPEN_TA_RSP 0x0310 /* result:u32 origin:u32 session:u32 [fd: socket] */
/*
 * Trusted storage: the instance asks once for its storage channel, a socket
 * served by a core thread of its own, and the bulk window (a sealed memfd of
 * PROTO_STOR_WINDOW bytes both map) that carries object data both ways.
 */
#define MSG_CTL_STORAGE 0x0391	   /* [fd: the TA heap's sealed memfd, optional] */
#define MSG_CTL_STORAGE_RSP 0x0311 /* result:u32 heap:u32 (1: mapped) [fds: socket, bulk memfd] */

/*
 * GP Sockets: the instance asks once for its socket channel, a socket served
 * by a core thread of its own that checks every request against the policy
 * and the instance's limits and relays it to the supplicant (see MSG_SOCK_*).
 */
#define MSG_CTL_SOCKET 0x0392	  /* (none) */
#define MSG_CTL_SOCKET_RSP 0x0312 /* result:u32 [fd: channel socket] */

/*
 * The system pseudo-TA's key derivation: a key of key_len bytes (16..32)
 * bound to the device and to the instance's TA, from extra (at most 1024).
 */
#define MSG_CTL_DERIVE_KEY 0x0393     /* key_len:u32 extra_len:u32 extra[] */
#define MSG_CTL_DERIVE_KEY_RSP 0x0313 /* result:u32 key[key_len] (when result is 0) */

/*
 * tee-supplicant plugins: the instance asks for its plugin channel, a socket
 * served by a core thread of its own that checks every request and answer
 * and relays them to the supplicant (see MSG_PLUGIN_*). It asks again once
 * the channel has closed (the supplicant ended, say).
 */
#define MSG_CTL_PLUGIN 0x0394	  /* (none) */
#define MSG_CTL_PLUGIN_RSP 0x0314 /* result:u32 [fd: channel socket] */

/*
 * The stats pseudo-TA's list of loaded TAs, which only the core knows: the
 * instances of the caller's user, each uuid[16] sessions:u32, at most
 * PROTO_STATS_TAS_MAX of them. Only an instance of that pseudo-TA may ask.
 */
#define MSG_CTL_STATS 0x0395	 /* (none) */
#define MSG_CTL_STATS_RSP 0x0315 /* result:u32 count:u32 {uuid[16] sessions:u32}[count] */
#define PROTO_STATS_TAS_MAX 128

/*
 * The secure-storage TA-management pseudo-TA's install: a signed TA image,
 * which the core verifies as a load does and keeps in the secure dir. Only
 * an instance of that pseudo-TA may ask.
 */
#define MSG_CTL_TA_INSTALL 0x0396     /* [fd: a memfd holding the image] */
#define MSG_CTL_TA_INSTALL_RSP 0x0316 /* result:u32 */
#define PROTO_STATS_ENTRY_LEN 20      /* uuid[16] sessions:u32 */

/*
 * The attestation pseudo-TA's measurements, which only the core can make;
 * it signs them itself. PROTO_ATTEST_TEE: SHA-256 over the read-only
 * segments of the core's executable as mapped. PROTO_ATTEST_TA_IMAGE: the
 * signed header digest of the TA or TA library image for uuid, verified as
 * a load verifies it. PROTO_ATTEST_TA_MEMORY: the measure of the TA instance that
 * opened the session id on the asker (the SHA-256 of the signed header
 * digests of its TA and libraries, in load order); TEE_ERROR_ACCESS_DENIED
 * when a client application opened it. The digest follows only on success.
 * Only an instance of that pseudo-TA may ask.
 */
#define MSG_CTL_ATTEST 0x0397	  /* what:u32, then uuid[16] or session:u32 or nothing */
#define MSG_CTL_ATTEST_RSP 0x0317 /* result:u32 [digest[32]] */
#define PROTO_ATTEST_TEE 1
#define PROTO_ATTEST_TA_IMAGE 2
#define PROTO_ATTEST_TA_MEMORY 3
#define PROTO_ATTEST_DIGEST_LEN 32

/*
 * A TA library the TA does not link, loaded at run time (dlopen by UUID):
 * the core finds and verifies it as it does a linked library and answers
 * with its ELF. Every TA library it needs must be loaded in the instance
 * already. Once sandboxed, the instance maps code from PROTO_TA_LIB_FD only,
 * a descriptor the core alone can set: its sandbox's seccomp filter hands
 * the loader's open of the library to the core (MSG_CTL_LISTENER), which
 * puts the verified ELF there.
 */
#define MSG_CTL_DLOPEN 0x0398	  /* uuid[16] */
#define MSG_CTL_DLOPEN_RSP 0x0318 /* result:u32 [fd: the verified ELF, sealed] */
/*
 * Below 64, the descriptors a process starts with room for: a higher one
 * would make each instance's kernel grow its descriptor table.
 */
#define PROTO_TA_LIB_FD 63

/* core -> zygote */
/*
 * [fds: its control socket, its stdout and stderr]. Where the core has TA
 * cgroups, the zygote makes the new process's (ta-TAG) and the process joins
 * it first; if it cannot, it exits with PROTO_ZYG_EXIT_NO_CGROUP and the
 * core sends MSG_ZYG_NO_CGROUP: no more cgroups.
 */
#define MSG_ZYG_FORK 0x0401	 /* tag:u32 */
#define MSG_ZYG_NO_CGROUP 0x0402 /* (none) */
#define PROTO_ZYG_EXIT_NO_CGROUP 126
/* zygote -> core */
/* in_cgroup: 1 if the process has a memory cgroup of its own */
#define MSG_ZYG_FORKED                                                                             \
	0x0481 /* tag:u32 pid:u32 (0: fork failed with errno:u32) errno:u32 in_cgroup:u32 */
#define MSG_ZYG_EXITED 0x0482 /* pid:u32 status:u32 (wait status) */

/* core -> supplicant */
#define MSG_SUPP_LOAD_TA 0x0501 /* req:u32 uuid[16] */
/* supplicant -> core */
#define MSG_SUPP_HELLO 0x0580	    /* version:u32 */
#define MSG_SUPP_LOAD_TA_RSP 0x0581 /* req:u32 result:u32 [fd: the .ta file, read-only] */

#define PROTO_SUPP_VERSION 1

/*
 * TA instance <-> core, on the storage channel. One request, one MSG_STOR_RSP
 * with result:u32 first. Object data travels in the bulk window, always from
 * its start. Handles are the core's numbers for this instance's open objects.
 * id is id_len:u32 then id_len (<= 64) bytes; info is type:u32 size:u32
 * max_size:u32 usage:u32 data_size:u64 flags:u32 (the object's, as opened).
 */
#define MSG_STOR_OPEN 0x0701   /* storage:u32 flags:u32 id -> handle:u32 info attr_len:u32 */
#define MSG_STOR_CREATE 0x0702 /* storage:u32 flags:u32 id info_in attr_len:u32 data_len:u32 */
/* [bulk: attrs, then data] -> handle:u32 */
#define MSG_STOR_READ 0x0703	    /* handle:u32 pos:u64 len:u32 -> count:u32 [bulk: data] */
#define MSG_STOR_WRITE 0x0704	    /* handle:u32 pos:u64 len:u32 flags:u32 [from:u64] [bulk] */
#define MSG_STOR_TRUNCATE 0x0705    /* handle:u32 size:u64 */
#define MSG_STOR_RENAME 0x0706	    /* handle:u32 id */
#define MSG_STOR_CLOSE 0x0707	    /* handle:u32 */
#define MSG_STOR_DELETE 0x0708	    /* handle:u32 (closes it too) */
#define MSG_STOR_INFO 0x0709	    /* handle:u32 -> data_size:u64 */
#define MSG_STOR_RESTRICT 0x070a    /* handle:u32 usage:u32 */
#define MSG_STOR_ATTRS 0x070b	    /* handle:u32 -> len:u32 [bulk: attribute blob] */
#define MSG_STOR_ENUM_NEXT 0x070c   /* storage:u32 after:u32 cursor[16] -> cursor[16] info id */
#define MSG_STOR_TIME_GET 0x070d    /* -> state:u32 seconds:u64 millis:u32 */
#define MSG_STOR_TIME_SET 0x070e    /* seconds:u32 millis:u32 */
#define MSG_STOR_CREATE_PART 0x070f /* data_len:u32 [bulk: the next data of a CREATE] */
#define MSG_STOR_RSP 0x0781	    /* result:u32 then what the request returns */

/* MSG_STOR_WRITE flags: more pieces of the same write follow this one. */
#define PROTO_STOR_WRITE_MORE 1u
/* The data is not in the bulk window but in the TA heap the core maps, at from. */
#define PROTO_STOR_WRITE_HEAP 2u

#define PROTO_STOR_WINDOW (1024u * 1024) /* the bulk window, in bytes */
#define PROTO_STOR_ID_MAX 64		 /* TEE_OBJECT_ID_MAX_LEN */
#define PROTO_STOR_ATTR_MAX (64u * 1024) /* a key object's attribute blob */

/*
 * core -> supplicant, on the main connection: a REE FS channel, a socket the
 * supplicant serves on a thread of its own, with a sealed memfd of
 * PROTO_FS_WINDOW bytes for file data. No reply.
 */
#define MSG_SUPP_FS_CHANNEL 0x0502 /* [fds: channel socket, window memfd] */

/*
 * core -> supplicant, on a REE FS channel: a batch of file operations inside
 * one directory (dir: 32 lowercase hex digits) of the supplicant's storage
 * path, run in order until one fails. Names are 1..PROTO_FS_NAME_MAX
 * characters of [0-9a-z.], not starting with a dot.
 *   batch: dir[32] nops:u32 then nops times op:u32 and its fields
 *   FS_OP_READ     name off:u64 len:u32 win:u32   (short at end of file)
 *   FS_OP_WRITE    name off:u64 len:u32 win:u32   (creates the file)
 *   FS_OP_COPY     name off:u64 len:u32 name off:u64 (from, then to)
 *   FS_OP_TRUNCATE name size:u64                  (creates the file)
 *   FS_OP_SYNC     name                           (fdatasync; absent is fine)
 *   FS_OP_REMOVE   name                           (absent is fine)
 *   FS_OP_SYNCDIR                                 (fsync the directory)
 *   FS_OP_MKDIR                                   (the directory, then fsync its parent)
 *   FS_OP_LIST     name                           (the names after it, sorted, into the
 *                                                  window NUL-separated; len 0: from the first)
 *   FS_OP_ZERO     name off:u64 len:u32           (writes zeros)
 *   FS_OP_WRITEOUT name off:u64 len:u32           (starts writeback; a hint)
 *   FS_OP_RESERVE  name off:u64 len:u32           (allocates the range, keeping the
 *                                                  file's size and bytes; creates the file)
 * where name is len:u8 and the characters. Reply: result:u32 (FS_RES_*)
 * failed:u32 (the index of the op that failed) then for every op run, its
 * count:u32 (bytes read, copied or listed; 0 otherwise).
 */
#define MSG_FS_BATCH 0x0601
#define MSG_FS_BATCH_RSP 0x0681
#define FS_OP_READ 1
#define FS_OP_WRITE 2
#define FS_OP_COPY 3
#define FS_OP_TRUNCATE 4
#define FS_OP_SYNC 5
#define FS_OP_REMOVE 6
#define FS_OP_SYNCDIR 7
#define FS_OP_MKDIR 8
#define FS_OP_LIST 9
#define FS_OP_ZERO 10
#define FS_OP_WRITEOUT 11
#define FS_OP_RESERVE 12
#define FS_RES_OK 0
#define FS_RES_NOENT 1
#define FS_RES_NOSPC 2
#define FS_RES_IO 3
#define FS_RES_INVAL 4
#define PROTO_FS_WINDOW (2u * 1024 * 1024)
#define PROTO_FS_NAME_MAX 40
#define PROTO_FS_DIR_LEN 32
#define PROTO_FS_OPS_MAX 64

/*
 * core -> supplicant, on the main connection: a socket channel for one TA
 * instance, served on a thread of its own. No reply. The supplicant owns the
 * network sockets of the channel; it closes them all when the channel ends.
 */
#define MSG_SUPP_SOCK_CHANNEL 0x0503 /* [fd: channel socket] */

/*
 * core -> supplicant, on the main connection: a plugin channel for one TA
 * instance, served on a thread of its own. No reply.
 */
#define MSG_SUPP_PLUGIN_CHANNEL 0x0504 /* [fd: channel socket] */

/*
 * GP Sockets, on a socket channel: one request, one MSG_SOCK_RSP (result:u32
 * first), except MSG_SOCK_CANCEL, which may follow a request still running
 * and has no answer of its own (the running call answers, TEE_ERROR_CANCEL
 * when it stopped), and MSG_SOCK_CLOSE_ALL (core -> supplicant, no answer).
 * These channels alone carry up to PROTO_SOCK_DATA_MAX bytes of data inline,
 * so their messages may be up to PROTO_SOCK_MSG_MAX long. host is
 * len:u32 (1..PROTO_SOCK_HOST_MAX) and the characters, no NUL. addr is
 * family:u32 (PROTO_SOCK_INET4/6) then 16 bytes (an IPv4 address in the
 * first 4). timeout is in ms, 0xffffffff for none.
 *
 * instance -> core
 *   OPEN    proto:u32 ipver:u32 port:u32 host          -> handle:u32
 *   SEND    handle:u32 timeout:u32 len:u32 data        -> sent:u32
 *   RECV    handle:u32 timeout:u32 len:u32             -> len:u32 data
 *           (len 0: at once, -> queued:u32 and no data: what waits, kept)
 *   CLOSE   handle:u32
 *   IOCTL   handle:u32 cmd:u32 len:u32 data            -> len:u32 data
 *   CANCEL  (none)
 * core -> supplicant (host names are resolved first, then checked)
 *   RESOLVE proto:u32 ipver:u32 host                   -> n:u32 n * addr
 *   CONNECT proto:u32 port:u32 timeout:u32 n:u32 n*addr -> handle:u32 index:u32
 *   SEND, RECV, CLOSE as above; CANCEL; CLOSE_ALL
 *   SETPEER handle:u32 addr port:u32 (UDP: the datagram peer)
 *   SETBUF  handle:u32 which:u32 (0 receive, 1 send) size:u32
 */
#define MSG_SOCK_OPEN 0x0801
#define MSG_SOCK_SEND 0x0802
#define MSG_SOCK_RECV 0x0803
#define MSG_SOCK_CLOSE 0x0804
#define MSG_SOCK_IOCTL 0x0805
#define MSG_SOCK_CANCEL 0x0806
#define MSG_SOCK_RESOLVE 0x0807
#define MSG_SOCK_CONNECT 0x0808
#define MSG_SOCK_SETPEER 0x0809
#define MSG_SOCK_SETBUF 0x080a
#define MSG_SOCK_CLOSE_ALL 0x080b
#define MSG_SOCK_RSP 0x0881

#define PROTO_SOCK_DATA_MAX (64u * 1024)
#define PROTO_SOCK_MSG_MAX (PROTO_SOCK_DATA_MAX + 64)
#define PROTO_SOCK_HOST_MAX 255
#define PROTO_SOCK_ADDRS_MAX 8
#define PROTO_SOCK_INET4 4
#define PROTO_SOCK_INET6 6
#define PROTO_SOCK_NO_TIMEOUT 0xffffffffu

/*
 * tee-supplicant plugins, on a plugin channel, the same messages from the
 * instance to the core and from the core to the supplicant: one INVOKE, one
 * RSP. data is the TA's buffer (len <= PROTO_PLUGIN_DATA_MAX); the answer
 * carries the plugin's result and out_len (the length it reported, which may
 * exceed len) and the first min(out_len, len) bytes of the buffer as the
 * plugin left it.
 *   INVOKE  uuid[16] cmd:u32 sub_cmd:u32 len:u32 data[len]
 *   RSP     result:u32 out_len:u32 len:u32 data[len]
 */
#define MSG_PLUGIN_INVOKE 0x0901
#define MSG_PLUGIN_RSP 0x0981

#define PROTO_PLUGIN_DATA_MAX (64u * 1024)
#define PROTO_PLUGIN_MSG_MAX (PROTO_PLUGIN_DATA_MAX + 64)

/*
 * The per-session control page, a 4 KiB memfd the client makes and maps and
 * the TA instance maps too. The client stores the serial of the operation it
 * wants cancelled in cancel_serial and wakes futex waiters on it; the TA
 * runtime compares it with the serial of the operation it runs. Before each
 * request the client stores in client_awake whether it waits for replies
 * awake (nonzero: its waits find the CPUs free); the TA instance waits for
 * the next request awake only then (msg_waiter_spin).
 */
struct proto_ctl_page {
	uint32_t cancel_serial;
	uint32_t client_awake;
	uint32_t reserved[1022];
};

#endif
