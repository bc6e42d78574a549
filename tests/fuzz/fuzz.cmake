# Fuzzing the input parsers (scenario, machine and sweep grid files, SMPI trace lines, the error line). The replay
# driver is always built and runs the committed corpus as a test; the libFuzzer targets need clang (-DOMPISIM_FUZZ=ON
# -DCMAKE_CXX_COMPILER=clang++).
set(FUZZ ${CMAKE_SOURCE_DIR}/tests/fuzz)
add_library(ompisim_fuzz_entry STATIC ${FUZZ}/fuzz_inputs.cpp)
target_link_libraries(ompisim_fuzz_entry PUBLIC ompisim_lib)
add_executable(fuzz_replay ${FUZZ}/replay.cpp)
target_link_libraries(fuzz_replay PRIVATE ompisim_fuzz_entry)
add_test(NAME fuzz.replay_corpus COMMAND fuzz_replay ${FUZZ}/corpus)

option(OMPISIM_FUZZ "build the libFuzzer target fuzz_inputs (clang only)" OFF)
if(OMPISIM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "OMPISIM_FUZZ needs clang (-DCMAKE_CXX_COMPILER=clang++)")
  endif()
  # clang 14 cannot emit coverage for coroutine frames ("Cannot represent a difference across sections"): the
  # coroutine-based rank programs are built without it (they are not the parsers under test).
  file(GLOB_RECURSE OMPISIM_COROUTINE_SOURCES ${CMAKE_SOURCE_DIR}/benchmarks/*.cpp)
  set_source_files_properties(${OMPISIM_COROUTINE_SOURCES} PROPERTIES COMPILE_OPTIONS "-fno-sanitize=fuzzer-no-link")
  add_executable(fuzz_inputs ${FUZZ}/libfuzzer_main.cpp)
  target_link_libraries(fuzz_inputs PRIVATE ompisim_fuzz_entry)
  # The whole build should carry -fsanitize=fuzzer-no-link (coverage) via CMAKE_CXX_FLAGS; the target links libFuzzer.
  target_link_options(fuzz_inputs PRIVATE -fsanitize=fuzzer)
  target_compile_options(fuzz_inputs PRIVATE -fsanitize=fuzzer)
  # The SMPI trace reader and the error line alone (fuzz_trace.cpp's header has the one-line build without CMake).
  add_executable(fuzz_trace ${FUZZ}/fuzz_trace.cpp)
  target_link_libraries(fuzz_trace PRIVATE ompisim_lib)
  target_link_options(fuzz_trace PRIVATE -fsanitize=fuzzer)
  target_compile_options(fuzz_trace PRIVATE -fsanitize=fuzzer)
endif()

# The mutation fuzzer of every input through the command line (mutate.py: scenarios of each family, a grid, a machine
# file, a reference file, a trace replay, option values, result and sweep point files), seeded and short (20 per kind,
# 160 mutants, under a minute): fails on any finding. Its check: a stand-in binary that dies on SIGSEGV is reported.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME fuzz.mutate COMMAND ${Python3_EXECUTABLE} ${FUZZ}/mutate.py --bin $<TARGET_FILE:ompisim>
           --src ${CMAKE_SOURCE_DIR} --seed 1 --per-kind 20)
  add_test(NAME fuzz.mutate_detects COMMAND ${Python3_EXECUTABLE} ${FUZZ}/mutate.py --bin ${FUZZ}/planted_crash.sh
           --src ${CMAKE_SOURCE_DIR} --seed 1 --per-kind 2 --kinds scenario,cli --expect-finding)
  set_tests_properties(fuzz.mutate fuzz.mutate_detects PROPERTIES LABELS fuzz TIMEOUT 300)
endif()
