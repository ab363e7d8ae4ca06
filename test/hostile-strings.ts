/** Strings an agent or a file may write to be obeyed by whoever reads an output: test/output-escapes.test.ts and test/fuzz-inputs.test.ts feed them to every output. */
export const HOSTILE = [
  '\n::error file=README.md,line=1::INJECTED',
  '::add-mask::secret',
  '\r::warning::carriage',
  'esc \u001b[2K\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007',
  'nul \u0000 del \u007f csi \u009b2J',
  'bidi \u202Eexe.txt\u202C',
  'line\u2028separator\u2029paragraph',
  'zero\u200Bwidth',
  '[Fix: click here](https://evil.example/fix)',
  'a`**ALL 5 CASES PASSED**`![x](https://evil.example/x.png)',
  '<img src=x onerror=alert(1)>&amp;',
  '| a | b |',
  '%0A::error::percent',
  '```',
] as const;
