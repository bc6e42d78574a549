// libFuzzer target (-DOMPISIM_FUZZ=ON, clang): build/bin/fuzz_inputs tests/fuzz/corpus -max_total_time=600
#include "tests/fuzz/fuzz_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return ompisim::fuzz::run_one(data, size);
}
