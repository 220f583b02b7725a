// The load generators of bench:http: GET /api/locations?zip=<the next of a list of ZIPs>, from
// wrk (Debian's package, a C program) when it is on PATH, else from autocannon (a dependency, in
// this Node process). wrk costs far less per request, so on a machine of few cores it loads the
// server rather than starving it; autocannon keeps the bench running where wrk is missing.

import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { quantile } from './measure.js';

export interface LoadResult {
  /** Requests answered. */
  requests: number;
  rps: number;
  /** Milliseconds, over the answers (wrk: every answer; autocannon: the 2xx ones, each timed on its own). */
  p50: number;
  p99: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  seconds: number;
  /** Sent as X-API-Key. */
  key: string;
}

export interface LoadGenerator {
  name: 'wrk' | 'autocannon';
  run(options: LoadOptions): Promise<LoadResult>;
}

/** wrk's path, or undefined when it is not installed. */
export function findWrk(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * wrk when it is installed, else autocannon; each request asks for the next of `zips`. wrk asks
 * for each request from a Lua script's `request` function (written to `workDir`): it walks the
 * same list, each of its threads from the start.
 */
export function loadGenerator(zips: readonly string[], workDir: string, threads = 1): LoadGenerator {
  const wrk = findWrk();
  if (wrk === undefined) return { name: 'autocannon', run: (options) => autocannonLoad(zips, options) };
  const script = join(workDir, 'zips.lua');
  writeFileSync(
    script,
    `local zips = {${zips.map((z) => `"${z}"`).join(',')}}\nlocal i = 0\nrequest = function()\n  i = i + 1\n  return wrk.format("GET", "/api/locations?zip=" .. zips[(i % #zips) + 1])\nend\n`,
  );
  return { name: 'wrk', run: (options) => wrkLoad(wrk, script, Math.max(1, Math.min(threads, options.connections)), options) };
}

/** Milliseconds from wrk's units (`812.00us`, `1.23ms`, `2.01s`). */
function wrkMs(text: string): number {
  const [, value, unit] = /^([\d.]+)(us|ms|s|m)$/.exec(text)!;
  return Number(value) * { us: 1e-3, ms: 1, s: 1e3, m: 60e3 }[unit as 'us' | 'ms' | 's' | 'm'];
}

function wrkLoad(wrk: string, script: string, threads: number, { url, connections, seconds, key }: LoadOptions): Promise<LoadResult> {
  // wrk takes whole seconds.
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${Math.max(1, Math.round(seconds))}s`, '--latency', '-s', script, '-H', `x-api-key: ${key}`, url];
  return new Promise((resolve, reject) => {
    const child = spawn(wrk, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
      const total = /(\d+) requests in/.exec(out);
      if (code !== 0 || !rps || !total) return reject(new Error(`wrk exited ${code}:\n${out}`));
      // `Socket errors: connect 0, read 0, write 0, timeout 0`, printed only when there were some.
      const socketErrors = /Socket errors:(.*)/.exec(out)?.[1].match(/\d+/g) ?? [];
      resolve({
        requests: Number(total[1]),
        rps: Number(rps[1]),
        p50: wrkMs(/^\s+50%\s+(\S+)/m.exec(out)![1]),
        p99: wrkMs(/^\s+99%\s+(\S+)/m.exec(out)![1]),
        non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
        errors: socketErrors.reduce((sum, n) => sum + Number(n), 0),
      });
    });
  });
}

async function autocannonLoad(zips: readonly string[], { url, connections, seconds, key }: LoadOptions): Promise<LoadResult> {
  let i = 0;
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        headers: { 'x-api-key': key },
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/locations?zip=${zips[i++ % zips.length]}` }) }],
      },
      (err, r) => (err ? reject(err) : resolve(r)),
    );
    // Each answer's own time: autocannon's histogram keeps whole milliseconds only.
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status < 300) latencies.push(ms);
    });
  });
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
