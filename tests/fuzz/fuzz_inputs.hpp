// Fuzz entry for the input parsers: the bytes as a JSON file (bounded parser), then as a scenario and as a machine
// file. Bad input must end in InputError; anything else (another exception, a crash, a hang) is a finding.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ompisim::fuzz {
// Returns 0; aborts on a finding (so libFuzzer and the replay driver both report it).
int run_one(const std::uint8_t* data, std::size_t size);
}  // namespace ompisim::fuzz
