"""mmusim's Python side: workloads and flow traces (`workloads`, `trace`), parameter sweeps
(`sweep`), paper experiments (`experiments`), scenario writers and plots. Run with
/usr/bin/python3 (Debian's numpy, matplotlib, dpkt, dask)."""
