/*
 * swtee bench: the published figures reports draw beside swtee's, typed in
 * from shared/reference/seed-figures.md (and, for TPM commands timed
 * inside the kernel, shared/reference/tpm.md) exactly as published. They
 * were measured on other hardware, often with another method: a report
 * marks them so and never turns them into a verdict.
 */
#include "bench_int.h"

#define KB 1000.0	    /* the USB armory table's kB/s (openssl speed's unit) */
#define KIB 1024.0	    /* OP-TEE xtest's kB/s: benchmark_1000 divides by 1024 */
#define MIB (1024.0 * 1024) /* OP-TEE xtest's MiB/s */
#define MS 1000.0	    /* a millisecond in us */
#define S 1000000.0	    /* a second in us */

#define ARMORY_SIZES                                                                               \
	{                                                                                          \
		256, 1024, 8192, 65536, 1048576                                                    \
	}

static const struct bench_seed armory[] = {
    {"aes-128-cbc",
     "USB armory ULZ, TamaGo",
     "kB/s",
     KB,
     5,
     ARMORY_SIZES,
     {4882, 6177, 6717, 6769, 6470}},
    {"aes-128-cbc",
     "USB armory ULZ, TamaGo + DCP",
     "kB/s",
     KB,
     5,
     ARMORY_SIZES,
     {4563, 13071, 30438, 35661, 35509}},
    {"aes-128-cbc",
     "USB armory ULZ, OpenSSL",
     "kB/s",
     KB,
     5,
     ARMORY_SIZES,
     {22392, 23097, 23306, 23166, 21179}},
    {"aes-128-cbc",
     "USB armory ULZ, OpenSSL + DCP (afalg)",
     "kB/s",
     KB,
     5,
     ARMORY_SIZES,
     {3895, 11325, 27399, 29578, 349}},
    {"aes-128-cbc",
     "USB armory UL, TamaGo + CAAM",
     "kB/s",
     KB,
     5,
     ARMORY_SIZES,
     {1947, 6411, 22765, 32757, 31911}},
    {"sha256",
     "USB armory ULZ, TamaGo",
     "kB/s",
     KB,
     5,
     ARMORY_SIZES,
     {5986, 8700, 9854, 10023, 9597}},
    {"sha256",
     "USB armory ULZ, TamaGo + DCP",
     "kB/s",
     KB,
     5,
     ARMORY_SIZES,
     {5220, 17513, 56999, 76982, 79532}},
    {"sha256",
     "USB armory ULZ, OpenSSL",
     "kB/s",
     KB,
     5,
     ARMORY_SIZES,
     {18724, 27143, 31159, 31522, 26913}},
    {"sha256",
     "USB armory UL, TamaGo + CAAM",
     "kB/s",
     KB,
     5,
     ARMORY_SIZES,
     {2626, 10272, 46997, 83314, 80552}},
};

const struct bench_seed_table bench_seed_armory = {
    .source = "USB armory Mk II (Arm Cortex-A7: i.MX6ULZ at 900 MHz, i.MX6UL at 528 MHz), "
	      "seed-figures.md",
    .rows = armory,
    .n = sizeof(armory) / sizeof(armory[0]),
};

static const struct bench_seed optee_storage[] = {
    {"write",
     "OP-TEE on i.MX6, write",
     "kB/s",
     KIB,
     8,
     {256, 512, 1024, 2048, 4096, 16384, 524288, 1048576},
     {6.250, 9.091, 18.182, 20.000, 16.461, 14.733, 11.064, 10.700}},
    {"read", "OP-TEE on i.MX6, read", "kB/s", KIB, 3, {256, 16384, 1048576}, {250, 484.8, 503.2}},
    {"rewrite",
     "OP-TEE on i.MX6, rewrite",
     "kB/s",
     KIB,
     3,
     {256, 16384, 1048576},
     {5.95, 16.1, 9.98}},
};

const struct bench_seed_table bench_seed_optee_storage = {
    .source = "OP-TEE xtest -t benchmark 1001..1003 on an i.MX6 board (Arm Cortex-A9, "
	      "32-bit), 1 KiB chunks, seed-figures.md",
    .rows = optee_storage,
    .n = sizeof(optee_storage) / sizeof(optee_storage[0]),
};

static const struct bench_seed optee_crypto[] = {
    {"benchmark_2001", "SHA1, 1 KiB", "MiB/s", MIB, 1, {1024}, {3.56}},
    {"benchmark_2002", "SHA256, 4 KiB", "MiB/s", MIB, 1, {4096}, {9.08}},
    {"benchmark_2011", "AES-128-ECB, 1 KiB", "MiB/s", MIB, 1, {1024}, {2.94}},
    {"benchmark_2012", "AES-256-CBC, 1 KiB", "MiB/s", MIB, 1, {1024}, {2.61}},
};

const struct bench_seed_table bench_seed_optee_crypto = {
    .source = "OP-TEE xtest -t benchmark 2001..2012 on an i.MX6 board (Arm Cortex-A9), one "
	      "TEEC_InvokeCommand per buffer, 5000 runs, seed-figures.md",
    .rows = optee_crypto,
    .n = sizeof(optee_crypto) / sizeof(optee_crypto[0]),
};

static const struct bench_seed ecdsa[] = {
    {"ecdsa-p256/sign", "USB armory ULZ, OpenSSL", "sig/s", 1, 1, {0}, {860}},
    {"ecdsa-p256/sign", "USB armory ULZ, TamaGo", "sig/s", 1, 1, {0}, {147}},
    {"ecdsa-p256/sign", "USB armory UL, OpenSSL", "sig/s", 1, 1, {0}, {560}},
    {"ecdsa-p256/sign", "USB armory UL, TamaGo", "sig/s", 1, 1, {0}, {88}},
    {"ecdsa-p256/sign", "USB armory UL, TamaGo + CAAM", "sig/s", 1, 1, {0}, {312}},
};

const struct bench_seed_table bench_seed_ecdsa = {
    .source = "USB armory Mk II, ECDSA P-256 signatures per second (CAAM with timing "
	      "equalization off), seed-figures.md",
    .rows = ecdsa,
    .n = sizeof(ecdsa) / sizeof(ecdsa[0]),
};

static const struct bench_seed tpm[] = {
    {"createprimary_ecc256_owner",
     "ATTPM20P (SPI), whole tpm2_createprimary -C o",
     "s",
     S,
     1,
     {0},
     {0.638}},
    {"createprimary_ecc256_owner",
     "ATTPM20P (SPI), same, kernel HMAC sessions on",
     "s",
     S,
     1,
     {0},
     {0.418}},
    {"createprimary_ecc256_owner", "swtpm, 2-core x86-64 VM, in the TPM", "ms", MS, 1, {0}, {0.4}},
    {"createprimary_ecc256_null",
     "ATTPM20P (SPI), whole tpm2_createprimary -C n",
     "s",
     S,
     1,
     {0},
     {0.686}},
    {"createprimary_ecc256_null",
     "ATTPM20P (SPI), same, kernel HMAC sessions on",
     "s",
     S,
     1,
     {0},
     {0.395}},
    {"createprimary_ecc256_null", "swtpm, 2-core x86-64 VM, in the TPM", "ms", MS, 1, {0}, {0.4}},
    {"createprimary_rsa2048_owner", "swtpm, 2-core x86-64 VM, in the TPM", "ms", MS, 1, {0}, {14}},
    {"startauthsession_salted_ecc", "SLB9670 (SPI), in the kernel", "ms", MS, 1, {0}, {85}},
    {"startauthsession_salted_ecc",
     "swtpm, 2-core x86-64 VM, in the TPM",
     "ms",
     MS,
     1,
     {0},
     {0.41}},
    {"pcrextend_hmac_session", "SLB9670 (SPI), in the kernel", "ms", MS, 1, {0}, {151}},
    {"pcrextend_hmac_session", "SLB9670 (SPI), extend without a session", "ms", MS, 1, {0}, {6.4}},
    /* The guests of swtee bench tpm --guest, beside the board's kernel and tools. */
    {"guest_createprimary_null_hmac_off",
     "arm64 board, SPI TPM: tpm2_createprimary -C n -G ecc256",
     "s",
     S,
     1,
     {0},
     {0.686}},
    {"guest_createprimary_null_hmac_on",
     "the board, kernel HMAC on: -C n, first call",
     "s",
     S,
     1,
     {0},
     {327.7}},
    {"guest_createprimary_null_hmac_on",
     "the board, kernel HMAC on: -C n, later calls",
     "s",
     S,
     1,
     {0},
     {0.395}},
    {"guest_createprimary_ecc256_owner_hmac_off",
     "arm64 board, SPI TPM: tpm2_createprimary -C o -G ecc256",
     "s",
     S,
     1,
     {0},
     {0.638}},
    {"guest_createprimary_ecc256_owner_hmac_on",
     "the board, kernel HMAC on: -C o -G ecc256",
     "s",
     S,
     1,
     {0},
     {0.418}},
    {"guest_boot_hmac_off", "arm64 board, SPI TPM: modprobe tpm_tis_spi", "s", S, 1, {0}, {2.8}},
    {"guest_boot_hmac_on",
     "the board, kernel HMAC on: modprobe tpm_tis_spi",
     "s",
     S,
     1,
     {0},
     {486}},
};

const struct bench_seed_table bench_seed_tpm = {
    .source = "ATTPM20P on an arm64 board and swtpm on a 2-core x86-64 VM (seed-figures.md); "
	      "Infineon SLB9670 traced in the kernel (tpm.md)",
    .rows = tpm,
    .n = sizeof(tpm) / sizeof(tpm[0]),
};
