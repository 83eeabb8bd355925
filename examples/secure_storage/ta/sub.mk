global-incdirs-y += include
srcs-y += secure_storage_ta.c
