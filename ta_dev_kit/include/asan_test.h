/*
 * OP-TEE's in-TA AddressSanitizer self-tests (asan_test_*), which OP-TEE
 * builds only with CFG_TA_SANITIZE_KADDRESS, its own kernel-style ASan.
 * swtee sanitizes a TA with the compiler's ASan instead
 * (CFG_TA_SANITIZE=address, docs/ta-development.md), which has no such
 * test entry points, so this header declares nothing: code that includes
 * it and calls them only under CFG_TA_SANITIZE_KADDRESS (as optee_test's
 * os_test does) builds, and a TA that asks for that setting is told why
 * it cannot have it.
 */
#ifndef ASAN_TEST_H
#define ASAN_TEST_H

#include <compiler.h>
#include <stddef.h>

#ifdef CFG_TA_SANITIZE_KADDRESS
#error "CFG_TA_SANITIZE_KADDRESS is OP-TEE's own ASan; with swtee use CFG_TA_SANITIZE=address"
#endif

#endif /* ASAN_TEST_H */
