global-incdirs-y += include
srcs-y += mbedtls_ta.c
