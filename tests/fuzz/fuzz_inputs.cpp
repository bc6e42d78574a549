#include "tests/fuzz/fuzz_inputs.hpp"

#include "core/json_input.hpp"
#include "runner/registries.hpp"
#include "runner/scenario.hpp"

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
    std::remove(path.c_str());
  }
  return 0;
}

}  // namespace ompisim::fuzz
