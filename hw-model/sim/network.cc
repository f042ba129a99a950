#include "sim/network.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "common/sim_time.h"
#include "host/generators.h"
#include "sim/progress.h"

namespace mmusim {

Network::Network(const Scenario& sc, const RunOptions& opt) : m_sc(sc), m_opt(opt) {
  const NetworkCfg& net = sc.net;
  for (uint32_t s = 0; s < net.switches.size(); ++s)
    m_switches.push_back(std::make_unique<Switch>(net.switches[s].name.c_str(), sc, s, m_pool));
  // Port names carry their switch's name only when there are several switches.
  auto port_name = [&](uint32_t s, uint32_t p) {
    return (net.graph ? net.switches[s].name + "_" : std::string()) + net.switches[s].ports[p].name;
  };
  auto make_link = [&](const std::string& name, uint64_t rate, uint64_t delay) {
    m_links.push_back(std::make_unique<Link>(name.c_str(), rate, delay, sc.topo.wire_overhead_bytes));
    return m_links.back().get();
  };
  // Link arriving at each switch port, bound below in port order: the ingress socket
  // index is the port number.
  std::vector<std::vector<Link*>> into(net.switches.size());
  for (uint32_t s = 0; s < net.switches.size(); ++s) into[s].resize(net.switches[s].ports.size());
  std::vector<Host*> hosts;
  for (uint32_t i = 0; i < net.hosts.size(); ++i) {
    const NetworkCfg::Host& hc = net.hosts[i];
    const std::string pn = port_name(hc.sw, hc.port);
    m_hosts.push_back(std::make_unique<Host>(hc.name.c_str(), i, hc.rate_bps, m_flows, m_pool));
    Link* up = make_link(hc.name + "_to_" + pn, hc.rate_bps, hc.delay_ps);
    Link* down = make_link(pn + "_to_" + hc.name, hc.rate_bps, hc.delay_ps);
    m_hosts[i]->tx.bind(up->in);
    into[hc.sw][hc.port] = up;
    m_switches[hc.sw]->egress[hc.port]->to_link.bind(down->in);
    down->out.bind(m_hosts[i]->rx);
    if (sc.bfc.enabled) m_hosts[i]->enable_bfc(sc.bfc.queues_per_port);  // NIC upstream of BFC
    if (sc.host.acks)
      m_hosts[i]->enable_acks(sc.host, sc.switch_view(hc.sw).buffer.classifier(hc.port).classify(sc.host.ack_dscp, -1));
    hosts.push_back(m_hosts[i].get());
  }
  for (uint32_t s = 0; s < net.switches.size(); ++s)
    for (uint32_t p = 0; p < net.switches[s].ports.size(); ++p) {
      const NetworkCfg::Port& pc = net.switches[s].ports[p];
      if (pc.peer_host) continue;
      Link* l = make_link(port_name(s, p) + "_to_" + port_name(pc.peer, pc.peer_port), pc.rate_bps, pc.delay_ps);
      m_switches[s]->egress[p]->to_link.bind(l->in);
      into[pc.peer][pc.peer_port] = l;
    }
  for (uint32_t s = 0; s < net.switches.size(); ++s)
    for (Link* l : into[s]) l->out.bind(m_switches[s]->ingress.from_link);
  m_routes = compute_routes(net);
  for (uint32_t s = 0; s < net.switches.size(); ++s) {
    m_switches[s]->ingress.set_ecmp(sc.seed, s);
    for (uint32_t d = 0; d < net.hosts.size(); ++d) m_switches[s]->ingress.add_route(host_ip(d), m_routes[s][d]);
  }
  TrafficConfig tc = traffic_config(sc);
  std::vector<std::unique_ptr<Generator>> gens;
  for (uint32_t g = 0; g < tc.generators.size(); ++g) gens.push_back(make_generator(tc, g));
  m_traffic = std::make_unique<TrafficManager>("traffic", std::move(tc), std::move(gens), m_flows, hosts);
  const std::string dir = opt.out_dir.empty() ? std::string(".") : opt.out_dir;
  if (sc.admission.rtl)
    for (auto& sw : m_switches) {
      if (!net.graph) {
        sw->enable_rtl(dir + "/rtl_mismatch.fst");
        continue;
      }
      try {
        sw->enable_rtl(dir + "/rtl_mismatch_" + sw->basename() + ".fst");
      } catch (const ConfigError& e) {
        throw ConfigError("switch '" + std::string(sw->basename()) + "': " + e.what());
      }
    }

  if (!opt.out_dir.empty()) open_outputs();
}

// Closing a trace file that SystemC never opened crashes inside SystemC; after a failed
// run the file is discarded anyway.
Network::~Network() {
  if (m_vcd && m_vcd_ready) sc_core::sc_close_vcd_trace_file(m_vcd);
}

uint64_t Network::hops() const {
  uint64_t n = 0;
  for (const auto& l : m_links) n += l->data_frames();
  return n;
}

nlohmann::json Network::run() {
  const auto t0 = std::chrono::steady_clock::now();
  Progress progress(m_sc.name, m_sc.duration_ps, m_opt.progress);
  // Chunks only pace the progress line; the model has no periodic process.
  const uint64_t chunks = progress.chunks();
  const uint64_t step = (m_sc.duration_ps + chunks - 1) / chunks;
  Calendar::get().set_run_end(m_sc.duration_ps);
  for (uint64_t done = 0; done < m_sc.duration_ps && !m_write_failed;) {
    const uint64_t d = std::min(step, m_sc.duration_ps - done);
    // Run ahead of the kernel up to the chunk's end, unless the VCD samples kernel time.
    Calendar::get().set_horizon(m_vcd ? 0 : done + d);
    sc_core::sc_start(ps(d));
    m_vcd_ready = true;
    done += d;
    progress.update(done, hops(), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  progress.finish();
  if (m_write_failed) {
    if (m_pcap) m_pcap->close();
    m_out->close();
    throw OutputError(m_out->dir() + ": an output write failed");  // not reached: a close throws
  }
  for (auto& sw : m_switches) {
    sw->mmu.finish(m_sc.duration_ps);
    if (sw->bfc) sw->bfc->finish(m_sc.duration_ps);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  nlohmann::json s = summary(wall);
  if (m_out) commit_outputs(s);
  // After summary.json is written, so the report of the stuck queues is there to read.
  if (s.contains("bfc") && s["bfc"]["deadlock"].get<uint32_t>() > 0)
    throw std::runtime_error("bfc.deadlock: " + std::to_string(s["bfc"]["deadlock"].get<uint32_t>()) +
                             " upstream queue(s) paused with no packet left able to drain: " +
                             s["bfc"]["deadlocked_queues"].dump());
  return s;
}

}  // namespace mmusim
