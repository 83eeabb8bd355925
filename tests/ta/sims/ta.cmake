set(sims_dir ${CMAKE_CURRENT_LIST_DIR})
swtee_add_ta(NAME ta_sims UUID 5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e02
	SOURCES ${sims_dir}/ta_sims.c INCLUDES ${sims_dir}/include)
swtee_add_ta(NAME ta_single UUID 5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e03
	SOURCES ${sims_dir}/ta_sims.c INCLUDES ${sims_dir}/single ${sims_dir}/include)
swtee_add_ta(NAME ta_keepalive UUID 5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e04
	SOURCES ${sims_dir}/ta_sims.c INCLUDES ${sims_dir}/keepalive ${sims_dir}/include)
swtee_add_ta(NAME ta_create_fail UUID 5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e05
	SOURCES ${sims_dir}/ta_sims.c INCLUDES ${sims_dir}/create_fail ${sims_dir}/include
	DEFINES TA_SIMS_CREATE_FAILS)
