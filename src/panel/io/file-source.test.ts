import { describe, expect, it } from 'vitest';
import { scenarios } from '../../../test/support/scenarios';
import { analyze, createAnalyzer, feed, readHar, writeHar, type Report } from '../../core/index';
import { createFileSource } from './file-source';

const text = JSON.stringify(writeHar([...scenarios.lostBuffer(), ...scenarios.genuine()], { redact: false }));
const file = new Blob([text]);
/** The exchanges as the file holds them (each knows its entry, which findings cite). */
const read = readHar(text);
if (!read.ok) throw new Error(read.reason);
const { exchanges } = read;

/** A source over `file` (analysed in this thread: Node has no Worker), and what its hooks heard. */
function source() {
  const heard = { progress: 0, reports: [] as Report[] };
  const made = createFileSource('f', 'f.har', file, {}, { progress: () => void heard.progress++, analysed: (report) => void heard.reports.push(report) });
  return { made, heard };
}

describe('a file as a capture', () => {
  it('shows what analysing its exchanges gives: the report, each stream\'s events and exchange', async () => {
    const { made, heard } = source();
    expect(made.report.value).toBeNull();
    expect(await made.settled()).toEqual({ ok: true, exchanges: exchanges.length, skippedEntries: 0, problems: [] });
    expect(made.report.value).toEqual(analyze(exchanges));
    expect(heard.reports.at(-1)).toBe(made.report.value);
    expect(heard.progress).toBeGreaterThan(0);
    const analyzer = createAnalyzer();
    feed(analyzer, exchanges);
    for (let stream = 0; stream < exchanges.length; stream++) {
      expect([...made.events(stream)]).toEqual([...analyzer.events(stream)]);
      expect(made.exchange(stream)).toEqual(exchanges[stream]);
    }
    // The same table each time: the views key what they built from it on it.
    expect(made.events(1)).toBe(made.events(1));
  });

  it('reads the file again with new options, showing the old analysis until the new one comes', async () => {
    const { made } = source();
    await made.settled();
    const before = made.report.value;
    const table = made.events(1);
    made.reanalyse({ appSeqPointers: ['/params/x'] });
    expect(made.report.value).toBe(before);
    expect(made.events(1)).toBe(table);
    expect((await made.settled())?.ok).toBe(true);
    expect(made.report.value).toEqual(analyze(exchanges, { appSeqPointers: ['/params/x'] }));
    expect(made.report.value?.sessions[0]?.resumes[0]?.verdict).toBe('gap');
    expect(made.events(1)).not.toBe(table);
    expect(made.events(1).length).toBe(table.length);
  });

  it('can be cancelled: it then settles with no verdict, and shows nothing more', async () => {
    const { made, heard } = source();
    made.cancel();
    expect(await made.settled()).toBeUndefined();
    expect(made.report.value).toBeNull();
    expect(heard.reports).toEqual([]);
  });
});
