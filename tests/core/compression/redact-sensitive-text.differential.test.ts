/**
 * The redaction skips passes whose pattern cannot match (issue 17); it must give exactly what
 * running every pass in Hermes' order gives. fast-check builds texts from secrets, their
 * prefixes and near misses, the characters the skipping looks for (`:`, `=`, `_`, `-`, `@`,
 * quotes), case variants and Unicode spaces, and both implementations must agree in both modes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSecretFindings, loadSecretScan, screenTexts } from '#core/compression/could-contain-secret.ts';
import {
  COMPACTION_REDACTION,
  redactCompactionText,
  redactScreenedText,
  redactSensitiveText,
} from '#core/compression/redact-sensitive-text.ts';
import {
  referenceRedactCompactionText,
  referenceRedactSensitiveText,
} from '#tests/helpers/reference-redact-sensitive-text.ts';
import { spicedAgentTranscript } from '#tests/helpers/spiced-agent-transcript.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 3000);

const FRAGMENTS = [
  // Whole secrets of every kind.
  'sk-proj-abcdefghijklmnop1234567890',
  'sk-a.b.c.d.e.f.g.h.i.j.k',
  'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  'github_pat_11ABCDEFG0123456789_abcdefghij',
  'xoxb-123456789012-abcdefghijkl',
  'xapp-1-A0123456789-abcdefghij',
  'AIzaSyA1234567890abcdefghijklmnopqrstu',
  'gAAAAABlZ2FhYWFhYWFhYWFhYWFhYWFhYWFh',
  'AKIAIOSFODNN7EXAMPLE',
  'SG.abcdefghij.klmnopqrstuv',
  'hf_abcdefghijklmnop',
  'am_org_abcdefghijklmnopqrstuvwx',
  'glpat-abcdefghij1234567890',
  'OPENAI_API_KEY=sk-proj-abcdefghijklmnop',
  'MY_TOKEN = "s3cr3t-value"',
  'API_KEY\u2028=\u3000sk_live_abcdefghij',
  'SECRET\u000b=\fvalue123',
  '"token"\u2028:\u00a0"v"',
  '"secret"\ufeff:"v"',
  "DB_PASSWORD='hunter2'",
  'AUTH=abc',
  '"api_key": "abcdef0123456789abcdef"',
  '"Token" : "tok"',
  '"key_material":"raw"',
  'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
  'proxy-authorization: Basic dXNlcjpwYXNz',
  'Bearer abcdefgh12345678',
  'bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
  '12345678:abcdefghijklmnopqrstuvwxyz0123456',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----',
  'postgres://admin:hunter2@db:5432/app',
  'MongoDB+SRV://u:p@cluster',
  'https://user:pass@example.com/x',
  'git://abcdefghij@host/repo',
  'https://x.com/cb?code=abc123&state=1',
  '&access_token=zzz',
  '?Key=abc',
  '?x-amz-signature=deadbeef',
  // Parts and near misses.
  'sk-',
  'sk_',
  'task_id',
  'ask-me',
  'ghp_',
  'AIza',
  'AKIA',
  'gAAAA',
  'gAAA',
  'SG.',
  'eyJ',
  'ey',
  'J',
  'Bearer',
  'bearer ',
  'PRIVATE KEY-----',
  '-----BEGIN',
  'authorization',
  'Authorization:',
  'AUTHORIZATION :',
  '"password"',
  '"secret_value"',
  '"',
  ':',
  '://',
  '@',
  '=',
  ' = ',
  '?',
  '&',
  '_',
  '-',
  '.',
  'API',
  'KEY',
  'TOKEN',
  'SECRET',
  'PASSWD',
  'CREDENTIAL',
  'password',
  'token',
  '12345678',
  '0123456789',
  'abcdefghijklmnopqrstuvwxyz',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  ' ',
  '\n',
  '\t',
  '\u00a0',
  '\u2028',
  '\ufeff',
  'ſ',
  '\u212a',
  'café —',
  '😀',
  '\ud83d',
  '***',
  'abcdef...wxyz',
];

const text = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 })), { maxLength: 14 })
  .map((parts) => parts.join(''));

describe('redactSensitiveText against the implementation it replaced', () => {
  it('agrees on generated texts, lenient and strict', () => {
    fc.assert(
      fc.property(text, (sample) => {
        expect(redactSensitiveText(sample)).toBe(referenceRedactSensitiveText(sample));
        expect(redactCompactionText(sample)).toBe(referenceRedactCompactionText(sample));
      }),
      { numRuns: RUNS },
    );
  });

  it('agrees when it starts from a screen of many texts (its patterns, the `=` of its assignments), on either path', () => {
    const agrees = (samples: string[]): void => {
      const findings = createSecretFindings(samples.length);
      screenTexts(samples, findings);
      const { patterns, assignments } = findings;
      samples.forEach((sample, index) => {
        expect(redactScreenedText(sample, patterns[index]!, {}, assignments[index])).toBe(
          referenceRedactSensitiveText(sample),
        );
        expect(redactScreenedText(sample, patterns[index]!, COMPACTION_REDACTION, assignments[index])).toBe(
          referenceRedactCompactionText(sample),
        );
      });
    };
    // Short texts are screened by the regex until the WebAssembly scan is loaded; then by the scan.
    fc.assert(fc.property(fc.array(text, { maxLength: 20 }), agrees), { numRuns: RUNS, seed: 37 });
    loadSecretScan();
    fc.assert(fc.property(fc.array(text, { maxLength: 20 }), agrees), { numRuns: RUNS, seed: 41 });
  });

  it('agrees around every character JavaScript counts as a space', () => {
    for (let unit = 0; unit <= 0xffff; unit++) {
      const character = String.fromCharCode(unit);
      if (!/\s/.test(character)) continue;
      for (const sample of [
        `API_KEY${character}=${character}abcdefghijklmnop`,
        `"token"${character}:${character}"abc"`,
        `Authorization:${character}Basic x`,
      ]) {
        expect(redactSensitiveText(sample)).toBe(referenceRedactSensitiveText(sample));
        expect(redactCompactionText(sample)).toBe(referenceRedactCompactionText(sample));
      }
    }
  });

  it('agrees on every text of a spiced agent transcript', () => {
    const { messages } = spicedAgentTranscript({ messageCount: 1500, seed: 29 });
    let redacted = 0;
    for (const message of messages) {
      const texts = [
        typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''),
        ...(message.tool_calls ?? []).map((call) => call.function.arguments),
      ];
      for (const sample of texts) {
        const expected = referenceRedactCompactionText(sample);
        expect(redactCompactionText(sample)).toBe(expected);
        expect(redactSensitiveText(sample)).toBe(referenceRedactSensitiveText(sample));
        if (expected !== sample) redacted++;
      }
    }
    // The transcript carries secrets, so the comparison covered real redactions.
    expect(redacted).toBeGreaterThan(20);
  });
});
