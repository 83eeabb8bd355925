/*
 * Strict base64 decoding: one encoding per byte string, so a text that
 * decodes also reads back the same through TEE_GetPropertyAsString.
 */
#include <stdint.h>

#include "base64.h"

/* The 6-bit value of c, or -1 if c is not in the alphabet. */
static int b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

bool base64_decode(const char *in, size_t len, void *out, size_t cap, size_t *size)
{
	uint8_t *o = out;
	size_t pad = 0;
	size_t n = 0;
	size_t i = 0;
	size_t w = 0;

	*size = 0;
	if (len % 4)
		return false;
	while (pad < 2 && pad < len && in[len - 1 - pad] == '=')
		pad++;
	n = len / 4 * 3 - pad;
	for (i = 0; i < len - pad; i++) {
		if (b64_value(in[i]) < 0)
			return false;
	}
	/* The bits a short last group leaves over must be zero. */
	if (pad == 1 && (b64_value(in[len - 2]) & 0x03))
		return false;
	if (pad == 2 && (b64_value(in[len - 3]) & 0x0f))
		return false;
	*size = n;
	if (n > cap)
		return true;
	for (i = 0; i < len; i += 4) {
		uint32_t v = 0;

		for (size_t k = 0; k < 4; k++) {
			int d = i + k < len - pad ? b64_value(in[i + k]) : 0;

			v = (v << 6) | (uint32_t)d;
		}
		for (size_t k = 0; k < 3 && w < n; k++)
			o[w++] = (uint8_t)(v >> (16 - 8 * k));
	}
	return true;
}

/* One pass of base64_decode_lenient: counts the bytes, and writes them when out is set. */
static size_t lenient_pass(const char *in, size_t len, uint8_t *out)
{
	uint32_t bits = 0;
	size_t nbits = 0;
	size_t n = 0;

	for (size_t i = 0; i < len && in[i] && in[i] != '='; i++) {
		int d = b64_value(in[i]);

		if (d < 0)
			continue;
		bits = (bits << 6 | (uint32_t)d) & 0xfff;
		nbits += 6;
		if (nbits >= 8) {
			nbits -= 8;
			if (out)
				out[n] = (uint8_t)(bits >> nbits);
			n++;
		}
	}
	return n;
}

void base64_decode_lenient(const char *in, size_t len, void *out, size_t cap, size_t *size)
{
	*size = lenient_pass(in, len, NULL);
	if (*size && *size <= cap)
		lenient_pass(in, len, out);
}
