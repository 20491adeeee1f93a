import { computed, effect, signal } from '@preact/signals';
import type { SessionReport } from '../../core/index';
import { createCaptureStore } from '../capture-store';
import type { LensAdapter } from '../host/lens-adapter';
import { createFilters, matcherOf } from '../model/filters';
import { createLiveSource } from '../model/live-source';
import { requestIdKeys } from '../model/request-ids';
import { createSelection } from '../model/selection';
import { createSettingsStore } from '../model/settings-store';
import { createWorkspace } from '../model/workspace';
import { timeOfMark } from '../timeline/navigation';
import { sessionMarks } from '../timeline/session-marks';
import { createTimelineStore } from '../timeline/timeline-store';
import { shortId } from '../text/visible';

/**
 * The whole panel's state, built from its adapter: the capture, imports, selection, filters,
 * settings, theme and the timeline's view. Components get it through `useLens()`.
 */
export function createLens(adapter: LensAdapter) {
  const store = createCaptureStore(adapter.capture);
  const live = createLiveSource(store);
  const settings = createSettingsStore(adapter.settings);
  const options = () => ({ appSeqPointers: settings.settings.peek().appSeqPointers });
  const workspace = createWorkspace(live, options);
  const selection = createSelection();
  const filters = createFilters();
  const timeline = createTimelineStore();
  const theme = signal(adapter.theme.current());

  const source = workspace.active;
  const report = computed(() => source.value.report.value);
  const session = computed((): SessionReport | null => {
    const sessions = report.value?.sessions ?? [];
    // Until the user picks one: the newest session with an error, else the newest session.
    const newestBroken = sessions.findLast((s) => s.findings.some((f) => f.severity === 'error'));
    return sessions.find((s) => s.key === selection.session.value) ?? newestBroken ?? sessions.at(-1) ?? null;
  });
  const sessionKey = computed(() => session.value?.key ?? null);
  // Request ids per stream never change once sent: parse each request body once per source.
  const requestIds = computed(() => {
    const current = source.value;
    const cache = new Map<number, string[]>();
    return (stream: number): string[] => {
      let keys = cache.get(stream);
      if (!keys) cache.set(stream, (keys = requestIdKeys(current.exchange(stream)?.body)));
      return keys;
    };
  });
  const matcher = computed(() => matcherOf(filters, requestIds.value));
  const timelineData = computed(() => {
    const current = session.value;
    if (!current) return null;
    const src = source.value;
    const match = matcher.value;
    return sessionMarks({
      session: current,
      events: (stream) => src.events(stream),
      startTime: (stream) => src.exchange(stream)?.startTime,
      endTime: (stream) => src.exchange(stream)?.end.time,
      ...(match ? { includeStream: match.includeStream, include: match.include } : {}),
    });
  });
  const idOf = (stream: number, event: number): string | undefined => {
    const id = source.value.events(stream).idAt(event);
    return id === undefined ? undefined : shortId(id);
  };

  function start(): () => void {
    const stops = [
      store.start(),
      adapter.theme.subscribe((next) => void (theme.value = next)),
      // Another capture or session: start from its overview, with nothing selected.
      effect(() => {
        void source.value;
        void sessionKey.value;
        selection.mark.value = null;
        timeline.following.value = true;
      }),
      effect(() => timeline.follow(timelineData.value)),
      // A selection made anywhere (findings, lists, keys) is brought into view.
      effect(() => {
        const mark = selection.mark.value;
        const data = timelineData.peek();
        const time = mark && data ? timeOfMark(data, mark) : undefined;
        if (time !== undefined) timeline.reveal(time);
      }),
    ];
    void settings.load().then(() => {
      stops.push(effect(() => store.setMaxExchanges(settings.settings.value.maxExchanges)));
      stops.push(effect(() => store.setMaxEvents(settings.settings.value.maxEvents)));
      let first = true;
      stops.push(effect(() => {
        const pointers = settings.settings.value.appSeqPointers;
        if (first) return void (first = false);
        workspace.reanalyse({ appSeqPointers: pointers });
      }));
      workspace.reanalyse(options());
    });
    return () => stops.forEach((stop) => stop());
  }

  return { adapter, store, workspace, source, report, session, selection, filters, settings, timeline, timelineData, theme, idOf, start };
}

export type Lens = ReturnType<typeof createLens>;
