/*
 * The socket policy: which TAs may reach which addresses and ports. Without
 * a policy file every TA may reach the loopback addresses only. A file
 * replaces that default with its own rules, one a line:
 *
 *   allow TA HOST PORTS
 *
 * TA is a UUID or *; HOST is an IPv4 or IPv6 address with an optional
 * /prefix, "loopback" or *; PORTS is a port, LOW-HIGH or *. # starts a
 * comment. Anything not allowed is refused. Host names are checked by the
 * addresses they resolve to, before any connection is made. An IPv4-mapped
 * IPv6 address (::ffff:a.b.c.d) reaches an IPv4 host and is checked as one.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "sockets.h"

#define POLICY_RULES_MAX 256
#define POLICY_LINE_MAX 512

enum host_kind { HOST_ANY, HOST_LOOPBACK, HOST_NET };

struct sock_rule {
	bool any_ta;
	struct swtee_uuid ta;
	enum host_kind kind;
	uint32_t family;
	uint8_t net[16];
	unsigned int prefix;
	uint16_t port_lo;
	uint16_t port_hi;
};

static const struct sock_rule loopback_only = {
    .any_ta = true,
    .kind = HOST_LOOPBACK,
    .port_lo = 1,
    .port_hi = 65535,
};
static const struct sock_rule *rules = &loopback_only;
static size_t nrules = 1;

/* An IPv4-mapped IPv6 address as the IPv4 address it reaches; others unchanged. */
static void peer_normalize(const struct sock_peer *in, struct sock_peer *out)
{
	static const uint8_t v4_mapped[12] = {[10] = 0xff, [11] = 0xff};

	*out = *in;
	if (in->family != PROTO_SOCK_INET6 || memcmp(in->addr, v4_mapped, 12) != 0)
		return;
	memset(out->addr, 0, sizeof(out->addr));
	memcpy(out->addr, in->addr + 12, 4);
	out->family = PROTO_SOCK_INET4;
}

/* 127.0.0.0/8 or ::1 (p normalized). */
static bool is_loopback(const struct sock_peer *p)
{
	static const uint8_t v6_loop[16] = {[15] = 1};

	if (p->family == PROTO_SOCK_INET4)
		return p->addr[0] == 127;
	return !memcmp(p->addr, v6_loop, 16);
}

static bool prefix_match(const uint8_t *a, const uint8_t *net, unsigned int bits)
{
	unsigned int whole = bits / 8;
	unsigned int rest = bits % 8;

	if (memcmp(a, net, whole) != 0)
		return false;
	if (!rest)
		return true;
	return ((a[whole] ^ net[whole]) & (uint8_t)(0xff << (8 - rest))) == 0;
}

bool sock_policy_allows(const struct swtee_uuid *uuid, const struct sock_peer *to)
{
	struct sock_peer peer;

	peer_normalize(to, &peer);
	for (size_t i = 0; i < nrules; i++) {
		const struct sock_rule *r = &rules[i];

		if (!r->any_ta && !uuid_equal(&r->ta, uuid))
			continue;
		if (peer.port < r->port_lo || peer.port > r->port_hi)
			continue;
		if (r->kind == HOST_ANY)
			return true;
		if (r->kind == HOST_LOOPBACK) {
			if (is_loopback(&peer))
				return true;
			continue;
		}
		if (r->family == peer.family && prefix_match(peer.addr, r->net, r->prefix))
			return true;
	}
	return false;
}

void sock_peer_format(const struct sock_peer *peer, char *out, size_t n)
{
	char a[INET6_ADDRSTRLEN] = "?";

	inet_ntop(peer->family == PROTO_SOCK_INET4 ? AF_INET : AF_INET6, peer->addr, a, sizeof(a));
	snprintf(out, n, peer->family == PROTO_SOCK_INET4 ? "%s:%u" : "[%s]:%u", a,
		 (unsigned int)peer->port);
}

/* A decimal number of digits only (no sign, no space) up to max. */
static int parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end = NULL;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || *end || *v > max)
		return -1;
	return 0;
}

static int parse_port(const char *s, uint16_t *v)
{
	unsigned long n = 0;

	if (parse_uint(s, 65535, &n) || !n)
		return -1;
	*v = (uint16_t)n;
	return 0;
}

static int parse_ports(char *s, struct sock_rule *r)
{
	char *dash = strchr(s, '-');

	if (!strcmp(s, "*")) {
		r->port_lo = 1;
		r->port_hi = 65535;
		return 0;
	}
	if (!dash)
		return parse_port(s, &r->port_lo) || parse_port(s, &r->port_hi) ? -1 : 0;
	*dash = '\0';
	if (parse_port(s, &r->port_lo) || parse_port(dash + 1, &r->port_hi) ||
	    r->port_lo > r->port_hi)
		return -1;
	return 0;
}

static int parse_host(char *s, struct sock_rule *r)
{
	char *slash = strchr(s, '/');
	unsigned int max = 0;

	if (!strcmp(s, "*")) {
		r->kind = HOST_ANY;
		return 0;
	}
	if (!strcmp(s, "loopback")) {
		r->kind = HOST_LOOPBACK;
		return 0;
	}
	r->kind = HOST_NET;
	if (slash)
		*slash = '\0';
	if (inet_pton(AF_INET, s, r->net) == 1) {
		r->family = PROTO_SOCK_INET4;
		max = 32;
	} else if (inet_pton(AF_INET6, s, r->net) == 1) {
		r->family = PROTO_SOCK_INET6;
		max = 128;
	} else {
		return -1;
	}
	r->prefix = max;
	if (slash) {
		unsigned long n = 0;

		if (parse_uint(slash + 1, max, &n))
			return -1;
		r->prefix = (unsigned int)n;
	}
	/* A rule within ::ffff:0:0/96 names IPv4 hosts, as peers there are checked. */
	if (r->family == PROTO_SOCK_INET6 && r->prefix >= 96) {
		struct sock_peer net = {.family = PROTO_SOCK_INET6};

		memcpy(net.addr, r->net, sizeof(net.addr));
		peer_normalize(&net, &net);
		if (net.family == PROTO_SOCK_INET4) {
			memcpy(r->net, net.addr, sizeof(r->net));
			r->family = PROTO_SOCK_INET4;
			r->prefix -= 96;
		}
	}
	return 0;
}

static int parse_rule(char *line, struct sock_rule *r)
{
	char *save = NULL;
	char *verb = strtok_r(line, " \t", &save);
	char *ta = strtok_r(NULL, " \t", &save);
	char *host = strtok_r(NULL, " \t", &save);
	char *ports = strtok_r(NULL, " \t", &save);

	memset(r, 0, sizeof(*r));
	if (!verb || strcmp(verb, "allow") != 0 || !ta || !host || !ports ||
	    strtok_r(NULL, " \t", &save))
		return -1;
	if (!strcmp(ta, "*"))
		r->any_ta = true;
	else if (!uuid_parse(ta, &r->ta))
		return -1;
	return parse_host(host, r) || parse_ports(ports, r) ? -1 : 0;
}

int sock_policy_read(FILE *f, const char *name)
{
	struct sock_rule *list = NULL;
	char line[POLICY_LINE_MAX];
	size_t n = 0;
	unsigned int lineno = 0;
	int rc = -1;

	list = calloc(POLICY_RULES_MAX, sizeof(*list));
	if (!list) {
		log_error("%s: out of memory", name);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#');
		char *p = line;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			log_error("%s:%u: line too long", name, lineno);
			goto out;
		}
		if (hash)
			*hash = '\0';
		line[strcspn(line, "\r\n")] = '\0';
		p += strspn(p, " \t");
		if (!*p)
			continue;
		if (n >= POLICY_RULES_MAX) {
			log_error("%s:%u: more than %d rules", name, lineno, POLICY_RULES_MAX);
			goto out;
		}
		if (parse_rule(p, &list[n])) {
			log_error("%s:%u: not a rule (allow TA|* HOST[/PREFIX]|loopback|* "
				  "PORT|LOW-HIGH|*)",
				  name, lineno);
			goto out;
		}
		n++;
	}
	if (ferror(f)) {
		log_error("cannot read the socket policy %s", name);
		goto out;
	}
	sock_policy_fini();
	rules = list;
	nrules = n;
	list = NULL; /* transferred: kept until sock_policy_fini */
	log_info("socket policy %s: %zu rule%s", name, n, n == 1 ? "" : "s");
	rc = 0;
out:
	free(list);
	return rc;
}

int sock_policy_load(const char *path)
{
	int rc = -1;
	FILE *f = fopen(path, "re");

	if (!f) {
		log_error("cannot read the socket policy %s: %s", path, strerror(errno));
		return -1;
	}
	rc = sock_policy_read(f, path);
	fclose(f);
	return rc;
}

void sock_policy_fini(void)
{
	if (rules != &loopback_only)
		free((void *)rules);
	rules = &loopback_only;
	nrules = 1;
}
