global-incdirs-y += include
srcs-y += hotp_ta.c
