import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { Fact, FactKind } from '#core/fidelity/fact.ts';
import { findSurvivingFacts, survivalText } from '#core/fidelity/find-surviving-facts.ts';
import { normalizeMatchText } from '#core/fidelity/normalize-match-text.ts';

const fact = (kind: FactKind, display: string, text = normalizeMatchText(display)): Fact => ({
  kind,
  text,
  display,
  messageIndex: 0,
  count: 1,
});

const survives = (subject: Fact, ...visible: string[]): boolean => findSurvivingFacts([subject], visible)[0]!;

describe('findSurvivingFacts', () => {
  it('finds a fact whatever its case and whitespace', () => {
    expect(survives(fact('error', "KeyError: 'email'"), "Errors seen: keyerror:   'EMAIL' in signup")).toBe(
      true,
    );
    expect(survives(fact('ask', 'fix the login test'), 'User asked to Fix the\nlogin test.')).toBe(true);
  });

  it('finds whole words only', () => {
    expect(survives(fact('error', 'Error: boom'), 'KeyError: boom')).toBe(false);
    expect(survives(fact('path', 'app/main.py'), 'edited myapp/main.py')).toBe(false);
    expect(survives(fact('identifier', 'get_user', 'get_user'), 'get_user_by_id was added')).toBe(false);
    expect(survives(fact('identifier', 'get_user', 'get_user'), 'calls get_user(id).')).toBe(true);
  });

  it('keeps a path by its last two segments, in either direction', () => {
    const absolute = fact('path', '/Users/dain/proj/test/test_cache.py');
    expect(survivalText(absolute)).toBe('test/test_cache.py');
    expect(survives(absolute, 'Fixed test/test_cache.py:203')).toBe(true);
    expect(survives(absolute, 'Fixed test_cache.py')).toBe(false);
    expect(survives(fact('path', 'src/app.ts'), 'read /repo/src/app.ts')).toBe(true);
    expect(survives(fact('path', 'README.md'), 'see docs/README.md')).toBe(true);
  });

  it('reads JSON escapes and Windows backslashes through', () => {
    expect(survives(fact('error', 'KeyError: "id"'), '{"output": "x\\nKeyError: \\"id\\"\\n"}')).toBe(true);
    expect(survives(fact('path', 'src/app.ts'), 'C:\\repo\\src\\app.ts')).toBe(true);
    expect(survives(fact('command', 'npm test'), '{"cmd": "echo\\nnpm test"}')).toBe(true);
  });

  it('never matches across two pieces of visible text', () => {
    expect(survives(fact('ask', 'fix the tests'), 'please fix', 'the tests')).toBe(false);
  });

  it('finds facts anchored on CJK characters and facts of punctuation alone', () => {
    expect(survives(fact('ask', '修复登录错误'), '用户要求：修复登录错误。')).toBe(true);
    expect(survives(fact('ask', '修复登录错误'), '修复注册错误')).toBe(false);
    expect(survives(fact('ask', '🙏🙏'), 'the user said 🙏🙏 twice')).toBe(true);
    expect(survives(fact('ask', '🙏🙏'), 'the user said 🙏 once')).toBe(false);
    expect(survives(fact('command', '../..', '../..'), 'cd ../.. first')).toBe(true);
    expect(survives(fact('command', '../..', '../..'), 'cd .. first')).toBe(false);
  });

  it('answers for many facts in one pass, in the order given', () => {
    const facts = [
      fact('path', 'a/b.py'),
      fact('command', 'git status'),
      fact('url', 'example.com/x', 'example.com/x'),
    ];
    expect(findSurvivingFacts(facts, ['ran git status', 'opened https://example.com/x/'])).toEqual([
      false,
      true,
      true,
    ]);
  });
});

describe('findSurvivingFacts with and without the WebAssembly word scanner', () => {
  it('agrees on long texts mixing ASCII runs with characters outside it', async () => {
    const words = ['fix', 'Login', 'test_api', 'app/main.py', 'KeyError:', 'npm test', '修复', '🙏', 'café'];
    const glue = [' ', '\n', '\\n', '\\"', '\\', ' — ', '🙂', 'é', '.', ': ', '/'];
    const text = fc
      .array(
        fc.oneof(fc.constantFrom(...words), fc.constantFrom(...glue), fc.constant('filler '.repeat(40))),
        {
          minLength: 10,
          maxLength: 60,
        },
      )
      .map((parts) => parts.join(''));
    const facts = fc.uniqueArray(
      fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(' ')),
      { minLength: 1, maxLength: 8 },
    );
    // This module's scanner is loaded now, with WebAssembly; a fresh copy is loaded without it.
    expect(findSurvivingFacts([fact('ask', 'x')], [`x ${'filler '.repeat(40)}`])).toEqual([true]);
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    try {
      const byCharacters = (await import('#core/fidelity/find-surviving-facts.ts')).findSurvivingFacts;
      fc.assert(
        fc.property(facts, fc.array(text, { minLength: 1, maxLength: 3 }), (displays, visible) => {
          const subjects = displays.map((display) => fact('ask', display));
          expect(findSurvivingFacts(subjects, visible)).toEqual(byCharacters(subjects, visible));
        }),
        { numRuns: Number(process.env.PROPERTY_RUNS ?? 1000), seed: 53 },
      );
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});
