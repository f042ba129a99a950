// libsystemc references sc_main (from sc_elab_and_sim). Test binaries get main() from
// gtest_main and run any SystemC kernel in forked children, so this sc_main is never called.
#include <systemc>

int sc_main(int, char*[]) { return 0; }
