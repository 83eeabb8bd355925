/*
 * SWTEE_MUST_CHECK, for the whole tree (a name of its own: the TA kit has a
 * compiler.h, found first on the core's include path).
 *
 * SWTEE_MUST_CHECK marks a function whose result must be read: an
 * allocation, a cryptographic check, an I/O call or a parser's verdict.
 * Calling one as a statement is a warning, an error with -Werror; a cast to
 * void does not silence it (GCC), so a call site that may really ignore the
 * result says why in a branch of its own.
 */
#ifndef SWTEE_MUST_CHECK_H
#define SWTEE_MUST_CHECK_H

#define SWTEE_MUST_CHECK __attribute__((warn_unused_result))

#endif
