// What the build knows of itself: the source tree's `git describe --always --dirty` when the tool was compiled
// (cmake/build_describe.cmake writes it at every build), "" when it was not built from a git checkout.
#pragma once
#include <string>

namespace ompisim {
std::string build_describe();
}
