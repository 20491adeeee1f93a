import { createAnalyzer, type AnalysisOptions, type Analyzer, type BodyChunk, type Report, type RequestInfo, type ResponseInfo, type StreamEnd, type Transport } from '../core/index';

/**
 * Exchanges one analyzer takes before the guard starts a fresh one. The core keeps every event
 * it is fed, and a client may live for days: so the guard keeps two analyzers at most, the
 * current one and the one before it, for the resumes of streams that it saw.
 */
export const MAX_EXCHANGES_PER_ANALYZER = 1_000;
/** Last event ids remembered to send a resume to the analyzer that saw its stream. */
const MAX_RESUMABLE_IDS = 2 * MAX_EXCHANGES_PER_ANALYZER;

/** One exchange as the guard's analysis holds it: its analyzer and its stream index there. */
export interface Watched {
  readonly analyzer: Analyzer;
  readonly index: number;
}

/** The guard's analysis: the core's analyzers, in generations of bounded size. */
export interface GuardAnalysis {
  /** Opens an exchange; a resume goes to the analyzer that delivered its `Last-Event-ID`. */
  open(request: RequestInfo, lastEventId: string | null): Watched;
  respond(at: Watched, response: ResponseInfo): void;
  chunk(at: Watched, chunk: BodyChunk): void;
  end(at: Watched, end: StreamEnd): void;
  /** The transport of the session `at` belongs to, once the core knows it. */
  transportOf(at: Watched): Transport | undefined;
  /** The report of the analyzer `at` is in (by default the current one). */
  report(at?: Watched): Report;
  /** Analyzers retired so far, and exchanges forgotten with them. */
  stats(): { retiredAnalyzers: number; forgottenExchanges: number };
  /** Streams whose resume decision is pending: while any is, no analyzer is retired. */
  hold(delta: 1 | -1): void;
}

interface Generation {
  analyzer: Analyzer;
  exchanges: number;
  /** Session key to transport, cached: asking the report for it costs what the report costs. */
  transports: Map<string, Transport>;
}

export function createGuardAnalysis(options: AnalysisOptions): GuardAnalysis {
  const fresh = (): Generation => ({ analyzer: createAnalyzer(options), exchanges: 0, transports: new Map() });
  let current = fresh();
  let previous: Generation | undefined;
  const generations = new Map<Analyzer, Generation>([[current.analyzer, current]]);
  /** The analyzer that delivered each remembered last event id, oldest first. */
  const lastIds = new Map<string, Analyzer>();
  let held = 0;
  let retiredAnalyzers = 0;
  let forgottenExchanges = 0;

  const rotate = (): void => {
    if (previous) {
      generations.delete(previous.analyzer);
      for (const [id, analyzer] of lastIds) if (analyzer === previous.analyzer) lastIds.delete(id);
      retiredAnalyzers += 1;
      forgottenExchanges += previous.exchanges;
    }
    previous = current;
    current = fresh();
    generations.set(current.analyzer, current);
  };

  const rememberLastId = (at: Watched): void => {
    const events = at.analyzer.events(at.index);
    for (let i = events.length - 1; i >= 0; i--) {
      const id = events.idAt(i);
      if (id === undefined || id === '') continue;
      lastIds.delete(id);
      lastIds.set(id, at.analyzer);
      if (lastIds.size > MAX_RESUMABLE_IDS) lastIds.delete(lastIds.keys().next().value!);
      return;
    }
  };

  return {
    open(request, lastEventId) {
      const owner = lastEventId === null ? undefined : lastIds.get(lastEventId);
      if (!owner && held === 0 && current.exchanges >= MAX_EXCHANGES_PER_ANALYZER) rotate();
      const generation = (owner && generations.get(owner)) || current;
      generation.exchanges += 1;
      return { analyzer: generation.analyzer, index: generation.analyzer.open(request) };
    },
    respond: (at, response) => at.analyzer.respond(at.index, response),
    chunk: (at, chunk) => at.analyzer.chunk(at.index, chunk),
    end(at, end) {
      at.analyzer.end(at.index, end);
      if (generations.has(at.analyzer)) rememberLastId(at);
    },
    transportOf(at) {
      const key = at.analyzer.sessionOf(at.index);
      const generation = generations.get(at.analyzer);
      if (key === undefined || !generation) return undefined;
      let transport = generation.transports.get(key);
      if (transport === undefined) {
        transport = at.analyzer.report().sessions.find((s) => s.key === key)?.transport;
        if (transport !== undefined) generation.transports.set(key, transport);
      }
      return transport;
    },
    report: (at) => (at?.analyzer ?? current.analyzer).report(),
    stats: () => ({ retiredAnalyzers, forgottenExchanges }),
    hold(delta) {
      held += delta;
    },
  };
}
