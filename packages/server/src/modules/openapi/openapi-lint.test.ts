import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

/**
 * Outside tools hold us to the OpenAPI document: Redocly CLI's recommended lint must find no error and no
 * warning beyond the two decided in .redocly.lint-ignore.yaml (beside this file, with the reasons).
 */
let t: TestServer;
let dir: string;
beforeAll(async () => {
  t = await startTestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
  const res = await fetch(`${t.baseUrl}/api/v1/openapi.json`);
  fs.writeFileSync(path.join(dir, 'openapi.json'), await res.text());
  for (const file of ['redocly.yaml', '.redocly.lint-ignore.yaml'])
    fs.copyFileSync(path.join(import.meta.dirname, file), path.join(dir, file));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the OpenAPI document', () => {
  it("passes Redocly's recommended lint with no error and no unexplained warning", () => {
    const cli = path.resolve(import.meta.dirname, '../../../../../node_modules/@redocly/cli/bin/cli.js');
    let output = '';
    let status = 0;
    try {
      output = execFileSync(process.execPath, [cli, 'lint', 'openapi.json', '--format=json'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
    } catch (error) {
      const e = error as { status: number; stdout: string };
      status = e.status;
      output = e.stdout;
    }
    const report = JSON.parse(output.slice(output.indexOf('{'))) as {
      totals: { errors: number; warnings: number; ignored: number };
      problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
    };
    const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0, ignored: 2 });
    expect(status).toBe(0);
  });
});
