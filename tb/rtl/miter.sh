# Sourced by the formal checks (sumgt_equiv.sh, forms_equiv.sh).
# miter_setup WORK: exits 77 (ctest SKIP) without yosys or yosys-abc, else makes WORK.
miter_setup() {
  if ! command -v yosys >/dev/null 2>&1 || ! command -v yosys-abc >/dev/null 2>&1; then
    echo "SKIP: yosys/yosys-abc not found (scripts/deps.sh test installs yosys)"
    exit 77
  fi
  mkdir -p "$1" || exit 1
}
# miter_verdict LOG AIG
# SCRIPT runs yosys on SCRIPT (which builds a module `miter` with miter -equiv), writes
# its AIG and prints yosys-abc iprove's verdict line: UNSATISFIABLE (the two sides equal
# for every input) or SATISFIABLE. On a yosys error it prints the log and returns 1.
miter_verdict() {
  if ! yosys -q -p "$3 hierarchy -top miter;
      synth -flatten -top miter -noabc; aigmap; opt_clean; write_aiger -zinit $2" >"$1" 2>&1; then
    cat "$1"
    return 1
  fi
  yosys-abc -c "read $2; strash; iprove" 2>&1 | grep -E '^(UN)?SATISFIABLE'
}
