import { describe, expect, it } from 'vitest';
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
