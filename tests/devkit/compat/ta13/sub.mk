global-incdirs-y += ../common/include
srcs-y += ../common/size_ta.c
