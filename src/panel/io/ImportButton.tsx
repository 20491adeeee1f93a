import { useRef } from 'preact/hooks';
import { useLens } from '../app/lens-context';
import { importFile } from './import-file';

/** "Import HAR…": a real button (keyboard first) that opens the hidden file input. */
export function ImportButton({ label = 'Import HAR…', testId = 'import-har' }: { label?: string; testId?: string }) {
  const lens = useLens();
  const input = useRef<HTMLInputElement>(null);
  const onChange = () => {
    const file = input.current?.files?.[0];
    if (file) void importFile(lens.workspace, file).finally(() => input.current && (input.current.value = ''));
  };
  return (
    <>
      <button type="button" data-testid={testId} onClick={() => input.current?.click()}>
        {label}
      </button>
      <input ref={input} type="file" accept=".har,.json,application/json" hidden data-testid={`${testId}-input`} onChange={onChange} />
    </>
  );
}
