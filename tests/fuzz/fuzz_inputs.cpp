#include "tests/fuzz/fuzz_inputs.hpp"

#include "benchmarks/replay/ti_reader.hpp"
#include "core/error_text.hpp"
#include "core/json_input.hpp"
#include "runner/registries.hpp"
#include "runner/scenario.hpp"
#include "runner/sweep.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace ompisim::fuzz {

namespace {
[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz finding (%s): %s\n", what, detail.c_str());
  std::abort();
}

template <class F>
void expect_input_errors_only(const char* what, F&& f) {
  try {
    f();
  } catch (const InputError&) {
  } catch (const std::exception& e) {
    finding(what, e.what());
  }
}
}  // namespace

// The error line made of any text: no line break or control character, and no word longer than one_line's bound
// (4096 characters of a path, each escaped in at most 4, and the "... (N bytes)" it adds).
static void check_one_line(const std::string& text) {
  const std::string m = one_line("f.json: key 'k': '" + text + "' is " + text);
  std::size_t word = 0;
  for (unsigned char c : m) {
    if (c < 0x20 || c == 0x7f) finding("error text", "a control character in one_line's output");
    word = c == ' ' ? 0 : word + 1;
    if (word > 4 * 4096 + 64) finding("error text", "an echoed word longer than the bound");
  }
}

int run_one(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  Json j;
  try {
    j = parse_json_text(text, "fuzz.json");
  } catch (const InputError&) {
    return 0;
  } catch (const std::exception& e) {
    finding("json", e.what());
  }
  expect_input_errors_only("scenario", [&] { (void)scenario_from_json(j, "fuzz.json"); });
  // The machine loader reads a file: the same bytes, in a per-process temporary.
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir ? dir : "/tmp") + "/ompisim-fuzz-machine." + std::to_string(getpid()) + ".json";
  }();
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    expect_input_errors_only("machine", [&] { (void)load_machine(path); });
    expect_input_errors_only("sweep grid", [&] { (void)load_sweep_grid(path); });
    // The same bytes as rank 0's action file of a 4-rank SMPI TI trace, read as the replay reads it.
    expect_input_errors_only("trace", [&] {
      bench::ti::RankReader reader(path, 0, 4, 256);
      bench::ti::Action a;
      while (reader.next(a)) {
      }
    });
    std::remove(path.c_str());
  }
  check_one_line(text);
  return 0;
}

}  // namespace ompisim::fuzz
