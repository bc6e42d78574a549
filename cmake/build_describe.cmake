# Run at every build (the build_describe target): the source tree's `git describe --always --dirty` into a header the
# tool's --version and every result's provenance read (core/build_info.cpp). The header is rewritten only when the
# value changes, so an unchanged tree recompiles nothing. Outside a git checkout (or without git) the value is empty
# and the tool falls back to the data folder's (runner/report.cpp, git_describe).
execute_process(COMMAND git -C "${SRC}" describe --always --dirty OUTPUT_VARIABLE d OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  set(d "")
endif()
string(REGEX REPLACE "[^A-Za-z0-9._+-]" "" d "${d}")
set(text "#define OMPISIM_BUILD_DESCRIBE \"${d}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
else()
  set(old "")
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
