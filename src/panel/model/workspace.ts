import { computed, signal } from '@preact/signals';
import { readHar, type AnalysisOptions } from '../../core/index';
import { plural } from '../text/plural';
import type { CaptureSource } from './capture-source';
import { createImportedSource } from './imported-source';

/** Imported files kept at once; importing another drops the oldest (and says so). */
export const MAX_IMPORTS = 8;

export interface Notice {
  kind: 'error' | 'info';
  text: string;
}

/** An import under way: bytes read of the file's size, and how to stop it. */
export interface ImportProgress {
  name: string;
  read: number;
  total: number;
  cancel(): void;
}

/** A capture shown while its file is still read (see `Workspace.beginImport`). */
export interface ImportUnderWay<S extends CaptureSource> {
  source: S;
  show(): void;
  withdraw(): void;
}

/** What reading a file gave, for the notice that says it was imported. */
export interface ImportSummary {
  /** Entries read into exchanges. */
  exchanges: number;
  skippedEntries: number;
  problems: readonly string[];
}

/**
 * The captures the panel holds (the live one first, then imports) and which one is shown. An
 * import that fails leaves both untouched and explains why in `notice`.
 */
export function createWorkspace(live: CaptureSource, options: () => AnalysisOptions) {
  const sources = signal<readonly CaptureSource[]>([live]);
  const activeId = signal(live.id);
  const active = computed(() => sources.value.find((s) => s.id === activeId.value) ?? live);
  const notice = signal<Notice | null>(null);
  const importing = signal<ImportProgress | null>(null);
  let imported = 0;
  let droppedImports = 0;

  const fail = (name: string, reason: string): false => {
    notice.value = { kind: 'error', text: `Could not import ${name}: ${reason}. The current capture is unchanged.` };
    return false;
  };

  return {
    sources,
    activeId,
    active,
    notice,
    importing,
    /** The analysis options an import should use now. */
    options,
    activate(id: string): void {
      if (sources.value.some((s) => s.id === id)) activeId.value = id;
    },
    /** Imports HAR text, analysed here and now; true when it became the shown capture. */
    importHar(name: string, text: string): boolean {
      const result = readHar(text);
      if (!result.ok) return fail(name, result.reason);
      const source = createImportedSource(`import-${++imported}`, name, result.exchanges, options());
      return this.finishImport(name, { ...result, exchanges: result.exchanges.length }, { source, show: () => undefined, withdraw: () => undefined });
    },
    /**
     * A capture for a file still being read and analysed (`make` builds it under its id): shown
     * as soon as `show()` is called, so its first sessions are on screen while the rest is read;
     * {@link finishImport} with it keeps it, `withdraw()` takes it back.
     */
    beginImport<S extends CaptureSource>(make: (id: string) => S): ImportUnderWay<S> {
      const source = make(`import-${++imported}`);
      let before: string | undefined;
      return {
        source,
        show: () => {
          // Once shown, or once kept by finishImport: shown again, it would be listed twice.
          if (before !== undefined || sources.value.includes(source)) return;
          before = activeId.value;
          sources.value = [...sources.value, source];
          activeId.value = source.id;
        },
        withdraw: () => {
          sources.value = sources.value.filter((s) => s !== source);
          if (activeId.value === source.id) activeId.value = sources.value.some((s) => s.id === before) ? before! : live.id;
        },
      };
    },
    /**
     * Keeps an import whose file is read and analysed (its report is the file's whole) as the
     * shown capture, and says what it holds; true when it became the shown capture.
     */
    finishImport(name: string, summary: ImportSummary, shown: ImportUnderWay<CaptureSource>): boolean {
      const { source } = shown;
      const report = source.report.value;
      if (!report || report.sessions.length === 0) {
        shown.withdraw();
        return fail(name, `none of its ${summary.exchanges} entries is MCP traffic (no Mcp-Session-Id, MCP headers or JSON-RPC bodies)`);
      }
      let kept = sources.value.filter((s) => s.kind === 'imported' && s !== source);
      if (kept.length >= MAX_IMPORTS) {
        droppedImports += kept.length - MAX_IMPORTS + 1;
        kept = kept.slice(kept.length - MAX_IMPORTS + 1);
      }
      sources.value = [live, ...kept, source];
      activeId.value = source.id;
      const skipped = summary.skippedEntries > 0 ? `; ${plural(summary.skippedEntries, 'unreadable entry', 'unreadable entries')} skipped` : '';
      const problems = summary.problems.length > 0 ? ` (${summary.problems[0]}${summary.problems.length > 1 ? ', …' : ''})` : '';
      const dropped = droppedImports > 0 ? `; ${plural(droppedImports, 'older import')} closed to stay under ${MAX_IMPORTS}` : '';
      notice.value = {
        kind: 'info',
        text: `Imported ${name}: ${plural(report.summary.sessions, 'session')}, ${plural(report.summary.streams, 'stream')}, ${plural(report.summary.events, 'event')}${skipped}${problems}${dropped}.`,
      };
      return true;
    },
    refuse(name: string, reason: string): void {
      fail(name, reason);
    },
    close(id: string): void {
      if (id === live.id) return;
      // A file still being read is read no further, or it would come back when its read is done.
      sources.value.find((s) => s.id === id)?.cancel?.();
      sources.value = sources.value.filter((s) => s.id !== id);
      if (activeId.value === id) activeId.value = live.id;
    },
    reanalyse(next: AnalysisOptions): void {
      for (const s of sources.value) s.reanalyse(next);
    },
    dismissNotice(): void {
      notice.value = null;
    },
  };
}

export type Workspace = ReturnType<typeof createWorkspace>;
