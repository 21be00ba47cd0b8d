// The command-line tool's frame, as a user meets it: help, version, and the exit codes
// CI relies on for a wrong command line (docs/cli.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCountersign } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

describe('countersign', () => {
  it('prints its usage with --help and exits 0', async () => {
    const run = await runCountersign(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: countersign \[options\]/);
    expect(run.stdout).toContain('--json');
  });

  it('prints the package version with --version', async () => {
    const run = await runCountersign(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(pkg.version);
  });

  it('exits 2 on an unknown option, saying which, with no stack trace', async () => {
    const run = await runCountersign(['--no-such-flag']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option '--no-such-flag'");
    expect(run.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('exits 2 on an unknown command', async () => {
    const run = await runCountersign(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/frobnicate/);
  });
});
