import { describe, expect, it } from 'vitest';
import { shellCommandText } from '#core/fidelity/shell-command-text.ts';

describe('shellCommandText', () => {
  it('reads a Codex argument vector as its script, without a leading cd', () => {
    expect(shellCommandText(['bash', '-lc', 'cd /repo && npm test -- --run'])).toBe('npm test -- --run');
    expect(shellCommandText(['/bin/zsh', '-c', 'git status'])).toBe('git status');
  });

  it('joins other argument vectors with spaces', () => {
    expect(shellCommandText(['ls', '-la', 'src'])).toBe('ls -la src');
  });

  it('keeps the first line of a long script and collapses whitespace', () => {
    expect(shellCommandText("cat > src/app/main.py <<'EOF'\nprint('hi')\nEOF")).toBe(
      "cat > src/app/main.py <<'EOF'",
    );
    expect(shellCommandText('npm   run\tbuild')).toBe('npm run build');
  });

  it('runs a first line too short to say anything on into the next lines', () => {
    expect(shellCommandText('python -c "\nimport sys\nprint(sys.path)"')).toBe(
      'python -c " import sys print(sys.path)"',
    );
  });

  it('is null for an empty command and reads only the start of a huge one', () => {
    expect(shellCommandText('   \n  ')).toBeNull();
    expect(shellCommandText(`echo ${'x'.repeat(10_000_000)}`)?.length).toBeLessThanOrEqual(160);
  });
});
