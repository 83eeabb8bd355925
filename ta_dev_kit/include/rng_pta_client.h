/*
 * OP-TEE's older name for the RNG pseudo TA's header, kept there for the
 * code that still includes it: everything is in pta_rng.h.
 */
#ifndef RNG_PTA_CLIENT_H
#define RNG_PTA_CLIENT_H

#include <pta_rng.h>

#endif
