/*
 * printk.h: snprintk and vsnprintk, the C library's snprintf with OP-TEE's
 * one extension, %pUl: the argument is a pointer to a TEE_UUID, printed in
 * lower case as 8-4-4-4-12 hex digits, its fields in the host's byte order
 * as OP-TEE prints them (PKCS#11's slot description carries the TEE's
 * device UUID this way). Flags and a width apply to the UUID's text as to
 * a %s; a precision or a length modifier before pUl makes it a plain %p.
 *
 * The format is walked one conversion at a time: text is copied, each
 * conversion is handed to snprintf with the one argument its length
 * modifier and conversion name, so the C library does all the formatting.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include <printk.h>
#include <tee_api_types.h>

#include "uuid.h"

/*
 * Every format handed to snprintf here is one conversion of the caller's
 * format, whose argument is taken with the type that conversion names: the
 * caller's format was checked by the compiler at its call of snprintk.
 */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* Room for "%", flags, two numbers, a length modifier, a conversion. */
#define SPEC_MAX 64

/* Output so far: str (size bytes, may be NULL with size 0) and the full length. */
struct out {
	char *str;
	size_t size;
	size_t len;
};

/* One conversion as written, with any '*' resolved into its number. */
struct spec {
	char text[SPEC_MAX];
	size_t n;
	char length[3]; /* hh h l ll j z t L q, or "" */
	char conv;
	bool precision;
	bool ok;
};

/* The room left at the end of o, and where it starts (NULL when none). */
static char *out_at(const struct out *o, size_t *room)
{
	*room = o->len < o->size ? o->size - o->len : 0;
	return *room ? o->str + o->len : NULL;
}

static void out_text(struct out *o, const char *s, size_t n)
{
	size_t room = 0;
	char *at = out_at(o, &room);

	if (at) {
		size_t k = n < room ? n : room - 1;

		memcpy(at, s, k);
		at[k] = '\0';
	}
	o->len += n;
}

/* A formatted piece's length (snprintf's result) added to o; -1 on an error. */
static int out_add(struct out *o, int n)
{
	if (n < 0)
		return -1;
	o->len += (size_t)n;
	return 0;
}

static void spec_put(struct spec *s, char ch)
{
	if (s->n + 1 < sizeof(s->text))
		s->text[s->n++] = ch;
	else
		s->ok = false;
	s->text[s->n] = '\0';
}

static void spec_number(struct spec *s, int v)
{
	char num[16];
	int n = snprintf(num, sizeof(num), "%d", v);

	for (int i = 0; i < n; i++)
		spec_put(s, num[i]);
}

/* Digits at *p, or a '*' taken from ap, into s. */
static void spec_count(struct spec *s, const char **p, va_list *ap)
{
	if (**p == '*') {
		spec_number(s, va_arg(*ap, int));
		(*p)++;
		return;
	}
	while (**p >= '0' && **p <= '9')
		spec_put(s, *(*p)++);
}

/* The conversion that starts at p (its '%'): into s; returns where it ends. */
static const char *spec_parse(const char *p, struct spec *s, va_list *ap)
{
	*s = (struct spec){.ok = true};
	spec_put(s, *p++);
	while (*p && strchr("-+ #0'I", *p))
		spec_put(s, *p++);
	spec_count(s, &p, ap);
	if (*p == '.' && p[1] == '*') {
		int prec = va_arg(*ap, int);

		/* A negative precision is taken as if it were left out (C11 7.21.6.1). */
		if (prec >= 0) {
			s->precision = true;
			spec_put(s, '.');
			spec_number(s, prec);
		}
		p += 2;
	} else if (*p == '.') {
		s->precision = true;
		spec_put(s, *p++);
		spec_count(s, &p, ap);
	}
	for (size_t k = 0; *p && strchr("hljztLq", *p) && k < 2; k++) {
		s->length[k] = *p;
		spec_put(s, *p++);
	}
	s->conv = *p;
	if (*p)
		spec_put(s, *p++);
	return p;
}

/* A %pUl: s (ending in 'p') formats the UUID's text as a %s would. */
static int put_uuid(struct out *o, struct spec *s, const TEE_UUID *u)
{
	char text[SWTEE_UUID_STR_LEN] = "(null)";
	size_t room = 0;
	char *at = out_at(o, &room);

	if (u) {
		struct swtee_uuid b;

		uuid_from_fields(&b, u->timeLow, u->timeMid, u->timeHiAndVersion,
				 u->clockSeqAndNode);
		uuid_format(&b, text);
	}
	s->text[s->n - 1] = 's';
	return out_add(o, snprintf(at, room, s->text, text));
}

/* NOLINTBEGIN(bugprone-branch-clone): the branches differ in va_arg's type, which the check does
 * not compare. */
/* An integer conversion of s: the argument its length modifier names. */
static int put_integer(struct out *o, const struct spec *s, va_list *ap)
{
	const char *l = s->length;
	bool sig = s->conv == 'd' || s->conv == 'i';
	size_t room = 0;
	char *at = out_at(o, &room);
	int n = 0;
	if (!strcmp(l, "ll") || !strcmp(l, "q"))
		n = sig ? snprintf(at, room, s->text, va_arg(*ap, long long))
			: snprintf(at, room, s->text, va_arg(*ap, unsigned long long));
	else if (!strcmp(l, "l"))
		n = sig ? snprintf(at, room, s->text, va_arg(*ap, long))
			: snprintf(at, room, s->text, va_arg(*ap, unsigned long));
	else if (!strcmp(l, "j"))
		n = sig ? snprintf(at, room, s->text, va_arg(*ap, intmax_t))
			: snprintf(at, room, s->text, va_arg(*ap, uintmax_t));
	else if (!strcmp(l, "z"))
		n = snprintf(at, room, s->text, va_arg(*ap, size_t));
	else if (!strcmp(l, "t"))
		n = snprintf(at, room, s->text, va_arg(*ap, ptrdiff_t));
	else /* hh, h and none: promoted to int */
		n = sig ? snprintf(at, room, s->text, va_arg(*ap, int))
			: snprintf(at, room, s->text, va_arg(*ap, unsigned int));
	return out_add(o, n);
}
/* NOLINTEND(bugprone-branch-clone) */

/* %n: the length so far, stored as its length modifier says. */
static void put_count(const struct out *o, const struct spec *s, va_list *ap)
{
	const char *l = s->length;

	if (!strcmp(l, "hh"))
		*va_arg(*ap, signed char *) = (signed char)o->len;
	else if (!strcmp(l, "h"))
		*va_arg(*ap, short *) = (short)o->len;
	else if (!strcmp(l, "l"))
		*va_arg(*ap, long *) = (long)o->len;
	else if (!strcmp(l, "ll") || !strcmp(l, "q"))
		*va_arg(*ap, long long *) = (long long)o->len;
	else if (!strcmp(l, "z"))
		*va_arg(*ap, size_t *) = o->len;
	else
		*va_arg(*ap, int *) = (int)o->len;
}

/* NOLINTBEGIN(bugprone-branch-clone): the branches differ in va_arg's type, which the check does
 * not compare. */
/* One conversion of s, its argument taken from ap; -1 on an error. */
static int put_one(struct out *o, struct spec *s, const char **fmt, va_list *ap)
{
	size_t room = 0;
	char *at = out_at(o, &room);
	bool wide = !strcmp(s->length, "l");
	switch (s->conv) {
	case '%':
		return out_add(o, snprintf(at, room, "%%"));
	case 'd':
	case 'i':
	case 'u':
	case 'o':
	case 'x':
	case 'X':
		return put_integer(o, s, ap);
	case 'c':
		return out_add(o, wide ? snprintf(at, room, s->text, va_arg(*ap, wint_t))
				       : snprintf(at, room, s->text, va_arg(*ap, int)));
	case 's':
		return out_add(o, wide ? snprintf(at, room, s->text, va_arg(*ap, wchar_t *))
				       : snprintf(at, room, s->text, va_arg(*ap, char *)));
	case 'p':
		if ((*fmt)[0] == 'U' && (*fmt)[1] == 'l' && !s->precision && !s->length[0]) {
			*fmt += 2;
			return put_uuid(o, s, va_arg(*ap, const TEE_UUID *));
		}
		return out_add(o, snprintf(at, room, s->text, va_arg(*ap, void *)));
	case 'e':
	case 'E':
	case 'f':
	case 'F':
	case 'g':
	case 'G':
	case 'a':
	case 'A':
		return out_add(o, !strcmp(s->length, "L")
				      ? snprintf(at, room, s->text, va_arg(*ap, long double))
				      : snprintf(at, room, s->text, va_arg(*ap, double)));
	case 'n':
		put_count(o, s, ap);
		return 0;
	default: /* not a conversion C defines (glibc's %m among them): as written */
		out_text(o, s->text, s->n);
		return 0;
	}
}
/* NOLINTEND(bugprone-branch-clone) */

int vsnprintk(char *str, size_t size, const char *fmt, va_list ap)
{
	struct out o = {.str = str, .size = str ? size : 0};
	va_list aq;
	int rc = 0;

	va_copy(aq, ap);
	if (o.size)
		str[0] = '\0';
	while (*fmt && !rc) {
		const char *pct = strchr(fmt, '%');
		struct spec s;

		if (!pct) {
			out_text(&o, fmt, strlen(fmt));
			break;
		}
		out_text(&o, fmt, (size_t)(pct - fmt));
		fmt = spec_parse(pct, &s, &aq);
		rc = s.ok && s.conv ? put_one(&o, &s, &fmt, &aq) : -1;
	}
	va_end(aq);
	if (rc || o.len > INT_MAX)
		return -1;
	return (int)o.len;
}

int snprintk(char *str, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	va_start(ap, fmt);
	n = vsnprintk(str, size, fmt, ap);
	va_end(ap);
	return n;
}
