import { describe, expect, it } from 'vitest';
import {
  describeCompressCommandError,
  manualCompressRefusal,
  parseCompressCommand,
} from '#core/loop/parse-compress-command.ts';

describe('parseCompressCommand', () => {
  it('is null for anything that is not the command', () => {
    expect(parseCompressCommand('hello')).toBeNull();
    expect(parseCompressCommand('/compressed thoughts')).toBeNull();
    expect(parseCompressCommand('please /compress')).toBeNull();
  });

  it('reads a plain /compress and a focus topic', () => {
    expect(parseCompressCommand('/compress')).toEqual({
      ok: true,
      value: { focusTopic: null, keepExchanges: null, preview: false },
    });
    expect(parseCompressCommand('  /compress   API   endpoints ')).toEqual({
      ok: true,
      value: { focusTopic: 'API endpoints', keepExchanges: null, preview: false },
    });
  });

  it('reads /compress here with and without a count', () => {
    expect(parseCompressCommand('/compress here')).toMatchObject({ ok: true, value: { keepExchanges: 2 } });
    expect(parseCompressCommand('/compress here 5')).toMatchObject({ ok: true, value: { keepExchanges: 5 } });
    expect(parseCompressCommand('/compress here zero')).toEqual({
      ok: false,
      error: { type: 'InvalidExchangeCount', value: 'zero' },
    });
    expect(parseCompressCommand('/compress here 0')).toMatchObject({ ok: false });
  });

  it('treats "here" followed by more words as a focus topic', () => {
    expect(parseCompressCommand('/compress here and there things')).toMatchObject({
      ok: true,
      value: { focusTopic: 'here and there things', keepExchanges: null },
    });
  });

  it('takes --preview / --dry-run and rejects --aggressive', () => {
    expect(parseCompressCommand('/compress --dry-run auth')).toEqual({
      ok: true,
      value: { focusTopic: 'auth', keepExchanges: null, preview: true },
    });
    const aggressive = parseCompressCommand('/compress --aggressive');
    expect(aggressive).toEqual({ ok: false, error: { type: 'AggressiveNotSupported' } });
    expect(describeCompressCommandError({ type: 'AggressiveNotSupported' })).toContain('not supported');
  });
});

describe('manualCompressRefusal', () => {
  it('needs at least four messages, as Hermes does', () => {
    expect(manualCompressRefusal(3)).toMatch(/3 messages; at least 4/);
    expect(manualCompressRefusal(1)).toMatch(/1 message;/);
    expect(manualCompressRefusal(4)).toBeNull();
  });
});
