# A static library (LIBNAME=<name>): lib<name>.a in O, for TAs that list
# <name> in libnames and O in libdirs.

tdk-lib := $(tdk-out)/lib$(LIBNAME).a
tdk-cleanfiles := $(tdk-lib)

all: $(tdk-lib)

$(tdk-lib): $(tdk-objs) $(tdk-flags-file)
	$(tdk-say) AR $(call tdk-show,$@)
	$(tdk-q)rm -f $@
	$(tdk-q)$(tdk-ar) rcs $@ $(tdk-objs)
