#include "engine/version.hpp"

#include <xbt/base.h>  // SG_BEGIN_DECL, XBT_PUBLIC (version.h does not include it)
#include <simgrid/version.h>
#include <string>

namespace ompisim::engine {

std::string simgrid_version() {
  std::string hdr = std::to_string(SIMGRID_VERSION_MAJOR) + "." + std::to_string(SIMGRID_VERSION_MINOR) + "." +
                    std::to_string(SIMGRID_VERSION_PATCH);
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  std::string lib = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  return lib == hdr ? hdr : hdr + " (headers), " + lib + " (library)";
}

}  // namespace ompisim::engine
