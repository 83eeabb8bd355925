/*
 * OP-TEE's memory tagging (Arm MTE) interface. A TA here runs as a host
 * process without MTE, so tagging is always disabled, as on an OP-TEE
 * built without CFG_MEMTAG: tags read as 0, addresses carry none, and the
 * set functions return the address unchanged. memtag_is_enabled() is
 * false, which is how OP-TEE's own tests decide to skip their MTE cases.
 */
#ifndef MEMTAG_H
#define MEMTAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <types_ext.h>
#include <util.h>

#define MEMTAG_IS_ENABLED 0
#define MEMTAG_GRANULE_SIZE 1
#define MEMTAG_TAG_WIDTH 0
#define MEMTAG_GRANULE_MASK (MEMTAG_GRANULE_SIZE - 1)

static inline bool memtag_is_enabled(void)
{
	return false;
}

/* No tagging: returns addr as it is. */
static inline void *memtag_set_tags(void *addr, size_t size __unused, uint8_t tag __unused)
{
	return addr;
}

static inline void *memtag_set_random_tags(void *addr, size_t size __unused)
{
	return addr;
}

/* Zeroes [addr, addr + size) (and would clear its tags). */
static inline void memtag_clear_mem(void *addr, size_t size)
{
	memset(addr, 0, size);
}

static inline vaddr_t memtag_strip_tag_vaddr(const void *addr)
{
	return (vaddr_t)addr;
}

static inline const void *memtag_strip_tag_const(const void *addr)
{
	return addr;
}

static inline void *memtag_strip_tag(void *addr)
{
	return addr;
}

static inline vaddr_t memtag_insert_tag_vaddr(vaddr_t addr, uint8_t tag __unused)
{
	return addr;
}

static inline void *memtag_insert_tag(void *addr, uint8_t tag __unused)
{
	return addr;
}

/* The tag in addr's top bits, and the tag of the memory there: both 0. */
static inline uint8_t memtag_get_tag(const void *addr __unused)
{
	return 0;
}

static inline uint8_t memtag_read_tag(const void *addr __unused)
{
	return 0;
}

static inline void memtag_assert_tag(const void *addr __unused)
{
}

static inline void memtag_init_ops(unsigned int memtag_impl __unused)
{
}

#endif /* MEMTAG_H */
