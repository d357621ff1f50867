// @vitest-environment jsdom
import { render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import PlanExplanation from '#ui/plan/PlanExplanation.svelte';
import { demoPlan } from '../map/lab-plan-fixture.ts';

describe('PlanExplanation', () => {
  it('says whether compaction fires and lists the tail-cut steps in words', () => {
    // The demo's rough estimate (~93K) is over a 150K window's 75K threshold.
    const plan = demoPlan({ contextLength: 150_000 });
    const { getByTestId } = render(PlanExplanation, { props: { plan } });
    expect(getByTestId('plan-verdict').textContent?.trim()).toBe('Compaction would fire now.');
    expect(getByTestId('plan-verdict').dataset.reason).toBe('ready');
    const steps = [...getByTestId('tail-cut-steps').querySelectorAll('li')].map((item) => item.textContent);
    expect(steps).toHaveLength(plan.hermes!.tailCutSteps.length);
    expect(steps[0]).toMatch(
      /^Budget walk: walking back from the newest message, the tail took \d+ messages/,
    );
    expect(getByTestId('plan-explanation').textContent).toContain(
      'Session hygiene (85% of the window = 127,500)',
    );
  });

  it('explains why it would not fire below the threshold', () => {
    const plan = demoPlan({ contextLength: 1_000_000 });
    const { getByTestId } = render(PlanExplanation, { props: { plan } });
    expect(getByTestId('plan-verdict').dataset.reason).toBe('below-threshold');
    expect(getByTestId('plan-explanation').textContent).toContain('more tokens before it fires');
  });
});
