# cmake -DNM=nm -DHOST=swtee-ta-host -DOUT=file -P runtime_syms.cmake
# Writes the names of the functions and data swtee-ta-host exports to TAs,
# one per line, sorted.
execute_process(COMMAND ${NM} -D --defined-only --format=posix ${HOST}
	OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
	message(FATAL_ERROR "${NM} cannot read ${HOST}")
endif()
string(REGEX MATCHALL "(^|\n)[A-Za-z_][A-Za-z0-9_]* " names "${out}")
list(TRANSFORM names STRIP)
list(SORT names)
list(REMOVE_DUPLICATES names)
list(JOIN names "\n" text)
file(WRITE ${OUT}.tmp "${text}\n")
file(RENAME ${OUT}.tmp ${OUT})
