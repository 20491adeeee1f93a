import { signal } from '@preact/signals';
import type { MarkRef } from '../timeline/navigation';

/** Which session and which event the user is looking at. */
export function createSelection() {
  const session = signal<string | null>(null);
  const mark = signal<MarkRef | null>(null);
  return {
    session,
    mark,
    selectSession(key: string): void {
      if (session.value === key) return;
      session.value = key;
      mark.value = null;
    },
    selectMark(ref: MarkRef | null): void {
      const now = mark.value;
      if (now && ref && now.stream === ref.stream && now.event === ref.event) return;
      mark.value = ref;
    },
  };
}

export type Selection = ReturnType<typeof createSelection>;
