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
#define SIGN_MAX_IMAGE_FILE                                                                        \
	((size_t)SHDR_SIZE + SHDR_HASH_SIZE + SHDR_MAX_SIG_SIZE + SHDR_BOOTSTRAP_TA_SIZE +         \
	 SHDR_MAX_IMG_SIZE)

enum {
	SIGN_EXIT_OK = 0,
	SIGN_EXIT_FAIL = 1,
	SIGN_EXIT_USAGE = 2,
};

struct sign_opts {
	bool verify;
	bool library;
	bool help;
	const char *key;
	const char *in;
	const char *out;
	const char *uuid_arg;
	const char *algo_arg;
	const char *version_arg;
	struct swtee_uuid uuid;
	uint32_t algo;
	uint32_t version;
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
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static void sign_usage(FILE *f)
{
	fprintf(f,
		"usage: swtee sign --key KEY.pem --uuid UUID --in TA.so --out UUID.ta\n"
		"                  [--algo pss|pkcs1v15] [--ta-version N] [--library]\n"
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
		"  --verify         verify IMAGE and print: OK <uuid> version N flags 0xF\n"
		"  --library        a TA library (SHLIBUUID): no .ta_head; its soname must\n"
		"                   be UUID, which --verify then requires\n"
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

static int opts_check(struct sign_opts *o)
{
	int rc = -1;

	if (o->verify) {
		if (opts_check_verify(o))
			goto out;
		if (o->library && !o->uuid_arg) {
			sign_err("--verify --library needs --uuid");
			goto out;
		}
	} else if (!o->key || !o->uuid_arg || !o->in || !o->out) {
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
	if (o->version_arg && u32_parse(o->version_arg, &o->version)) {
		sign_err("--ta-version %s is not a number from 0 to %" PRIu32, o->version_arg,
			 UINT32_MAX);
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
	char why[256] = "";
	char s1[SWTEE_UUID_STR_LEN] = "";
	char s2[SWTEE_UUID_STR_LEN] = "";

	if (file_read(o->in, SHDR_MAX_IMG_SIZE, &elf, &elf_len))
		goto out;
	if (o->library) {
		if (ta_elf_check_lib(elf, elf_len, &o->uuid, why, sizeof(why))) {
			sign_err("%s: %s", o->in, why);
			goto out;
		}
		head = o->uuid;
	} else if (ta_elf_read_head(elf, elf_len, &head, &stack_size, &flags, why, sizeof(why))) {
		sign_err("%s: %s", o->in, why);
		goto out;
	}
	if (!uuid_equal(&head, &o->uuid)) {
		uuid_format(&head, s1);
		uuid_format(&o->uuid, s2);
		sign_err("%s: .ta_head UUID %s does not match --uuid %s", o->in, s1, s2);
		goto out;
	}
	key = signing_key_load(o->key);
	if (!key)
		goto out;
	if (ta_image_sign(elf, elf_len, &o->uuid, o->version, o->algo, key, &img, &img_len, why,
			  sizeof(why))) {
		sign_err("cannot sign %s with %s: %s", o->in, o->key, why);
		goto out;
	}
	/* Never write an image the core would refuse. */
	if (o->library
		? ta_image_verify_lib(img, img_len, &o->uuid, &key, 1, &info, why, sizeof(why))
		: ta_image_verify(img, img_len, &o->uuid, &key, 1, &info, why, sizeof(why))) {
		sign_err("%s: the signed image does not verify: %s", o->in, why);
		goto out;
	}
	if (file_write_atomic(o->out, img, img_len))
		goto out;
	rc = SIGN_EXIT_OK;
out:
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
	if (printf("OK %s version %" PRIu32 " flags 0x%" PRIx32 "\n", s, info.ta_version,
		   info.flags) < 0 ||
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
	rc = o.verify ? verify_run(&o) : sign_run(&o);
out:
	return rc;
}
