/*
 * Client identities. The login method is the client's choice; the facts it
 * is built from (uid, gid, group membership, executable) come from the
 * kernel: SO_PEERCRED of the connection and /proc of that process, read once
 * when the core accepts the connection, so that a later exec or a reused
 * pid cannot change them; a login by executable also needs an open written
 * after that read (it echoes the connection's nonce) by a process that runs
 * that same executable in the same layout, so one that has not exec'd since
 * (client.c). A UUID is
 * the version-5 UUID of "uid=%x", "gid=%x" or "app=<path>" (joined with ':')
 * in swtee's login namespace, the namespace OP-TEE's clients check against.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "core.h"
#include "log.h"

static const struct swtee_uuid login_ns = {{0x58, 0xac, 0x9c, 0xa0, 0x20, 0x86, 0x46, 0x83, 0xa1,
					    0xb8, 0xec, 0x4b, 0xc0, 0x8e, 0x01, 0xb6}};

static bool uuid_v5(struct swtee_uuid *out, const char *name)
{
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha1(), NULL) &&
		  EVP_DigestUpdate(ctx, login_ns.b, sizeof(login_ns.b)) &&
		  EVP_DigestUpdate(ctx, name, strlen(name)) &&
		  EVP_DigestFinal_ex(ctx, md, &mdlen) && mdlen >= 16;

	EVP_MD_CTX_free(ctx);
	if (!ok)
		return false;
	memcpy(out->b, md, 16);
	out->b[6] = (uint8_t)((out->b[6] & 0x0f) | 0x50);
	out->b[8] = (uint8_t)((out->b[8] & 0x3f) | 0x80);
	return true;
}

bool identity_exe(pid_t pid, char *out, size_t n)
{
	char path[64];
	ssize_t len = 0;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	len = readlink(path, out, n - 1);
	if (len <= 0)
		return false;
	out[len] = '\0';
	return true;
}

/*
 * The fields of /proc/PID/stat that an exec sets and nothing after it may
 * change without CAP_SYS_RESOURCE: startcode, endcode, startstack (26-28)
 * and start_data .. env_end (45-51), counted from 1 as proc(5) does. They
 * read as 0 or 1 when the process is not ours to trace, as its exe link is
 * not ours to read then.
 */
bool identity_layout(pid_t pid, uint64_t out[CLIENT_LAYOUT_FIELDS])
{
	static const int fields[CLIENT_LAYOUT_FIELDS] = {26, 27, 28, 45, 46, 47, 48, 49, 50, 51};
	char path[64];
	char line[2048]; /* 52 numbers of at most 20 digits and a name of 16 bytes: ~1.1 KiB */
	char *save = NULL;
	char *tok = NULL;
	char *p = NULL;
	uint64_t any = 0;
	FILE *file = NULL;
	size_t got = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	file = fopen(path, "re");
	if (!file)
		return false;
	p = fgets(line, sizeof(line), file);
	fclose(file);
	/* The name (field 2) is in parentheses and may hold any byte but NUL. */
	if (!p || !(p = strrchr(line, ')')))
		return false;
	tok = strtok_r(p + 1, " \n", &save);
	for (int field = 3; tok && got < CLIENT_LAYOUT_FIELDS; field++) {
		if (field == fields[got]) {
			char *end = NULL;

			out[got] = strtoull(tok, &end, 10);
			if (end == tok || *end)
				return false;
			any |= out[got] > 1 ? out[got] : 0;
			got++;
		}
		tok = strtok_r(NULL, " \n", &save);
	}
	return got == CLIENT_LAYOUT_FIELDS && any != 0;
}

void identity_capture(const struct ucred *cred, struct client_facts *f)
{
	char path[64];
	char line[4096];
	FILE *file = NULL;

	memset(f, 0, sizeof(*f));
	f->cred = *cred;
	f->exe_ok = identity_exe(cred->pid, f->exe, sizeof(f->exe));
	f->layout_ok = identity_layout(cred->pid, f->layout);
	snprintf(path, sizeof(path), "/proc/%d/status", (int)cred->pid);
	file = fopen(path, "re");
	if (!file)
		return;
	while (fgets(line, sizeof(line), file)) {
		char *p = line + 7;
		char *e = NULL;

		if (strncmp(line, "Groups:", 7) != 0)
			continue;
		while (f->ngroups < CLIENT_MAX_GROUPS) {
			unsigned long g = strtoul(p, &e, 10);

			if (e == p)
				break;
			f->groups[f->ngroups++] = (uint32_t)g;
			p = e;
		}
		break;
	}
	fclose(file);
}

static bool in_group(const struct client_facts *f, uint32_t gid)
{
	if (f->cred.gid == gid)
		return true;
	for (size_t i = 0; i < f->ngroups; i++)
		if (f->groups[i] == gid)
			return true;
	return false;
}

uint32_t identity_for_login(const struct client_facts *f, uint32_t login, uint32_t gid,
			    struct swtee_uuid *out)
{
	const struct ucred *cred = &f->cred;
	const char *app = f->exe;
	char name[4200];
	int r = 0;

	memset(out, 0, sizeof(*out));
	switch (login) {
	case TEEC_LOGIN_PUBLIC:
		return TEEC_SUCCESS;
	case TEEC_LOGIN_USER:
		r = snprintf(name, sizeof(name), "uid=%x", (unsigned int)cred->uid);
		break;
	case TEEC_LOGIN_GROUP:
		if (!in_group(f, gid))
			return TEEC_ERROR_ACCESS_DENIED;
		r = snprintf(name, sizeof(name), "gid=%x", gid);
		break;
	case TEEC_LOGIN_APPLICATION:
	case TEEC_LOGIN_USER_APPLICATION:
	case TEEC_LOGIN_GROUP_APPLICATION:
		if (!f->exe_ok)
			return TEEC_ERROR_ACCESS_DENIED;
		if (login == TEEC_LOGIN_APPLICATION) {
			r = snprintf(name, sizeof(name), "app=%s", app);
		} else if (login == TEEC_LOGIN_USER_APPLICATION) {
			r = snprintf(name, sizeof(name), "uid=%x:app=%s", (unsigned int)cred->uid,
				     app);
		} else {
			if (!in_group(f, gid))
				return TEEC_ERROR_ACCESS_DENIED;
			r = snprintf(name, sizeof(name), "gid=%x:app=%s", gid, app);
		}
		break;
	default:
		return TEEC_ERROR_BAD_PARAMETERS;
	}
	if (r < 0 || (size_t)r >= sizeof(name))
		return TEEC_ERROR_BAD_PARAMETERS;
	if (!uuid_v5(out, name))
		return TEEC_ERROR_OUT_OF_MEMORY;
	return TEEC_SUCCESS;
}
