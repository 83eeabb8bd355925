#ifndef COUNTER_TA_H
#define COUNTER_TA_H

/* clang-format off */
/* 7d3c1f0e-2b4a-4c6d-8e9f-a0b1c2d3e4f5 */
#define COUNTER_TA_UUID \
	{ 0x7d3c1f0e, 0x2b4a, 0x4c6d, { 0x8e, 0x9f, 0xa0, 0xb1, 0xc2, 0xd3, 0xe4, 0xf5 } }
/* clang-format on */

/* value[0] output: a = how many times this session called it, b = TRACE_LEVEL */
#define COUNTER_CMD_NEXT 0

#endif
