import { describe, expect, it } from 'vitest';
import { exchange, rpc, sse } from '../../../test/support/fixtures';
import { scenarios } from '../../../test/support/scenarios';
import { analyze, createAnalyzer, feed, readHar, writeHar, type Exchange } from '../../core/index';
import { analyseHarBlob, FIRST_POSTED_EVENTS, MAX_POSTED_EVENTS, MAX_UNTAKEN } from './analyse-har-blob';
import type { ImportReply } from './import-messages';
import { createPacing, type Pacing } from './pacing';
import { createTableCopy, type TableCopy } from './table-copy';

/** Progress events in the long stream: more than one analysis holds. */
const LONG = 3 * MAX_POSTED_EVENTS;

/** Sessions of the lost-buffer scenario, then one tool call that streams {@link LONG} events. */
function harText(): string {
  const long = exchange({
    session: 'long',
    body: rpc.call(1),
    text: sse(Array.from({ length: LONG }, (_, i) => ({ id: `e${i + 1}`, data: rpc.progress('tok-1', i + 1, i + 1) }))),
  });
  return JSON.stringify(writeHar([...scenarios.lostBuffer(), ...scenarios.genuine(), long], { redact: false }));
}

/** Runs the analysis with a panel that takes each post in at once; what was posted, in order. */
async function run(text: string, cancelAfter = Infinity): Promise<ImportReply[]> {
  const replies: ImportReply[] = [];
  let analyses = 0;
  const pacing = createPacing();
  await analyseHarBlob(new Blob([text]), {}, {
    post: (reply) => {
      replies.push(structuredClone(reply));
      if (reply.kind === 'analysis') analyses++, pacing.take();
    },
    pacing,
    cancelled: () => analyses >= cancelAfter,
  });
  return replies;
}

describe('the import worker\'s analysis', () => {
  it('hands over the exchanges, each stream\'s events and the report that analysing the whole file gives', async () => {
    const text = harText();
    const whole = readHar(text);
    if (!whole.ok) throw new Error(whole.reason);
    const replies = await run(text);
    const exchanges: Exchange[] = [];
    const tables = new Map<number, TableCopy>();
    for (const reply of replies) {
      if (reply.kind === 'exchanges') exchanges.push(...reply.exchanges);
      if (reply.kind !== 'analysis') continue;
      // Every stream it names has its exchange over here already.
      for (const slice of reply.slices) expect(slice.stream).toBeLessThan(exchanges.length);
      expect(Math.max(-1, ...reply.report.sessions.flatMap((s) => s.streams.map((x) => x.index)))).toBeLessThan(exchanges.length);
      for (const slice of reply.slices) {
        if (!tables.has(slice.stream)) tables.set(slice.stream, createTableCopy());
        tables.get(slice.stream)!.append(slice);
      }
    }
    expect(replies.at(-1)).toEqual({ kind: 'done', result: { ok: true, exchanges: whole.exchanges.length, skippedEntries: 0, problems: [] } });
    // As text: vitest's deep equality is slow on a body of megabytes.
    expect(JSON.stringify(exchanges)).toBe(JSON.stringify(whole.exchanges));
    const last = replies.filter((r) => r.kind === 'analysis').at(-1)!;
    expect(last.report).toEqual(analyze(whole.exchanges));
    const analyzer = createAnalyzer();
    feed(analyzer, whole.exchanges);
    for (let stream = 0; stream < whole.exchanges.length; stream++) {
      const copy = tables.get(stream) ?? createTableCopy();
      // As text too (no event of these has a NaN, which JSON would not tell from null).
      expect(JSON.stringify([...copy]), `stream ${stream}`).toBe(JSON.stringify([...analyzer.events(stream)]));
    }
    expect(tables.get(whole.exchanges.length - 1)!.length).toBe(LONG);
  });

  it('posts a few events first, then at most about MAX_POSTED_EVENTS at a time', async () => {
    const replies = await run(harText());
    const counts = replies.flatMap((r) => (r.kind === 'analysis' ? [r.slices.reduce((n, s) => n + s.times.length, 0)] : []));
    // A body is fed a piece at a time: an analysis may go past its bound by one piece's events.
    const piece = 64 * 1024 / sse([{ id: 'e1', data: rpc.progress('tok-1', 1, 1) }]).length;
    expect(counts[0]).toBeLessThanOrEqual(FIRST_POSTED_EVENTS + piece);
    for (const count of counts) expect(count).toBeLessThanOrEqual(MAX_POSTED_EVENTS + piece);
    expect(counts.length).toBeGreaterThanOrEqual(Math.ceil(LONG / (MAX_POSTED_EVENTS + piece)));
    expect(counts.reduce((a, b) => a + b)).toBe(LONG + analyze(scenarios.lostBuffer()).summary.events + analyze(scenarios.genuine()).summary.events);
  });

  it('runs ahead of what the panel has taken in by at most MAX_UNTAKEN analyses, and not at all at first', async () => {
    const log: string[] = [];
    const pacing = createPacing();
    // The panel takes an analysis in a turn of the event loop after the analysis starts to wait
    // for it: a turn in which the file's next chunk could be read and analysed.
    const watched: Pacing = {
      get taken() {
        return pacing.taken;
      },
      next() {
        log.push('waits');
        setTimeout(() => pacing.take(), 0);
        return pacing.next();
      },
    };
    const untaken: number[] = [];
    await analyseHarBlob(new Blob([harText()]), {}, {
      post: (reply) => {
        if (reply.kind === 'analysis') untaken.push(untaken.length - pacing.taken);
        log.push(reply.kind);
      },
      pacing: watched,
      cancelled: () => false,
    });
    expect(untaken.length).toBeGreaterThan(2);
    expect(Math.max(...untaken)).toBe(MAX_UNTAKEN);
    // The first is taken in before the second comes: the panel's first render of the capture.
    expect(untaken[1]).toBe(0);
    expect(log.filter((kind) => kind === 'waits').length).toBeGreaterThanOrEqual(untaken.length - MAX_UNTAKEN);
    expect(log.at(-1)).toBe('done');
  });

  it('posts nothing more once cancelled', async () => {
    const replies = await run(harText(), 1);
    expect(replies.filter((r) => r.kind === 'analysis')).toHaveLength(1);
    expect(replies.some((r) => r.kind === 'done')).toBe(false);
  });

  it('says why a file is not HAR, and posts no analysis of it', async () => {
    const replies = await run('{"log": {"entries": [1, ');
    expect(replies.filter((r) => r.kind === 'analysis')).toEqual([]);
    expect(replies.at(-1)).toMatchObject({ kind: 'done', result: { ok: false, reason: expect.stringContaining('not valid JSON') } });
  });
});
