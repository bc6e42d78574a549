// Replays every file of the fuzz corpus through the fuzz entry, without libFuzzer: part of the normal test suite.
// Configuration: tests/fuzz/corpus/* (valid scenarios and machines, and hostile ones: deep nesting, duplicate keys,
// overflowing numbers, wrong types). Expected: each ends in a result or an InputError. How validated: the entry aborts
// on anything else; this driver counts the files and fails when there are none.
#include "tests/fuzz/fuzz_inputs.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR...\n", argv[0]);
    return 2;
  }
  int n = 0;
  for (int a = 1; a < argc; ++a)
    for (auto& e : std::filesystem::directory_iterator(argv[a])) {
      if (!e.is_regular_file()) continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      ompisim::fuzz::run_one(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
      ++n;
    }
  std::printf("replayed %d corpus files\n", n);
  return n > 0 ? 0 : 1;
}
