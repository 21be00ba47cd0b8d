// JUnit XML for CI (`--junit FILE`): one <testsuite> of <testcase>s, the format every CI
// system reads (GitHub Actions reporters, GitLab, Jenkins). A failed case carries a
// <failure>; a warning is reported in the case's <system-out> and does not fail it.
import { writeFile } from 'node:fs/promises';
import { CliError, EXIT } from './exit-codes.js';

export interface JunitCase {
  name: string;
  classname: string;
  seconds: number;
  failure?: { message: string; details: string };
  output?: string;
}

export interface JunitSuite {
  name: string;
  timestamp: string;
  seconds: number;
  properties: Record<string, string>;
  cases: JunitCase[];
}

/** XML 1.0 text: the five entities escaped, characters XML cannot carry dropped. */
export function xmlText(s: string): string {
  return s
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const secs = (n: number) => n.toFixed(3);

function caseXml(c: JunitCase): string {
  const open = `    <testcase classname="${xmlText(c.classname)}" name="${xmlText(c.name)}" time="${secs(c.seconds)}"`;
  const inner: string[] = [];
  if (c.failure)
    inner.push(`      <failure message="${xmlText(c.failure.message)}" type="failure">${xmlText(c.failure.details)}</failure>`);
  if (c.output) inner.push(`      <system-out>${xmlText(c.output)}</system-out>`);
  return inner.length === 0 ? `${open}/>` : `${open}>\n${inner.join('\n')}\n    </testcase>`;
}

export function junitXml(suite: JunitSuite): string {
  const failures = suite.cases.filter((c) => c.failure).length;
  const counts = `tests="${suite.cases.length}" failures="${failures}" errors="0" skipped="0" time="${secs(suite.seconds)}"`;
  const props = Object.entries(suite.properties).map(([k, v]) => `      <property name="${xmlText(k)}" value="${xmlText(v)}"/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlText(suite.name)}" ${counts}>`,
    `  <testsuite name="${xmlText(suite.name)}" ${counts} timestamp="${xmlText(suite.timestamp)}">`,
    '    <properties>',
    ...props,
    '    </properties>',
    ...suite.cases.map(caseXml),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** Writes the report; a path that cannot be written is the command line's mistake (exit 2). */
export async function writeJunit(path: string, suite: JunitSuite): Promise<void> {
  try {
    await writeFile(path, junitXml(suite));
  } catch (err) {
    throw new CliError(`cannot write the JUnit report to ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, EXIT.usage, 'usage');
  }
}
