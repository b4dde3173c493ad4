#!/usr/bin/env python3
"""Split capstream's client-minus-server TTFT (issue 33) with the kernel's own packet times (a tcpdump capture on lo).

usage: server_wire.py CAPTURE.pcap REPORT.json PORT

For a run against llama-server (or any server whose responses carry a server TTFT, capstream.statistics.server_view),
it takes per request, on that request's TCP connection (found by the body's "# request i:" tail, as wire.py does):

  syn   the client's SYN (none when a kept-alive connection is reused)
  req   the client's last request packet before the response (the request is written)
  tok   the server's first packet with a non-empty content or reasoning delta

and the report's client_first_token_ms and server_ttft_ms (llama.cpp's timings.prompt_ms). Then

  client_minus_server = network + server_outside + client_int, where
  network        = req - syn: connect, handshake and the request upload on loopback
  server_outside = (tok - req) - server_ttft: in the server outside its prefill clock (HTTP parse, template,
                   tokenisation, the wait for a slot and for the current batch, detokenising, the write)
  client_int     = client first token - (tok - syn): the client before its SYN and after the token packet arrived
Percentiles are nearest-rank (spec 8.1).
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wire import REQ, packets, q  # noqa: E402

TOKEN = re.compile(rb'"(?:reasoning_)?content":"[^"]')


def main():
    pcap, report, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    conns, wire = {}, {}
    for t, sp, dp, flags, pl in packets(pcap):
        if dp == port:
            c = conns.setdefault(sp, {})
            if flags & 0x02:
                conns[sp] = c = {"syn": t}
            if pl:
                m = REQ.search(pl)
                if m is not None:
                    idx = int(m.group(1))
                    c["idx"] = idx
                    wire[idx] = {"syn": c.pop("syn", None), "req": t}
                    c["waiting"] = True
                elif c.get("waiting"):
                    wire[c["idx"]]["req"] = t
        elif sp == port:
            c = conns.get(dp)
            if c is not None and pl and c.get("waiting") and TOKEN.search(pl):
                wire[c["idx"]]["tok"] = t
                c["waiting"] = False
    sv = json.load(open(report))["capstream"]["statistics"]["server_view"]
    cols = {k: [] for k in ("client_minus_server", "network", "server_outside", "client_int", "check")}
    for i, idx in enumerate(sv["request_index"]):
        w, client, server = wire.get(idx), sv["client_first_token_ms"][i], sv["server_ttft_ms"][i]
        if w is None or "tok" not in w or client is None or server is None:
            continue
        start = w["syn"] if w["syn"] is not None else w["req"]
        network = (w["req"] - start) / 1e6
        outside = (w["tok"] - w["req"]) / 1e6 - server
        client_int = client - (w["tok"] - start) / 1e6
        cols["client_minus_server"].append(client - server)
        cols["network"].append(network)
        cols["server_outside"].append(outside)
        cols["client_int"].append(client_int)
        cols["check"].append(client - server - network - outside - client_int)
    n = len(cols["network"])
    if n == 0:
        sys.exit("no request of the report was found in the capture")
    print(f"client minus server TTFT split by the wire over {n} requests, p50 / p95 / max ms:")
    for k, v in cols.items():
        if k != "check":
            print(f"  {k:22s} {q(v, .5):8.2f} {q(v, .95):8.2f} {max(v):8.2f}")
    print(f"  (parts add up to the difference within {max(abs(x) for x in cols['check']):.6f} ms)")


if __name__ == "__main__":
    main()
