// Configuration: tools/ompisim/mpi_launch.cpp built without MPI (always) and with it (when CMake found MPI); the
// argument says which ("mpi" or "nompi"). Expected: launcher detection reads OMPI_COMM_WORLD_SIZE, PMI_SIZE and
// PMIX_RANK (and nothing else: SLURM_PROCID alone is no MPI launcher); without MPI available() is false, library() is
// empty and init() refuses with a logic_error; with MPI library() names the library, and nothing here initialises MPI
// (MPI_Initialized stays false: the tool calls MPI_Init only for a launched sweep); linked with SimGrid after MPI
// as the tool is, the MPI_* symbols bind to the MPI library and not to SimGrid's SMPI.
// How validated: exit status 1 and a line per failed check.
#include "tools/ompisim/mpi_launch.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#ifdef OMPISIM_HAVE_MPI
#include <mpi.h>
#endif

using namespace ompisim;

static int failures = 0;
static void check(bool ok, const char* what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what);
  failures += !ok;
}

int main(int argc, char** argv) {
  const std::string variant = argc > 1 ? argv[1] : "";
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_PROCID"}) unsetenv(v);
  check(mpi_launch::launcher_variable() == nullptr, "no launcher variable: not launched");
  setenv("SLURM_PROCID", "0", 1);
  check(mpi_launch::launcher_variable() == nullptr, "SLURM_PROCID alone is not an MPI launcher");
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
    setenv(v, "3", 1);
    const char* got = mpi_launch::launcher_variable();
    check(got && std::string(got) == v, v);
    unsetenv(v);
  }
  setenv("PMI_SIZE", "", 1);
  check(mpi_launch::launcher_variable() == nullptr, "an empty variable is not a launcher");
  if (variant == "nompi") {
    check(!mpi_launch::available(), "built without MPI: available() is false");
    check(mpi_launch::library().empty(), "built without MPI: no library");
    bool refused = false;
    try {
      (void)mpi_launch::init();
    } catch (const std::logic_error&) {
      refused = true;
    }
    check(refused, "built without MPI: init() refuses");
    mpi_launch::finalize();  // a no-op
  } else if (variant == "mpi") {
    check(mpi_launch::available(), "built with MPI: available() is true");
    const std::string lib = mpi_launch::library();
    std::printf("     library: %s\n", lib.c_str());
    check(!lib.empty(), "built with MPI: library() names it");
    check(lib.find("SMPI") == std::string::npos, "MPI_* bind to the MPI library, not to SimGrid's SMPI (link order)");
#ifdef OMPISIM_HAVE_MPI
    int init = 1;
    MPI_Initialized(&init);
    check(init == 0, "library() does not initialise MPI");
#endif
  } else {
    check(false, "argument: mpi or nompi");
  }
  return failures ? 1 : 0;
}
