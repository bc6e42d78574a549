// Compiled twice in a build with MPI: into the tool with OMPISIM_HAVE_MPI, and without it into a test
// (tools/ompisim/tests/mpi_launch_test.cpp) so the variant without MPI keeps compiling and behaving.
#include "tools/ompisim/mpi_launch.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <unistd.h>  // environ

#ifdef OMPISIM_HAVE_MPI
#include <mpi.h>
#endif

namespace ompisim::mpi_launch {

const char* launcher_variable() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (const char* x = std::getenv(v); x && *x) return v;
  return nullptr;
}

const char* launcher_contact() {
  for (const char* v : {"OMPI_MCA_orte_hnp_uri", "PMI_FD", "PMI_PORT"})
    if (const char* x = std::getenv(v); x && *x) return v;
  for (char** e = environ; e && *e; ++e)
    if (std::string_view(*e).starts_with("PMIX_SERVER_URI")) return "PMIX_SERVER_URI";
  return nullptr;
}

#ifdef OMPISIM_HAVE_MPI

bool available() { return true; }

std::string library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);  // may be called before MPI_Init (MPI-3)
  std::string s(text, static_cast<std::size_t>(len));
  if (auto nl = s.find_first_of("\r\n"); nl != std::string::npos) s.resize(nl);
  while (!s.empty() && (s.back() == ' ' || s.back() == ',' || s.back() == '\0')) s.pop_back();
  return s;
}

Comm init() {
  // libsimgrid exports MPI_* too (SMPI): if the dynamic linker bound them to it, MPI_Init would start SMPI's runtime.
  if (library().find("SMPI") != std::string::npos)
    throw std::runtime_error("MPI_* resolve to SimGrid's SMPI, not to the MPI library: link MPI before SimGrid "
                             "(CMakeLists.txt)");
  if (MPI_Init(nullptr, nullptr) != MPI_SUCCESS) throw std::runtime_error("MPI_Init failed");
  Comm c;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.size);
  return c;
}

int barrier_max(int status) {
  int worst = status;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

void finalize() {
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

#else

bool available() { return false; }
std::string library() { return ""; }
Comm init() { throw std::logic_error("this ompisim was built without MPI (cmake -DOMPISIM_MPI=ON with MPI installed)"); }
int barrier_max(int) { throw std::logic_error("this ompisim was built without MPI"); }
void finalize() {}

#endif

}  // namespace ompisim::mpi_launch
