#!/usr/bin/env python3
"""Split client-added TTFT with the kernel's own packet times (a tcpdump capture on lo).

usage: wire.py [--per-request OUT.tsv] CAPTURE.pcap REPORT.json ORACLE.log PORT LABEL [SUMMARY.jsonl]

The capture (tcpdump -i lo --time-stamp-precision=nano -s 4096 'tcp port PORT') timestamps every packet when the
kernel sends it on loopback, in one clock for both processes. For each request index (found in the request body's
"# request i:" tail) it takes, on that request's TCP connection:

  syn       the client's SYN (none when a kept-alive connection is reused)
  synack    the oracle's SYN-ACK (the kernel answers it; the oracle's accept() is not needed)
  req       the client's last request packet before the response (the request is written)
  tok       the oracle's first packet with a token chunk (the oracle's first-chunk flush)

and the client's ttft_ms from the report, the oracle's own body-read-to-first-chunk time from its log. Then

  client TTFT  = pre + upload + server + post, where
  upload       = req - syn (connect, handshake and the request upload; req - req when kept alive)
  server       = tok - req (the oracle: accept, header and body read, its own time, the write)
  oracle_wait  = server - the oracle's own time (what happens in the oracle before its clock starts)
  client_int   = client TTFT - (tok - syn): the client's own time before its SYN leaves and after the token packet
                 arrived, until it stamped the chunk (t0 to connect(), the wake-up, the read, the parse)

so the issue's "client-added" (client TTFT - the oracle's own) = client_int + upload + oracle_wait, and the part
that happens in the client's process is client_int + (upload - handshake). Percentiles are nearest-rank (spec 8.1).

--per-request OUT.tsv writes one row per joined request (ms, times relative to the capture's first SYN), to find
where a p99 comes from: idx, syn, upload_after_synack (SYN-ACK to last request packet), upload, handshake,
client_int, in_client, added, and what else the client's loop had to do while the request waited between its SYN and
its request packet: syns_between (other connections' SYNs), reqs_between (other requests written), toks_between
(oracle data packets to other connections: chunks the client had to read), fins_between (connections the client
closed meanwhile: other requests' ends), plus the request's position in its burst
(burst_pos: how many SYNs came less than 1 ms before it, in an unbroken run).
"""
import json
import math
import re
import struct
import sys

REQ = re.compile(rb"# request (\d+):")


def packets(path):
    """Yields (t_ns, src_port, dst_port, flags, payload) for each IPv4/IPv6 TCP packet of a pcap file."""
    with open(path, "rb") as f:
        head = f.read(24)
        magic = struct.unpack("<I", head[:4])[0]
        if magic == 0xA1B23C4D:
            scale, endian = 1, "<"
        elif magic == 0xA1B2C3D4:
            scale, endian = 1000, "<"
        elif magic == 0x4D3CB2A1:
            scale, endian = 1, ">"
        elif magic == 0xD4C3B2A1:
            scale, endian = 1000, ">"
        else:
            sys.exit(f"{path}: not a pcap file")
        link = struct.unpack(endian + "I", head[20:24])[0]
        l2 = {1: 14, 113: 16, 0: 4, 228: 0, 101: 0}.get(link)
        if l2 is None:
            sys.exit(f"{path}: link type {link} not supported")
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            sec, frac, incl, _ = struct.unpack(endian + "IIII", rec)
            data = f.read(incl)
            ip = data[l2:]
            if not ip:
                continue
            ver = ip[0] >> 4
            if ver == 4:
                if ip[9] != 6:
                    continue
                tcp = ip[(ip[0] & 15) * 4:]
            elif ver == 6:
                if ip[6] != 6:
                    continue
                tcp = ip[40:]
            else:
                continue
            sport, dport = struct.unpack(">HH", tcp[:4])
            flags = tcp[13]
            yield sec * 1_000_000_000 + frac * scale, sport, dport, flags, tcp[(tcp[12] >> 4) * 4:]


def q(v, x):
    v = sorted(v)
    return v[max(0, math.ceil(x * len(v)) - 1)] if v else float("nan")


def main():
    args = sys.argv[1:]
    per_request = None
    if len(args) >= 2 and args[0] == "--per-request":
        per_request, args = args[1], args[2:]
    if len(args) < 5:
        sys.exit(__doc__.strip().splitlines()[2])
    pcap, report, olog, port, label = args[:5]
    summary = args[5] if len(args) > 5 else None
    port = int(port)
    conns = {}  # client port -> state of its current request
    wire = {}   # request index -> dict of packet times (ns)
    syns, reqs, toks, fins = [], [], [], []  # packet times (per_request): client SYNs, request packets, oracle data
    # packets, client FINs
    for t, sp, dp, flags, pl in packets(pcap):
        if dp == port:  # client -> oracle
            c = conns.setdefault(sp, {})
            if flags & 0x02:  # SYN: a new connection on this port
                conns[sp] = c = {"syn": t}
                syns.append(t)
            if flags & 0x01:  # FIN: the client closed a connection
                fins.append(t)
            if pl:
                m = REQ.search(pl)
                if m is not None:
                    idx = int(m.group(1))
                    c["idx"] = idx
                    w = wire.setdefault(idx, {})
                    w["syn"] = c.pop("syn", None)
                    w["synack"] = c.pop("synack", None)
                    w["req"] = t
                    c["waiting"] = True
                    reqs.append(t)
                elif c.get("waiting"):
                    wire[c["idx"]]["req"] = t  # a later packet of the same request
        elif sp == port:  # oracle -> client
            c = conns.get(dp)
            if c is None:
                continue
            if pl:
                toks.append(t)
            if flags & 0x12 == 0x12:
                c["synack"] = t
            elif pl and c.get("waiting") and b" tok" in pl:
                wire[c["idx"]]["tok"] = t
                c["waiting"] = False
    own = {}
    for line in open(olog):
        p = line.split()
        if len(p) >= 4 and p[2] != "error" and int(p[0]) >= 0:
            own[int(p[0])] = float(p[2])
    art = json.load(open(report))
    rows = {r["request_index"]: r for r in art.get("request_timings") or []}
    cols = {k: [] for k in ("added", "client_int", "upload", "handshake", "oracle_wait", "in_client")}
    reused = 0
    rows_out = []
    for idx, w in wire.items():
        r = rows.get(idx)
        if r is None or idx not in own or "tok" not in w:
            continue
        start = w["syn"] if w["syn"] is not None else w["req"]
        reused += w["syn"] is None
        upload = (w["req"] - start) / 1e6
        handshake = (w["synack"] - w["syn"]) / 1e6 if w["syn"] is not None and w["synack"] is not None else 0.0
        server = (w["tok"] - w["req"]) / 1e6
        client_int = r["ttft_ms"] - (w["tok"] - start) / 1e6
        cols["added"].append(r["ttft_ms"] - own[idx])
        cols["client_int"].append(client_int)
        cols["upload"].append(upload)
        cols["handshake"].append(handshake)
        cols["oracle_wait"].append(server - own[idx])
        cols["in_client"].append(client_int + upload - handshake)
        if per_request:
            rows_out.append((idx, w, upload, handshake, client_int, r["ttft_ms"] - own[idx]))
    n = len(cols["added"])
    if n == 0:
        sys.exit(f"{label}: no request of the report was found in the capture")
    print(f"{label}: wire split of client-added TTFT over {n} requests ({reused} on kept-alive connections), "
          f"p50 / p99 / max ms:")
    names = {"added": "client-added (client TTFT - oracle's own)",
             "in_client": "  in the client's process (client_int + upload - handshake)",
             "client_int": "    before its SYN and after the token packet (client_int)",
             "upload": "  connect + upload, SYN to last request packet (upload)",
             "handshake": "    of which the kernel's handshake, SYN to SYN-ACK",
             "oracle_wait": "  in the oracle before its clock starts (oracle_wait)"}
    out = {"scenario": label, "n": n, "reused": reused}
    for k, text in names.items():
        v = cols[k]
        print(f"  {text:62s} {q(v, .5):8.2f} {q(v, .99):8.2f} {max(v):8.2f}")
        out[k] = {"p50": round(q(v, .5), 3), "p99": round(q(v, .99), 3), "max": round(max(v), 3)}
    if summary:
        with open(summary, "a") as f:
            f.write(json.dumps(out) + "\n")
    if per_request:
        write_per_request(per_request, rows_out, syns, reqs, toks, fins)


def write_per_request(path, rows, syns, reqs, toks, fins):
    """One row per request: its phases and what else happened between its SYN and its request packet."""
    import bisect
    syns.sort()
    reqs.sort()
    toks.sort()
    fins.sort()
    base = syns[0] if syns else 0
    burst = {}  # SYN time -> position in an unbroken run of SYNs less than 1 ms apart
    pos = 0
    for i, t in enumerate(syns):
        pos = pos + 1 if i > 0 and t - syns[i - 1] < 1_000_000 else 0
        burst[t] = pos

    def between(v, a, b):  # packets strictly after a and before b
        return max(0, bisect.bisect_left(v, b) - bisect.bisect_right(v, a))

    with open(path, "w") as f:
        f.write("idx\tsyn_ms\tupload_after_synack\tupload\thandshake\tclient_int\tin_client\tadded"
                "\tsyns_between\treqs_between\ttoks_between\tfins_between\tburst_pos\n")
        for idx, w, upload, handshake, client_int, added in sorted(rows, key=lambda x: x[1]["syn"] or x[1]["req"]):
            syn = w["syn"] if w["syn"] is not None else w["req"]
            after = (w["req"] - w["synack"]) / 1e6 if w.get("synack") is not None else float("nan")
            f.write(f"{idx}\t{(syn - base) / 1e6:.3f}\t{after:.3f}\t{upload:.3f}\t{handshake:.3f}\t{client_int:.3f}"
                    f"\t{client_int + upload - handshake:.3f}\t{added:.3f}\t{between(syns, syn, w['req'])}"
                    f"\t{between(reqs, syn, w['req'])}\t{between(toks, syn, w['req'])}\t{between(fins, syn, w['req'])}"
                    f"\t{burst.get(w['syn'], -1)}\n")


if __name__ == "__main__":
    main()
