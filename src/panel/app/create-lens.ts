import { computed, effect, signal } from '@preact/signals';
import type { SessionReport } from '../../core/index';
import { createCaptureStore } from '../capture-store';
import { groupFindings, instanceKey, stepFinding, type FindingInstance } from '../findings/finding-groups';
import type { LensAdapter } from '../host/lens-adapter';
import { createFilters, matcherOf } from '../model/filters';
import { createLiveSource } from '../model/live-source';
import { createRequests } from '../model/requests';
import { createSelection } from '../model/selection';
import { createSettingsStore } from '../model/settings-store';
import { troubledSession } from '../model/severity';
import { createWorkspace } from '../model/workspace';
import { prefersEventOrder, toEventOrder } from '../timeline/event-order';
import { timeOfMark } from '../timeline/navigation';
import { sessionMarks } from '../timeline/session-marks';
import { createTimelineStore } from '../timeline/timeline-store';
import { shortId } from '../text/visible';

/** What the x axis counts; `auto` is event order when a burst would stack on one pixel column. */
export type AxisChoice = 'auto' | 'time' | 'order';

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
  const axisChoice = signal<AxisChoice>('auto');
  /** The timeline plot's width in CSS px, measured by the timeline (auto axis needs it). */
  const plotWidth = signal(700);
  /** Event rows in time order, oldest first, or newest first. */
  const tableOrder = signal<'asc' | 'desc'>('asc');

  const source = workspace.active;
  const report = computed(() => source.value.report.value);
  const session = computed((): SessionReport | null => {
    const sessions = report.value?.sessions ?? [];
    // Until the user picks one: where the trouble is (the worst finding), else the newest.
    return sessions.find((s) => s.key === selection.session.value) ?? troubledSession(sessions);
  });
  const sessionKey = computed(() => session.value?.key ?? null);
  // Request bodies never change once sent: each is parsed once per source (requests.ts).
  const requests = computed(() => createRequests(source.value));
  const matcher = computed(() => {
    const current = session.value;
    const known = requests.value;
    return matcherOf(filters, known.ids, (idKey) => (current ? known.methodsById(current).get(idKey) : undefined));
  });
  /** The session's marks on a time axis, filtered. */
  const timeData = computed(() => {
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
  const axis = computed((): 'time' | 'order' => {
    const choice = axisChoice.value;
    if (choice !== 'auto') return choice;
    const data = timeData.value;
    return data && prefersEventOrder(data, plotWidth.value) ? 'order' : 'time';
  });
  /** What the timeline draws: the marks on the chosen axis. */
  const timelineData = computed(() => {
    const data = timeData.value;
    return data && axis.value === 'order' ? toEventOrder(data) : data;
  });
  // The same groups while the findings stay the same: a live report is rebuilt every frame, and
  // the cards need not be.
  let groupsKey = '';
  let groups: ReturnType<typeof groupFindings> = [];
  const findingGroups = computed(() => {
    const sessions = report.value?.sessions ?? [];
    const key = sessions.map((s) => `${s.key}\u0000${s.findings.map((f) => `${f.code}:${f.stream}:${f.event}:${f.message}`).join(',')}`).join('\u0001');
    if (key !== groupsKey) (groupsKey = key), (groups = groupFindings(sessions));
    return groups;
  });
  /** The finding last gone to (n / p, a click): identified across live reports. */
  const findingCursor = signal<string | null>(null);
  const idOf = (stream: number, event: number): string | undefined => {
    const id = source.value.events(stream).idAt(event);
    return id === undefined ? undefined : shortId(id);
  };

  /** Selects what a finding points at: its event, or its stream when it names no event. */
  function goToFinding(f: FindingInstance): void {
    findingCursor.value = instanceKey(f);
    selection.selectSession(f.session);
    const events = source.value.events(f.stream);
    if (f.event !== null && f.event < events.length) selection.selectMark({ stream: f.stream, event: f.event });
    else selection.selectStream(f.stream);
  }

  function start(): () => void {
    const stops = [
      store.start(),
      adapter.theme.subscribe((next) => void (theme.value = next)),
      // Another capture or session: start from its overview, with nothing selected.
      effect(() => {
        void source.value;
        void sessionKey.value;
        selection.clear();
        timeline.following.value = true;
      }),
      // Another axis: the old view's numbers mean nothing on the new one.
      effect(() => {
        void axis.value;
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
      // Full fidelity holds only while this panel is open: the background detaches when it goes.
      stops.push(effect(() => store.fidelityControl?.set(settings.settings.value.fullFidelity)));
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

  return {
    adapter, store, workspace, source, report, session, sessionKey, selection, filters, settings, timeline, timelineData, theme, idOf, start,
    requests, axisChoice, axis, plotWidth, tableOrder, findingGroups, findingCursor, goToFinding,
    /** Goes to the next (1) or previous (-1) finding, as F8 / Shift+F8 step through matches in DevTools. */
    stepFinding(step: 1 | -1): void {
      const next = stepFinding(findingGroups.peek(), findingCursor.peek(), step);
      if (next) goToFinding(next);
    },
  };
}

export type Lens = ReturnType<typeof createLens>;
