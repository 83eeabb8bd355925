/*
 * Base64 (RFC 4648 §4, the standard alphabet), as GP property binary blocks
 * are written.
 */
#ifndef SWTEE_BASE64_H
#define SWTEE_BASE64_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Decodes the len characters at in. Only the canonical encoding is accepted:
 * characters of the alphabet, '=' padding to a multiple of four characters,
 * and zero pad bits; anything else (spaces and line breaks included) makes it
 * return false. On success *size is the decoded size, and the bytes are
 * written to out only if *size <= cap (out may be NULL when cap is 0).
 */
bool base64_decode(const char *in, size_t len, void *out, size_t cap, size_t *size);

/*
 * Decodes as OP-TEE reads the values of its binary-block TA properties:
 * characters outside the alphabet are skipped, the first '=' or NUL ends the
 * text, and a last group too short for a whole byte gives nothing ("====" and
 * "-%@&" are both empty). *size is the decoded size; the bytes are written to
 * out only if *size <= cap.
 */
void base64_decode_lenient(const char *in, size_t len, void *out, size_t cap, size_t *size);

#endif
