import { describe, expect, it } from 'vitest';
import { describeSource } from '#ui/top/describe-source.ts';

describe('describeSource', () => {
  it('calls a stored chat conversation a chat session, never an import', () => {
    expect(describeSource('session', 'chat', { format: 'internal' })).toEqual({
      what: 'stored chat session',
      modelVerb: 'with',
    });
  });

  it('calls the live chat a live chat session, with the model it talks to', () => {
    expect(describeSource('chat', 'chat', { format: 'internal' })).toEqual({
      what: 'live chat session',
      modelVerb: 'with',
    });
  });

  it('names the format of an imported file, fresh or stored', () => {
    expect(describeSource('import', null, { format: 'claude-code' }).what).toBe(
      'imported · Claude Code JSONL',
    );
    expect(describeSource('session', 'import', { format: 'claude-code' }).what).toBe(
      'stored import · Claude Code JSONL',
    );
  });

  it('says what the demo and replay results are', () => {
    expect(describeSource('demo', null, { format: 'internal' }).what).toBe('built-in demo');
    expect(describeSource('replay', null, { format: 'internal' }).what).toBe('replay result');
    expect(describeSource('replay', 'replay', { format: 'internal' }).what).toBe('stored replay result');
    expect(describeSource('session', 'replay', { format: 'internal' }).what).toBe('stored replay result');
    expect(describeSource('session', null, { format: 'internal' }).what).toBe('stored session');
  });
});
