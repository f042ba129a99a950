#include "host/traffic_manager.h"

#include "common/sim_time.h"
#include "ingress/classifier.h"

namespace mmusim {

TrafficManager::TrafficManager(sc_core::sc_module_name name, const Scenario& sc, FlowTable& flows,
                               std::vector<Host*> hosts)
    : sc_module(name), m_sc(sc), m_flows(flows), m_hosts(std::move(hosts)), m_routes(compute_routes(sc.net)) {
  m_head.resize(sc.traffic.size());
  for (uint32_t g = 0; g < sc.traffic.size(); ++g) {
    m_gens.push_back(make_generator(sc, g));
    pull(g);
  }
}

void TrafficManager::pull(uint32_t gen) {
  if (m_gens[gen]->next(m_head[gen]) && m_head[gen].start_ps < m_sc.duration_ps)
    m_cal.at<&TrafficManager::on_start>(m_head[gen].start_ps, Phase::kFlowStart, this, gen);
}

void TrafficManager::on_start(uint32_t g) {
  Flow f = m_head[g];
  f.id = uint32_t(m_flows.size());
  if (f.has_ports) f.tuple.src_ip = host_ip(f.src), f.tuple.dst_ip = host_ip(f.dst);
  else f.tuple = FiveTuple{host_ip(f.src), host_ip(f.dst), uint16_t(49152 + f.id % 16384), 4791, 17};
  const FiveTuple& t = f.tuple;
  f.switch_hops = uint32_t(inner_path(m_sc.net, m_routes, m_sc.seed, f.src, f.dst, t.src_ip, t.dst_ip,
                                      t.src_port, t.dst_port, t.proto)
                               .size()) + 1;
  // The NIC classifies as the switch port it is attached to will.
  const NetworkCfg::Host& at = m_sc.net.hosts[f.src];
  f.prio = classify(m_sc.switch_view(at.sw).buffer, at.port, f.dscp, f.pcp);
  m_flows.push_back(f);
  m_hosts[f.src]->start_flow(f.id);
  pull(g);
}

}  // namespace mmusim
