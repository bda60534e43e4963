/**
 * A minimal HTTP/1.1 load client, in a process of its own (scripts/bench/static.mjs starts it):
 * CONNECTIONS keep-alive connections, one request at a time each, for SECONDS. Answers are framed
 * by Content-Length and never decoded, so compressed bodies cost the client nothing to read. Prints
 * one JSON line: requests per second, p99 latency (ms), connection errors, answers other than 2xx.
 *
 *   node scripts/bench/keep-alive-load.mjs PORT PATH SECONDS CONNECTIONS '{"Accept-Encoding":"br"}'
 *
 * Its own process, as any load generator: the benchmark's process holds autocannon's results and
 * the servers' pipes, and its garbage collection would pause the load.
 */
import { connect } from 'node:net';

const [portArg, path = '/', secondsArg = '5', connectionsArg = '100', headersArg = '{}'] = process.argv.slice(2);
const port = Number(portArg);
const seconds = Number(secondsArg);
/** @type {Record<string, string>} */
const headers = JSON.parse(headersArg);
const head = Buffer.from(
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`,
);
/** @type {number[]} */
const latencies = [];
let errors = 0;
let non2xx = 0;
const end = performance.now() + seconds * 1000;
await Promise.all(
  Array.from(
    { length: Number(connectionsArg) },
    () =>
      new Promise((resolveConnection) => {
        const socket = connect(port, '127.0.0.1');
        let buffer = Buffer.alloc(0);
        let need = -1;
        let sent = 0;
        const send = () => {
          if (performance.now() > end) {
            socket.destroy();
            resolveConnection(undefined);
            return;
          }
          sent = performance.now();
          socket.write(head);
        };
        socket.on('connect', send);
        socket.on('data', (chunk) => {
          buffer = buffer.length > 0 ? Buffer.concat([buffer, chunk]) : chunk;
          for (;;) {
            if (need < 0) {
              const at = buffer.indexOf('\r\n\r\n');
              if (at < 0) return;
              const text = buffer.subarray(0, at).toString('latin1');
              if (!/^HTTP\/1\.1 2/.test(text)) non2xx += 1;
              need = at + 4 + Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? 0);
            }
            if (buffer.length < need) return;
            buffer = buffer.subarray(need);
            need = -1;
            latencies.push(performance.now() - sent);
            send();
            if (socket.destroyed) return;
          }
        });
        socket.on('error', () => {
          errors += 1;
          resolveConnection(undefined);
        });
      }),
  ),
);
latencies.sort((a, b) => a - b);
console.log(JSON.stringify({ rps: latencies.length / seconds, p99: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0), errors, non2xx }));
