import { signal } from '@preact/signals';
import type { MarkRef } from '../timeline/navigation';

/**
 * Which session, stream and event the user is looking at. A stream can be chosen without an
 * event: a resume that was answered with none, or a finding about the stream as a whole.
 */
export function createSelection() {
  const session = signal<string | null>(null);
  const mark = signal<MarkRef | null>(null);
  const stream = signal<number | null>(null);
  return {
    session,
    mark,
    /** The stream shown in the detail: the selected event's, or one chosen on its own. */
    stream,
    selectSession(key: string): void {
      if (session.value === key) return;
      session.value = key;
      mark.value = null;
      stream.value = null;
    },
    selectMark(ref: MarkRef | null): void {
      const now = mark.value;
      if (now && ref && now.stream === ref.stream && now.event === ref.event) return;
      mark.value = ref;
      stream.value = ref?.stream ?? null;
    },
    /** Shows a stream as a whole: its request, response and how it ended. */
    selectStream(index: number | null): void {
      mark.value = null;
      stream.value = index;
    },
    clear(): void {
      mark.value = null;
      stream.value = null;
    },
  };
}

export type Selection = ReturnType<typeof createSelection>;
