// MPI in the tool (only for `sweep` under an MPI launcher). The tool links MPI when CMake finds it (OMPISIM_MPI, on by
// default; OMPISIM_HAVE_MPI is then defined for this file alone) and works the same without it. MPI_Init is called
// only by `sweep` when an MPI launcher started the process (launcher_variable()), never by any other command, so the
// tool starts without MPI's cost and runs as root without mpirun.
//
// Fork safety: a process that called MPI_Init never forks. `sweep` forks its point runner (runner/isolate.hpp,
// IsolatedWorker) before MPI_Init; after MPI_Init it hands that child its shard (MPI_Comm_rank / MPI_Comm_size), waits
// for it, and joins the other ranks in one MPI_Allreduce of the outcome (the barrier before rank 0 merges). The child
// and the point processes it forks never call MPI and end with _exit, so no MPI state is duplicated into a process
// that uses it (Open MPI's fork() caveats: registered memory with OpenFabrics / UCX, atexit handlers).
#pragma once
#include <string>

namespace ompisim::mpi_launch {

// Whether the tool was built with MPI.
bool available();
// The MPI library's version line (MPI_Get_library_version), or "" when built without MPI. Does not initialise MPI.
std::string library();
// The first MPI launcher variable set in the environment: OMPI_COMM_WORLD_SIZE (Open MPI's mpirun), PMI_SIZE (MPICH /
// Hydra, srun --mpi=pmi2), PMIX_RANK (PMIx launchers: prrte, srun --mpi=pmix); nullptr when none is.
const char* launcher_variable();
// The first variable by which a launcher tells MPI_Init where to reach it: PMIX_SERVER_URI* (PMIx: Open MPI 4's and
// 5's mpirun, srun --mpi=pmix), OMPI_MCA_orte_hnp_uri (Open MPI 4's mpirun), PMI_FD or PMI_PORT (MPICH / Hydra, srun
// --mpi=pmi2); nullptr when none is. Rank and size variables without one are not a launch: MPI_Init would wait for a
// launcher that is not there.
const char* launcher_contact();

struct Comm {
  int rank = 0, size = 1;
};
// MPI_Init, then this process's rank and the world's size. std::logic_error when built without MPI.
Comm init();
// The barrier of the ranks with their outcome: MPI_Allreduce(MPI_MAX) of status over MPI_COMM_WORLD; every rank gets
// the worst status. std::logic_error when built without MPI.
int barrier_max(int status);
// MPI_Finalize (once, after init). No-op when built without MPI.
void finalize();

}  // namespace ompisim::mpi_launch
