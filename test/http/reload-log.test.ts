// What a failed reload writes to the log: the reason in one line, as the health report and the
// command line say it. A dataset or file the operator has to fix is no bug of the server: its stack
// trace would tell them nothing more, so the line carries none.

import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ReloadStatus } from '../../adapters/http/health.js';
import { reload, switchableCore } from '../../adapters/reload.js';
import { DatasetError } from '../../engine/index.js';
import { createTestApp } from './fixtures.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  }));
  return { lines, logger };
}

describe('a reload that fails', () => {
  it('logs the reason of a bad snapshot in one line, without a stack trace', async () => {
    const { lines, logger } = capture();
    const status = new ReloadStatus();
    const bad = () => {
      throw new DatasetError(['/srv/live.snapshot: truncated or corrupt snapshot: rebuild it']);
    };
    expect(await reload(switchableCore(createTestApp()), bad, logger, status)).toBe(false);
    expect(lines.map(({ level, msg, reason, err }) => ({ level, msg, reason, err }))).toEqual([
      {
        level: 50,
        msg: 'reload failed: still serving the data loaded before',
        reason: '/srv/live.snapshot: truncated or corrupt snapshot: rebuild it',
        err: undefined,
      },
    ]);
  });

  it('logs the reason of a file that is gone in one line, without a stack trace', async () => {
    const { lines, logger } = capture();
    const gone = () => {
      throw Object.assign(new Error("ENOENT: no such file or directory, open '/srv/live.snapshot'"), { code: 'ENOENT', path: '/srv/live.snapshot' });
    };
    expect(await reload(switchableCore(createTestApp()), gone, logger, new ReloadStatus())).toBe(false);
    expect(lines.map(({ reason, err }) => ({ reason, err }))).toEqual([{ reason: '/srv/live.snapshot: no such file or directory', err: undefined }]);
  });

  it('keeps the stack of an error that is no data problem: a fault of the server to look into', async () => {
    const { lines, logger } = capture();
    const fault = () => {
      throw new TypeError('cannot read properties of undefined');
    };
    expect(await reload(switchableCore(createTestApp()), fault, logger, new ReloadStatus())).toBe(false);
    expect(lines[0]?.reason).toBe('cannot read properties of undefined');
    expect((lines[0]?.err as { stack?: string } | undefined)?.stack).toMatch(/^TypeError: cannot read properties of undefined\n {4}at /);
  });
});
