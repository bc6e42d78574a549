#include "core/build_info.hpp"

#include "ompisim_build_describe.h"  // generated in the build tree (cmake/build_describe.cmake)

namespace ompisim {
std::string build_describe() { return OMPISIM_BUILD_DESCRIBE; }
}  // namespace ompisim
