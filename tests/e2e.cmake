# End-to-end CLI tests, one process each (SimGrid's Engine is a per-process singleton).
set(E2E ${CMAKE_SOURCE_DIR}/tests/e2e)
add_test(NAME e2e.bad_input COMMAND bash ${E2E}/bad_input.sh $<TARGET_FILE:ompisim>)
add_test(NAME e2e.determinism COMMAND bash ${E2E}/determinism.sh $<TARGET_FILE:ompisim>)
add_test(NAME e2e.conservation COMMAND bash ${E2E}/conservation.sh $<TARGET_FILE:ompisim>)
add_test(NAME e2e.validation_table COMMAND $<TARGET_FILE:ompisim> validate --paper gemini-xe-xk)
set_tests_properties(e2e.validation_table PROPERTIES TIMEOUT 900)
add_test(NAME e2e.validation_table_seastar COMMAND $<TARGET_FILE:ompisim> validate --paper seastar-portals)
add_test(NAME e2e.sweep_mailbox COMMAND bash ${E2E}/sweep_mailbox.sh $<TARGET_FILE:ompisim>)
