/*
 * Fuzzes the socket policy file's parser (src/core/sockets/policy.c), the
 * file an administrator edits and swteed --socket-policy reads. The input is
 * the file. Whatever it holds: a refused file leaves the default in force
 * (loopback only), and an IPv4 address and its IPv4-mapped IPv6 form are
 * always judged alike.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "sockets/sockets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sock_peer v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint16_t port)
{
	struct sock_peer p = {.family = PROTO_SOCK_INET4, .port = port};

	p.addr[0] = a;
	p.addr[1] = b;
	p.addr[2] = c;
	p.addr[3] = d;
	return p;
}

static struct sock_peer mapped(const struct sock_peer *in4)
{
	struct sock_peer p = {.family = PROTO_SOCK_INET6, .port = in4->port};

	p.addr[10] = 0xff;
	p.addr[11] = 0xff;
	memcpy(p.addr + 12, in4->addr, 4);
	return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct sock_peer probes[6];
	struct swtee_uuid tas[2];
	FILE *f = NULL;
	int rc = 0;

	if (!ready) {
		log_init("fuzz", 0);
		ready = true;
	}
	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	rc = sock_policy_read(f, "fuzz");
	fclose(f);

	memset(tas, 0, sizeof(tas));
	if (!uuid_parse("6b0e3a52-8d1f-4c7a-b2e9-41d5a0c3f7e8", &tas[0]))
		abort();
	/* Bytes of the input as a TA, an address and a port too. */
	memcpy(tas[1].b, data, size < 16 ? size : 16);
	probes[0] = v4(127, 0, 0, 1, 80);
	probes[1] = v4(192, 0, 2, 1, 443);
	probes[2] = v4(10, 1, 2, 3, 8000);
	probes[3] = v4(0, 0, 0, 0, 1);
	probes[4] = v4(255, 255, 255, 255, 65535);
	probes[5] = v4(data[size - 1], data[size / 2], data[size / 3], data[0],
		       (uint16_t)(data[size - 1] << 8 | data[0] | 1));
	for (size_t t = 0; t < 2; t++) {
		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
			struct sock_peer m = mapped(&probes[i]);
			bool ok = sock_policy_allows(&tas[t], &probes[i]);

			if (ok != sock_policy_allows(&tas[t], &m))
				abort();
			if (rc && ok != (probes[i].addr[0] == 127))
				abort(); /* a refused file changed the default */
		}
		{
			struct sock_peer v6 = {.family = PROTO_SOCK_INET6, .port = 443};

			v6.addr[15] = 1; /* ::1 */
			if (rc && !sock_policy_allows(&tas[t], &v6))
				abort();
			memcpy(v6.addr, data, size < 16 ? size : 16);
			v6.port = (uint16_t)(data[0] | data[size - 1] << 8);
			sock_policy_allows(&tas[t], &v6);
		}
	}
	sock_policy_fini();
	return 0;
}
