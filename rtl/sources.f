# Sources of the admission unit (top: mmu_admission), in compilation order, relative to
# rtl/; *.svh files are included from rtl/ (give the tools -I rtl). Every consumer reads
# this list: tb/CMakeLists.txt, CMakeLists.txt, scripts/ppa_lib/flow.py, tb/rtl/*.sh,
# tb/ppa/netlist_equiv.sh.
mmu_adm_pkg.sv
mmu_adm_csr.sv
mmu_adm_derive.sv
mmu_adm_thcalc.sv
mmu_adm_thresh.sv
mmu_adm_lookup.sv
mmu_adm_qmem.sv
mmu_adm_ewma.sv
mmu_adm_recip_div.sv
mmu_adm_rate.sv
mmu_adm_quot.sv
mmu_adm_sumgt.sv
mmu_adm_sumeq.sv
mmu_adm_poolnx.sv
mmu_adm_sonic.sv
mmu_pol_dt.sv
mmu_pol_reverie.sv
mmu_pol_dsh.sv
mmu_pol_static.sv
mmu_pol_sih.sv
mmu_pol_abm.sv
mmu_adm_op.sv
mmu_admission.sv
