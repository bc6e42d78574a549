// libFuzzer target of the SMPI trace reader and the error line, built alone (no SimGrid, seconds to compile):
//   clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -I. tests/fuzz/fuzz_trace.cpp \
//     benchmarks/replay/ti_trace.cpp core/signals.cpp core/error_text.cpp -lfmt -o fuzz_trace
//   ./fuzz_trace -max_total_time=600 -max_len=4096 CORPUS_DIR
// Each input is parsed line by line as rank 0's action file of a 4-rank trace; a line must parse or end in
// InputError, and one_line of any text must hold no control character. Anything else aborts (a finding).
#include "benchmarks/replay/ti_trace.hpp"
#include "core/error_text.hpp"
#include "core/errors.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::uint32_t dt = 1;
  std::uint64_t n = 0;
  ompisim::bench::ti::Action a;
  for (std::size_t pos = 0; pos <= text.size();) {
    std::size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    try {
      (void)ompisim::bench::ti::parse_line(line, 0, 4, dt, "f", ++n, a);
    } catch (const ompisim::InputError&) {
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  for (unsigned char c : ompisim::one_line(text))
    if (c < 0x20 || c == 0x7f) {
      std::fprintf(stderr, "fuzz finding: a control character in one_line's output\n");
      std::abort();
    }
  return 0;
}
