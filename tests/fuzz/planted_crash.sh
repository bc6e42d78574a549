#!/bin/sh
# A stand-in for ompisim that dies on SIGSEGV whatever it is given: fuzz.mutate_detects checks that mutate.py reports
# it as a finding (the fuzz test can fail).
kill -SEGV $$
