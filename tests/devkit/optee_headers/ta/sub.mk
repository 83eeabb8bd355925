global-incdirs-y += include
srcs-y += optee_headers_ta.c
