// The SimGrid version this binary was built against (engine/ is the only code that includes SimGrid headers).
#pragma once
#include <string>

namespace ompisim::engine {

std::string simgrid_version();  // "3.32.0" (headers), plus the library's when it differs

}  // namespace ompisim::engine
