/*
 * swtee bench group "tpm": the firmware TPM (the fTPM TA behind swtee-tpm)
 * against swtpm (Debian's, on libtpms too), both started for the run and
 * both driven the same way: ESYS (libtss2-esys) over the swtpm TCTI on a
 * Unix socket, the path tpm2-tools take. Each case times the TPM operation
 * as ESYS returns it, client-side crypto included, on both sides alike.
 *
 *   createprimary_ecc256_owner   CreatePrimary, owner, tpm2-tools' ECC P-256 template
 *   createprimary_ecc256_null    CreatePrimary, NULL, the kernel's null-key template
 *   createprimary_rsa2048_owner  CreatePrimary, owner, tpm2-tools' RSA-2048 template
 *                                with a new unique field each time (below)
 *   startauthsession_salted_ecc  StartAuthSession, HMAC, salted to an ECC P-256 key
 *   pcrextend_hmac_session       the kernel's pattern per extend: ContextLoad of the
 *                                null key, salted StartAuthSession, FlushContext,
 *                                PCR_Extend under the session, FlushContext
 *   getrandom_32                 GetRandom of 32 bytes
 *   getrandom_32_tcti            the same, the fTPM through the swtee TCTI
 *                                (libtss2-tcti-swtee: libteec straight to the
 *                                TA, no swtee-tpm), once the bridge has let go
 *
 * The work of an RSA primary is the prime search the seed and the template
 * decide, fixed per pair: two TPMs with seeds of their own search for
 * different lengths (10 to 80 ms on swtpm, shared/reference/tpm.md). So
 * each RSA iteration takes the next unique value of one sequence, the same
 * on both sides, and the case reports the mean over all of them rather than
 * a median of a block.
 *
 * libtss2-esys and libtss2-tctildr are opened at run time, so that swtee
 * runs without them; the cases are reported skipped, with the reason, when
 * they, swtpm or the fTPM are missing. The readable table adds published
 * timings of hardware TPMs (shared/reference/seed-figures.md and tpm.md).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_text.h"
#include "bench_tpm_guest.h"
#include "paths.h"

#if __has_include(<tss2/tss2_esys.h>) && __has_include(<tss2/tss2_tctildr.h>)
#define BENCH_TPM_TSS 1
#include <tss2/tss2_esys.h>
#include <tss2/tss2_tctildr.h>
#endif

#define TPM_ECC_ITERATIONS 400
#define TPM_RSA_ITERATIONS 100
#define TPM_SESSION_ITERATIONS 400
#define TPM_EXTEND_ITERATIONS 250
#define TPM_RANDOM_ITERATIONS 1000
#define TPM_TARGET_KEY 1.05
#define TPM_TARGET_RANDOM 1.5
#define TPM_START_MS 10000
#define TPM_PCR 16

extern char **environ;

/* One case: its name, default iterations, target, and the hardware figure beside it. */
struct tpm_case_info {
	const char *name;
	size_t iterations;
	double target;
	const char *hardware;
};

static const struct tpm_case_info tpm_cases[] = {
    {"createprimary_ecc256_owner", TPM_ECC_ITERATIONS, TPM_TARGET_KEY,
     "ATTPM20P (SPI): 418-638 ms per tpm2_createprimary -C o"},
    {"createprimary_ecc256_null", TPM_ECC_ITERATIONS, TPM_TARGET_KEY,
     "ATTPM20P (SPI): 395-686 ms per tpm2_createprimary -C n"},
    {"createprimary_rsa2048_owner", TPM_RSA_ITERATIONS, TPM_TARGET_KEY,
     "swtpm in a VM: ~14 ms; old hardware: minutes"},
    {"startauthsession_salted_ecc", TPM_SESSION_ITERATIONS, TPM_TARGET_KEY, "SLB9670 (SPI): 85 ms"},
    {"pcrextend_hmac_session", TPM_EXTEND_ITERATIONS, TPM_TARGET_KEY,
     "SLB9670 (SPI): 151 ms (6.4 ms without HMAC)"},
    {"getrandom_32", TPM_RANDOM_ITERATIONS, TPM_TARGET_RANDOM, "-"},
    {"getrandom_32_tcti", TPM_RANDOM_ITERATIONS, TPM_TARGET_RANDOM, "-"},
};

/* The cases run through swtee-tpm; those after, through the swtee TCTI. */
#define TPM_NBRIDGE (TPM_NCASES - 1)

#define TPM_NCASES (sizeof(tpm_cases) / sizeof(tpm_cases[0]))

/* Reports every case not yet measured as skipped, for why. */
static int tpm_skip_all(struct bench_ctx *ctx, size_t from, const char *why)
{
	for (size_t i = from; i < TPM_NCASES; i++) {
		struct bench_result r = {0};

		bench_text(r.name, sizeof(r.name), "%s", tpm_cases[i].name);
		bench_text(r.unit, sizeof(r.unit), "us");
		r.value = NAN;
		r.skipped = true;
		bench_text(r.skip_reason, sizeof(r.skip_reason), "%s", why);
		if (bench_report(ctx, &r))
			return -1;
	}
	return 0;
}

static void tpm_table(FILE *f, const struct bench_result *const *r, size_t n)
{
	fprintf(f, "TPM 2.0 through ESYS and the swtpm TCTI (Unix socket), per operation:\n");
	fprintf(f, "%-28s  %10s  %10s  %6s  %6s  %s\n", "case", "fTPM us", "swtpm us", "ratio",
		"target", "hardware TPM (published)");
	for (size_t i = 0; i < TPM_NCASES; i++) {
		const struct bench_result *x = bench_result_find(r, n, tpm_cases[i].name);
		double ratio = NAN;

		if (!x)
			continue;
		if (x->skipped) {
			fprintf(f, "%-28s  skipped: %s\n", x->name, x->skip_reason);
			continue;
		}
		if (x->has_baseline && x->baseline_value > 0)
			ratio = x->value / x->baseline_value;
		fprintf(f, "%-28s  %10.1f  %10.1f  %6.2f  %6.2f  %s\n", x->name, x->value,
			x->baseline_value, ratio, x->target, tpm_cases[i].hardware);
	}
	fprintf(f, "\nfTPM: the fTPM TA through swtee-tpm (_tcti: through libtss2-tcti-swtee,\n"
		   "no bridge); swtpm: Debian's swtpm, same libtpms, same TSS, the swtpm\n"
		   "TCTI. Times are the median of each side's best block (RSA:\n"
		   "the mean over a sequence of templates); ratio is the fTPM's over swtpm's.\n"
		   "Hardware figures are whole operations on discrete TPMs as published\n"
		   "(docs/tpm.md), for scale, not measured here.\n");
	bench_tpm_guest_table(f, r, n);
}

#ifdef BENCH_TPM_TSS

/* ---- the TSS, opened at run time ---- */

struct tss_api {
	void *esys_lib;
	void *ldr_lib;
	__typeof__(Tss2_TctiLdr_Initialize) *TctiLdr_Initialize;
	__typeof__(Tss2_TctiLdr_Finalize) *TctiLdr_Finalize;
	__typeof__(Esys_Initialize) *Initialize;
	__typeof__(Esys_Finalize) *Finalize;
	__typeof__(Esys_Free) *Free;
	__typeof__(Esys_CreatePrimary) *CreatePrimary;
	__typeof__(Esys_FlushContext) *FlushContext;
	__typeof__(Esys_ContextSave) *ContextSave;
	__typeof__(Esys_ContextLoad) *ContextLoad;
	__typeof__(Esys_StartAuthSession) *StartAuthSession;
	__typeof__(Esys_TRSess_SetAttributes) *TRSess_SetAttributes;
	__typeof__(Esys_PCR_Extend) *PCR_Extend;
	__typeof__(Esys_GetRandom) *GetRandom;
};

static struct tss_api tss;

static void tss_close(void)
{
	if (tss.esys_lib)
		dlclose(tss.esys_lib);
	if (tss.ldr_lib)
		dlclose(tss.ldr_lib);
	memset(&tss, 0, sizeof(tss));
}

#define TSS_SYM(lib, field, name)                                                                  \
	do {                                                                                       \
		tss.field = (__typeof__(tss.field))dlsym(lib, name);                               \
		ok = ok && tss.field;                                                              \
	} while (0)

/* NULL, or why the TSS cannot be used. */
static const char *tss_open(void)
{
	bool ok = true;

	tss.esys_lib = dlopen("libtss2-esys.so.0", RTLD_NOW | RTLD_LOCAL);
	tss.ldr_lib = dlopen("libtss2-tctildr.so.0", RTLD_NOW | RTLD_LOCAL);
	if (!tss.esys_lib || !tss.ldr_lib) {
		tss_close();
		return "libtss2-esys or libtss2-tctildr missing (apt-get install libtss2-dev)";
	}
	TSS_SYM(tss.ldr_lib, TctiLdr_Initialize, "Tss2_TctiLdr_Initialize");
	TSS_SYM(tss.ldr_lib, TctiLdr_Finalize, "Tss2_TctiLdr_Finalize");
	TSS_SYM(tss.esys_lib, Initialize, "Esys_Initialize");
	TSS_SYM(tss.esys_lib, Finalize, "Esys_Finalize");
	TSS_SYM(tss.esys_lib, Free, "Esys_Free");
	TSS_SYM(tss.esys_lib, CreatePrimary, "Esys_CreatePrimary");
	TSS_SYM(tss.esys_lib, FlushContext, "Esys_FlushContext");
	TSS_SYM(tss.esys_lib, ContextSave, "Esys_ContextSave");
	TSS_SYM(tss.esys_lib, ContextLoad, "Esys_ContextLoad");
	TSS_SYM(tss.esys_lib, StartAuthSession, "Esys_StartAuthSession");
	TSS_SYM(tss.esys_lib, TRSess_SetAttributes, "Esys_TRSess_SetAttributes");
	TSS_SYM(tss.esys_lib, PCR_Extend, "Esys_PCR_Extend");
	TSS_SYM(tss.esys_lib, GetRandom, "Esys_GetRandom");
	if (!ok) {
		tss_close();
		return "libtss2-esys lacks a function this group uses";
	}
	return NULL;
}

/* ---- the two TPMs ---- */

struct tpm_side {
	const char *name; /* "fTPM", "swtpm" */
	char tcti[SWTEE_PATH_MAX + 16];
	pid_t pid; /* the process started for the run, or -1 */
	TSS2_TCTI_CONTEXT *tcti_ctx;
	ESYS_CONTEXT *esys;
	ESYS_TR salt_key;	/* a loaded ECC P-256 key to salt sessions to */
	TPMS_CONTEXT *null_key; /* the kernel's null key, saved */
};

/* What a timed loop runs: a case on one side. */
struct tpm_arg {
	struct tpm_side *side;
	size_t which;  /* index into tpm_cases */
	uint32_t next; /* the RSA case's next unique value */
	size_t skip;   /* samples left out of the mean (the warm-up) */
	double sum;    /* of the other samples, and their count */
	size_t count;
};

static int tpm_error(const struct tpm_side *s, const char *what, TSS2_RC rc)
{
	fprintf(stderr, "swtee bench: tpm: %s: %s failed: 0x%08x\n", s->name, what, rc);
	return -1;
}

/* tpm2-tools' default templates, and the kernel's null key (TPM2_OA_NULL_KEY). */
static void tpm_template(TPM2B_PUBLIC *pub, bool rsa, bool kernel, uint32_t unique)
{
	memset(pub, 0, sizeof(*pub));
	pub->publicArea.nameAlg = TPM2_ALG_SHA256;
	pub->publicArea.objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT |
					   TPMA_OBJECT_SENSITIVEDATAORIGIN |
					   TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_RESTRICTED |
					   TPMA_OBJECT_DECRYPT | (kernel ? TPMA_OBJECT_NODA : 0);
	if (rsa) {
		pub->publicArea.type = TPM2_ALG_RSA;
		pub->publicArea.parameters.rsaDetail.symmetric.algorithm = TPM2_ALG_AES;
		pub->publicArea.parameters.rsaDetail.symmetric.keyBits.aes = 128;
		pub->publicArea.parameters.rsaDetail.symmetric.mode.aes = TPM2_ALG_CFB;
		pub->publicArea.parameters.rsaDetail.scheme.scheme = TPM2_ALG_NULL;
		pub->publicArea.parameters.rsaDetail.keyBits = 2048;
		pub->publicArea.unique.rsa.size = sizeof(unique);
		memcpy(pub->publicArea.unique.rsa.buffer, &unique, sizeof(unique));
		return;
	}
	pub->publicArea.type = TPM2_ALG_ECC;
	pub->publicArea.parameters.eccDetail.symmetric.algorithm = TPM2_ALG_AES;
	pub->publicArea.parameters.eccDetail.symmetric.keyBits.aes = 128;
	pub->publicArea.parameters.eccDetail.symmetric.mode.aes = TPM2_ALG_CFB;
	pub->publicArea.parameters.eccDetail.scheme.scheme = TPM2_ALG_NULL;
	pub->publicArea.parameters.eccDetail.curveID = TPM2_ECC_NIST_P256;
	pub->publicArea.parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL;
}

static TSS2_RC tpm_create_primary(struct tpm_side *s, ESYS_TR hierarchy, bool rsa, bool kernel,
				  uint32_t unique, ESYS_TR *key)
{
	TPM2B_SENSITIVE_CREATE sens = {0};
	TPM2B_PUBLIC pub;
	TPM2B_DATA outside = {0};
	TPML_PCR_SELECTION pcrs = {0};

	tpm_template(&pub, rsa, kernel, unique);
	return tss.CreatePrimary(s->esys, hierarchy, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
				 &sens, &pub, &outside, &pcrs, key, NULL, NULL, NULL, NULL);
}

static TSS2_RC tpm_salted_session(struct tpm_side *s, ESYS_TR key, ESYS_TR *sess)
{
	TPMT_SYM_DEF sym = {
	    .algorithm = TPM2_ALG_AES, .keyBits.aes = 128, .mode.aes = TPM2_ALG_CFB};

	return tss.StartAuthSession(s->esys, key, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
				    ESYS_TR_NONE, NULL, TPM2_SE_HMAC, &sym, TPM2_ALG_SHA256, sess);
}

/* The kernel's per-extend sequence. */
static TSS2_RC tpm_kernel_extend(struct tpm_side *s, uint32_t i)
{
	TPML_DIGEST_VALUES digests = {.count = 1};
	ESYS_TR key = ESYS_TR_NONE;
	ESYS_TR sess = ESYS_TR_NONE;
	TSS2_RC rc = 0;

	digests.digests[0].hashAlg = TPM2_ALG_SHA256;
	memcpy(digests.digests[0].digest.sha256, &i, sizeof(i));
	rc = tss.ContextLoad(s->esys, s->null_key, &key);
	if (!rc)
		rc = tpm_salted_session(s, key, &sess);
	if (key != ESYS_TR_NONE) {
		TSS2_RC r2 = tss.FlushContext(s->esys, key);

		rc = rc ? rc : r2;
	}
	if (!rc)
		rc = tss.TRSess_SetAttributes(s->esys, sess, TPMA_SESSION_CONTINUESESSION, 0xff);
	if (!rc)
		rc = tss.PCR_Extend(s->esys, ESYS_TR_PCR0 + TPM_PCR, sess, ESYS_TR_NONE,
				    ESYS_TR_NONE, &digests);
	if (sess != ESYS_TR_NONE) {
		TSS2_RC r2 = tss.FlushContext(s->esys, sess);

		rc = rc ? rc : r2;
	}
	return rc;
}

/* n timed iterations of one case on one side. */
static int tpm_loop(void *varg, size_t n, struct bench_samples *out)
{
	struct tpm_arg *a = varg;
	struct tpm_side *s = a->side;
	const char *what = tpm_cases[a->which].name;
	TSS2_RC rc = 0;

	for (size_t i = 0; i < n; i++) {
		ESYS_TR h = ESYS_TR_NONE;
		TPM2B_DIGEST *rnd = NULL;
		double t0 = bench_now_us();
		double t1 = 0;

		switch (a->which) {
		case 0:
			rc = tpm_create_primary(s, ESYS_TR_RH_OWNER, false, false, 0, &h);
			break;
		case 1:
			rc = tpm_create_primary(s, ESYS_TR_RH_NULL, false, true, 0, &h);
			break;
		case 2:
			rc = tpm_create_primary(s, ESYS_TR_RH_OWNER, true, false, a->next++, &h);
			break;
		case 3:
			rc = tpm_salted_session(s, s->salt_key, &h);
			break;
		case 4:
			rc = tpm_kernel_extend(s, (uint32_t)i);
			break;
		default:
			rc = tss.GetRandom(s->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, 32,
					   &rnd);
			break;
		}
		t1 = bench_now_us();
		tss.Free(rnd);
		if (!rc && h != ESYS_TR_NONE)
			rc = tss.FlushContext(s->esys, h);
		if (rc)
			return tpm_error(s, what, rc);
		if (bench_samples_add(out, t1 - t0))
			return -1;
		if (a->skip) {
			a->skip--;
		} else {
			a->sum += t1 - t0;
			a->count++;
		}
	}
	return 0;
}

/* Spawns argv with stdin, stdout and stderr on /dev/null (swtpm logs every connection). */
static pid_t tpm_spawn(char *const argv[], bool path_search)
{
	posix_spawn_file_actions_t fa;
	pid_t pid = -1;
	int err = 0;

	if (posix_spawn_file_actions_init(&fa))
		return -1;
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	err = path_search ? posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)
			  : posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return err ? -1 : pid;
}

static void tpm_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* Waits until a Unix socket at path takes connections, or the process ends. */
static int tpm_wait_socket(const char *path, pid_t pid)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	for (int waited = 0; waited < TPM_START_MS; waited += 10) {
		struct timespec ts = {.tv_nsec = 10 * 1000 * 1000};
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int r = fd < 0 ? -1 : connect(fd, (struct sockaddr *)&sa, sizeof(sa));

		if (fd >= 0)
			close(fd);
		if (!r)
			return 0;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return -1;
		nanosleep(&ts, NULL);
	}
	return -1;
}

/* Starts the process a side needs and connects ESYS; NULL, or why not. */
enum tpm_side_kind { TPM_SIDE_SWTPM, TPM_SIDE_BRIDGE, TPM_SIDE_TCTI };

static const char *tpm_side_open(struct tpm_side *s, const char *dir, enum tpm_side_kind kind)
{
	char sock[SWTEE_PATH_MAX];
	char arg[SWTEE_PATH_MAX + 16];
	char state[SWTEE_PATH_MAX];
	const char *env = getenv("SWTEE_TPM_SWTPM_TCTI");

	s->pid = -1;
	s->salt_key = ESYS_TR_NONE;
	if (kind == TPM_SIDE_TCTI) {
		if (paths_sibling("../lib/libtss2-tcti-swtee.so.0", s->tcti, sizeof(s->tcti)) ||
		    access(s->tcti, R_OK))
			return "libtss2-tcti-swtee.so.0 not found beside swtee";
		/* The bridge just let go of the TA's one session: the core may not know yet. */
		for (int i = 0; i < 40; i++) {
			if (!tss.TctiLdr_Initialize(s->tcti, &s->tcti_ctx))
				break;
			s->tcti_ctx = NULL;
			usleep(50 * 1000);
		}
		if (!s->tcti_ctx || tss.Initialize(&s->esys, s->tcti_ctx, NULL))
			return "the swtee TCTI cannot reach the fTPM";
		return NULL;
	}
	if (kind == TPM_SIDE_BRIDGE && env && *env && strlen(env) < sizeof(s->tcti)) {
		/* swtee run --tpm started a bridge already: it holds the fTPM. */
		bench_text(s->tcti, sizeof(s->tcti), "%s", env);
	} else if (kind == TPM_SIDE_BRIDGE) {
		char bin[SWTEE_PATH_MAX];

		if (paths_sibling("swtee-tpm", bin, sizeof(bin)) ||
		    !bench_fmt(sock, sizeof(sock), "%s/ftpm", dir))
			return "swtee-tpm not found";
		if (!bench_fmt(arg, sizeof(arg), "unix:%s", sock))
			return "swtee-tpm's socket path is too long";
		{
			char *argv[] = {bin, "--swtpm", arg, "-q", NULL};

			s->pid = tpm_spawn(argv, false);
		}
		if (s->pid < 0 || tpm_wait_socket(sock, s->pid))
			return "swtee-tpm did not start (is the fTPM TA built? libtpms-dev)";
		if (!bench_fmt(s->tcti, sizeof(s->tcti), "swtpm:path=%s", sock))
			return "swtee-tpm's socket path is too long";
	} else {
		if (!bench_fmt(sock, sizeof(sock), "%s/swtpm", dir) ||
		    !bench_fmt(state, sizeof(state), "%s/swtpm-state", dir) || mkdir(state, 0700))
			return "cannot make swtpm's state dir";
		{
			char server[SWTEE_PATH_MAX + 32];
			char ctrl[SWTEE_PATH_MAX + 32];
			char tpmstate[SWTEE_PATH_MAX + 16];
			char *argv[] = {"swtpm",
					"socket",
					"--tpm2",
					"--server",
					server,
					"--ctrl",
					ctrl,
					"--tpmstate",
					tpmstate,
					"--flags",
					"not-need-init,startup-clear",
					NULL};

			if (!bench_fmt(server, sizeof(server), "type=unixio,path=%s", sock) ||
			    !bench_fmt(ctrl, sizeof(ctrl), "type=unixio,path=%s.ctrl", sock) ||
			    !bench_fmt(tpmstate, sizeof(tpmstate), "dir=%s", state))
				return "swtpm's paths are too long";
			s->pid = tpm_spawn(argv, true);
		}
		if (s->pid < 0 || tpm_wait_socket(sock, s->pid))
			return "swtpm did not start (apt-get install swtpm)";
		if (!bench_fmt(s->tcti, sizeof(s->tcti), "swtpm:path=%s", sock))
			return "swtpm's socket path is too long";
	}
	if (tss.TctiLdr_Initialize(s->tcti, &s->tcti_ctx) ||
	    tss.Initialize(&s->esys, s->tcti_ctx, NULL))
		return "the TSS cannot reach the TPM (libtss2-tcti-swtpm0 installed?)";
	return NULL;
}

/* The keys the session cases use. 0, or -1 after saying why. */
static int tpm_side_keys(struct tpm_side *s)
{
	ESYS_TR key = ESYS_TR_NONE;
	TSS2_RC rc = 0;

	rc = tpm_create_primary(s, ESYS_TR_RH_NULL, false, true, 0, &key);
	if (!rc)
		rc = tss.ContextSave(s->esys, key, &s->null_key);
	if (!rc)
		rc = tss.FlushContext(s->esys, key);
	if (rc)
		return tpm_error(s, "the null key", rc);
	rc = tpm_create_primary(s, ESYS_TR_RH_OWNER, false, false, 0, &s->salt_key);
	if (rc)
		return tpm_error(s, "the salt key", rc);
	return 0;
}

static void tpm_side_close(struct tpm_side *s)
{
	if (s->esys && s->salt_key != ESYS_TR_NONE)
		tss.FlushContext(s->esys, s->salt_key);
	if (s->null_key)
		tss.Free(s->null_key);
	if (s->esys)
		tss.Finalize(&s->esys);
	if (s->tcti_ctx)
		tss.TctiLdr_Finalize(&s->tcti_ctx);
	tpm_stop(s->pid);
	s->pid = -1;
}

/* Removes dir: its sockets, swtpm's state dir and what swtpm put there. */
static void tpm_rmdir(const char *dir)
{
	static const char *const sockets[] = {"ftpm", "ftpm.ctrl", "swtpm", "swtpm.ctrl"};
	char state[SWTEE_PATH_MAX];
	char p[SWTEE_PATH_MAX];
	struct dirent *e = NULL;
	DIR *d = NULL;

	for (size_t i = 0; i < sizeof(sockets) / sizeof(sockets[0]); i++)
		if (!paths_join(p, sizeof(p), dir, sockets[i]))
			unlink(p);
	if (!paths_join(state, sizeof(state), dir, "swtpm-state") && (d = opendir(state))) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
			    !paths_join(p, sizeof(p), state, e->d_name))
				unlink(p);
		closedir(d);
		rmdir(state);
	}
	rmdir(dir);
}

static int tpm_run_cases(struct bench_ctx *ctx)
{
	struct tpm_side ftpm = {.name = "fTPM", .pid = -1};
	struct tpm_side swtpm = {.name = "swtpm", .pid = -1};
	const char *tmp = getenv("TMPDIR");
	char dir[SWTEE_PATH_MAX];
	const char *why = NULL;
	size_t done = 0;
	int ret = -1;

	why = tss_open();
	if (why)
		return tpm_skip_all(ctx, 0, why);
	bench_text(dir, sizeof(dir), "%s/swtee-bench-tpm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "swtee bench: tpm: mkdtemp: %s\n", strerror(errno));
		tss_close();
		return -1;
	}
	why = tpm_side_open(&ftpm, dir, TPM_SIDE_BRIDGE);
	if (!why)
		why = tpm_side_open(&swtpm, dir, TPM_SIDE_SWTPM);
	if (why) {
		ret = tpm_skip_all(ctx, 0, why);
		goto out;
	}
	if (tpm_side_keys(&ftpm) || tpm_side_keys(&swtpm))
		goto out;
	for (done = 0; done < TPM_NCASES; done++) {
		if (done == TPM_NBRIDGE) {
			/* The TA takes one session: the bridge must be gone first. */
			if (ftpm.pid < 0) {
				ret = tpm_skip_all(ctx, done,
						   "swtee run --tpm's swtee-tpm holds the fTPM");
				goto out;
			}
			tpm_side_close(&ftpm);
			ftpm = (struct tpm_side){.name = "fTPM (TCTI)", .pid = -1};
			why = tpm_side_open(&ftpm, dir, TPM_SIDE_TCTI);
			if (why) {
				ret = tpm_skip_all(ctx, done, why);
				goto out;
			}
		}
		size_t n = bench_iterations(ctx, tpm_cases[done].iterations);
		size_t warmup = n / 10 ? n / 10 : 1;
		struct tpm_arg fa = {.side = &ftpm, .which = done, .skip = warmup};
		struct tpm_arg sa = {.side = &swtpm, .which = done, .skip = warmup};
		struct bench_pair pair = {
		    .name = tpm_cases[done].name,
		    .run = tpm_loop,
		    .arg = &fa,
		    .baseline_name = "swtpm",
		    .baseline = tpm_loop,
		    .baseline_arg = &sa,
		    .iterations = n,
		    .warmup = warmup,
		    .target = tpm_cases[done].target,
		};
		struct bench_result r;

		if (bench_measure(&pair, &r))
			goto out;
		if (done == 2 && fa.count && sa.count) {
			r.value = fa.sum / (double)fa.count;
			r.baseline_value = sa.sum / (double)sa.count;
			r.statistic = "mean";
		}
		if (bench_report(ctx, &r))
			goto out;
	}
	ret = 0;
out:
	tpm_side_close(&ftpm);
	tpm_side_close(&swtpm);
	tpm_rmdir(dir);
	tss_close();
	return ret;
}

#else /* !BENCH_TPM_TSS */

static int tpm_run_cases(struct bench_ctx *ctx)
{
	return tpm_skip_all(ctx, 0, "swtee was built without libtss2-dev's headers");
}

#endif

/* The cases through ESYS; then, with --guest, the guests' (bench_tpm_guest.c). */
static int bench_tpm_run(struct bench_ctx *ctx)
{
	int ret = tpm_run_cases(ctx);

	if (bench_guest(ctx) && bench_tpm_guest(ctx))
		ret = -1;
	return ret;
}

static const struct bench_group bench_tpm_group = {
    .name = "tpm",
    .help = "the fTPM through swtee-tpm vs. swtpm, both through ESYS",
    .order = 70,
    .run = bench_tpm_run,
    .table = tpm_table,
};
BENCH_GROUP_DEFINE(bench_tpm_group);
