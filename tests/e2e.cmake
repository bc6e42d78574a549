# End-to-end CLI tests, one process each (SimGrid's Engine is a per-process singleton).
set(OMPISIM_BIN $<TARGET_FILE:ompisim>)
