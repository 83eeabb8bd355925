#include "sign.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/pem.h>

#include "secure.h"
#include "ta_image.h"
#include "ta_image_format.h"
#include "ta_sign.h"
#include "uuid.h"

#define SIGN_MAX_KEY_FILE (1024u * 1024u)
/* One subkey header with its name. */
#define SIGN_MAX_SUBKEY                                                                            \
	((size_t)SHDR_SIZE + SHDR_HASH_SIZE + SHDR_MAX_SIG_SIZE + SHDR_MAX_SUBKEY_BODY +           \
	 SHDR_MAX_SUBKEY_NAME)
#define SIGN_MAX_SUBKEY_FILE (SHDR_MAX_SUBKEYS * SIGN_MAX_SUBKEY)
#define SIGN_MAX_IMAGE_FILE                                                                        \
	((size_t)SHDR_SIZE + SHDR_HASH_SIZE + SHDR_MAX_SIG_SIZE + SHDR_BOOTSTRAP_TA_SIZE +         \
	 SHDR_MAX_IMG_SIZE + SIGN_MAX_SUBKEY_FILE)

enum {
	SIGN_EXIT_OK = 0,
	SIGN_EXIT_FAIL = 1,
	SIGN_EXIT_USAGE = 2,
};

struct sign_opts {
	bool verify;
	bool library;
	bool help;
	bool sign_subkey;
	bool subkey_uuid;
	const char *subkey;
	const char *name;
	const char *name_size_arg;
	const char *max_depth_arg;
	const char *subkey_version_arg;
	const char *key;
	const char *in;
	const char *out;
	const char *uuid_arg;
	const char *algo_arg;
	const char *version_arg;
	struct swtee_uuid uuid;
	uint32_t algo;
	uint32_t version;
	struct ta_subkey_info sub; /* --sign-subkey's fields */
};

enum {
	OPT_KEY = 256,
	OPT_UUID,
	OPT_IN,
	OPT_OUT,
	OPT_ALGO,
	OPT_TA_VERSION,
	OPT_VERIFY,
	OPT_LIBRARY,
	OPT_SIGN_SUBKEY,
	OPT_SUBKEY_UUID,
	OPT_SUBKEY,
	OPT_NAME,
	OPT_NAME_SIZE,
	OPT_MAX_DEPTH,
	OPT_SUBKEY_VERSION,
};

static const struct option sign_longopts[] = {
    {"key", required_argument, NULL, OPT_KEY},
    {"uuid", required_argument, NULL, OPT_UUID},
    {"in", required_argument, NULL, OPT_IN},
    {"out", required_argument, NULL, OPT_OUT},
    {"algo", required_argument, NULL, OPT_ALGO},
    {"ta-version", required_argument, NULL, OPT_TA_VERSION},
    {"verify", no_argument, NULL, OPT_VERIFY},
    {"library", no_argument, NULL, OPT_LIBRARY},
    {"sign-subkey", no_argument, NULL, OPT_SIGN_SUBKEY},
    {"subkey-uuid", no_argument, NULL, OPT_SUBKEY_UUID},
    {"subkey", required_argument, NULL, OPT_SUBKEY},
    {"name", required_argument, NULL, OPT_NAME},
    {"name-size", required_argument, NULL, OPT_NAME_SIZE},
    {"max-depth", required_argument, NULL, OPT_MAX_DEPTH},
    {"subkey-version", required_argument, NULL, OPT_SUBKEY_VERSION},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static void sign_usage(FILE *f)
{
	fprintf(f,
		"usage: swtee sign --key KEY.pem --uuid UUID --in TA.so --out UUID.ta\n"
		"                  [--algo pss|pkcs1v15] [--ta-version N] [--library]\n"
		"                  [--subkey SUBKEY.bin [--name NAME]]\n"
		"       swtee sign --sign-subkey --key KEY.pem --in SUBKEY.pem --out SUBKEY.bin\n"
		"                  --name-size N [--uuid UUID] [--max-depth N]\n"
		"                  [--subkey-version N] [--algo pss|pkcs1v15]\n"
		"                  [--subkey PARENT.bin [--name NAME]]\n"
		"       swtee sign --subkey-uuid --in SUBKEY.bin [--name NAME]\n"
		"       swtee sign --verify --key KEY.pem --in IMAGE.ta [--uuid UUID]\n"
		"                  [--library]\n"
		"       swtee sign --help\n"
		"\n"
		"Wraps a TA shared object into a signed bootstrap TA image, after checking\n"
		"that the UUID in its .ta_head section is UUID; or verifies a signed image.\n"
		"\n"
		"  --key KEY.pem    RSA private key (PEM) to sign with; for --verify, a public\n"
		"                   or unencrypted private key (PEM)\n"
		"  --uuid UUID      the TA's UUID; with --verify, the UUID the image must carry\n"
		"  --in FILE        the ELF to sign, or the image to verify\n"
		"  --out FILE       the image to write (replaced atomically, mode 0644)\n"
		"  --algo ALGO      pss: RSASSA-PSS SHA-256 (default); pkcs1v15: RSASSA\n"
		"                   PKCS#1 v1.5 SHA-256\n"
		"  --ta-version N   version stored in the signed header (default 0)\n"
		"  --verify         verify IMAGE and print: OK <uuid> version N flags 0xF,\n"
		"                   then subkeys N if it is signed through subkeys\n"
		"  --library        a TA library (SHLIBUUID): no .ta_head; its soname must\n"
		"                   be UUID, which --verify then requires\n"
		"\n"
		"Subkeys, as OP-TEE's sign_encrypt.py sign-subkey and sign-enc --subkey:\n"
		"  --sign-subkey    make SUBKEY.bin: the RSA public key in --in (PEM, public\n"
		"                   or private) signed with KEY.pem, a key the TEE trusts or,\n"
		"                   with --subkey, the parent subkey's private key\n"
		"  --subkey FILE    a subkey file: sign the TA (or the new subkey) with its\n"
		"                   private key (--key) and put the chain in front\n"
		"  --name NAME      the name under the subkey's namespace: UUID must be the\n"
		"                   UUID --subkey-uuid prints for it (default: that UUID)\n"
		"  --name-size N    room for the names below the new subkey (0: an identity\n"
		"                   subkey, whose TA or subkey carries its own UUID)\n"
		"  --max-depth N    subkey levels allowed below the new subkey (default 0, or\n"
		"                   one less than the parent's)\n"
		"  --subkey-version N  the new subkey's version (default 0)\n"
		"  --subkey-uuid    print the UUID of the TA or subkey named NAME under\n"
		"                   SUBKEY.bin's last subkey\n"
		"\n"
		"Exit status: 0 success, 1 failure, 2 usage error.\n");
}

static void sign_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void sign_err(const char *fmt, ...)
{
	va_list ap;

	fputs("swtee sign: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Reads a whole regular file of at most max bytes; the buffer is wiped on failure. */
static int file_read(const char *path, size_t max, uint8_t **data, size_t *len)
{
	int rc = -1;
	int fd = -1;
	struct stat st = {0};
	uint8_t *p = NULL;
	size_t size = 0;
	size_t got = 0;
	uint8_t extra = 0;

	*data = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		sign_err("%s: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		sign_err("%s: not a regular file", path);
		goto out;
	}
	if (st.st_size < 0 || (uint64_t)st.st_size > max) {
		sign_err("%s: larger than %zu bytes", path, max);
		goto out;
	}
	size = (size_t)st.st_size;
	p = malloc(size ? size : 1);
	if (!p) {
		sign_err("%s: out of memory", path);
		goto out;
	}
	while (got < size) {
		ssize_t n = read(fd, p + got, size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			sign_err("%s: %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got != size || read(fd, &extra, 1) != 0) {
		sign_err("%s: changed while being read", path);
		goto out;
	}
	*data = p;
	p = NULL; /* transferred */
	*len = size;
	rc = 0;
out:
	secure_wipe(p, size);
	free(p);
	if (fd >= 0)
		close(fd);
	return rc;
}

static int write_all(int fd, const uint8_t *p, size_t len)
{
	int rc = -1;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto out;
		p += n;
		len -= (size_t)n;
	}
	rc = 0;
out:
	return rc;
}

/* Writes path as a whole or not at all: a temporary file beside it, then rename. */
static int file_write_atomic(const char *path, const uint8_t *data, size_t len)
{
	int rc = -1;
	int fd = -1;
	char *tmp = NULL;

	if (asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		tmp = NULL;
		sign_err("%s: out of memory", path);
		goto out;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		sign_err("%s: cannot create a temporary file beside it: %s", path, strerror(errno));
		free(tmp);
		tmp = NULL; /* nothing to remove */
		goto out;
	}
	if (write_all(fd, data, len) || fchmod(fd, 0644) || fsync(fd)) {
		sign_err("%s: %s", tmp, strerror(errno));
		goto out;
	}
	if (close(fd)) {
		fd = -1;
		sign_err("%s: %s", tmp, strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, path)) {
		sign_err("%s: %s", path, strerror(errno));
		goto out;
	}
	free(tmp);
	tmp = NULL; /* renamed */
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	if (tmp)
		unlink(tmp);
	free(tmp);
	return rc;
}

static EVP_PKEY *signing_key_load(const char *path)
{
	EVP_PKEY *key = NULL;
	uint8_t *pem = NULL;
	size_t len = 0;
	BIO *bio = NULL;

	if (file_read(path, SIGN_MAX_KEY_FILE, &pem, &len))
		goto out;
	bio = BIO_new_mem_buf(pem, (int)len);
	if (!bio) {
		sign_err("%s: out of memory", path);
		goto out;
	}
	/* An encrypted key prompts for its passphrase, as openssl(1) does. */
	key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
	if (!key)
		sign_err("%s: no private key in PEM (signing needs the private key)", path);
out:
	BIO_free(bio);
	secure_wipe(pem, len);
	free(pem);
	return key;
}

static EVP_PKEY *verify_key_load(const char *path)
{
	EVP_PKEY *key = NULL;
	uint8_t *pem = NULL;
	size_t len = 0;

	if (file_read(path, SIGN_MAX_KEY_FILE, &pem, &len))
		goto out;
	key = ta_image_load_pubkey_pem((const char *)pem, len);
	if (!key)
		sign_err("%s: no RSA key of at least %d bits (PEM public key, or unencrypted "
			 "private key)",
			 path, SHDR_MIN_RSA_BITS);
out:
	secure_wipe(pem, len);
	free(pem);
	return key;
}

static int u32_parse(const char *s, uint32_t *v)
{
	int rc = -1;
	char *end = NULL;
	unsigned long long x = 0;

	*v = 0;
	if (*s < '0' || *s > '9')
		goto out;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x > UINT32_MAX)
		goto out;
	*v = (uint32_t)x;
	rc = 0;
out:
	return rc;
}

static int opt_set(const char **slot, const char *val, const char *name)
{
	int rc = -1;

	if (*slot) {
		sign_err("%s given twice", name);
		goto out;
	}
	*slot = val;
	rc = 0;
out:
	return rc;
}

static int opts_read(int argc, char **argv, struct sign_opts *o)
{
	int rc = -1;
	int c = 0;

	optind = 0; /* glibc: start over, whatever parsed argv before */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", sign_longopts, NULL)) != -1) {
		int r = 0;

		switch (c) {
		case OPT_KEY:
			r = opt_set(&o->key, optarg, "--key");
			break;
		case OPT_UUID:
			r = opt_set(&o->uuid_arg, optarg, "--uuid");
			break;
		case OPT_IN:
			r = opt_set(&o->in, optarg, "--in");
			break;
		case OPT_OUT:
			r = opt_set(&o->out, optarg, "--out");
			break;
		case OPT_ALGO:
			r = opt_set(&o->algo_arg, optarg, "--algo");
			break;
		case OPT_TA_VERSION:
			r = opt_set(&o->version_arg, optarg, "--ta-version");
			break;
		case OPT_VERIFY:
			o->verify = true;
			break;
		case OPT_LIBRARY:
			o->library = true;
			break;
		case OPT_SIGN_SUBKEY:
			o->sign_subkey = true;
			break;
		case OPT_SUBKEY_UUID:
			o->subkey_uuid = true;
			break;
		case OPT_SUBKEY:
			r = opt_set(&o->subkey, optarg, "--subkey");
			break;
		case OPT_NAME:
			r = opt_set(&o->name, optarg, "--name");
			break;
		case OPT_NAME_SIZE:
			r = opt_set(&o->name_size_arg, optarg, "--name-size");
			break;
		case OPT_MAX_DEPTH:
			r = opt_set(&o->max_depth_arg, optarg, "--max-depth");
			break;
		case OPT_SUBKEY_VERSION:
			r = opt_set(&o->subkey_version_arg, optarg, "--subkey-version");
			break;
		case 'h':
			o->help = true;
			break;
		case ':':
			sign_err("%s needs an argument", argv[optind - 1]);
			r = -1;
			break;
		default:
			sign_err("unknown option %s", argv[optind - 1]);
			r = -1;
			break;
		}
		if (r)
			goto out;
	}
	if (optind < argc) {
		sign_err("unexpected argument %s", argv[optind]);
		goto out;
	}
	rc = 0;
out:
	return rc;
}

static int opts_check_verify(const struct sign_opts *o)
{
	int rc = -1;

	if (!o->key || !o->in) {
		sign_err("--verify needs --key and --in");
		goto out;
	}
	if (o->out || o->algo_arg || o->version_arg) {
		sign_err("--out, --algo and --ta-version are for signing, not --verify");
		goto out;
	}
	rc = 0;
out:
	return rc;
}

/* A u32 option: absent leaves *v, a bad value is an error. */
static int u32_opt(const char *arg, const char *name, uint32_t *v)
{
	int rc = -1;

	if (arg && u32_parse(arg, v)) {
		sign_err("%s %s is not a number from 0 to %" PRIu32, name, arg, UINT32_MAX);
		goto out;
	}
	rc = 0;
out:
	return rc;
}

static int opts_check_subkey(struct sign_opts *o)
{
	int rc = -1;

	if (o->verify + o->sign_subkey + o->subkey_uuid > 1) {
		sign_err("--verify, --sign-subkey and --subkey-uuid exclude each other");
		goto out;
	}
	if (o->name && !o->subkey && !o->subkey_uuid) {
		sign_err("--name needs --subkey (the subkey whose namespace it is in)");
		goto out;
	}
	if (o->verify && o->subkey) {
		sign_err("--verify reads the subkeys from the image: no --subkey");
		goto out;
	}
	if (!o->sign_subkey && (o->name_size_arg || o->max_depth_arg || o->subkey_version_arg)) {
		sign_err("--name-size, --max-depth and --subkey-version are for --sign-subkey");
		goto out;
	}
	if (o->subkey_uuid && (!o->in || o->key || o->out || o->uuid_arg || o->subkey)) {
		sign_err("--subkey-uuid takes --in SUBKEY.bin and --name only");
		goto out;
	}
	if (o->sign_subkey && (!o->key || !o->in || !o->out || !o->name_size_arg)) {
		sign_err("--sign-subkey needs --key, --in, --out and --name-size");
		goto out;
	}
	if (o->sign_subkey && (o->library || o->version_arg)) {
		sign_err("--library and --ta-version are for TAs, not --sign-subkey");
		goto out;
	}
	if (o->sign_subkey && !o->subkey && !o->uuid_arg) {
		sign_err("--sign-subkey needs --uuid, or --subkey to derive it from");
		goto out;
	}
	if (u32_opt(o->name_size_arg, "--name-size", &o->sub.name_size) ||
	    u32_opt(o->max_depth_arg, "--max-depth", &o->sub.max_depth) ||
	    u32_opt(o->subkey_version_arg, "--subkey-version", &o->sub.version))
		goto out;
	rc = 0;
out:
	return rc;
}

static int opts_check(struct sign_opts *o)
{
	int rc = -1;

	if (opts_check_subkey(o))
		goto out;
	if (o->sign_subkey || o->subkey_uuid) {
		/* checked above */
	} else if (o->verify) {
		if (opts_check_verify(o))
			goto out;
		if (o->library && !o->uuid_arg) {
			sign_err("--verify --library needs --uuid");
			goto out;
		}
	} else if (!o->key || (!o->uuid_arg && !o->subkey) || !o->in || !o->out) {
		sign_err("signing needs --key, --uuid, --in and --out (see swtee sign --help)");
		goto out;
	}
	if (o->uuid_arg && !uuid_parse(o->uuid_arg, &o->uuid)) {
		sign_err("not a UUID: %s", o->uuid_arg);
		goto out;
	}
	o->algo = SHDR_ALGO_RSASSA_PSS_SHA256;
	if (o->algo_arg && strcmp(o->algo_arg, "pkcs1v15") == 0) {
		o->algo = SHDR_ALGO_RSASSA_PKCS1_V1_5_SHA256;
	} else if (o->algo_arg && strcmp(o->algo_arg, "pss") != 0) {
		sign_err("unknown --algo %s (pss or pkcs1v15)", o->algo_arg);
		goto out;
	}
	if (u32_opt(o->version_arg, "--ta-version", &o->version))
		goto out;
	o->sub.algo = o->algo;
	rc = 0;
out:
	return rc;
}

/* A subkey file as swtee sign --sign-subkey writes it. */
struct chain_file {
	uint8_t *data;
	size_t len;
	struct ta_subkey_info last;
	uint32_t count;
	EVP_PKEY *key;	      /* the last subkey's public key */
	struct swtee_uuid ns; /* the UUID named by --name under the last subkey */
};

static void chain_free(struct chain_file *c)
{
	EVP_PKEY_free(c->key);
	free(c->data);
	memset(c, 0, sizeof(*c));
}

static int chain_load(const char *path, const char *name, struct chain_file *c)
{
	char why[256] = "";
	uint8_t padded[SHDR_MAX_SUBKEY_NAME + 1] = {0};
	size_t name_len = name ? strlen(name) : 0;

	uint8_t *data = NULL;
	size_t len = 0;

	memset(c, 0, sizeof(*c));
	if (file_read(path, SIGN_MAX_SUBKEY_FILE, &data, &len))
		return -1;
	if (ta_subkey_chain_parse(data, len, &c->last, &c->count, &c->key, why, sizeof(why))) {
		sign_err("%s: %s", path, why);
		goto fail;
	}
	if (name_len > c->last.name_size) {
		sign_err("--name of %zu bytes, but %s allows %" PRIu32 "%s", name_len, path,
			 c->last.name_size,
			 c->last.name_size ? "" : " (an identity subkey: give no --name)");
		goto fail;
	}
	if (name_len)
		memcpy(padded, name, name_len + 1); /* name_len < sizeof(padded) */
	if (ta_subkey_next_uuid(&c->last.uuid, padded, c->last.name_size, &c->ns)) {
		sign_err("%s: cannot compute the namespace UUID", path);
		goto fail;
	}
	/* Set last: the analyzer takes the calls above as rewriting all of *c. */
	c->data = data;
	c->len = len;
	return 0;
fail:
	EVP_PKEY_free(c->key);
	free(data);
	memset(c, 0, sizeof(*c));
	return -1;
}

/* Whether key (a private key) is the one that signs for the chain's last subkey. */
static int chain_key_check(const struct chain_file *c, EVP_PKEY *key, const char *key_path,
			   const char *chain_path)
{
	int rc = -1;

	if (EVP_PKEY_eq(key, c->key) != 1) {
		sign_err("%s is not the private key of the last subkey in %s", key_path,
			 chain_path);
		goto out;
	}
	rc = 0;
out:
	return rc;
}

static int sign_run(const struct sign_opts *o)
{
	int rc = SIGN_EXIT_FAIL;
	uint8_t *elf = NULL;
	uint8_t *img = NULL;
	size_t elf_len = 0;
	size_t img_len = 0;
	EVP_PKEY *key = NULL;
	struct swtee_uuid head = {0};
	uint32_t stack_size = 0;
	uint32_t flags = 0;
	struct ta_image_info info = {0};
	struct chain_file chain = {0};
	struct swtee_uuid uuid = o->uuid;
	size_t tail = 0;
	char why[256] = "";
	char s1[SWTEE_UUID_STR_LEN] = "";
	char s2[SWTEE_UUID_STR_LEN] = "";

	if (o->subkey) {
		if (chain_load(o->subkey, o->name, &chain))
			goto out;
		if (!o->uuid_arg)
			uuid = chain.ns;
		/* The TA's own image follows the chain and the last subkey's name. */
		tail = chain.len + chain.last.name_size;
	}
	if (file_read(o->in, SHDR_MAX_IMG_SIZE, &elf, &elf_len))
		goto out;
	if (o->library) {
		if (ta_elf_check_lib(elf, elf_len, &uuid, why, sizeof(why))) {
			sign_err("%s: %s", o->in, why);
			goto out;
		}
		head = uuid;
	} else if (ta_elf_read_head(elf, elf_len, &head, &stack_size, &flags, why, sizeof(why))) {
		sign_err("%s: %s", o->in, why);
		goto out;
	}
	if (!uuid_equal(&head, &uuid)) {
		uuid_format(&head, s1);
		uuid_format(&uuid, s2);
		sign_err("%s: .ta_head UUID %s does not match %s %s", o->in, s1,
			 o->uuid_arg ? "--uuid" : "the subkey's namespace UUID", s2);
		goto out;
	}
	key = signing_key_load(o->key);
	if (!key || (o->subkey && chain_key_check(&chain, key, o->key, o->subkey)))
		goto out;
	if (ta_image_sign_chain(chain.data, chain.len, o->name, elf, elf_len, &uuid, o->version,
				o->algo, key, &img, &img_len, why, sizeof(why))) {
		sign_err("cannot sign %s with %s: %s", o->in, o->key, why);
		goto out;
	}
	/* Never write an image the core would refuse (the chain's own signers aside). */
	if (o->library ? ta_image_verify_lib(img + tail, img_len - tail, &uuid, &key, 1, &info, why,
					     sizeof(why))
		       : ta_image_verify(img + tail, img_len - tail, &uuid, &key, 1, &info, why,
					 sizeof(why))) {
		sign_err("%s: the signed image does not verify: %s", o->in, why);
		goto out;
	}
	if (file_write_atomic(o->out, img, img_len))
		goto out;
	rc = SIGN_EXIT_OK;
out:
	chain_free(&chain);
	EVP_PKEY_free(key);
	free(img);
	free(elf);
	return rc;
}

static int verify_run(const struct sign_opts *o)
{
	int rc = SIGN_EXIT_FAIL;
	uint8_t *img = NULL;
	size_t img_len = 0;
	EVP_PKEY *key = NULL;
	struct ta_image_info info = {0};
	char why[256] = "";
	char s[SWTEE_UUID_STR_LEN] = "";

	key = verify_key_load(o->key);
	if (!key)
		goto out;
	if (file_read(o->in, SIGN_MAX_IMAGE_FILE, &img, &img_len))
		goto out;
	if (o->library
		? ta_image_verify_lib(img, img_len, &o->uuid, &key, 1, &info, why, sizeof(why))
		: ta_image_verify(img, img_len, o->uuid_arg ? &o->uuid : NULL, &key, 1, &info, why,
				  sizeof(why))) {
		sign_err("%s: %s", o->in, why);
		goto out;
	}
	uuid_format(&info.uuid, s);
	if (printf("OK %s version %" PRIu32 " flags 0x%" PRIx32, s, info.ta_version, info.flags) <
		0 ||
	    (info.subkeys && printf(" subkeys %" PRIu32, info.subkeys) < 0) || printf("\n") < 0 ||
	    fflush(stdout) != 0) {
		sign_err("cannot write to standard output");
		goto out;
	}
	rc = SIGN_EXIT_OK;
out:
	EVP_PKEY_free(key);
	free(img);
	return rc;
}

static int sign_subkey_run(const struct sign_opts *o)
{
	int rc = SIGN_EXIT_FAIL;
	EVP_PKEY *pub = NULL;
	EVP_PKEY *key = NULL;
	struct chain_file chain = {0};
	struct ta_subkey_info sub = o->sub;
	struct ta_subkey_info last = {0};
	uint32_t count = 0;
	uint8_t *img = NULL;
	size_t img_len = 0;
	char why[256] = "";

	sub.uuid = o->uuid;
	if (o->subkey) {
		if (chain_load(o->subkey, o->name, &chain))
			goto out;
		if (!o->uuid_arg)
			sub.uuid = chain.ns;
		if (!o->max_depth_arg && chain.last.max_depth == 0) {
			sign_err("%s: its last subkey has max_depth 0: it signs TAs, no subkeys",
				 o->subkey);
			goto out;
		}
		if (!o->max_depth_arg)
			sub.max_depth = chain.last.max_depth - 1;
	}
	pub = verify_key_load(o->in);
	if (!pub)
		goto out;
	key = signing_key_load(o->key);
	if (!key || (o->subkey && chain_key_check(&chain, key, o->key, o->subkey)))
		goto out;
	if (ta_subkey_sign(chain.data, chain.len, o->name, &sub, pub, o->algo, key, &img, &img_len,
			   why, sizeof(why))) {
		sign_err("cannot sign the subkey %s with %s: %s", o->in, o->key, why);
		goto out;
	}
	if (ta_subkey_chain_parse(img, img_len, &last, &count, NULL, why, sizeof(why)) ||
	    count != chain.count + 1) {
		sign_err("the subkey file made does not read back: %s", why);
		goto out;
	}
	if (file_write_atomic(o->out, img, img_len))
		goto out;
	rc = SIGN_EXIT_OK;
out:
	free(img);
	chain_free(&chain);
	EVP_PKEY_free(key);
	EVP_PKEY_free(pub);
	return rc;
}

static int subkey_uuid_run(const struct sign_opts *o)
{
	int rc = SIGN_EXIT_FAIL;
	struct chain_file chain = {0};
	char s[SWTEE_UUID_STR_LEN] = "";

	if (chain_load(o->in, o->name, &chain))
		goto out;
	uuid_format(&chain.ns, s);
	if (printf("%s\n", s) < 0 || fflush(stdout) != 0) {
		sign_err("cannot write to standard output");
		goto out;
	}
	rc = SIGN_EXIT_OK;
out:
	chain_free(&chain);
	return rc;
}

int swtee_sign_main(int argc, char **argv)
{
	int rc = SIGN_EXIT_USAGE;
	struct sign_opts o = {0};

	if (opts_read(argc, argv, &o))
		goto out;
	if (o.help) {
		sign_usage(stdout);
		rc = SIGN_EXIT_OK;
		goto out;
	}
	if (opts_check(&o))
		goto out;
	if (o.verify)
		rc = verify_run(&o);
	else if (o.sign_subkey)
		rc = sign_subkey_run(&o);
	else if (o.subkey_uuid)
		rc = subkey_uuid_run(&o);
	else
		rc = sign_run(&o);
out:
	return rc;
}
