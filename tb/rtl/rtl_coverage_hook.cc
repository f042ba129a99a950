// Coverage build only: the DPI function the bound mmu_cov_hook (tb/rtl/mmu_cov_hook.sv)
// calls from its final block. It writes the coverage counters of the calling unit's
// VerilatedContext to $MMU_COV_DIR/rtl_cov_<pid>_<n>.dat (default: the working directory);
// tb/rtl/coverage.sh merges them with verilator_coverage.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <svdpi.h>
#include <verilated.h>
#include <verilated_cov.h>

extern "C" void mmu_cov_write() {
  static std::atomic<unsigned> count{0};
  const auto* scope = static_cast<const VerilatedScope*>(svGetScope());
  if (!scope || !scope->symsp()) {
    std::fprintf(stderr, "mmu_cov_write: no DPI scope, coverage not written\n");
    return;
  }
  VerilatedContext* ctx = scope->symsp()->_vm_contextp__;
  const char* dir = std::getenv("MMU_COV_DIR");
  const std::string path = std::string(dir && *dir ? dir : ".") + "/rtl_cov_" + std::to_string(getpid()) + "_" +
                           std::to_string(count++) + ".dat";
  ctx->coveragep()->write(path.c_str());
}
