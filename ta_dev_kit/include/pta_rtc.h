/*
 * The UUID, command ids and layouts of OP-TEE's real-time clock pseudo TA,
 * which Linux's rtc-optee driver uses to read and set a clock the secure
 * world owns. swtee owns no clock (the host's is the REE's): a session to
 * this UUID fails with TEE_ERROR_ITEM_NOT_FOUND. The values and layouts
 * are OP-TEE's, for code that names them.
 */
#ifndef PTA_RTC_H
#define PTA_RTC_H

#include <stdint.h>
#include <util.h>

#define PTA_RTC_UUID                                                                               \
	{                                                                                          \
		0xf389f8c8, 0x845f, 0x496c,                                                        \
		{                                                                                  \
			0x8b, 0xbe, 0xd6, 0x4b, 0xd2, 0x4c, 0x92, 0xfd                             \
		}                                                                                  \
	}

/* struct pta_rtc_info's version */
#define PTA_RTC_INFO_VERSION 0x1

/* struct pta_rtc_info's features: GET/SET_OFFSET, the alarm commands, wake-up alarms */
#define PTA_RTC_FEATURE_CORRECTION BIT(0)
#define PTA_RTC_FEATURE_ALARM BIT(1)
#define PTA_RTC_FEATURE_WAKEUP_ALARM BIT(2)

/* A calendar time, each field as struct tm has it */
struct pta_rtc_time {
	uint32_t tm_sec;
	uint32_t tm_min;
	uint32_t tm_hour;
	uint32_t tm_mday;
	uint32_t tm_mon;
	uint32_t tm_year;
	uint32_t tm_wday;
};

/* An alarm: on or off (1/0), whether it has fired and not been read (1/0), and when */
struct pta_rtc_alarm {
	uint8_t enabled;
	uint8_t pending;
	struct pta_rtc_time time;
};

/* What the clock can do and the times it can hold */
struct pta_rtc_info {
	uint64_t version;
	uint64_t features;
	struct pta_rtc_time range_min;
	struct pta_rtc_time range_max;
};

/* memref[0] output: struct pta_rtc_info */
#define PTA_CMD_RTC_GET_INFO 0x0
/* memref[0] output / input: struct pta_rtc_time */
#define PTA_CMD_RTC_GET_TIME 0x1
#define PTA_CMD_RTC_SET_TIME 0x2
/* value[0].a output / input: the correction, a signed 32-bit value */
#define PTA_CMD_RTC_GET_OFFSET 0x3
#define PTA_CMD_RTC_SET_OFFSET 0x4
/* memref[0] output / input: struct pta_rtc_alarm */
#define PTA_CMD_RTC_READ_ALARM 0x5
#define PTA_CMD_RTC_SET_ALARM 0x6
/* value[0].a input: 1 turns the alarm on, 0 off */
#define PTA_CMD_RTC_ENABLE_ALARM 0x7
/* value[0].a output: 0 no alarm, 1 the alarm fired, 2 the wait was cancelled */
#define PTA_CMD_RTC_WAIT_ALARM 0x8
#define PTA_CMD_RTC_CANCEL_WAIT_ALARM 0x9
/* value[0].a input: 1 lets the alarm wake the system, 0 does not */
#define PTA_CMD_RTC_SET_WAKE_ALARM_STATUS 0xA

#endif
