/**
 * `couldContainSecret` lets redaction skip a text, so it must say yes to every text any pattern
 * can match (checked against the reference redaction, which runs every pattern on every text), and
 * it earns its keep by saying no to ordinary tool output.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  couldContainSecret,
  createSecretFindings,
  loadSecretScan,
  possibleSecretPatterns,
  screenTexts,
} from '#core/compression/could-contain-secret.ts';
import {
  referenceRedactCompactionText,
  referenceRedactSensitiveText,
} from '#tests/helpers/reference-redact-sensitive-text.ts';
import { spicedAgentTranscript } from '#tests/helpers/spiced-agent-transcript.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 3000);

const anyPatternMatches = (text: string): boolean =>
  referenceRedactCompactionText(text) !== text || referenceRedactSensitiveText(text) !== text;

const SECRETS = [
  'sk-proj-abcdefghijklmnop1234567890',
  'sk_live_abcdefghij1234',
  'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  'github_pat_11ABCDEFG0123456789_abcdefghij',
  'xoxb-123456789012-abcdefghijkl',
  'xapp-1-A0123456789-abcdefghij',
  'AIzaSyA1234567890abcdefghijklmnopqrstu',
  'gAAAAABlZ2FhYWFhYWFhYWFhYWFhYWFhYWFh',
  'AKIAIOSFODNN7EXAMPLE',
  'SG.abcdefghij.klmnopqrstuv',
  'dop_v1_abcdefghij12',
  'am_org_abcdefghijklmnopqrstuvwx',
  'glpat-abcdefghij1234567890',
  'OPENAI_API_KEY=sk-proj-abcdefghijklmnop',
  `DB_PASSWORD${'_X'.repeat(24)} = 'hunter2'`,
  'API_KEY\u2028=\u3000value',
  '"Secret_Value" :\u00a0"v"',
  'PROXY-AUTHORIZATION: Basic dXNlcjpwYXNz',
  'Bearer abcdefgh12345678',
  'bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----',
  'MongoDB+SRV://u:p@cluster',
  'https://user:pass@example.com/x',
  'git://abcdefghij@host/repo',
  '?Key=abc',
  '&X-Amz-Signature=deadbeef',
  'eyJhbGciOiJIUzI1NiJ9',
];

const NEAR_MISSES = [
  'task_id',
  'ask-me',
  'sk',
  'my_sk_value',
  'xsk-abc',
  'gAAA',
  'AIz',
  'SG',
  'xSG.',
  'ey',
  'J',
  'bearer',
  'KEY',
  'key=value',
  'Token = abc',
  '"token"',
  '"tokens": "x"',
  'authorization',
  '1234567:abc',
  'https://example.com/a?b=c',
  'http://host @x',
  'PRIVATE KEY',
  ':',
  '=',
  '_',
  '-',
  ' ',
  '\n',
  '\u2028',
  'ſ',
  '\u212a',
  'café —',
  '😀',
];

const text = fc
  .array(fc.oneof(fc.constantFrom(...SECRETS, ...NEAR_MISSES), fc.string({ maxLength: 6 })), {
    maxLength: 12,
  })
  .map((parts) => parts.join(''));

describe('couldContainSecret', () => {
  it('says yes to every text a redaction pattern matches', () => {
    fc.assert(
      fc.property(text, (sample) => {
        if (anyPatternMatches(sample)) expect(couldContainSecret(sample)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('says yes to each kind of secret, anywhere in a text', () => {
    for (const secret of SECRETS) {
      expect(anyPatternMatches(secret)).toBe(true);
      for (const sample of [secret, `see ${secret}.`, `{"a": "${secret}"}\n`])
        expect(couldContainSecret(sample)).toBe(true);
    }
  });

  it('says no to text no pattern can match, near misses included', () => {
    for (const sample of [
      ...NEAR_MISSES,
      NEAR_MISSES.join(' '),
      '{"path": "src/core/a_b-c.ts", "line": 12, "old_string": "x = y"}',
      'Running the tests to see the current state.',
      'def task_key(self): return self.cache_key == other.status_code',
    ]) {
      expect(anyPatternMatches(sample)).toBe(false);
      expect(couldContainSecret(sample)).toBe(false);
    }
  });

  it('agrees with the reference on every text of a spiced agent transcript', () => {
    const { messages } = spicedAgentTranscript({ messageCount: 1500, seed: 31 });
    let secrets = 0;
    let skipped = 0;
    for (const message of messages) {
      const texts = [
        typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''),
        ...(message.tool_calls ?? []).map((call) => call.function.arguments),
      ];
      for (const sample of texts) {
        const matches = anyPatternMatches(sample);
        if (matches) secrets++;
        if (!couldContainSecret(sample)) skipped++;
        if (matches) expect(couldContainSecret(sample)).toBe(true);
      }
    }
    expect(secrets).toBeGreaterThan(20);
    // Most tool output is skipped without running a pass.
    expect(skipped).toBeGreaterThan(1000);
  });
});

describe('screenTexts', () => {
  const texts = fc.array(fc.oneof(text, fc.constant(''), fc.constantFrom(...SECRETS)), { maxLength: 40 });

  it('flags every text couldContainSecret flags on its own (it may flag more, never less)', () => {
    fc.assert(
      fc.property(texts, (samples) => {
        const flags = screenTexts(samples);
        expect(flags).toHaveLength(samples.length);
        samples.forEach((sample, index) => {
          if (couldContainSecret(sample)) expect(flags[index], JSON.stringify(sample)).toBe(1);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('flags exactly the texts with a secret when no anchor reaches across a text boundary', () => {
    const samples = ['plain text', SECRETS[0]!, 'x = y', '', SECRETS[5]!, 'done.'];
    expect(Array.from(screenTexts(samples))).toEqual([0, 1, 0, 0, 1, 0]);
  });

  /**
   * Texts are screened in WebAssembly, where each anchor passes byte conditions before the regex
   * checks it at its UTF-16 index: built from the pieces those conditions read (stems with and
   * without a key character before, names and whitespace before `=` and `:`, quotes, digits,
   * `//` and `@`, both cases, multi-byte characters), so a condition stricter than its
   * alternative, or an index off by a character, shows as a missed flag.
   */
  const ANCHOR_PIECES = [
    ...['ghp', 'gho', 'ghu', 'ghs', 'ghr', 'github', 'fal', 'bb', 'sk', 'rk', 'hf', 'r8', 'npm'],
    ...['dop', 'doo', 'am', 'exa', 'gsk', 'syt', 'xapp', 'pplx', 'fc', 'pypi', 'tvly', 'xai'],
    ...['glpat', 'xoxb', 'xoxs', 'PRIVATE KEY', 'KEY', 'TOKEN', 'SECRET', 'PASSWD', 'AUTH', 'X1'],
    ...['_', '-', '=', ':', ' ', '\t', '\n', '\v', '\f', '\r', '"', "'", '?', '&', '/', '//', '@'],
    ...['token', 'Api_Key', 'apikey', 'client_secret', 'x-amz-signature', 'SIG', 'code', 'jwt'],
    ...['key_material', 'secret_value', 'Authorization', 'AUTHORIZATION', 'on', '1234', '5678'],
    ...['A', 'Iza', 'KIA', 'AAA', 'g', 'S', 'G.', 'B', 'earer', 'e', 'y', 'J', 'x', '9', '.'],
    // Whole names the module compares (query parameters, JSON fields, secret name words).
    ...['access_token', 'Refresh_Token', 'id_token', 'Password', 'session', 'x-goog-signature'],
    ...['signature', 'raw_secret', 'secret_input', 'auth_token', 'Bearer', 'api_key', 'PASSWORD'],
    ...['CREDENTIAL', 'tokens', 'ken', 'https', 'http', '\u0000', 'u@h'],
    // Multi-byte in UTF-8: the module reports UTF-16 indices past them.
    ...['é', '—', '😀', '\ud800', 'ſ', '\u212a', '\u00a0', '\u3000', '\u2028'],
  ];
  /** Every character of JavaScript's `\s`, and two that are not (U+0085, U+180E). */
  const WHITESPACE = [
    ...[' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a'],
    ...['\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u0085', '\u180e'],
  ];
  /** A name or quoted field, any run of `\s`, then `=` or `:`: the conditions that skip whitespace. */
  const assignment = fc
    .tuple(
      fc.constantFrom(
        'API_KEY',
        'MY_TOKEN_2',
        'AB',
        'x',
        '"token"',
        '"Secret_Value"',
        '"name"',
        '?code',
        '&sig',
      ),
      fc.string({ unit: fc.constantFrom(...WHITESPACE), maxLength: 3 }),
      fc.constantFrom('=', ':'),
    )
    .map((parts) => parts.join(''));
  const anchorText = fc
    .array(
      fc.oneof(
        fc.constantFrom(...ANCHOR_PIECES),
        assignment,
        fc.string({ unit: 'binary-ascii', maxLength: 4 }),
        fc.string({ unit: 'binary', maxLength: 2 }),
      ),
      { maxLength: 16 },
    )
    .map((parts) => parts.join(''));

  it('flags a text exactly when couldContainSecret flags it on its own (WebAssembly)', () => {
    loadSecretScan();
    fc.assert(
      fc.property(fc.array(anchorText, { maxLength: 30 }), (samples) => {
        const flags = screenTexts(samples);
        samples.forEach((sample, index) =>
          expect(flags[index], JSON.stringify(sample)).toBe(couldContainSecret(sample) ? 1 : 0),
        );
      }),
      { numRuns: RUNS, seed: 23 },
    );
  });

  it('gives each flagged text the patterns possibleSecretPatterns finds in it alone, on either path', async () => {
    loadSecretScan();
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    try {
      const byRegex = await import('#core/compression/could-contain-secret.ts');
      const pieces = fc.array(fc.oneof(anchorText, fc.constantFrom(...SECRETS)), { maxLength: 4 });
      const sample = pieces.map((parts) => parts.join(' '));
      fc.assert(
        fc.property(fc.array(sample, { maxLength: 30 }), (samples) => {
          const inModule = createSecretFindings(samples.length).patterns;
          const flags = screenTexts(samples, { patterns: inModule, assignments: [] });
          const inRegex = createSecretFindings(samples.length).patterns;
          byRegex.screenTexts(samples, { patterns: inRegex, assignments: [] });
          samples.forEach((text, index) => {
            const alone = byRegex.possibleSecretPatterns(text);
            expect(inModule[index], JSON.stringify(text)).toBe(flags[index] === 1 ? alone : 0);
            expect(inRegex[index], JSON.stringify(text)).toBe(byRegex.couldContainSecret(text) ? alone : 0);
          });
        }),
        { numRuns: RUNS, seed: 29 },
      );
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });

  it('lists, per flagged text, the `=` of every place a secret assignment could end, on either path', async () => {
    // Spelled here from the assignment pass's own condition, loosened as the screen's is (any
    // name word ending in KEY): the `=` after a secret name word, name characters and `\s*`.
    const assignmentEquals = /=(?<=(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)[A-Z0-9_]{0,50}\s*=)/g;
    const expected = (text: string): number[] | undefined => {
      const found = [...text.matchAll(assignmentEquals)].map((match) => match.index);
      return found.length > 0 ? found : undefined;
    };
    loadSecretScan();
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    try {
      const byRegex = await import('#core/compression/could-contain-secret.ts');
      const assignment = fc.constantFrom('API_KEY', 'MY_TOKEN', 'KEY', 'SECRET_X1', 'PASSWD', 'AUTH');
      const spacing = fc.constantFrom('', ' ', '\u3000', '\n');
      const assignmentText = fc
        .tuple(assignment, spacing, spacing, anchorText)
        .map(([name, before, after, rest]) => `${name}${before}=${after}${rest}`);
      const pieces = fc.array(fc.oneof(anchorText, assignmentText, fc.constantFrom(...SECRETS)), {
        maxLength: 4,
      });
      const sample = pieces.map((parts) => parts.join(' '));
      fc.assert(
        fc.property(fc.array(sample, { maxLength: 30 }), (samples) => {
          const inModule = createSecretFindings(samples.length).assignments;
          const flags = screenTexts(samples, {
            patterns: new Uint16Array(samples.length),
            assignments: inModule,
          });
          // A sparse list is filled the same.
          const inRegex: (number[] | undefined)[] = [];
          byRegex.screenTexts(samples, { patterns: new Uint16Array(samples.length), assignments: inRegex });
          samples.forEach((text, index) => {
            expect(inModule[index], JSON.stringify(text)).toEqual(
              flags[index] === 1 ? expected(text) : undefined,
            );
            expect(inRegex[index], JSON.stringify(text)).toEqual(
              byRegex.couldContainSecret(text) ? expected(text) : undefined,
            );
          });
        }),
        { numRuns: RUNS, seed: 31 },
      );
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });

  it('screens by the regex alone where WebAssembly is unavailable (a page whose CSP forbids it)', async () => {
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    try {
      const fresh = await import('#core/compression/could-contain-secret.ts');
      const samples = ['plain text', SECRETS[0]!, 'x = y', '', SECRETS[5]!, 'caf\u00e9 \u2014 done.'];
      expect(Array.from(fresh.screenTexts(samples))).toEqual([0, 1, 0, 0, 1, 0]);
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });

  it('scans long texts in WebAssembly from the first screen of them on, short texts by the regex', async () => {
    vi.resetModules();
    try {
      const fresh = await import('#core/compression/could-contain-secret.ts');
      // Joined with a newline, `API_KEY` reaches the next text's `=` (`\s*` takes the newline):
      // the regex flags that text; the module, scanning each text alone, does not. Short texts
      // stay with the regex, before and after the module is loaded: a call into the module per
      // text costs more than it saves.
      expect(Array.from(fresh.screenTexts(['API_KEY', '= x']))).toEqual([0, 1]);
      const reaching = [`${'plain words '.repeat(30)}API_KEY`, `= x ${'plain words '.repeat(30)}`];
      expect(Array.from(fresh.screenTexts(reaching))).toEqual([0, 0]);
      expect(Array.from(fresh.screenTexts(['API_KEY', '= x']))).toEqual([0, 1]);
    } finally {
      vi.resetModules();
    }
  });

  it('looks past any byte but ASCII whitespace for the `@` of URL credentials, 512 bytes at most', () => {
    loadSecretScan();
    const samples = [
      'https://u\u0000ser:pw@host',
      'https://u\u00a0ser@host',
      'https://us\u00e9r@host',
      'http://a b@c',
      `x://${'a'.repeat(600)}@`,
      `x://${'a'.repeat(600)} @`,
      'x://a',
      'x://',
    ];
    expect(Array.from(screenTexts(samples))).toEqual(
      samples.map((sample) => (couldContainSecret(sample) ? 1 : 0)),
    );
    expect(Array.from(screenTexts(samples))).toEqual([1, 0, 1, 0, 1, 0, 0, 0]);
  });

  it('checks every candidate of a text with more of them than one call returns', () => {
    loadSecretScan();
    // `"children":` passes the WebAssembly conditions of a JSON field and fails the regex.
    const crowded = '{"children": 1}, '.repeat(40_000);
    // Multi-byte characters before each: the index after a resumed call must still be exact.
    const wide = '{"children": "é😀"}, '.repeat(40_000);
    const samples = [crowded, `${crowded}"token": "abc"`, 'plain', wide, `${wide}"token": "abc"`];
    expect(Array.from(screenTexts(samples))).toEqual([0, 1, 0, 0, 1]);
  });

  it('screens thousands of texts, and a text longer than the WebAssembly area by the regex', () => {
    loadSecretScan();
    const samples = Array.from({ length: 3_000 }, (_, index) =>
      index % 500 === 499 ? `${'word '.repeat(100)}${SECRETS[index % SECRETS.length]!}` : 'word '.repeat(100),
    );
    samples.push(`${'a '.repeat(600_000)}${SECRETS[1]!}`, `${'a '.repeat(600_000)}`);
    const flags = screenTexts(samples);
    samples.forEach((sample, index) => expect(flags[index]).toBe(couldContainSecret(sample) ? 1 : 0));
    expect(flags.reduce((sum, flag) => sum + flag, 0)).toBe(7);
  });

  it('screens texts spread over several pieces, and a text longer than a piece on its own', () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(2000);
    const samples: string[] = [];
    for (let index = 0; index < 40; index++)
      samples.push(index % 7 === 3 ? `${filler}${SECRETS[index % SECRETS.length]!}` : filler);
    samples.push(`${'a '.repeat(300_000)}${SECRETS[1]!}`);
    const flags = screenTexts(samples);
    samples.forEach((sample, index) => expect(flags[index]).toBe(couldContainSecret(sample) ? 1 : 0));
    expect(flags.reduce((sum, flag) => sum + flag, 0)).toBe(7);
  });
});

describe('possibleSecretPatterns', () => {
  it('names the same patterns in WebAssembly as the regex alone does', async () => {
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    let regexOnly: typeof possibleSecretPatterns;
    try {
      regexOnly = (await import('#core/compression/could-contain-secret.ts')).possibleSecretPatterns;
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
    loadSecretScan();
    const sample = fc.oneof(
      text,
      fc
        .array(fc.oneof(fc.constantFrom(...SECRETS, ...NEAR_MISSES), fc.string({ maxLength: 3 })), {
          maxLength: 30,
        })
        .map((parts) => parts.join(' ')),
    );
    fc.assert(
      fc.property(sample, (value) => {
        expect(possibleSecretPatterns(value), JSON.stringify(value)).toBe(regexOnly(value));
      }),
      { numRuns: RUNS, seed: 29 },
    );
    for (const secret of SECRETS) expect(possibleSecretPatterns(secret)).not.toBe(0);
    // Candidates of the module's byte conditions that the regex turns down name no pattern.
    for (const nearMiss of ['Beat it', 'xAIzaSyA1234567890', 'xAKIAIOSFODNN7', 'xgAAAAAB', 'xSG.a', 'al_x'])
      expect(possibleSecretPatterns(nearMiss), nearMiss).toBe(0);
  });
});
