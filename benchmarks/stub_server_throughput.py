"""Throughput of the stub server: C keep-alive connections send requests back to back for D seconds.

Runs the stub as a separate process (as benchmarks and load tests use it) and drives it with a minimal
asyncio HTTP/1.1 client, so the client's own overhead stays small. Usage:

    python benchmarks/stub_server_throughput.py --connections 64 --latency-ms 200 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import sys
import time


async def _worker(port: int, deadline: float, index: int, latencies: list[float]) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    done = 0
    while time.perf_counter() < deadline:
        body = json.dumps(
            {"model": "bench", "messages": [{"role": "user", "content": f"Frage {index}-{done}: Ja oder Nein?"}]}
        ).encode()
        head = (
            f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        started = time.perf_counter()
        writer.write(head + body)
        await writer.drain()
        status = await reader.readline()
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        await reader.readexactly(length)
        if b" 200 " not in status:
            raise RuntimeError(status.decode())
        latencies.append(time.perf_counter() - started)
        done += 1
    writer.close()
    return done


async def _drive(port: int, connections: int, seconds: float) -> tuple[int, list[float], float]:
    latencies: list[float] = []
    started = time.perf_counter()
    deadline = started + seconds
    counts = await asyncio.gather(*(_worker(port, deadline, i, latencies) for i in range(connections)))
    return sum(counts), latencies, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "benger.testing.stub_server", "--port", str(port), "--latency-ms", str(args.latency_ms)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        server.stdout.readline()
        total, latencies, elapsed = asyncio.run(_drive(port, args.connections, args.seconds))
    finally:
        server.terminate()
        server.wait(timeout=10)
    latencies.sort()
    ceiling = round(args.connections / (args.latency_ms / 1000.0), 1) if args.latency_ms else None
    print(
        json.dumps(
            {
                "connections": args.connections,
                "latency_ms": args.latency_ms,
                "requests": total,
                "requests_per_s": round(total / elapsed, 1),
                "ceiling_requests_per_s": ceiling,
                "p50_ms": round(latencies[len(latencies) // 2] * 1000, 1),
                "p99_ms": round(latencies[int(len(latencies) * 0.99)] * 1000, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
