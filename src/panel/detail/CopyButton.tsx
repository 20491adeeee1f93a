import { useState } from 'preact/hooks';
import { useLens } from '../app/lens-context';

/** Copies `text` through the adapter and says whether it worked. */
export function CopyButton({ label, text, testId }: { label: string; text: () => string; testId?: string }) {
  const lens = useLens();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () => {
    lens.adapter.copy(text()).then(() => setState('copied'), () => setState('failed'));
  };
  return (
    <button type="button" class="copy" data-testid={testId} onClick={copy}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </button>
  );
}
