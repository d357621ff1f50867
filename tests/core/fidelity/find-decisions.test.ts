import { describe, expect, it } from 'vitest';
import { findDecisions } from '#core/fidelity/find-decisions.ts';
import { shown, testCollector } from './fact-sink.ts';

describe('findDecisions', () => {
  it('takes each sentence that carries a decision marker, as written', () => {
    const sink = testCollector();
    findDecisions(
      'Found the cause. I’ll switch the cache to a 1h TTL. The tests pass.\n- **We decided to** drop Python 3.8 support.\nLet’s go with Redis for sessions!',
      sink,
    );
    expect(shown(sink.facts())).toEqual([
      'decision: I’ll switch the cache to a 1h TTL',
      'decision: **We decided to** drop Python 3.8 support',
      'decision: Let’s go with Redis for sessions',
    ]);
  });

  it('finds nothing in prose without a marker', () => {
    const sink = testCollector();
    findDecisions('Let me check the logs. The server returned 500.', sink);
    expect(sink.facts()).toEqual([]);
  });
});
