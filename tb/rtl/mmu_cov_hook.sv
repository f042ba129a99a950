// Coverage build only (tb/CMakeLists.txt, rtl_coverage_tests): bound into every
// mmu_admission instance, its final block hands the unit's Verilated coverage counters to
// tb/rtl/rtl_coverage_hook.cc, which writes them to a .dat file before the model is freed.
// (hw-model/cosim/rtl_unit.h calls final() in its destructor and gives every unit its own
// VerilatedContext, so the counters would otherwise be lost with each unit.)
`default_nettype none

module mmu_cov_hook;
  import "DPI-C" context function void mmu_cov_write();
  final mmu_cov_write();
endmodule

bind mmu_admission mmu_cov_hook u_mmu_cov_hook();

`default_nettype wire
